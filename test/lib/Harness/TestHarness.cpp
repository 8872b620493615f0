//===- TestHarness.cpp - Runnable main() for measured peaks ---*- C++ -*-===//
//
// Adds a `func.func @main()` that runs one function of the module under the
// counting allocator of libmemsched_runtime:
//
//   func.func @main() {
//     %a0 = memref.alloc() : memref<...>      // one per memref argument
//     scf.for ... { memref.store <fill value>, ... }
//     call @memsched_counter_reset() : () -> ()
//     %r:n = call @<func>(%a0, ..., <scalars>)
//     call @memsched_counter_print() : () -> ()
//     call @memsched_print_hash_<T>(%c0_i64, %c<i>_i64, %ri) // results
//     call @memsched_print_hash_<T>(%c1_i64, %c<i>_i64, %ai) // memref args
//     memref.dealloc %a0 : memref<...>
//     return
//   }
//
// Fill formula, for element (row-major linear) index i, or argument position i
// for a scalar argument: k = (i * 2654435761 + seed) mod 2^64 mod 1000
// (unsigned), then
//   float types: k / 1000.0 - 0.5 computed in f64, truncated to the type;
//   i1: k & 1;  other integers and index: k - 500 (truncated to the width).
// Results are not deallocated: they may alias arguments.
//
//===----------------------------------------------------------------------===//

#include "TestHarness.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"

#include <optional>

using namespace mlir;

static constexpr StringLiteral kResetFn = "memsched_counter_reset";
static constexpr StringLiteral kPrintFn = "memsched_counter_print";
static constexpr StringLiteral kHashFnPrefix = "memsched_print_hash_";
static constexpr int64_t kKindResult = 0;
static constexpr int64_t kKindArgument = 1;

//===----------------------------------------------------------------------===//
// Type support
//===----------------------------------------------------------------------===//

/// Suffix of the runtime hash function for `type`, if the runtime has one.
static std::optional<StringRef> getHashSuffix(Type type) {
  if (type.isF16())
    return StringRef("f16");
  if (type.isBF16())
    return StringRef("bf16");
  if (type.isF32())
    return StringRef("f32");
  if (type.isF64())
    return StringRef("f64");
  if (type.isIndex())
    return StringRef("index");
  if (!type.isSignlessInteger())
    return std::nullopt;
  switch (type.getIntOrFloatBitWidth()) {
  case 1:
    return StringRef("i1");
  case 8:
    return StringRef("i8");
  case 16:
    return StringRef("i16");
  case 32:
    return StringRef("i32");
  case 64:
    return StringRef("i64");
  default:
    return std::nullopt;
  }
}

/// Scalars the harness can pass and print: signless integers of a supported
/// width, index, f16, bf16, f32, f64.
static bool isSupportedScalar(Type type) {
  return (isa<FloatType>(type) || type.isIntOrIndex()) &&
         getHashSuffix(type).has_value();
}

static bool isDefaultMemorySpace(BaseMemRefType type) {
  Attribute space = type.getMemorySpace();
  if (!space)
    return true;
  auto intSpace = dyn_cast<IntegerAttr>(space);
  return intSpace && intSpace.getInt() == 0;
}

//===----------------------------------------------------------------------===//
// IR builders
//===----------------------------------------------------------------------===//

/// k = (i * 2654435761 + seed) mod 1000, unsigned i64 arithmetic.
static Value buildFillKey(ImplicitLocOpBuilder &b, Value index, uint64_t seed) {
  Type i64 = b.getI64Type();
  Value i = arith::IndexCastUIOp::create(b, i64, index);
  Value mul = arith::MulIOp::create(
      b, i, arith::ConstantIntOp::create(b, i64, 2654435761LL));
  Value add = arith::AddIOp::create(
      b, mul, arith::ConstantIntOp::create(b, i64, static_cast<int64_t>(seed)));
  return arith::RemUIOp::create(b, add,
                                arith::ConstantIntOp::create(b, i64, 1000));
}

