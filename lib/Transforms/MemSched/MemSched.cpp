//===- MemSched.cpp - public C++ API of memsched ----------------*- C++ -*-===//

#include "Transforms/MemSched/MemSched.h"
#include "Transforms/MemSched/Certificate.h"

#include "Analysis/Graph/GraphIO.h"
#include "Analysis/Graph/SchedSegment.h"

#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace mlir::memsched;

/// The current op sequence of the analysed block, terminator excluded.
SmallVector<Operation *> mlir::memsched::currentSequence(Block *block) {
  SmallVector<Operation *> ops;
  for (Operation &op : *block)
    if (!op.hasTrait<OpTrait::IsTerminator>())
      ops.push_back(&op);
  return ops;
}

FailureOr<ScheduleFunctionResult>
mlir::memsched::scheduleFunction(Operation *func,
                                 const ScheduleFunctionOptions &options) {
  ScheduleFunctionResult result;
  BufferLifetimeAnalysis analysis(func, options.sizes,
                                  /*pinAllocations=*/!options.moveAllocations);
  if (!analysis.isSupported()) {
    result.unsupportedOp = analysis.getUnsupportedOp();
    result.reason = analysis.getUnsupportedReason().str();
    return result;
  }
  uint64_t before = analysis.getPeakAsWritten();
  result.peakBefore = result.peakAfter = before;
  result.sequenceBefore = currentSequence(analysis.getBlock());

  // A certificate proving this very body optimal: nothing to search.
  if (CertificateAttr cert = getCertificate(func);
      options.skipCertified && cert && cert.isOptimal() &&
      cert.getPeak() == before &&
      getSizeModel(cert).countAlignmentPadding ==
          options.sizes.countAlignmentPadding) {
    result.status = ScheduleFunctionResult::Status::SkippedCertified;
    result.certificate = cert;
    result.bound.value = cert.getLowerBound();
    result.sequenceAfter = result.sequenceBefore;
    return result;
  }
  result.status = ScheduleFunctionResult::Status::Scheduled;
  // The bound first: when the body as written already reaches it, no search
  // is needed; otherwise it tells the search when to stop.
  // The peers' orders serve both: upper estimates for the bound's cuts and
  // candidates of the search.
  std::vector<std::vector<::memsched::NodeId>> peerOrders =
      ::memsched::sched::allPeerOrders(analysis.getGraph());
  ::memsched::LowerBound bound =
      computeBodyLowerBound(analysis, before, nullptr, &peerOrders);
  ::memsched::ScheduleOptions search = options.search;
  search.peerOrders = &peerOrders;
  search.lowerBound = bound.value;
  if (bound.value == before) {
    result.search.order = analysis.getGraph().programOrder();
    result.search.peak = result.search.inputPeak =
        analysis.getPeakTight();
    result.search.provedOptimal = true;
  } else {
    result.search = ::memsched::schedule(analysis.getGraph(), search);
  }

  SmallVector<unsigned> order(result.search.order.begin(),
                              result.search.order.end());
  FailureOr<SmallVector<Operation *>> planned = planBlockOrder(analysis, order);
  if (failed(planned)) {
    // Nothing was moved: report rather than rewrite on a doubt.
    result.status = ScheduleFunctionResult::Status::Unsupported;
    result.unsupportedOp = func;
    result.reason = "internal error: the planned order of the block is "
                    "invalid; please report this input";
    return result;
  }
  SmallVector<Operation *> sequence = std::move(*planned);
  uint64_t after = getPeakOfSequence(analysis, sequence);

  // Never make a function worse: keep it as it is unless the peak goes down.
  if (after < before) {
    for (unsigned i = 0; i < order.size(); ++i)
      result.opsMoved += order[i] != i;
    applyBlockOrder(analysis, sequence);
    result.reordered = true;
    result.peakAfter = after;
  }
  result.sequenceAfter = currentSequence(analysis.getBlock());
  if (!options.certify)
    return result;

  // The bound holds for every order of the same ops. Pinned allocations
  // constrain the orders: certify what holds without the pins, on the final
  // body.
  if (!options.moveAllocations) {
    BufferLifetimeAnalysis unpinned(func, options.sizes);
    result.bound = computeBodyLowerBound(unpinned, result.peakAfter);
    result.certificate =
        buildCertificate(func->getContext(), unpinned, result.peakAfter,
                         result.bound, options.sizes);
    setCertificate(func, result.certificate);
    return result;
  }
  // The certificate names the op and allocations by their positions in the
  // final body.
  result.bound = bound;
  if (result.search.lowerBound > bound.value)
    result.bound = exhaustiveBound(analysis.getGraph(), result.search);
  SmallVector<unsigned> nodePosition, bufferPosition;
  if (result.reordered) {
    const auto &nodes = analysis.getNodes();
    const auto &buffers = analysis.getBuffers();
    DenseMap<Operation *, unsigned> allocIndex;
    for (auto [i, buf] : llvm::enumerate(buffers))
      allocIndex[buf.allocOp] = i;
    nodePosition.resize(nodes.size());
    bufferPosition.resize(buffers.size());
    unsigned nodeCount = 0, allocCount = 0;
    for (Operation *op : result.sequenceAfter) {
      if (auto it = allocIndex.find(op); it != allocIndex.end())
        bufferPosition[it->second] = allocCount++;
      else if (std::optional<unsigned> n = analysis.getNodeIndex(op))
        nodePosition[*n] = nodeCount++;
    }
  }
  result.certificate = buildCertificate(
      func->getContext(), analysis, result.peakAfter, result.bound,
      options.sizes, nodePosition, bufferPosition);
  setCertificate(func, result.certificate);
  return result;
}

