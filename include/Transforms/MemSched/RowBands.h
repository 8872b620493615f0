//===- RowBands.h - run a segment of ops band of rows by band -*- C++ -*-===//
//
// A row-band segment is a set of structured ops of one block that computes
// one buffer, its output, from buffers it reads whole (its inputs) through
// intermediate buffers (allocated and freed in the block, used by the
// segment alone), such that one loop of every op runs over the rows of
// the buffer it writes, and the rows an op reads of each intermediate are
// an interval given by its indexing map (a window: `(r * stride + k *
// dilation)`, or the row itself). The segment then computes each band of
// rows of its output from bands of rows of its intermediates, one band
// after the other:
//
//   band 0: the segment's ops on rows [0, r0) of the output
//   band 1: ... on rows [r0, r1)
//   ...
//
// with each intermediate's band allocated and freed within its band. The
// rows of an intermediate that two bands both need (a window's halo) are
// computed by each of them: extra compute, priced by the caller. Every
// element of every op is computed from the same values by the same
// arithmetic in the same order as before (docs/split.md, "Row bands").
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_TRANSFORMS_ROWBANDS_H
#define MEMSCHED_TRANSFORMS_ROWBANDS_H

#include "Transforms/MemSched/ChannelGroups.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir {
namespace memsched {

/// How far a segment reaches back from its output (ops), in the search of
/// Split.cpp and in the bound over all splits.
inline constexpr unsigned kMaxBandDepth = 24;

struct BandSegment {
  /// The ops of the segment, in block order.
  SmallVector<Operation *> ops;
  /// Per op: the loop that runs over the rows of the buffer it writes.
  SmallVector<unsigned> rowLoops;
  /// The intermediate buffers and the dimension of their rows.
  SmallVector<std::pair<memref::AllocOp, unsigned>> buffers;
  /// The buffer the segment computes and the dimension of its rows.
  memref::AllocOp output;
  unsigned outputDim = 0;
  /// Frees of buffers the segment reads that come before its last op: they
  /// move after the bands.
  SmallVector<Operation *> sunkFrees;
};

/// The segment that computes `output` along its dimension `dim`, reaching
/// back at most `depth` ops from `output` through intermediates, or failure
/// with the op and the reason in `refusal`.
FailureOr<BandSegment> findBandSegment(memref::AllocOp output, unsigned dim,
                                       unsigned depth, RefusedChain &refusal);

/// The rows of the output band `band` of `bands` covers: [first, second).
std::pair<int64_t, int64_t> bandRows(const BandSegment &segment,
                                     unsigned band, unsigned bands);

/// The compute (estimateComputeCost units) that running `segment` in
/// `bands` bands adds: the ops' points that two bands both compute.
uint64_t bandExtraCompute(const BandSegment &segment, unsigned bands);

/// What the bound over all splits (SplitBound.h) needs of a segment.
struct BandFloor {
  /// Whether some boundary between two rows of the output splits the
  /// segment without extra compute (no op computes a row on both sides):
  /// the segment is run by bands without recomputation by some split.
  bool withoutExtraCompute = false;
  /// Whether such a boundary also holds some intermediate in part on each
  /// side (a split at a border row holds every intermediate whole on the
  /// other side). When no boundary does, no split without extra compute
  /// holds less of an intermediate than the body does; whether a split of
  /// several boundaries recomputes nothing and shrinks something follows
  /// from its boundaries: each side computes the hull of what its rows
  /// need.
  bool shrinksWithoutExtraCompute = false;
  /// Whether some output row's band runs every op of the segment (not a
  /// border row of a padded output, say).
  bool everyOpRuns = false;
  /// Per intermediate (as in `segment.buffers`): the fewest rows of it
  /// (along its row dimension) a band of one such output row needs. A band
  /// that holds such a row needs at least those: no band of any split that
  /// runs every op holds fewer. 0 when no row's band runs every op.
  SmallVector<int64_t> fewestRows;
};
BandFloor computeBandFloor(const BandSegment &segment);

/// Rewrites `segment` into `bands` bands of its output's rows (at most its
/// rows), placed where its last op was.
void splitIntoRowBands(const BandSegment &segment, unsigned bands);

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_TRANSFORMS_ROWBANDS_H
