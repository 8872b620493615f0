//===- SchedParallel.cpp - parallel chains merged (rule P) -------*- C++ -*-===//
//
// Rule (P): chains that run side by side between the same nodes are merged
// into one chain in an order that some optimal order of the whole segment
// follows, so the search sees a series-parallel piece as a path.
//
// A chain is a maximal path x1 -> ... -> xL whose inner links are the only
// successor of the one and the only predecessor of the other. Chains with
// the same predecessors P (of x1) and successors S (of xL) form a group. In
// every valid order a chain's nodes run after all of P and before all of S,
// in the chain's order; between the last node of P and the first of S (the
// window) they interleave with each other and with every other node O that
// runs there, and no node of O depends on a chain node or the reverse.
//
// A chain is independent when each buffer it touches is
//   private: its other touchers are all in P or S (or it has none), or
//   through: live-in or touched in P, and live-out or touched in S
//   (shared buffers, touched by several chains of a group, come below),
// so that it is live during the whole window. Through buffers are started
// before the window and freed after it whatever runs in it; a private
// buffer is started by the chain's first toucher unless live-in or touched
// in P, and freed after its last unless live-out or touched in S. So the
// memory at any step of the window is a constant plus the bytes each chain
// has live at that point plus those of O plus the step's own rise: each
// independent chain is a sequence of steps with a rise
//   A(x) = transient(x) + bytes x starts
// and a fall
//   B(x) = transient(x) + bytes x frees
// (the memory while x runs is the level before it plus A(x); the level after
// it is that minus B(x)), and the sequences only add up.
//
// Such sequences interleave as jobs of the two-machine flow shop do
// (Johnson 1954; Abdel-Wahab and Kameda 1978 for maximum cumulative cost).
// A block of consecutive steps has A = its highest memory above its start
// level and B = that memory above its end level (X then Y: A = max(A_X,
// A_X - B_X + A_Y), B = A - (A_X - B_X) - (A_Y - B_Y)). Two adjacent blocks
// of different sequences, X then Y, reach at most the memory of Y then X
// (the levels around the pair are the same) when
//   min(A_X, B_Y) <= min(A_Y, B_X)                                      (J)
// and (J) holds whenever X's key is at most Y's, the key being (0, A) for a
// block with A <= B (it frees at least what it starts) and (1, -B) for the
// others: blocks that free first, least rise first, then the rest, greatest
// fall first.
//
// Blocks: each chain's steps are taken in order onto a stack, and while the
// top block's key is below the one under it the two merge. The blocks of a
// chain then have non-decreasing keys. Merging X and the next block Y of the
// same chain, key(Y) < key(X), keeps some optimal order: take one where the
// blocks formed so far are contiguous, with Z (whole blocks of other
// sequences) between X and Y, and compose Z into one block. If key(Z) <=
// key(X), Z moves before X; otherwise key(Y) < key(Z) and Y moves before Z
// (Y depends on X alone there). Either step is (J), so the order stays
// optimal, and X and Y are adjacent. O, the nodes of the window in the
// order's fixed order, is a sequence like the chains (none of its nodes
// depends on a chain node or the reverse) and is cut into blocks the same
// way. Once every sequence is cut into blocks of non-decreasing keys that
// run contiguously, adjacent blocks of different sequences out of key order
// swap by (J) until all blocks are sorted by key, ties by sequence then
// position. Restricted to the group's chains that is their blocks sorted by
// (key, chain, position) whatever O is, so every optimal order can be
// turned into an optimal order that runs the group's chains in that merged
// order: the rule adds its links as edges.
//
// The merged chain has P's edges into its first node and its last node's
// into S (in the lists the rounds work on, the edges from P to the other
// first nodes and from the other last nodes to S follow from it and are
// dropped; the graph returned keeps every edge of the segment), so it is
// itself a chain and may join a group of the next round: series-parallel
// pieces whose buffers are independent become one path, bottom up. Several
// groups merge in one round only when no node of a later group (its chains,
// P or S) was rewired by an earlier one: the later group's argument then
// holds in the graph with the earlier edges, since it moves only its own
// chain nodes, which no earlier edge touches.
//
// Shared buffers. A buffer touched by several chains of the group and by
// nothing else in the window, not live across it (the input of an
// inception block that the join does not read, freed by whichever branch
// reads it last), couples the chains. Give it an owner, one of those
// chains, and count it in the owner's steps only. This relaxation never
// raises an order's memory (the buffer's live range shrinks to the owner's
// touches), and the merge above is optimal for it. When the merged order
// has every shared buffer first touched by its owner (unless started before
// the window) and last touched by it (unless kept after), the relaxation is
// exact on that order: every order is at least its relaxed memory, which is
// at least the merged order's, which is exact, so the merge keeps some
// optimal order. Owners are tried from nobody, then after the touches of
// the last merge (the last reader owns a buffer freed in the window), a few
// times; chains whose shared buffer never comes out exact are left as they
// are, with every chain that then shares a buffer with them.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Graph/SchedSegment.h"

