#!/usr/bin/env bash
# Mutation testing of the dependence analysis and the reorder.
#
# Each mutant is one deliberate fault (an exact-match search/replace on one
# source file, listed below). For each, the script applies it to a scratch
# copy of the tree (or, with --in-place, to the tree itself, restored with
# `git checkout -- <file>` afterwards, also on interruption), rebuilds
# incrementally and runs the tests. A mutant is
#   killed        when a test fails (or times out),
#   survived      when every test passes,
#   build-failed  when it does not compile (not a kill: a mutant must build).
#
# The tests are those of `ctest` (scripts/test.sh). As a shortcut, the lit
# tests outside Integration/corpus run first and stop at the first failure;
# a mutant they do not kill runs `ctest -E fuzz-schedule`, and one that still
# survives runs the short differential fuzz campaign `ctest -R fuzz-schedule`.
# The score is given without and with the fuzz campaign.
#
#   scripts/mutation-test.sh [--list] [--check] [--only N,M,...] [--jobs N]
#                            [--build-dir DIR] [--scratch DIR] [--in-place]
#                            [--no-fuzz] [--full] [--no-baseline]
#                            [--timeout SECONDS] [-v]
#
#   --list           print the mutants (number, file, fault) and exit
#   --check          check that every mutant's search text occurs exactly
#                    once in the current sources, and exit
#   --only N,M       run these mutants only (numbers as in --list; ranges N-M)
#   --jobs N         ninja and ctest parallelism (default 2)
#   --build-dir DIR  build directory (default <scratch>/build, or build/ with
#                    --in-place)
#   --scratch DIR    the scratch copy (default /tmp/memsched-mutation-$USER);
#                    it is synced with the tree (tracked and untracked, not
#                    ignored files) at the start, so later runs rebuild little
#   --in-place       mutate the tree itself (needs a clean file per mutant)
#   --no-fuzz        do not run fuzz-schedule for survivors
#   --full           skip the lit shortcut: always run the whole ctest
#   --no-baseline    do not run the tests on the unmutated tree first (by
#                    default a failure there stops the run: every mutant
#                    would look killed)
#   --timeout S      per test phase (default 1800): a timeout is a kill
#   -v               print the failing tests of each killed mutant
#
# Output: one line per mutant, then
#   score (ctest without fuzz-schedule): K/T
#   score (ctest): K/T
# Exit code 0 when the run completed (whatever the score), 2 on a setup
# error (a search text not found, a build of the unmutated tree failing).
set -euo pipefail
MEMSCHED_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export MEMSCHED_ROOT
exec nice -n 10 python3 - "$@" <<'PY'
import argparse
import os
import shutil
import signal
import subprocess
import sys
import time

ROOT = os.environ["MEMSCHED_ROOT"]
LLVM = "/usr/lib/llvm-22"

BLA = "lib/Analysis/MemSched/BufferLifetimeAnalysis.cpp"
FP = "lib/Analysis/MemSched/Footprint.cpp"
AR = "lib/Analysis/MemSched/AliasRoots.cpp"
OC = "lib/Analysis/MemSched/OpClassification.cpp"
CE = "lib/Analysis/MemSched/CallEffects.cpp"
AS = "lib/Analysis/MemSched/AllocationSize.cpp"
RO = "lib/Transforms/MemSched/Reorder.cpp"
MS = "lib/Transforms/MemSched/MemSched.cpp"
CT = "lib/Transforms/MemSched/Certificate.cpp"
BE = "lib/Analysis/MemSched/BlockEntry.cpp"
BL = "lib/Analysis/MemSched/BodyLifetimes.cpp"
SR = "lib/Analysis/Graph/SchedRepair.cpp"
RM = "lib/Analysis/Graph/Remat.cpp"
SB = "lib/Analysis/Graph/SchedBand.cpp"
SE = "lib/Analysis/Graph/SchedExact.cpp"
SRD = "lib/Analysis/Graph/SchedReduce.cpp"
SS = "lib/Analysis/Graph/SchedSegment.cpp"
SPL = "lib/Analysis/Graph/SchedParallel.cpp"
RR = "lib/Transforms/MemSched/RematRewrite.cpp"
MSP = "lib/Analysis/MemSched/MemorySpaces.cpp"

