//===- Split.cpp - run the layers that set the peak in fragments -*- C++ -*-===//
//
// --memsched-split: rewrites that lower the memory live at once without
// changing what any op computes. Pad absorption: a materialised pad
//   %P = memref.alloc; fill %P; %S = memref.subview %P[interior];
//   memref.copy %X, %S; memref.dealloc %X
// where the structured ops that use %X (its producer, elementwise ops in
// place) can write %S instead, becomes those ops writing the interior of
// %P directly: %P, its fill and %S move before %X's allocation, %X and the
// copy go (docs/split.md).
//
//===----------------------------------------------------------------------===//

#include "Analysis/MemSched/BodyLifetimes.h"
#include "Analysis/Graph/SegmentChoice.h"
#include "Analysis/MemSched/CallGraph.h"
#include "Analysis/MemSched/ComputeCost.h"
#include "Analysis/MemSched/MemorySpaces.h"
#include "Dialect/MemSched/MemSchedDialect.h"
#include "Transforms/MemSched/Certificate.h"
#include "Transforms/MemSched/ChannelGroups.h"
#include "Transforms/MemSched/InPlace.h"
#include "Transforms/MemSched/MemSched.h"
#include "Transforms/MemSched/Passes.h"
#include "Transforms/MemSched/Reorder.h"
#include "Transforms/MemSched/RowBands.h"
#include "Transforms/MemSched/SplitBound.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"

#include <set>
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir {
namespace memsched {
#define GEN_PASS_DEF_SPLIT
#include "Transforms/MemSched/Passes.h.inc"
} // namespace memsched
} // namespace mlir

using namespace mlir;
using namespace mlir::memsched;

namespace {
/// A materialised pad that can be absorbed.
struct Pad {
  memref::CopyOp copy;
  memref::AllocOp source, padded;
  memref::SubViewOp interior;
  Operation *fill = nullptr;
  Operation *sourceFree = nullptr;
  /// A view of the copied buffer that only its free uses, if it is freed
  /// through one.
  Operation *freedView = nullptr;
  /// Constants the fill uses, defined after the copied buffer's
  /// allocation: they move with the fill.
  SmallVector<Operation *> constants;
};
} // namespace

/// Whether `op` sets every element of `buffer` to one value computed
/// outside it: linalg.fill, or a linalg.map / linalg.generic without inputs
/// whose body yields a value defined outside, over all of `buffer`.
static bool isFillOf(Operation *op, Value buffer) {
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    return fill.getOutputs().size() == 1 && fill.getOutputs()[0] == buffer;
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !isa<linalg::MapOp, linalg::GenericOp>(op) ||
      linalgOp.getNumDpsInputs() != 0 || linalgOp.getNumDpsInits() != 1 ||
      linalgOp.getDpsInits()[0] != buffer ||
      !llvm::all_of(linalgOp.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }) ||
      linalgOp.getNumParallelLoops() != linalgOp.getNumLoops())
    return false;
  Block &body = op->getRegion(0).front();
  if (!body.without_terminator().empty())
    return false;
  Operation *yield = body.getTerminator();
  if (yield->getNumOperands() != 1)
    return false;
  Operation *owner = yield->getOperand(0).getParentRegion()->getParentOp();
  return owner != op && !op->isProperAncestor(owner);
}

/// Whether `op` may take a strided view where it now takes the identity
/// buffer: structured ops and copies read and write their operands through
/// their layouts.
static bool takesAnyLayout(Operation *op) {
  return isa<linalg::LinalgOp, memref::CopyOp>(op);
}

/// The pad `copy` is the copy of, or nullopt when it is no pad (`why`
/// empty) or a pad that cannot be absorbed (`why` says why).
static std::optional<Pad> matchPad(memref::CopyOp copy, DominanceInfo &dom,
                                   std::string &why) {
  why.clear();
  Block *block = copy->getBlock();
  auto interior = copy.getTarget().getDefiningOp<memref::SubViewOp>();
  if (!interior || interior->getBlock() != block)
    return std::nullopt;
  auto padded = interior.getSource().getDefiningOp<memref::AllocOp>();
  if (!padded || padded->getBlock() != block)
    return std::nullopt;
  Pad pad;
  pad.copy = copy;
  pad.padded = padded;
  pad.interior = interior;
  // The padded buffer: filled, then only the interior view before the copy.
  Operation *other = nullptr;
  for (Operation *user : padded->getUsers()) {
    Operation *top = block->findAncestorOpInBlock(*user);
    if (user == interior || !top || copy->isBeforeInBlock(top))
      continue;
    if (top != user) {
      other = user;
      continue;
    }
    if (!pad.fill && isFillOf(user, padded) &&
        user->isBeforeInBlock(interior))
      pad.fill = user;
    else
      other = user;
  }
  if (!pad.fill)
    return std::nullopt; // not filled: no pad
  auto fail = [&](const Twine &reason) -> std::optional<Pad> {
    why = reason.str();
    return std::nullopt;
  };
  if (other)
    return fail("the padded buffer is also used by " +
                other->getName().getStringRef() + " before the copy");
  if (!padded.getType().hasStaticShape() || !interior.getType().hasStaticShape() ||
      !llvm::all_of(interior.getStaticStrides(),
                    [](int64_t s) { return s == 1; }) ||
      !interior.getOffsets().empty() || !interior.getSizes().empty() ||
      !interior.getStrides().empty())
    return fail("the interior is not a static unit-stride view of a static "
                "buffer");
  if (!interior->hasOneUse())
    return fail("the interior view has other uses than the copy");
  auto source = copy.getSource().getDefiningOp<memref::AllocOp>();
  if (!source || source->getBlock() != block)
    return fail("the copied buffer is not an allocation of this block");
  if (!source.getType().hasStaticShape() ||
      !source.getType().getLayout().isIdentity() ||
      source.getType().getMemorySpace() != padded.getType().getMemorySpace())
    return fail("the copied buffer is not a static buffer of the padded "
                "buffer's memory space");
  pad.source = source;
  for (Operation *user : source->getUsers()) {
    if (user == copy)
      continue;
    if (user->getBlock() != block)
      return fail("the copied buffer is used in a nested region, by " +
                  user->getName().getStringRef());
    // Its free: of the buffer, or of a view of it that nothing else uses
    // (memref.cast, collapse_shape, ...).
    Operation *free = user;
    if (auto view = dyn_cast<ViewLikeOpInterface>(user);
        view && isMemoryEffectFree(user) && user->getNumResults() == 1 &&
        user->getResult(0).hasOneUse() &&
        isa<memref::DeallocOp>(*user->getResult(0).user_begin()))
      free = *user->getResult(0).user_begin();
    if (isa<memref::DeallocOp>(free)) {
      if (pad.sourceFree || !copy->isBeforeInBlock(user) ||
          free->getBlock() != block)
        return fail("the copied buffer is freed before the copy, or twice");
      pad.sourceFree = free;
      if (free != user)
        pad.freedView = user;
      continue;
    }
    if (!user->isBeforeInBlock(copy))
      return fail("the copied buffer is used after the copy, by " +
                  user->getName().getStringRef());
    if (!takesAnyLayout(user))
      return fail("the copied buffer is used by " +
                  user->getName().getStringRef() +
                  ", which may not take a strided view of the padded buffer");
  }
  if (!pad.sourceFree)
    return fail("the copied buffer is not freed after the copy");
  // The padded buffer, its fill and its interior view move before the
  // copied buffer's allocation: what the fill reads must be there already.
  bool late = false;
  pad.fill->walk([&](Operation *op) {
    for (Value operand : op->getOperands()) {
      if (operand == padded.getResult() ||
          pad.fill->isAncestor(operand.getParentRegion()->getParentOp()) ||
          dom.properlyDominates(operand, source))
        continue;
      // A constant computed late moves with the fill.
      Operation *def = operand.getDefiningOp();
      if (def && def->getBlock() == block && def->getNumOperands() == 0 &&
          def->hasTrait<OpTrait::ConstantLike>()) {
        if (!llvm::is_contained(pad.constants, def))
          pad.constants.push_back(def);
        continue;
      }
      late = true;
    }
  });
  if (late)
    return fail("the fill's value is computed after the copied buffer is "
                "allocated");
  if (!padded->getOperands().empty())
    return fail("the padded buffer has dynamic sizes");
  return pad;
}

