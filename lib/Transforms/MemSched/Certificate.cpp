//===- Certificate.cpp - build and read memsched certificates ---*- C++ -*-===//

#include "Transforms/MemSched/Certificate.h"

#include "Analysis/Graph/SchedSegment.h"
#include "Analysis/MemSched/MemorySpaces.h"
#include "Analysis/MemSched/OpClassification.h"
#include "Analysis/MemSched/SizeSymbols.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::memsched;

uint64_t mlir::memsched::getBytesAllocatedThroughout(
    const BufferLifetimeAnalysis &analysis,
    std::vector<::memsched_core::BufferId> *buffers, bool *atStart) {
  // Buffers that are never freed are all allocated once the last of them is,
  // in any order; those no node touches are allocated after the last node,
  // where the graph does not see them.
  // Likewise the buffers allocated before the block (in another block of
  // the body) are all allocated when it starts, and those it does not free
  // are still allocated when it ends.
  // (The analysis checked that these totals fit in 64 bits.)
  uint64_t escaping = 0, entry = 0;
  std::vector<::memsched_core::BufferId> never, atEntry;
  for (auto [b, buf] : llvm::enumerate(analysis.getBuffers()))
    if (!buf.dealloc && buf.size) {
      (void)addBytes(escaping, buf.size);
      never.push_back(b);
    }
  size_t numOwn = analysis.getBuffers().size();
  for (auto [i, in] : llvm::enumerate(analysis.getLiveIn())) {
    if (!in.size)
      continue;
    (void)addBytes(entry, in.size);
    atEntry.push_back(numOwn + i);
    if (!in.deallocNode) {
      (void)addBytes(escaping, in.size);
      never.push_back(numOwn + i);
    }
  }
  bool start = entry > escaping;
  if (atStart)
    *atStart = start;
  if (buffers)
    *buffers = start ? std::move(atEntry) : std::move(never);
  return start ? entry : escaping;
}

::memsched_core::LowerBound mlir::memsched::computeBodyLowerBound(
    const BufferLifetimeAnalysis &analysis, uint64_t target,
    const std::vector<::memsched_core::NodeId> *order,
    const std::vector<std::vector<::memsched_core::NodeId>> *peerOrders) {
  ::memsched_core::LowerBoundOptions options;
  options.target = target;
  options.order = order;
  options.peerOrders = peerOrders;
  ::memsched_core::LowerBound bound =
      ::memsched_core::computeLowerBound(analysis.getGraph(), options);
  std::vector<::memsched_core::BufferId> never;
  bool atStart = false;
  uint64_t escaping = getBytesAllocatedThroughout(analysis, &never, &atStart);
  if (escaping > bound.value) {
    bound.value = escaping;
    bound.kind = "trivial";
    bound.method = "escaping";
    bound.node = analysis.getNodes().empty() || atStart
                     ? 0
                     : analysis.getNodes().size() - 1;
    bound.cutBuffers = std::move(never);
    bound.minCutExecuted.clear();
    bound.minCutBuffers.clear();
    bound.window.clear();
  }
  return bound;
}

::memsched_core::LowerBound
mlir::memsched::exhaustiveBound(const ::memsched_core::MemoryGraph &graph,
                                const ::memsched_core::ScheduleResult &schedule) {
  ::memsched_core::LowerBound bound;
  bound.value = schedule.lowerBound;
  bound.kind = "exhaustive";
  bound.method = "exact-search";
  if (schedule.boundSegment >= 0) {
    bound.node = schedule.segments[schedule.boundSegment].begin;
  } else if (!schedule.order.empty()) {
    ::memsched_core::PeakInfo info;
    ::memsched_core::evaluatePeak(graph, schedule.order, &info);
    bound.node = schedule.order[info.peakPosition];
  }
  return bound;
}