# (file, fault, search, replace). The search text must occur exactly once.
MUTANTS = [
    # --- Footprint: which elements an access touches -----------------------
    (FP, "box-offset decomposition lets an inner coordinate wrap one element "
         "into the next row",
     "if (out[i] + sizes[i] > strides[i - 1] / strides[i])",
     "if (out[i] + sizes[i] > strides[i - 1] / strides[i] + 1)"),
    (FP, "mayOverlap: boxes sharing their last row/column are called disjoint "
         "(off by one)",
     "if (ca[i] + a.sizes[i] <= cb[i] || cb[i] + b.sizes[i] <= ca[i])",
     "if (ca[i] + a.sizes[i] <= cb[i] + 1 || cb[i] + b.sizes[i] <= ca[i] + 1)"),
    (FP, "mayOverlap: ranges meeting in one element are called disjoint",
     "if (a.hi < b.lo || b.hi < a.lo)",
     "if (a.hi <= b.lo || b.hi <= a.lo)"),
    (FP, "mayOverlap: boxes with different strides of the same rank are "
         "compared coordinate by coordinate",
     "if (a.strides != b.strides)",
     "if (a.strides.size() != b.strides.size())"),
    (FP, "mayOverlap: footprints of different bases (two arguments that may "
         "alias) are compared as boxes of one buffer",
     "if (a.whole || b.whole || a.base != b.base)",
     "if (a.whole || b.whole)"),
    (FP, "isContainedIn ignores coversBase: a strided write \"contains\" what "
         "lies in its range",
     "if (inner.whole || inner.base != outer.base || !outer.dense)",
     "if (inner.whole || inner.base != outer.base)"),
    (FP, "a prefix of an allocation is taken to cover it (coversBase)",
     "      count == baseType.getNumElements())\n    f.coversBase = true;",
     "      count <= baseType.getNumElements())\n    f.coversBase = true;"),
    (FP, "memref.view taken as layout preserving: its byte shift is lost",
     "if (isa<memref::SubViewOp, memref::CastOp, memref::ExpandShapeOp,",
     "if (isa<memref::SubViewOp, memref::CastOp, memref::ExpandShapeOp, "
     "memref::ViewOp,"),
    # --- AliasRoots: what memory a memref may point into ------------------
    (AR, "a view is not an alias of its source (ViewLike branch)",
     "      flow(view.getViewSource(), result);",
     "      (void)result;"),
    (AR, "region-branch entry forwarding dropped (iter_args, region "
         "arguments)",
     "        if (!notEntered.contains(to))\n"
     "          flow(from, to);",
     "        (void)to;"),
    (AR, "region-branch terminator forwarding dropped (yields to results)",
     "            if (!def || !handedOut.contains(def) ||\n"
     "                def->getBlock() != &b)\n"
     "              flow(from, to);",
     "            (void)def;"),
    (AR, "arguments never alias each other (llvm.noalias assumed)",
     "bool noalias = distinctArgs ||",
     "bool noalias = true ||"),
    (AR, "effects on non-memref values (!llvm.ptr) touch no memory "
         "(effectRoots)",
     "  if (!isa<BaseMemRefType>(v.getType()))\n    return unknownOnly;",
     "  if (!isa<BaseMemRefType>(v.getType()))\n    return empty;"),
    (AR, "roots propagate one step only (a view of a view loses its buffer)",
     "      if (changed)\n        worklist.insert(to);",
     "      (void)changed;"),
    (AR, "a memref returned by a call or an op with effects aliases only its "
         "operands",
     "bool mayProduceOther = !isMemoryEffectFree(op) || isa<CallOpInterface>(op);",
     "bool mayProduceOther = false;"),
    # --- OpClassification -------------------------------------------------
    (OC, "mayCapture false for extract_aligned_pointer_as_index (captures not "
         "noted)",
     "  if (llvm::is_contained(accessed, operand))\n    return false;",
     "  if (llvm::is_contained(accessed, operand) ||\n"
     "      isa<memref::ExtractAlignedPointerAsIndexOp>(user))\n    return false;"),
    (OC, "isUnobservable ignores terminators: a returned allocation counts 0 "
         "bytes",
     "if (!isMemoryEffectFree(user) || user->hasTrait<OpTrait::IsTerminator>())",
     "if (!isMemoryEffectFree(user))"),
    (OC, "isUnobservable always false: dead allocations are counted",
     "  // Iterative: chains of pure ops can be arbitrarily long.\n",
     "  if (value)\n    return false;\n"),
    # --- CallEffects: callee summaries ------------------------------------
    (CE, "a callee's write of an argument is recorded as a read",
     "                            ? ArgAccess::Read\n"
     "                            : ArgAccess::Write;",
     "                            ? ArgAccess::Read\n"
     "                            : ArgAccess::Read;"),
    (CE, "a callee's accesses of its arguments are dropped",
     "        slot = std::max(slot, acc);",
     "        (void)slot;\n        (void)acc;"),
    (CE, "a callee touching globals or unknown memory is summarised anyway",
     "          return WalkResult::interrupt(); // globals, unknown memory",
     "          continue; // globals, unknown memory"),
    (CE, "a callee capturing an argument is summarised anyway",
     "          reachesArgument(operand) && mayCapture(op, operand, accessed))",
     "          reachesArgument(operand) && false)"),
    (CE, "ops without a memory-effect interface in a callee are ignored",
     "    else if (!op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())\n"
     "      return WalkResult::interrupt();",
     "    else if (!op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())\n"
     "      return WalkResult::advance();"),
    # --- BufferLifetimeAnalysis: accesses and edges -----------------------
    (BLA, "RAW edges dropped in the `order` lambda",
     "        if ((x.write || acc.write) && mayOverlap(x.footprint, acc.footprint)) {",
     "        if (acc.write && mayOverlap(x.footprint, acc.footprint)) {"),
    (BLA, "WAW edges dropped in the `order` lambda",
     "        if ((x.write || acc.write) && mayOverlap(x.footprint, acc.footprint)) {",
     "        if (x.write != acc.write && mayOverlap(x.footprint, acc.footprint)) {"),
    (BLA, "WAR edges dropped in the `order` lambda",
     "        if ((x.write || acc.write) && mayOverlap(x.footprint, acc.footprint)) {",
     "        if (x.write && mayOverlap(x.footprint, acc.footprint)) {"),
    (BLA, "covering-write containment loosened: any write of an allocation "
         "stands for its earlier accesses of unknown extent",
     "        return isContainedIn(x->footprint, acc.footprint) ||\n"
     "               (allocationRoot && x->footprint.whole &&\n"
     "                acc.footprint.coversBase);",
     "        return isContainedIn(x->footprint, acc.footprint) ||\n"
     "               (allocationRoot && x->footprint.whole);"),
    (BLA, "barrier chain: ops after a barrier are not ordered after it",
     "    if (lastBarrier)\n      g.addEdge(*lastBarrier, n);\n"
     "    sinceBarrier.push_back(n);",
     "    sinceBarrier.push_back(n);"),
    (BLA, "barrier chain: ops before a barrier are not ordered before it",
     "      for (unsigned m : sinceBarrier)\n        g.addEdge(m, n);",
     "      (void)sinceBarrier;"),
    (BLA, "accesses of globals not added to the shared argument list",
     "          otherAccesses[aliases->getSharedArgumentRoot()].push_back(\n"
     "              {n, write, footprint});\n",
     ""),
    (BLA, "an access of unknown memory does not make a barrier",
     "        case RootKind::Unknown:\n          node.barrier = true;\n          break;",
     "        case RootKind::Unknown:\n          break;"),
    (BLA, "calls' footprints made exact again (a callee stays within the "
          "view it is given)",
     "            addAccess(arg, summary->args[i] == ArgAccess::Write,\n"
     "                      /*exact=*/false);",
     "            addAccess(arg, summary->args[i] == ArgAccess::Write,\n"
     "                      /*exact=*/true);"),
    (BLA, "a deallocation of a value that may be one of several buffers "
          "(arith.select) is not refused (it then frees none of them: the "
          "certificate keeps both to the end, above the measured peak)",
     "      if (rs.size() > 1 && llvm::any_of(rs, [&](unsigned r) {",
     "      if (false && rs.size() > 1 && llvm::any_of(rs, [&](unsigned r) {"),
    (BLA, "effects on no value (global effects) do not make a barrier",
     "        node.barrier = true;\n        hasEffects[n] = true;\n      }\n    });",
     "        hasEffects[n] = true;\n      }\n    });"),
    (BLA, "captures by side-effect free ops (extract_aligned_pointer_as_index, "
          "casts) not noted",
     "      op.walk([&](Operation *nested) { noteCaptures(nested, {}); });",
     "      (void)op;"),
    (BLA, "buffers passed to ops with unknown effects do not escape",
     "  for (NodeInfo &node : a.nodes)\n    if (node.barrier)\n",
     "  for (NodeInfo &node : a.nodes)\n    if (false && node.barrier)\n"),
    (BLA, "escaping buffers: the barriers in their lifetime are not touchers",
     "      if (a.nodes[n].barrier && from < p && p < to)",
     "      if (false && a.nodes[n].barrier && from < p && p < to)"),
    (BLA, "escaping buffers: barriers before the allocation are counted as "
          "touchers",
     "      if (a.nodes[n].barrier && from < p && p < to)",
     "      if (a.nodes[n].barrier && p < to)"),
    (BLA, "allocation operand deps not added",
     "    for (unsigned d : usesOf(alloc).deps)\n"
     "      for (unsigned t : a.buffers[b].touchers)\n"
     "        g.addEdge(d, t);",
     "    (void)alloc;"),
    (BLA, "collectDanglingUsers: floating users that feed no node are not "
          "recorded before the free",
     "      if (record && buf.dealloc)\n        buf.danglingUsers.push_back(op);",
     "      (void)record;"),
    (BLA, "collectDanglingUsers: the operands of a deallocation are not "
          "constrained",
     "    else if (attachedDeallocs.contains(op))\n"
     "      constrain(op, usesOfOperands(op), /*record=*/false);",
     ""),
    (BLA, "nodes feeding a dangling user from before the allocation are not "
          "ordered before the buffer's touchers",
     "  for (auto [d, b] : beforeBuffer)\n"
     "    for (unsigned t : a.buffers[b].touchers)\n"
     "      g.addEdge(d, t);",
     ""),
    (BLA, "a deallocation that is a node is not ordered after the touchers",
     "        for (unsigned t : buf.touchers)\n          g.addEdge(t, *d);",
     "        (void)*d;"),
    (BLA, "SSA edges between nodes dropped",
     "    for (unsigned d : nodeDeps[n])\n      g.addEdge(d, n);",
     "    (void)n;"),
    (BLA, "SSA dependencies through side-effect free ops dropped",
     "  const ValueUses &du = usesOf(def);\n  mergeSorted(into.deps, du.deps);",
     "  const ValueUses &du = usesOf(def);"),
    (BLA, "a node using an alias of a buffer as an operand does not touch it",
     "    for (unsigned b : opUses.buffers)\n      touch(b);",
     "    (void)opUses;"),
    (BLA, "transient bytes of nested allocations and callees dropped",
     "    node.transient = *t;",
     "    node.transient = 0;"),
    (BLA, "a deallocation in a nested region does not lower its peak",
     "        current -= it->second;\n        live.erase(it);\n        continue;",
     "        live.erase(it);\n        continue;"),
    (BLA, "an allocation in a nested region that is not freed there is "
          "accepted",
     "    return unsupported(&op, \"allocation in a nested region is not freed in \"\n"
     "                            \"that region: memsched follows a buffer yielded \"",
     "    continue;\n    (void)(\"\""),
    (BLA, "a loop iteration does not hold the buffer it got",
     "    live[fy.carried] = *size;\n    if (!addBytes(current, *size))",
     "    live[fy.carried] = 0;\n    if (!addBytes(current, 0))"),
    (BLA, "a loop's free of the buffer an iteration got may free its entry "
          "value",
     "        if (only && r != *only)\n          continue;",
     ""),
    (BLA, "a callee's peak is not part of the call's transient bytes",
     "      activeCallees.pop_back();\n"
     "      if (failed(p))\n        return failure();\n"
     "      peak = std::max(peak, *p);",
     "      activeCallees.pop_back();\n"
     "      if (failed(p))\n        return failure();"),
    (BLA, "unobservable allocations counted",
     "    info.size = !byNode && isUnobservable(value) ? 0 : *size;",
     "    info.size = *size;"),
    (BLA, "the sum of the allocations unchecked",
     "    if (!addBytes(total, info.size))\n      return unsupported(",
     "    if (!addBytes(total, info.size) && false)\n      return unsupported("),
    # --- AllocationSize ----------------------------------------------------
    (AS, "size arithmetic unchecked (element count times extent)",
     "        llvm::checkedMulUnsigned(count, static_cast<uint64_t>(extent));",
     "        std::optional<uint64_t>(count * static_cast<uint64_t>(extent));"),
    (AS, "alignment padding not counted with count-alignment-padding",
     "    return *alignment;",
     "    return 0;"),
    (AS, "element bytes rounded down (i1 buffers take no memory)",
     "uint64_t count = llvm::divideCeil(bits.getFixedValue(), 8);",
     "uint64_t count = bits.getFixedValue() / 8;"),
    # --- Reorder: the planned sequence --------------------------------------
    (RO, "the planner does not emit danglingUsers before a free",
     "      // Users of the buffer that feed no node still come before its free.\n"
     "      for (Operation *user : buffers[b].danglingUsers)\n"
     "        builder.emit(user);\n",
     ""),
    (RO, "the planner does not emit danglingUsers before a deallocation node",
     "      for (unsigned b : it->second)\n"
     "        for (Operation *user : buffers[b].danglingUsers)\n"
     "          builder.emit(user);",
     "      (void)it;"),
    (RO, "verifySequence always succeeds",
     "  Block *block = analysis.getBlock();\n  DenseMap<Operation *, unsigned> position;",
     "  if (analysis.getBlock())\n    return success();\n"
     "  Block *block = analysis.getBlock();\n  DenseMap<Operation *, unsigned> position;"),
    (RO, "a deallocation is placed after the first toucher of its buffer",
     "    lastAt[last].push_back(b);",
     "    lastAt[first].push_back(b);"),
    (RO, "transient bytes left out of the peak of the planned sequence",
     "    uint64_t transient = n ? analysis.getNodes()[*n].transient : 0;",
     "    uint64_t transient = 0;"),
    # --- MemSched: certificate ---------------------------------------------
    (CT, "certificate of a reordered body names the op by its old position",
     "    op = b.getStringAttr(boundOp->getName().getStringRef() + \"#\" +\n"
     "                         Twine(node));",
     "    op = b.getStringAttr(boundOp->getName().getStringRef() + \"#\" +\n"
     "                         Twine(bound.node));"),
    (MS, "move-allocations=false certifies a bound computed with the pins",
     "    bounds = computeBlockBounds(BodyLifetimes(func, options.sizes),",
     "    bounds = computeBlockBounds(BodyLifetimes(func, options.sizes, true),"),
    # --- Bodies with several blocks -----------------------------------------
    (BLA, "uses of a buffer from an earlier block that do not access its "
          "memory are not ordered before its free",
     "    if (std::optional<unsigned> n = a.getNodeIndex(&op))\n"
     "      for (unsigned i : used)\n        liveInTouchers[i].push_back(*n);",
     "    if (false)\n      for (unsigned i : used)\n        (void)i;"),
    (BLA, "buffers allocated before a block are not counted in its peak as "
          "written",
     "  uint64_t current = liveInBytes;",
     "  uint64_t current = 0;"),
    (BE, "a free under an scf.if counts whatever its condition",
     "          if (!cond || decideCondition(cond, known) == true)",
     "          if (true)"),
    (BE, "a cf.cond_br's condition taken with the wrong polarity on its edges",
     "        known[br.getCondition()] = br.getTrueDest() == to;",
     "        known[br.getCondition()] = br.getTrueDest() != to;"),
    (BL, "unreachable blocks count in the body's peak",
     "    if (reachable[i] &&\n",
     "    if (\n"),
    (RO, "the planner does not emit the side-effect free users of a buffer "
         "from an earlier block before its free",
     "        for (Operation *user : in.danglingUsers)\n          builder.emit(user);",
     "        (void)in;"),
    # --- Calls returning fresh buffers, conditional frees, async GPU --------
    (BLA, "a conditional free is always taken as unconditional",
     "  unsigned freedRoot = *freed;\n",
     "  unsigned freedRoot = *freed;\n  return freedRoot;\n"),
    (BLA, "a conditional free compared with a buffer freed before it is taken "
          "as unconditional",
     "        if (a.buffers[root.buffer].dealloc || !onlyFreedAfter(r, at))",
     "        if (!onlyFreedAfter(r, at))"),
    (BLA, "a call's transient bytes include the buffers it hands over",
     "  return peak - std::min(peak, handedOverBytes);",
     "  return peak;"),
    (BLA, "a call's fresh buffers are not counted in the peak as written",
     "    if (auto it = nodeAllocs.find(&op); it != nodeAllocs.end())\n"
     "      for (unsigned b : it->second)\n"
     "        current += a.buffers[b].size;",
     "    (void)0;"),
    (AR, "a callee that passes on or captures the buffer it returns still "
         "returns a fresh buffer",
     "      if (getDeallocatedValue(op) == operand || isa<CallOpInterface>(op) ||\n"
     "          mayCapture(op, operand, accessed))",
     "      if (getDeallocatedValue(op) == operand)"),
    (BLA, "a conditional free compared with a buffer a call may free before "
          "it is taken as unconditional",
     "        if (a.buffers[root.buffer].dealloc || !onlyFreedAfter(r, at))",
     "        if (a.buffers[root.buffer].dealloc)"),
    (BLA, "a conditional free compared with an argument the function freed "
          "before it is taken as unconditional",
     "        // memory before (its address may then have been reused).\n"
     "        if (!onlyFreedAfter(r, at))\n          return std::nullopt;",
     "        // memory before (its address may then have been reused)."),
    (BLA, "a callee that frees an argument's memory is not refused",
     "        if (summary->freesArgument && !freeingCall)",
     "        if (false && !freeingCall)"),
    (BLA, "a use of a buffer after its deallocation as written is not refused",
     "      if (a.nodes[t].op != buf.dealloc &&\n"
     "          positionOf(a.nodes[t].op) > positionOf(buf.dealloc)) {",
     "      if (false) {"),
    # --- Memory spaces and kernel launches ----------------------------------
    (AS, "counting one memory space counts every space",
     "  return !sizes.memorySpace || getMemoryPool(allocOp) == *sizes.memorySpace;",
     "  return true;"),
    (MS, "an order that raises another memory space's peak is taken",
     "      raises |= peak > block.getPeakAsWritten();",
     "      raises |= false && peak > block.getPeakAsWritten();"),
    (MS, "memory-space= is ignored: the largest space is always minimised",
     "    if (chosen != spaces.spaces.end()) {",
     "    if (false) {"),
    (CE, "a kernel that allocates is summarised like one that does not",
     "  if (allocates.wasInterrupted())\n    return std::nullopt;",
     "  (void)allocates;"),
    (BLA, "a synchronous gpu.wait takes none of the accesses of the work it "
          "waits for",
     "          addAccess(v, write, /*exact=*/false);",
     "          (void)write;"),
    # --- Orders and recomputation built on the analysis ---------------------
    (SR, "the repair claims an optimal order when a cut reaches the node's "
         "own memory instead of the peak",
     "      if (cut >= bestShape.peak) {",
     "      if (cut >= memory[v]) {"),
    (SS, "a split point is taken where one node before it does not reach "
         "one after it",
     "    if (sum == numMin * numMax)",
     "    if (sum + 1 >= numMin * numMax)"),
    (RM, "the recomputation floor counts buffers live to the end twice at "
         "the last step",
     "      if (!buf.liveOut)\n        added += buf.size;",
     "      added += buf.size;"),
    (RM, "applyRemat accepts a source buffer live before or after the body",
     "    if (boundary(src.buffer) ||",
     "    if (false ||"),
    (RR, "a clone whose input is written between its producer and the clone "
         "is kept",
     "        if (!op->isBeforeInBlock(producer))\n          return i;",
     "        (void)producer;"),
    (BLA, "an exclusive group of live-in buffers counts its first member's "
          "bytes, not its largest's",
     "    if (!inserted && in.size > a.liveIn[it->second].size)",
     "    if (false)"),
    (BE, "live-in buffers that come in together are grouped as exclusive",
     "          return w.test(i) && w.test(j);",
     "          return false;"),
    (BLA, "an allocation counted before a device free may move after it",
     "        asyncEdges.push_back({first, r.node});",
     "        (void)first;"),
    (BLA, "a host allocation counted after a device free may move above the "
          "gpu.wait for that free",
     "        asyncEdges.push_back({*wait, t});",
     "        (void)t;"),
    (MSP, "gpu.alloc of a memref in the default space counts in the default "
          "space",
     "  if (!space && isa<gpu::AllocOp>(allocOp))",
     "  if (false)"),
    (BLA, "accesses of a loop or branch body to buffers allocated outside it "
          "are not ordered",
     "          // one of another block is ordered like an argument.\n"
     "          otherAccesses[r].push_back({n, write, footprint});",
     "          // one of another block is ordered like an argument.\n"
     "          (void)footprint;"),
    (CT, "bounds count the loop and branch bodies memsched reorders at their "
         "peak as written",
     "    sizes.nestedBodiesAtBound = true;\n    atBound.emplace(",
     "    sizes.nestedBodiesAtBound = false;\n    atBound.emplace("),
    (OC, "a loop or branch body that frees memory from outside it is "
         "reordered on its own",
     "          (!e.getValue() || !ownBuffer(e.getValue())))\n"
     "        return WalkResult::interrupt();",
     "          (!e.getValue() || !ownBuffer(e.getValue())))\n"
     "        return WalkResult::advance();"),
    (RM, "a buffer is recomputed once at most (no candidate from the copy of "
         "an earlier recomputation)",
     "        if (!liveAtPeak[held])\n          continue;",
     "        if (!liveAtPeak[held] || group >= 0)\n          continue;"),
    (RM, "a later recomputation of a buffer does not take its readers from "
         "an earlier one",
     "    for (size_t later = c + 1; later < choices.size(); ++later) {",
     "    for (size_t later = choices.size(); later < choices.size(); ++later) {"),
    (RM, "candidates that lower nothing with their clones inserted are not "
         "priced by a schedule of their graph",
     "    if (!best.found && rescheduledSoFar < kRescheduledPerPlan) {",
     "    if (false) {"),
    (BLA, "an access that a later write is ordered after is forgotten instead "
          "of kept under it (a later access disjoint from the write misses "
          "it)",
     "          continue;\n        }\n        llvm::append_range(stack, entry.covered);",
     "          continue;\n        }\n        (void)entry;"),
    (RR, "a block's recomputations judged by the function's peak (another "
         "block above it hides every gain)",
     "      uint64_t peak = rescheduled->peakAfter;\n      if (severalBlocks) {",
     "      uint64_t peak = rescheduled->peakAfter;\n      if (false) {"),
    (RR, "a block may spend the fraction of the function's compute, not of "
         "its own",
     "          options.maxExtraCompute * double(blockCompute[blockIndex]));",
     "          options.maxExtraCompute * double(result.totalCompute));"),
    (BLA, "a body memsched reorders counts at the most one of its ops needs, "
          "not at its graph's lower bound when larger",
     "    if (body.isSupported()) {\n      ::memsched_core::LowerBoundOptions options;",
     "    if (false) {\n      ::memsched_core::LowerBoundOptions options;"),
    (RM, "rematBound: a witness is any buffer a source's producers touch, "
         "even one a later node reads (counted twice)",
     "            before &= mark[u] == stamp;",
     "            before &= true;"),
    (RM, "rematBound: a witness is credited to every recomputed buffer that "
         "reads it, not to one",
     "            claimed[x] = 1;\n      if (st == kOpen) {",
     "            claimed[x] = 0;\n      if (st == kOpen) {"),
    (RM, "rematBound: a recomputed buffer counts nothing while its touchers "
         "run",
     "        transient += base.bufferSize(b) - between[b];",
     "        transient += 0;"),
    (RM, "rematBound: what a source recomputes from is not counted (a "
         "recomputed buffer is free between its touchers)",
     "        uint64_t least = std::min(sum, base.bufferSize(b));",
     "        uint64_t least = 0;"),
    (RM, "rematBound: between its touchers a recomputed buffer counts its "
         "witnesses even when its chain's clones run apart (an inner copy "
         "smaller than them is all that is live)",
     "        for (BufferId i : sources[src].inner)\n          least = std::min(least, base.bufferSize(i));",
     "        for (BufferId i : sources[src].inner)\n          (void)i;"),
    (SB, "band search: a node's own touch of a buffer counts as pending (the "
         "buffer is never freed by its last toucher)",
     "      if (q != self && !executed(s, q))",
     "      if (!executed(s, q))"),
    (SB, "coveringBandWidth: the distance 2G - 1 is not checked",
     "      for (unsigned d = g; d < 2 * g && d <= j; ++d)",
     "      for (unsigned d = g; d < 2 * g - 1 && d <= j; ++d)"),
    (SB, "improveInBands: a band one narrower than the covering width is "
         "called exact",
     "    if (covering <= width) {",
     "    if (covering <= width + 1) {"),
    (SB, "band search: the estimate takes the maximum over all nodes after "
         "the first missing one, those of the window that ran included "
         "(overestimates)",
     "n, size_t(m) + width + 1)]);",
     "n, size_t(m) + 1)]);"),
    (SE, "exact search's state store: the words below an executed set's span "
         "are loaded as zeros",
     "    std::fill(s, s + es.lo, ~uint64_t(0));",
     "    std::fill(s, s + es.lo, uint64_t(0));"),
    (SE, "exact search: a state rebuilt from an ancestor's record skips the "
         "deferred node of a pair step",
     "    if (replay[i] & kPairFlag)\n      advance(s, r, deferredFrom[v]);",
     "    if (false)\n      advance(s, r, deferredFrom[v]);"),
    (SRD, "rule (T): twins ordered by ascending release (t + freed bytes) "
          "instead of descending",
     "                           UINT64_MAX - (seg.transient[a] + fr), a);",
     "                           seg.transient[a] + fr, a);"),
    (SRD, "rule (T): a twin's buffer also touched by an unrelated node counts "
          "as private",
     "            ok &= t == a || side[t] != 0;",
     "            ok &= true;"),
    (SE, "exact search, partial expansion: children one byte above the key "
         "being expanded are never queued",
     "    else if (childKey > at)\n      rest = std::min(rest, childKey);",
     "    else if (childKey > at + 1)\n      rest = std::min(rest, childKey);"),
    (SPL, "rule (P): blocks that start more than they free are sorted by "
          "ascending fall instead of descending",
     "  return lateX ? x.fall > y.fall : x.rise < y.rise;",
     "  return lateX ? x.fall < y.fall : x.rise < y.rise;"),
    (SPL, "rule (P): blocks that start more than they free come first",
     "  if (lateX != lateY)\n    return lateY;",
     "  if (lateX != lateY)\n    return lateX;"),
    (SPL, "rule (P): a chain's steps are never merged into blocks",
     "          while (blocks.size() >= base + 2 &&",
     "          while (false && blocks.size() >= base + 2 &&"),
    (SPL, "rule (P): a buffer shared with another chain or node counts as "
          "private",
     "                ok &= !outside || (before && after);",
     "                ok &= true;"),
    (SPL, "rule (P): a composed block's rise forgets the first block's net "
          "change",
     "  c.rise = std::max(x.rise, netX + y.rise);",
     "  c.rise = std::max(x.rise, y.rise);"),
    (SPL, "rule (P): a merge with owners of shared buffers is kept without "
          "checking that each owner touches its buffer last",
     "                         (after || last[k] == owner[b]);",
     "                         true;"),
    (SPL, "rule (P): a shared buffer counts in no chain's steps, its owner's "
          "included",
     "                  (foreign && owner[b] != c))",
     "                  foreign)"),
]