/// Rewrites `pad`: the ops on the copied buffer write the interior.
static void absorb(Pad pad) {
  Operation *first = pad.source;
  for (Operation *constant : pad.constants)
    constant->moveBefore(first);
  pad.padded->moveBefore(first);
  pad.fill->moveBefore(first);
  pad.interior->moveBefore(first);
  Value interior = pad.interior.getResult();
  pad.source.getResult().replaceUsesWithIf(interior, [&](OpOperand &use) {
    return use.getOwner() != pad.copy && use.getOwner() != pad.sourceFree &&
           use.getOwner() != pad.freedView;
  });
  pad.copy->erase();
  pad.sourceFree->erase();
  if (pad.freedView)
    pad.freedView->erase();
  pad.source->erase();
}

/// The most channel chains of a function whose groups the pass chooses (the
/// ones holding the most intermediate bytes): each costs a few analyses of
/// the whole body.
static constexpr unsigned kMaxChains = 64;

/// Row bands: candidate outputs per position searched (the reach of a
/// segment is RowBands.h's kMaxBandDepth), candidate rewrites evaluated per
/// function (each costs an analysis of the body), positions searched, and
/// band counts tried per segment.
static constexpr unsigned kMaxBandOutputs = 6;
static constexpr unsigned kMaxBandEvaluations = 96;
static constexpr unsigned kMaxBandRounds = 16;
static constexpr unsigned kMaxBandLevels = 4;
/// The attribute that carries a top-level op's position while the band
/// search runs (removed before it returns).
static constexpr llvm::StringLiteral kPositionAttr = "memsched.split.position";
/// The op of the body before the bands that a top-level op is (a copy of),
/// while the chains of the banded body are compared with the chains before.
static constexpr llvm::StringLiteral kOriginAttr = "memsched.split.origin";
/// Bands are unrolled (each band's buffers have their own static shapes):
/// a segment's ops times its bands is at most this (the code a split adds).
static constexpr uint64_t kMaxBandCopies = 256;
/// A level of the band search is kept when it lowers the peak by at least
/// this fraction of it (1/kMinBandGain): less is not worth the code.
static constexpr uint64_t kMinBandGain = 100;
static constexpr unsigned kMaxBandCountsPerSegment = 4;

namespace {
/// The peaks a rewrite must not raise: the body's peak as written in all
/// spaces together and, for a body that allocates in several memory spaces,
/// each space's peak in each block (the promise --memsched-schedule makes:
/// no space's peak goes up anywhere). Scheduled, each space's peak and the
/// total (blocks are each the schedule's to order).
struct Peaks {
  SmallVector<uint64_t> values;
  /// What each value is the peak of, for remarks.
  SmallVector<std::string> names;
  /// Every value of `this` is at most the same value of `other`.
  bool notAbove(const Peaks &other) const {
    if (values.size() != other.values.size())
      return false;
    for (auto [a, b] : llvm::zip(values, other.values))
      if (a > b)
        return false;
    return true;
  }
  /// The first value: the peak in all spaces together.
  uint64_t total() const { return values.empty() ? 0 : values.front(); }
  /// "the peak ... of X would go from A to B bytes" for the first value of
  /// `this` above `other`'s.
  std::string describeRise(const Peaks &other, StringRef what) const {
    for (auto [i, pair] : llvm::enumerate(llvm::zip(values, other.values)))
      if (std::get<0>(pair) > std::get<1>(pair))
        return (Twine(what) + (names[i].empty() ? "" : " ") + names[i] +
                " would be " +
                Twine(std::get<0>(pair)) + " bytes, above " +
                Twine(std::get<1>(pair)) + " bytes")
            .str();
    return (Twine(what) + " could not be compared").str();
  }
};

/// The memory of one block by the positions of its ops as they stood
/// when the search marked them (`name`: the attribute; `count` of them):
/// `memory[p]`, the most bytes live while the op that stood at p runs;
/// `floor`, the largest peak as written of the other blocks. `block`:
/// which (none: the block of the peak, set once taken).
struct Profile {
  std::optional<unsigned> block;
  StringAttr name;
  unsigned count = 0;
  std::vector<uint64_t> memory;
  uint64_t floor = 0;
};

/// Replaces `func`'s body with a copy of `base`'s; `map` takes base's ops
/// to their copies.
static void cloneBodyInto(func::FuncOp func, Operation *base, IRMapping &map) {
  Region &body = func.getBody();
  body.dropAllReferences();
  body.getBlocks().clear();
  base->getRegion(0).cloneInto(&body, map);
}

/// `chain` on the copy of its body that `map` leads to.
static ChannelChain mappedChain(const ChannelChain &chain,
                                const IRMapping &map) {
  ChannelChain copy = chain;
  for (Operation *&op : copy.ops)
    op = map.lookup(op);
  for (auto &[alloc, d] : copy.buffers)
    alloc = cast<memref::AllocOp>(map.lookup(alloc.getOperation()));
  for (Operation *&op : copy.sunkFrees)
    op = map.lookup(op);
  return copy;
}

/// The chains of every block under one selection (ChainSelection: the
/// first set of a block, the largest first; its last, the most bytes), with
/// those it leaves out added to `leftOut`.
static std::vector<ChannelChain>
selectedChains(ArrayRef<SmallVector<ChainSet, 2>> blockSets, bool mostBytes,
               SmallVectorImpl<RefusedChain> *leftOut = nullptr) {
  std::vector<ChannelChain> chains;
  for (const SmallVector<ChainSet, 2> &sets : blockSets) {
    const ChainSet &set = mostBytes ? sets.back() : sets.front();
    llvm::append_range(chains, set.chains);
    if (leftOut)
      leftOut->append(set.leftOut.begin(), set.leftOut.end());
  }
  return chains;
}

struct SplitPass : public mlir::memsched::impl::SplitBase<SplitPass> {
  using SplitBase::SplitBase;

  void runOnOperation() override {
    if (failed(parseMemorySpaceOption(memorySpace, getOperation(),
                                      "memsched-split", chosenSpace)))
      return signalPassFailure();
    sizes.countAlignmentPadding = countAlignmentPadding;
    for (func::FuncOp func : getFunctionsCalleesFirst(getOperation()))
      if (!func.isExternal())
        runOnFunction(func);
  }