/// The fill value of type `type` for key `key` (see the file header).
static Value buildFillValue(ImplicitLocOpBuilder &b, Type type, Value key) {
  if (auto floatType = dyn_cast<FloatType>(type)) {
    FloatType f64 = b.getF64Type();
    Value f = arith::UIToFPOp::create(b, f64, key);
    Value scaled = arith::DivFOp::create(
        b, f, arith::ConstantFloatOp::create(b, f64, APFloat(1000.0)));
    Value v = arith::SubFOp::create(
        b, scaled, arith::ConstantFloatOp::create(b, f64, APFloat(0.5)));
    if (floatType.getWidth() < 64)
      v = arith::TruncFOp::create(b, floatType, v);
    return v;
  }
  if (type.isSignlessInteger(1))
    return arith::TruncIOp::create(b, type, key);
  Value centered = arith::SubIOp::create(
      b, key, arith::ConstantIntOp::create(b, b.getI64Type(), 500));
  if (type.isIndex())
    return arith::IndexCastOp::create(b, type, centered);
  if (type.getIntOrFloatBitWidth() < 64)
    return arith::TruncIOp::create(b, type, centered);
  return centered;
}

/// Fills the identity-layout buffer `buffer` element by element.
static void buildFill(ImplicitLocOpBuilder &b, Value buffer, uint64_t seed) {
  auto type = cast<MemRefType>(buffer.getType());
  Type elementType = type.getElementType();
  if (type.getRank() == 0) {
    Value key = buildFillKey(b, arith::ConstantIndexOp::create(b, 0), seed);
    memref::StoreOp::create(b, buildFillValue(b, elementType, key), buffer);
    return;
  }
  Value flat = buffer;
  if (type.getRank() > 1) {
    ReassociationIndices all =
        llvm::to_vector_of<int64_t>(llvm::seq<int64_t>(0, type.getRank()));
    flat = memref::CollapseShapeOp::create(b, buffer,
                                           ArrayRef<ReassociationIndices>{all});
  }
  Value lb = arith::ConstantIndexOp::create(b, 0);
  Value ub = arith::ConstantIndexOp::create(b, type.getNumElements());
  Value step = arith::ConstantIndexOp::create(b, 1);
  scf::ForOp::create(
      b, lb, ub, step, ValueRange(),
      [&](OpBuilder &nested, Location loc, Value iv, ValueRange) {
        ImplicitLocOpBuilder body(loc, nested);
        Value value =
            buildFillValue(body, elementType, buildFillKey(body, iv, seed));
        memref::StoreOp::create(body, value, flat, ValueRange{iv});
        scf::YieldOp::create(body);
      });
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace {
struct TestHarnessPass
    : public PassWrapper<TestHarnessPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestHarnessPass)

  TestHarnessPass() = default;
  TestHarnessPass(const TestHarnessPass &pass) : PassWrapper(pass) {}

  StringRef getArgument() const final { return "memsched-test-harness"; }
  StringRef getDescription() const final {
    return "Add a main() that runs one function under the counting allocator "
           "of libmemsched_runtime and prints its peak and output hashes";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, func::FuncDialect,
                    memref::MemRefDialect, scf::SCFDialect>();
  }

  void runOnOperation() override;

  Option<std::string> funcName{*this, "func",
                               llvm::cl::desc("Name of the function to run")};
  Option<uint64_t> seed{*this, "seed",
                        llvm::cl::desc("Seed of the argument fill formula"),
                        llvm::cl::init(0)};

private:
  /// Returns the private declaration `name : type`, creating it at the end of
  /// the module if needed; null (after an error) on a clash.
  func::FuncOp getOrCreateDecl(StringRef name, FunctionType type,
                               bool cInterface);
  LogicalResult checkSignature(func::FuncOp callee);
};
} // namespace

