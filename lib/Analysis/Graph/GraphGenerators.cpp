//===- GraphGenerators.cpp - random and synthetic MemoryGraphs --*- C++ -*-===//

#include "Analysis/Graph/GraphGenerators.h"

#include <algorithm>

using namespace memsched_core;

namespace {
/// splitmix64: tiny, fast and identical on every platform (unlike the
/// standard distributions).
class Rng {
public:
  explicit Rng(uint64_t seed) : state(seed * 0x9E3779B97F4A7C15ULL + 1) {}
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  /// Uniform in [lo, hi].
  uint64_t range(uint64_t lo, uint64_t hi) {
    return lo + next() % (hi - lo + 1);
  }
  bool chance(unsigned percent) { return next() % 100 < percent; }

private:
  uint64_t state;
};

/// Builds graphs where each node writes one fresh output buffer and reads the
/// outputs of earlier nodes; edges follow the reads.
class Builder {
public:
  Builder(Rng &rng, uint64_t maxSize) : rng(rng), maxSize(maxSize) {}

  /// A node reading the outputs of `inputs` and writing a fresh output of
  /// `size` bytes (random in [1, maxSize] when 0).
  NodeId op(const std::vector<NodeId> &inputs, bool lastUse = false,
            uint64_t size = 0) {
    uint64_t transient = rng.chance(15) ? rng.range(1, maxSize) : 0;
    NodeId n = g.addNode(transient, "op" + std::to_string(g.numNodes()));
    for (NodeId in : inputs) {
      g.addEdge(in, n);
      g.addTouch(outputs[in], n);
    }
    BufferId out = g.addBuffer(size ? size : rng.range(1, maxSize), false,
                               lastUse, "b" + std::to_string(n));
    g.addTouch(out, n);
    outputs.push_back(out);
    return n;
  }

  /// Marks some outputs that nobody reads as escaping (returned).
  MemoryGraph finish() {
    for (NodeId n = 0; n < g.numNodes(); ++n)
      if (g.buffer(outputs[n]).touchers.size() == 1 && rng.chance(50))
        g.setLiveOut(outputs[n]);
    g.finalize();
    return std::move(g);
  }

  MemoryGraph g;
  std::vector<BufferId> outputs; // per node
  Rng &rng;
  uint64_t maxSize;
};
} // namespace

const char *memsched_core::familyName(GraphFamily family) {
  switch (family) {
  case GraphFamily::Random:
    return "random";
  case GraphFamily::Layered:
    return "layered";
  case GraphFamily::SeriesParallel:
    return "series-parallel";
  case GraphFamily::SkipConnections:
    return "skip-connections";
  case GraphFamily::WideFan:
    return "wide-fan";
  case GraphFamily::InPlace:
    return "in-place";
  case GraphFamily::Training:
    return "training";
  case GraphFamily::Lattice:
    return "lattice";
  case GraphFamily::MultiBranch:
    return "multi-branch";
  }
  return "unknown";
}

const std::vector<GraphFamily> &memsched_core::allFamilies() {
  static const std::vector<GraphFamily> families = {
      GraphFamily::Random,          GraphFamily::Layered,
      GraphFamily::SeriesParallel,  GraphFamily::SkipConnections,
      GraphFamily::WideFan,         GraphFamily::InPlace,
      GraphFamily::Training,        GraphFamily::Lattice,
      GraphFamily::MultiBranch};
  return families;
}