#include <algorithm>
#include <cassert>
#include <queue>

using namespace memsched_core;
using namespace memsched_core::sched;

namespace {

/// A block of consecutive steps of one chain.
struct Block {
  int64_t rise = 0, fall = 0; // A and B
  uint32_t chain = 0, first = 0, last = 0; // positions in the chain
};

/// (J)'s key: does X run before Y in the merged order (strictly)?
bool keyBefore(const Block &x, const Block &y) {
  bool lateX = x.rise > x.fall, lateY = y.rise > y.fall;
  if (lateX != lateY)
    return lateY;
  return lateX ? x.fall > y.fall : x.rise < y.rise;
}

Block compose(const Block &x, const Block &y) {
  Block c = x;
  int64_t netX = x.rise - x.fall, netY = y.rise - y.fall;
  c.rise = std::max(x.rise, netX + y.rise);
  c.fall = c.rise - netX - netY;
  c.last = y.last;
  return c;
}

/// Pairs of successors transitiveReduction may compare in all.
constexpr uint64_t kMaxReductionWork = uint64_t(1) << 26;

/// Removes every edge u -> v such that another successor of u reaches v;
/// nothing when that would compare more than kMaxReductionWork pairs.
void transitiveReduction(const SegmentGraph &seg,
                         std::vector<std::vector<LocalId>> &succs,
                         std::vector<std::vector<LocalId>> &preds) {
  size_t n = seg.numNodes(), words = (n + 63) / 64;
  uint64_t work = 0;
  for (LocalId u = 0; u < n; ++u)
    work += uint64_t(succs[u].size()) * succs[u].size();
  if (work > kMaxReductionWork)
    return;
  std::vector<uint64_t> desc = reachBits(seg, false);
  for (LocalId u = 0; u < n; ++u) {
    std::vector<LocalId> kept;
    for (LocalId v : succs[u]) {
      bool implied = false;
      for (LocalId w : succs[u])
        if (w != v && (desc[w * words + (v >> 6)] >> (v & 63)) & 1) {
          implied = true;
          break;
        }
      if (implied)
        preds[v].erase(std::find(preds[v].begin(), preds[v].end(), u));
      else
        kept.push_back(v);
    }
    succs[u] = std::move(kept);
  }
}

/// Chains as one flat list: chain c is nodes[start[c], start[c + 1]).
struct Chains {
  std::vector<LocalId> nodes;
  std::vector<uint32_t> start;
  size_t size() const { return start.size() - 1; }
  const LocalId *begin(uint32_t c) const { return nodes.data() + start[c]; }
  const LocalId *end(uint32_t c) const { return nodes.data() + start[c + 1]; }
  uint32_t length(uint32_t c) const { return start[c + 1] - start[c]; }
  LocalId first(uint32_t c) const { return nodes[start[c]]; }
  LocalId last(uint32_t c) const { return nodes[start[c + 1] - 1]; }
};

/// The chains of the graph whose sorted predecessor and successor lists
/// `preds` and `succs` give (a segment's ranges or the lists being
/// rewired), with each node's chain and position; returns the groups of at
/// least two chains with the same ends, each in ascending chain order.
template <typename PredsOf, typename SuccsOf>
std::vector<std::vector<uint32_t>>
findGroups(size_t n, PredsOf preds, SuccsOf succs, Chains &chains,
           std::vector<uint32_t> &chainOf, std::vector<uint32_t> &positionOf) {
  // x -> y is a link when y is x's only successor and x is y's only
  // predecessor.
  auto linked = [&](LocalId x) {
    return succs(x).size() == 1 && preds(succs(x)[0]).size() == 1;
  };
  chains.nodes.clear();
  chains.start.assign(1, 0);
  for (LocalId v = 0; v < n; ++v) {
    if (preds(v).size() == 1 && linked(preds(v)[0]))
      continue; // not a first node
    uint32_t c = static_cast<uint32_t>(chains.start.size() - 1);
    for (LocalId x = v;; x = succs(x)[0]) {
      chainOf[x] = c;
      positionOf[x] = static_cast<uint32_t>(chains.nodes.size()) -
                      chains.start.back();
      chains.nodes.push_back(x);
      if (!linked(x))
        break;
    }
    chains.start.push_back(static_cast<uint32_t>(chains.nodes.size()));
  }
  // Chains sorted by a hash of their ends, then split where the ends
  // differ.
  auto sameEnds = [&](uint32_t a, uint32_t b) {
    auto pa = preds(chains.first(a)), pb = preds(chains.first(b));
    auto sa = succs(chains.last(a)), sb = succs(chains.last(b));
    return std::equal(pa.begin(), pa.end(), pb.begin(), pb.end()) &&
           std::equal(sa.begin(), sa.end(), sb.begin(), sb.end());
  };
  std::vector<std::pair<uint64_t, uint32_t>> byHash(chains.size());
  for (uint32_t c = 0; c < chains.size(); ++c) {
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (LocalId p : preds(chains.first(c)))
      h = (h ^ p) * 0x100000001B3ULL;
    h = (h ^ 0xFFFFFFFFu) * 0x100000001B3ULL;
    for (LocalId q : succs(chains.last(c)))
      h = (h ^ q) * 0x100000001B3ULL;
    byHash[c] = {h, c};
  }
  std::sort(byHash.begin(), byHash.end());
  std::vector<std::vector<uint32_t>> groups;
  for (size_t i = 0; i < byHash.size();) {
    size_t j = i;
    while (j < byHash.size() && byHash[j].first == byHash[i].first)
      ++j;
    std::vector<uint32_t> left;
    if (j - i >= 2)
      for (size_t k = i; k < j; ++k)
        left.push_back(byHash[k].second);
    while (left.size() >= 2) {
      std::vector<uint32_t> group, rest;
      for (uint32_t c : left)
        (group.empty() || sameEnds(c, group.front()) ? group : rest)
            .push_back(c);
      if (group.size() >= 2)
        groups.push_back(std::move(group));
      left = std::move(rest);
    }
    i = j;
  }
  return groups;
}

} // namespace

