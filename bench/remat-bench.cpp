//===- remat-bench.cpp - the choice of recomputations, without MLIR -------===//
//
// memsched-remat-bench --graph FILE.graph.json [--budget-fraction F]
//     [--max-extra F] [--states N] [--sweep] [--prove]
//
// Reads a graph file with node costs and recomputable buffers (written by
// `memsched-opt --memsched-schedule=graph-dir=DIR`, docs/graph-format.md),
// schedules it, and runs chooseRemat at a budget of F times the scheduled
// peak (default 0.9; extra cost limited to --max-extra times the total cost,
// default 0.1, negative: none; --states: exact-search states per segment
// when a candidate is priced, default 20000). Prints one line of key=value:
// base_peak, budget, peak, met, choices, clones, extra_cost, total_cost,
// extra_ppm, seconds. With --prove, when the budget is not met, first a
// line with rematBound's result for plans within the same limit over the
// file's sources: remat_bound, proved (above the budget), relaxations,
// complete, bound_seconds. With --sweep, one line per budget from 1.00 down to
// 0.50 of the base peak in steps of 0.05, and exit status 1 if a smaller
// budget ever ends at a higher peak.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Graph/GraphIO.h"
#include "Analysis/Graph/Remat.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace memsched_core;

namespace {
struct Args {
  std::string graph;
  double fraction = 0.9, maxExtra = 0.1;
  uint64_t states = 20000;
  bool sweep = false, prove = false;
};

bool parseArgs(int argc, char **argv, Args &args) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    const char *value = i + 1 < argc ? argv[i + 1] : nullptr;
    if (a == "--sweep") {
      args.sweep = true;
      continue;
    }
    if (a == "--prove") {
      args.prove = true;
      continue;
    }
    if (!value)
      return false;
    char *end = nullptr;
    if (a == "--graph")
      args.graph = value;
    else if (a == "--budget-fraction")
      args.fraction = std::strtod(value, &end);
    else if (a == "--max-extra")
      args.maxExtra = std::strtod(value, &end);
    else if (a == "--states")
      args.states = std::strtoull(value, &end, 10);
    else
      return false;
    if (end && *end)
      return false;
    ++i;
  }
  return !args.graph.empty() && args.fraction >= 0;
}

struct Run {
  RematPlan plan;
  RematBound bound;
  bool proved = false;
  uint64_t budget = 0, totalCost = 0;
  double seconds = 0;
};

Run run(const MemoryGraph &graph, const GraphRematData &data, double fraction,
        const Args &args, uint64_t basePeak) {
  Run r;
  for (NodeId n = 0; n < graph.numNodes(); ++n)
    r.totalCost += n < data.cost.size() ? data.cost[n] : 1;
  RematOptions options;
  options.budget = static_cast<uint64_t>(fraction * double(basePeak));
  if (args.maxExtra >= 0)
    options.maxExtraCost = static_cast<uint64_t>(args.maxExtra * double(r.totalCost));
  options.schedule.exactStateBudget = args.states;
  r.budget = options.budget;
  auto start = std::chrono::steady_clock::now();
  r.plan = chooseRemat(graph, data.sources, data.cost, options);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (args.prove && !r.plan.metBudget) {
    RematBoundOptions bo;
    bo.target = options.budget;
    bo.maxExtraCost = options.maxExtraCost;
    bo.schedule.exactStateBudget = args.states;
    auto t = std::chrono::steady_clock::now();
    r.bound = rematBound(graph, data.sources, data.cost, bo);
    r.proved = true;
    std::printf("remat_bound=%llu proved=%d relaxations=%llu complete=%d "
                "bound_seconds=%.3f\n",
                (unsigned long long)r.bound.value, r.bound.proved ? 1 : 0,
                (unsigned long long)r.bound.relaxations,
                r.bound.complete ? 1 : 0,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count());
  }
  return r;
}

void print(const Run &r) {
  std::printf("base_peak=%llu budget=%llu peak=%llu met=%d choices=%zu "
              "clones=%u extra_cost=%llu total_cost=%llu extra_ppm=%llu "
              "seconds=%.3f\n",
              (unsigned long long)r.plan.basePeak, (unsigned long long)r.budget,
              (unsigned long long)r.plan.peak, r.plan.metBudget ? 1 : 0,
              r.plan.choices.size(), r.plan.clonedNodes,
              (unsigned long long)r.plan.extraCost,
              (unsigned long long)r.totalCost,
              (unsigned long long)(r.totalCost
                                       ? (unsigned __int128)r.plan.extraCost *
                                             1000000 / r.totalCost
                                       : 0),
              r.seconds);
}
} // namespace

int main(int argc, char **argv) {
  Args args;
  bool help = false;
  for (int i = 1; i < argc; ++i)
    help |= std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h";
  if (help || !parseArgs(argc, argv, args)) {
    // On stdout with exit code 0 for --help.
    std::fprintf(help ? stdout : stderr,
                 "usage: %s --graph FILE [--budget-fraction F] [--max-extra F] "
                 "[--states N] [--sweep] [--prove]\n",
                 argv[0]);
    return help ? 0 : 2;
  }
  MemoryGraph graph;
  GraphRematData data;
  std::string error;
  if (!readGraphFile(args.graph, graph, error, &data)) {
    std::fprintf(stderr, "error: %s\n", error.c_str());
    return 2;
  }
  ScheduleOptions base;
  base.exactStateBudget = args.states;
  uint64_t basePeak = schedule(graph, base).peak;
  if (!args.sweep) {
    print(run(graph, data, args.fraction, args, basePeak));
    return 0;
  }
  uint64_t previous = UINT64_MAX;
  bool monotone = true;
  for (int step = 20; step >= 10; --step) {
    Run r = run(graph, data, step * 0.05, args, basePeak);
    print(r);
    monotone &= r.plan.peak <= previous;
    previous = r.plan.peak;
  }
  std::printf("monotone=%d\n", monotone ? 1 : 0);
  return monotone ? 0 : 1;
}