CertifyFunctionResult mlir::memsched::certifyFunction(Operation *func,
                                                      SizeModel sizes,
                                                      bool attach,
                                                      uint64_t searchBudget) {
  CertifyFunctionResult result;
  BufferLifetimeAnalysis analysis(func, sizes);
  if (!analysis.isSupported()) {
    result.unsupportedOp = analysis.getUnsupportedOp();
    result.reason = analysis.getUnsupportedReason().str();
    return result;
  }
  result.supported = true;
  result.peak = analysis.getPeakAsWritten();
  result.bound =
      searchBudget
          ? reproveBodyLowerBound(analysis, result.peak, searchBudget)
          : computeBodyLowerBound(analysis, result.peak);
  result.certificate = buildCertificate(func->getContext(), analysis,
                                        result.peak, result.bound, sizes);
  if (attach)
    setCertificate(func, result.certificate);
  return result;
}

//===----------------------------------------------------------------------===//
// Reports
//===----------------------------------------------------------------------===//

static std::string bufferName(unsigned index) {
  return "buffer#" + std::to_string(index);
}

Timeline mlir::memsched::buildTimeline(
    const BufferLifetimeAnalysis &analysis, ArrayRef<Operation *> sequence,
    uint64_t peak, const DenseMap<Operation *, uint64_t> *offsets) {
  ArrayRef<BufferInfo> buffers = analysis.getBuffers();
  DenseMap<Operation *, unsigned> allocs, deallocs;
  for (auto [i, buf] : llvm::enumerate(buffers)) {
    allocs[buf.allocOp] = i;
    if (buf.dealloc)
      deallocs[buf.dealloc] = i;
  }
  Timeline t;
  t.peak = peak;
  SmallVector<std::optional<size_t>> first(buffers.size()),
      last(buffers.size());
  uint64_t current = 0;
  for (Operation *op : sequence) {
    if (auto it = allocs.find(op); it != allocs.end()) {
      current += buffers[it->second].size;
      first[it->second] = t.ops.size();
      continue;
    }
    if (auto it = deallocs.find(op); it != deallocs.end()) {
      current -= buffers[it->second].size;
      last[it->second] = t.ops.empty() ? 0 : t.ops.size() - 1;
      continue;
    }
    std::optional<unsigned> node = analysis.getNodeIndex(op);
    if (!node)
      continue;
    t.ops.push_back(op->getName().getStringRef().str() + "#" +
                    std::to_string(t.ops.size()));
    t.memoryAt.push_back(current + analysis.getNodes()[*node].transient);
  }
  for (size_t i = 1; i < t.memoryAt.size(); ++i)
    if (t.memoryAt[i] > t.memoryAt[t.peakPosition])
      t.peakPosition = i;
  for (auto [i, buf] : llvm::enumerate(buffers)) {
    if (!first[i] || t.ops.empty())
      continue;
    TimelineBuffer tb;
    tb.name = bufferName(i);
    llvm::raw_string_ostream type(tb.type);
    type << buf.allocOp->getResult(0).getType();
    tb.size = buf.size;
    if (auto loc = dyn_cast<FileLineColLoc>(buf.allocOp->getLoc()))
      tb.location = (loc.getFilename().getValue() + ":" +
                     Twine(loc.getLine()) + ":" + Twine(loc.getColumn()))
                        .str();
    if (offsets)
      if (auto it = offsets->find(buf.allocOp); it != offsets->end())
        tb.offset = it->second;
    tb.first = std::min(*first[i], t.ops.size() - 1);
    tb.last = last[i] ? *last[i] : t.ops.size() - 1;
    if (tb.last < tb.first)
      continue; // freed before any op ran
    if (tb.first <= t.peakPosition && t.peakPosition <= tb.last)
      t.liveAtPeak.push_back(tb.name);
    t.buffers.push_back(std::move(tb));
  }
  return t;
}

