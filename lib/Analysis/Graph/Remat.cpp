//===- Remat.cpp - choice of what to recompute under a budget ---*- C++ -*-===//
//
// Invariant: every graph built here has the base program with the clones
// inserted before their first late reader as a valid order, and keeps every
// dependency of the base graph (a late reader also keeps its edge from the
// original producer); chooseRemat only accepts a choice that lowers the
// scheduled peak, so its plan's peak is never above the base schedule's.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Graph/Remat.h"

#include "Analysis/Graph/LowerBound.h"

#include <algorithm>
#include <cassert>
#include <map>
#include <unordered_map>

using namespace memsched_core;

/// A buffer no source may have: outside the graph, or live before or after
/// it (applyRemat refuses it; rematFloor and rematBound rely on that).
static bool isBoundaryBuffer(const MemoryGraph &base, BufferId b) {
  return b >= base.numBuffers() || base.buffer(b).liveIn ||
         base.buffer(b).liveOut;
}

/// The extra cost of one recomputation of `src`: its producers' costs (1
/// for a node without one), at least 1.
static uint64_t sourceCostOf(const RematSource &src,
                             const std::vector<uint64_t> &cost) {
  uint64_t c = 0;
  for (NodeId p : src.producers)
    c += p < cost.size() ? cost[p] : 1;
  return std::max<uint64_t>(c, 1);
}

std::vector<std::vector<NodeId>>
memsched_core::keptLateReaders(const std::vector<RematSource> &sources,
                          const std::vector<RematChoice> &choices) {
  std::vector<std::vector<NodeId>> kept(choices.size());
  for (size_t c = 0; c < choices.size(); ++c) {
    kept[c] = choices[c].lateReaders;
    if (choices[c].source >= sources.size())
      continue;
    BufferId b = sources[choices[c].source].buffer;
    // Readers taken by a later choice on the same buffer leave this one.
    for (size_t later = c + 1; later < choices.size(); ++later) {
      if (choices[later].source >= sources.size() ||
          sources[choices[later].source].buffer != b)
        continue;
      const std::vector<NodeId> &taken = choices[later].lateReaders;
      kept[c].erase(std::remove_if(kept[c].begin(), kept[c].end(),
                                   [&](NodeId r) {
                                     return std::find(taken.begin(), taken.end(),
                                                      r) != taken.end();
                                   }),
                    kept[c].end());
    }
  }
  return kept;
}

