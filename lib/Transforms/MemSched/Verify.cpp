//===- Verify.cpp - check certificates against the IR -----------*- C++ -*-===//

#include "Analysis/MemSched/CallGraph.h"
#include "Analysis/MemSched/MemorySpaces.h"
#include "Transforms/MemSched/Arena.h"
#include "Transforms/MemSched/ArenaOverRange.h"
#include "Transforms/MemSched/Certificate.h"
#include "Transforms/MemSched/Passes.h"
#include "Transforms/MemSched/ScheduleRange.h"

namespace mlir {
namespace memsched {
#define GEN_PASS_DEF_VERIFY
#include "Transforms/MemSched/Passes.h.inc"
} // namespace memsched
} // namespace mlir

using namespace mlir;
using namespace mlir::memsched;

namespace {
struct VerifyPass : public mlir::memsched::impl::VerifyBase<VerifyPass> {
  using VerifyBase::VerifyBase;

  void runOnOperation() override {
    for (func::FuncOp func : getFunctionsCalleesFirst(getOperation()))
      runOnFunction(func);
    markAllAnalysesPreserved();
  }

  /// A planned function: its peak and bound describe the buffers before
  /// placement; what the IR shows now is the placement and the arena.
  LogicalResult verifyArena(func::FuncOp func, CertificateAttr cert) {
    std::string why;
    FailureOr<SmallVector<Arena, 1>> arenas = findArenas(func, why);
    if (succeeded(arenas) && arenas->empty())
      why = "it has no value marked memsched.arena";
    if (failed(arenas) || arenas->empty()) {
      func.emitError() << "memsched-verify: the certificate of '"
                       << func.getSymName() << "' records an arena but " << why;
      return failure();
    }
    // Arenas by phase: the certificate records the largest. An arena sized
    // for a range of dynamic sizes: at the sizes the certificate names.
    uint64_t size = 0;
    SizeModel model = getSizeModel(cert, func);
    std::vector<::memsched_core::SizePoly> dynamicArenas;
    for (const Arena &arena : *arenas) {
      uint64_t bytes = arena.size;
      if (arena.dynamicSize) {
        const SizePoint *point = model.point.get();
        std::optional<std::vector<::memsched_core::SizePoly>> expr;
        if (point && point->symbols)
          expr = getSizeExpression(arena.dynamicSize, *point->symbols);
        bool atPoint = expr && llvm::all_of(point->values, [](uint64_t v) {
                         return v != kNotAtPoint;
                       });
        if (!atPoint) {
          func.emitError()
              << "memsched-verify: cannot check the certificate of '"
              << func.getSymName()
              << "': its arena's size is not computed from the dynamic sizes "
                 "its `sizes_at` names";
          return failure();
        }
        bytes = ::memsched_core::evaluateMax(*expr, point->values);
        dynamicArenas.insert(dynamicArenas.end(), expr->begin(), expr->end());
      }
      size = std::max(size, bytes);
    }
    if (!dynamicArenas.empty()) {
      func::FuncOp sizeFunc = getArenaSizeFunction(func);
      if (sizeFunc &&
          failed(checkArenaSizeFunction(
              sizeFunc, *model.point->symbols,
              ::memsched_core::pruneDominated(dynamicArenas), why))) {
        func.emitError() << "memsched-verify: wrong size function of '"
                         << func.getSymName() << "': " << why;
        return failure();
      }
    }
    if (size != *cert.getArenaSize()) {
      func.emitError() << "memsched-verify: stale certificate on '"
                       << func.getSymName() << "': it records an arena of "
                       << *cert.getArenaSize() << " bytes but the "
                       << (arenas->size() == 1 ? "arena has "
                                               : "largest arena has ")
                       << size << " bytes";
      return failure();
    }
    Operation *at = nullptr;
    for (const Arena &arena : *arenas)
      if (failed(checkArenaPlacement(func, arena, why, at))) {
        InFlightDiagnostic diag = func.emitError();
        diag << "memsched-verify: invalid arena placement in '"
             << func.getSymName() << "': " << why;
        if (at && at != func)
          diag.attachNote(at->getLoc()) << "the op at fault";
        return failure();
      }
    const Arena &arena = arenas->front();
    FailureOr<uint64_t> memory =
        computeArenaMemory(func, arena, getSizeModel(cert, func), why);
    if (failed(memory)) {
      func.emitError() << "memsched-verify: cannot check the certificate of '"
                       << func.getSymName() << "': " << why;
      return failure();
    }
    if (*memory != *cert.getPeakWithArena()) {
      func.emitError() << "memsched-verify: stale certificate on '"
                       << func.getSymName() << "': it records peak_with_arena = "
                       << *cert.getPeakWithArena()
                       << " bytes but the planned body needs " << *memory
                       << " bytes (the IR changed after planning)";
      return failure();
    }
    return success();
  }

