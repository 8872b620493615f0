//===- RowBands.cpp - run a segment of ops band of rows by band -*- C++ -*-===//
//
// Finding a row-band segment (a search back from its output through the
// writers of each buffer), the rows each band needs of each buffer (from
// the indexing maps, back from the output's band), and the rewrite into one
// copy of the segment per band. docs/split.md, "Row bands".
//
//===----------------------------------------------------------------------===//

#include "Transforms/MemSched/RowBands.h"

#include "StructuredAccess.h"

#include "Analysis/MemSched/ComputeCost.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

#include <limits>

using namespace mlir;
using namespace mlir::memsched;

/// How many intermediates a failed search may turn into inputs before it
/// gives up.
static constexpr unsigned kMaxBoundaries = 16;

namespace {
/// Rows [first, second); empty when first >= second.
using Rows = std::pair<int64_t, int64_t>;

bool isEmpty(Rows rows) { return rows.first >= rows.second; }

/// Whether `expr` never decreases when a dimension grows: sums of
/// dimensions times non-negative constants, and constants.
bool isMonotone(AffineExpr expr) {
  switch (expr.getKind()) {
  case AffineExprKind::DimId:
  case AffineExprKind::Constant:
    return true;
  case AffineExprKind::Add: {
    auto sum = cast<AffineBinaryOpExpr>(expr);
    return isMonotone(sum.getLHS()) && isMonotone(sum.getRHS());
  }
  case AffineExprKind::Mul: {
    auto product = cast<AffineBinaryOpExpr>(expr);
    auto factor = dyn_cast<AffineConstantExpr>(product.getRHS());
    AffineExpr other = product.getLHS();
    if (!factor) {
      factor = dyn_cast<AffineConstantExpr>(product.getLHS());
      other = product.getRHS();
    }
    return factor && factor.getValue() >= 0 && isMonotone(other);
  }
  default:
    return false;
  }
}

/// `expr` (monotone) at the point `dims`.
int64_t evaluate(AffineExpr expr, ArrayRef<int64_t> dims) {
  switch (expr.getKind()) {
  case AffineExprKind::DimId:
    return dims[cast<AffineDimExpr>(expr).getPosition()];
  case AffineExprKind::Constant:
    return cast<AffineConstantExpr>(expr).getValue();
  case AffineExprKind::Add: {
    auto sum = cast<AffineBinaryOpExpr>(expr);
    return evaluate(sum.getLHS(), dims) + evaluate(sum.getRHS(), dims);
  }
  case AffineExprKind::Mul: {
    auto product = cast<AffineBinaryOpExpr>(expr);
    return evaluate(product.getLHS(), dims) * evaluate(product.getRHS(), dims);
  }
  default:
    llvm_unreachable("not a monotone expression");
  }
}

/// The rows `expr` reaches while loop `row` runs over `rows` and every
/// other loop over its whole range.
Rows reach(AffineExpr expr, unsigned row, Rows rows,
           ArrayRef<int64_t> ranges) {
  SmallVector<int64_t> low(ranges.size(), 0), high;
  for (int64_t range : ranges)
    high.push_back(range - 1);
  low[row] = rows.first;
  high[row] = rows.second - 1;
  return {evaluate(expr, low), evaluate(expr, high) + 1};
}

SmallVector<int64_t> getLoopRanges(Operation *op) {
  if (auto copy = dyn_cast<memref::CopyOp>(op))
    return SmallVector<int64_t>(
        cast<MemRefType>(copy.getSource().getType()).getShape());
  return cast<linalg::LinalgOp>(op).getStaticLoopRanges();
}

/// The result of `map` that `loop` appears in: -1 if none, -2 if several.
int findRowResult(AffineMap map, unsigned loop) {
  int found = -1;
  for (auto [i, expr] : llvm::enumerate(map.getResults()))
    if (expr.isFunctionOfDim(loop)) {
      if (found != -1)
        return -2;
      found = static_cast<int>(i);
    }
  return found;
}

/// A view the rewrite can shift: a static, unit-stride subview of the
/// same rank as its source.
bool isShiftableView(memref::SubViewOp view) {
  return view.getType().getRank() == view.getSourceType().getRank() &&
         view.getOffsets().empty() && view.getSizes().empty() &&
         view.getStrides().empty() &&
         llvm::all_of(view.getStaticStrides(),
                      [](int64_t s) { return s == 1; });
}

/// `value` as a buffer of `buffers` (directly, or through a shiftable
/// view) with the view's offset in dimension `dims[buffer]`.
std::optional<std::pair<Value, int64_t>>
asBandBuffer(Value value, const llvm::MapVector<Value, unsigned> &dims) {
  if (dims.count(value))
    return std::make_pair(value, int64_t(0));
  if (auto view = value.getDefiningOp<memref::SubViewOp>()) {
    auto it = dims.find(view.getSource());
    if (it != dims.end() && isShiftableView(view))
      return std::make_pair(view.getSource(),
                            view.getStaticOffsets()[it->second]);
  }
  return std::nullopt;
}

class BandSearch {
public:
  BandSearch(memref::AllocOp output, unsigned dim, unsigned depth)
      : output(output), dim(dim), depth(depth) {}

