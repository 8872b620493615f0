//===- SchedReduce.cpp - contractions that keep the optimal peak -*- C++ -*-===//
//
// Before searching a segment, nodes that some optimal order runs right next to
// a neighbour are merged with it, so the search sees fewer nodes and far fewer
// executed sets. Two rules, one the time reversal of the other:
//
//   (S) sink a node into its only successor: u with succs(u) = {v}, every
//       buffer of u live-out or touched by v or a node v reaches (u frees
//       nothing), and transient(u) <= transient(v);
//   (H) hoist a node onto its only predecessor: u with preds(u) = {p},
//       every buffer of u live-in or touched by p or a node reaching p (u
//       starts nothing), and transient(u) <= transient(p).
//
// A node whose successors all come after one of them, v (v reaches them),
// has v as its only successor for (S): in every order v is the first of them
// to run; likewise for (H) with the predecessor all others reach.
//
// Why (S) keeps the optimal peak (docs/lower-bounds.md, "Contractions"):
// take any valid order and move u later, to just before v (valid: v is u's
// only successor, and u's predecessors stay before it). Every buffer u
// touches is live-out or touched by a descendant of u, which runs after u,
// so u frees nothing: at the steps u jumps over, a buffer u would have
// started is started later or by another toucher, so their memory does not
// grow; steps from v on see the same executed sets. At u's new step the
// memory is live(S) + transient(u) + start_S(u), and v's step right after
// has live(S) + start_S(u) + transient(v) + start(v) >= that. So the peak
// does not grow, some optimal order has u right before v, and the pair can
// be one node: the buffers of both, the predecessors of both, v's transient
// bytes. Its step costs exactly v's step in the expanded order (u's buffers
// are all still live then), and u's step costs no more. (H) is (S) on the
// reversed segment, where every order's peak is the same. Rules are applied
// until none applies; each merge removes a node.
//
// deferralTargets (rule (D)) finds pairs that some optimal order runs
// adjacent although u may free buffers at its step, so that the pair is not
// one node; the exact search runs them as two steps (docs/lower-bounds.md
// section 8b has the conditions and the proof).
//
// orderTwins (rule (T)) orders twins, nodes a and b with the same
// predecessors and the same successors, the way Fradet, Girault and Honorat
// order independent tasks: when some optimal order runs a before b, the edge
// a -> b keeps the optimum and halves the executed sets the pair spans.
// Conditions, for a class C of twins (same predecessors and successors):
// every buffer a member touches is touched by every member ("shared"), or
// its other touchers are all predecessors or successors of the class
// ("private"). For a member a let
//   st(a) = private bytes a starts (no toucher among the predecessors, not
//           live-in), fr(a) = private bytes a frees (no toucher among the
//           successors, not live-out),
//   p(a)  = transient(a) + st(a), w(a) = transient(a) + fr(a).
// Then some optimal order runs a before b whenever p(a) <= p(b) and
// w(a) >= w(b). Proof: take an order with b at position i, a at j > i and
// the nodes X between; swap a and b (valid: they have the same
// predecessors and successors, so X holds none of either). The executed
// sets differ only by a and b trading places, so a shared buffer (touched
// by both) is started, live and freed at the same steps; a private buffer
// of a is touched by nothing in X, so it adds d(a) = st(a) - fr(a) to
// every step of X when a ran before them and nothing otherwise. With L the
// memory before position i and M that before j, apart from a and b's
// private buffers, and sh the shared bytes started at position i:
//   b first: L + p(b) + sh,  X + d(b),  M + d(b) + p(a)
//   a first: L + p(a) + sh,  X + d(a),  M + d(a) + p(b)
// and d(a) - p(a) = -w(a), so p(a) <= p(b) and w(a) >= w(b) give
// d(a) + p(b) <= d(b) + p(a) and d(a) <= d(b): no step of the second order
// exceeds the matching step of the first. The members of C are split into
// chains of such pairs; every optimal order can be turned into one that
// runs each chain in its order by swapping members adjacent within the
// chain (each swap one of the above, X holding anything else), and chains
// are disjoint, so all the edges hold at once in some optimal order.
// Members that break the conditions are left out of their class first.
//
// The contracted graph numbers its nodes by the original position of their
// representative (the node the others were merged into); the identity order
// is then the program order with each merged group moved to its
// representative, which the argument above shows is valid and no worse.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Graph/SchedSegment.h"

