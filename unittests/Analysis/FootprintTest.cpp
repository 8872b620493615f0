//===- FootprintTest.cpp - footprints and overlap of views ------*- C++ -*-===//

#include "Analysis/MemSched/Footprint.h"
#include "Analysis/MemSched/AllocationSize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/DebugStringHelper.h"
#include "llvm/ADT/StringMap.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::memsched;

namespace {
/// Parses `body` as the body of @f(%arg: memref<8xf32>) and names the values
/// by the `name` attribute of their defining ops (or "arg").
class FootprintTest : public ::testing::Test {
protected:
  FootprintTest() {
    ctx.loadDialect<func::FuncDialect, memref::MemRefDialect,
                    arith::ArithDialect>();
    ctx.allowUnregisteredDialects();
  }

  void parse(StringRef body) {
    std::string src = ("func.func @f(%arg: memref<8xf32>) {\n" + body +
                       "\n  return\n}\n")
                          .str();
    module = parseSourceString<ModuleOp>(src, &ctx);
    ASSERT_TRUE(module);
    values.clear();
    auto func = cast<func::FuncOp>(&module->getBody()->front());
    values["arg"] = func.getArgument(0);
    func.walk([&](Operation *op) {
      if (auto name = op->getAttrOfType<StringAttr>("name"))
        values[name.getValue()] = op->getResult(0);
    });
  }

  Footprint fp(StringRef name) { return getFootprint(values.lookup(name)); }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
  llvm::StringMap<Value> values;
};
} // namespace

TEST(DecomposeBoxOffset, RejectsZeroAndNegativeStrides) {
  SmallVector<int64_t> coords;
  EXPECT_FALSE(decomposeBoxOffset(0, {4, 4}, {4, 0}, coords));
  EXPECT_FALSE(decomposeBoxOffset(0, {4, 4}, {0, 1}, coords));
  EXPECT_FALSE(decomposeBoxOffset(0, {4}, {-1}, coords));
  EXPECT_TRUE(decomposeBoxOffset(9, {2, 3}, {8, 1}, coords));
  EXPECT_EQ(coords, (SmallVector<int64_t>{1, 1}));
  // Rows of 8, a box 4 wide starting at column 6 wraps: not decomposable.
  EXPECT_FALSE(decomposeBoxOffset(6, {2, 4}, {8, 1}, coords));
}

TEST_F(FootprintTest, DisjointSlicesAndOverlaps) {
  parse(R"mlir(
  %a = memref.alloc() {name = "a"} : memref<16xf32>
  %lo = memref.subview %a[0] [8] [1] {name = "lo"} : memref<16xf32> to memref<8xf32, strided<[1]>>
  %hi = memref.subview %a[8] [8] [1] {name = "hi"} : memref<16xf32> to memref<8xf32, strided<[1], offset: 8>>
  %mid = memref.subview %a[4] [8] [1] {name = "mid"} : memref<16xf32> to memref<8xf32, strided<[1], offset: 4>>
  %ev = memref.subview %a[0] [8] [2] {name = "even"} : memref<16xf32> to memref<8xf32, strided<[2]>>
  %od = memref.subview %a[1] [8] [2] {name = "odd"} : memref<16xf32> to memref<8xf32, strided<[2], offset: 1>>)mlir");
  EXPECT_FALSE(mayOverlap(fp("lo"), fp("hi")));
  EXPECT_TRUE(mayOverlap(fp("lo"), fp("mid")));
  EXPECT_TRUE(mayOverlap(fp("hi"), fp("mid")));
  // Interleaved boxes are not proved disjoint (conservative: an edge).
  EXPECT_TRUE(mayOverlap(fp("even"), fp("odd")));
  EXPECT_TRUE(fp("a").coversBase);
  EXPECT_FALSE(fp("lo").coversBase);
  EXPECT_TRUE(isContainedIn(fp("lo"), fp("a")));
  EXPECT_FALSE(isContainedIn(fp("a"), fp("lo")));
}

TEST_F(FootprintTest, ZeroStrideViewsOverlapAndNeverCover) {
  parse(R"mlir(
  %a = memref.alloc() {name = "a"} : memref<8xf32>
  %z0 = memref.reinterpret_cast %a to offset: [0], sizes: [8], strides: [0] {name = "z0"} : memref<8xf32> to memref<8xf32, strided<[0]>>
  %z1 = memref.reinterpret_cast %a to offset: [0], sizes: [4, 2], strides: [0, 1] {name = "z1"} : memref<8xf32> to memref<4x2xf32, strided<[0, 1]>>)mlir");
  EXPECT_TRUE(mayOverlap(fp("z0"), fp("z1")));
  EXPECT_FALSE(fp("z0").coversBase);
  EXPECT_FALSE(fp("z1").coversBase);
}

TEST_F(FootprintTest, TransposeCoversArgumentsNever) {
  parse(R"mlir(
  %a = memref.alloc() {name = "a"} : memref<4x4xf32>
  %t = memref.transpose %a (i, j) -> (j, i) {name = "t"} : memref<4x4xf32> to memref<4x4xf32, strided<[1, 4]>>
  %r = memref.reinterpret_cast %arg to offset: [8], sizes: [8], strides: [1] {name = "beyond"} : memref<8xf32> to memref<8xf32, strided<[1], offset: 8>>)mlir");
  EXPECT_TRUE(fp("t").coversBase);
  // The argument's type says 8 elements; the caller's buffer may hold more.
  EXPECT_FALSE(fp("arg").coversBase);
  EXPECT_FALSE(isContainedIn(fp("beyond"), fp("arg")));
  EXPECT_FALSE(mayOverlap(fp("beyond"), fp("arg")));
}