  FailureOr<BandSegment> run(RefusedChain &refusal) {
    for (unsigned attempt = 0; attempt < kMaxBoundaries; ++attempt) {
      boundary = {};
      FailureOr<BandSegment> segment = search(refusal);
      if (succeeded(segment) || !boundary || !stopped.insert(boundary).second)
        return segment;
    }
    return failure();
  }

private:
  LogicalResult fail(Operation *at, const Twine &reason,
                     RefusedChain &refusal) {
    refusal = {at, reason.str()};
    return failure();
  }

  /// The writers of `buffer` (directly or through a view).
  void collectWriters(Value buffer, SmallVectorImpl<Operation *> &writers) {
    auto visit = [&](Value value) {
      for (Operation *user : value.getUsers()) {
        if (!isFragmentOp(user))
          continue;
        for (const Access &access : getAccesses(user))
          if (access.isWrite && user->getOperand(access.operand) == value &&
              !llvm::is_contained(writers, user))
            writers.push_back(user);
      }
    };
    visit(buffer);
    for (Operation *user : buffer.getUsers())
      if (auto view = dyn_cast<memref::SubViewOp>(user))
        visit(view.getResult());
    if (buffer != output.getResult())
      return;
    // The output as the first op that reads it without writing it sees
    // it: writers after that op (an in-place residual add) are not the
    // segment's.
    Block *block = output->getBlock();
    Operation *firstReader = nullptr;
    auto visitReaders = [&](Value value) {
      for (Operation *user : value.getUsers()) {
        if (isa<memref::DeallocOp, memref::SubViewOp>(user) ||
            llvm::is_contained(writers, user))
          continue;
        Operation *top = block->findAncestorOpInBlock(*user);
        if (top && (!firstReader || top->isBeforeInBlock(firstReader)))
          firstReader = top;
      }
    };
    visitReaders(buffer);
    for (Operation *user : buffer.getUsers())
      if (auto view = dyn_cast<memref::SubViewOp>(user))
        visitReaders(view.getResult());
    if (firstReader)
      llvm::erase_if(writers, [&](Operation *writer) {
        return firstReader->isBeforeInBlock(writer);
      });
  }