#include <algorithm>
#include <cassert>
#include <iterator>
#include <map>
#include <tuple>

using namespace memsched_core;
using namespace memsched_core::sched;

namespace {

void eraseValue(std::vector<LocalId> &v, LocalId x) {
  v.erase(std::remove(v.begin(), v.end(), x), v.end());
}

void insertSorted(std::vector<LocalId> &v, LocalId x) {
  auto it = std::lower_bound(v.begin(), v.end(), x);
  if (it == v.end() || *it != x)
    v.insert(it, x);
}

/// Replaces x by y in the sorted list v.
void replaceSorted(std::vector<LocalId> &v, LocalId x, LocalId y) {
  eraseValue(v, x);
  insertSorted(v, y);
}

} // namespace

/// Segments up to this many nodes get reachability bitsets (n^2 / 8 bytes).
constexpr size_t kMaxBitsetNodes = 4096;

ContractedSegment sched::contractSegment(const SegmentGraph &seg) {
  size_t n = seg.numNodes();
  std::vector<std::vector<LocalId>> preds(n), succs(n), bufs(n), members(n);
  std::vector<uint8_t> alive(n, 1);
  for (LocalId v = 0; v < n; ++v) {
    preds[v].assign(seg.preds(v).begin(), seg.preds(v).end());
    succs[v].assign(seg.succs(v).begin(), seg.succs(v).end());
    std::sort(preds[v].begin(), preds[v].end());
    std::sort(succs[v].begin(), succs[v].end());
    bufs[v].assign(seg.bufs(v).begin(), seg.bufs(v).end());
    std::sort(bufs[v].begin(), bufs[v].end());
    members[v] = {v};
  }
  // Per buffer: its touchers in the graph as contracted so far.
  std::vector<std::vector<LocalId>> touch(seg.numBuffers());
  for (uint32_t b = 0; b < seg.numBuffers(); ++b)
    touch[b].assign(seg.touchers(b).begin(), seg.touchers(b).end());
  // Does `from` reach every node of `targets` (along succs, or along preds
  // when `backwards`)? Ids are a topological order, so the walk stays
  // between `from` and the farthest target; it gives up (no) past a fixed
  // number of visits.
  std::vector<uint32_t> targetMark(n, 0), visitMark(n, 0);
  uint32_t stamp = 0;
  std::vector<LocalId> stack;
  auto reaches = [&](LocalId from, const std::vector<LocalId> &targets,
                     bool backwards, bool all) {
    ++stamp;
    LocalId limit = from;
    size_t left = 0;
    for (LocalId t : targets)
      if (t != from && targetMark[t] != stamp) {
        targetMark[t] = stamp;
        ++left;
        limit = backwards ? std::min(limit, t) : std::max(limit, t);
      }
    size_t total = left, budget = 1024;
    visitMark[from] = stamp;
    stack.assign(1, from);
    while (!stack.empty() && left > 0) {
      LocalId x = stack.back();
      stack.pop_back();
      for (LocalId y : backwards ? preds[x] : succs[x]) {
        if ((backwards ? y < limit : y > limit) || visitMark[y] == stamp)
          continue;
        visitMark[y] = stamp;
        if (targetMark[y] == stamp) {
          --left;
          if (!all)
            return true;
        }
        if (budget-- == 0)
          return false;
        stack.push_back(y);
      }
    }
    return all ? left == 0 : left < total;
  };
  // Merges keep the order between the remaining nodes (a merged pair was
  // ordered with everything the pair is), so on segments small enough the
  // descendants of the segment's nodes answer for the contracted graph;
  // above, a bounded walk does (no when it gives up).
  size_t words = (n + 63) / 64;
  bool haveDesc = n <= kMaxBitsetNodes;
  std::vector<uint64_t> desc;
  if (haveDesc)
    desc = reachBits(seg, false);
  auto ordered = [&](LocalId from, LocalId to) { // to reachable from from
    return (desc[from * words + (to >> 6)] >> (to & 63)) & 1;
  };
  // Does u keep every buffer it touches pending (sinking: live-out or
  // touched by `next` or a node it reaches) or started (hoisting: live-in or
  // touched by `next` or a node that reaches it)? Then u frees (resp.
  // starts) nothing when it runs right before (resp. after) `next`.
  std::vector<LocalId> others;
  auto keepsBuffers = [&](LocalId u, LocalId next, bool hoist) {
    for (uint32_t b : bufs[u]) {
      if (hoist ? seg.liveIn[b] : seg.liveOut[b])
        continue;
      others.clear();
      bool kept = false;
      for (LocalId t : touch[b]) {
        if (t == next || (haveDesc && t != u &&
                          (hoist ? ordered(t, next) : ordered(next, t)))) {
          kept = true;
          break;
        }
        if (!haveDesc && (hoist ? t < u : t > u))
          others.push_back(t);
      }
      if (!kept && (haveDesc || others.empty() ||
                    !reaches(next, others, hoist, /*all=*/false)))
        return false;
    }
    return true;
  };
  // The successor every other successor comes after (or the predecessor
  // every other one comes before) when the rule's cheap conditions hold for
  // it; the reachability walk runs last.
  auto canSink = [&](LocalId u, LocalId &v) {
    if (succs[u].empty())
      return false;
    v = succs[u].front(); // lowest id: the only one that can reach the rest
    return seg.transient[u] <= seg.transient[v] &&
           (succs[u].size() == 1 || reaches(v, succs[u], false, true)) &&
           keepsBuffers(u, v, false);
  };
  auto canHoist = [&](LocalId u, LocalId &p) {
    if (preds[u].empty())
      return false;
    p = preds[u].back(); // highest id: the only one the rest can reach
    return seg.transient[u] <= seg.transient[p] &&
           (preds[u].size() == 1 || reaches(p, preds[u], true, true)) &&
           keepsBuffers(u, p, true);
  };
  // u's buffers become `into`'s (the union), u's touches `into`'s.
  auto mergeBuffers = [&](LocalId u, LocalId into) {
    std::vector<LocalId> merged;
    std::set_union(bufs[u].begin(), bufs[u].end(), bufs[into].begin(),
                   bufs[into].end(), std::back_inserter(merged));
    bufs[into] = std::move(merged);
    for (uint32_t b : bufs[u])
      replaceSorted(touch[b], u, into);
  };

  std::vector<LocalId> work;
  for (LocalId v = n; v-- > 0;)
    work.push_back(v);
  std::vector<uint8_t> queued(n, 1);
  auto requeue = [&](LocalId v) {
    if (!queued[v]) {
      queued[v] = 1;
      work.push_back(v);
    }
  };
  size_t merged = 0;
  while (!work.empty()) {
    LocalId u = work.back();
    work.pop_back();
    queued[u] = 0;
    if (!alive[u])
      continue;
    LocalId v = 0, p = 0;
    if (canSink(u, v)) {
      // (S): u runs right before v.
      for (LocalId q : preds[u]) {
        replaceSorted(succs[q], u, v);
        insertSorted(preds[v], q);
        requeue(q);
      }
      eraseValue(preds[v], u);
      // The other successors come after v: their edges now leave v.
      for (LocalId w : succs[u])
        if (w != v) {
          replaceSorted(preds[w], u, v);
          insertSorted(succs[v], w);
        }
      mergeBuffers(u, v);
      members[u].insert(members[u].end(), members[v].begin(),
                        members[v].end());
      members[v] = std::move(members[u]);
      alive[u] = 0;
      ++merged;
      requeue(v);
    } else if (canHoist(u, p)) {
      // (H): u runs right after p.
      for (LocalId w : succs[u]) {
        replaceSorted(preds[w], u, p);
        insertSorted(succs[p], w);
        requeue(w);
      }
      eraseValue(succs[p], u);
      // The other predecessors come before p: their edges now enter p.
      for (LocalId q : preds[u])
        if (q != p) {
          replaceSorted(succs[q], u, p);
          insertSorted(preds[p], q);
        }
      mergeBuffers(u, p);
      members[p].insert(members[p].end(), members[u].begin(),
                        members[u].end());
      alive[u] = 0;
      ++merged;
      requeue(p);
    }
  }

  ContractedSegment out;
  // Representatives in program order: the new ids.
  std::vector<LocalId> newId(n, UINT32_MAX);
  for (LocalId v = 0; v < n; ++v)
    if (alive[v]) {
      newId[v] = static_cast<LocalId>(out.members.size());
      out.members.push_back(std::move(members[v]));
      out.representatives.push_back(v);
    }
  size_t m = out.members.size();
  assert(m + merged == n && "every merge removes one node");
  (void)merged;
  SegmentGraph &c = out.graph;
  c.begin = seg.begin;
  c.size = seg.size;
  c.liveIn = seg.liveIn;
  c.liveOut = seg.liveOut;
  c.transient.resize(m);
  c.predStart.assign(m + 1, 0);
  c.succStart.assign(m + 1, 0);
  c.bufStart.assign(m + 1, 0);
  std::vector<std::vector<uint32_t>> outTouch(seg.numBuffers());
  for (LocalId v = 0; v < n; ++v) {
    if (!alive[v])
      continue;
    LocalId id = newId[v];
    c.transient[id] = seg.transient[v];
    std::vector<LocalId> list;
    for (LocalId p : preds[v])
      list.push_back(newId[p]);
    std::sort(list.begin(), list.end());
    c.predList.insert(c.predList.end(), list.begin(), list.end());
    c.predStart[id + 1] = static_cast<uint32_t>(c.predList.size());
    list.clear();
    for (LocalId s : succs[v])
      list.push_back(newId[s]);
    std::sort(list.begin(), list.end());
    c.succList.insert(c.succList.end(), list.begin(), list.end());
    c.succStart[id + 1] = static_cast<uint32_t>(c.succList.size());
    c.bufList.insert(c.bufList.end(), bufs[v].begin(), bufs[v].end());
    c.bufStart[id + 1] = static_cast<uint32_t>(c.bufList.size());
    for (uint32_t b : bufs[v])
      outTouch[b].push_back(id); // ids ascending: v ascending
  }
  c.touchStart.assign(seg.numBuffers() + 1, 0);
  for (uint32_t b = 0; b < seg.numBuffers(); ++b) {
    c.touchList.insert(c.touchList.end(), outTouch[b].begin(),
                       outTouch[b].end());
    c.touchStart[b + 1] = static_cast<uint32_t>(c.touchList.size());
  }
  return out;
}

