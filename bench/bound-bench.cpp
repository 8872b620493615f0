//===- bound-bench.cpp - speed and tightness of the lower bound -*- C++ -*-===//
//
// memsched-bound-bench --family layered --nodes 10000 --seed 1
//   (or --graph FILE.graph.json: a graph read from a file, family=file)
//     [--target-from-program-order | --target-from-schedule]
//     [--algorithm auto|dinic|boykov-kolmogorov|push-relabel] [--window N]
//     [--ends-budget N] [--ends-depth N] [--work-budget N]
//     [--no-witness-estimates]
//   Certifies one generated graph and prints key=value lines: nodes, bound,
//   kind, maxflows, networks, witness_orders, improved_peak (the best
//   witness order's peak when it beats every order given, else 0), seconds,
//   max_rss_kb.
// memsched-bound-bench --tightness N [--window N] [--min-nodes A]
//     [--max-nodes B]
//   Over N graphs per family with A..B nodes (default 2..16, at most 20): the
//   fraction whose bound equals the exhaustive optimum, for the node cuts
//   alone, with the window search, with the ends searches, and with all.
// memsched-bound-bench --compare-flows --family F --nodes N --seed S
//   Runs the node cuts with every max-flow algorithm (no target, window, ends
//   search or work budget, so each solves the same cuts) and prints times.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Graph/GraphGenerators.h"
#include "Analysis/Graph/GraphIO.h"
#include "Analysis/Graph/LowerBound.h"
#include "Analysis/Graph/Scheduler.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/resource.h>

using namespace memsched_core;

namespace {
struct Args {
  std::string family = "layered";
  std::string graphFile;
  unsigned nodes = 10000;
  uint64_t seed = 1;
  std::string target = "none";
  MaxFlowAlgorithm algorithm = LowerBoundOptions().algorithm;
  unsigned window = LowerBoundOptions().windowSize;
  uint64_t endsBudget = LowerBoundOptions().endsEvaluationBudget;
  unsigned endsDepth = LowerBoundOptions().endsMaxDepth;
  uint64_t workBudget = 0;
  unsigned tightness = 0;
  unsigned minNodes = 2, maxNodes = 16;
  bool compareFlows = false;
  bool witnessEstimates = true;
};
} // namespace

static double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

