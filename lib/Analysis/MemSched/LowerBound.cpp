// placeholder, replaced by the bound implementation
#include "Analysis/MemSched/LowerBound.h"
using namespace memsched;
LowerBound memsched::computeLowerBound(const MemoryGraph &, const LowerBoundOptions &) { return {}; }