std::vector<LocalId> sched::deferralTargets(const SegmentGraph &seg,
                                           size_t maxNodes) {
  size_t n = seg.numNodes();
  std::vector<LocalId> target(n, kNoDeferral);
  if (n > maxNodes)
    return target;
  size_t words = (n + 63) / 64;
  std::vector<uint64_t> desc = reachBits(seg, false);
  auto isDesc = [&](LocalId of, LocalId t) {
    return (desc[of * words + (t >> 6)] >> (t & 63)) & 1;
  };
  std::vector<uint8_t> isTarget(n, 0);
  std::vector<uint32_t> mark(seg.numBuffers(), UINT32_MAX);
  for (LocalId u = 0; u < n; ++u) {
    if (isTarget[u] || seg.succs(u).size() != 1)
      continue;
    LocalId v = *seg.succs(u).begin();
    if (isTarget[v])
      continue;
    // held: bytes u may keep live longer when it runs later (no other
    // toucher after it; freed before in an order that ran it early);
    // started: bytes only u's descendants touch besides u, started by u in
    // every order; kept: bytes u may free at its step.
    uint64_t held = 0, started = 0, kept = 0;
    for (uint32_t b : seg.bufs(u)) {
      mark[b] = u;
      bool other = false, otherAfter = false, otherElsewhere = false;
      for (LocalId t : seg.touchers(b)) {
        if (t == u)
          continue;
        other = true;
        (isDesc(u, t) ? otherAfter : otherElsewhere) = true;
      }
      if (!seg.liveOut[b] && !otherAfter) {
        kept += seg.size[b];
        if (other || seg.liveIn[b])
          held += seg.size[b];
      }
      if (!seg.liveIn[b] && !otherElsewhere && (other || seg.liveOut[b]))
        started += seg.size[b];
    }
    // Bytes v starts in every order that u does not touch.
    uint64_t startedByV = 0;
    for (uint32_t b : seg.bufs(v)) {
      if (mark[b] == u || seg.liveIn[b])
        continue;
      bool elsewhere = false;
      for (LocalId t : seg.touchers(b))
        elsewhere |= t != v && !isDesc(v, t);
      if (!elsewhere)
        startedByV += seg.size[b];
    }
    if (held <= started &&
        seg.transient[u] + kept <= seg.transient[v] + startedByV) {
      target[u] = v;
      isTarget[v] = 1;
    }
  }
  return target;
}