::memsched_core::LowerBound mlir::memsched::reproveBodyLowerBound(
    const BufferLifetimeAnalysis &analysis, uint64_t target,
    uint64_t stateBudget) {
  const ::memsched_core::MemoryGraph &graph = analysis.getGraph();
  std::vector<std::vector<::memsched_core::NodeId>> peerOrders =
      ::memsched_core::sched::allPeerOrders(graph);
  ::memsched_core::LowerBound bound =
      computeBodyLowerBound(analysis, target, nullptr, &peerOrders);
  if (bound.value >= target)
    return bound;
  if (!bound.improvedOrder.empty())
    peerOrders.push_back(std::move(bound.improvedOrder));
  ::memsched_core::ScheduleOptions options;
  options.exactStateBudget = stateBudget;
  options.peerOrders = &peerOrders;
  options.lowerBound = bound.value;
  ::memsched_core::ScheduleResult schedule = ::memsched_core::schedule(graph, options);
  if (schedule.lowerBound > bound.value)
    return exhaustiveBound(graph, schedule);
  return bound;
}

DenseMap<Operation *, unsigned>
mlir::memsched::getAllocationPositions(const BodyLifetimes &body) {
  DenseMap<Operation *, unsigned> positions;
  for (unsigned i = 0; i < body.getNumBlocks(); ++i) {
    DenseSet<Operation *> allocs;
    for (const BufferInfo &buf : body.getBlock(i).getBuffers())
      allocs.insert(buf.allocOp);
    for (Operation &o : *body.getBlock(i).getBlock())
      if (allocs.contains(&o))
        positions.try_emplace(&o, positions.size());
  }
  return positions;
}

unsigned mlir::memsched::getStrongestBlock(
    ArrayRef<::memsched_core::LowerBound> bounds) {
  unsigned best = 0;
  for (unsigned i = 1; i < bounds.size(); ++i)
    if (bounds[i].value > bounds[best].value)
      best = i;
  return best;
}

SmallVector<::memsched_core::LowerBound>
mlir::memsched::computeBlockBounds(const BodyLifetimes &given, uint64_t target,
                                   uint64_t searchBudget) {
  const BodyLifetimes &body = given.getBodyForBounds();
  SmallVector<::memsched_core::LowerBound> bounds;
  for (unsigned i = 0; i < body.getNumBlocks(); ++i) {
    const BufferLifetimeAnalysis &block = body.getBlock(i);
    if (!body.isReachable(i)) {
      // A block that never runs proves nothing.
      bounds.emplace_back();
      continue;
    }
    uint64_t blockTarget = std::min(target, block.getPeakAsWritten());
    bounds.push_back(searchBudget
                         ? reproveBodyLowerBound(block, blockTarget, searchBudget)
                         : computeBodyLowerBound(block, blockTarget));
  }
  return bounds;
}

/// The node `boundOp` (`name#k`) names among the scheduled ops of
/// `analysis`'s block, if any.
static std::optional<::memsched_core::NodeId>
findBoundNode(const BufferLifetimeAnalysis &analysis, StringRef boundOp) {
  auto [name, position] = boundOp.rsplit('#');
  unsigned k = 0;
  if (position.empty() || position.getAsInteger(10, k))
    return std::nullopt;
  unsigned seen = 0;
  for (Operation &o : *analysis.getBlock()) {
    std::optional<unsigned> node = analysis.getNodeIndex(&o);
    if (!node)
      continue;
    if (seen++ == k) {
      if (o.getName().getStringRef() != name)
        return std::nullopt;
      return *node;
    }
  }
  return std::nullopt;
}

