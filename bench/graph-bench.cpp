//===- graph-bench.cpp - speed and quality of the scheduler -----*- C++ -*-===//
//
// memsched-graph-bench --family layered --nodes 10000 --seed 1
//     [--budget N] [--rounds N] [--heuristic-only] [--no-peers]
//     [--no-repair] [--repair-work-budget N] [--write-graph FILE]
//     [--no-contract] [--no-chains] [--windows N] [--window-width W]
//   Schedules one generated graph (--write-graph: and writes it as a graph
//   file, docs/graph-format.md, to try other tools on the same graph) and prints one key=value line: nodes,
//   edges, buffers, input and result peak, the scheduler's static lower bound
//   for the whole graph (not the certificate's), segments, exact and
//   heuristic segments, the repair's cuts and accepted orders, seconds,
//   max_rss_kb.
//   --certify: as memsched-schedule does, the min-cut lower bound first
//   (target: the input's peak), which also tells the search when to stop;
//   the line adds bound= (the larger of it and what the search proved),
//   certified=, gap_pct= and bound_seconds=.
// memsched-graph-bench --graph FILE.graph.json [--budget N] [...]
//   The same line for a graph read from a file (docs/graph-format.md), e.g.
//   one written by `memsched-schedule{graph-dir=DIR}`; family=file.
// memsched-graph-bench --optimality N [--seed S]
//   Per family, N graphs of 2..30 nodes and N graphs of 31..200 nodes. Up to
//   20 nodes the result is compared with bruteForceMinPeak; above, the line
//   counts the graphs the exact search solved within the default budget
//   (provedOptimal). Results of heuristicOnly mode (list scheduling plus
//   local search, whose windows of up to ~32 nodes are reordered exactly)
//   are compared with the optimum wherever it is known.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Graph/GraphGenerators.h"
#include "Analysis/Graph/GraphIO.h"
#include "Analysis/Graph/LowerBound.h"
#include "Analysis/Graph/SchedSegment.h"
#include "Analysis/Graph/Scheduler.h"

#include <algorithm>
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
  /// --write-graph: the graph benchmarked, as a graph file (docs/graph-format.md).
  std::string writeGraph;
  unsigned nodes = 10000;
  uint64_t seed = 1;
  ScheduleOptions options;
  unsigned optimality = 0;
  bool verbose = false;
  bool certify = false;
};

/// The usage (on stdout with exit code 0 for --help, on stderr with 2 for
/// a bad argument).
int usage(const char *prog, bool help = false) {
  FILE *out = help ? stdout : stderr;
  std::fprintf(out,
               "usage: %s [--family F] [--nodes N] [--seed S] [--budget N]\n"
               "          [--rounds N] [--heuristic-only] [--certify] [-v]\n"
               "          [--no-peers] [--no-repair] [--repair-work-budget N] [--write-graph FILE]\n"
               "          [--windows N] [--window-width W]\n"
               "          [--no-contract] [--no-chains]\n"
               "       %s --graph FILE [same options]\n"
               "       %s --optimality N [--seed S]\n"
               "families:",
               prog, prog, prog);
  for (GraphFamily f : allFamilies())
    std::fprintf(out, " %s", familyName(f));
  std::fprintf(out, "\n");
  return help ? 0 : 2;
}

bool parseUnsigned(const char *text, uint64_t &out) {
  char *end = nullptr;
  if (!text || !*text || *text == '-')
    return false;
  out = std::strtoull(text, &end, 10);
  return *end == '\0';
}

