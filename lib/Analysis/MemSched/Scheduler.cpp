// placeholder, replaced by the scheduler implementation
#include "Analysis/MemSched/Scheduler.h"
using namespace memsched;
ScheduleResult memsched::schedule(const MemoryGraph &graph, const ScheduleOptions &) {
  ScheduleResult r; r.order = graph.programOrder(); r.peak = r.inputPeak = evaluatePeak(graph, r.order); return r;
}