LogicalResult mlir::memsched::checkCertificateReferences(
    const BodyLifetimes &body, CertificateAttr cert, std::string &why) {
  unsigned block = 0;
  if (std::optional<uint64_t> recorded = cert.getBlock()) {
    if (!body.hasSeveralBlocks() || *recorded >= body.getNumBlocks()) {
      why = "it records block = " + std::to_string(*recorded) +
            " but the body has " + std::to_string(body.getNumBlocks()) +
            " block" + (body.getNumBlocks() == 1 ? "" : "s") +
            (body.hasSeveralBlocks() ? "" : " (a body of one block records "
                                            "none)");
      return failure();
    }
    block = *recorded;
  }
  if (StringAttr op = cert.getBoundOp()) {
    // The op may have moved since (ops added or removed by a later
    // transform that kept the memory): its evidence is then not used. A
    // name or position the block cannot have is an error.
    const BufferLifetimeAnalysis &analysis = body.getBlock(block);
    auto [name, position] = op.getValue().rsplit('#');
    unsigned k = 0;
    bool named = false;
    for (Operation &o : *analysis.getBlock())
      named |= analysis.getNodeIndex(&o) && o.getName().getStringRef() == name;
    if (position.empty() || position.getAsInteger(10, k) ||
        k >= analysis.getNodes().size() || !named) {
      why = "its bound_op \"" + op.getValue().str() +
            "\" names no scheduled op of " +
            (body.hasSeveralBlocks() ? "block " + std::to_string(block)
                                     : std::string("the body")) +
            " (name#position, the position among its " +
            std::to_string(analysis.getNodes().size()) + " scheduled ops)";
      return failure();
    }
  }
  size_t numAllocations = getAllocationPositions(body).size();
  ArrayRef<uint64_t> cut = cert.getCut();
  for (auto [i, position] : llvm::enumerate(cut)) {
    if (position >= numAllocations || (i && position <= cut[i - 1])) {
      why = "its cut lists allocation " + std::to_string(position) +
            (position >= numAllocations
                 ? " but the body has " + std::to_string(numAllocations) +
                       " allocations"
                 : std::string(" out of order (positions increase)"));
      return failure();
    }
  }
  return success();
}

uint64_t mlir::memsched::reproveRecordedBound(const BodyLifetimes &given,
                                              CertificateAttr cert,
                                              uint64_t searchBudget) {
  uint64_t recorded = cert.getLowerBound();
  const BodyLifetimes &body = given.getBodyForBounds();
  unsigned block = cert.getBlock().value_or(0);
  StringRef kind = cert.getBoundKind() ? cert.getBoundKind().getValue() : "";
  uint64_t proved = 0;
  // The evidence of a cut bound: the forward cut of the op it names (exact:
  // the least memory that op runs with in any order) and what stays
  // allocated throughout.
  if (block < body.getNumBlocks() && body.isReachable(block)) {
    const BufferLifetimeAnalysis &analysis = body.getBlock(block);
    proved = getBytesAllocatedThroughout(analysis);
    if ((kind == "trivial" || kind == "forward") && cert.getBoundOp() &&
        proved < recorded)
      if (std::optional<::memsched_core::NodeId> node =
              findBoundNode(analysis, cert.getBoundOp().getValue()))
        proved = std::max(
            proved,
            ::memsched_core::computeNodeCut(analysis.getGraph(), *node).value);
  }
  if (proved >= recorded)
    return proved;
  // Otherwise the bound procedure itself, deterministic in the body and
  // the budget.
  uint64_t budget = 0;
  if (kind == "exhaustive")
    budget = cert.getSearchBudget().value_or(searchBudget);
  SmallVector<::memsched_core::LowerBound> bounds =
      computeBlockBounds(body, recorded, budget);
  return std::max(proved, bounds[getStrongestBlock(bounds)].value);
}

uint64_t mlir::memsched::reproveBoundAt(const BodyLifetimes &body,
                                        CertificateAttr c, uint64_t value,
                                        uint64_t searchBudget) {
  MLIRContext *context = c.getContext();
  auto probe = CertificateAttr::get(
      context, c.getPeak(), value, c.getBoundKind(), c.getBoundOp(), c.getCut(),
      c.getSizeModel(), std::nullopt, std::nullopt, c.getBlock(), ArrayAttr(),
      std::nullopt, std::nullopt, c.getSearchBudget(), DictionaryAttr(),
      StringAttr(), StringAttr(), std::nullopt);
  std::string why;
  if (failed(checkCertificateReferences(body, probe, why)))
    probe = CertificateAttr::get(
        context, c.getPeak(), value, StringAttr(), StringAttr(), {},
        c.getSizeModel(), std::nullopt, std::nullopt, std::nullopt, ArrayAttr(),
        std::nullopt, std::nullopt, std::nullopt, DictionaryAttr(),
        StringAttr(), StringAttr(), std::nullopt);
  return reproveRecordedBound(body, probe, searchBudget);
}