bool memsched_core::applyRemat(const MemoryGraph &base,
                          const std::vector<RematSource> &sources,
                          const std::vector<RematChoice> &choices,
                          MemoryGraph &out, RematMapping *mapping) {
  size_t n = base.numNodes();
  RematMapping m;
  // The clones of each choice go right before its first late reader.
  std::vector<std::vector<uint32_t>> insertBefore(n);
  // Per base node: the choices it produces for, and those it is a late
  // reader of.
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> producerOf(n);
  std::vector<std::vector<uint32_t>> lateOf(n);
  std::vector<std::vector<NodeId>> kept = keptLateReaders(sources, choices);
  for (uint32_t c = 0; c < choices.size(); ++c) {
    const RematChoice &choice = choices[c];
    if (choice.source >= sources.size())
      return false;
    const RematSource &src = sources[choice.source];
    // A choice every reader of which a later one took would leave a copy
    // nobody reads.
    if (kept[c].empty() || src.producers.empty())
      return false;
    // Outside what a source is (Remat.h): a buffer live before or after the
    // graph, or a late reader that also writes it. rematFloor relies on
    // neither happening.
    auto boundary = [&](BufferId b) { return isBoundaryBuffer(base, b); };
    if (boundary(src.buffer) ||
        std::any_of(src.inner.begin(), src.inner.end(), boundary))
      return false;
    for (NodeId r : choice.lateReaders)
      if (r >= n || std::find(src.producers.begin(), src.producers.end(), r) !=
                        src.producers.end())
        return false;
    insertBefore[kept[c].front()].push_back(c);
    for (uint32_t k = 0; k < src.producers.size(); ++k)
      producerOf[src.producers[k]].push_back({c, k});
    for (NodeId r : kept[c])
      lateOf[r].push_back(c);
  }
  auto isLateReader = [&](NodeId v, uint32_t c) {
    return std::find(lateOf[v].begin(), lateOf[v].end(), c) != lateOf[v].end();
  };
  // Touches a buffer of the chain (its readers wait for the producers,
  // not for the clones).
  auto isReaderOf = [&](NodeId v, const RematSource &src) {
    for (BufferId b : base.buffersOf(v))
      if (b == src.buffer ||
          std::find(src.inner.begin(), src.inner.end(), b) != src.inner.end())
        return true;
    return false;
  };

  out = MemoryGraph();
  m.baseToNew.assign(n, 0);
  std::vector<std::vector<NodeId>> cloneIds(choices.size());
  for (NodeId v = 0; v < n; ++v) {
    for (uint32_t c : insertBefore[v]) {
      const RematSource &src = sources[choices[c].source];
      for (uint32_t k = 0; k < src.producers.size(); ++k) {
        NodeId p = src.producers[k];
        cloneIds[c].push_back(
            out.addNode(base.transientBytes(p), base.nodeName(p) + "'"));
        m.newToBase.push_back(-1);
        m.cloneOf.push_back({c, k});
      }
    }
    m.baseToNew[v] = out.addNode(base.transientBytes(v), base.nodeName(v));
    m.newToBase.push_back(v);
    m.cloneOf.push_back({RematMapping::kNotAClone, 0});
  }

  // Buffers keep their ids; the late readers of a choice leave its buffer
  // for the copy.
  for (BufferId b = 0; b < base.numBuffers(); ++b) {
    const GraphBuffer &buf = base.buffer(b);
    BufferId nb = out.addBuffer(buf.size, buf.liveIn, buf.liveOut, buf.name);
    for (NodeId v : buf.touchers) {
      bool moved = false;
      for (uint32_t c : lateOf[v])
        moved |= sources[choices[c].source].buffer == b;
      if (!moved)
        out.addTouch(nb, m.baseToNew[v]);
    }
  }
  for (uint32_t c = 0; c < choices.size(); ++c) {
    const RematSource &src = sources[choices[c].source];
    auto copyOf = [&](BufferId b) {
      const GraphBuffer &buf = base.buffer(b);
      return out.addBuffer(buf.size, false, false, buf.name + "'");
    };
    BufferId copy = copyOf(src.buffer);
    m.copyBuffer.push_back(copy);
    std::vector<std::pair<BufferId, BufferId>> copies{{src.buffer, copy}};
    for (BufferId b : src.inner)
      copies.push_back({b, copyOf(b)});
    for (uint32_t k = 0; k < src.producers.size(); ++k)
      for (BufferId b : base.buffersOf(src.producers[k])) {
        BufferId touched = b;
        for (auto [original, c2] : copies)
          if (original == b)
            touched = c2;
        out.addTouch(touched, cloneIds[c][k]);
      }
    for (NodeId r : kept[c])
      out.addTouch(copy, m.baseToNew[r]);
  }

  // Dependencies: the base graph's, plus the clones' (their producers',
  // with the late readers waiting for the clones instead of only for the
  // producers).
  for (NodeId u = 0; u < n; ++u)
    for (NodeId v : base.succs(u)) {
      out.addEdge(m.baseToNew[u], m.baseToNew[v]);
      for (auto [c, k] : producerOf[u])
        if (isLateReader(v, c))
          out.addEdge(cloneIds[c][k], m.baseToNew[v]);
    }
  for (uint32_t c = 0; c < choices.size(); ++c) {
    const RematSource &src = sources[choices[c].source];
    auto producerIndex = [&](NodeId v) -> int {
      auto it = std::find(src.producers.begin(), src.producers.end(), v);
      return it == src.producers.end() ? -1 : int(it - src.producers.begin());
    };
    for (uint32_t k = 0; k < src.producers.size(); ++k) {
      NodeId p = src.producers[k];
      NodeId clone = cloneIds[c][k];
      for (NodeId q : base.preds(p)) {
        int j = producerIndex(q);
        out.addEdge(j >= 0 ? cloneIds[c][j] : m.baseToNew[q], clone);
      }
      // What waits for the producer for another reason than its buffer
      // (e.g. a write to one of its inputs) waits for the clone too.
      for (NodeId x : base.succs(p))
        if (producerIndex(x) < 0 && !isReaderOf(x, src))
          out.addEdge(clone, m.baseToNew[x]);
    }
  }
  out.finalize();
  for (NodeId u = 0; u < out.numNodes(); ++u)
    for (NodeId v : out.succs(u))
      if (v < u)
        return false;
  if (mapping)
    *mapping = std::move(m);
  return true;
}

