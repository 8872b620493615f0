//===- PhaseTimes.h - wall time per phase of a pass run ---------*- C++ -*-===//
//
// The time one function's run of a memsched pass spends in each phase
// (analysis, bound, search, rewrite, certificate, ...), for the
// `phase-times` option and bench/scale.py. A PhaseTimes collects while it is
// active on the thread (ActivePhaseTimes); each PhaseScope on that thread
// adds its wall time, less that of the scopes nested in it, to its phase.
// Without an active PhaseTimes a scope costs one thread-local read.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_PHASETIMES_H
#define MEMSCHED_ANALYSIS_PHASETIMES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <chrono>
#include <string>

namespace mlir {
namespace memsched {

class PhaseTimes {
public:
  struct Entry {
    std::string phase;
    double seconds = 0;
    /// Scopes of the phase that ended.
    unsigned count = 0;
  };
  /// Adds `seconds` to `phase`, one more scope of it (phases keep the
  /// order they first came in).
  void add(llvm::StringRef phase, double seconds);
  llvm::ArrayRef<Entry> getEntries() const { return entries; }
  double getTotal() const;
  /// "analysis 1.234 s (x3), bound 0.456 s, ..." (milliseconds precision;
  /// the count where a phase ran more than once).
  std::string str() const;

private:
  llvm::SmallVector<Entry, 8> entries;
};

/// Makes `times` the thread's collector for its lifetime (the previous one,
/// if any, is restored after).
class ActivePhaseTimes {
public:
  explicit ActivePhaseTimes(PhaseTimes *times);
  ~ActivePhaseTimes();
  ActivePhaseTimes(const ActivePhaseTimes &) = delete;
  ActivePhaseTimes &operator=(const ActivePhaseTimes &) = delete;

private:
  PhaseTimes *previous;
};

/// Times one phase on this thread, exclusive of the scopes nested in it.
class PhaseScope {
public:
  explicit PhaseScope(const char *phase);
  ~PhaseScope();
  PhaseScope(const PhaseScope &) = delete;
  PhaseScope &operator=(const PhaseScope &) = delete;

private:
  const char *phase;
  PhaseTimes *times;
  PhaseScope *parent = nullptr;
  double nested = 0;
  std::chrono::steady_clock::time_point start;
};

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_ANALYSIS_PHASETIMES_H