CertificateAttr mlir::memsched::ensureReprovable(const BodyLifetimes &body,
                                                 CertificateAttr cert,
                                                 uint64_t searchBudget) {
  std::string why;
  if (succeeded(checkCertificateReferences(body, cert, why)) &&
      reproveRecordedBound(body, cert) >= cert.getLowerBound())
    return cert;
  // The bounds of the body as it stands (the recorded one was proved on
  // the order before, with what that search knew).
  MLIRContext *context = body.getFunction()->getContext();
  SizeModel sizes = body.getSizes();
  uint64_t peak = cert.getPeak();
  SmallVector<::memsched_core::LowerBound> bounds =
      computeBlockBounds(body, peak, searchBudget);
  CertificateAttr again = buildCertificate(
      context, body, peak, bounds, sizes, cert.getSpaces(), searchBudget);
  if (succeeded(checkCertificateReferences(body, again, why)) &&
      reproveRecordedBound(body, again) >= again.getLowerBound())
    return again;
  // Last, what a check proves of that certificate: the forward cut of its
  // op (exact) or what stays allocated throughout.
  const BodyLifetimes &proving = body.getBodyForBounds();
  unsigned best = getStrongestBlock(bounds);
  const BufferLifetimeAnalysis &analysis = proving.getBlock(best);
  SmallVector<::memsched_core::LowerBound> evidence(bounds.size());
  ::memsched_core::LowerBound &bound = evidence[best];
  bound.value = getBytesAllocatedThroughout(analysis, &bound.cutBuffers);
  bound.kind = "trivial";
  bound.node = analysis.getNodes().empty() ? 0 : bounds[best].node;
  if (!analysis.getNodes().empty()) {
    ::memsched_core::NodeCut cut =
        ::memsched_core::computeNodeCut(analysis.getGraph(), bounds[best].node);
    if (cut.value > bound.value) {
      bound.value = cut.value;
      bound.kind = "forward";
      bound.cutBuffers = cut.forcedBuffers;
    }
  }
  return buildCertificate(context, body, peak, evidence, sizes,
                          cert.getSpaces());
}

CertificateAttr mlir::memsched::buildCertificate(
    MLIRContext *context, const BodyLifetimes &body, uint64_t peak,
    ArrayRef<::memsched_core::LowerBound> bounds, SizeModel sizes,
    ArrayAttr spaces, uint64_t searchBudget) {
  Builder b(context);
  unsigned best = getStrongestBlock(bounds);
  const ::memsched_core::LowerBound &bound = bounds[best];
  const BufferLifetimeAnalysis &analysis = body.getBlock(best);
  StringAttr kind, op;
  SmallVector<uint64_t> cut;
  if (!analysis.getNodes().empty() && bound.value > 0) {
    kind = b.getStringAttr(bound.kind);
    // Positions as the IR stands: the node among its block's nodes, the
    // allocations among the body's (block after block).
    Operation *boundOp = analysis.getNodes()[bound.node].op;
    unsigned node = 0;
    for (Operation &o : *analysis.getBlock()) {
      if (&o == boundOp)
        break;
      node += analysis.getNodeIndex(&o).has_value();
    }
    op = b.getStringAttr(boundOp->getName().getStringRef() + "#" +
                         Twine(node));
    DenseMap<Operation *, unsigned> allocPosition =
        getAllocationPositions(body);
    size_t numOwn = analysis.getBuffers().size();
    for (::memsched_core::BufferId buffer : bound.cutBuffers) {
      Operation *alloc = buffer < numOwn
                             ? analysis.getBuffers()[buffer].allocOp
                             : analysis.getLiveIn()[buffer - numOwn].allocOp;
      cut.push_back(allocPosition.lookup(alloc));
    }
    llvm::sort(cut);
  }
  StringAttr model =
      sizes.countAlignmentPadding ? b.getStringAttr("allocator") : StringAttr();
  // The bound is on the tight model, never above the peak of an order as
  // written.
  assert(bound.value <= peak && "lower bound above the peak of an order");
  std::optional<uint64_t> block;
  if (body.hasSeveralBlocks())
    block = best;
  std::optional<uint64_t> budget;
  if (bound.kind == "exhaustive" && bound.value > 0)
    budget = searchBudget;
  return CertificateAttr::get(
      context, peak, bound.value, kind, op, cut, model, std::nullopt,
      std::nullopt, block, spaces, std::nullopt, std::nullopt, budget,
      getSizesAtAttr(context, sizes), StringAttr(), StringAttr(), std::nullopt);
}

