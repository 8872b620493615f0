//===- SearchLimits.h - memory cap of the searches over executed sets ----===//
//
// The exact search (SchedExact.cpp) and the band search (SchedBand.cpp) stop
// when their tables and queues pass a memory cap that grows with the state
// budget, so that the budget is what binds. Internal to the library.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_LIB_ANALYSIS_GRAPH_SEARCHLIMITS_H
#define MEMSCHED_LIB_ANALYSIS_GRAPH_SEARCHLIMITS_H

#include <algorithm>
#include <cstdint>

namespace memsched_core {
namespace sched {

/// Bytes a search may hold with a budget of `stateBudget` states: 256 per
/// budgeted state, and at least 512 MiB.
inline uint64_t searchMemoryLimit(uint64_t stateBudget) {
  constexpr uint64_t kMinBytes = uint64_t(512) << 20;
  constexpr uint64_t kBytesPerBudgetedState = 256;
  if (stateBudget > UINT64_MAX / kBytesPerBudgetedState)
    return UINT64_MAX;
  return std::max(kMinBytes, stateBudget * kBytesPerBudgetedState);
}

} // namespace sched
} // namespace memsched_core

#endif // MEMSCHED_LIB_ANALYSIS_GRAPH_SEARCHLIMITS_H