/// The order of `plan` carried over to `g` (the plan's choices plus
/// `choice`, mapped by `map`), with the new choice's clones inserted right
/// before its first late reader in that order.
static std::vector<NodeId> insertClones(const RematPlan &plan,
                                        const MemoryGraph &g,
                                        const RematMapping &map,
                                        const RematChoice &choice) {
  uint32_t newChoice = static_cast<uint32_t>(plan.choices.size());
  // Clones of g by (choice, producer).
  std::vector<std::vector<NodeId>> clones(newChoice + 1);
  for (NodeId v = 0; v < g.numNodes(); ++v)
    if (map.newToBase[v] < 0) {
      auto [c, k] = map.cloneOf[v];
      if (clones[c].size() <= k)
        clones[c].resize(k + 1);
      clones[c][k] = v;
    }
  std::vector<bool> late(g.numNodes(), false);
  for (NodeId r : choice.lateReaders)
    late[map.baseToNew[r]] = true;
  std::vector<NodeId> order;
  order.reserve(g.numNodes());
  bool inserted = false;
  for (NodeId v : plan.order) {
    NodeId w;
    if (plan.mapping.newToBase[v] >= 0) {
      w = map.baseToNew[plan.mapping.newToBase[v]];
    } else {
      auto [c, k] = plan.mapping.cloneOf[v];
      w = clones[c][k];
    }
    if (!inserted && late[w]) {
      order.insert(order.end(), clones[newChoice].begin(),
                   clones[newChoice].end());
      inserted = true;
    }
    order.push_back(w);
  }
  return order;
}

/// The peak of `order` and how many of its positions reach it.
static std::pair<uint64_t, size_t> peakAndWidth(const MemoryGraph &g,
                                                const std::vector<NodeId> &order) {
  PeakInfo info;
  uint64_t peak = evaluatePeak(g, order, &info);
  size_t width = 0;
  for (uint64_t m : info.memoryAt)
    width += m == peak;
  return {peak, width};
}

/// At most this many candidates of a step, and of a whole plan, are priced
/// by a schedule of their graph (the work stays bounded on large graphs).
static constexpr size_t kRescheduledCandidates = 16;
static constexpr size_t kRescheduledPerPlan = 256;