FunctionReport mlir::memsched::buildFunctionReport(
    Operation *func, const BufferLifetimeAnalysis &analysis,
    ArrayRef<Operation *> before, uint64_t peakBefore,
    ArrayRef<Operation *> after, uint64_t peakAfter, bool reordered,
    CertificateAttr certificate,
    const DenseMap<Operation *, uint64_t> *offsets) {
  FunctionReport report;
  report.function =
      "@" + SymbolTable::getSymbolName(func).getValue().str();
  report.before = buildTimeline(analysis, before, peakBefore, offsets);
  report.after = buildTimeline(analysis, after, peakAfter, offsets);
  report.reordered = reordered;
  if (certificate) {
    report.lowerBound = certificate.getLowerBound();
    if (certificate.getBoundKind())
      report.boundKind = certificate.getBoundKind().str();
    if (certificate.getBoundOp())
      report.boundOp = certificate.getBoundOp().str();
    for (uint64_t b : certificate.getCut())
      report.cutBuffers.push_back(bufferName(b));
  }
  return report;
}

std::string mlir::memsched::getReportFileStem(StringRef symbol) {
  // Symbol names can hold any character: keep a portable file name inside
  // the report directory (no separators, no leading dot), and tell apart
  // names that map to the same characters by a hash of the original.
  std::string stem;
  bool changed = symbol.empty();
  for (char c : symbol) {
    bool keep = llvm::isAlnum(c) || c == '_' || c == '-' || c == '.';
    if (stem.empty() && c == '.')
      keep = false;
    stem.push_back(keep ? c : '_');
    changed |= !keep;
  }
  if (stem.size() > 100) {
    stem.resize(100);
    changed = true;
  }
  if (changed)
    stem += "-" + llvm::utohexstr(llvm::xxh3_64bits(symbol), /*LowerCase=*/true);
  return stem;
}

LogicalResult mlir::memsched::writeFunctionReport(Operation *func,
                                                  const FunctionReport &report,
                                                  StringRef dir,
                                                  StringRef suffix) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return func->emitError() << "cannot create report directory '" << dir
                             << "': " << ec.message();
  std::string name =
      getReportFileStem(SymbolTable::getSymbolName(func).getValue()) +
      suffix.str();
  for (StringRef ext : {"json", "svg"}) {
    SmallString<128> path(dir);
    llvm::sys::path::append(path, name + "." + ext);
    std::error_code ec;
    llvm::ToolOutputFile file(path, ec, llvm::sys::fs::OF_Text);
    if (ec)
      return func->emitError() << "cannot write '" << path
                               << "': " << ec.message();
    if (ext == "json")
      writeJSONReport(report, file.os());
    else
      writeTimelineSVG(report, file.os());
    file.keep();
  }
  return success();
}

LogicalResult mlir::memsched::writeFunctionGraph(
    Operation *func, const ::memsched::MemoryGraph &graph, StringRef dir) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return func->emitError() << "cannot create graph directory '" << dir
                             << "': " << ec.message();
  SmallString<128> path(dir);
  llvm::sys::path::append(
      path, getReportFileStem(SymbolTable::getSymbolName(func).getValue()) +
                ".graph.json");
  std::error_code ec;
  llvm::ToolOutputFile file(path, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return func->emitError() << "cannot write '" << path
                             << "': " << ec.message();
  file.os() << ::memsched::writeGraphJson(graph);
  file.keep();
  return success();
}