  void runOnFunction(func::FuncOp func) {
    SmallVector<Attribute> spaces = collectMemorySpaces(func);
    if (hasOnlyDefaultSpace(spaces))
      spaces.clear();
    std::optional<Peaks> before = peaksAsWritten(func, spaces);
    // The compute the bands may add: a fraction of the function's as given.
    allowance = computeAllowance(func);
    Operation *unsplit = func->clone();
    // The bound over the family: the body as given (unsplit), and each
    // variant's body after in place and pads, in channel groups of any
    // sizes.
    std::string why;
    keptRecomputation = false;
    familyBound = computeSplitBound(func, sizes, why, /*splits=*/false);
    auto lowerFamilyBound = [&](const std::optional<SplitBound> &bound) {
      if (!bound)
        familyBound.reset();
      else if (familyBound && bound->value < familyBound->value)
        familyBound = bound;
    };
    // The rewrites with the ops in place first (a pad then absorbs the ops
    // on one buffer) and, when some op went in place, without (and without
    // row bands, the costly search): one buffer for two can keep a chain
    // from forming. The lower peak as written wins.
    pending.clear();
    Variant variant = rewrite(func, spaces, before, /*inPlaceFirst=*/true);
    if (variant.current)
      lowerFamilyBound(variant.bound);
    if (variant.inPlace) {
      Operation *withInPlace = func->clone();
      Pending withRemarks = std::move(pending);
      pending.clear();
      restoreBody(func, unsplit);
      Variant without = rewrite(func, spaces, before, /*inPlaceFirst=*/false);
      if (without.current)
        lowerFamilyBound(without.bound);
      if (without.current &&
          (!variant.current ||
           (without.current->notAbove(*variant.current) &&
            without.current->total() < variant.current->total()))) {
        variant = without;
      } else {
        restoreBody(func, withInPlace);
        pending = std::move(withRemarks);
      }
      withInPlace->erase();
    }
    std::optional<Peaks> current = variant.current;
    unsigned inPlace = variant.inPlace, absorbed = variant.absorbed,
             banded = variant.banded, grouped = variant.grouped,
             byColumns = variant.byColumns;
    uint64_t extraCompute = variant.extraCompute;
    numKept += pending.padsKept;
    if (!inPlace && !absorbed && !grouped && !banded) {
      flushRemarks();
      writeReport(func, false,
                  before ? "nothing to split"
                         : "the function's memory cannot be analysed",
                  before ? std::optional<uint64_t>(before->total())
                         : std::nullopt,
                  std::nullopt, std::nullopt, 0, 0, 0);
      unsplit->erase();
      return;
    }
    // (Without the certificate: one proving the unsplit order optimal would
    // make the scheduler skip the body.)
    Attribute certificate =
        func->getAttr(MemSchedDialect::getCertificateAttrName());
    func->removeAttr(MemSchedDialect::getCertificateAttrName());
    std::optional<Peaks> split = scheduledPeaks(func, spaces);
    Operation *splitBody = func->clone();
    restoreBody(func, unsplit);
    std::optional<Peaks> plain = scheduledPeaks(func, spaces);
    if (!split || (plain && !split->notAbove(*plain) && !testAllBands)) {
      restoreBody(func, unsplit);
      if (certificate)
        func->setAttr(MemSchedDialect::getCertificateAttrName(), certificate);
      splitBody->erase();
      unsplit->erase();
      numKept += absorbed;
      flushRemarks();
      std::string why = !split ? "it could not be scheduled"
                               : split->describeRise(*plain,
                                                     "the scheduled peak");
      if (emitRemarks)
        emitRemark(func.getLoc())
            << "memsched-split: '" << func.getSymName()
            << "' left as it is: split ("
            << describe(inPlace, absorbed, banded, grouped, byColumns)
            << "), " << why;
      writeReport(func, false, why, before->total(), std::nullopt,
                  plain ? std::optional<uint64_t>(plain->total())
                        : std::nullopt,
                  inPlace, absorbed, 0);
      return;
    }
    restoreBody(func, splitBody);
    splitBody->erase();
    unsplit->erase();
    numInPlace += inPlace;
    numAbsorbed += absorbed;
    numGrouped += grouped;
    numBanded += banded;
    flushRemarks();
    uint64_t extraPpm =
        extraCompute * 1000000 / std::max<uint64_t>(1, functionCost);
    if (extraCompute)
      func->setAttr(MemSchedDialect::getExtraComputeAttrName(),
                    IntegerAttr::get(IntegerType::get(func.getContext(), 64),
                                     extraPpm));
    keptRecomputation = extraCompute > 0;
    writeReport(func, true, "", before->total(), current->total(),
                split->total(), inPlace, absorbed, extraPpm);
    // The body changed: a certificate it had describes another body.
    func->removeAttr(MemSchedDialect::getCertificateAttrName());
    if (emitRemarks)
      emitRemark(func.getLoc())
          << "memsched-split: '" << func.getSymName()
          << "': " << describe(inPlace, absorbed, banded, grouped, byColumns)
          << ", peak as written " << before->total() << " -> "
          << current->total() << " bytes, scheduled " << split->total()
          << " bytes" << describeBound(split->total(), extraCompute > 0);
  }

  /// "; no split without recomputation peaks below N bytes (gap G%)", or
  /// nothing when the bound is unknown.
  std::string describeBound(uint64_t peak, bool recomputes) const {
    if (!familyBound)
      return "";
    std::string text =
        (Twine("; no split without recomputation peaks below ") +
         Twine(familyBound->value) + " bytes")
            .str();
    if (recomputes)
      text += " (this split recomputes: outside that family)";
    else if (familyBound->value && peak >= familyBound->value)
      text += llvm::formatv(" (gap {0:F1}%)",
                            100.0 * static_cast<double>(peak - familyBound->value) /
                                static_cast<double>(familyBound->value))
                  .str();
    return text;
  }

  /// What one sequence of the rewrites did.
  struct Variant {
    std::optional<Peaks> current;
    unsigned inPlace = 0, absorbed = 0, banded = 0, grouped = 0;
    /// Of the segments run by bands, those by bands of columns (of a band
    /// of rows: 2-D patches).
    unsigned byColumns = 0;
    uint64_t extraCompute = 0;
    /// The bound over the splits into channel groups of the body after in
    /// place and pads, if it could be computed.
    std::optional<SplitBound> bound;
  };

  /// Whether every chain of `func`'s banded body (either selection) is
  /// made of band copies of the ops of one chain of the body before the
  /// bands (`unbanded`), each along the same loop, by the origin each op
  /// carries.
  static bool chainsCoveredByOrigin(func::FuncOp func, Operation *unbanded,
                                    StringAttr originName) {
    using Origins = llvm::SmallDenseSet<std::pair<int64_t, unsigned>, 16>;
    auto originsOf = [&](const ChannelChain &chain) {
      Origins origins;
      for (auto [op, loop] : llvm::zip(chain.ops, chain.loopDims)) {
        auto origin = op->getAttrOfType<IntegerAttr>(originName);
        origins.insert({origin ? origin.getInt() : -1, loop});
      }
      return origins;
    };
    std::vector<Origins> before;
    for (Block &block : unbanded->getRegion(0)) {
      SmallVector<RefusedChain> refused;
      for (ChainSet &set : findChannelChainSets(block, refused))
        for (const ChannelChain &chain : set.chains)
          before.push_back(originsOf(chain));
    }
    for (Block &block : func.getBody()) {
      SmallVector<RefusedChain> refused;
      for (ChainSet &set : findChannelChainSets(block, refused))
        for (const ChannelChain &chain : set.chains) {
          Origins origins = originsOf(chain);
          bool covered = llvm::any_of(before, [&](const Origins &other) {
            return llvm::all_of(origins, [&](const auto &o) {
              return o.first >= 0 && other.contains(o);
            });
          });
          if (!covered)
            return false;
        }
    }
    return true;
  }