std::vector<LocalId>
sched::expandOrder(const ContractedSegment &contracted,
                   const std::vector<LocalId> &order) {
  std::vector<LocalId> out;
  for (LocalId v : order)
    out.insert(out.end(), contracted.members[v].begin(),
               contracted.members[v].end());
  return out;
}

std::vector<LocalId>
sched::projectOrder(const ContractedSegment &contracted,
                    const std::vector<LocalId> &order) {
  // Each group at the position of its representative, the member whose id
  // the group kept: the one not merged into another.
  size_t n = order.size();
  std::vector<uint32_t> position(n);
  for (size_t i = 0; i < n; ++i)
    position[order[i]] = static_cast<uint32_t>(i);
  std::vector<LocalId> groups(contracted.members.size());
  std::vector<uint32_t> key(groups.size());
  for (LocalId g = 0; g < groups.size(); ++g) {
    groups[g] = g;
    key[g] = position[contracted.representatives[g]];
  }
  std::sort(groups.begin(), groups.end(),
            [&](LocalId a, LocalId b) { return key[a] < key[b]; });
  return groups;
}

OrderedSegment sched::orderTwins(const SegmentGraph &seg) {
  size_t n = seg.numNodes();
  OrderedSegment result;
  result.oldId.resize(n);
  std::vector<LocalId> newId(n);
  for (LocalId v = 0; v < n; ++v)
    newId[v] = v;
  // Classes: nodes with the same predecessor and successor lists (sorted
  // ascending in a segment).
  std::map<std::pair<std::vector<uint32_t>, std::vector<uint32_t>>,
           std::vector<LocalId>>
      byNeighbours;
  for (LocalId v = 0; v < n; ++v)
    byNeighbours[{std::vector<uint32_t>(seg.preds(v).begin(),
                                        seg.preds(v).end()),
                  std::vector<uint32_t>(seg.succs(v).begin(),
                                        seg.succs(v).end())}]
        .push_back(v);
  std::vector<std::pair<LocalId, LocalId>> edges;
  std::vector<uint8_t> side(n, 0); // 1: predecessor, 2: successor
  std::vector<uint32_t> touching(seg.numBuffers(), 0);
  for (auto &[neighbours, members] : byNeighbours) {
    if (members.size() < 2)
      continue;
    for (uint32_t p : neighbours.first)
      side[p] = 1;
    for (uint32_t q : neighbours.second)
      side[q] = 2;
    // Leave out members with a buffer that is neither shared nor private,
    // until none is left out.
    std::vector<LocalId> kept = members;
    for (bool changed = true; changed && kept.size() >= 2;) {
      for (LocalId a : kept)
        for (uint32_t b : seg.bufs(a))
          ++touching[b];
      std::vector<LocalId> next;
      for (LocalId a : kept) {
        bool ok = true;
        for (uint32_t b : seg.bufs(a)) {
          if (touching[b] == kept.size())
            continue; // shared
          for (LocalId t : seg.touchers(b))
            ok &= t == a || side[t] != 0;
        }
        if (ok)
          next.push_back(a);
      }
      for (LocalId a : kept)
        for (uint32_t b : seg.bufs(a))
          touching[b] = 0;
      changed = next.size() != kept.size();
      kept = std::move(next);
    }
    if (kept.size() >= 2) {
      // (p, w) per member.
      for (LocalId a : kept)
        for (uint32_t b : seg.bufs(a))
          ++touching[b];
      std::vector<std::tuple<uint64_t, uint64_t, LocalId>> keyed;
      for (LocalId a : kept) {
        uint64_t st = 0, fr = 0;
        for (uint32_t b : seg.bufs(a)) {
          if (touching[b] == kept.size())
            continue;
          bool before = seg.liveIn[b], after = seg.liveOut[b];
          for (LocalId t : seg.touchers(b)) {
            before |= side[t] == 1;
            after |= side[t] == 2;
          }
          if (!before)
            st += seg.size[b];
          if (!after)
            fr += seg.size[b];
        }
        // w descending: sort by its complement.
        keyed.emplace_back(seg.transient[a] + st,
                           UINT64_MAX - (seg.transient[a] + fr), a);
      }
      for (LocalId a : kept)
        for (uint32_t b : seg.bufs(a))
          touching[b] = 0;
      // Chains of members each of which may run before the next: sorted by
      // p, each member joins the first chain whose last w is at least its
      // own (the fewest chains, as in patience sorting).
      std::sort(keyed.begin(), keyed.end());
      std::vector<std::vector<LocalId>> chains;
      std::vector<uint64_t> lastKey;
      for (auto &[p, notW, a] : keyed) {
        size_t c = 0;
        while (c < chains.size() && lastKey[c] > notW)
          ++c;
        if (c == chains.size()) {
          chains.emplace_back();
          lastKey.push_back(0);
        }
        chains[c].push_back(a);
        lastKey[c] = notW;
      }
      for (const std::vector<LocalId> &chain : chains) {
        if (chain.size() < 2)
          continue;
        // The members take the chain's ids in its order: still a
        // topological numbering, since twins have the same neighbours.
        std::vector<LocalId> ids = chain;
        std::sort(ids.begin(), ids.end());
        for (size_t i = 0; i < chain.size(); ++i)
          newId[chain[i]] = ids[i];
        for (size_t i = 0; i + 1 < chain.size(); ++i)
          edges.emplace_back(chain[i], chain[i + 1]);
      }
    }
    for (uint32_t p : neighbours.first)
      side[p] = 0;
    for (uint32_t q : neighbours.second)
      side[q] = 0;
  }
  result.edges = static_cast<unsigned>(edges.size());
  if (!edges.empty())
    result.graph = renumberSegment(seg, newId, edges);
  for (LocalId v = 0; v < n; ++v)
    result.oldId[newId[v]] = v;
  return result;
}
