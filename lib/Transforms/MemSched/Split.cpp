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
static constexpr unsigned kMaxChains = 32;

/// Row bands: segments run by bands per function, candidate outputs per
/// segment, reach of a segment (ops back from its output), and candidate
/// rewrites evaluated per segment (each costs an analysis of the body).
static constexpr unsigned kMaxBandSegments = 4;
static constexpr unsigned kMaxBandOutputs = 6;
static constexpr unsigned kMaxBandDepth = 24;
static constexpr unsigned kMaxBandEvaluations = 24;

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
    keptBands = false;
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
             banded = variant.banded, grouped = variant.grouped;
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
            << describe(inPlace, absorbed, banded, grouped) << "), " << why;
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
    keptBands = banded;
    writeReport(func, true, "", before->total(), current->total(),
                split->total(), inPlace, absorbed, extraPpm);
    // The body changed: a certificate it had describes another body.
    func->removeAttr(MemSchedDialect::getCertificateAttrName());
    if (emitRemarks)
      emitRemark(func.getLoc())
          << "memsched-split: '" << func.getSymName()
          << "': " << describe(inPlace, absorbed, banded, grouped)
          << ", peak as written " << before->total() << " -> "
          << current->total() << " bytes, scheduled " << split->total()
          << " bytes" << describeBound(split->total(), banded);
  }

  /// ", no split into channel groups peaks below N bytes (gap G%)", or
  /// nothing when the bound is unknown.
  std::string describeBound(uint64_t peak, bool banded) const {
    if (!familyBound)
      return "";
    std::string text =
        (Twine("; no split into channel groups peaks below ") +
         Twine(familyBound->value) + " bytes")
            .str();
    if (banded)
      text += " (row bands are outside that family)";
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
    uint64_t extraCompute = 0;
    /// The bound over the splits into channel groups of the body after in
    /// place and pads, if it could be computed.
    std::optional<SplitBound> bound;
  };

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
    v.bound = computeSplitBound(func, sizes, why);
    // Row bands, then channel groups (in the bands too); with bands, the
    // channel groups alone as well: the bands stay only where they end
    // lower.
    Operation *unbanded = func->clone();
    std::optional<Peaks> unbandedPeaks = v.current;
    if (inPlaceFirst)
      v.banded = testAllBands ? bandEverySegment(func, spaces, *v.current,
                                                 v.extraCompute)
                              : bandRows(func, spaces, *v.current, allowance,
                                         v.extraCompute);
    v.grouped = groupChannels(func, spaces, *v.current);
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
      } else {
        v.banded = 0;
        v.extraCompute = 0;
      }
      withBands->erase();
    }
    unbanded->erase();
    return v;
  }

  static std::string describe(unsigned inPlace, unsigned absorbed,
                              unsigned banded, unsigned grouped) {
    SmallVector<std::string> parts;
    auto count = [](unsigned n, StringRef one, StringRef many) {
      return std::to_string(n) + " " + (n == 1 ? one : many).str();
    };
    if (inPlace)
      parts.push_back(count(inPlace, "op", "ops") + " in place");
    if (absorbed)
      parts.push_back(count(absorbed, "pad", "pads") + " absorbed");
    if (banded)
      parts.push_back(count(banded, "segment", "segments") +
                      " run by row bands");
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
    // body as it is (kept in `base`); the largest kMaxChains are tried.
    SmallVector<RefusedChain> refused;
    std::vector<ChannelChain> chains;
    for (Block &block : base->getRegion(0))
      for (ChannelChain &chain : findChannelChains(block, refused))
        chains.push_back(std::move(chain));
    if (chains.size() > kMaxChains) {
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
    for (const RefusedChain &refusal : refused)
      note(refusal.at->getLoc(),
           "memsched-split: channel chain left as it is: " + refusal.reason);
    if (chains.empty())
      return 0;
    SmallVector<int64_t> channels;
    for (const ChannelChain &chain : chains)
      channels.push_back(chain.channels);
    // Applies group sizes (a size equal to the channels: not split) to the
    // body as it was, and returns its peaks as written.
    auto apply = [&](ArrayRef<int64_t> sizes,
                     SmallVectorImpl<ChainSummary> *summaries = nullptr) {
      Region &body = func.getBody();
      body.dropAllReferences();
      body.getBlocks().clear();
      IRMapping map;
      base->getRegion(0).cloneInto(&body, map);
      for (auto [chain, size] : llvm::zip(chains, sizes)) {
        if (size >= chain.channels)
          continue;
        ChannelChain copy = chain;
        for (Operation *&op : copy.ops)
          op = map.lookup(op);
        for (auto &[alloc, d] : copy.buffers)
          alloc = cast<memref::AllocOp>(map.lookup(alloc.getOperation()));
        for (Operation *&op : copy.sunkFrees)
          op = map.lookup(op);
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

  /// Row bands: segments that cover the op where the peak as written is
  /// reached, computing one buffer written there or after, each run by as
  /// many bands (of kBandCounts) as the extra compute left allows; the
  /// segment whose bands lower the peak most is kept (then with the fewest
  /// bands that reach the same peaks), and the search starts again from
  /// the new peak. Returns the segments run by bands; `extraCompute` grows
  /// by what they add.
  unsigned bandRows(func::FuncOp func, ArrayRef<Attribute> spaces,
                    Peaks &current, uint64_t allowance,
                    uint64_t &extraCompute) {
    static constexpr unsigned kBandCounts[] = {2, 3, 4, 6, 8, 12, 16, 24, 32};
    struct Candidate {
      unsigned output, dim, depth, bands;
      uint64_t extra;
      Peaks peaks;
      unsigned ops;
    };
    unsigned banded = 0;
    // Top-level ops carry their position while the search runs: the peak
    // of the body with its chains by groups is found in a copy.
    MLIRContext *context = func.getContext();
    auto positionName = StringAttr::get(context, "memsched.split.position");
    auto mark = [&] {
      for (Block &block : func.getBody())
        for (auto [i, op] : llvm::enumerate(block))
          op.setAttr(positionName,
                     IntegerAttr::get(IntegerType::get(context, 64), i));
    };
    auto unmark = [&] {
      func.walk([&](Operation *op) { op->removeAttr(positionName); });
    };
    for (unsigned round = 0; round < kMaxBandSegments; ++round) {
      mark();
      // The peaks with every chain by groups of one channel, and the op
      // (its position) where the peak as written is reached.
      unsigned blockIndex = 0, peakIndex = 0;
      std::optional<Peaks> base =
          groupedPeaks(func, spaces, nullptr, 0, &blockIndex, &peakIndex,
                       positionName);
      if (!base)
        break;
      Block &block = *std::next(func.getBody().begin(), blockIndex);
      DenseMap<Operation *, unsigned> position;
      for (auto [i, op] : llvm::enumerate(block))
        position[&op] = i;
      // Candidate outputs: buffers of the block written at the peak or
      // after, the nearest first.
      SmallVector<std::pair<unsigned, unsigned>> outputs; // (first use, op)
      for (Operation &op : block) {
        auto alloc = dyn_cast<memref::AllocOp>(&op);
        if (!alloc || !alloc.getType().hasStaticShape() ||
            alloc.getType().getRank() < 2)
          continue;
        std::optional<unsigned> first;
        for (Operation *user : alloc->getUsers()) {
          Operation *top = block.findAncestorOpInBlock(*user);
          if (top && position[top] >= peakIndex &&
              (!first || position[top] < *first))
            first = position[top];
        }
        if (first)
          outputs.push_back({*first, position[&op]});
      }
      llvm::sort(outputs);
      if (outputs.size() > kMaxBandOutputs)
        outputs.resize(kMaxBandOutputs);
      std::optional<Candidate> best;
      unsigned evaluations = 0;
      for (auto [first, outputIndex] : outputs) {
        auto output =
            cast<memref::AllocOp>(opAt(func, blockIndex, outputIndex));
        int64_t rank = output.getType().getRank();
        // The rows of NCHW (the columns of NHWC).
        for (int64_t dim : {rank - 2}) {
          size_t previous = 0;
          for (unsigned depth = 1; depth <= kMaxBandDepth; ++depth) {
            output = cast<memref::AllocOp>(opAt(func, blockIndex, outputIndex));
            RefusedChain refusal{nullptr, ""};
            FailureOr<BandSegment> segment =
                findBandSegment(output, dim, depth, refusal);
            if (failed(segment) || segment->ops.size() == previous)
              break;
            previous = segment->ops.size();
            Operation *peakNow = opAt(func, blockIndex, peakIndex);
            if (peakNow->isBeforeInBlock(segment->ops.front()))
              continue; // does not reach back to the peak yet
            unsigned chosen = 0;
            uint64_t chosenExtra = 0;
            int64_t rows = output.getType().getDimSize(dim);
            for (unsigned bands : kBandCounts) {
              if (bands > rows)
                break;
              uint64_t extra = bandExtraCompute(*segment, bands);
              if (extraCompute + extra <= allowance) {
                chosen = bands;
                chosenExtra = extra;
              }
            }
            if (!chosen || ++evaluations > kMaxBandEvaluations)
              continue;
            unsigned ops = segment->ops.size();
            std::optional<Peaks> after =
                groupedPeaks(func, spaces, &*segment, chosen);
            if (!after || !after->notAbove(*base) ||
                after->total() >= base->total())
              continue;
            if (!best || after->total() < best->peaks.total() ||
                (after->total() == best->peaks.total() &&
                 chosenExtra < best->extra))
              best = Candidate{outputIndex, unsigned(dim), depth, chosen,
                               chosenExtra, *after, ops};
          }
        }
      }
      if (!best)
        break;
      auto refind = [&]() {
        RefusedChain refusal{nullptr, ""};
        auto output =
            cast<memref::AllocOp>(opAt(func, blockIndex, best->output));
        return findBandSegment(output, best->dim, best->depth, refusal);
      };
      // The fewest bands that reach the same peaks.
      for (unsigned bands : kBandCounts) {
        if (bands >= best->bands)
          break;
        FailureOr<BandSegment> segment = refind();
        if (failed(segment))
          break;
        uint64_t extra = bandExtraCompute(*segment, bands);
        std::optional<Peaks> after =
            groupedPeaks(func, spaces, &*segment, bands);
        if (after && after->notAbove(best->peaks)) {
          best->bands = bands;
          best->extra = extra;
          best->peaks = *after;
          break;
        }
      }
      FailureOr<BandSegment> segment = refind();
      if (failed(segment))
        break;
      Location loc = segment->ops.front()->getLoc();
      splitIntoRowBands(*segment, best->bands);
      pending.segments.push_back(llvm::json::Object{
          {"location", describeLocation(loc)},
          {"ops", static_cast<int64_t>(best->ops)},
          {"bands", static_cast<int64_t>(best->bands)},
          {"peak_with_groups_before", static_cast<int64_t>(base->total())},
          {"peak_with_groups_after",
           static_cast<int64_t>(best->peaks.total())},
          {"extra_compute", static_cast<int64_t>(best->extra)}});
      note(loc, (Twine("memsched-split: ") + Twine(best->ops) +
                 " ops run by " + Twine(best->bands) +
                 " bands of rows: peak as written with the chains by groups " +
                 Twine(base->total()) + " -> " + Twine(best->peaks.total()) +
                 " bytes, extra compute " + Twine(best->extra))
                    .str());
      extraCompute += best->extra;
      ++banded;
    }
    unmark();
    if (banded)
      if (std::optional<Peaks> after = peaksAsWritten(func, spaces))
        current = *after;
    return banded;
  }

  /// test-all-bands: every segment found (output after output, in block
  /// order, as far back as it reaches) run by three bands (fewer when its
  /// output has fewer rows), whatever it does to the peak or the compute.
  unsigned bandEverySegment(func::FuncOp func, ArrayRef<Attribute> spaces,
                            Peaks &current, uint64_t &extraCompute) {
    unsigned banded = 0;
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
        unsigned dim = output.getType().getRank() - 2;
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
            {"extra_compute", static_cast<int64_t>(extra)}});
        note(segment->ops.front()->getLoc(),
             (Twine("memsched-split: ") + Twine(segment->ops.size()) +
              " ops run by " + Twine(bands) + " bands of rows (test-all-bands)")
                 .str());
        splitIntoRowBands(*segment, bands);
        ++banded;
      }
    }
    if (banded)
      if (std::optional<Peaks> after = peaksAsWritten(func, spaces))
        current = *after;
    return banded;
  }

  /// The peaks as written of `func` with `segment` (if any) run by `bands`
  /// bands and then every channel chain by groups of one channel (the body
  /// is left as it was). With `blockIndex`, also where the peak is reached:
  /// the block, and the `position` attribute of the top-level op there (or
  /// the least one nested in it).
  std::optional<Peaks> groupedPeaks(func::FuncOp func,
                                    ArrayRef<Attribute> spaces,
                                    const BandSegment *segment,
                                    unsigned bands,
                                    unsigned *blockIndex = nullptr,
                                    unsigned *peakIndex = nullptr,
                                    StringAttr position = {}) {
    Operation *saved = func->clone();
    if (segment)
      splitIntoRowBands(*segment, bands);
    for (Block &block : func.getBody()) {
      SmallVector<RefusedChain> refused;
      for (ChannelChain &chain : findChannelChains(block, refused))
        splitIntoChannelGroups(chain, 1);
    }
    std::optional<Peaks> after = peaksAsWritten(func, spaces);
    if (after && blockIndex) {
      BodyLifetimes body(func, sizes);
      *blockIndex = body.getPeakBlock();
      Operation *peakOp = body.getBlock(*blockIndex).getPeakAsWrittenOp();
      Block &block = *std::next(func.getBody().begin(), *blockIndex);
      Operation *at = peakOp ? block.findAncestorOpInBlock(*peakOp) : nullptr;
      std::optional<unsigned> found;
      if (at)
        at->walk([&](Operation *op) {
          if (auto index = op->getAttrOfType<IntegerAttr>(position))
            if (!found || index.getInt() < *found)
              found = index.getInt();
        });
      if (!found)
        after.reset();
      else
        *peakIndex = *found;
    }
    restoreBody(func, saved);
    saved->erase();
    return after;
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
      if (kept && keptBands)
        report["fragment_bound_note"] =
            "row bands are outside the splits the bound covers";
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
  /// The kept split runs some segment by row bands.
  bool keptBands = false;

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
                                      ArrayRef<Attribute> spaces) {
    BodyLifetimes body(func, sizes);
    if (!body.isSupported())
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

  void keep(Operation *at, StringRef why) {
    ++pending.padsKept;
    if (at)
      note(at->getLoc(), ("memsched-split: pad left as it is: " + why).str());
  }

  SizeModel sizes;
  std::optional<Attribute> chosenSpace;
};
} // namespace