  void runOnFunction(func::FuncOp func) {
    if (func.isExternal())
      return;
    CertificateAttr cert = getCertificate(func);
    if (!cert) {
      if (require) {
        func.emitError() << "memsched-verify: '" << func.getSymName()
                         << "' has no memsched.certificate";
        signalPassFailure();
      }
      return;
    }
    if (cert.getPeakWithArena()) {
      if (succeeded(verifyArena(func, cert)))
        ++numVerified;
      else
        signalPassFailure();
      return;
    }
    BodyLifetimes body(func, getSizeModel(cert, func));
    if (!body.isSupported()) {
      InFlightDiagnostic diag = func.emitError();
      diag << "memsched-verify: cannot check the certificate of '"
           << func.getSymName() << "': " << body.getUnsupportedReason();
      diag.attachNote(body.getUnsupportedOp()->getLoc()) << "the op at fault";
      signalPassFailure();
      return;
    }
    uint64_t peak = body.getPeakAsWritten();
    if (peak != cert.getPeak()) {
      func.emitError() << "memsched-verify: stale certificate on '"
                       << func.getSymName() << "': it records a peak of "
                       << cert.getPeak()
                       << " bytes but the body as it stands peaks at " << peak
                       << " bytes (the IR changed after certification; "
                          "re-run memsched-certify or memsched-schedule)";
      signalPassFailure();
      return;
    }
    std::string why;
    if (failed(checkCertificateReferences(body, cert, why))) {
      func.emitError() << "memsched-verify: invalid certificate on '"
                       << func.getSymName() << "': " << why;
      signalPassFailure();
      return;
    }
    bool exhaustive =
        cert.getBoundKind() && cert.getBoundKind().getValue() == "exhaustive";
    uint64_t proved = reproveRecordedBound(body, cert, searchBudget);
    if (proved < cert.getLowerBound()) {
      InFlightDiagnostic diag = func.emitError();
      diag << "memsched-verify: inconsistent certificate on '"
           << func.getSymName() << "': it records a lower bound of "
           << cert.getLowerBound() << " bytes but only " << proved
           << " bytes can be proved for this body";
      if (exhaustive)
        diag << " with an exact search of "
             << cert.getSearchBudget().value_or(searchBudget)
             << " states per stretch";
      signalPassFailure();
      return;
    }
    if (failed(verifySpaces(func, cert)))
      return signalPassFailure();
    if (cert.getPeakExpr() && failed(verifyRangeFields(func, cert)))
      return signalPassFailure();
    ++numVerified;
  }

  /// `peak_expr` and `lower_bound_expr`: the first the body's peak at every
  /// size of the ranges, the second at most a lower bound every order
  /// meets, both proved over the ranges (docs/dynamic.md).
  LogicalResult verifyRangeFields(func::FuncOp func, CertificateAttr cert) {
    auto fail = [&](const std::string &what) {
      func.emitError() << "memsched-verify: invalid certificate on '"
                       << func.getSymName() << "': " << what;
      return failure();
    };
    std::string why;
    FailureOr<SizeSymbols> symbols = SizeSymbols::collect(func, why);
    if (failed(symbols))
      return fail(why);
    std::vector<uint64_t> low, high;
    getRangeEnds(*symbols, low, high);
    SizeModel sizes = getSizeModel(cert, func);
    sizes.point.reset();
    Operation *where = nullptr;
    FailureOr<RangeBody> body =
        getRangeBody(func, sizes, false, *symbols, {high, low}, where, why);
    if (failed(body))
      return fail("its sizes over the ranges cannot be recomputed: " + why);
    const std::vector<std::string> &names = symbols->getNames();
    FailureOr<std::vector<::memsched_core::SizePoly>> peak =
        parseMaxOfPolys(cert.getPeakExpr().getValue(), names, why);
    if (failed(peak))
      return fail("peak_expr: " + why);
    std::vector<::memsched_core::SizePoly> bound;
    if (cert.getLowerBoundExpr()) {
      FailureOr<std::vector<::memsched_core::SizePoly>> parsed =
          parseMaxOfPolys(cert.getLowerBoundExpr().getValue(), names, why);
      if (failed(parsed))
        return fail("lower_bound_expr: " + why);
      bound = std::move(*parsed);
    }
    const std::vector<::memsched_core::SymbolRange> &ranges =
        symbols->getRanges();
    auto prove = [&](const std::vector<::memsched_core::SizePoly> &lhs,
                     const std::vector<::memsched_core::SizePoly> &rhs,
                     std::string &at) {
      ::memsched_core::MaxComparison c =
          ::memsched_core::proveMaxAtMost(lhs, rhs, ranges, kRangeProofBudget);
      if (c.result == ::memsched_core::ProofResult::Refuted)
        at =
            " at " + symbols->describePoint(c.counterexample) + ": " +
            std::to_string(
                ::memsched_core::evaluateMax(lhs, c.counterexample)) +
            " against " +
            std::to_string(::memsched_core::evaluateMax(rhs, c.counterexample));
      else if (c.result == ::memsched_core::ProofResult::Unknown)
        at = " (the comparison stopped at its work limit)";
      return c.result == ::memsched_core::ProofResult::Proved;
    };
    std::string at;
    std::string body_peak = describeMaxOfPolys(body->profile, names, SIZE_MAX);
    if (!prove(body->profile, *peak, at) || !prove(*peak, body->profile, at))
      return fail("peak_expr " + cert.getPeakExpr().getValue().str() +
                  " is not the body's peak " + body_peak + " over the ranges" +
                  at);
    std::vector<std::vector<uint64_t>> ends{high, low};
    for (auto [point, written] : llvm::zip(ends, body->writtenPeaks))
      if (::memsched_core::evaluateMax(*peak, point) != written)
        return fail("peak_expr is " +
                    std::to_string(::memsched_core::evaluateMax(*peak, point)) +
                    " bytes at " + symbols->describePoint(point) +
                    ", but the body as written peaks at " +
                    std::to_string(written) +
                    " bytes there (allocations not at their first uses)");
    if (!bound.empty() && !prove(bound, body->floors, at))
      return fail("lower_bound_expr " +
                  cert.getLowerBoundExpr().getValue().str() +
                  " is not proved: it is not below what the ops need in "
                  "every order, " +
                  describeMaxOfPolys(body->floors, names, SIZE_MAX) + at);
    if (std::optional<uint64_t> value = cert.getLowerBoundLow()) {
      SizeModel atLow = sizes;
      auto point = std::make_shared<SizePoint>();
      point->symbols = &*symbols;
      point->values = low;
      atLow.point = std::move(point);
      BodyLifetimes lowBody(func, atLow);
      uint64_t proved =
          lowBody.isSupported()
              ? reproveBoundAt(lowBody, cert, *value, searchBudget)
              : 0;
      if (proved < *value)
        return fail("lower_bound_low = " + std::to_string(*value) +
                    " bytes but only " + std::to_string(proved) +
                    " bytes can be proved at " + symbols->describePoint(low));
      if (*value > body->writtenPeaks.back())
        return fail("lower_bound_low = " + std::to_string(*value) +
                    " bytes is above the peak as written at " +
                    symbols->describePoint(low) + ", " +
                    std::to_string(body->writtenPeaks.back()) + " bytes");
    }
    return success();
  }