  /// In place and row bands (when `inPlaceFirst`), pads, channel groups
  /// on `func`'s body as it is; `before`: its peaks as written.
  Variant rewrite(func::FuncOp func, ArrayRef<Attribute> spaces,
                  const std::optional<Peaks> &before, bool inPlaceFirst) {
    Variant v;
    v.current = before;
    if (before && inPlaceFirst) {
      v.inPlace = makeInPlace(func);
      if (v.inPlace)
        v.current = peaksAsWritten(func, spaces);
    }
    v.absorbed = absorbPads(func, spaces, v.current.has_value(), v.current);
    if (!v.current)
      return v;
    std::string why;
    // Row bands are searched with the ops in place only.
    v.bound = computeSplitBound(func, sizes, why, /*splits=*/true,
                                /*bands=*/inPlaceFirst);
    // Row bands, then channel groups (in the bands too); with bands, the
    // channel groups alone as well: the bands stay only where they end
    // lower.
    // Each top-level op carries its origin through the bands (a band's
    // copy of an op keeps its attributes) while the chains are compared.
    MLIRContext *context = func.getContext();
    auto originName = StringAttr::get(context, kOriginAttr);
    if (inPlaceFirst) {
      int64_t next = 0;
      for (Block &block : func.getBody())
        for (Operation &op : block)
          op.setAttr(originName, IntegerAttr::get(IntegerType::get(context, 64),
                                                  next++));
    }
    llvm::scope_exit unmark([&] {
      if (inPlaceFirst)
        func.walk([&](Operation *op) { op->removeAttr(originName); });
    });
    Operation *unbanded = func->clone();
    std::optional<Peaks> unbandedPeaks = v.current;
    if (inPlaceFirst)
      v.banded = testAllBands ? bandEverySegment(func, spaces, *v.current,
                                                 v.extraCompute, v.byColumns)
                              : bandRows(func, spaces, *v.current, allowance,
                                         v.extraCompute, v.byColumns);
    // The bound's family holds the chains of the body before the bands,
    // run in the bands too. A band's ops can form a chain no ops of the
    // whole body do (an op writing a band of a buffer that a chain of the
    // whole body could not reach): then the bound also covers the splits
    // of the banded body into channel groups, the lesser of the two.
    std::optional<SplitBound> bandedBound;
    bool bandedChainsCovered = true;
    if (v.banded) {
      bandedChainsCovered = chainsCoveredByOrigin(func, unbanded, originName);
      if (!bandedChainsCovered) {
        std::string bandedWhy;
        bandedBound = computeSplitBound(func, sizes, bandedWhy,
                                        /*splits=*/true, /*bands=*/false);
      }
    }
    auto withBandedBound = [&] {
      if (!v.bound || bandedChainsCovered)
        return;
      if (!bandedBound) {
        v.bound.reset();
        return;
      }
      if (bandedBound->value < v.bound->value)
        v.bound = bandedBound;
    };
    v.grouped = groupChannels(func, spaces, *v.current);
    if (v.banded && testAllBands)
      withBandedBound();
    if (v.banded && !testAllBands) {
      Operation *withBands = func->clone();
      Peaks withPeaks = *v.current;
      Pending withRemarks = std::move(pending);
      unsigned groupedWithBands = v.grouped;
      pending.clear();
      pending.padsKept = withRemarks.padsKept;
      restoreBody(func, unbanded);
      v.current = unbandedPeaks;
      v.grouped = groupChannels(func, spaces, *v.current);
      if (withPeaks.notAbove(*v.current) &&
          withPeaks.total() < v.current->total()) {
        restoreBody(func, withBands);
        v.current = withPeaks;
        v.grouped = groupedWithBands;
        pending = std::move(withRemarks);
        withBandedBound();
      } else {
        v.banded = 0;
        v.byColumns = 0;
        v.extraCompute = 0;
      }
      withBands->erase();
    }
    unbanded->erase();
    return v;
  }

  static std::string describe(unsigned inPlace, unsigned absorbed,
                              unsigned banded, unsigned grouped,
                              unsigned byColumns) {
    SmallVector<std::string> parts;
    auto count = [](unsigned n, StringRef one, StringRef many) {
      return std::to_string(n) + " " + (n == 1 ? one : many).str();
    };
    if (inPlace)
      parts.push_back(count(inPlace, "op", "ops") + " in place");
    if (absorbed)
      parts.push_back(count(absorbed, "pad", "pads") + " absorbed");
    if (banded && !byColumns)
      parts.push_back(count(banded, "segment", "segments") +
                      " run by row bands");
    else if (banded)
      parts.push_back(count(banded, "segment", "segments") +
                      " run by row bands (" +
                      (banded == byColumns ? std::string("all")
                                           : std::to_string(byColumns)) +
                      " by columns)");
    if (grouped)
      parts.push_back(count(grouped, "chain", "chains") +
                      " run by channel groups");
    return llvm::join(parts, ", ");
  }

  /// Elementwise ops whose input dies at them write it instead of a fresh
  /// output (never more bytes live at any point: the input lives on
  /// exactly while the output would have). Returns how many.
  unsigned makeInPlace(func::FuncOp func) {
    SmallVector<linalg::LinalgOp> ops;
    func.walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    unsigned count = 0;
    for (linalg::LinalgOp op : ops)
      if (std::optional<InPlaceOp> match = matchInPlace(op)) {
        mlir::memsched::writeInPlace(*match);
        ++count;
      }
    return count;
  }

  /// Pad absorption, pad by pad, each kept when no peak as written goes
  /// up (`current`: the peaks of the body as it is). Returns the pads
  /// absorbed.
  unsigned absorbPads(func::FuncOp func, ArrayRef<Attribute> spaces,
                      bool analysed, std::optional<Peaks> &current) {
    unsigned absorbed = 0;
    // The copies in walk order, the next-th examined next: an absorbed pad
    // removes its copy (the following one takes its place), an undone
    // rewrite restores the body (new ops, the same order).
    for (unsigned next = 0;;) {
      SmallVector<memref::CopyOp> copies;
      func.walk([&](memref::CopyOp copy) { copies.push_back(copy); });
      if (next >= copies.size())
        break;
      memref::CopyOp copy = copies[next++];
      DominanceInfo dom(func);
      std::string why;
      std::optional<Pad> pad = matchPad(copy, dom, why);
      if (!pad) {
        if (!why.empty())
          keep(copy, why);
        continue;
      }
      if (!analysed) {
        keep(copy, "the function's memory cannot be analysed, so a rewrite "
                   "could not be shown not to raise its peak");
        continue;
      }
      Operation *saved = func->clone();
      Location at = copy.getLoc();
      absorb(*pad);
      std::optional<Peaks> after = peaksAsWritten(func, spaces);
      if (!after || !after->notAbove(*current)) {
        restoreBody(func, saved);
        saved->erase();
        keep(nullptr, "");
        note(at, "memsched-split: pad left as it is: absorbed, " +
                     (!after ? std::string("the body could not be analysed")
                             : after->describeRise(*current,
                                                   "the peak as written")));
        continue;
      }
      saved->erase();
      current = after;
      ++absorbed;
      --next; // its copy is gone
    }
    return absorbed;
  }

  /// Keeps the kMaxChains chains holding the most intermediate bytes (in
  /// their order).
  static void keepLargestChains(std::vector<ChannelChain> &chains) {
    if (chains.size() <= kMaxChains)
      return;
    std::vector<unsigned> order(chains.size());
    for (unsigned i = 0; i < order.size(); ++i)
      order[i] = i;
    llvm::stable_sort(order, [&](unsigned a, unsigned b) {
      return chains[a].intermediateBytes > chains[b].intermediateBytes;
    });
    order.resize(kMaxChains);
    llvm::sort(order);
    std::vector<ChannelChain> kept;
    for (unsigned i : order)
      kept.push_back(std::move(chains[i]));
    chains = std::move(kept);
  }

  /// Channel groups: every chain of the body's blocks first split into
  /// groups of one channel, kept when no peak as written goes up; then
  /// each kept chain's groups made as large as they can be without raising
  /// a peak above the one all chains reach together (a chain whose groups
  /// can hold all channels is left as it is). Returns the chains split;
  /// `current` becomes the peaks of the body as split.
  unsigned groupChannels(func::FuncOp func, ArrayRef<Attribute> spaces,
                         Peaks &current) {
    Operation *base = func->clone();
    llvm::scope_exit cleanup([&] { base->erase(); });
    // The chains of every block of the body, in order, found once on the
    // body as it is (kept in `base`), under each selection that keeps
    // different ones (ChainSelection): each is tried, the lower peaks kept.
    SmallVector<RefusedChain> refused;
    SmallVector<SmallVector<ChainSet, 2>> blockSets;
    bool twoSelections = false;
    for (Block &block : base->getRegion(0)) {
      blockSets.push_back(findChannelChainSets(block, refused));
      twoSelections |= blockSets.back().size() > 1;
    }
    for (const RefusedChain &refusal : refused)
      note(refusal.at->getLoc(),
           "memsched-split: channel chain left as it is: " + refusal.reason);
    SmallVector<RefusedChain> leftOut;
    Peaks before = current;
    Pending pendingBefore = pending;
    unsigned grouped =
        groupSelected(func, spaces, current, base,
                      selectedChains(blockSets, false, &leftOut));
    if (twoSelections) {
      Operation *first = func->clone();
      Peaks firstPeaks = current;
      Pending firstPending = std::move(pending);
      pending = std::move(pendingBefore);
      restoreBody(func, base);
      current = before;
      SmallVector<RefusedChain> otherLeftOut;
      unsigned otherGrouped =
          groupSelected(func, spaces, current, base,
                        selectedChains(blockSets, true, &otherLeftOut));
      if (current.notAbove(firstPeaks) &&
          current.total() < firstPeaks.total()) {
        grouped = otherGrouped;
        leftOut = std::move(otherLeftOut);
      } else {
        restoreBody(func, first);
        current = firstPeaks;
        pending = std::move(firstPending);
      }
      first->erase();
    }
    for (const RefusedChain &refusal : leftOut)
      note(refusal.at->getLoc(),
           "memsched-split: channel chain left as it is: " + refusal.reason);
    return grouped;
  }