func::FuncOp TestHarnessPass::getOrCreateDecl(StringRef name, FunctionType type,
                                              bool cInterface) {
  ModuleOp module = getOperation();
  if (Operation *existing = SymbolTable::lookupSymbolIn(module, name)) {
    auto fn = dyn_cast<func::FuncOp>(existing);
    if (!fn || fn.getFunctionType() != type) {
      emitError(existing->getLoc())
          << "memsched-test-harness: symbol '" << name
          << "' exists with another type; expected " << type;
      return nullptr;
    }
    return fn;
  }
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto fn = func::FuncOp::create(b, module.getLoc(), name, type);
  fn.setPrivate();
  if (cInterface)
    fn->setAttr("llvm.emit_c_interface", b.getUnitAttr());
  return fn;
}

LogicalResult TestHarnessPass::checkSignature(func::FuncOp callee) {
  ArrayRef<Type> argTypes = callee.getArgumentTypes();
  for (unsigned pos = 0, e = argTypes.size(); pos < e; ++pos) {
    Type type = argTypes[pos];
    if (isSupportedScalar(type))
      continue;
    StringRef reason;
    auto memrefType = dyn_cast<MemRefType>(type);
    if (!memrefType)
      reason = "only statically shaped memrefs and scalars (signless i1, i8, "
               "i16, i32, i64, index, f16, bf16, f32, f64) are supported";
    else if (!memrefType.hasStaticShape())
      reason = "dynamic shapes cannot be allocated";
    else if (!getHashSuffix(memrefType.getElementType()))
      reason = "unsupported element type";
    else if (!isDefaultMemorySpace(memrefType))
      reason = "only the default memory space is supported";
    else if (!memref::CastOp::areCastCompatible(
                 MemRefType::get(memrefType.getShape(),
                                 memrefType.getElementType()),
                 memrefType))
      reason = "its layout is not reachable from an identity layout by "
               "memref.cast";
    if (reason.empty())
      continue;
    return emitError(callee.getLoc())
           << "memsched-test-harness: argument #" << pos << " of @"
           << callee.getSymName() << " has type " << type << ": " << reason;
  }
  ArrayRef<Type> resultTypes = callee.getResultTypes();
  for (unsigned pos = 0, e = resultTypes.size(); pos < e; ++pos) {
    Type type = resultTypes[pos];
    if (isSupportedScalar(type))
      continue;
    auto memrefType = dyn_cast<BaseMemRefType>(type);
    if (memrefType && getHashSuffix(memrefType.getElementType()) &&
        isDefaultMemorySpace(memrefType))
      continue;
    return emitError(callee.getLoc())
           << "memsched-test-harness: result #" << pos << " of @"
           << callee.getSymName() << " has type " << type
           << ": only memrefs in the default memory space and scalars, of "
              "element type signless i1, i8, i16, i32, i64, index, f16, bf16, "
              "f32 or f64, are supported";
  }
  return success();
}