bool parseArgs(int argc, char **argv, Args &args) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    const char *value = i + 1 < argc ? argv[i + 1] : nullptr;
    uint64_t x = 0;
    if (a == "--heuristic-only") {
      args.options.heuristicOnly = true;
      continue;
    }
    if (a == "-v") {
      args.verbose = true;
      continue;
    }
    if (a == "--no-contract") {
      args.options.contract = false;
      continue;
    }
    if (a == "--no-chains") {
      args.options.parallelChains = false;
      continue;
    }
    if (a == "--certify") {
      args.certify = true;
      continue;
    }
    if (a == "--no-peers") {
      args.options.peerCandidates = false;
      continue;
    }
    if (a == "--windows" && i + 1 < argc) {
      args.options.windowRounds =
          static_cast<unsigned>(std::strtoul(argv[++i], nullptr, 10));
      continue;
    }
    if (a == "--window-width" && i + 1 < argc) {
      args.options.windowWidth =
          static_cast<unsigned>(std::strtoul(argv[++i], nullptr, 10));
      continue;
    }
    if (a == "--no-repair") {
      args.options.cutRepair = false;
      continue;
    }
    if (a == "--family" && value) {
      args.family = value;
    } else if (a == "--graph" && value) {
      args.graphFile = value;
    } else if (a == "--write-graph" && value) {
      args.writeGraph = value;
    } else if (a == "--nodes" && parseUnsigned(value, x) && x <= 50000000) {
      args.nodes = static_cast<unsigned>(x);
    } else if (a == "--seed" && parseUnsigned(value, x)) {
      args.seed = x;
    } else if (a == "--budget" && parseUnsigned(value, x)) {
      args.options.exactStateBudget = x;
    } else if (a == "--repair-work-budget" && parseUnsigned(value, x)) {
      args.options.repairWorkBudget = x;
    } else if (a == "--rounds" && parseUnsigned(value, x) && x <= 64) {
      args.options.localSearchRounds = static_cast<unsigned>(x);
    } else if (a == "--optimality" && parseUnsigned(value, x) && x > 0 &&
               x <= 1000000) {
      args.optimality = static_cast<unsigned>(x);
    } else {
      return false;
    }
    ++i;
  }
  return true;
}

bool familyByName(const std::string &name, GraphFamily &out) {
  for (GraphFamily f : allFamilies())
    if (name == familyName(f)) {
      out = f;
      return true;
    }
  return false;
}