  /// groupChannels on `chains` (of `base`, the body as it was).
  unsigned groupSelected(func::FuncOp func, ArrayRef<Attribute> spaces,
                         Peaks &current, Operation *base,
                         std::vector<ChannelChain> chains) {
    keepLargestChains(chains);
    if (chains.empty())
      return 0;
    SmallVector<int64_t> channels;
    for (const ChannelChain &chain : chains)
      channels.push_back(chain.channels);
    // Applies group sizes (a size equal to the channels: not split) to the
    // body as it was, and returns its peaks as written.
    auto apply = [&](ArrayRef<int64_t> sizes,
                     SmallVectorImpl<ChainSummary> *summaries = nullptr) {
      IRMapping map;
      cloneBodyInto(func, base, map);
      for (auto [chain, size] : llvm::zip(chains, sizes)) {
        if (size >= chain.channels)
          continue;
        ChannelChain copy = mappedChain(chain, map);
        if (summaries)
          summaries->push_back({copy.ops.front()->getLoc(),
                                static_cast<unsigned>(copy.ops.size()),
                                copy.channels, size,
                                copy.intermediateBytes});
        splitIntoChannelGroups(copy, size);
      }
      return peaksAsWritten(func, spaces);
    };
    SmallVector<int64_t> sizes(channels);
    for (unsigned i = 0; i < sizes.size(); ++i) {
      sizes[i] = 1;
      std::optional<Peaks> after = apply(sizes);
      if (after && after->notAbove(current))
        current = *after;
      else
        sizes[i] = channels[i];
    }
    Peaks target = current;
    for (unsigned i = 0; i < sizes.size(); ++i) {
      if (sizes[i] == channels[i])
        continue;
      // Unsplit first: groups that do not lower the peak only cost loops
      // (and keep the chain's inputs alive through the loop).
      sizes[i] = channels[i];
      std::optional<Peaks> unsplitPeaks = apply(sizes);
      if (unsplitPeaks && unsplitPeaks->notAbove(target))
        continue;
      SmallVector<int64_t> candidates = channelGroupSizes(channels[i]);
      candidates.push_back(channels[i]);
      // The largest group size that keeps every peak within the target
      // (the first candidate, one channel, does).
      unsigned low = 0, high = candidates.size() - 1;
      while (low < high) {
        unsigned mid = (low + high + 1) / 2;
        sizes[i] = candidates[mid];
        std::optional<Peaks> after = apply(sizes);
        if (after && after->notAbove(target))
          low = mid;
        else
          high = mid - 1;
      }
      sizes[i] = candidates[low];
    }
    SmallVector<ChainSummary> summaries;
    std::optional<Peaks> after = apply(sizes, &summaries);
    if (!after || !after->notAbove(target)) {
      restoreBody(func, base);
      return 0;
    }
    current = *after;
    for (const ChainSummary &chain : summaries)
      pending.chains.push_back(llvm::json::Object{
          {"location", describeLocation(chain.loc)},
          {"ops", static_cast<int64_t>(chain.ops)},
          {"channels", chain.channels},
          {"group", chain.groupSize},
          {"intermediate_bytes", static_cast<int64_t>(chain.bytes)},
          {"group_intermediate_bytes",
           static_cast<int64_t>(chain.bytes / chain.channels *
                                chain.groupSize)}});
    for (const ChainSummary &chain : summaries)
      note(chain.loc,
           (Twine("memsched-split: ") + Twine(chain.ops) + " ops run by " +
            Twine(chain.channels / chain.groupSize) + " groups of " +
            Twine(chain.groupSize) + " channel" +
            (chain.groupSize == 1 ? "" : "s") + " (of " +
            Twine(chain.channels) + "): intermediates " + Twine(chain.bytes) +
            " -> " +
            Twine(chain.bytes / chain.channels * chain.groupSize) + " bytes")
               .str());
    return summaries.size();
  }

  /// The compute (estimateComputeCost units) the function's structured ops
  /// and copies do (kept in `functionCost`), and the extra compute
  /// `max-extra-compute` allows.
  uint64_t computeAllowance(func::FuncOp func) {
    // The ops that compute: structured ops and copies, at any depth (each
    // counted once: loops are not unrolled).
    functionCost = 0;
    func.walk([&](Operation *op) {
      if (isa<linalg::LinalgOp, memref::CopyOp>(op))
        functionCost += estimateComputeCost(op);
    });
    if (maxExtraCompute <= 0)
      return 0;
    return static_cast<uint64_t>(maxExtraCompute *
                                 static_cast<double>(functionCost));
  }

  static Operation *opAt(func::FuncOp func, unsigned blockIndex,
                         unsigned opIndex) {
    Block &block = *std::next(func.getBody().begin(), blockIndex);
    return &*std::next(block.begin(), opIndex);
  }

  /// Row bands, chosen exactly over the candidates found: every segment
  /// run by bands is an option (the positions of the block its ops span,
  /// the most bytes live while they run once banded, its extra compute),
  /// and chooseSegments (Analysis/Graph/SegmentChoice.h) takes the disjoint
  /// options of the least peak within the extra compute allowed, then the
  /// cheapest. Candidates are found where that choice peaks: segments
  /// computing a buffer written there or after and reaching back to it,
  /// each run by the most bands the allowance lets it have, then fewer
  /// while that still peaks below the choice; the choice is made again,
  /// until it peaks where candidates were already sought (or outside the
  /// block), within kMaxBandEvaluations rewrites. Every peak is measured on
  /// the body with every channel chain by groups of one channel. The
  /// choice is applied and measured; should the segments together not
  /// lower the peak (they interact), the single best one is taken.
  /// Returns the segments run by bands; `extraCompute` grows by what they
  /// add.
  unsigned bandRows(func::FuncOp func, ArrayRef<Attribute> spaces,
                    Peaks &current, uint64_t allowance,
                    uint64_t &extraCompute, unsigned &byColumns) {
    unsigned banded = 0, evaluations = 0;
    for (unsigned level = 0; level < kMaxBandLevels; ++level) {
      unsigned more = bandLevel(func, spaces, allowance, extraCompute,
                                evaluations, level, byColumns);
      if (!more)
        break;
      banded += more;
    }
    if (banded)
      if (std::optional<Peaks> written = peaksAsWritten(func, spaces))
        current = *written;
    return banded;
  }