def mutate(text, index):
    f, _, search, replace = MUTANTS[index]
    n = text.count(search)
    if n != 1:
        raise LookupError("mutant %d: the search text occurs %d times in %s "
                          "(expected once): refresh the mutant list"
                          % (index + 1, n, f))
    return text.replace(search, replace)


def parse_only(spec):
    chosen = set()
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        if "-" in part:
            a, b = part.split("-", 1)
            chosen.update(range(int(a), int(b) + 1))
        else:
            chosen.add(int(part))
    bad = [n for n in chosen if n < 1 or n > len(MUTANTS)]
    if bad:
        sys.exit("mutation-test: no mutant %s (1-%d)" % (bad, len(MUTANTS)))
    return sorted(chosen)


def tree_files(src):
    out = subprocess.run(
        ["git", "-C", src, "ls-files", "-z", "--cached", "--others",
         "--exclude-standard"], check=True, capture_output=True).stdout
    return sorted({p for p in out.decode().split("\0")
                   if p and os.path.isfile(os.path.join(src, p))})


def sync_tree(src, dst):
    """Makes dst a copy of the tree's files, touching only what differs."""
    files = tree_files(src)
    wanted = set(files)
    os.makedirs(dst, exist_ok=True)
    for rel in files:
        a, b = os.path.join(src, rel), os.path.join(dst, rel)
        with open(a, "rb") as fa:
            data = fa.read()
        if os.path.isfile(b):
            with open(b, "rb") as fb:
                if fb.read() == data:
                    continue
        os.makedirs(os.path.dirname(b), exist_ok=True)
        with open(b, "wb") as fb:
            fb.write(data)
        shutil.copymode(a, b)
    for dirpath, dirnames, filenames in os.walk(dst):
        for name in filenames:
            rel = os.path.relpath(os.path.join(dirpath, name), dst)
            if rel not in wanted:
                os.remove(os.path.join(dirpath, name))