long maxRssKb() {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

/// The scheduler's cheap lower bound on the peak of every order of `g`.
uint64_t staticLowerBound(const MemoryGraph &g) {
  if (g.numNodes() == 0)
    return 0;
  uint64_t always = 0; // untouched, live-in and live-out: not in the segment
  for (BufferId b = 0; b < g.numBuffers(); ++b) {
    const GraphBuffer &buf = g.buffer(b);
    if (buf.touchers.empty() && buf.liveIn && buf.liveOut)
      always += buf.size;
  }
  sched::SegmentGraph whole =
      sched::buildSegment(g, 0, static_cast<NodeId>(g.numNodes()));
  return always + sched::segmentStaticBound(whole);
}


int runOne(const Args &args) {
  MemoryGraph g;
  const char *familyLabel = "file";
  if (!args.graphFile.empty()) {
    std::string error;
    if (!readGraphFile(args.graphFile, g, error)) {
      std::fprintf(stderr, "error: %s\n", error.c_str());
      return 2;
    }
  } else {
    GraphFamily family;
    if (!familyByName(args.family, family)) {
      std::fprintf(stderr, "unknown family '%s'\n", args.family.c_str());
      return 2;
    }
    familyLabel = familyName(family);
    g = generateGraph(family, args.nodes, args.seed);
  }
  if (!args.writeGraph.empty()) {
    FILE *out = std::fopen(args.writeGraph.c_str(), "w");
    std::string text = writeGraphJson(g);
    if (!out || std::fwrite(text.data(), 1, text.size(), out) != text.size() ||
        std::fclose(out) != 0) {
      std::fprintf(stderr, "error: cannot write '%s'\n", args.writeGraph.c_str());
      return 2;
    }
  }
  // As the pass does: the bound first, so the search can stop at it.
  ScheduleOptions options = args.options;
  LowerBound certified;
  double boundSeconds = 0;
  std::vector<std::vector<NodeId>> peerOrders;
  if (args.certify && g.numNodes()) {
    auto boundStart = std::chrono::steady_clock::now();
    // The peers' orders serve the bound and the search, and the best order
    // the bound's cut witnesses made is one more candidate.
    if (options.peerCandidates)
      peerOrders = sched::allPeerOrders(g);
    LowerBoundOptions lbOptions;
    lbOptions.target = evaluatePeak(g, g.programOrder());
    lbOptions.peerOrders = options.peerCandidates ? &peerOrders : nullptr;
    lbOptions.peerEstimates = options.peerCandidates;
    certified = computeLowerBound(g, lbOptions);
    boundSeconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - boundStart)
                       .count();
    options.lowerBound = certified.value;
    if (options.peerCandidates) {
      if (!certified.improvedOrder.empty())
        peerOrders.push_back(std::move(certified.improvedOrder));
      options.peerOrders = &peerOrders;
    }
  }
  auto start = std::chrono::steady_clock::now();
  ScheduleResult r = schedule(g, options);
  // As the pass does: not proved optimal, the cuts again around the order.
  // A node's cut those runs prove above the bound raises it, as in the pass.
  uint64_t aroundOrder = 0;
  if (args.certify) {
    LowerBound stronger;
    improveOrderByCuts(g, r.order, r.peak,
                       std::max(certified.value, r.lowerBound), peerOrders,
                       &stronger);
    if (stronger.value <= r.peak)
      aroundOrder = stronger.value;
  }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (!g.isValidOrder(r.order) || r.peak > r.inputPeak) {
    std::fprintf(stderr, "error: invalid order or peak above the input's\n");
    return 1;
  }
  uint64_t bound = staticLowerBound(g);
  // The peers' orders on the same graph, for comparison.
  std::string peers;
  uint64_t bestPeer = UINT64_MAX;
  for (sched::PeerScheduler peer : sched::allPeers()) {
    std::vector<NodeId> order = sched::peerOrder(g, peer);
    if (!g.isValidOrder(order)) {
      std::fprintf(stderr, "error: %s gave an invalid order\n",
                   sched::peerName(peer));
      return 1;
    }
    uint64_t p = evaluatePeak(g, order);
    bestPeer = std::min(bestPeer, p);
    peers += std::string(" ") + sched::peerName(peer) + "=" + std::to_string(p);
  }
  if (args.certify) {
    // What the cuts prove, or more when the search proved more (the bound a
    // certificate of kind "exhaustive" records).
    uint64_t b = std::max({certified.value, r.lowerBound, aroundOrder});
    if (b > r.peak) {
      std::fprintf(stderr, "error: lower bound above the peak\n");
      return 1;
    }
    char line[160];
    std::snprintf(line, sizeof line,
                  " bound=%llu certified=%s gap_pct=%.2f bound_seconds=%.3f",
                  (unsigned long long)b, b == r.peak ? "yes" : "no",
                  r.peak ? 100.0 * double(r.peak - b) / double(r.peak) : 0.0,
                  boundSeconds);
    peers += line;
  }
  if (g.numNodes() && args.options.peerCandidates && r.peak > bestPeer) {
    std::fprintf(stderr, "error: peak above a peer's\n");
    return 1;
  }
  if (args.verbose)
    for (const SegmentInfo &si : r.segments)
      std::printf("segment begin=%u nodes=%u contracted=%u heuristic_peak=%llu "
                  "static_bound=%llu peak=%llu proved_bound=%llu exact=%d "
                  "expanded=%llu limit=%s band_states=%llu twin_edges=%u "
                  "chain_edges=%u\n",
                  si.begin, si.end - si.begin, si.contractedNodes,
                  (unsigned long long)si.heuristicPeak,
                  (unsigned long long)si.staticBound,
                  (unsigned long long)si.peak,
                  (unsigned long long)si.provedBound, int(si.exact),
                  (unsigned long long)si.expanded,
                  *si.limit ? si.limit : "-",
                  (unsigned long long)si.bandStates, si.twinEdges,
                  si.chainEdges);
  std::printf("family=%s nodes=%zu edges=%zu buffers=%zu seed=%llu "
              "input_peak=%llu peak=%llu ratio=%.4f static_bound=%llu "
              "segments=%u "
              "exact_segments=%u heuristic_segments=%u proved_optimal=%d "
              "repair_cuts=%u repair_accepted=%u windows=%u "
              "windows_accepted=%u seconds=%.3f max_rss_kb=%ld best_peer=%llu%s\n",
              familyLabel, g.numNodes(), g.numEdges(), g.numBuffers(),
              (unsigned long long)args.seed, (unsigned long long)r.inputPeak,
              (unsigned long long)r.peak,
              r.inputPeak ? double(r.peak) / double(r.inputPeak) : 1.0,
              (unsigned long long)bound, r.numSegments, r.exactSegments,
              r.heuristicSegments, int(r.provedOptimal), r.repairCuts,
              r.repairAccepted, r.windows, r.windowsAccepted, seconds, maxRssKb(),
              (unsigned long long)(g.numNodes() ? bestPeer : 0), peers.c_str());
  return 0;
}

