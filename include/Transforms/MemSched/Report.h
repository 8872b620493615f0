//===- Report.h - explain a function's peak as JSON and SVG -----*- C++ -*-===//
//
// Plain data describing memory over an op order before and after scheduling,
// and two renderings of it: a JSON object per function and a standalone SVG
// timeline. Includes no MLIR header; needs only LLVM Support.
//
// docs/report-format.md describes both formats for users.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_TRANSFORMS_REPORT_H
#define MEMSCHED_TRANSFORMS_REPORT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace memsched {

/// One buffer's live interval over the op sequence (positions, inclusive).
struct TimelineBuffer {
  std::string name;
  std::string type;
  uint64_t size = 0;
  size_t first = 0, last = 0;
  /// Where the allocation is ("file:line:col"), empty when unknown.
  std::string location = {};
  /// Its offset in the arena, for a function planned into one.
  std::optional<uint64_t> offset = {};
  /// Which arena (arenas by phase, in order), with an offset.
  unsigned arenaPhase = 0;
};

/// Memory over one op order.
struct Timeline {
  /// Op names in order, e.g. "linalg.conv_2d_nchw_fchw#3".
  std::vector<std::string> ops;
  /// Bytes live while each op runs (same length as `ops`).
  std::vector<uint64_t> memoryAt;
  /// Live intervals, positions into `ops`.
  std::vector<TimelineBuffer> buffers;
  uint64_t peak = 0;
  size_t peakPosition = 0;
  /// Names of the buffers live at `peakPosition`.
  std::vector<std::string> liveAtPeak;
};

/// What the passes found for one function.
struct FunctionReport {
  std::string function;
  /// `after` may equal `before` (certify only).
  Timeline before, after;
  bool reordered = false;
  uint64_t lowerBound = 0;
  /// How the bound was proved, e.g. "forward", and at which op, e.g.
  /// "linalg.add#2".
  std::string boundKind, boundOp;
  /// Buffers of the cut that proves the bound.
  std::vector<std::string> cutBuffers;
  bool optimal() const { return lowerBound == after.peak; }
  /// For a function planned into an arena: the arena's size and the memory
  /// the planned function needs (the certificate's arena_size and peak_with_arena).
  std::optional<uint64_t> arenaSize, arenaMemory;
  /// Arenas by phase: each one's size, in order (empty: one arena of
  /// arenaSize).
  std::vector<uint64_t> arenaPhaseSizes;
};

/// The JSON object for `report`. Fields (all sizes in bytes):
///   "function"     string  function name
///   "reordered"    bool    the op order changed
///   "peak_before"  uint    before.peak
///   "peak_after"   uint    after.peak
///   "lower_bound"  uint    no order of the ops peaks lower
///   "optimal"      bool    lower_bound == peak_after
///   "gap"          int     peak_after - lower_bound (negative only if the
///                          inputs are inconsistent)
///   "bound"        object  {"kind": string, "op": string, "cut": [string]}
///   "before", "after" objects, one per Timeline:
///     "peak"          uint    peak of this order
///     "peak_position" uint    index into "ops" of the op at the peak
///     "peak_op"       string  name of that op; null when there are no ops
///     "live_at_peak"  [string] buffer names
///     "ops"           [string] op names in order
///     "memory"        [uint]  bytes live while each op runs
///     "buffers"       [object] {"name", "type", "size", "first", "last"};
///                     first/last are inclusive positions into "ops".
/// llvm::json::Object itself prints its keys sorted; writeJSONReport keeps
/// the order above.
llvm::json::Object toJSON(const FunctionReport &report);

/// Writes `{"functions": [...]}` holding toJSON of each report, keys in the
/// order documented on toJSON, indented, ending with a newline.
void writeJSONReport(llvm::ArrayRef<FunctionReport> reports,
                     llvm::raw_ostream &os);

/// Writes a standalone SVG of `report`: a header with the numbers, then the
/// before and after timelines stacked vertically on one byte scale. Each panel
/// draws every buffer as a bar over [first, last] whose height is its size
/// (placed greedily, largest first, at the lowest offset free over its
/// interval), the memory per op as a step line, dashed lines at the peak and
/// at the lower bound, the op at the peak, op and byte axes, and a <title>
/// tooltip on every bar. Bars narrower than a pixel are left out when there
/// are very many ops; the memory line never is. Output depends only on the
/// input.
void writeTimelineSVG(const FunctionReport &report, llvm::raw_ostream &os);

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_TRANSFORMS_REPORT_H
