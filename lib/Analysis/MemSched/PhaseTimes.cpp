//===- PhaseTimes.cpp - wall time per phase of a pass run -------*- C++ -*-===//

#include "Analysis/MemSched/PhaseTimes.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir::memsched;

namespace {
thread_local PhaseTimes *activeTimes = nullptr;
thread_local PhaseScope *innermostScope = nullptr;
} // namespace

void PhaseTimes::add(llvm::StringRef phase, double seconds) {
  for (Entry &entry : entries)
    if (entry.phase == phase) {
      entry.seconds += seconds;
      ++entry.count;
      return;
    }
  entries.push_back({phase.str(), seconds, 1});
}

double PhaseTimes::getTotal() const {
  double total = 0;
  for (const Entry &entry : entries)
    total += entry.seconds;
  return total;
}

std::string PhaseTimes::str() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  bool first = true;
  for (const Entry &entry : entries) {
    os << (first ? "" : ", ") << entry.phase << " "
       << llvm::format("%.3f", entry.seconds) << " s";
    if (entry.count > 1)
      os << " (x" << entry.count << ")";
    first = false;
  }
  return text;
}

ActivePhaseTimes::ActivePhaseTimes(PhaseTimes *times)
    : previous(activeTimes) {
  activeTimes = times;
}

ActivePhaseTimes::~ActivePhaseTimes() { activeTimes = previous; }

PhaseScope::PhaseScope(const char *phase) : phase(phase), times(activeTimes) {
  if (!times)
    return;
  parent = innermostScope;
  innermostScope = this;
  start = std::chrono::steady_clock::now();
}

PhaseScope::~PhaseScope() {
  if (!times)
    return;
  double elapsed = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  times->add(phase, elapsed - nested);
  innermostScope = parent;
  if (parent)
    parent->nested += elapsed;
}