  /// One level of bandRows: the choice on the body as it is, applied.
  /// Returns the segments it runs by bands.
  unsigned bandLevel(func::FuncOp func, ArrayRef<Attribute> spaces,
                     uint64_t allowance, uint64_t &extraCompute,
                     unsigned &evaluations, unsigned level,
                     unsigned &byColumns) {
    static constexpr unsigned kBandCounts[] = {2, 3, 4, 6, 8, 12, 16, 24, 32};
    struct Candidate {
      unsigned output, dim, depth, bands, ops, firstOp;
      bool columns;
      uint64_t extra;
      Peaks peaks;
      ::memsched_core::SegmentOption option;
    };
    // Top-level ops carry their position while the search runs: the
    // memory of the body with its chains by groups (in a copy) is counted
    // by the positions of the ops as they stand here.
    MLIRContext *context = func.getContext();
    auto positionName = StringAttr::get(context, kPositionAttr);
    unsigned positions = 0;
    for (Block &block : func.getBody()) {
      positions = std::max<unsigned>(positions, block.getOperations().size());
      for (auto [i, op] : llvm::enumerate(block))
        op.setAttr(positionName,
                   IntegerAttr::get(IntegerType::get(context, 64), i));
    }
    llvm::scope_exit unmark([&] {
      func.walk([&](Operation *op) { op->removeAttr(positionName); });
    });
    Profile base{std::nullopt, positionName, positions};
    std::optional<Peaks> basePeaks =
        groupedPeaks(func, spaces, nullptr, 0, &base);
    if (!basePeaks)
      return 0;
    unsigned blockIndex = *base.block;
    uint64_t budget = allowance > extraCompute ? allowance - extraCompute : 0;
    std::vector<Candidate> candidates;
    std::set<std::tuple<unsigned, unsigned, unsigned, unsigned>> seen;
    llvm::DenseSet<unsigned> sought;
    ::memsched_core::SegmentChoiceResult choice;
    auto choose = [&] {
      std::vector<::memsched_core::SegmentOption> options;
      for (const Candidate &c : candidates)
        options.push_back(c.option);
      choice =
          ::memsched_core::chooseSegments(base.memory, base.floor, options, budget);
    };
    auto findSegment = [&](unsigned output, unsigned dim,
                           unsigned depth) -> FailureOr<BandSegment> {
      auto alloc = dyn_cast_or_null<memref::AllocOp>(
          opAtPosition(func, blockIndex, output));
      if (!alloc)
        return failure();
      RefusedChain refusal{nullptr, ""};
      return findBandSegment(alloc, dim, depth, refusal);
    };
    choose();
    for (unsigned round = 0;
         round < kMaxBandRounds && evaluations < kMaxBandEvaluations; ++round) {
      // Where candidates are sought: where the choice peaks, else the
      // position of the most memory at or above its peak not sought yet
      // (to go lower, every such position must be covered).
      if (choice.atFloor)
        break; // the peak of another block
      std::optional<unsigned> next;
      if (!sought.contains(choice.bottleneck))
        next = choice.bottleneck;
      else
        for (unsigned p = 0; p < positions; ++p)
          if (!sought.contains(p) && base.memory[p] >= choice.peak &&
              (!next || base.memory[p] > base.memory[*next]))
            next = p;
      if (!next)
        break;
      unsigned at = *next;
      sought.insert(at);
      // Candidate outputs: buffers of the block written at that position or
      // after, the nearest first.
      Block &block = *std::next(func.getBody().begin(), blockIndex);
      SmallVector<std::pair<unsigned, unsigned>> outputs; // (first use, op)
      for (Operation &op : block) {
        auto alloc = dyn_cast<memref::AllocOp>(&op);
        if (!alloc || !alloc.getType().hasStaticShape() ||
            alloc.getType().getRank() < 2)
          continue;
        std::optional<unsigned> first;
        for (Operation *user : alloc->getUsers()) {
          Operation *top = block.findAncestorOpInBlock(*user);
          if (!top)
            continue;
          unsigned p = positionOf(top, positionName);
          if (p >= at && (!first || p < *first))
            first = p;
        }
        if (first)
          outputs.push_back({*first, positionOf(&op, positionName)});
      }
      llvm::sort(outputs);
      if (outputs.size() > kMaxBandOutputs)
        outputs.resize(kMaxBandOutputs);
      for (auto [firstUse, output] : outputs) {
        auto alloc = dyn_cast_or_null<memref::AllocOp>(
            opAtPosition(func, blockIndex, output));
        if (!alloc)
          continue;
        // The rows of NCHW, then its columns (on a band of rows: patches).
        unsigned rank = alloc.getType().getRank();
        for (unsigned dim : {rank - 2, rank - 1}) {
          if (dim == rank - 1 && !level)
            continue; // columns of a whole image: its rows did as well
          // (Found again: each rewrite measured replaces the body.)
          auto again = dyn_cast_or_null<memref::AllocOp>(
              opAtPosition(func, blockIndex, output));
          if (!again)
            break;
          int64_t rows = again.getType().getDimSize(dim);
          size_t previous = 0;
          for (unsigned depth = 1;
               depth <= kMaxBandDepth && evaluations < kMaxBandEvaluations;
               ++depth) {
            FailureOr<BandSegment> segment = findSegment(output, dim, depth);
            if (failed(segment) || segment->ops.size() == previous)
              break;
            previous = segment->ops.size();
            unsigned first = positionOf(segment->ops.front(), positionName);
            unsigned last = positionOf(segment->ops.back(), positionName);
            if (first > at || last < at)
              continue; // does not reach back to it (yet)
            SmallVector<std::pair<unsigned, uint64_t>> affordable;
            for (unsigned bands : kBandCounts) {
              if (bands > rows)
                break;
              uint64_t extra = bandExtraCompute(*segment, bands);
              if (extra <= budget)
                affordable.push_back({bands, extra});
            }
            unsigned ops = segment->ops.size();
            // Bands are unrolled: the segment's ops are copied per band.
            while (!affordable.empty() &&
                   uint64_t(ops) * affordable.back().first > kMaxBandCopies)
              affordable.pop_back();
            // At most kMaxBandCountsPerSegment counts, spread from the fewest
            // bands to the most (the cheap and the low options both).
            if (affordable.size() > kMaxBandCountsPerSegment) {
              SmallVector<std::pair<unsigned, uint64_t>> spread;
              for (unsigned i = 0; i < kMaxBandCountsPerSegment; ++i)
                spread.push_back(affordable[i * (affordable.size() - 1) /
                                            (kMaxBandCountsPerSegment - 1)]);
              affordable = std::move(spread);
            }
            // The most bands first, then fewer while they still peak below
            // the choice (each rewrite replaces the body: the segment is
            // found again).
            for (auto [bands, extra] : llvm::reverse(affordable)) {
              if (!seen.insert({output, dim, ops, bands}).second)
                continue;
              if (evaluations >= kMaxBandEvaluations)
                break;
              ++evaluations;
              FailureOr<BandSegment> again = findSegment(output, dim, depth);
              if (failed(again))
                break;
              Profile profile{blockIndex, positionName, positions};
              std::optional<Peaks> after =
                  groupedPeaks(func, spaces, &*again, bands, &profile);
              if (!after || !after->notAbove(*basePeaks))
                break;
              // Its span: from its first op to its last, and every position
              // whose memory it changes (where its intermediates were
              // allocated and freed, say); its peak: the most bytes live
              // while the positions of its span run.
              ::memsched_core::SegmentOption option{first, last, 0, first, extra};
              for (unsigned p = 0; p < positions; ++p)
                if (profile.memory[p] != base.memory[p]) {
                  option.first = std::min(option.first, p);
                  option.last = std::max(option.last, p);
                }
              for (unsigned p = option.first; p <= option.last; ++p)
                if (profile.memory[p] > option.peak) {
                  option.peak = profile.memory[p];
                  option.at = p;
                }
              if (option.peak >= choice.peak)
                break;
              candidates.push_back({output, dim, depth, bands, ops, first,
                                    dim == rank - 1, extra, *after, option});
              if (!extra)
                break; // fewer bands cost nothing either: no cheaper option
            }
          }
        }
      }
      choose();
    }
    if (choice.chosen.empty())
      return 0;
    // Applied from the last segment to the first (each found again where
    // its positions are: those before it stay as they were).
    DenseMap<uint32_t, Location> locations; // of each segment's first op
    auto apply = [&](ArrayRef<uint32_t> chosen) {
      for (uint32_t index : llvm::reverse(chosen)) {
        const Candidate &c = candidates[index];
        FailureOr<BandSegment> segment = findSegment(c.output, c.dim, c.depth);
        if (failed(segment) || segment->ops.size() != c.ops ||
            positionOf(segment->ops.front(), positionName) != c.firstOp)
          return false;
        locations.insert({index, segment->ops.front()->getLoc()});
        splitIntoRowBands(*segment, c.bands);
      }
      return true;
    };
    Operation *saved = func->clone();
    llvm::scope_exit eraseSaved([&] { saved->erase(); });
    auto lowersEnough = [&](uint64_t peak) {
      uint64_t was = basePeaks->total();
      return peak < was &&
             was - peak >= (was + kMinBandGain - 1) / kMinBandGain;
    };
    // The best candidate alone, as measured.
    std::optional<uint32_t> single;
    for (auto [i, c] : llvm::enumerate(candidates))
      if (c.extra <= budget && lowersEnough(c.peaks.total()) &&
          (!single || c.peaks.total() < candidates[*single].peaks.total() ||
           (c.peaks.total() == candidates[*single].peaks.total() &&
            c.extra < candidates[*single].extra)))
        single = i;
    SmallVector<uint32_t> chosen(choice.chosen.begin(), choice.chosen.end());
    std::optional<Peaks> after;
    if (apply(chosen))
      after = groupedPeaks(func, spaces, nullptr, 0);
    if (!after || !after->notAbove(*basePeaks) ||
        !lowersEnough(after->total()) ||
        (single && candidates[*single].peaks.total() < after->total())) {
      // Together they interact (the chains the pass splits are the
      // largest, a segment's bands make more): the best one alone.
      restoreBody(func, saved);
      if (!single)
        return 0;
      chosen.assign({*single});
      after = candidates[*single].peaks;
      if (!apply(chosen)) {
        restoreBody(func, saved);
        return 0;
      }
    }
    for (uint32_t index : chosen) {
      const Candidate &c = candidates[index];
      Location loc = locations.at(index);
      pending.segments.push_back(llvm::json::Object{
          {"location", describeLocation(loc)},
          {"ops", static_cast<int64_t>(c.ops)},
          {"bands", static_cast<int64_t>(c.bands)},
          {"dimension", c.columns ? "columns" : "rows"},
          {"peak_with_groups_before", static_cast<int64_t>(basePeaks->total())},
          {"peak_with_groups_after", static_cast<int64_t>(after->total())},
          {"peak_while_running", static_cast<int64_t>(c.option.peak)},
          {"extra_compute", static_cast<int64_t>(c.extra)}});
      bool columns = c.columns;
      byColumns += columns;
      note(loc,
           (Twine("memsched-split: ") + Twine(c.ops) + " ops run by " +
            Twine(c.bands) + " bands of " + (columns ? "columns" : "rows") +
            ": peak as written with the "
            "chains by groups " +
            Twine(basePeaks->total()) + " -> " + Twine(after->total()) +
            " bytes (" + Twine(c.option.peak) +
            " while they run), extra compute " + Twine(c.extra))
               .str());
      extraCompute += c.extra;
    }
    return chosen.size();
  }