static long maxRssKb() {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

static bool parseFamily(const std::string &name, GraphFamily &family) {
  for (GraphFamily f : allFamilies())
    if (name == familyName(f)) {
      family = f;
      return true;
    }
  return false;
}

static bool parseAlgorithm(const std::string &name, MaxFlowAlgorithm &alg) {
  for (MaxFlowAlgorithm a :
       {MaxFlowAlgorithm::Dinic, MaxFlowAlgorithm::BoykovKolmogorov,
        MaxFlowAlgorithm::PushRelabel, MaxFlowAlgorithm::Auto})
    if (name == maxFlowAlgorithmName(a)) {
      alg = a;
      return true;
    }
  return false;
}

/// The usage (on stdout with exit code 0 for --help, on stderr with 2 for
/// a bad argument).
static int usage(bool help = false) {
  std::fprintf(help ? stdout : stderr,
               "usage: memsched-bound-bench [--family F] [--nodes N] "
               "[--seed S] | [--graph FILE]\n"
               "           [--target-from-program-order | "
               "--target-from-schedule] [--algorithm A] [--window W] "
               "[--ends-budget N] [--ends-depth N] [--work-budget N]\n"
               "           [--no-witness-estimates]\n"
               "       memsched-bound-bench --tightness N [--window W] "
               "[--min-nodes A] [--max-nodes B]\n"
               "       memsched-bound-bench --compare-flows [--family F] "
               "[--nodes N] [--seed S]\n");
  return help ? 0 : 2;
}

/// The bound configurations --tightness compares.
struct Config {
  const char *name;
  bool window, ends;
};
static const Config kConfigs[] = {{"cuts", false, false},
                                  {"cuts+window", true, false},
                                  {"cuts+ends", false, true},
                                  {"all", true, true}};

static int runTightness(const Args &args) {
  const size_t numConfigs = sizeof(kConfigs) / sizeof(kConfigs[0]);
  std::vector<unsigned> totalExact(numConfigs, 0);
  std::vector<double> totalSeconds(numConfigs, 0);
  unsigned total = 0;
  auto start = std::chrono::steady_clock::now();
  for (GraphFamily family : allFamilies()) {
    std::vector<unsigned> exact(numConfigs, 0);
    for (unsigned i = 0; i < args.tightness; ++i) {
      unsigned nodes = args.minNodes + i % (args.maxNodes - args.minNodes + 1);
      uint64_t seed = args.seed + i;
      MemoryGraph g = generateGraph(family, nodes, seed);
      uint64_t optimum = bruteForceMinPeak(g);
      for (size_t c = 0; c < numConfigs; ++c) {
        LowerBoundOptions options;
        options.algorithm = args.algorithm;
        options.windowSize = kConfigs[c].window ? args.window : 0;
        options.endsEvaluationBudget = kConfigs[c].ends ? args.endsBudget : 0;
        options.endsMaxDepth = args.endsDepth;
        auto boundStart = std::chrono::steady_clock::now();
        uint64_t bound = computeLowerBound(g, options).value;
        totalSeconds[c] += secondsSince(boundStart);
        if (bound > optimum) {
          std::printf("unsound family=%s nodes=%u seed=%llu config=%s "
                      "bound=%llu optimum=%llu\n",
                      familyName(family), nodes, (unsigned long long)seed,
                      kConfigs[c].name, (unsigned long long)bound,
                      (unsigned long long)optimum);
          return 1;
        }
        exact[c] += bound == optimum;
      }
    }
    std::printf("family=%s graphs=%u", familyName(family), args.tightness);
    for (size_t c = 0; c < numConfigs; ++c) {
      std::printf(" %s=%.4f", kConfigs[c].name,
                  double(exact[c]) / args.tightness);
      totalExact[c] += exact[c];
    }
    std::printf("\n");
    total += args.tightness;
  }
  std::printf("overall graphs=%u nodes=%u..%u", total, args.minNodes,
              args.maxNodes);
  for (size_t c = 0; c < numConfigs; ++c)
    std::printf(" %s=%.4f", kConfigs[c].name, double(totalExact[c]) / total);
  std::printf("\nbound_seconds");
  for (size_t c = 0; c < numConfigs; ++c)
    std::printf(" %s=%.3f", kConfigs[c].name, totalSeconds[c]);
  std::printf(" total_seconds=%.3f\n", secondsSince(start));
  return 0;
}

static int runCompareFlows(const Args &args, GraphFamily family) {
  MemoryGraph g = generateGraph(family, args.nodes, args.seed);
  std::printf("family=%s nodes=%zu\n", familyName(family), g.numNodes());
  for (MaxFlowAlgorithm a :
       {MaxFlowAlgorithm::Dinic, MaxFlowAlgorithm::BoykovKolmogorov,
        MaxFlowAlgorithm::PushRelabel, MaxFlowAlgorithm::Auto}) {
    LowerBoundOptions options;
    options.algorithm = a;
    options.windowSize = 0;
    options.endsEvaluationBudget = 0;
    options.workBudget = UINT64_MAX; // the same cuts for every algorithm
    auto start = std::chrono::steady_clock::now();
    LowerBound lb = computeLowerBound(g, options);
    std::printf("algorithm=%s bound=%llu maxflows=%u seconds=%.3f\n",
                maxFlowAlgorithmName(a), (unsigned long long)lb.value,
                lb.maxFlows, secondsSince(start));
  }
  return 0;
}

int main(int argc, char **argv) {
  Args args;
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h")
      return usage(/*help=*/true);
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> const char * {
      return i + 1 < argc ? argv[++i] : nullptr;
    };
    const char *v = nullptr;
    if (arg == "--family" && (v = value()))
      args.family = v;
    else if (arg == "--graph" && (v = value()))
      args.graphFile = v;
    else if (arg == "--nodes" && (v = value()))
      args.nodes = static_cast<unsigned>(std::strtoul(v, nullptr, 10));
    else if (arg == "--seed" && (v = value()))
      args.seed = std::strtoull(v, nullptr, 10);
    else if (arg == "--window" && (v = value()))
      args.window = static_cast<unsigned>(std::strtoul(v, nullptr, 10));
    else if (arg == "--ends-budget" && (v = value()))
      args.endsBudget = std::strtoull(v, nullptr, 10);
    else if (arg == "--ends-depth" && (v = value()))
      args.endsDepth = static_cast<unsigned>(std::strtoul(v, nullptr, 10));
    else if (arg == "--work-budget" && (v = value()))
      args.workBudget = std::strtoull(v, nullptr, 10);
    else if (arg == "--tightness" && (v = value()))
      args.tightness = static_cast<unsigned>(std::strtoul(v, nullptr, 10));
    else if (arg == "--min-nodes" && (v = value()))
      args.minNodes = static_cast<unsigned>(std::strtoul(v, nullptr, 10));
    else if (arg == "--max-nodes" && (v = value()))
      args.maxNodes = static_cast<unsigned>(std::strtoul(v, nullptr, 10));
    else if (arg == "--algorithm" && (v = value())) {
      if (!parseAlgorithm(v, args.algorithm))
        return usage();
    } else if (arg == "--target-from-program-order")
      args.target = "program-order";
    else if (arg == "--target-from-schedule")
      args.target = "schedule";
    else if (arg == "--compare-flows")
      args.compareFlows = true;
    else if (arg == "--no-witness-estimates")
      args.witnessEstimates = false;
    else
      return usage();
  }
  if (args.tightness) {
    if (args.minNodes < 1 || args.maxNodes < args.minNodes ||
        args.maxNodes > 20)
      return usage();
    return runTightness(args);
  }
  GraphFamily family = GraphFamily::Layered;
  const char *familyLabel = "file";
  MemoryGraph g;
  if (!args.graphFile.empty()) {
    std::string error;
    if (!readGraphFile(args.graphFile, g, error)) {
      std::fprintf(stderr, "error: %s\n", error.c_str());
      return 2;
    }
  } else {
    if (!parseFamily(args.family, family))
      return usage();
    if (args.compareFlows)
      return runCompareFlows(args, family);
    g = generateGraph(family, args.nodes, args.seed);
    familyLabel = familyName(family);
  }
  LowerBoundOptions options;
  options.algorithm = args.algorithm;
  options.windowSize = args.window;
  options.endsEvaluationBudget = args.endsBudget;
  options.endsMaxDepth = args.endsDepth;
  options.workBudget = args.workBudget;
  options.witnessEstimates = args.witnessEstimates;
  uint64_t peak = 0;
  std::vector<NodeId> order;
  double scheduleSeconds = 0;
  if (args.target == "program-order") {
    peak = evaluatePeak(g, g.programOrder());
    options.target = peak;
  } else if (args.target == "schedule") {
    auto start = std::chrono::steady_clock::now();
    ScheduleResult sched = schedule(g);
    scheduleSeconds = secondsSince(start);
    peak = sched.peak;
    order = sched.order;
    options.target = peak;
    options.order = &order;
  }

  auto start = std::chrono::steady_clock::now();
  LowerBound lb = computeLowerBound(g, options);
  double seconds = secondsSince(start);

  std::printf("family=%s\nnodes=%zu\nbuffers=%zu\nedges=%zu\n",
              familyLabel, g.numNodes(), g.numBuffers(), g.numEdges());
  std::printf("target=%s\n", args.target.c_str());
  if (args.target != "none")
    std::printf("peak=%llu\n", (unsigned long long)peak);
  if (args.target == "schedule")
    std::printf("schedule_seconds=%.3f\n", scheduleSeconds);
  std::printf("bound=%llu\nkind=%s\nmethod=%s\nnode=%u\nmaxflows=%u\n"
              "networks=%u\nwitness_orders=%u\nimproved_peak=%llu\n",
              (unsigned long long)lb.value, lb.kind.c_str(),
              lb.method.c_str(), lb.node, lb.maxFlows, lb.networks,
              lb.witnessOrders,
              (unsigned long long)(lb.improvedOrder.empty() ? 0
                                                            : lb.improvedPeak));
  if (args.target != "none")
    std::printf("certified=%s\n", lb.value >= peak ? "yes" : "no");
  std::printf("complete=%s\n", lb.complete ? "yes" : "no");
  std::printf("algorithm=%s\nseconds=%.3f\nmax_rss_kb=%ld\n",
              maxFlowAlgorithmName(options.algorithm), seconds, maxRssKb());
  return 0;
}