void TestHarnessPass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *ctx = &getContext();
  if (funcName.empty()) {
    emitError(module.getLoc(),
              "memsched-test-harness: missing option func=<name>");
    return signalPassFailure();
  }
  auto callee = dyn_cast_or_null<func::FuncOp>(
      SymbolTable::lookupSymbolIn(module, funcName));
  if (!callee || callee.isExternal()) {
    emitError(module.getLoc())
        << "memsched-test-harness: no function with a body named @" << funcName;
    return signalPassFailure();
  }
  if (SymbolTable::lookupSymbolIn(module, "main")) {
    emitError(module.getLoc(), "memsched-test-harness: the module already has "
                               "a symbol named 'main'");
    return signalPassFailure();
  }
  if (failed(checkSignature(callee)))
    return signalPassFailure();

  // Declare the runtime functions first (before main in the output), so a
  // clash fails the pass before main exists.
  auto voidType = FunctionType::get(ctx, {}, {});
  func::FuncOp resetFn = getOrCreateDecl(kResetFn, voidType, false);
  func::FuncOp printFn = getOrCreateDecl(kPrintFn, voidType, false);
  if (!resetFn || !printFn)
    return signalPassFailure();
  SmallVector<Type> hashedTypes;
  for (Type type : callee.getResultTypes())
    hashedTypes.push_back(isa<BaseMemRefType>(type)
                              ? cast<BaseMemRefType>(type).getElementType()
                              : type);
  for (Type type : callee.getArgumentTypes())
    if (auto memrefType = dyn_cast<MemRefType>(type))
      hashedTypes.push_back(memrefType.getElementType());
  llvm::StringMap<func::FuncOp> hashFns;
  Type i64 = IntegerType::get(ctx, 64);
  for (Type elementType : hashedTypes) {
    StringRef suffix = *getHashSuffix(elementType);
    if (hashFns.count(suffix))
      continue;
    auto type = FunctionType::get(
        ctx, {i64, i64, UnrankedMemRefType::get(elementType, Attribute())}, {});
    func::FuncOp fn =
        getOrCreateDecl((kHashFnPrefix + suffix).str(), type, true);
    if (!fn)
      return signalPassFailure();
    hashFns[suffix] = fn;
  }

  OpBuilder moduleBuilder = OpBuilder::atBlockEnd(module.getBody());
  Location loc = callee.getLoc();
  auto mainFn = func::FuncOp::create(moduleBuilder, loc, "main", voidType);
  ImplicitLocOpBuilder b =
      ImplicitLocOpBuilder::atBlockEnd(loc, mainFn.addEntryBlock());

  // Arguments: allocate and fill memrefs, materialise scalars.
  SmallVector<Value> callOperands;
  SmallVector<std::pair<unsigned, Value>> allocated;
  for (auto [pos, type] : llvm::enumerate(callee.getArgumentTypes())) {
    auto memrefType = dyn_cast<MemRefType>(type);
    if (!memrefType) {
      Value key = buildFillKey(b, arith::ConstantIndexOp::create(b, pos), seed);
      callOperands.push_back(buildFillValue(b, type, key));
      continue;
    }
    auto identity =
        MemRefType::get(memrefType.getShape(), memrefType.getElementType());
    Value buffer = memref::AllocOp::create(b, identity);
    buildFill(b, buffer, seed);
    allocated.emplace_back(pos, buffer);
    callOperands.push_back(
        identity == memrefType
            ? buffer
            : memref::CastOp::create(b, memrefType, buffer).getResult());
  }

  func::CallOp::create(b, resetFn, ValueRange());
  auto call = func::CallOp::create(b, callee, callOperands);
  func::CallOp::create(b, printFn, ValueRange());

  auto printHash = [&](int64_t kind, int64_t pos, Value value) {
    auto memrefType = cast<BaseMemRefType>(value.getType());
    func::FuncOp hashFn =
        hashFns.lookup(*getHashSuffix(memrefType.getElementType()));
    Value unranked = value;
    if (isa<MemRefType>(memrefType))
      unranked = memref::CastOp::create(
          b, UnrankedMemRefType::get(memrefType.getElementType(), Attribute()),
          value);
    Value kindValue = arith::ConstantIntOp::create(b, b.getI64Type(), kind);
    Value posValue = arith::ConstantIntOp::create(b, b.getI64Type(), pos);
    func::CallOp::create(b, hashFn, ValueRange{kindValue, posValue, unranked});
  };

  for (auto [pos, result] : llvm::enumerate(call.getResults())) {
    Value value = result;
    if (!isa<BaseMemRefType>(value.getType())) {
      // Scalars go through a stack slot so every output is hashed alike.
      auto slotType = MemRefType::get({}, value.getType());
      Value slot = memref::AllocaOp::create(b, slotType);
      memref::StoreOp::create(b, value, slot);
      value = slot;
    }
    printHash(kKindResult, pos, value);
  }
  for (auto [pos, buffer] : allocated)
    printHash(kKindArgument, pos, buffer);

  for (auto [pos, buffer] : allocated)
    memref::DeallocOp::create(b, buffer);
  func::ReturnOp::create(b);

  // Certificates describe the memref program; the lowered module for
  // mlir-runner must not carry attributes of a dialect it does not know.
  module.walk([](FunctionOpInterface fn) {
    fn->removeAttr("memsched.certificate");
  });
}