  /// test-all-bands: every segment found (output after output, in block
  /// order, as far back as it reaches) run by three bands (fewer when its
  /// output has fewer rows), whatever it does to the peak or the compute.
  unsigned bandEverySegment(func::FuncOp func, ArrayRef<Attribute> spaces,
                            Peaks &current, uint64_t &extraCompute,
                            unsigned &byColumns) {
    unsigned banded = 0;
    // Rows first, then columns (of the bands of rows too: 2-D patches).
    for (unsigned columns = 0; columns < 2; ++columns)
    for (unsigned blockIndex = 0, e = func.getBody().getBlocks().size();
         blockIndex < e; ++blockIndex) {
      for (unsigned next = 0; banded < 64;) {
        Block &block = *std::next(func.getBody().begin(), blockIndex);
        if (next >= block.getOperations().size())
          break;
        auto output = dyn_cast<memref::AllocOp>(opAt(func, blockIndex, next));
        ++next;
        if (!output || !output.getType().hasStaticShape() ||
            output.getType().getRank() < 2)
          continue;
        unsigned dim = output.getType().getRank() - 2 + columns;
        RefusedChain refusal{nullptr, ""};
        FailureOr<BandSegment> segment =
            findBandSegment(output, dim, kMaxBandDepth, refusal);
        if (failed(segment))
          continue;
        unsigned bands = std::min<int64_t>(3, output.getType().getDimSize(dim));
        uint64_t extra = bandExtraCompute(*segment, bands);
        extraCompute += extra;
        pending.segments.push_back(llvm::json::Object{
            {"location", describeLocation(segment->ops.front()->getLoc())},
            {"ops", static_cast<int64_t>(segment->ops.size())},
            {"bands", static_cast<int64_t>(bands)},
            {"dimension", columns ? "columns" : "rows"},
            {"extra_compute", static_cast<int64_t>(extra)}});
        note(segment->ops.front()->getLoc(),
             (Twine("memsched-split: ") + Twine(segment->ops.size()) +
              " ops run by " + Twine(bands) + " bands of " +
              (columns ? "columns" : "rows") + " (test-all-bands)")
                 .str());
        splitIntoRowBands(*segment, bands);
        ++banded;
        byColumns += columns;
      }
    }
    if (banded)
      if (std::optional<Peaks> after = peaksAsWritten(func, spaces))
        current = *after;
    return banded;
  }


  /// The peaks as written of `func` with `segment` (if any) run by `bands`
  /// bands and then every channel chain by groups of one channel (the body
  /// is left as it was); with `profile`, also the memory of a block by
  /// position.
  std::optional<Peaks> groupedPeaks(func::FuncOp func,
                                    ArrayRef<Attribute> spaces,
                                    const BandSegment *segment,
                                    unsigned bands,
                                    Profile *profile = nullptr) {
    Operation *saved = func->clone();
    if (segment)
      splitIntoRowBands(*segment, bands);
    // The chains groupChannels would split (the largest of every block),
    // under each selection that differs: the lower peaks. The chains are
    // found once, on a copy of the banded body; each selection splits its
    // own copy.
    Operation *banded = func->clone();
    SmallVector<SmallVector<ChainSet, 2>> blockSets;
    bool twoSelections = false;
    for (Block &block : banded->getRegion(0)) {
      SmallVector<RefusedChain> refused;
      blockSets.push_back(findChannelChainSets(block, refused));
      twoSelections |= blockSets.back().size() > 1;
    }
    std::optional<Peaks> best;
    std::optional<Profile> bestProfile;
    for (bool mostBytes : {false, true}) {
      if (mostBytes && !twoSelections)
        break;
      IRMapping map;
      cloneBodyInto(func, banded, map);
      std::vector<ChannelChain> chains = selectedChains(blockSets, mostBytes);
      keepLargestChains(chains);
      for (const ChannelChain &chain : chains)
        splitIntoChannelGroups(mappedChain(chain, map), 1);
      std::optional<Profile> measured;
      if (profile)
        measured = *profile;
      std::optional<Peaks> after =
          peaksAsWritten(func, spaces, measured ? &*measured : nullptr);
      if (after && (!best || (after->notAbove(*best) &&
                              after->total() < best->total()))) {
        best = after;
        bestProfile = measured;
      }
    }
    banded->erase();
    if (profile && bestProfile)
      *profile = *bestProfile;
    restoreBody(func, saved);
    saved->erase();
    return best;
  }

  /// The position an op of the search stands at.
  static unsigned positionOf(Operation *op, StringAttr name) {
    auto index = op->getAttrOfType<IntegerAttr>(name);
    return index ? index.getInt() : 0;
  }
  /// The top-level op of block `blockIndex` at `position`.
  static Operation *opAtPosition(func::FuncOp func, unsigned blockIndex,
                                 unsigned position) {
    Block &block = *std::next(func.getBody().begin(), blockIndex);
    auto name = StringAttr::get(func.getContext(), kPositionAttr);
    for (Operation &op : block)
      if (auto index = op.getAttrOfType<IntegerAttr>(name))
        if (index.getInt() == position)
          return &op;
    return nullptr;
  }

  /// Remarks of the variant being built, emitted once it is chosen.
  void note(Location loc, std::string text) {
    pending.remarks.push_back({loc, std::move(text)});
  }
  void flushRemarks() {
    if (emitRemarks)
      for (auto &[loc, text] : pending.remarks)
        emitRemark(loc) << text;
    pending.remarks.clear();
  }