  LogicalResult visitWriter(Operation *op, Value buffer, unsigned level,
                            SmallVectorImpl<Value> &worklist,
                            RefusedChain &refusal) {
    if (op->getBlock() != output->getBlock())
      return fail(op, "a writer of its buffers is in another block", refusal);
    SmallVector<Access> accesses = getAccesses(op);
    const Access *write = nullptr;
    for (const Access &access : accesses)
      if (access.isWrite) {
        if (write)
          return fail(op, op->getName().getStringRef() +
                              " writes several buffers", refusal);
        write = &access;
      }
    Value written = op->getOperand(write->operand);
    if (getBase(written) != buffer || !asBandBuffer(written, bufferDim))
      return fail(op, "it writes a buffer through a view it cannot shift",
                  refusal);
    auto rowExpr =
        dyn_cast<AffineDimExpr>(write->map.getResult(bufferDim[buffer]));
    if (!rowExpr)
      return fail(op, "the rows " + op->getName().getStringRef() +
                          " writes are not one of its loops", refusal);
    unsigned row = rowExpr.getPosition();
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
      if (linalgOp.getIteratorTypesArray()[row] !=
          utils::IteratorType::parallel)
        return fail(op, "its row loop is a reduction", refusal);
    if (failed(checkRowUse(op, row, *write, bufferDim[buffer], refusal)))
      return failure();
    opLoop[op] = row;
    for (const Access &access : accesses) {
      if (access.isWrite)
        continue;
      Value value = op->getOperand(access.operand);
      int position = findRowResult(access.map, row);
      if (position == -2)
        return fail(op, "two dimensions of an operand of " +
                            op->getName().getStringRef() +
                            " depend on its row loop", refusal);
      if (position >= 0) {
        if (!isMonotone(access.map.getResult(position)))
          return fail(op, "the rows " + op->getName().getStringRef() +
                              " reads are not an interval of its loops",
                      refusal);
        if (failed(checkRowUse(op, row, access, position, refusal)))
          return failure();
      }
      Value base = getBase(value);
      if (base == output.getResult()) {
        // The output read where it is written (in place).
        if (value != written || position != int(dim) ||
            access.map.getResult(position) != rowExpr)
          return fail(op, "it reads its output at other rows than it "
                          "writes", refusal);
        continue;
      }
      if (auto known = asBandBuffer(value, bufferDim)) {
        if (position != int(bufferDim[known->first]))
          return fail(op, "an intermediate's rows are two dimensions",
                      refusal);
        continue;
      }
      Block &block = *output->getBlock();
      if (position < 0 || level >= depth || stopped.count(base) ||
          !isFragmentIntermediate(base, block))
        continue; // an input, read whole or by rows
      auto view = value.getDefiningOp<memref::SubViewOp>();
      if (view && !isShiftableView(view))
        continue;
      bufferDim[base] = position;
      levels[base] = level + 1;
      worklist.push_back(base);
    }
    return success();
  }

  /// The results of `access`'s map other than `position` do not depend on
  /// the row loop.
  LogicalResult checkRowUse(Operation *op, unsigned row, const Access &access,
                            unsigned position, RefusedChain &refusal) {
    for (auto [i, expr] : llvm::enumerate(access.map.getResults()))
      if (i != position && expr.isFunctionOfDim(row))
        return fail(op, "two dimensions of an operand of " +
                            op->getName().getStringRef() +
                            " depend on its row loop", refusal);
    return success();
  }

  FailureOr<BandSegment> search(RefusedChain &refusal) {
    opLoop.clear();
    bufferDim.clear();
    levels.clear();
    Value out = output.getResult();
    bufferDim[out] = dim;
    levels[out] = 0;
    SmallVector<Value> worklist{out};
    while (!worklist.empty()) {
      Value buffer = worklist.pop_back_val();
      SmallVector<Operation *> writers;
      collectWriters(buffer, writers);
      for (Operation *writer : writers) {
        if (opLoop.count(writer))
          continue;
        if (failed(visitWriter(writer, buffer, levels[buffer], worklist,
                               refusal))) {
          // Stop before the buffer that led here.
          if (buffer != out)
            boundary = buffer;
          return failure();
        }
      }
    }
    if (opLoop.size() < 2)
      return fail(output, "its output has fewer than two writers", refusal);
    // Intermediates are used by the segment alone.
    for (auto [buffer, d] : bufferDim) {
      if (buffer == out)
        continue;
      auto inSegment = [&](Operation *user) {
        return isa<memref::DeallocOp>(user) || opLoop.count(user);
      };
      for (Operation *user : buffer.getUsers()) {
        bool ok = inSegment(user);
        if (auto view = dyn_cast<memref::SubViewOp>(user))
          ok = llvm::all_of(view->getUsers(), inSegment);
        if (!ok) {
          boundary = buffer;
          return fail(user, "an intermediate is also used outside the "
                            "segment", refusal);
        }
      }
    }
    BandSegment segment;
    segment.output = output;
    segment.outputDim = dim;
    for (auto [op, loop] : opLoop)
      segment.ops.push_back(op);
    llvm::sort(segment.ops, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    for (Operation *op : segment.ops)
      segment.rowLoops.push_back(opLoop[op]);
    llvm::DenseSet<Operation *> own;
    for (auto [buffer, d] : bufferDim) {
      if (buffer == out)
        continue;
      segment.buffers.push_back({buffer.getDefiningOp<memref::AllocOp>(), d});
      own.insert(buffer.getDefiningOp());
      for (Operation *user : buffer.getUsers())
        if (isa<memref::DeallocOp, memref::SubViewOp>(user))
          own.insert(user);
    }
    llvm::sort(segment.buffers, [](auto &a, auto &b) {
      return a.first->isBeforeInBlock(b.first);
    });
    auto isInternal = [&](Value value) {
      std::optional<std::pair<Value, int64_t>> known =
          asBandBuffer(value, bufferDim);
      return known && known->first != out;
    };
    Operation *at = nullptr;
    std::string why;
    if (!canMoveToLast(segment.ops, own, isInternal, segment.sunkFrees, at,
                       why))
      return fail(at, why, refusal);
    return segment;
  }

  memref::AllocOp output;
  unsigned dim, depth;
  llvm::MapVector<Operation *, unsigned> opLoop;
  llvm::MapVector<Value, unsigned> bufferDim;
  DenseMap<Value, unsigned> levels;
  DenseSet<Value> stopped;
  Value boundary;
};

/// What the bands of a segment need: per op its accesses and loop ranges,
/// and the row dimension of every band buffer.
struct SegmentInfo {
  explicit SegmentInfo(const BandSegment &segment) : segment(segment) {
    dims[memref::AllocOp(segment.output).getResult()] = segment.outputDim;
    for (auto [alloc, d] : segment.buffers)
      dims[alloc.getResult()] = d;
    for (Operation *op : segment.ops) {
      accesses.push_back(getAccesses(op));
      ranges.push_back(getLoopRanges(op));
    }
  }