/// splitmix64 step, for graph sizes.
uint64_t nextRandom(uint64_t &state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

struct Tally {
  unsigned graphs = 0;
  /// Up to 20 nodes: result == brute force; heuristic-only == brute force.
  unsigned bruteForced = 0, optimal = 0, heuristicOptimal = 0;
  /// Above 20 nodes: proved optimal by the exact search; heuristic-only
  /// equal to that proved optimum.
  unsigned searched = 0, proved = 0, heuristicAtProved = 0;
  /// Never allowed: worse than the input, or below a brute-force optimum.
  unsigned errors = 0;
  double seconds = 0, maxSeconds = 0;
};

void printTally(const char *group, const char *family, const Tally &t) {
  std::printf("group=%s family=%s graphs=%u brute_forced=%u optimal=%u "
              "heuristic_only_optimal=%u searched=%u proved=%u "
              "heuristic_only_at_proved=%u errors=%u seconds=%.3f "
              "max_seconds=%.3f\n",
              group, family, t.graphs, t.bruteForced, t.optimal,
              t.heuristicOptimal, t.searched, t.proved, t.heuristicAtProved,
              t.errors, t.seconds, t.maxSeconds);
}

int runOptimality(const Args &args) {
  struct Group {
    const char *name;
    unsigned minNodes, maxNodes;
  };
  const Group groups[] = {{"up-to-30", 2, 30}, {"up-to-200", 31, 200}};
  bool anyError = false;
  for (const Group &group : groups) {
    Tally total;
    for (GraphFamily f : allFamilies()) {
      Tally t;
      uint64_t rng = args.seed * 1000003 + static_cast<uint64_t>(f);
      for (unsigned i = 0; i < args.optimality; ++i) {
        unsigned nodes =
            group.minNodes +
            nextRandom(rng) % (group.maxNodes - group.minNodes + 1);
        uint64_t seed = nextRandom(rng);
        MemoryGraph g = generateGraph(f, nodes, seed);
        auto start = std::chrono::steady_clock::now();
        ScheduleResult r = schedule(g);
        double seconds = std::chrono::duration<double>(
                             std::chrono::steady_clock::now() - start)
                             .count();
        ScheduleOptions heuristic;
        heuristic.heuristicOnly = true;
        ScheduleResult h = schedule(g, heuristic);
        ++t.graphs;
        t.seconds += seconds;
        t.maxSeconds = std::max(t.maxSeconds, seconds);
        if (!g.isValidOrder(r.order) || r.peak > r.inputPeak ||
            h.peak > h.inputPeak || (r.provedOptimal && h.peak < r.peak))
          ++t.errors;
        if (g.numNodes() <= 20) {
          uint64_t best = bruteForceMinPeak(g);
          ++t.bruteForced;
          t.optimal += r.peak == best;
          t.heuristicOptimal += h.peak == best;
          t.errors += h.peak < best || r.peak < best;
        } else {
          ++t.searched;
          t.proved += r.provedOptimal;
          t.heuristicAtProved += r.provedOptimal && h.peak == r.peak;
        }
      }
      printTally(group.name, familyName(f), t);
      total.graphs += t.graphs;
      total.bruteForced += t.bruteForced;
      total.optimal += t.optimal;
      total.heuristicOptimal += t.heuristicOptimal;
      total.searched += t.searched;
      total.proved += t.proved;
      total.heuristicAtProved += t.heuristicAtProved;
      total.errors += t.errors;
      total.seconds += t.seconds;
      total.maxSeconds = std::max(total.maxSeconds, t.maxSeconds);
    }
    printTally(group.name, "all", total);
    anyError |= total.errors != 0;
  }
  std::printf("max_rss_kb=%ld\n", maxRssKb());
  return anyError ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  Args args;
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h")
      return usage(argv[0], /*help=*/true);
  if (!parseArgs(argc, argv, args))
    return usage(argv[0]);
  return args.optimality ? runOptimality(args) : runOne(args);
}
