//===- PlanArena.cpp - place a function's buffers in one arena --*- C++ -*-===//
//
// Per block, the buffers allocated and freed in it (and a slot for each op
// whose regions hold such buffers, and for each call whose callee takes an
// arena argument) are placed by the MLIR-free planner
// (Analysis/Graph/ArenaPlanner.h) with lifetimes given by the ops'
// positions; slots hold the plans of the nested blocks. Then every placed
// allocation becomes a memref.view of the arena and its deallocation goes.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Graph/ArenaOrder.h"
#include "Analysis/Graph/ArenaPhases.h"
#include "Analysis/Graph/ArenaPlanner.h"
#include "Analysis/Graph/ArenaRange.h"
#include "Analysis/MemSched/AllocationSize.h"
#include "Analysis/MemSched/BodyLifetimes.h"
#include "Analysis/MemSched/BufferLifetimeAnalysis.h"
#include "Analysis/MemSched/CallGraph.h"
#include "Analysis/MemSched/RegionYields.h"
#include "Analysis/MemSched/SizeSymbols.h"
#include "Dialect/MemSched/MemSchedDialect.h"
#include "Transforms/MemSched/Arena.h"
#include "Transforms/MemSched/ArenaOverRange.h"
#include "Transforms/MemSched/Certificate.h"
#include "Transforms/MemSched/MemSched.h"
#include "Transforms/MemSched/Passes.h"
#include "Transforms/MemSched/Reorder.h"
#include "Transforms/MemSched/ScheduleRange.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/MathExtras.h"

#include <memory>

namespace mlir {
namespace memsched {
#define GEN_PASS_DEF_PLANARENA
#include "Transforms/MemSched/Passes.h.inc"
} // namespace memsched
} // namespace mlir

using namespace mlir;
using namespace mlir::memsched;