FailureOr<SpaceAttr> mlir::memsched::computeSpaceEntry(Operation *func,
                                                       SizeModel sizes,
                                                       Attribute space,
                                                       uint64_t searchBudget,
                                                       std::string &why) {
  sizes.memorySpace = space;
  BodyLifetimes body(func, sizes);
  if (!body.isSupported()) {
    why = body.getUnsupportedReason().str();
    return failure();
  }
  uint64_t peak = body.getPeakAsWritten();
  SmallVector<::memsched_core::LowerBound> bounds =
      computeBlockBounds(body, peak, searchBudget);
  return SpaceAttr::get(func->getContext(), space, peak,
                        bounds[getStrongestBlock(bounds)].value);
}

FailureOr<ArrayAttr> mlir::memsched::computeSpaceEntries(
    Operation *func, SizeModel sizes, ArrayRef<Attribute> spaces, uint64_t peak,
    uint64_t bound, uint64_t searchBudget, std::string &why) {
  MLIRContext *context = func->getContext();
  if (hasOnlyDefaultSpace(spaces))
    return ArrayAttr();
  // Every allocation is in that one space: its figures are the body's.
  if (spaces.size() == 1)
    return ArrayAttr::get(context,
                          {SpaceAttr::get(context, spaces[0], peak, bound)});
  SmallVector<Attribute> entries;
  for (Attribute space : spaces) {
    FailureOr<SpaceAttr> entry =
        computeSpaceEntry(func, sizes, space, searchBudget, why);
    if (failed(entry))
      return failure();
    entries.push_back(*entry);
  }
  return ArrayAttr::get(context, entries);
}

CertificateAttr mlir::memsched::withRematFields(CertificateAttr c,
                                                uint64_t rematOps,
                                                uint64_t extraComputePpm) {
  return CertificateAttr::get(
      c.getContext(), c.getPeak(), c.getLowerBound(), c.getBoundKind(),
      c.getBoundOp(), c.getCut(), c.getSizeModel(), c.getPeakWithArena(),
      c.getArenaSize(), c.getBlock(), c.getSpaces(), rematOps, extraComputePpm,
      c.getSearchBudget(), c.getSizesAt(), c.getPeakExpr(),
      c.getLowerBoundExpr(), c.getLowerBoundLow());
}

CertificateAttr
mlir::memsched::withRangeFields(CertificateAttr c, StringAttr peakExpr,
                                StringAttr lowerBoundExpr,
                                std::optional<uint64_t> lowerBoundLow) {
  return CertificateAttr::get(
      c.getContext(), c.getPeak(), c.getLowerBound(), c.getBoundKind(),
      c.getBoundOp(), c.getCut(), c.getSizeModel(), c.getPeakWithArena(),
      c.getArenaSize(), c.getBlock(), c.getSpaces(), c.getRematOps(),
      c.getExtraComputePpm(), c.getSearchBudget(), c.getSizesAt(), peakExpr,
      lowerBoundExpr, lowerBoundLow);
}

CertificateAttr mlir::memsched::carryRematFields(Operation *func,
                                                 CertificateAttr certificate) {
  CertificateAttr previous = getCertificate(func);
  if (!certificate || !previous || !previous.getRematOps() ||
      certificate.getRematOps())
    return certificate;
  return withRematFields(certificate, *previous.getRematOps(),
                         *previous.getExtraComputePpm());
}