  /// The rows each op computes and each intermediate holds in the band of
  /// output rows `rows`.
  void plan(Rows rows, SmallVectorImpl<Rows> &opRows,
            DenseMap<Value, Rows> &bufferRows) const {
    Value out = memref::AllocOp(segment.output).getResult();
    opRows.assign(segment.ops.size(), Rows{0, 0});
    bufferRows.clear();
    bufferRows[out] = rows;
    // Back from the output until nothing grows (an op may read a buffer
    // before another writes it).
    for (bool changed = true; changed;) {
      changed = false;
      for (int i = segment.ops.size() - 1; i >= 0; --i) {
        Operation *op = segment.ops[i];
        unsigned row = segment.rowLoops[i];
        for (const Access &access : accesses[i]) {
          if (!access.isWrite)
            continue;
          Value value = op->getOperand(access.operand);
          auto [base, offset] = *asBandBuffer(value, dims);
          Rows target = bufferRows.lookup(base);
          int64_t height =
              cast<MemRefType>(value.getType()).getDimSize(dims.lookup(base));
          Rows own{std::max(target.first, offset) - offset,
                   std::min(target.second, offset + height) - offset};
          opRows[i] = isEmpty(own) ? Rows{0, 0} : own;
        }
        if (isEmpty(opRows[i]))
          continue;
        for (const Access &access : accesses[i]) {
          Value value = op->getOperand(access.operand);
          std::optional<std::pair<Value, int64_t>> known =
              asBandBuffer(value, dims);
          if (access.isWrite || !known || known->first == out)
            continue;
          auto [base, offset] = *known;
          unsigned d = dims.lookup(base);
          Rows need = reach(access.map.getResult(d), row, opRows[i],
                            ranges[i]);
          int64_t size = cast<MemRefType>(base.getType()).getDimSize(d);
          need = {std::max<int64_t>(need.first + offset, 0),
                  std::min<int64_t>(need.second + offset, size)};
          Rows &have = bufferRows[base];
          Rows grown = isEmpty(have)
                           ? need
                           : Rows{std::min(have.first, need.first),
                                  std::max(have.second, need.second)};
          if (grown != have) {
            have = grown;
            changed = true;
          }
        }
      }
    }
  }

  const BandSegment &segment;
  llvm::MapVector<Value, unsigned> dims;
  SmallVector<SmallVector<Access>> accesses;
  SmallVector<SmallVector<int64_t>> ranges;
};
} // namespace

FailureOr<BandSegment> mlir::memsched::findBandSegment(memref::AllocOp output,
                                                       unsigned dim,
                                                       unsigned depth,
                                                       RefusedChain &refusal) {
  MemRefType type = output.getType();
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      dim >= type.getRank() || type.getDimSize(dim) < 2) {
    refusal = {output, "its output is not a static buffer with rows"};
    return failure();
  }
  return BandSearch(output, dim, depth).run(refusal);
}