RematPlan memsched_core::chooseRemat(const MemoryGraph &base,
                                const std::vector<RematSource> &sources,
                                const std::vector<uint64_t> &cost,
                                const RematOptions &options) {
  ScheduleOptions schedOptions = options.schedule;
  schedOptions.peerOrders = nullptr;
  schedOptions.lowerBound = 0;

  RematPlan plan;
  ScheduleResult first = schedule(base, schedOptions);
  plan.basePeak = plan.peak = first.peak;
  plan.order = first.order;
  plan.graph = base;
  plan.mapping.baseToNew.resize(base.numNodes());
  for (NodeId v = 0; v < base.numNodes(); ++v) {
    plan.mapping.baseToNew[v] = v;
    plan.mapping.newToBase.push_back(v);
    plan.mapping.cloneOf.push_back({RematMapping::kNotAClone, 0});
  }
  auto sourceCost = [&](const RematSource &src) {
    return sourceCostOf(src, cost);
  };

  plan.floor = rematFloor(base);
  size_t rescheduledSoFar = 0;
  // At the floor no recomputation can lower the peak further.
  while (plan.peak > options.budget && plan.peak > plan.floor.value &&
         plan.choices.size() < options.maxChoices) {
    PeakInfo info;
    evaluatePeak(plan.graph, plan.order, &info);
    std::vector<size_t> position(plan.graph.numNodes());
    for (size_t i = 0; i < plan.order.size(); ++i)
      position[plan.order[i]] = i;
    std::vector<bool> liveAtPeak(plan.graph.numBuffers(), false);
    for (BufferId b : info.liveAtPeak)
      liveAtPeak[b] = true;
    // Positions at the peak: where several ops reach it (a plateau), no
    // one recomputation lowers it, but one that takes a position off the
    // plateau is progress too.
    size_t width = 0;
    for (uint64_t m : info.memoryAt)
      width += m == plan.peak;

    struct Best {
      bool found = false;
      size_t source = 0;
      uint64_t gain = 0, cost = 0, narrower = 0;
      RematChoice choice;
      MemoryGraph graph;
      RematMapping mapping;
      std::vector<NodeId> order;
      uint64_t peak = 0;
    } best;
    // Whether a candidate is priced by scheduling its graph (else by the
    // current order with its clones inserted).
    bool rescheduled = false;
    // The price of each candidate with its clones inserted (peak, width;
    // UINT64_MAX when it is not valid), from the first round.
    std::vector<std::pair<uint64_t, size_t>> insertedPrice;
    // Prices one choice and keeps it when it beats the best so far.
    auto tryChoice = [&](size_t s, uint64_t c, RematChoice choice) {
      std::vector<RematChoice> tried = plan.choices;
      tried.push_back(choice);
      MemoryGraph g;
      RematMapping map;
      if (!applyRemat(base, sources, tried, g, &map))
        return;
      // Priced by the current order with the clones inserted right before
      // the first late reader (valid: a clone's dependencies are its
      // producer's): one peak evaluation instead of a schedule, or, when
      // rescheduling, by the best of that order and a schedule of the
      // graph. The winner is scheduled with its order among the candidates.
      std::vector<NodeId> order = insertClones(plan, g, map, choice);
      if (!g.isValidOrder(order))
        return;
      auto [priced, pricedWidth] = peakAndWidth(g, order);
      if (!rescheduled) {
        insertedPrice.back() = {priced, pricedWidth};
      } else {
        std::vector<std::vector<NodeId>> hint{order};
        ScheduleOptions withHint = schedOptions;
        withHint.peerCandidates = true;
        withHint.peerOrders = &hint;
        ScheduleResult r = schedule(g, withHint);
        auto [p2, w2] = peakAndWidth(g, r.order);
        if (p2 < priced || (p2 == priced && w2 < pricedWidth)) {
          order = std::move(r.order);
          priced = p2;
          pricedWidth = w2;
        }
      }
      if (priced > plan.peak || (priced == plan.peak && pricedWidth >= width))
        return;
      // The gain: bytes off the peak, or else positions off the plateau
      // (worth less than any byte).
      uint64_t gain = plan.peak - priced;
      uint64_t narrower = priced == plan.peak ? width - pricedWidth : 0;
      // Largest gain per cost (compared without division), then the
      // largest gain, then the first source; without a gain in bytes, the
      // most positions off the plateau per cost.
      auto ratioAbove = [&](uint64_t a, uint64_t ca, uint64_t b, uint64_t cb) {
        return (unsigned __int128)a * cb > (unsigned __int128)b * ca;
      };
      auto ratioEqual = [&](uint64_t a, uint64_t ca, uint64_t b, uint64_t cb) {
        return (unsigned __int128)a * cb == (unsigned __int128)b * ca;
      };
      bool better;
      if (!best.found)
        better = true;
      else if (gain || best.gain)
        better = ratioAbove(gain, c, best.gain, best.cost) ||
                 (ratioEqual(gain, c, best.gain, best.cost) &&
                  gain > best.gain);
      else
        better = ratioAbove(narrower, c, best.narrower, best.cost) ||
                 (ratioEqual(narrower, c, best.narrower, best.cost) &&
                  narrower > best.narrower);
      if (!better)
        return;
      best.found = true;
      best.source = s;
      best.gain = gain;
      best.narrower = narrower;
      best.cost = c;
      best.choice = std::move(choice);
      best.graph = std::move(g);
      best.mapping = std::move(map);
      best.order = std::move(order);
      best.peak = priced;
    };
    // What each reader of a recomputed buffer reads now: the choice whose
    // copy it reads (absent: the buffer itself). Per buffer: one op may
    // read several recomputed buffers.
    std::vector<std::vector<NodeId>> kept =
        keptLateReaders(sources, plan.choices);
    std::map<std::pair<BufferId, NodeId>, int64_t> copyRead;
    for (size_t c = 0; c < plan.choices.size(); ++c)
      for (NodeId r : kept[c])
        copyRead[{sources[plan.choices[c].source].buffer, r}] =
            static_cast<int64_t>(c);
    auto readsCopyOf = [&](BufferId b, NodeId r) -> int64_t {
      auto it = copyRead.find({b, r});
      return it == copyRead.end() ? -1 : it->second;
    };
    // The candidates: one per source and group of readers whose buffer
    // (the buffer, or the copy of an earlier choice on it) is live at the
    // peak; its late readers are the group's readers after the peak, when
    // some reader of the group comes before it.
    std::vector<std::pair<size_t, RematChoice>> candidates;
    for (size_t s = 0; s < sources.size(); ++s) {
      const RematSource &src = sources[s];
      if (src.buffer >= base.numBuffers())
        continue;
      for (int64_t group = -1; group < int64_t(plan.choices.size()); ++group) {
        if (group >= 0 &&
            sources[plan.choices[group].source].buffer != src.buffer)
          continue;
        BufferId held = group < 0 ? src.buffer : plan.mapping.copyBuffer[group];
        if (!liveAtPeak[held])
          continue;
        RematChoice choice;
        choice.source = s;
        bool early = false;
        for (NodeId r : src.readers) {
          if (readsCopyOf(src.buffer, r) != group)
            continue;
          if (position[plan.mapping.baseToNew[r]] > info.peakPosition)
            choice.lateReaders.push_back(r);
          else
            early = true;
        }
        if (!early || choice.lateReaders.empty())
          continue;
        std::sort(choice.lateReaders.begin(), choice.lateReaders.end());
        candidates.push_back({s, std::move(choice)});
      }
    }
    // Priced by inserting the clones into the current order first; when
    // that lowers nothing (the clones' inputs, kept alive until them, can
    // outweigh the buffer freed), the candidates with the lowest such
    // prices (peak, then width, then the first), at most
    // kRescheduledCandidates of them (kRescheduledPerPlan in all), by
    // scheduling their graphs.
    auto affordable = [&](size_t s) {
      uint64_t c = sourceCost(sources[s]);
      return plan.extraCost <= options.maxExtraCost &&
             c <= options.maxExtraCost - plan.extraCost;
    };
    for (auto &[s, choice] : candidates) {
      insertedPrice.push_back({UINT64_MAX, 0});
      if (affordable(s))
        tryChoice(s, sourceCost(sources[s]), choice);
    }
    if (!best.found && rescheduledSoFar < kRescheduledPerPlan) {
      rescheduled = true;
      std::vector<size_t> ranked;
      for (size_t i = 0; i < candidates.size(); ++i)
        if (insertedPrice[i].first != UINT64_MAX)
          ranked.push_back(i);
      std::stable_sort(ranked.begin(), ranked.end(), [&](size_t a, size_t b) {
        return insertedPrice[a] < insertedPrice[b];
      });
      ranked.resize(std::min({ranked.size(), kRescheduledCandidates,
                              kRescheduledPerPlan - rescheduledSoFar}));
      rescheduledSoFar += ranked.size();
      for (size_t i : ranked)
        tryChoice(candidates[i].first, sourceCost(sources[candidates[i].first]),
                  candidates[i].second);
    }
    if (!best.found)
      break;
    {
      std::vector<std::vector<NodeId>> hint{best.order};
      ScheduleOptions withHint = schedOptions;
      withHint.peerCandidates = true;
      withHint.peerOrders = &hint;
      ScheduleResult r = schedule(best.graph, withHint);
      // The schedule's order when it is lower, or as low and no wider.
      if (r.peak < best.peak ||
          (r.peak == best.peak &&
           peakAndWidth(best.graph, r.order).second <=
               peakAndWidth(best.graph, best.order).second)) {
        best.order = std::move(r.order);
        best.peak = r.peak;
      }
    }
    plan.choices.push_back(std::move(best.choice));
    plan.graph = std::move(best.graph);
    plan.mapping = std::move(best.mapping);
    plan.order = std::move(best.order);
    plan.peak = best.peak;
    plan.steps.push_back({plan.order, plan.mapping, plan.peak});
    plan.extraCost += best.cost;
    plan.clonedNodes += sources[best.source].producers.size();
  }
  plan.metBudget = plan.peak <= options.budget;
  return plan;
}