def run(cmd, log, timeout, cwd=None, env=None):
    """Runs cmd with output appended to log; returns (rc, seconds, timed out)."""
    start = time.time()
    with open(log, "ab") as f:
        f.write(("\n$ %s\n" % " ".join(cmd)).encode())
        f.flush()
        p = subprocess.Popen(cmd, stdout=f, stderr=subprocess.STDOUT, cwd=cwd,
                             env=env, start_new_session=True)
        try:
            rc = p.wait(timeout=timeout)
            return rc, time.time() - start, False
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            return -1, time.time() - start, True
        except BaseException:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            raise


def failing_tests(log, since):
    """Names of the failed lit / ctest tests in the log after offset since."""
    with open(log, "rb") as f:
        f.seek(since)
        text = f.read().decode(errors="replace")
    names = []
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("FAIL: MEMSCHED :: ") or s.startswith("TIMEOUT: MEMSCHED :: "):
            name = s.split(" :: ", 1)[1].split(" (")[0]
            if name not in names:
                names.append(name)
        elif (" - " in s and s[:1].isdigit() and
              ("(Failed)" in s or "(Timeout)" in s)):
            name = s.split(" - ", 1)[1].split(" (")[0]
            if name not in names:
                names.append("ctest:" + name)
    return names


def main():
    ap = argparse.ArgumentParser(prog="scripts/mutation-test.sh")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--only")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--build-dir")
    ap.add_argument("--scratch",
                    default="/tmp/memsched-mutation-%s" % os.environ.get("USER", "user"))
    ap.add_argument("--in-place", action="store_true")
    ap.add_argument("--no-fuzz", action="store_true")
    ap.add_argument("--full", action="store_true")
    ap.add_argument("--no-baseline", action="store_true")
    ap.add_argument("--timeout", type=int, default=1800)
    ap.add_argument("-v", "--verbose", action="store_true")
    opts = ap.parse_args(sys.argv[1:])

    if opts.list:
        for i, (f, what, _, _) in enumerate(MUTANTS, 1):
            print("%2d  %-48s %s" % (i, f, what))
        return 0
    if opts.check:
        ok = True
        for i in range(len(MUTANTS)):
            f = MUTANTS[i][0]
            with open(os.path.join(ROOT, f)) as fh:
                text = fh.read()
            try:
                mutate(text, i)
            except LookupError as e:
                print("mutation-test: " + str(e))
                ok = False
        print("mutation-test: %d mutants, %s" % (
            len(MUTANTS), "all match" if ok else "SOME DO NOT MATCH"))
        return 0 if ok else 2

    chosen = parse_only(opts.only) if opts.only else list(range(1, len(MUTANTS) + 1))
    if opts.in_place:
        src = ROOT
        build = os.path.abspath(opts.build_dir or os.path.join(ROOT, "build"))
        dirty = subprocess.run(
            ["git", "-C", ROOT, "status", "--porcelain", "--"] +
            sorted({MUTANTS[n - 1][0] for n in chosen}),
            check=True, capture_output=True, text=True).stdout.strip()
        if dirty:
            print("mutation-test: --in-place needs unmodified files to mutate:\n"
                  + dirty, file=sys.stderr)
            return 2
    else:
        src = os.path.join(os.path.abspath(opts.scratch), "src")
        build = os.path.abspath(opts.build_dir or
                                os.path.join(os.path.abspath(opts.scratch), "build"))
        sync_tree(ROOT, src)
    # Check every chosen mutant before building anything.
    originals = {}
    for n in chosen:
        f = MUTANTS[n - 1][0]
        if f not in originals:
            with open(os.path.join(src, f)) as fh:
                originals[f] = fh.read()
        try:
            mutate(originals[f], n - 1)
        except LookupError as e:
            print("mutation-test: " + str(e), file=sys.stderr)
            return 2

    os.makedirs(build, exist_ok=True)
    log_dir = os.path.join(build, "mutation")
    os.makedirs(log_dir, exist_ok=True)
    jobs = str(opts.jobs)
    env = dict(os.environ)
    lit_env = dict(env)
    lit_env["LIT_OPTS"] = "--max-failures=1 --filter-out=Integration/corpus"

    def restore(f):
        if opts.in_place:
            subprocess.run(["git", "-C", ROOT, "checkout", "--", f], check=True)
        else:
            with open(os.path.join(src, f), "w") as fh:
                fh.write(originals[f])

    def build_tree(log):
        if not os.path.isfile(os.path.join(build, "build.ninja")):
            rc, _, _ = run(["cmake", "-G", "Ninja", "-S", src, "-B", build,
                            "-DCMAKE_BUILD_TYPE=Release",
                            "-DMLIR_DIR=%s/lib/cmake/mlir" % LLVM,
                            "-DLLVM_EXTERNAL_LIT=%s/bin/lit" % LLVM],
                           log, opts.timeout)
            if rc:
                return False
        rc, _, _ = run(["ninja", "-C", build, "-j", jobs], log, opts.timeout)
        return rc == 0

    start_all = time.time()
    base_log = os.path.join(log_dir, "baseline.log")
    open(base_log, "w").close()
    print("mutation-test: building the unmutated tree in %s" % build, flush=True)
    if not build_tree(base_log):
        print("mutation-test: the unmutated tree does not build, see " + base_log,
              file=sys.stderr)
        return 2

    def run_tests(log):
        """Runs the test phases: ("killed"|"survived", fuzz only, killers)."""
        phases = []
        if not opts.full:
            phases.append(("lit", [LLVM + "/bin/lit", "-q", "-j", jobs,
                                   os.path.join(build, "test")], lit_env))
        phases.append(("ctest", ["ctest", "--test-dir", build, "-j", jobs,
                                 "--output-on-failure", "-E", "fuzz-schedule"],
                       env))
        if not opts.no_fuzz:
            phases.append(("fuzz", ["ctest", "--test-dir", build,
                                    "--output-on-failure", "-R", "fuzz-schedule"],
                           env))
        for name, cmd, e in phases:
            since = os.path.getsize(log)
            rc, _, timed_out = run(cmd, log, opts.timeout, env=e)
            if rc != 0:
                tests = failing_tests(log, since)
                killer = ("timeout in %s" % name if timed_out else
                          ", ".join(tests) if tests else name)
                return "killed", name == "fuzz", killer
        return "survived", False, ""

    if not opts.no_baseline:
        print("mutation-test: running the tests on the unmutated tree", flush=True)
        status, _, killer = run_tests(base_log)
        if status != "survived":
            print("mutation-test: the unmutated tree fails its tests (%s), see %s"
                  % (killer, base_log), file=sys.stderr)
            return 2

    results = []
    current = None

    def on_term(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_term)
    try:
        for n in chosen:
            f, what, _, _ = MUTANTS[n - 1]
            log = os.path.join(log_dir, "mutant-%02d.log" % n)
            open(log, "w").close()
            t0 = time.time()
            current = f
            with open(os.path.join(src, f), "w") as fh:
                fh.write(mutate(originals[f], n - 1))
            if not build_tree(log):
                status, fuzz_only, killer = "build-failed", False, ""
            else:
                status, fuzz_only, killer = run_tests(log)
            restore(f)
            current = None
            secs = time.time() - t0
            results.append((n, status, fuzz_only))
            label = status + (" (fuzz only)" if fuzz_only else "")
            line = "mutant %2d %-21s %4.0fs  %s: %s" % (n, label, secs, f, what)
            if status == "killed" and (opts.verbose or fuzz_only):
                line += "\n            by " + killer
            elif status == "killed":
                line += "  [" + killer.split(", ")[0] + "]"
            print(line, flush=True)
    except KeyboardInterrupt:
        if current:
            restore(current)
            current = None
        print("mutation-test: interrupted; the mutated file was restored",
              file=sys.stderr)
        return 130
    finally:
        if current:
            restore(current)

    total = len(results)
    built = [r for r in results if r[1] != "build-failed"]
    killed_all = sum(1 for r in results if r[1] == "killed")
    killed_nofuzz = sum(1 for r in results if r[1] == "killed" and not r[2])
    build_failed = total - len(built)
    survivors = [r[0] for r in results if r[1] == "survived"]
    if opts.no_fuzz:
        survivors_nf = survivors
    else:
        survivors_nf = [r[0] for r in results if r[1] == "survived" or r[2]]
    print("build failures: %d (not kills)" % build_failed)
    print("survivors without fuzz-schedule: %s" %
          (",".join(map(str, survivors_nf)) or "none"))
    if not opts.no_fuzz:
        print("survivors: %s" % (",".join(map(str, survivors)) or "none"))
    print("wall time: %.0fs" % (time.time() - start_all))
    print("score (ctest without fuzz-schedule): %d/%d" % (killed_nofuzz, total))
    if not opts.no_fuzz:
        print("score (ctest): %d/%d" % (killed_all, total))
    return 0


sys.exit(main())
PY