  static std::string describeLocation(Location loc) {
    if (auto file = dyn_cast<FileLineColLoc>(loc))
      return (file.getFilename().getValue() + ":" + Twine(file.getLine()) +
              ":" + Twine(file.getColumn()))
          .str();
    return "";
  }

  /// What the variant being built did: remarks, and for `report-dir` its
  /// segments and chains.
  struct Pending {
    SmallVector<std::pair<Location, std::string>> remarks;
    llvm::json::Array segments, chains;
    unsigned padsKept = 0;
    void clear() {
      padsKept = 0;
      remarks.clear();
      segments.clear();
      chains.clear();
    }
  };
  Pending pending;

  /// <report-dir>/<function>.split.json (docs/split.md, "Report").
  void writeReport(func::FuncOp func, bool kept, StringRef reason,
                   std::optional<uint64_t> before,
                   std::optional<uint64_t> after,
                   std::optional<uint64_t> scheduled, unsigned inPlace,
                   unsigned absorbed, uint64_t extraPpm) {
    if (reportDir.empty())
      return;
    llvm::json::Object report{
        {"function", ("@" + func.getSymName()).str()},
        {"kept", kept},
        {"ops_in_place", static_cast<int64_t>(inPlace)},
        {"pads_absorbed", static_cast<int64_t>(absorbed)},
        {"extra_compute_ppm", static_cast<int64_t>(extraPpm)},
        {"segments", std::move(pending.segments)},
        {"chains", std::move(pending.chains)}};
    if (!reason.empty())
      report["reason"] = reason.str();
    if (before)
      report["peak_as_written_before"] = static_cast<int64_t>(*before);
    if (after)
      report["peak_as_written_after"] = static_cast<int64_t>(*after);
    if (scheduled)
      report["peak_scheduled"] = static_cast<int64_t>(*scheduled);
    if (familyBound) {
      report["fragment_bound"] = static_cast<int64_t>(familyBound->value);
      if (familyBound->at)
        report["fragment_bound_at"] = describeLocation(*familyBound->at);
      if (kept && keptRecomputation)
        report["fragment_bound_note"] =
            "the split recomputes: the bound covers the splits without "
            "recomputation";
      else if (scheduled && familyBound->value)
        report["gap_to_fragment_bound"] =
            static_cast<double>(*scheduled) /
                static_cast<double>(familyBound->value) -
            1.0;
    }
    pending.segments = llvm::json::Array();
    pending.chains = llvm::json::Array();
    if (std::error_code ec = llvm::sys::fs::create_directories(reportDir)) {
      func.emitError() << "cannot create report directory '" << reportDir
                       << "': " << ec.message();
      return signalPassFailure();
    }
    SmallString<128> path(reportDir);
    llvm::sys::path::append(path,
                            getReportFileStem(func.getSymName()) +
                                ".split.json");
    std::error_code ec;
    llvm::ToolOutputFile file(path, ec, llvm::sys::fs::OF_Text);
    if (ec) {
      func.emitError() << "cannot write '" << path << "': " << ec.message();
      return signalPassFailure();
    }
    file.os() << llvm::formatv("{0:2}",
                               llvm::json::Value(std::move(report)))
              << "\n";
    file.keep();
  }
  /// Of the function being split, before any rewrite.
  uint64_t functionCost = 0, allowance = 0;
  /// The bound over the splits of the function being split (the body as
  /// given, and each variant after in place and pads, in channel groups).
  std::optional<SplitBound> familyBound;
  /// The kept split recomputes (row bands with halos).
  bool keptRecomputation = false;

  struct ChainSummary {
    Location loc;
    unsigned ops;
    int64_t channels, groupSize;
    uint64_t bytes;
  };

  /// The peaks --memsched-schedule reaches on `func` (its body reordered
  /// in place: the caller restores it), or nullopt when it cannot schedule
  /// it.
  std::optional<Peaks> scheduledPeaks(func::FuncOp func,
                                      ArrayRef<Attribute> spaces) {
    ScheduleFunctionOptions options;
    options.certify = false;
    options.sizes = sizes;
    options.memorySpace = chosenSpace;
    FailureOr<ScheduleFunctionResult> result = scheduleFunction(func, options);
    if (failed(result) ||
        result->status != ScheduleFunctionResult::Status::Scheduled)
      return std::nullopt;
    Peaks peaks;
    peaks.values.push_back(result->peakAfter);
    peaks.names.push_back(spaces.empty() ? "" : "in all memory spaces");
    for (Attribute space : spaces) {
      const SpacePeaks *found = llvm::find_if(
          result->spaces, [&](const SpacePeaks &p) { return p.space == space; });
      if (found == result->spaces.end())
        return std::nullopt;
      peaks.values.push_back(found->peakAfter);
      peaks.names.push_back("of memory space " + describeMemorySpace(space));
    }
    return peaks;
  }

  std::optional<Peaks> peaksAsWritten(func::FuncOp func,
                                      ArrayRef<Attribute> spaces,
                                      Profile *profile = nullptr) {
    BodyLifetimes body(func, sizes);
    if (!body.isSupported())
      return std::nullopt;
    if (profile && !takeProfile(func, body, *profile))
      return std::nullopt;
    Peaks peaks;
    peaks.values.push_back(body.getPeakAsWritten());
    peaks.names.push_back(spaces.empty() ? "" : "in all memory spaces");
    for (Attribute space : spaces) {
      SizeModel inSpace = sizes;
      inSpace.memorySpace = space;
      BodyLifetimes spaceBody(func, inSpace);
      if (!spaceBody.isSupported())
        return std::nullopt;
      for (unsigned i = 0; i < spaceBody.getNumBlocks(); ++i) {
        peaks.values.push_back(spaceBody.isReachable(i)
                                   ? spaceBody.getBlock(i).getPeakAsWritten()
                                   : 0);
        peaks.names.push_back(
            "of memory space " + describeMemorySpace(space) +
            (spaceBody.hasSeveralBlocks() ? " in ^bb" + std::to_string(i)
                                          : std::string()));
      }
    }
    return peaks;
  }

  /// Fills `profile` from `body`: the bytes live while each top-level op
  /// of its block runs, counted at the position of the op it stands for
  /// (an op holding several, a loop a rewrite made, stands where the
  /// greatest stood; an op with none, new, at the one before it).
  static bool takeProfile(func::FuncOp func, const BodyLifetimes &body,
                          Profile &profile) {
    unsigned b = profile.block ? *profile.block : body.getPeakBlock();
    if (b >= body.getNumBlocks())
      return false;
    profile.block = b;
    profile.floor = 0;
    for (unsigned i = 0; i < body.getNumBlocks(); ++i)
      if (i != b && body.isReachable(i))
        profile.floor =
            std::max(profile.floor, body.getBlock(i).getPeakAsWritten());
    Block &block = *std::next(func.getBody().begin(), b);
    ArrayRef<uint64_t> memory = body.getBlock(b).getMemoryAsWritten();
    if (memory.size() != block.getOperations().size())
      return false;
    profile.memory.assign(profile.count, 0);
    unsigned previous = 0;
    for (auto [i, op] : llvm::enumerate(block)) {
      std::optional<unsigned> at;
      op.walk([&](Operation *inner) {
        if (auto index = inner->getAttrOfType<IntegerAttr>(profile.name))
          at = std::max<unsigned>(at.value_or(0), index.getInt());
      });
      unsigned p = at.value_or(previous);
      previous = p;
      if (p < profile.count)
        profile.memory[p] = std::max(profile.memory[p], memory[i]);
    }
    return true;
  }

  void keep(Operation *at, StringRef why) {
    ++pending.padsKept;
    if (at)
      note(at->getLoc(), ("memsched-split: pad left as it is: " + why).str());
  }

  SizeModel sizes;
  std::optional<Attribute> chosenSpace;
};
} // namespace