std::pair<int64_t, int64_t>
mlir::memsched::bandRows(const BandSegment &segment, unsigned band,
                         unsigned bands) {
  int64_t rows = memref::AllocOp(segment.output).getType().getDimSize(segment.outputDim);
  return {rows * band / bands, rows * (band + 1) / bands};
}

uint64_t mlir::memsched::bandExtraCompute(const BandSegment &segment,
                                          unsigned bands) {
  SegmentInfo info(segment);
  SmallVector<int64_t> computed(segment.ops.size(), 0);
  SmallVector<Rows> opRows;
  DenseMap<Value, Rows> bufferRows;
  for (unsigned band = 0; band < bands; ++band) {
    info.plan(bandRows(segment, band, bands), opRows, bufferRows);
    for (auto [i, rows] : llvm::enumerate(opRows))
      if (!isEmpty(rows))
        computed[i] += rows.second - rows.first;
  }
  uint64_t extra = 0;
  for (auto [i, op] : llvm::enumerate(segment.ops)) {
    int64_t range = info.ranges[i][segment.rowLoops[i]];
    if (computed[i] <= range || range <= 0)
      continue;
    uint64_t cost = estimateComputeCost(op);
    extra += cost / range * (computed[i] - range) +
             cost % range * (computed[i] - range) / range;
  }
  return extra;
}

BandFloor mlir::memsched::computeBandFloor(const BandSegment &segment) {
  SegmentInfo info(segment);
  BandFloor floor;
  int64_t rows = memref::AllocOp(segment.output).getType().getDimSize(
      segment.outputDim);
  SmallVector<Rows> opRows, otherRows;
  DenseMap<Value, Rows> bufferRows;
  floor.fewestRows.assign(segment.buffers.size(),
                          std::numeric_limits<int64_t>::max());
  for (int64_t r = 0; r < rows; ++r) {
    info.plan({r, r + 1}, opRows, bufferRows);
    // Only the rows every op computes a part of (not a border row of a
    // padded output, say): a band holding one of them runs every op.
    if (llvm::any_of(opRows, isEmpty))
      continue;
    floor.everyOpRuns = true;
    for (auto [i, entry] : llvm::enumerate(segment.buffers)) {
      Rows held = bufferRows.lookup(memref::AllocOp(entry.first).getResult());
      floor.fewestRows[i] = std::min<int64_t>(
          floor.fewestRows[i], isEmpty(held) ? 0 : held.second - held.first);
    }
  }
  if (!floor.everyOpRuns)
    floor.fewestRows.assign(segment.buffers.size(), 0);
  // A boundary without extra compute: every op computes at most its rows
  // over the two sides (bandExtraCompute's measure). Whether a split of
  // several boundaries has none follows: each side of a boundary computes
  // the hull of what its rows need.
  DenseMap<Value, Rows> otherBufferRows;
  for (int64_t p = 1; p < rows && !floor.shrinksWithoutExtraCompute; ++p) {
    info.plan({0, p}, opRows, bufferRows);
    info.plan({p, rows}, otherRows, otherBufferRows);
    bool clean = true;
    for (unsigned i = 0; i < segment.ops.size() && clean; ++i) {
      int64_t range = info.ranges[i][segment.rowLoops[i]];
      int64_t computed = 0;
      for (Rows side : {opRows[i], otherRows[i]})
        if (!isEmpty(side))
          computed += side.second - side.first;
      clean = computed <= range || range <= 0;
    }
    if (!clean)
      continue;
    floor.withoutExtraCompute = true;
    // Some intermediate is held in part on each side (a band of border
    // rows alone holds every intermediate whole on the other).
    floor.shrinksWithoutExtraCompute =
        llvm::any_of(segment.buffers, [&](const auto &entry) {
          Value buffer = memref::AllocOp(entry.first).getResult();
          return !isEmpty(bufferRows.lookup(buffer)) &&
                 !isEmpty(otherBufferRows.lookup(buffer));
        });
  }
  return floor;
}