CertificateAttr mlir::memsched::replaceCertificate(Operation *func,
                                                   CertificateAttr certificate) {
  certificate = carryRematFields(func, certificate);
  // A split by row bands: its extra compute, unless recomputation's
  // (which includes it) is there.
  if (auto split = func->getAttrOfType<IntegerAttr>(
          MemSchedDialect::getExtraComputeAttrName());
      certificate && split && !certificate.getExtraComputePpm())
    certificate = CertificateAttr::get(
        certificate.getContext(), certificate.getPeak(),
        certificate.getLowerBound(), certificate.getBoundKind(),
        certificate.getBoundOp(), certificate.getCut(),
        certificate.getSizeModel(), certificate.getPeakWithArena(),
        certificate.getArenaSize(), certificate.getBlock(),
        certificate.getSpaces(), certificate.getRematOps(),
        split.getValue().getZExtValue(), certificate.getSearchBudget(),
        certificate.getSizesAt(), certificate.getPeakExpr(),
        certificate.getLowerBoundExpr(), certificate.getLowerBoundLow());
  setCertificate(func, certificate);
  return certificate;
}

CertificateAttr mlir::memsched::getCertificate(Operation *op) {
  return op->getAttrOfType<CertificateAttr>(
      MemSchedDialect::getCertificateAttrName());
}

void mlir::memsched::setCertificate(Operation *op,
                                    CertificateAttr certificate) {
  op->setAttr(MemSchedDialect::getCertificateAttrName(), certificate);
}

SizeModel mlir::memsched::getSizeModel(CertificateAttr certificate,
                                       Operation *func) {
  SizeModel sizes;
  sizes.countAlignmentPadding = certificate.getSizeModel() &&
                                certificate.getSizeModel() == "allocator";
  DictionaryAttr at = certificate.getSizesAt();
  if (!at || !func)
    return sizes;
  // The sizes the certificate was computed at; symbols it does not name
  // stay at their constant upper bounds (kNotAtPoint).
  std::string why;
  FailureOr<SizeSymbols> symbols = SizeSymbols::collect(func, why);
  auto point = std::make_shared<SizePointHolder>();
  if (succeeded(symbols))
    point->symbols = std::move(*symbols);
  point->point.symbols = &point->symbols;
  point->point.values.assign(point->symbols.size(), kNotAtPoint);
  for (unsigned s = 0; s < point->symbols.size(); ++s)
    if (auto value = at.getAs<IntegerAttr>(point->symbols.getNames()[s]))
      point->point.values[s] = value.getValue().getZExtValue();
  sizes.point = std::shared_ptr<const SizePoint>(point, &point->point);
  return sizes;
}

DictionaryAttr mlir::memsched::getSizesAtAttr(MLIRContext *context,
                                              const SizeModel &sizes) {
  if (!sizes.point || !sizes.point->symbols)
    return {};
  const SizeSymbols &symbols = *sizes.point->symbols;
  SmallVector<NamedAttribute> entries;
  Builder b(context);
  for (unsigned s = 0; s < symbols.size(); ++s)
    if (symbols.isArgument(s) && s < sizes.point->values.size() &&
        sizes.point->values[s] != kNotAtPoint)
      entries.push_back(b.getNamedAttr(
          symbols.getNames()[s],
          b.getI64IntegerAttr(static_cast<int64_t>(sizes.point->values[s]))));
  if (entries.empty())
    return {};
  return b.getDictionaryAttr(entries);
}

void mlir::memsched::reportUnsupported(StringRef passName, Operation *func,
                                       Operation *at, StringRef reason,
                                       bool asError) {
  InFlightDiagnostic diag = asError ? at->emitError() : emitRemark(at->getLoc());
  diag << passName << ": '" << SymbolTable::getSymbolName(func).getValue()
       << "' left unchanged: " << reason;
}