//===----------------------------------------------------------------------===//
// Lowering to the LLVM dialect, for mlir-runner
//===----------------------------------------------------------------------===//

namespace {
struct HarnessLoweringOptions
    : public PassPipelineOptions<HarnessLoweringOptions> {
  Option<bool> useAlignedAlloc{
      *this, "use-aligned-alloc",
      llvm::cl::desc("Lower memref.alloc to "
                     "_mlir_memref_to_llvm_aligned_alloc(alignment, size) "
                     "instead of _mlir_memref_to_llvm_alloc(size)"),
      llvm::cl::init(false)};
};
} // namespace

namespace {
/// A CPU has one memory: every memref type of the module moves to the
/// default memory space, so programs with buffers in other spaces (GPU-style
/// device or workgroup buffers) run under mlir-runner, with every space's
/// allocations counted by the same allocator (upstream's memref lowering
/// cannot free a buffer of another address space on the host).
struct StripMemorySpacesPass
    : public PassWrapper<StripMemorySpacesPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(StripMemorySpacesPass)
  StringRef getArgument() const final {
    return "memsched-test-strip-memory-spaces";
  }
  StringRef getDescription() const final {
    return "Move every memref type to the default memory space";
  }
  void runOnOperation() override {
    AttrTypeReplacer replacer;
    replacer.addReplacement([](MemRefType type) -> std::optional<Type> {
      if (!type.getMemorySpace())
        return std::nullopt;
      return MemRefType::get(type.getShape(), type.getElementType(),
                             type.getLayout());
    });
    replacer.addReplacement(
        [](UnrankedMemRefType type) -> std::optional<Type> {
          if (!type.getMemorySpace())
            return std::nullopt;
          return UnrankedMemRefType::get(type.getElementType(), Attribute());
        });
    replacer.recursivelyReplaceElementsIn(getOperation(), /*replaceAttrs=*/true,
                                          /*replaceLocs=*/false,
                                          /*replaceTypes=*/true);
    // Nor certificates, which mlir-runner's context cannot parse.
    getOperation()->walk(
        [](FunctionOpInterface fn) { fn->removeAttr("memsched.certificate"); });
  }
};
} // namespace

/// Textual equivalent (with use-aligned-alloc=false):
///   memsched-test-strip-memory-spaces, convert-bufferization-to-memref, convert-linalg-to-loops,
///   expand-strided-metadata, lower-affine, convert-scf-to-cf,
///   finalize-memref-to-llvm{use-generic-functions=true}, convert-math-to-llvm,
///   convert-math-to-libm, arith-expand, convert-arith-to-llvm,
///   convert-cf-to-llvm, convert-func-to-llvm, convert-index-to-llvm,
///   reconcile-unrealized-casts
/// The order matters: expand-strided-metadata emits affine.apply (lowered by
/// lower-affine), math-to-llvm takes what has an LLVM intrinsic before
/// math-to-libm takes the rest (erf, ...).
static void buildLowerToLLVMPipeline(OpPassManager &pm,
                                     const HarnessLoweringOptions &options) {
  pm.addPass(std::make_unique<StripMemorySpacesPass>());
  pm.addPass(createConvertBufferizationToMemRefPass());
  pm.addPass(memref::createExpandReallocPass());
  pm.addPass(createConvertLinalgToLoopsPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  FinalizeMemRefToLLVMConversionPassOptions memrefOptions;
  memrefOptions.useGenericFunctions = true;
  memrefOptions.useAlignedAlloc = options.useAlignedAlloc;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefOptions));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(arith::createArithExpandOpsPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

namespace mlir::memsched {
void registerTestHarnessPass() {
  PassRegistration<TestHarnessPass>();
  PassRegistration<StripMemorySpacesPass>();
  PassPipelineRegistration<HarnessLoweringOptions>(
      "memsched-test-lower-to-llvm",
      "Lower a memref/linalg/scf/affine/arith/math program to the LLVM "
      "dialect for mlir-runner, with allocation through the generic functions "
      "the memsched runtime counts",
      buildLowerToLLVMPipeline);
}
} // namespace mlir::memsched