void mlir::memsched::splitIntoRowBands(const BandSegment &segment,
                                       unsigned bands) {
  Value out = memref::AllocOp(segment.output).getResult();
  int64_t rows = memref::AllocOp(segment.output).getType().getDimSize(segment.outputDim);
  bands = std::min<int64_t>(bands, rows);
  SegmentInfo info(segment);
  Operation *last = segment.ops.back();
  OpBuilder b(last);
  SmallVector<Rows> opRows;
  DenseMap<Value, Rows> bufferRows;
  for (unsigned band = 0; band < bands; ++band) {
    info.plan(bandRows(segment, band, bands), opRows, bufferRows);
    // The last op of the band that uses each intermediate.
    DenseMap<Value, unsigned> lastUse;
    for (auto [i, op] : llvm::enumerate(segment.ops)) {
      if (isEmpty(opRows[i]))
        continue;
      for (const Access &access : info.accesses[i])
        if (auto known = asBandBuffer(op->getOperand(access.operand),
                                      info.dims);
            known && known->first != out)
          lastUse[known->first] = i;
    }
    DenseMap<Value, Value> bandBuffers;
    for (auto [i, op] : llvm::enumerate(segment.ops)) {
      if (isEmpty(opRows[i]))
        continue;
      unsigned row = segment.rowLoops[i];
      SmallVector<std::pair<unsigned, Value>> operands;
      for (const Access &access : info.accesses[i]) {
        Value value = op->getOperand(access.operand);
        auto type = cast<MemRefType>(value.getType());
        std::optional<std::pair<Value, int64_t>> known =
            asBandBuffer(value, info.dims);
        int position = known ? int(info.dims.lookup(known->first))
                             : findRowResult(access.map, row);
        if (position < 0)
          continue; // no rows: the whole operand
        Rows need = access.isWrite
                        ? opRows[i]
                        : reach(access.map.getResult(position), row,
                                opRows[i], info.ranges[i]);
        SmallVector<OpFoldResult> offsets, sizes, strides;
        for (int64_t d = 0; d < type.getRank(); ++d) {
          offsets.push_back(b.getIndexAttr(0));
          sizes.push_back(b.getIndexAttr(type.getDimSize(d)));
          strides.push_back(b.getIndexAttr(1));
        }
        sizes[position] = b.getIndexAttr(need.second - need.first);
        Value source = value;
        if (known && known->first != out) {
          // A band of an intermediate: its rows [have.first, have.second).
          auto [base, offset] = *known;
          Rows have = bufferRows.lookup(base);
          Value &buffer = bandBuffers[base];
          if (!buffer) {
            auto alloc = base.getDefiningOp<memref::AllocOp>();
            SmallVector<int64_t> shape(alloc.getType().getShape());
            shape[position] = have.second - have.first;
            auto bandType = MemRefType::get(
                shape, alloc.getType().getElementType(),
                MemRefLayoutAttrInterface(), alloc.getType().getMemorySpace());
            buffer = memref::AllocOp::create(b, alloc.getLoc(), bandType,
                                             alloc.getAlignmentAttr());
          }
          source = buffer;
          if (auto view = value.getDefiningOp<memref::SubViewOp>())
            for (int64_t d = 0; d < type.getRank(); ++d)
              offsets[d] = b.getIndexAttr(view.getStaticOffsets()[d]);
          offsets[position] =
              b.getIndexAttr(offset + need.first - have.first);
          auto bufferType = cast<MemRefType>(buffer.getType());
          bool whole = llvm::all_of(offsets, [](OpFoldResult o) {
            return getConstantIntValue(o) == 0;
          });
          for (auto [size, extent] : llvm::zip(sizes, bufferType.getShape()))
            whole = whole && getConstantIntValue(size) == extent;
          if (whole) {
            operands.push_back({access.operand, buffer});
            continue;
          }
        } else {
          offsets[position] = b.getIndexAttr(need.first);
          if (need.first == 0 && need.second == type.getDimSize(position))
            continue; // all rows
        }
        Value view = memref::SubViewOp::create(b, op->getLoc(), source,
                                               offsets, sizes, strides);
        operands.push_back({access.operand, view});
      }
      Operation *clone = b.clone(*op);
      for (auto [index, value] : operands)
        clone->setOperand(index, value);
      for (auto [base, buffer] : bandBuffers)
        if (lastUse.lookup(base) == i)
          memref::DeallocOp::create(b, op->getLoc(), buffer);
    }
  }
  for (Operation *free : segment.sunkFrees)
    free->moveAfter(last);
  SmallVector<Operation *> buffers;
  for (auto [alloc, d] : segment.buffers)
    buffers.push_back(alloc);
  eraseReplaced(segment.ops, buffers);
}