RematFloor memsched_core::rematFloor(const MemoryGraph &base) {
  RematFloor floor;
  uint64_t always = 0, toEnd = 0;
  for (BufferId b = 0; b < base.numBuffers(); ++b) {
    const GraphBuffer &buf = base.buffer(b);
    if (buf.liveIn && buf.liveOut)
      always += buf.size;
    // Live at the last step of every order: it is live to the end and was
    // started (at the start, or by a toucher: all have run, or run then).
    if (buf.liveOut && (buf.liveIn || !buf.touchers.empty()))
      toEnd += buf.size;
  }
  uint64_t leastAdded = UINT64_MAX;
  for (NodeId v = 0; v < base.numNodes(); ++v) {
    // Footprint: what v needs whenever it runs, in any graph with
    // recomputations (a copy has the size of its buffer).
    uint64_t footprint = base.transientBytes(v) + always;
    // At the last step, v adds its transient bytes and the buffers it
    // touches that are not live to the end anyway (a clone or a late reader
    // touches a copy, never live to the end, instead: not less).
    uint64_t added = base.transientBytes(v);
    for (BufferId b : base.buffersOf(v)) {
      const GraphBuffer &buf = base.buffer(b);
      if (!(buf.liveIn && buf.liveOut))
        footprint += buf.size;
      if (!buf.liveOut)
        added += buf.size;
    }
    if (footprint > floor.value) {
      floor.value = footprint;
      floor.node = v;
    }
    leastAdded = std::min(leastAdded, added);
  }
  if (base.numNodes() && toEnd + leastAdded > floor.value) {
    floor.value = toEnd + leastAdded;
    floor.kind = RematFloor::Kind::LiveToEnd;
  }
  return floor;
}