/// Segments up to this many nodes get the transitive reduction (reachability
/// bitsets, n^2 / 8 bytes); above, chains are found on the edges as given.
constexpr size_t kMaxReductionNodes = 4096;
/// Rounds of merging (each can turn one more level of nesting into chains).
constexpr unsigned kMaxRounds = 64;
/// Merges tried per group with owners of its shared buffers.
constexpr unsigned kOwnerAttempts = 4;

OrderedSegment sched::mergeParallelChains(const SegmentGraph &seg) {
  size_t n = seg.numNodes();
  OrderedSegment result;
  result.oldId.resize(n);
  for (LocalId v = 0; v < n; ++v)
    result.oldId[v] = v;
  // Byte counts are added as signed 64-bit numbers below: every rise, fall
  // and composition stays within twice the segment's bytes, so below 2^61.
  const uint64_t cap = uint64_t(1) << 60;
  uint64_t total = 0;
  auto add = [&](uint64_t bytes) {
    total = bytes >= cap - total ? cap : total + bytes; // saturating
  };
  for (uint64_t t : seg.transient)
    add(t);
  for (uint64_t s : seg.size)
    add(s);
  if (n < 2 || total >= cap)
    return result;

  Chains chains;
  std::vector<uint32_t> chainOf(n), positionOf(n);
  // Without the reduction, a segment with no group is left as it is
  // before its lists are copied (most large segments).
  bool reduce = n <= kMaxReductionNodes;
  if (!reduce &&
      findGroups(
          n, [&](LocalId v) { return seg.preds(v); },
          [&](LocalId v) { return seg.succs(v); }, chains, chainOf,
          positionOf)
          .empty())
    return result;

  std::vector<std::vector<LocalId>> preds(n), succs(n);
  for (LocalId v = 0; v < n; ++v) {
    preds[v].assign(seg.preds(v).begin(), seg.preds(v).end());
    succs[v].assign(seg.succs(v).begin(), seg.succs(v).end());
  }
  if (reduce)
    transitiveReduction(seg, succs, preds);

  std::vector<std::pair<LocalId, LocalId>> added;
  std::vector<uint8_t> side(n, 0); // 1: in P, 2: in S
  std::vector<uint32_t> dirty(n, 0), keptAt(n, 0);
  // Per buffer: the chain that owns it while a group is merged
  // (UINT32_MAX: not shared; UINT32_MAX - 1: shared, no owner yet), and
  // its index among the group's shared buffers.
  std::vector<uint32_t> owner(seg.numBuffers(), UINT32_MAX),
      sharedIndex(seg.numBuffers(), 0);
  uint32_t stamp = 0;
  for (unsigned round = 1; round <= kMaxRounds; ++round) {
    std::vector<std::vector<uint32_t>> groups = findGroups(
        n,
        [&](LocalId v) -> const std::vector<LocalId> & { return preds[v]; },
        [&](LocalId v) -> const std::vector<LocalId> & { return succs[v]; },
        chains, chainOf, positionOf);
    bool changed = false;
    for (const std::vector<uint32_t> &members : groups) {
      const std::vector<LocalId> P = preds[chains.first(members.front())];
      const std::vector<LocalId> S = succs[chains.last(members.front())];
      // A group whose nodes an earlier merge of this round rewired waits
      // for the next round, where its chains and ends are found again.
      bool stale = false;
      for (LocalId p : P)
        stale |= dirty[p] == round;
      for (LocalId s : S)
        stale |= dirty[s] == round;
      for (uint32_t c : members)
        for (const LocalId *x = chains.begin(c); x != chains.end(c); ++x)
          stale |= dirty[*x] == round;
      if (stale)
        continue;
      for (LocalId p : P)
        side[p] = 1;
      for (LocalId s : S)
        side[s] = 2;
      // Each chain's steps (rises and falls: its private buffers and the
      // shared ones it owns) cut into blocks of non-decreasing keys, for
      // the chains `of`, in that order. The stable sort of the merge keeps
      // chains, then positions, in order among equal keys.
      auto chainBlocks = [&](const std::vector<uint32_t> &of) {
        std::vector<Block> blocks;
        for (uint32_t c : of) {
          const LocalId *chain = chains.begin(c);
          uint32_t length = chains.length(c);
          std::vector<int64_t> started(length, 0), freed(length, 0);
          for (uint32_t i = 0; i < length; ++i)
            for (uint32_t b : seg.bufs(chain[i])) {
              bool before = seg.liveIn[b], after = seg.liveOut[b];
              bool foreign = false;
              uint32_t firstAt = UINT32_MAX, lastAt = 0;
              for (LocalId t : seg.touchers(b)) {
                if (side[t] == 1) {
                  before = true;
                } else if (side[t] == 2) {
                  after = true;
                } else if (chainOf[t] == c) {
                  firstAt = std::min(firstAt, positionOf[t]);
                  lastAt = std::max(lastAt, positionOf[t]);
                } else {
                  foreign = true;
                }
              }
              // Count each buffer once, at its first toucher in the chain;
              // one touched elsewhere only when this chain owns it.
              if (positionOf[chain[i]] != firstAt ||
                  (foreign && owner[b] != c))
                continue;
              int64_t size = static_cast<int64_t>(seg.size[b]);
              if (!before)
                started[firstAt] += size;
              if (!after)
                freed[lastAt] += size;
            }
          size_t base = blocks.size();
          for (uint32_t i = 0; i < length; ++i) {
            int64_t transient = static_cast<int64_t>(seg.transient[chain[i]]);
            Block step;
            step.rise = transient + started[i];
            step.fall = transient + freed[i];
            step.chain = c;
            step.first = step.last = i;
            blocks.push_back(step);
            while (blocks.size() >= base + 2 &&
                   keyBefore(blocks.back(), blocks[blocks.size() - 2])) {
              Block top = blocks.back();
              blocks.pop_back();
              blocks.back() = compose(blocks.back(), top);
            }
          }
        }
        return blocks;
      };
      // The chains to merge: a fixpoint that drops every chain with a
      // buffer touched outside the kept chains, P and S unless it is live
      // across the window; buffers of several kept chains are shared.
      ++stamp;
      std::vector<uint32_t> merged(members);
      for (uint32_t c : merged)
        keptAt[c] = stamp;
      auto classify = [&](uint32_t b, bool &before, bool &after,
                          bool &outside, bool &several) {
        before = seg.liveIn[b];
        after = seg.liveOut[b];
        outside = several = false;
        uint32_t one = UINT32_MAX;
        for (LocalId t : seg.touchers(b)) {
          if (side[t] == 1)
            before = true;
          else if (side[t] == 2)
            after = true;
          else if (keptAt[chainOf[t]] != stamp)
            outside = true;
          else if (one == UINT32_MAX)
            one = chainOf[t];
          else
            several |= chainOf[t] != one;
        }
      };
      std::vector<LocalId> order;
      while (merged.size() >= 2) {
        for (bool dropped = true; dropped && merged.size() >= 2;) {
          std::vector<uint32_t> next;
          for (uint32_t c : merged) {
            bool ok = true;
            for (const LocalId *x = chains.begin(c); ok && x != chains.end(c);
                 ++x)
              for (uint32_t b : seg.bufs(*x)) {
                bool before, after, outside, several;
                classify(b, before, after, outside, several);
                ok &= !outside || (before && after);
              }
            if (ok)
              next.push_back(c);
            else
              keptAt[c] = 0;
          }
          dropped = next.size() != merged.size();
          merged = std::move(next);
        }
        if (merged.size() < 2)
          break;
        // Shared buffers (of several kept chains, not live across the
        // window) count for one chain each, their owner: the others' touches
        // are left out, which never raises any order's memory. The merge
        // is kept when, in its order, each owner touches its buffers first
        // (unless started before the window) and last (unless kept after
        // it): the memory of the merged order is then exact. Owners start
        // as nobody and follow the touches of the last merge.
        std::vector<uint32_t> shared;
        for (uint32_t c : merged)
          for (const LocalId *x = chains.begin(c); x != chains.end(c); ++x)
            for (uint32_t b : seg.bufs(*x)) {
              bool before, after, outside, several;
              classify(b, before, after, outside, several);
              if (several && !(before && after) && owner[b] != UINT32_MAX - 1) {
                owner[b] = UINT32_MAX - 1; // listed, no owner yet
                shared.push_back(b);
              }
            }
        std::vector<uint32_t> inconsistent;
        for (unsigned attempt = 0; attempt < kOwnerAttempts; ++attempt) {
          std::vector<Block> blocks = chainBlocks(merged);
          std::stable_sort(blocks.begin(), blocks.end(), keyBefore);
          order.clear();
          for (const Block &blk : blocks)
            for (uint32_t i = blk.first; i <= blk.last; ++i)
              order.push_back(chains.begin(blk.chain)[i]);
          // The first and last chains to touch each shared buffer.
          inconsistent.clear();
          std::vector<uint32_t> first(shared.size(), UINT32_MAX),
              last(shared.size(), UINT32_MAX);
          for (size_t k = 0; k < shared.size(); ++k)
            sharedIndex[shared[k]] = static_cast<uint32_t>(k);
          for (LocalId x : order)
            for (uint32_t b : seg.bufs(x))
              if (owner[b] != UINT32_MAX) {
                uint32_t k = sharedIndex[b];
                if (first[k] == UINT32_MAX)
                  first[k] = chainOf[x];
                last[k] = chainOf[x];
              }
          for (size_t k = 0; k < shared.size(); ++k) {
            uint32_t b = shared[k];
            bool before, after, outside, several;
            classify(b, before, after, outside, several);
            uint32_t want = !after ? last[k] : first[k];
            bool exact = (before || first[k] == owner[b]) &&
                         (after || last[k] == owner[b]);
            if (!exact)
              inconsistent.push_back(b);
            owner[b] = want;
          }
          if (inconsistent.empty())
            break;
        }
        if (inconsistent.empty())
          break;
        // Chains touching a buffer no owner made exact are left out.
        for (uint32_t b : inconsistent)
          for (LocalId t : seg.touchers(b))
            if (keptAt[chainOf[t]] == stamp && side[t] == 0)
              keptAt[chainOf[t]] = 0;
        std::vector<uint32_t> next;
        for (uint32_t c : merged)
          if (keptAt[c] == stamp)
            next.push_back(c);
        merged = std::move(next);
        for (uint32_t b : shared)
          owner[b] = UINT32_MAX;
        order.clear();
      }
      for (LocalId p : P)
        side[p] = 0;
      for (LocalId s : S)
        side[s] = 0;
      for (uint32_t c : members)
        for (const LocalId *x = chains.begin(c); x != chains.end(c); ++x)
          for (uint32_t b : seg.bufs(*x))
            owner[b] = UINT32_MAX;
      if (merged.size() < 2)
        continue;
      // Rewire: P -> order[0] -> ... -> order.back() -> S. The merged
      // chains are those still kept.
      auto isMerged = [&](LocalId x) { return keptAt[chainOf[x]] == stamp; };
      // An end's list of the group's nodes becomes the one node `to`.
      auto rewire = [&](LocalId end, std::vector<LocalId> &list, LocalId to) {
        list.erase(std::remove_if(list.begin(), list.end(), isMerged),
                   list.end());
        list.insert(std::lower_bound(list.begin(), list.end(), to), to);
        dirty[end] = round;
      };
      for (LocalId p : P)
        rewire(p, succs[p], order.front());
      for (LocalId s : S)
        rewire(s, preds[s], order.back());
      for (size_t i = 0; i < order.size(); ++i) {
        LocalId x = order[i];
        dirty[x] = round;
        bool wasLinked = i > 0 && chainOf[order[i - 1]] == chainOf[x] &&
                         positionOf[order[i - 1]] + 1 == positionOf[x];
        if (i > 0 && !wasLinked)
          added.emplace_back(order[i - 1], x);
        preds[x] = i == 0 ? P : std::vector<LocalId>{order[i - 1]};
        succs[x] = i + 1 == order.size() ? S
                                         : std::vector<LocalId>{order[i + 1]};
      }
      changed = true;
    }
    if (!changed)
      break;
  }
  result.edges = static_cast<unsigned>(added.size());
  if (added.empty())
    return result;
  // A topological numbering of the rewired graph (which implies every edge
  // of the segment), lowest old id first: the program order where the
  // merges allow it.
  std::vector<uint32_t> indegree(n);
  std::priority_queue<LocalId, std::vector<LocalId>, std::greater<LocalId>>
      ready;
  for (LocalId v = 0; v < n; ++v)
    if ((indegree[v] = static_cast<uint32_t>(preds[v].size())) == 0)
      ready.push(v);
  std::vector<LocalId> newId(n);
  LocalId next = 0;
  while (!ready.empty()) {
    LocalId v = ready.top();
    ready.pop();
    newId[v] = next++;
    for (LocalId w : succs[v])
      if (--indegree[w] == 0)
        ready.push(w);
  }
  assert(next == n && "the rewired graph has a cycle");
  result.graph = renumberSegment(seg, newId, added);
  for (LocalId v = 0; v < n; ++v)
    result.oldId[newId[v]] = v;
  return result;
}