TEST_F(FootprintTest, DenseBoxesOfArgumentsContainTheirRange) {
  parse(R"mlir(
  %lo = memref.subview %arg[0] [4] [1] {name = "lo"} : memref<8xf32> to memref<4xf32, strided<[1]>>
  %ev = memref.subview %arg[0] [4] [2] {name = "even"} : memref<8xf32> to memref<4xf32, strided<[2]>>
  %one = memref.subview %arg[3] [1] [1] {name = "one"} : memref<8xf32> to memref<1xf32, strided<[1], offset: 3>>
  %m = memref.reinterpret_cast %arg to offset: [0], sizes: [2, 4], strides: [4, 1] {name = "matrix"} : memref<8xf32> to memref<2x4xf32, strided<[4, 1]>>
  %t = memref.transpose %m (i, j) -> (j, i) {name = "t"} : memref<2x4xf32, strided<[4, 1]>> to memref<4x2xf32, strided<[1, 4]>>
  %r = memref.reinterpret_cast %arg to offset: [0], sizes: [2, 2], strides: [4, 1] {name = "gaps"} : memref<8xf32> to memref<2x2xf32, strided<[4, 1]>>)mlir");
  EXPECT_TRUE(fp("arg").dense);
  EXPECT_FALSE(fp("arg").coversBase);
  EXPECT_TRUE(isContainedIn(fp("lo"), fp("arg")));
  EXPECT_TRUE(isContainedIn(fp("even"), fp("arg")));
  EXPECT_TRUE(isContainedIn(fp("t"), fp("arg")));
  EXPECT_TRUE(isContainedIn(fp("arg"), fp("t")));
  EXPECT_TRUE(fp("one").dense);
  // Every other element, or rows with gaps: not dense, contains nothing
  // else, even within its range.
  EXPECT_FALSE(fp("even").dense);
  EXPECT_FALSE(isContainedIn(fp("one"), fp("even")));
  EXPECT_FALSE(fp("gaps").dense);
  EXPECT_FALSE(isContainedIn(fp("one"), fp("gaps")));
  EXPECT_FALSE(isContainedIn(fp("arg"), fp("lo")));
}

TEST_F(FootprintTest, HugeExtentsAreWhole) {
  parse(R"mlir(
  %a = memref.alloc() {name = "a"} : memref<8xf32>
  %r = memref.reinterpret_cast %a to offset: [0], sizes: [4611686018427387904, 4], strides: [4611686018427387904, 1] {name = "huge"} : memref<8xf32> to memref<4611686018427387904x4xf32, strided<[4611686018427387904, 1]>>)mlir");
  EXPECT_TRUE(fp("huge").whole);
  EXPECT_TRUE(mayOverlap(fp("huge"), fp("a")));
}

// The analysis reads strides without building affine expressions for the
// identity and strided layouts; the answer must be MLIR's on every type.
TEST(StridesAndOffset, AgreesWithMLIR) {
  MLIRContext ctx;
  ctx.loadDialect<memref::MemRefDialect>();
  unsigned seed = ::testing::UnitTest::GetInstance()->random_seed();
  std::srand(seed);
  SCOPED_TRACE("seed " + std::to_string(seed));
  Type f32 = Float32Type::get(&ctx);
  const int64_t sizes[] = {0, 1, 2, 3, 7, 64, ShapedType::kDynamic,
                           int64_t(1) << 40};
  unsigned checked = 0;
  for (unsigned trial = 0; trial < 4000; ++trial) {
    unsigned rank = std::rand() % 5;
    SmallVector<int64_t> shape;
    for (unsigned d = 0; d < rank; ++d)
      shape.push_back(sizes[std::rand() % std::size(sizes)]);
    MemRefLayoutAttrInterface layout;
    if (std::rand() % 2) {
      SmallVector<int64_t> strides;
      for (unsigned d = 0; d < rank; ++d)
        strides.push_back(std::rand() % 5 ? std::rand() % 100
                                          : ShapedType::kDynamic);
      int64_t offset = std::rand() % 4 ? std::rand() % 50 : ShapedType::kDynamic;
      layout = StridedLayoutAttr::get(&ctx, offset, strides);
    }
    auto type = MemRefType::get(shape, f32, layout);
    SmallVector<int64_t> expected, got;
    int64_t expectedOffset = 0, gotOffset = 0;
    bool ok = succeeded(type.getStridesAndOffset(expected, expectedOffset));
    ASSERT_EQ(ok, succeeded(memsched::getStridesAndOffset(type, got,
                                                           gotOffset)))
        << debugString(type);
    if (!ok)
      continue;
    EXPECT_EQ(expected, got) << debugString(type);
    EXPECT_EQ(expectedOffset, gotOffset) << debugString(type);
    ++checked;
  }
  EXPECT_GT(checked, 3000u);
}