/// The base graph with each buffer b of a recomputed set counted whole only
/// while its touchers run (in their transient bytes) and at `between[b]`
/// (at most its size) between them.
static MemoryGraph relaxedGraph(const MemoryGraph &base,
                                const std::vector<char> &recomputed,
                                const std::vector<uint64_t> &between) {
  MemoryGraph g;
  for (NodeId v = 0; v < base.numNodes(); ++v) {
    uint64_t transient = base.transientBytes(v);
    for (BufferId b : base.buffersOf(v))
      if (recomputed[b])
        transient += base.bufferSize(b) - between[b];
    g.addNode(transient, base.nodeName(v));
  }
  for (BufferId b = 0; b < base.numBuffers(); ++b) {
    if (recomputed[b] && !between[b])
      continue;
    const GraphBuffer &buf = base.buffer(b);
    BufferId nb = g.addBuffer(recomputed[b] ? between[b] : buf.size,
                              buf.liveIn, buf.liveOut, buf.name);
    for (NodeId v : base.touchersOf(b))
      g.addTouch(nb, v);
  }
  for (NodeId u = 0; u < base.numNodes(); ++u)
    for (NodeId v : base.succs(u))
      g.addEdge(u, v);
  g.finalize();
  return g;
}

RematBound memsched_core::rematBound(const MemoryGraph &base,
                                const std::vector<RematSource> &sources,
                                const std::vector<uint64_t> &cost,
                                const RematBoundOptions &options) {
  RematBound result;
  auto outside = [&](BufferId b) { return isBoundaryBuffer(base, b); };
  // The sources a plan within the limit can use (those applyRemat accepts),
  // per buffer, with their costs.
  std::vector<uint64_t> sourceCost(sources.size(), UINT64_MAX);
  std::vector<std::vector<uint32_t>> sourcesOf(base.numBuffers());
  for (size_t s = 0; s < sources.size(); ++s) {
    const RematSource &src = sources[s];
    if (outside(src.buffer) || src.producers.empty() || src.readers.empty() ||
        std::any_of(src.inner.begin(), src.inner.end(), outside))
      continue;
    sourceCost[s] = sourceCostOf(src, cost);
    if (sourceCost[s] <= options.maxExtraCost)
      sourcesOf[src.buffer].push_back(static_cast<uint32_t>(s));
  }
  std::vector<BufferId> items;
  for (BufferId b = 0; b < base.numBuffers(); ++b)
    if (!sourcesOf[b].empty())
      items.push_back(b);
  // Witnesses of each source: the buffers its producers touch (not its
  // buffer, not an inner one, not live before or after the graph) all of
  // whose touchers run no later than its last producer in every order (each
  // is one of its producers or an ancestor of one). A clone of the source
  // touches them (the originals), so between the buffer's producers and
  // the late readers, wherever neither the buffer nor a copy is live and
  // no clone of the choice has run yet, all of them are, and no base node
  // touches them there.
  std::vector<std::vector<BufferId>> witnesses(sources.size());
  {
    std::vector<uint32_t> mark(base.numNodes(), 0);
    uint32_t stamp = 0;
    for (BufferId b : items)
      for (uint32_t s : sourcesOf[b]) {
        const RematSource &src = sources[s];
        ++stamp;
        std::vector<NodeId> work(src.producers.begin(), src.producers.end());
        for (NodeId p : work)
          mark[p] = stamp;
        while (!work.empty()) {
          NodeId v = work.back();
          work.pop_back();
          for (NodeId u : base.preds(v))
            if (mark[u] != stamp) {
              mark[u] = stamp;
              work.push_back(u);
            }
        }
        std::vector<BufferId> &w = witnesses[s];
        for (NodeId p : src.producers)
          for (BufferId x : base.buffersOf(p)) {
            if (x == src.buffer || outside(x) ||
                std::find(src.inner.begin(), src.inner.end(), x) !=
                    src.inner.end() ||
                std::find(w.begin(), w.end(), x) != w.end())
              continue;
            bool before = true;
            for (NodeId u : base.touchersOf(x))
              before &= mark[u] == stamp;
            if (before)
              w.push_back(x);
          }
      }
  }

  // Each buffer's sources by the bytes of their witnesses, fewest first
  // (then the costliest first). A subset of plans that recompute b is split
  // by the first source in this order its plans use on b: they may use
  // those after it too (b recomputed several times), never those before.
  std::vector<uint32_t> rank(sources.size(), 0);
  for (BufferId b : items) {
    std::vector<uint32_t> &list = sourcesOf[b];
    auto bytes = [&](uint32_t src) {
      uint64_t sum = 0;
      for (BufferId x : witnesses[src])
        sum += base.bufferSize(x);
      return sum;
    };
    std::stable_sort(list.begin(), list.end(), [&](uint32_t a, uint32_t c) {
      uint64_t ba = bytes(a), bc = bytes(c);
      return ba != bc ? ba < bc : sourceCost[a] > sourceCost[c];
    });
    for (uint32_t i = 0; i < list.size(); ++i)
      rank[list[i]] = i;
  }

  // Per item: kOpen, kOut (not recomputed) or the index of the source its
  // plans recompute it with.
  constexpr uint32_t kOpen = UINT32_MAX, kOut = UINT32_MAX - 1;
  struct Subset {
    std::vector<uint32_t> state;
    uint64_t spent = 0;
    // A bound every plan of this subset meets (its parent's).
    uint64_t inherited = 0;
  };
  std::vector<Subset> stack;
  stack.push_back({std::vector<uint32_t>(items.size(), kOpen), 0, 0});
  result.value = UINT64_MAX;
  std::vector<char> recomputed(base.numBuffers(), 0), claimed;
  std::vector<uint64_t> between(base.numBuffers(), 0);
  while (!stack.empty()) {
    if (result.relaxations >= options.relaxationBudget) {
      for (const Subset &s : stack)
        result.value = std::min(result.value, s.inherited);
      result.complete = false;
      break;
    }
    Subset s = std::move(stack.back());
    stack.pop_back();
    uint64_t left = options.maxExtraCost - s.spent;
    // The relaxation: every item not out counted whole only while its
    // touchers run and, between them, at the least its sources' witnesses
    // not claimed by an earlier item add (each witness credited to one
    // item). An open item takes its affordable source of least credit; when
    // those fit in what is left all together, the relaxation is itself a
    // set a plan can recompute (a leaf).
    std::fill(recomputed.begin(), recomputed.end(), 0);
    claimed.assign(base.numBuffers(), 0);
    uint64_t openCost = 0;
    bool anyOpen = false;
    for (size_t i = 0; i < items.size(); ++i) {
      BufferId b = items[i];
      uint32_t &st = s.state[i];
      if (st == kOpen) {
        bool affordable = false;
        for (uint32_t src : sourcesOf[b])
          affordable |= sourceCost[src] <= left;
        if (!affordable)
          st = kOut;
      }
      if (st == kOut)
        continue;
      recomputed[b] = 1;
      // In a gap, before any clone of the choice has run, all its
      // witnesses are live; after one has run (and before the copy of b is
      // started) a copy of one of its inner buffers is: one that a clone
      // wrote and a clone still to run reads.
      auto credit = [&](uint32_t src) {
        uint64_t sum = 0;
        for (BufferId x : witnesses[src])
          if (!claimed[x])
            sum += base.bufferSize(x);
        uint64_t least = std::min(sum, base.bufferSize(b));
        for (BufferId i : sources[src].inner)
          least = std::min(least, base.bufferSize(i));
        return least;
      };
      // The sources a plan of the subset may use on b (each clone opens a
      // gap): any within what is left when b is open; with b decided, its
      // source and those after it within what is left.
      auto usable = [&](uint32_t src) {
        if (src == st)
          return true;
        return sourceCost[src] <= left && (st == kOpen || rank[src] > rank[st]);
      };
      uint64_t least = UINT64_MAX, leastCostThere = 0;
      for (uint32_t src : sourcesOf[b]) {
        if (!usable(src))
          continue;
        uint64_t c = credit(src);
        if (c < least || (c == least && sourceCost[src] < leastCostThere)) {
          least = c;
          leastCostThere = sourceCost[src];
        }
      }
      between[b] = least;
      for (uint32_t src : sourcesOf[b])
        if (usable(src))
          for (BufferId x : witnesses[src])
            claimed[x] = 1;
      if (st == kOpen) {
        anyOpen = true;
        openCost += leastCostThere;
      }
    }
    MemoryGraph g = relaxedGraph(base, recomputed, between);
    ++result.relaxations;
    LowerBoundOptions lbOptions;
    lbOptions.target = options.target + 1;
    uint64_t bound =
        std::max(s.inherited, computeLowerBound(g, lbOptions).value);
    std::vector<NodeId> order;
    if (bound <= options.target) {
      ScheduleOptions schedOptions = options.schedule;
      schedOptions.lowerBound = bound;
      ScheduleResult r = schedule(g, schedOptions);
      bound = std::max(bound, r.lowerBound);
      order = std::move(r.order);
    }
    if (bound > options.target || !anyOpen || openCost <= left) {
      result.value = std::min(result.value, bound);
      if (bound <= options.target) {
        // Not provable: the least bound of what is left still holds.
        for (const Subset &o : stack)
          result.value = std::min(result.value, o.inherited);
        result.complete = stack.empty();
        break;
      }
      continue;
    }
    // Split on the largest open item live across the peak of the
    // relaxation's order (not touched there): counting it whole raises
    // that peak; else on the largest open item.
    PeakInfo info;
    evaluatePeak(g, order, &info);
    std::vector<size_t> position(base.numNodes());
    for (size_t i = 0; i < order.size(); ++i)
      position[order[i]] = i;
    int pick = -1;
    bool pickAcross = false;
    for (size_t i = 0; i < items.size(); ++i) {
      if (s.state[i] != kOpen)
        continue;
      size_t first = SIZE_MAX, last = 0;
      bool touchedAtPeak = false;
      for (NodeId v : base.touchersOf(items[i])) {
        first = std::min(first, position[v]);
        last = std::max(last, position[v]);
        touchedAtPeak |= position[v] == info.peakPosition;
      }
      bool across = first < info.peakPosition && info.peakPosition < last &&
                    !touchedAtPeak;
      if (pick < 0 || (across && !pickAcross) ||
          (across == pickAcross &&
           base.bufferSize(items[i]) > base.bufferSize(items[pick]))) {
        pick = static_cast<int>(i);
        pickAcross = across;
      }
    }
    // Children: not recomputed (explored first), or recomputed with each
    // affordable source first (in the order above).
    for (uint32_t src : sourcesOf[items[pick]]) {
      if (sourceCost[src] > left)
        continue;
      Subset in = s;
      in.state[pick] = src;
      in.spent += sourceCost[src];
      in.inherited = bound;
      stack.push_back(std::move(in));
    }
    s.state[pick] = kOut;
    s.inherited = bound;
    stack.push_back(std::move(s));
  }
  if (result.value == UINT64_MAX)
    result.value = 0;
  result.proved = result.value > options.target;
  return result;
}