/// Picks up to `k` distinct elements of `from`.
static std::vector<NodeId> pick(Rng &rng, const std::vector<NodeId> &from,
                                unsigned k) {
  std::vector<NodeId> out;
  if (from.empty())
    return out;
  for (unsigned i = 0; i < k; ++i)
    out.push_back(from[rng.range(0, from.size() - 1)]);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

MemoryGraph memsched_core::generateGraph(GraphFamily family, unsigned numNodes,
                                    uint64_t seed, uint64_t maxSize) {
  Rng rng(seed ^ (static_cast<uint64_t>(family) << 56));
  Builder b(rng, std::max<uint64_t>(maxSize, 1));
  if (numNodes == 0) {
    b.g.finalize();
    return std::move(b.g);
  }
  std::vector<NodeId> all;
  auto add = [&](const std::vector<NodeId> &in) {
    NodeId n = b.op(in);
    all.push_back(n);
    return n;
  };

  switch (family) {
  case GraphFamily::Random: {
    add({});
    while (all.size() < numNodes) {
      unsigned window = std::min<unsigned>(all.size(), 8);
      std::vector<NodeId> recent(all.end() - window, all.end());
      std::vector<NodeId> in = pick(rng, recent, rng.range(1, 2));
      if (rng.chance(20))
        for (NodeId x : pick(rng, all, 1))
          in.push_back(x);
      if (rng.chance(10))
        in.clear(); // a fresh source
      std::sort(in.begin(), in.end());
      in.erase(std::unique(in.begin(), in.end()), in.end());
      add(in);
    }
    break;
  }
  case GraphFamily::Layered: {
    std::vector<NodeId> prev{add({})}, older;
    while (all.size() < numNodes) {
      unsigned width = rng.range(1, 4);
      std::vector<NodeId> layer;
      for (unsigned i = 0; i < width && all.size() < numNodes; ++i) {
        std::vector<NodeId> in = pick(rng, prev, rng.range(1, 2));
        if (!older.empty() && rng.chance(15))
          in.push_back(pick(rng, older, 1)[0]);
        std::sort(in.begin(), in.end());
        in.erase(std::unique(in.begin(), in.end()), in.end());
        layer.push_back(add(in));
      }
      older.insert(older.end(), prev.begin(), prev.end());
      prev = layer;
    }
    break;
  }
  case GraphFamily::SeriesParallel: {
    NodeId head = add({});
    while (all.size() < numNodes) {
      unsigned branches = rng.range(2, 4);
      std::vector<NodeId> tails;
      for (unsigned br = 0; br < branches && all.size() + 1 < numNodes;
           ++br) {
        NodeId cur = head;
        unsigned len = rng.range(1, 3);
        for (unsigned i = 0; i < len && all.size() + 1 < numNodes; ++i)
          cur = add({cur});
        tails.push_back(cur);
      }
      // Inception's framework order runs branch by branch; shuffle nothing so
      // the program order is a natural one, then join.
      tails.push_back(head);
      std::sort(tails.begin(), tails.end());
      tails.erase(std::unique(tails.begin(), tails.end()), tails.end());
      if (tails.size() > 1 && rng.chance(70))
        tails.erase(std::find(tails.begin(), tails.end(), head));
      head = add(tails);
    }
    break;
  }
  case GraphFamily::SkipConnections: {
    std::vector<NodeId> stack;
    NodeId cur = add({});
    while (all.size() < numNodes) {
      if (!stack.empty() && rng.chance(30)) {
        NodeId skip = stack.back();
        stack.pop_back();
        cur = add({cur, skip});
      } else {
        if (rng.chance(40))
          stack.push_back(cur);
        cur = add({cur});
      }
    }
    break;
  }
  case GraphFamily::WideFan: {
    NodeId src = add({});
    while (all.size() < numNodes) {
      unsigned fan = rng.range(2, 6);
      std::vector<NodeId> mids;
      for (unsigned i = 0; i < fan && all.size() + 1 < numNodes; ++i)
        mids.push_back(add({src}));
      if (mids.empty())
        mids.push_back(src);
      // Join in groups so some fan-outs stay open longer.
      src = add(mids);
    }
    break;
  }
  case GraphFamily::InPlace: {
    // Chains of producers with a shared accumulator updated in place: every
    // update touches the accumulator and must keep its order.
    NodeId cur = add({});
    BufferId acc = b.g.addBuffer(rng.range(1, maxSize), false,
                                 rng.chance(50), "acc");
    NodeId lastUpdate = cur;
    bool haveUpdate = false;
    while (all.size() < numNodes) {
      if (rng.chance(35)) {
        NodeId n = add({cur});
        b.g.addTouch(acc, n);
        if (haveUpdate)
          b.g.addEdge(lastUpdate, n);
        lastUpdate = n;
        haveUpdate = true;
      } else {
        cur = add(rng.chance(70) ? std::vector<NodeId>{cur}
                                 : pick(rng, all, 2));
      }
    }
    break;
  }
  case GraphFamily::Training: {
    // The forward pass grows while the whole graph stays within numNodes:
    // each forward op with inputs gets an input-gradient node, a weighted
    // one a weight gradient and its update, an activation read by several
    // ops a sum of its gradients; the loss is one node. Activations and
    // their gradients are large, weights small.
    uint64_t large = std::max<uint64_t>(maxSize / 4, 1);
    uint64_t small = std::max<uint64_t>(maxSize / 8, 1);
    auto sorted = [](std::vector<NodeId> v) {
      std::sort(v.begin(), v.end());
      v.erase(std::unique(v.begin(), v.end()), v.end());
      return v;
    };
    std::vector<std::vector<NodeId>> inputsOf;
    std::vector<uint8_t> weighted;
    std::vector<unsigned> consumers;
    size_t total = 1; // the loss
    auto fwd = [&](std::vector<NodeId> in) {
      inputsOf.push_back(sorted(std::move(in)));
      weighted.push_back(rng.chance(50));
      consumers.push_back(0);
      total += 1 + (inputsOf.back().empty() ? 0 : 1) +
               (weighted.back() ? 2 : 0);
      for (NodeId i : inputsOf.back())
        total += ++consumers[i] == 2;
      NodeId n = b.op(inputsOf.back(), false, rng.range(large, maxSize));
      all.push_back(n);
      return n;
    };
    // Upper bound on what one more forward op (or a block of k) adds.
    auto fits = [&](unsigned k) { return total + 6 * k <= numNodes; };
    NodeId cur = fwd({});
    while (fits(1)) {
      unsigned kind = rng.range(0, 99);
      if (kind < 25 && fits(3)) {
        // A residual block: two ops on the main path, the sum with the skip.
        NodeId skip = cur;
        cur = fwd({cur});
        cur = fwd({cur});
        cur = fwd({cur, skip});
      } else if (kind < 40 && fits(4)) {
        // Two parallel branches joined (inception-like).
        NodeId head = cur;
        NodeId a = fwd({head});
        NodeId c = fwd({head});
        if (rng.chance(50))
          a = fwd({a});
        cur = fwd({a, c});
      } else {
        cur = fwd({cur});
      }
    }
    size_t numForward = inputsOf.size();
    NodeId loss = b.op({cur}, false, 1);
    all.push_back(loss);
    // Backward in reverse: gradient sources per forward node.
    std::vector<std::vector<NodeId>> gradSources(numForward);
    gradSources[cur].push_back(loss);
    for (size_t i = numForward; i-- > 0;) {
      std::vector<NodeId> &src = gradSources[i];
      if (src.empty())
        continue;
      uint64_t gradSize = b.g.buffer(b.outputs[i]).size;
      NodeId grad = src.front();
      if (src.size() > 1) { // the sum of the gradient contributions
        grad = b.op(sorted(src), false, gradSize);
        all.push_back(grad);
      }
      if (!inputsOf[i].empty()) {
        // The input gradient reads the incoming gradient, the op's own
        // output and its inputs (saved activations).
        std::vector<NodeId> reads{grad, static_cast<NodeId>(i)};
        reads.insert(reads.end(), inputsOf[i].begin(), inputsOf[i].end());
        NodeId back = b.op(sorted(reads), false,
                           b.g.buffer(b.outputs[inputsOf[i][0]]).size);
        all.push_back(back);
        for (NodeId in : inputsOf[i])
          gradSources[in].push_back(back);
      }
      if (weighted[i]) {
        // The weight gradient and the SGD update (its output returned).
        std::vector<NodeId> w{grad};
        w.insert(w.end(), inputsOf[i].begin(), inputsOf[i].end());
        uint64_t weightSize = rng.range(1, small);
        NodeId dw = b.op(sorted(w), false, weightSize);
        NodeId update = b.op({dw}, /*lastUse=*/true, weightSize);
        all.push_back(dw);
        all.push_back(update);
      }
    }
    break;
  }
  case GraphFamily::Lattice: {
    unsigned width = static_cast<unsigned>(rng.range(3, 12));
    std::vector<NodeId> above;
    while (all.size() < numNodes) {
      std::vector<NodeId> row;
      for (unsigned j = 0; j < width && all.size() < numNodes; ++j) {
        std::vector<NodeId> in;
        if (j < above.size())
          in.push_back(above[j]);
        if (j > 0)
          in.push_back(row.back());
        std::sort(in.begin(), in.end());
        row.push_back(add(in));
      }
      above = row;
    }
    break;
  }
  case GraphFamily::MultiBranch: {
    uint64_t narrow = std::max<uint64_t>(maxSize / 32, 1);
    NodeId head = add({});
    while (all.size() < numNodes) {
      unsigned branches = static_cast<unsigned>(rng.range(8, 32));
      std::vector<NodeId> tails{head};
      for (unsigned br = 0; br < branches && all.size() + 1 < numNodes;
           ++br) {
        // A bottleneck: wide intermediates, a narrow output for the sum.
        NodeId cur = head;
        for (unsigned i = static_cast<unsigned>(rng.range(3, 10));
             i > 0 && all.size() + 1 < numNodes; --i) {
          cur = b.op({cur}, false,
                     i == 1 ? rng.range(1, narrow) : rng.range(1, maxSize));
          all.push_back(cur);
        }
        tails.push_back(cur);
      }
      std::sort(tails.begin(), tails.end());
      tails.erase(std::unique(tails.begin(), tails.end()), tails.end());
      head = add(tails);
    }
    break;
  }
  }

  return b.finish();
}