namespace {
struct BlockPlan;

/// Something that takes bytes of the arena in a block.
struct Item {
  enum class Kind { Alloc, Slot, Call } kind = Kind::Alloc;
  Operation *op = nullptr;       // the allocation, the region op, the call
  Operation *dealloc = nullptr;  // Alloc
  std::vector<std::unique_ptr<BlockPlan>> children; // Slot
  uint64_t size = 0, alignment = 1, first = 0, last = 0, offset = 0;
  /// Placed for a range of dynamic sizes: the size and offset as
  /// polynomials in the function's symbols (`size` and `offset` are their
  /// values at the upper ends).
  std::optional<::memsched_core::SizePoly> sizePoly, offsetPoly;
  /// The offset is rounded up to `alignment` at run time.
  bool roundUp = false;
};

struct BlockPlan {
  std::vector<Item> items;
  uint64_t size = 0, alignment = 1;
  ::memsched_core::ArenaPlan plan;
  /// Placed for a range of dynamic sizes: the arena's size, the max of
  /// these.
  std::vector<::memsched_core::SizePoly> sizeExpr;
};

/// A function whose buffers are sized by its dynamic sizes: planned for
/// every size of their ranges (docs/dynamic.md).
struct RangeMode {
  SizeSymbols symbols;
  /// The analysis at the upper ends of the ranges (where the numbers of the
  /// certificate are).
  SizeModel atHigh;
  std::vector<uint64_t> low, high;
  /// The point placements are chosen for: the typical values where
  /// declared, the upper ends elsewhere (SizeSymbols::getTypicalPoint).
  std::vector<uint64_t> typical;
  /// The memory of the body as written, over the ranges.
  std::vector<::memsched_core::SizePoly> unplanned;
};

/// Whether the placement search of `block`, or of a block nested in its
/// slots, stopped at its work budget before proving its arena.
static bool searchStopped(const BlockPlan &block) {
  if (!block.plan.complete)
    return true;
  for (const Item &item : block.items)
    for (const std::unique_ptr<BlockPlan> &child : item.children)
      if (searchStopped(*child))
        return true;
  return false;
}

/// The arena a callee planned with arena=argument expects.
struct CalleeArena {
  uint64_t size = 0, alignment = 1;
};

/// The allocation `v` is a view or cast of, or null.
static Operation *getSourceAllocation(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (isa<memref::AllocOp, memref::ReallocOp>(def))
      return def;
    // A buffer a loop or branch hands out: allocated by that op, never in
    // an arena.
    if (llvm::any_of(findFreshYields(def), [&](const FreshYield &fy) {
          return def->getResult(fy.position) == v;
        }))
      return def;
    if (auto view = dyn_cast<ViewLikeOpInterface>(def)) {
      v = view.getViewSource();
      continue;
    }
    if (isa<CastOpInterface>(def) && def->getNumOperands() == 1) {
      v = def->getOperand(0);
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

struct PlanArenaPass
    : public mlir::memsched::impl::PlanArenaBase<PlanArenaPass> {
  using PlanArenaBase::PlanArenaBase;

  ArenaKind kind = ArenaKind::Alloc;
  /// The kind of arena of the function being planned: `kind`, except that
  /// with arena=argument a public function (its signature stays) and one
  /// with no buffer of its own allocate the arena they pass on.
  ArenaKind funcKind = ArenaKind::Alloc;
  SizeModel sizes;
  DenseMap<Operation *, CalleeArena> argumentCallees;
  std::shared_ptr<ModuleCallGraph> callGraph;
  DenseMap<Operation *, CertificateAttr> certificates;
  std::optional<::memsched_core::ArenaHeuristic> chosenHeuristic;
  /// What one arena for every buffer of the body would need (choosePhases),
  /// and its size: said when the phases leave buffers outside.
  uint64_t oneArenaMemory = 0, oneArenaSize = 0, oneArenaIdeal = 0;
  bool oneArenaProved = false;
  bool quiet = false;
  DeclaredRanges givenRanges;
  /// Set while a function with buffers sized by its dynamic sizes is
  /// planned.
  std::shared_ptr<RangeMode> range;
  /// How the function being planned is analysed: `sizes`, or at the upper
  /// ends of its ranges.
  SizeModel model;
  func::FuncOp currentFunc;
  /// Over ranges: ops of the body whose regions allocate by the dynamic
  /// sizes, and what they need inside at the upper ends.
  DenseMap<Operation *, uint64_t> nestedOutside;
  /// Placements over ranges tried in turn until the planned memory is
  /// proved never above the unplanned one: the attempt, and why the first
  /// was refused.
  static constexpr unsigned kRangeAttempts = 8;
  unsigned rangeAttempt = 0;
  std::string firstRefusal;
  /// The planned function's memory over the ranges (neverAboveUnplanned).
  std::vector<::memsched_core::SizePoly> plannedMemory;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (arenaKind == "alloc")
      kind = ArenaKind::Alloc;
    else if (arenaKind == "argument")
      kind = ArenaKind::Argument;
    else if (arenaKind == "global")
      kind = ArenaKind::Global;
    else {
      module.emitError() << "memsched-plan-arena: arena must be alloc, "
                            "argument or global, got '"
                         << arenaKind << "'";
      return signalPassFailure();
    }
    if (alignment == 0 || !llvm::isPowerOf2_64(alignment)) {
      module.emitError() << "memsched-plan-arena: alignment must be a power "
                            "of two, got "
                         << static_cast<uint64_t>(alignment);
      return signalPassFailure();
    }
    if (!heuristic.empty()) {
      for (auto h : {::memsched_core::ArenaHeuristic::GreedyBySize,
                     ::memsched_core::ArenaHeuristic::BestFitBySize,
                     ::memsched_core::ArenaHeuristic::FirstFitByStart,
                     ::memsched_core::ArenaHeuristic::FirstFitByConflicts})
        if (heuristic == ::memsched_core::getHeuristicName(h))
          chosenHeuristic = h;
      if (!chosenHeuristic) {
        module.emitError()
            << "memsched-plan-arena: heuristic must be greedy-by-size, "
               "best-fit-by-size, first-fit-by-start or "
               "first-fit-by-conflicts, got '"
            << heuristic << "'";
        return signalPassFailure();
      }
    }
    std::string rangesWhy;
    if (failed(givenRanges.parse(ranges, rangesWhy))) {
      module.emitError() << "memsched-plan-arena: " << rangesWhy;
      return signalPassFailure();
    }
    sizes.countAlignmentPadding = countAlignmentPadding;
    callGraph = std::make_shared<ModuleCallGraph>(module);
    SmallVector<func::FuncOp> funcs =
        llvm::to_vector(callGraph->getFunctionsCalleesFirst());
    // The certificates of the buffers before placement, on the module as it
    // is: a caller's peak counts its callees' memory before they are planned
    // (with arena=argument a planned callee no longer allocates its own).
    for (func::FuncOp func : funcs) {
      if (func.isExternal())
        continue;
      CertificateAttr cert = getCertificate(func);
      BodyLifetimes body(func, sizes);
      if (!body.isSupported())
        continue;
      if (!cert || cert.getPeakWithArena() ||
          cert.getPeak() != body.getPeakAsWritten() ||
          getSizeModel(cert, func).countAlignmentPadding !=
              countAlignmentPadding) {
        CertifyFunctionResult certified =
            certifyFunction(func, sizes, /*attach=*/false);
        if (!certified.supported)
          continue;
        cert = certified.certificate;
      }
      certificates[func] = cert;
    }
    for (func::FuncOp func : funcs)
      if (failed(planFunction(module, func)))
        return signalPassFailure();
    if (kind == ArenaKind::Argument)
      passArenasAroundCalls(module);
    // A function left as it is can still need other memory now: its callees
    // have arenas (or, with arena=argument, its calls allocate one). Its
    // certificate is computed again when it no longer matches.
    for (func::FuncOp func : funcs) {
      CertificateAttr cert = getCertificate(func);
      if (func.isExternal() || !cert || cert.getPeakWithArena())
        continue;
      if (!peaksMatch(func, cert))
        (void)certifyFunction(func, getSizeModel(cert, func), /*attach=*/true);
    }
  }

  /// Whether the peaks `cert` records (in all, and per memory space) are
  /// still those of `func`'s body. True when the body cannot be analysed:
  /// certifying it again would not help.
  static bool peaksMatch(func::FuncOp func, CertificateAttr cert) {
    SizeModel sizes = getSizeModel(cert, func);
    BodyLifetimes body(func, sizes);
    if (!body.isSupported())
      return true;
    if (body.getPeakAsWritten() != cert.getPeak())
      return false;
    if (!cert.getSpaces())
      return true;
    for (SpaceAttr entry : cert.getSpaces().getAsRange<SpaceAttr>()) {
      sizes.memorySpace = entry.getMemorySpace();
      BodyLifetimes space(func, sizes);
      if (space.isSupported() && space.getPeakAsWritten() != entry.getPeak())
        return false;
    }
    return true;
  }

  void leaveUnchanged(func::FuncOp func, Operation *at, StringRef reason) {
    reportUnsupported("memsched-plan-arena", func, at, reason, strict);
    if (strict)
      signalPassFailure();
  }

  /// Why `func` cannot take an arena argument, or empty.
  std::string whyNoArgument(ModuleOp module, func::FuncOp func) {
    if (callGraph->isRecursive(func))
      return "a recursive function cannot take its arena from its caller "
             "(its activations would share it): recursive through " +
             callGraph->describeCycle(func) + "; use arena=alloc";
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(func, module);
    if (!uses)
      return "its symbol uses are not known";
    for (const SymbolTable::SymbolUse &use : *uses)
      if (!isa<func::CallOp>(use.getUser()))
        return ("it is referenced by " +
                use.getUser()->getName().getStringRef() +
                ", not only called: those callers cannot be given the arena")
            .str();
    return "";
  }

  LogicalResult planFunction(ModuleOp module, func::FuncOp func) {
    if (func.isExternal())
      return success();
    std::string why;
    FailureOr<std::optional<Arena>> existing = findArena(func, why);
    if (failed(existing) || *existing) {
      if (emitRemarks)
        emitRemark(func.getLoc()) << "memsched-plan-arena: '" << func.getSymName()
                          << "' already has an arena";
      return success();
    }
    if (!func.getBody().hasOneBlock()) {
      leaveUnchanged(func, func,
                     "body with several blocks: arenas are planned for "
                     "bodies with one block; the function keeps its "
                     "allocations (its schedule and certificate stand)");
      return success();
    }
    range.reset();
    model = sizes;
    if (!setUpRange(func))
      return success();
    BufferLifetimeAnalysis analysis(func, model);
    if (!analysis.isSupported()) {
      leaveUnchanged(func, analysis.getUnsupportedOp(),
                     analysis.getUnsupportedReason());
      return success();
    }
    // Ops of the body with allocations inside sized by the dynamic sizes
    // (left outside an arena over ranges) and what they need inside.
    nestedOutside.clear();
    if (range)
      for (const NodeInfo &node : analysis.getNodes()) {
        if (!node.op || !node.op->getNumRegions() || !node.transient)
          continue;
        bool dynamic = false;
        node.op->walk([&](memref::AllocOp alloc) {
          dynamic |= !alloc.getDynamicSizes().empty();
        });
        if (dynamic)
          nestedOutside[node.op] = node.transient;
      }
    funcKind = kind;
    if (kind == ArenaKind::Argument && func.isPublic())
      funcKind = ArenaKind::Alloc;
    if (funcKind == ArenaKind::Argument) {
      std::string reason = whyNoArgument(module, func);
      if (!reason.empty()) {
        leaveUnchanged(func, func, reason);
        return success();
      }
    } else if (kind == ArenaKind::Global && callGraph->isRecursive(func)) {
      leaveUnchanged(func, func,
                     "a recursive function cannot have a global arena (its "
                     "activations would share it): recursive through " +
                         callGraph->describeCycle(func) + "; use arena=alloc");
      return success();
    }

    // Every free of the function, by the allocation it frees.
    DenseMap<Operation *, SmallVector<Operation *, 1>> frees;
    Operation *unknownFree = nullptr;
    func.walk([&](Operation *op) {
      auto mem = dyn_cast<MemoryEffectOpInterface>(op);
      if (!mem)
        return;
      SmallVector<MemoryEffects::EffectInstance> effects;
      mem.getEffects(effects);
      for (const MemoryEffects::EffectInstance &e : effects) {
        if (!isa<MemoryEffects::Free>(e.getEffect()))
          continue;
        // (A loop's free of the buffer an iteration got frees the loop's.)
        std::optional<std::pair<Operation *, unsigned>> loop =
            getCarriedFreeLoop(op);
        Operation *alloc = loop ? loop->first
                           : e.getValue() ? getSourceAllocation(e.getValue())
                                          : nullptr;
        if (!alloc) {
          if (!unknownFree)
            unknownFree = op;
          continue;
        }
        frees[alloc].push_back(op);
      }
    });
    if (unknownFree) {
      leaveUnchanged(func, unknownFree,
                     "it frees a buffer that does not come from an allocation "
                     "of the function, or one of several");
      return success();
    }

    BlockPlan top;
    unsigned placed = 0, outside = 0;
    planBlock(func.getBody().front(), frees, top, placed, outside);
    if (top.items.empty()) {
      if (emitRemarks)
        emitRemark(func.getLoc()) << "memsched-plan-arena: '" << func.getSymName()
                          << "' has no buffer to place";
      return success();
    }

    if (funcKind == ArenaKind::Argument &&
        llvm::all_of(top.items, [](const Item &item) {
          return item.kind == Item::Kind::Call;
        }))
      funcKind = ArenaKind::Alloc;
    CertificateAttr cert = certificates.lookup(func);
    if (range) {
      // The certificate over the ranges, its numbers at the upper ends.
      RangeCertificate certified = certifyOverRange(
          func, sizes, /*pinAllocations=*/false, range->symbols);
      cert = certified.cert.certificate;
      if (!cert) {
        leaveUnchanged(func, func,
                       "its buffers could not be certified over the ranges "
                       "of its dynamic sizes: " +
                           certified.why);
        return success();
      }
    }
    if (!cert) {
      leaveUnchanged(func, func, "its buffers could not be certified");
      return success();
    }
    if (!range && reorder && top.size > top.plan.ideal &&
        reorderForArena(func, analysis)) {
      // Same ops in another order: analysed, certified and placed again.
      BufferLifetimeAnalysis reordered(func, sizes);
      CertifyFunctionResult certified =
          certifyFunction(func, sizes, /*attach=*/false);
      if (!reordered.isSupported() || !certified.supported) {
        func.emitError() << "memsched-plan-arena: internal error on '"
                         << func.getSymName()
                         << "': the reordered body cannot be analysed; please "
                            "report this input";
        return failure();
      }
      cert = certified.certificate;
      top = BlockPlan();
      placed = outside = 0;
      quiet = true;
      planBlock(func.getBody().front(), frees, top, placed, outside);
      quiet = false;
      ++numReordered;
    }
    std::vector<BlockPlan> phases;
    unsigned leftOut = 0;
    // One heuristic alone (a comparison) places one arena, as the planners
    // it comes from do: no phases, and kept even above the peak.
    if (funcKind == ArenaKind::Alloc && !chosenHeuristic)
      phases = choosePhases(func.getBody().front(), frees, top, placed,
                            leftOut);
    else
      phases.push_back(std::move(top));
    outside += leftOut;
    if (phases.empty()) {
      // Every buffer is better left outside (no arena needs less).
      if (emitRemarks)
        emitRemark(func.getLoc()) << "memsched-plan-arena: '" << func.getSymName()
                          << "' has no buffer worth placing: an arena would "
                             "need more memory than its buffers do where "
                             "they are";
      return success();
    }
    if (range)
      for (BlockPlan &phase : phases)
        placeOverRange(phase);
    // The largest arena (phases' arenas never live together).
    uint64_t arenaSize = 0;
    for (const BlockPlan &phase : phases)
      arenaSize = std::max(arenaSize, phase.size);

    // The report shows the buffers before the rewrite, at their offsets.
    std::optional<FunctionReport> report;
    if (!reportDir.empty()) {
      DenseMap<Operation *, uint64_t> offsets;
      DenseMap<Operation *, unsigned> phaseOf;
      for (auto [p, phase] : llvm::enumerate(phases))
        for (const Item &item : phase.items)
          if (item.kind == Item::Kind::Alloc) {
            offsets[item.op] = item.offset;
            phaseOf[item.op] = p;
          }
      SmallVector<Operation *> sequence =
          currentSequence(&func.getBody().front());
      BufferLifetimeAnalysis current(func, sizes);
      report = buildFunctionReport(func, current, sequence, cert.getPeak(),
                                   sequence, cert.getPeak(),
                                   /*reordered=*/false, cert, &offsets,
                                   /*names=*/nullptr,
                                   /*transientsBefore=*/nullptr, &phaseOf);
      for (const BlockPlan &phase : phases)
        report->arenaPhaseSizes.push_back(phase.size);
    }

    // Planned in a copy first: the function is left as it was when the
    // planned one would need more memory than the peak (the estimate the
    // phases were chosen by counts the buffers outside only roughly).
    Operation *saved = func->clone();
    llvm::scope_exit eraseSaved([&] { saved->erase(); });
    ArrayAttr savedArgAttrs = func.getAllArgAttrs();
    if (range)
      recordRanges(func);
    SmallVector<Arena> arenas;
    for (BlockPlan &phase : phases) {
      arenas.push_back(createArena(module, func, phase));
      rewriteBlock(phase, std::nullopt, arenas.back().value);
    }
    std::string problem;
    Operation *at = nullptr;
    FailureOr<uint64_t> memory = failure();
    bool placementsValid = llvm::all_of(arenas, [&](const Arena &arena) {
      return succeeded(checkArenaPlacement(func, arena, problem, at));
    });
    if (placementsValid)
      memory = computeArenaMemory(func, arenas.front(), model, problem);
    if (failed(memory)) {
      // Everything was placed by construction: a failure here is a bug.
      InFlightDiagnostic diag = func.emitError()
                                << "memsched-plan-arena: internal error on '"
                                << func.getSymName() << "': " << problem
                                << "; please report this input";
      if (at)
        diag.attachNote(at->getLoc()) << "the op at fault";
      return failure();
    }
    // With the buffers' own bytes the arena holds every live set, so the
    // planned function cannot need less than the peak. (Counting the
    // allocator's alignment padding, it can: one allocation replaces many.)
    if (!countAlignmentPadding && *memory < cert.getPeak()) {
      func.emitError() << "memsched-plan-arena: internal error on '"
                       << func.getSymName() << "': the planned function needs "
                       << *memory << " bytes, below its peak of "
                       << cert.getPeak() << "; please report this input";
      return failure();
    }
    // Never worse than no arena: allocated arenas (kind alloc) that need
    // more than the peak are undone. (Not when they hold the arena of a
    // call to a function planned with arena=argument: without it, one is
    // allocated around the call.)
    bool holdsCalls = llvm::any_of(phases, [](const BlockPlan &phase) {
      return llvm::any_of(phase.items, [](const Item &item) {
        return item.kind == Item::Kind::Call;
      });
    });
    // Over the ranges: never above the unplanned memory at any size.
    std::string worseAt;
    if (range && !holdsCalls && !neverAboveUnplanned(func, worseAt)) {
      restoreBody(func, saved);
      restoreArgAttrs(func, savedArgAttrs);
      if (rangeAttempt == 0)
        firstRefusal = worseAt;
      // Placed again from the start, buffers in another order.
      if (rangeAttempt + 1 < kRangeAttempts) {
        bool wasQuiet = quiet;
        quiet = true;
        ++rangeAttempt;
        LogicalResult result = planFunction(module, func);
        --rangeAttempt;
        quiet = wasQuiet;
        return result;
      }
      if (emitRemarks)
        emitRemark(func.getLoc())
            << "memsched-plan-arena: '" << func.getSymName()
            << "' left without an arena: " << firstRefusal << " (placed in "
            << kRangeAttempts << " orders, none proved)";
      return success();
    }
    if (funcKind == ArenaKind::Alloc && !holdsCalls && !chosenHeuristic &&
        *memory > cert.getPeak()) {
      restoreBody(func, saved);
      restoreArgAttrs(func, savedArgAttrs);
      if (emitRemarks) {
        InFlightDiagnostic diag = emitRemark(func.getLoc());
        diag << "memsched-plan-arena: '" << func.getSymName()
             << "' left without an arena: planned, it would need " << *memory
             << " bytes, above its peak of " << cert.getPeak()
             << " bytes without one";
        if (llvm::any_of(phases, searchStopped))
          diag << " (" << getBudgetStop() << ")";
      }
      return success();
    }
    cert = CertificateAttr::get(
        func.getContext(), cert.getPeak(), cert.getLowerBound(),
        cert.getBoundKind(), cert.getBoundOp(), cert.getCut(),
        cert.getSizeModel(), *memory, arenaSize, cert.getBlock(),
        cert.getSpaces(), cert.getRematOps(), cert.getExtraComputePpm(),
        cert.getSearchBudget(), cert.getSizesAt(), cert.getPeakExpr(),
        cert.getLowerBoundExpr(), cert.getLowerBoundLow());
    setCertificate(func, cert);
    std::vector<std::vector<::memsched_core::SizePoly>> arenaExprs;
    if (range)
      for (const BlockPlan &phase : phases)
        if (!phase.sizeExpr.empty() &&
            !(phase.sizeExpr.size() == 1 && phase.sizeExpr[0].isConstant()))
          arenaExprs.push_back(phase.sizeExpr);
    if (!arenaExprs.empty())
      createArenaSizeFunction(module, func, range->symbols, arenaExprs);
    if (report) {
      report->arenaSize = arenaSize;
      report->arenaMemory = *memory;
      if (failed(writeFunctionReport(func, *report, reportDir, ".arena")))
        return failure();
    }
    ++numPlanned;
    numPlaced += placed;
    numOutside += outside;
    if (*memory == cert.getPeak())
      ++numAtPeak;
    BlockPlan &first = phases.front();
    if (funcKind == ArenaKind::Argument)
      argumentCallees[func] = {first.size, first.alignment};
    if (emitRemarks) {
      unsigned calls = 0;
      for (const BlockPlan &phase : phases)
        calls += llvm::count_if(phase.items, [](const Item &item) {
          return item.kind == Item::Kind::Call;
        });
      auto count = [](unsigned n, StringRef what) {
        return std::to_string(n) + " " + what.str() + (n == 1 ? "" : "s");
      };
      std::string contents =
          !calls ? count(placed, "buffer")
          : placed ? count(placed, "buffer") + " and the arenas of " +
                         count(calls, "call")
                   : "the arenas of " + count(calls, "call");
      InFlightDiagnostic diag = emitRemark(func.getLoc());
      diag << "memsched-plan-arena: '" << func.getSymName() << "': ";
      if (phases.size() == 1) {
        diag << "arena of " << first.size << " bytes for " << contents
             << " (their largest live total " << first.plan.ideal
             << " bytes, placement bound " << first.plan.lowerBound << " bytes"
             << (first.plan.optimal ? ", optimal" : "") << ")";
      } else {
        // Per phase: its arena, and whether the placement is proved
        // optimal (the arena equals the phase's placement bound).
        diag << phases.size() << " arenas by phase, of ";
        unsigned optimal = 0;
        for (auto [i, phase] : llvm::enumerate(phases)) {
          diag << (i ? ", " : "") << phase.size;
          optimal += phase.plan.optimal;
        }
        diag << " bytes, for " << contents << " (" << optimal << " of "
             << phases.size() << " placements proved optimal)";
      }
      diag << ", memory " << *memory
           << " bytes against a peak of " << cert.getPeak()
           << " bytes and a lower bound of " << cert.getLowerBound()
           << " bytes";
      if (*memory == cert.getLowerBound())
        diag << " (optimal: no order and no placement needs less)";
      else if (*memory == cert.getPeak())
        diag << " (nothing lost to fragmentation)";
      if (outside)
        diag << "; " << outside << " allocation"
             << (outside == 1 ? "" : "s") << " left outside";
      if (llvm::any_of(phases, searchStopped))
        diag << "; " << getBudgetStop();
      if (!arenaExprs.empty()) {
        std::vector<::memsched_core::SizePoly> all;
        for (const auto &e : arenaExprs)
          all.insert(all.end(), e.begin(), e.end());
        // What placing the static buffers and stacking the dynamic ones
        // above them would take, for comparison.
        std::vector<::memsched_core::RangeArenaBuffer> placedBuffers;
        for (const BlockPlan &phase : phases)
          for (const Item &item : phase.items)
            placedBuffers.push_back(
                {item.sizePoly ? *item.sizePoly
                               : ::memsched_core::SizePoly::constant(item.size),
                 item.first, item.last, item.alignment});
        const std::vector<std::string> &names = range->symbols.getNames();
        diag << "; at the sizes " << range->symbols.describePoint(range->high)
             << " (over the ranges " << range->symbols.describeRanges()
             << ": arena "
             << describeMaxOfPolys(::memsched_core::pruneDominated(all), names,
                                   SIZE_MAX)
             << " bytes, given by @" << func.getSymName()
             << "_arena_size; memory "
             << describeMaxOfPolys(plannedMemory, names, SIZE_MAX)
             << " bytes, never more than without it, proved at every size; "
                "stacking the dynamic buffers above the static ones: "
             << ::memsched_core::getStackedArena(placedBuffers).str(names)
             << " bytes)";
        if (range->symbols.hasTypical())
          diag << "; at the typical sizes "
               << range->symbols.describePoint(range->typical) << ": arena "
               << ::memsched_core::evaluateMax(all, range->typical)
               << " bytes, memory "
               << ::memsched_core::evaluateMax(plannedMemory, range->typical)
               << " bytes";
      }
      if (leftOut && oneArenaMemory > cert.getPeak()) {
        diag << " (one arena for all would be " << oneArenaSize
             << " bytes and need " << oneArenaMemory
             << " bytes, above the peak: ";
        if (oneArenaSize > oneArenaIdeal && oneArenaProved)
          diag << "its placement has a gap of "
               << oneArenaSize - oneArenaIdeal
               << " bytes that no placement in this order closes (proved); ";
        else if (oneArenaSize > oneArenaIdeal)
          diag << "its placement has a gap of "
               << oneArenaSize - oneArenaIdeal
               << " bytes the search did not close, which a larger "
                  "work-budget may; ";
        if (oneArenaMemory > oneArenaSize)
          diag << "buffers outside it (returned results) would stack on "
                  "it; ";
        diag << "arena=global or arena=argument place every buffer in one "
                "static arena)";
      }
    }
    return success();
  }

  /// The sizes placements are made at: each buffer's own bytes (no
  /// allocator padding), dynamic sizes at the upper ends of their ranges
  /// when the function is planned over them.
  SizeModel getPlacementModel() const {
    SizeModel m;
    if (range)
      m.point = range->atHigh.point;
    return m;
  }

  /// Whether `top`'s arena is sized for a range of dynamic sizes.
  bool isDynamicArena(const BlockPlan &top) const {
    return range && !top.sizeExpr.empty() &&
           !(top.sizeExpr.size() == 1 && top.sizeExpr.front().isConstant());
  }

  /// Decides how `func` is analysed (`model`): a function whose buffers
  /// are sized by its dynamic sizes, every one an argument or a dimension
  /// of one, is planned with arena=alloc for every size of their ranges
  /// (`range`); otherwise dynamic sizes are at their constant bounds.
  /// Returns false when the function is left unchanged (with its remark).
  bool setUpRange(func::FuncOp func) {
    currentFunc = func;
    std::string why;
    FailureOr<SizeSymbols> symbols =
        SizeSymbols::collect(func, why, &givenRanges);
    if (failed(symbols)) {
      leaveUnchanged(func, func, why);
      return false;
    }
    if (symbols->empty() || kind != ArenaKind::Alloc || chosenHeuristic)
      return true;
    for (unsigned s = 0; s < symbols->size(); ++s)
      if (!symbols->isArgument(s))
        return true;
    auto r = std::make_shared<RangeMode>();
    r->symbols = std::move(*symbols);
    getRangeEnds(r->symbols, r->low, r->high);
    r->typical = r->symbols.getTypicalPoint(r->high);
    FailureOr<std::vector<::memsched_core::SizePoly>> unplanned =
        getMemoryOverRange(func, sizes, r->symbols.getNames(), why,
                           &givenRanges);
    if (failed(unplanned)) {
      leaveUnchanged(func, func,
                     "its buffers are sized by its dynamic sizes (" +
                         r->symbols.describeRanges() +
                         ") and its memory over their ranges cannot be "
                         "modelled: " +
                         why + "; the function keeps its allocations");
      return false;
    }
    r->unplanned = std::move(*unplanned);
    auto point = std::make_shared<SizePoint>();
    point->symbols = &r->symbols;
    point->values = r->high;
    r->atHigh = sizes;
    r->atHigh.point = std::move(point);
    model = r->atHigh;
    range = std::move(r);
    return true;
  }

  /// Writes the ranges a plan over ranges is proved for onto the arguments
  /// they come from (`memsched.range`) when the `ranges` option gave some:
  /// the placement, its check and the size function hold for those sizes
  /// only, and the IR now says so.
  void recordRanges(func::FuncOp func) {
    if (givenRanges.empty())
      return;
    Builder b(func.getContext());
    const SizeSymbols &symbols = range->symbols;
    for (unsigned s = 0; s < symbols.size(); ++s) {
      auto [value, dim] = symbols.getSymbolKey(s);
      auto arg = dyn_cast<BlockArgument>(value);
      if (!arg || arg.getOwner() != &func.getBody().front())
        continue;
      unsigned n = arg.getArgNumber();
      const ::memsched_core::SymbolRange &r = symbols.getRanges()[s];
      int64_t lo = static_cast<int64_t>(r.lo);
      int64_t hi = r.hi ? static_cast<int64_t>(*r.hi) : -1;
      auto existing =
          func.getArgAttrOfType<DenseI64ArrayAttr>(n, kRangeAttrName);
      SmallVector<int64_t> pairs;
      auto shaped = dyn_cast<ShapedType>(arg.getType());
      if (!shaped) {
        pairs = {lo, hi};
      } else {
        unsigned k = 0;
        for (int64_t d = 0; d < shaped.getRank(); ++d) {
          if (!shaped.isDynamicDim(d))
            continue;
          if (d == dim) {
            pairs.append({lo, hi});
          } else if (existing && existing.size() >= 2 * (k + 1)) {
            pairs.append({existing[2 * k], existing[2 * k + 1]});
          } else {
            pairs.append({0, -1});
          }
          ++k;
        }
      }
      func.setArgAttr(n, kRangeAttrName, b.getDenseI64ArrayAttr(pairs));
    }
  }

  static void restoreArgAttrs(func::FuncOp func, ArrayAttr saved) {
    if (saved)
      func.setAllArgAttrs(saved);
    else
      func.removeArgAttrsAttr();
  }

  /// Places `phase`'s buffers for every size of the ranges (first fit over
  /// polynomials in the order of their offsets at the upper ends;
  /// Analysis/Graph/ArenaRange.h). A phase of buffers of constant sizes
  /// keeps its placement.
  void placeOverRange(BlockPlan &phase) {
    using ::memsched_core::SizePoly;
    std::vector<::memsched_core::RangeArenaBuffer> buffers;
    std::vector<uint64_t> hint;
    bool constant = true;
    for (const Item &item : phase.items) {
      SizePoly size =
          item.sizePoly ? *item.sizePoly : SizePoly::constant(item.size);
      constant = constant && size.isConstant();
      buffers.push_back({size, item.first, item.last, item.alignment});
      hint.push_back(item.offset);
    }
    if (constant) {
      phase.sizeExpr = {SizePoly::constant(phase.size)};
      return;
    }
    // The first attempt takes the better of two orders at the typical
    // values (the upper ends without them); one the planned function's
    // memory is not proved for is followed by attempts in other orders
    // (planFunction), then by the same orders chosen at the other end (the
    // lower ends, or the upper ones when typical values are declared).
    static constexpr ::memsched_core::RangeOrder retries[] = {
        ::memsched_core::RangeOrder::SizeAtLow,
        ::memsched_core::RangeOrder::Start,
        ::memsched_core::RangeOrder::Lifetime};
    const std::vector<::memsched_core::SymbolRange> &ranges =
        range->symbols.getRanges();
    bool atOtherEnd = rangeAttempt >= kRangeAttempts / 2;
    const std::vector<uint64_t> &other =
        range->typical != range->high ? range->high : range->low;
    const std::vector<uint64_t> &point = atOtherEnd ? other : range->typical;
    const std::vector<uint64_t> &second =
        atOtherEnd && other == range->low ? range->typical : range->low;
    unsigned kind = rangeAttempt % (kRangeAttempts / 2);
    ::memsched_core::RangeArenaPlan plan =
        kind == 0 ? ::memsched_core::planOverRange(buffers, ranges, hint, point,
                                                   second, kArenaProofBudget)
                  : ::memsched_core::placeOverRange(
                        buffers, ranges,
                        ::memsched_core::getRangeOrder(
                            buffers, retries[kind - 1], hint, point, second),
                        point, second, kArenaProofBudget);
    for (auto [i, item] : llvm::enumerate(phase.items)) {
      item.offsetPoly = plan.offsets[i];
      item.roundUp = plan.roundUp[i];
      uint64_t at = plan.offsets[i].evaluate(range->high);
      item.offset = item.roundUp ? llvm::alignTo(at, item.alignment) : at;
    }
    phase.sizeExpr = plan.size;
    phase.size = ::memsched_core::evaluateMax(plan.size, range->high);
    phase.plan.optimal =
        phase.plan.optimal && phase.size <= phase.plan.arenaSize;
    phase.plan.arenaSize = phase.size;
  }

  /// Whether the planned `func` is proved never to need more memory than
  /// it did unplanned, at any size of the ranges; otherwise `why` says
  /// where it would.
  bool neverAboveUnplanned(func::FuncOp func, std::string &why) {
    std::string problem;
    FailureOr<std::vector<::memsched_core::SizePoly>> planned =
        getMemoryOverRange(func, sizes, range->symbols.getNames(), problem,
                           &givenRanges);
    if (failed(planned)) {
      why = "its memory once planned could not be modelled over the ranges "
            "of its dynamic sizes (" +
            problem + ")";
      return false;
    }
    ::memsched_core::MaxComparison c = ::memsched_core::proveMaxAtMost(
        *planned, range->unplanned, range->symbols.getRanges(),
        kRangeProofBudget);
    plannedMemory = std::move(*planned);
    if (c.result == ::memsched_core::ProofResult::Proved)
      return true;
    if (c.result == ::memsched_core::ProofResult::Refuted)
      why = "planned, it would need " +
            std::to_string(
                ::memsched_core::evaluateMax(plannedMemory, c.counterexample)) +
            " bytes at " + range->symbols.describePoint(c.counterexample) +
            ", above the " +
            std::to_string(::memsched_core::evaluateMax(range->unplanned,
                                                        c.counterexample)) +
            " bytes it needs without one";
    else
      why = "planned, it could not be proved never to need more memory than "
            "without one at every size of the ranges (the comparison ran out "
            "of work)";
    return false;
  }

  /// What a remark says when a placement search stopped at its budget.
  std::string getBudgetStop() const {
    return "the placement search stopped at its work budget of " +
           std::to_string(uint64_t(workBudget)) +
           " units before proving its arena: a larger work-budget may pack "
           "tighter";
  }

  /// Reorders the body when another order of its ops, with a peak within
  /// `max-peak-increase` of its own, packs into a smaller arena (the search
  /// of Analysis/Graph/ArenaOrder.h on the analysis' graph). Returns whether
  /// the body changed.
  bool reorderForArena(func::FuncOp func,
                       const BufferLifetimeAnalysis &analysis) {
    const ::memsched_core::MemoryGraph &graph = analysis.getGraph();
    std::vector<::memsched_core::NodeId> start = graph.programOrder();
    if (start.size() < 2)
      return false;
    uint64_t peak = ::memsched_core::evaluatePeak(graph, start);
    double limit = static_cast<double>(peak) * (1.0 + maxPeakIncrease);
    ::memsched_core::ArenaOrderOptions options;
    options.peakLimit = limit >= 1.8e19 ? UINT64_MAX : static_cast<uint64_t>(limit);
    options.evaluationBudget = orderEvaluations;
    options.alignment = alignment;
    ::memsched_core::ArenaOrderResult found =
        ::memsched_core::improveArenaOrder(graph, start, options);
    if (found.arena >= found.startArena)
      return false;
    // Better with the whole planner too, not only with its heuristics.
    ::memsched_core::ArenaOptions planner;
    planner.workBudget = workBudget;
    uint64_t before = ::memsched_core::planArena(
        ::memsched_core::getArenaBuffers(graph, start, alignment), planner)
                          .arenaSize;
    uint64_t after = ::memsched_core::planArena(
        ::memsched_core::getArenaBuffers(graph, found.order, alignment), planner)
                         .arenaSize;
    if (after >= before)
      return false;
    SmallVector<unsigned> order(found.order.begin(), found.order.end());
    FailureOr<SmallVector<Operation *>> sequence =
        planBlockOrder(analysis, order);
    if (failed(sequence))
      return false;
    uint64_t asWritten = analysis.getPeakAsWritten();
    double realLimit = static_cast<double>(asWritten) * (1.0 + maxPeakIncrease);
    if (static_cast<double>(getPeakOfSequence(analysis, *sequence)) > realLimit)
      return false;
    applyBlockOrder(analysis, *sequence);
    return true;
  }

  /// The planner, or the one heuristic the `heuristic` option names.
  ::memsched_core::ArenaPlan
  placeBuffers(const std::vector<::memsched_core::ArenaBuffer> &buffers) {
    if (chosenHeuristic) {
      ::memsched_core::ArenaPlan plan;
      plan.offsets = ::memsched_core::placeHeuristic(buffers, *chosenHeuristic);
      plan.arenaSize = ::memsched_core::getArenaSize(buffers, plan.offsets);
      plan.ideal = plan.lowerBound = ::memsched_core::getIdealArena(buffers);
      plan.optimal = plan.arenaSize == plan.lowerBound;
      plan.method = ::memsched_core::getHeuristicName(*chosenHeuristic);
      return plan;
    }
    ::memsched_core::ArenaOptions options;
    options.workBudget = workBudget;
    return ::memsched_core::planArena(buffers, options);
  }

  /// The option, the allocation's `alignment` attribute, and what the stock
  /// lowering would give its element type (vector elements: their size).
  uint64_t getAlignment(memref::AllocOp alloc) {
    return std::max<uint64_t>(
        {alignment, alloc.getAlignment().value_or(1),
         getElementTypeAlignment(alloc.getType(), DataLayout::closest(alloc))});
  }

  /// Why an allocation cannot be placed in the block `block`, or empty.
  std::string
  whyOutside(memref::AllocOp alloc, Block &block,
             const DenseMap<Operation *, SmallVector<Operation *, 1>> &frees,
             uint64_t &size, Operation *&dealloc,
             std::optional<::memsched_core::SizePoly> &sizePoly) {
    MemRefType type = alloc.getType();
    if (Attribute space = type.getMemorySpace()) {
      auto intSpace = dyn_cast<IntegerAttr>(space);
      if (!intSpace || intSpace.getInt() != 0)
        return "it is in another memory space; the arena is in the default "
               "one";
    }
    if (!type.getLayout().isIdentity())
      return "its layout is not the identity (a view of the arena has the "
             "identity layout)";
    bool isBound = false;
    std::string why;
    FailureOr<uint64_t> bytes = getAllocationSize(
        alloc, DataLayout::closest(alloc), getPlacementModel(), isBound, why);
    if (failed(bytes))
      return why +
             "; give the dynamic sizes a constant bound (e.g. "
             "affine.min) to place it" +
             (kind == ArenaKind::Alloc
                  ? ""
                  : ", or declare their ranges and use arena=alloc, whose "
                    "arena is sized for them at run time");
    if (range) {
      FailureOr<::memsched_core::SizePoly> poly = getSymbolicAllocationSize(
          alloc, DataLayout::closest(alloc), SizeModel(), range->symbols,
          /*times=*/1, why);
      if (failed(poly))
        return why;
      if (!poly->isConstant() && block.getParentOp() != currentFunc)
        return "its size depends on the function's dynamic sizes and it is "
               "inside " +
               block.getParentOp()->getName().getStringRef().str() +
               ": an arena sized for a range of sizes places such buffers of "
               "the function's body alone";
      sizePoly = *poly;
    }
    auto it = frees.find(alloc);
    if (it == frees.end()) {
      Operation *parent = alloc->getParentOp();
      if (parent &&
          llvm::any_of(findFreshYields(parent), [&](const FreshYield &fy) {
            return llvm::is_contained(fy.allocs, alloc.getOperation());
          }))
        return "the " + parent->getName().getStringRef().str() +
               " around it hands it out as its result";
      if (parent &&
          llvm::any_of(findFreshYields(parent), [&](const FreshYield &fy) {
            return fy.backAlloc == alloc.getOperation();
          }))
        return "the " + parent->getName().getStringRef().str() +
               " around it hands it to its next run, which frees it";
      if (llvm::any_of(alloc->getUsers(),
                       llvm::IsaPred<bufferization::DeallocOp>))
        return "it is freed by bufferization.dealloc, which the arena does "
               "not rewrite";
      return "it is never freed in the function (returned, or live to the "
             "end): it must outlive the arena";
    }
    if (it->second.size() != 1)
      return "it is freed more than once";
    dealloc = it->second.front();
    if (!isa<memref::DeallocOp>(dealloc) || dealloc->getBlock() != &block)
      return ("it is freed by " + dealloc->getName().getStringRef() +
              " in another block: its lifetime in this block is not known")
          .str();
    SmallVector<Operation *> users;
    Operation *at = nullptr;
    if (failed(collectArenaUses(alloc.getResult(), dealloc, users, why, at)))
      return why + " (" + at->getName().getStringRef().str() +
             "), so its placement could not be checked";
    size = *bytes;
    return "";
  }

  void planBlock(Block &block,
                 const DenseMap<Operation *, SmallVector<Operation *, 1>> &frees,
                 BlockPlan &plan, unsigned &placed, unsigned &outside) {
    uint64_t position = 0;
    DenseMap<Operation *, uint64_t> positions;
    for (Operation &op : block) {
      uint64_t pos = position++;
      positions[&op] = pos;
      if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
        uint64_t size = 0;
        Operation *dealloc = nullptr;
        std::optional<::memsched_core::SizePoly> sizePoly;
        std::string why =
            whyOutside(alloc, block, frees, size, dealloc, sizePoly);
        if (!why.empty()) {
          if (!quiet && emitRemarks)
            emitRemark(alloc.getLoc()) << "memsched-plan-arena: allocation left outside "
                                "the arena: "
                             << why;
          ++outside;
          continue;
        }
        Item item;
        item.kind = Item::Kind::Alloc;
        item.op = alloc;
        item.dealloc = dealloc;
        item.size = size;
        item.sizePoly = sizePoly;
        item.alignment = getAlignment(alloc);
        item.first = pos;
        plan.items.push_back(std::move(item));
        ++placed;
        continue;
      }
      if (auto call = dyn_cast<func::CallOp>(op)) {
        auto callee = dyn_cast_or_null<func::FuncOp>(call.resolveCallable());
        auto it = callee ? argumentCallees.find(callee) : argumentCallees.end();
        if (it != argumentCallees.end() &&
            call.getNumOperands() + 1 == callee.getNumArguments()) {
          Item item;
          item.kind = Item::Kind::Call;
          item.op = call;
          item.size = it->second.size;
          item.alignment = it->second.alignment;
          item.first = item.last = pos;
          plan.items.push_back(std::move(item));
        }
        continue;
      }
      if (op.getNumRegions() == 0)
        continue;
      if (!runsRegionsSequentially(&op)) {
        op.walk([&](memref::AllocOp alloc) {
          if (!quiet && emitRemarks)
            emitRemark(alloc.getLoc()) << "memsched-plan-arena: allocation left outside "
                                "the arena: it is inside "
                             << op.getName()
                             << ", whose regions may run at the same time or "
                                "out of order";
          ++outside;
        });
        continue;
      }
      Item item;
      item.kind = Item::Kind::Slot;
      item.op = &op;
      item.first = item.last = pos;
      for (Region &region : op.getRegions())
        for (Block &nested : region) {
          auto child = std::make_unique<BlockPlan>();
          planBlock(nested, frees, *child, placed, outside);
          if (child->items.empty())
            continue;
          item.size = std::max(item.size, child->size);
          item.alignment = std::max(item.alignment, child->alignment);
          item.children.push_back(std::move(child));
        }
      if (!item.children.empty())
        plan.items.push_back(std::move(item));
    }
    // Lifetimes of the allocations end at their deallocations.
    for (Item &item : plan.items)
      if (item.kind == Item::Kind::Alloc)
        item.last = positions.lookup(item.dealloc);
    if (plan.items.empty())
      return;
    std::vector<::memsched_core::ArenaBuffer> buffers;
    for (const Item &item : plan.items) {
      ::memsched_core::ArenaBuffer b;
      b.size = item.size;
      b.first = item.first;
      b.last = item.last;
      b.alignment = item.alignment;
      buffers.push_back(b);
      plan.alignment = std::max(plan.alignment, item.alignment);
    }
    plan.plan = placeBuffers(buffers);
    plan.size = plan.plan.arenaSize;
    for (unsigned i = 0; i < plan.items.size(); ++i)
      plan.items[i].offset = plan.plan.offsets[i];
  }

  /// With arena=alloc, arenas by phase (Analysis/Graph/ArenaPhases.h): an
  /// arena lives from its first buffer to its last, so a buffer outside it
  /// (a returned result) allocated while it lives stacks on its whole size.
  /// The body's positions are cut where a buffer outside starts or ends,
  /// each phase's buffers in an arena of its own, those crossing a cut left
  /// outside; the cuts of the least memory (never above no arena at all)
  /// are kept. Returns the phases, each placed again with the search, and
  /// counts the buffers left outside in `left`.
  std::vector<BlockPlan> choosePhases(
      Block &block,
      const DenseMap<Operation *, SmallVector<Operation *, 1>> &frees,
      BlockPlan &top, unsigned &placed, unsigned &left) {
    DenseMap<Operation *, uint64_t> positions;
    uint64_t end = 0;
    for (Operation &op : block)
      positions[&op] = end++;
    DenseSet<Operation *> inArena;
    for (const Item &item : top.items)
      inArena.insert(item.op);
    std::vector<::memsched_core::OutsideSpan> fixed;
    DataLayout layout = DataLayout::closest(block.getParentOp());
    for (Operation &op : block) {
      if (!isa<memref::AllocOp>(op) || inArena.contains(&op))
        continue;
      bool isBound = false;
      std::string why;
      FailureOr<uint64_t> bytes =
          getAllocationSize(&op, layout, getPlacementModel(), isBound, why);
      if (failed(bytes))
        continue;
      uint64_t last = end - 1;
      if (auto it = frees.find(&op); it != frees.end() &&
                                     it->second.size() == 1 &&
                                     it->second.front()->getBlock() == &block)
        last = positions.lookup(it->second.front());
      fixed.push_back({positions.lookup(&op), last, *bytes});
    }
    // Over ranges, loops and branches keep their buffers sized by the
    // dynamic sizes outside the arena: what they need inside counts as a
    // buffer outside while they run (at the upper ends; the planned memory
    // is proved afterwards), so that phases can cut around them.
    if (range)
      for (Operation &op : block)
        if (auto it = nestedOutside.find(&op); it != nestedOutside.end())
          fixed.push_back(
              {positions.lookup(&op), positions.lookup(&op), it->second});
    std::vector<::memsched_core::ArenaBuffer> buffers;
    for (const Item &item : top.items)
      buffers.push_back({item.size, item.first, item.last, item.alignment});
    // One arena as placed (with the search) when it needs no more than the
    // buffers where they are: nothing to cut.
    std::vector<uint32_t> everyBuffer(buffers.size());
    for (uint32_t i = 0; i < everyBuffer.size(); ++i)
      everyBuffer[i] = i;
    uint64_t unplanned = ::memsched_core::phaseMemory(buffers, fixed, {}, {});
    oneArenaMemory = ::memsched_core::phaseMemory(buffers, fixed, {everyBuffer},
                                                  {top.size});
    oneArenaSize = top.size;
    oneArenaIdeal = top.plan.ideal;
    oneArenaProved = top.plan.optimal && !searchStopped(top);
    if (oneArenaMemory <= unplanned) {
      std::vector<BlockPlan> phases;
      phases.push_back(std::move(top));
      return phases;
    }
    std::vector<uint64_t> cuts = ::memsched_core::candidatePhaseCuts(
        buffers, fixed, top.size > top.plan.ideal ? top.size - top.plan.ideal
                                                  : 0);
    ::memsched_core::ArenaPhases chosen =
        ::memsched_core::choosePhases(buffers, fixed, cuts);
    // A phase of one buffer is that buffer: beside phases that share bytes,
    // it stays an allocation (an arena would take the same bytes over the
    // same ops).
    bool anyShared = llvm::any_of(chosen.phases, [](const auto &phase) {
      return phase.size() > 1;
    });
    for (auto it = chosen.phases.begin(); anyShared && it != chosen.phases.end();) {
      if (it->size() == 1 && top.items[it->front()].kind == Item::Kind::Alloc) {
        chosen.outside.push_back(it->front());
        it = chosen.phases.erase(it);
      } else {
        ++it;
      }
    }
    for (uint32_t i : chosen.outside) {
      Item &item = top.items[i];
      if (item.kind != Item::Kind::Alloc)
        continue;
      if (emitRemarks && !chosen.phases.empty())
        emitRemark(item.op->getLoc())
            << "memsched-plan-arena: allocation left outside the arenas "
               "by phase: it is live across a cut between phases (where a "
               "buffer outside, a returned result say, is allocated or "
               "freed), or in a phase whose buffers need less memory "
               "without an arena";
      --placed;
      ++left;
    }
    std::vector<BlockPlan> phases;
    for (const std::vector<uint32_t> &members : chosen.phases) {
      BlockPlan plan;
      std::vector<::memsched_core::ArenaBuffer> mine;
      for (uint32_t i : members) {
        plan.items.push_back(std::move(top.items[i]));
        mine.push_back(buffers[i]);
        plan.alignment = std::max(plan.alignment, buffers[i].alignment);
      }
      // Placed again, with the search.
      plan.plan = placeBuffers(mine);
      plan.size = plan.plan.arenaSize;
      for (unsigned i = 0; i < plan.items.size(); ++i)
        plan.items[i].offset = plan.plan.offsets[i];
      phases.push_back(std::move(plan));
    }
    return phases;
  }

  Arena createArena(ModuleOp module, func::FuncOp func, const BlockPlan &top) {
    MLIRContext *ctx = func.getContext();
    Block &body = func.getBody().front();
    Location loc = func.getLoc();
    bool dynamic = isDynamicArena(top);
    auto type = MemRefType::get(
        {dynamic ? ShapedType::kDynamic : static_cast<int64_t>(top.size)},
        IntegerType::get(ctx, 8));
    OpBuilder b = OpBuilder::atBlockBegin(&body);
    StringRef marker = MemSchedDialect::getArenaAttrName();
    Arena arena;
    arena.kind = funcKind;
    arena.size = top.size;
    switch (funcKind) {
    case ArenaKind::Alloc: {
      // The arena lives from its first buffer to its last one: buffers left
      // outside (a returned result) do not stack on top of it.
      Operation *firstOp = nullptr, *lastOp = nullptr;
      uint64_t first = UINT64_MAX, last = 0;
      for (const Item &item : top.items) {
        if (item.first < first) {
          first = item.first;
          firstOp = item.op;
        }
        if (!lastOp || item.last >= last) {
          last = item.last;
          lastOp = item.kind == Item::Kind::Alloc ? item.dealloc : item.op;
        }
      }
      b.setInsertionPoint(firstOp);
      SmallVector<Value, 1> dynamicSizes;
      if (dynamic)
        dynamicSizes.push_back(
            materializeMaxOfPolys(b, loc, top.sizeExpr, [&](unsigned s) {
              return materializeSymbol(b, loc, func, range->symbols, s);
            }));
      auto alloc = memref::AllocOp::create(b, loc, type, dynamicSizes,
                                           b.getI64IntegerAttr(top.alignment));
      alloc->setAttr(marker, b.getUnitAttr());
      b.setInsertionPointAfter(lastOp);
      memref::DeallocOp::create(b, loc, alloc);
      arena.value = alloc;
      if (dynamic)
        arena.dynamicSize = dynamicSizes.front();
      break;
    }
    case ArenaKind::Argument: {
      unsigned index = func.getNumArguments();
      (void)func.insertArgument(index, type,
                                b.getDictionaryAttr(b.getNamedAttr(
                                    marker, b.getUnitAttr())),
                                loc);
      arena.value = func.getArgument(index);
      break;
    }
    case ArenaKind::Global: {
      OpBuilder mb = OpBuilder::atBlockBegin(module.getBody());
      mb.setInsertionPoint(func);
      auto global = memref::GlobalOp::create(
          mb, loc, (func.getSymName() + "_arena").str(),
          mb.getStringAttr("private"), type, mb.getUnitAttr(),
          /*constant=*/false, mb.getI64IntegerAttr(top.alignment));
      global->setAttr(marker, mb.getUnitAttr());
      SymbolTable(module).insert(global);
      arena.global = global;
      arena.value =
          memref::GetGlobalOp::create(b, loc, type, global.getSymName());
      break;
    }
    }
    return arena;
  }

  /// Where an item of a block starts: `poly`, rounded up to `roundTo` at
  /// run time when it is not 0, plus `extra` bytes.
  struct Start {
    ::memsched_core::SizePoly poly;
    uint64_t roundTo = 0, extra = 0;
  };

  /// `start` as index arithmetic at the builder's insertion point (an
  /// offset rounded up as ((x + a - 1) / a) * a, which the placement check
  /// of Arena.cpp reads back).
  Value materializeStart(OpBuilder &b, Location loc, const Start &start) {
    if (!start.roundTo && start.poly.isConstant())
      return arith::ConstantIndexOp::create(
          b, loc, start.poly.constantTerm() + start.extra);
    Value x = materializeMaxOfPolys(b, loc, {start.poly}, [&](unsigned s) {
      return materializeSymbol(b, loc, currentFunc, range->symbols, s);
    });
    if (start.roundTo > 1) {
      Value a = arith::ConstantIndexOp::create(b, loc, start.roundTo);
      Value up = arith::AddIOp::create(
          b, loc, x, arith::ConstantIndexOp::create(b, loc, start.roundTo - 1));
      x = arith::MulIOp::create(b, loc, arith::DivUIOp::create(b, loc, up, a),
                                a);
    }
    if (start.extra)
      x = arith::AddIOp::create(
          b, loc, x, arith::ConstantIndexOp::create(b, loc, start.extra));
    return x;
  }

  /// Rewrites the items of `plan` into views of `arena`, the block's
  /// offsets counted from `base` (a slot's start; none at the top).
  void rewriteBlock(BlockPlan &plan, const std::optional<Start> &base,
                    Value arena) {
    for (Item &item : plan.items) {
      Start start;
      if (base) {
        start = *base;
        start.extra += item.offset;
      } else if (item.offsetPoly) {
        start.poly = *item.offsetPoly;
        start.roundTo = item.roundUp ? item.alignment : 0;
      } else {
        start.poly = ::memsched_core::SizePoly::constant(item.offset);
      }
      switch (item.kind) {
      case Item::Kind::Slot:
        for (auto &child : item.children)
          rewriteBlock(*child, start, arena);
        break;
      case Item::Kind::Alloc: {
        auto alloc = cast<memref::AllocOp>(item.op);
        OpBuilder b(alloc);
        Value shift = materializeStart(b, alloc.getLoc(), start);
        Value view = memref::ViewOp::create(b, alloc.getLoc(), alloc.getType(),
                                            arena, shift,
                                            alloc.getDynamicSizes());
        alloc.getResult().replaceAllUsesWith(view);
        item.dealloc->erase();
        alloc.erase();
        break;
      }
      case Item::Kind::Call: {
        OpBuilder b(item.op);
        Location loc = item.op->getLoc();
        Value shift = materializeStart(b, loc, start);
        auto type = MemRefType::get({static_cast<int64_t>(item.size)},
                                    b.getI8Type());
        Value view =
            memref::ViewOp::create(b, loc, type, arena, shift, ValueRange());
        item.op->insertOperands(item.op->getNumOperands(), view);
        break;
      }
      }
    }
  }

  /// Calls to a function planned with arena=argument that could not be
  /// given a slot of their caller's arena: a buffer of the callee's arena
  /// size allocated around the call.
  void passArenasAroundCalls(ModuleOp module) {
    module.walk([&](func::CallOp call) {
      auto callee = dyn_cast_or_null<func::FuncOp>(call.resolveCallable());
      if (!callee)
        return;
      auto it = argumentCallees.find(callee);
      if (it == argumentCallees.end() ||
          call.getNumOperands() + 1 != callee.getNumArguments())
        return;
      OpBuilder b(call);
      auto type = MemRefType::get({static_cast<int64_t>(it->second.size)},
                                  b.getI8Type());
      auto alloc = memref::AllocOp::create(
          b, call.getLoc(), type, b.getI64IntegerAttr(it->second.alignment));
      call->insertOperands(call->getNumOperands(), alloc.getResult());
      b.setInsertionPointAfter(call);
      memref::DeallocOp::create(b, call.getLoc(), alloc);
    });
  }
};
} // namespace
