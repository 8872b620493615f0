//===- ChannelGroups.h - run channel-parallel chains by groups -*- C++ -*-===//
//
// A channel chain is a set of structured ops (linalg ops, memref.copy) of
// one block connected by intermediate buffers (allocated and freed in that
// block, used by the chain alone) such that one loop of every op runs over
// the same dimension of all its intermediates: the channels. The chain then
// computes each group of channels of its intermediates independently of the
// others, and runs as
//
//   scf.for %g = 0 to C step k { the chain's ops on k channels }
//
// with intermediates of k channels allocated and freed in the loop body.
// Every op runs over exactly the same points as before (no extra compute);
// an op whose output is not indexed by the channel loop reduces over it and
// accumulates into its output group after group, which visits each output
// element's terms in the same order as before when the channel loop is its
// outermost reduction loop (docs/split.md, "Channel groups").
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_TRANSFORMS_CHANNELGROUPS_H
#define MEMSCHED_TRANSFORMS_CHANNELGROUPS_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Block.h"
#include "llvm/ADT/SmallVector.h"

#include <string>
#include <vector>

namespace mlir {
namespace memsched {

struct ChannelChain {
  /// The ops of the chain, in block order.
  SmallVector<Operation *> ops;
  /// Per op: the loop (for a memref.copy: the dimension) that runs over
  /// the channels.
  SmallVector<unsigned> loopDims;
  /// The intermediate buffers and the dimension of their channels.
  SmallVector<std::pair<memref::AllocOp, unsigned>> buffers;
  /// Frees of buffers the chain reads that come before its last op: they
  /// move after the loop.
  SmallVector<Operation *> sunkFrees;
  /// The number of channels.
  int64_t channels = 0;
  /// Bytes of the intermediates (each counted once).
  uint64_t intermediateBytes = 0;
};

/// A chain that was found but cannot run by groups, for remarks.
struct RefusedChain {
  Operation *at;
  std::string reason;
};

/// Chains found whose spans (first op to last) meet cannot all run by
/// groups (each moves to its own last op). The chains kept are either
/// the largest first, each kept when it meets none kept (what lowers the
/// largest intermediates), or the set holding the most intermediate bytes
/// together (what lowers many smaller ones: the bands of a banded segment,
/// each with its chain, against one chain through the output all bands
/// write). Neither is always the lower peak.
enum class ChainSelection { LargestFirst, MostBytes };

struct ChainSet {
  /// Disjoint, with spans that do not meet, in block order.
  std::vector<ChannelChain> chains;
  /// The chains found that the selection leaves out, for remarks.
  SmallVector<RefusedChain> leftOut;
};

/// The channel chains of `block`: each a maximal set of ops reached from
/// one intermediate buffer. One set per selection that keeps different
/// chains (the largest first, then the most bytes when it differs). Chains
/// that have the shape but cannot be split are listed in `refused` with
/// the reason.
SmallVector<ChainSet, 2>
findChannelChainSets(Block &block, SmallVectorImpl<RefusedChain> &refused);

/// The chains of `block` under one selection; those it leaves out are
/// added to `refused`.
std::vector<ChannelChain>
findChannelChains(Block &block, SmallVectorImpl<RefusedChain> &refused,
                  ChainSelection selection = ChainSelection::LargestFirst);

/// Rewrites `chain` into an scf.for over groups of `groupSize` channels
/// (a divisor of chain.channels below it), placed where its last op was.
void splitIntoChannelGroups(const ChannelChain &chain, int64_t groupSize);

/// The group sizes a chain of `channels` channels can use: the divisors
/// of `channels` below it, ascending.
SmallVector<int64_t> channelGroupSizes(int64_t channels);

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_TRANSFORMS_CHANNELGROUPS_H