  /// The `spaces` entries: the same spaces as the body allocates in, each
  /// with the peak of the body counted in that space and a bound that can
  /// be proved again.
  LogicalResult verifySpaces(func::FuncOp func, CertificateAttr cert) {
    if (!cert.getSpaces())
      return success();
    SmallVector<Attribute> spaces = collectMemorySpaces(func);
    auto names = [](auto &&range) {
      std::string text;
      llvm::raw_string_ostream os(text);
      llvm::interleaveComma(range, os, [&](Attribute space) {
        os << describeMemorySpace(space);
      });
      return text;
    };
    SmallVector<Attribute> recorded = llvm::to_vector(llvm::map_range(
        cert.getSpaces().getAsRange<SpaceAttr>(),
        [](SpaceAttr entry) { return entry.getMemorySpace(); }));
    if (recorded.size() != spaces.size() ||
        !llvm::all_of(spaces, [&](Attribute space) {
          return llvm::is_contained(recorded, space);
        })) {
      func.emitError() << "memsched-verify: stale certificate on '"
                       << func.getSymName() << "': it records memory spaces ["
                       << names(recorded) << "] but the body allocates in ["
                       << names(spaces) << "]";
      return failure();
    }
    for (SpaceAttr entry : cert.getSpaces().getAsRange<SpaceAttr>()) {
      SizeModel sizes = getSizeModel(cert, func);
      sizes.memorySpace = entry.getMemorySpace();
      std::string space = describeMemorySpace(entry.getMemorySpace());
      BodyLifetimes body(func, sizes);
      if (!body.isSupported()) {
        func.emitError() << "memsched-verify: cannot check memory space "
                         << space << " of '" << func.getSymName()
                         << "': " << body.getUnsupportedReason();
        return failure();
      }
      uint64_t peak = body.getPeakAsWritten();
      if (peak != entry.getPeak()) {
        func.emitError() << "memsched-verify: stale certificate on '"
                         << func.getSymName() << "': it records a peak of "
                         << entry.getPeak() << " bytes in memory space "
                         << space << " but the body peaks at " << peak
                         << " bytes there";
        return failure();
      }
      SmallVector<::memsched_core::LowerBound> bounds =
          computeBlockBounds(body, entry.getLowerBound(), searchBudget);
      uint64_t bound = bounds[getStrongestBlock(bounds)].value;
      if (bound < entry.getLowerBound()) {
        func.emitError()
            << "memsched-verify: inconsistent certificate on '"
            << func.getSymName() << "': it records a lower bound of "
            << entry.getLowerBound() << " bytes in memory space " << space
            << " but only " << bound << " bytes can be proved there (with "
            << "an exact search of " << uint64_t(searchBudget)
            << " states; a larger memsched-schedule state-budget needs as "
               "large a search-budget)";
        return failure();
      }
    }
    return success();
  }
};
} // namespace
