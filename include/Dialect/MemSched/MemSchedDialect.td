//===- MemSchedDialect.td - memsched dialect and attributes -*- tablegen -*-===//

#ifndef MEMSCHED_DIALECT_TD
#define MEMSCHED_DIALECT_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/DialectBase.td"
include "mlir/IR/OpBase.td"

def MemSched_Dialect : Dialect {
  let name = "memsched";
  let cppNamespace = "::mlir::memsched";
  let summary = "Peak-memory scheduling of lowered programs and its certificates";
  let description = [{
    The memsched dialect carries the results of memory scheduling: the
    `#memsched.certificate` attribute records the peak memory of a function's
    op order and a lower bound on the peak of every valid order of the same
    ops. Passes attach it (`--memsched-schedule`, `--memsched-certify`) and
    check it (`--memsched-verify`, `--memsched-check-budget`).

    Used as the discardable attribute `memsched.certificate`, it is only
    accepted on function-like ops. The unit attribute `memsched.arena` marks
    the arena `--memsched-plan-arena` creates: on a `memref.alloc` or a
    `memref.global` of `i8`, or on a function argument.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Name of the discardable attribute holding a certificate.
    static constexpr ::llvm::StringLiteral getCertificateAttrName() {
      return ::llvm::StringLiteral("memsched.certificate");
    }
    /// Unit attribute marking the arena of a planned function: on its
    /// `memref.alloc`, its `memref.global`, or its function argument.
    static constexpr ::llvm::StringLiteral getArenaAttrName() {
      return ::llvm::StringLiteral("memsched.arena");
    }
    /// The argument attribute declaring the range of a dynamic size
    /// (docs/dynamic.md): `array<i64: lo, hi>` on an integer or index
    /// argument, one `lo, hi` pair per dynamic dimension on a shaped one;
    /// hi = -1 for no upper bound.
    static constexpr ::llvm::StringLiteral getRangeAttrName() {
      return ::llvm::StringLiteral("memsched.range");
    }
    /// The argument attribute declaring the typical value of a dynamic
    /// size (docs/dynamic.md): `array<i64: v>` on an integer or index
    /// argument, one value per dynamic dimension on a shaped one; orders
    /// and arenas proved for the whole range are chosen for that value.
    static constexpr ::llvm::StringLiteral getTypicalAttrName() {
      return ::llvm::StringLiteral("memsched.typical");
    }
    /// Integer attribute on a function `--memsched-split` ran by row
    /// bands: the compute the bands add, in parts per million of the
    /// function's compute before.
    static constexpr ::llvm::StringLiteral getExtraComputeAttrName() {
      return ::llvm::StringLiteral("memsched.extra_compute_ppm");
    }
  }];
}

class MemSched_Attr<string name, string attrMnemonic>
    : AttrDef<MemSched_Dialect, name> {
  let mnemonic = attrMnemonic;
}

// Byte counts: unsigned 64-bit, a negative number is a parse error (the
// default integer parser would wrap it).
class MemSched_Bytes<string desc> : AttrParameter<"uint64_t", desc> {
  let parser = "parseByteCount($_parser)";
}
// An optional byte count where 0 is a value: absent is std::nullopt.
class MemSched_OptionalBytes<string desc>
    : OptionalParameter<"std::optional<uint64_t>", desc> {
  let parser = "parseOptionalByteCount($_parser)";
  let printer = "$_printer << *$_self";
}
// A memory space as a memref type spells it: `3` for an i64 integer space.
class MemSched_MemorySpace<string desc>
    : OptionalParameter<"::mlir::Attribute", desc> {
  let printer = "printMemorySpace($_printer, $_self)";
}
// A bracketed list of positions: `[0, 2, 5]`.
class MemSched_Positions<string desc>
    : OptionalArrayRefParameter<"uint64_t", desc> {
  let parser = "parsePositionList($_parser)";
  let printer = "printPositionList($_printer, $_self)";
}

def MemSched_SpaceAttr : MemSched_Attr<"Space", "space"> {
  let summary = "Peak memory and lower bound of one memory space";
  let description = [{
    One entry of a certificate's `spaces`: `peak` is the peak of the
    buffers in `memory_space` (absent: the default space) as the body
    stands, `lower_bound` a proven lower bound on that peak for every valid
    order of the same ops, counted as the certificate's own fields are but
    with the allocations of every other space at 0 bytes (in nested regions
    and callees too).

    Example: `#memsched.space<memory_space = 3, peak = 4096, lower_bound = 4096>`.
  }];
  let parameters = (ins
    MemSched_MemorySpace<"the memory space; absent for the default space">:$memory_space,
    MemSched_Bytes<"peak memory of this space as the body stands, in bytes">:$peak,
    MemSched_Bytes<"lower bound on this space's peak for any valid order, in bytes">:$lower_bound
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// True when the bound proves the order optimal for this space.
    bool isOptimal() const { return getLowerBound() == getPeak(); }
  }];
}

def MemSched_CertificateAttr : MemSched_Attr<"Certificate", "certificate"> {
  let summary = "Peak memory of an op order and a lower bound for any order";
  let description = [{
    `peak` is the peak memory in bytes of the function body as it stands
    (allocations and deallocations where they are, nested allocations at their
    own peak). `lower_bound` is a proven lower bound on the peak of every valid
    order of the same ops (with each allocation sunk to its first user and
    each deallocation hoisted after its last user); `lower_bound == peak`
    proves the order optimal. Both count the bytes of the buffers the function
    allocates itself; function arguments are not counted.

    Optional fields say what proves the bound: `bound_kind` (`trivial`,
    `forward` or `backward` cut family, `window`: a search over the orders of
    a few ops, each step priced by a cut; `exhaustive`: the scheduler's exact
    search found no order of the ops below the bound), `bound_op` (the op
    whose cut proves it, as `name#index` with the op's position among the
    body's scheduled ops; for `exhaustive`, the first op of the searched
    stretch between two ops that every order runs in the same place), `cut`
    (positions of the allocations counted in that cut among the body's
    allocations, in order, block after block; empty for `exhaustive`),
    `search_budget` (for `exhaustive`: the states per stretch the search
    was given, so that a check runs the same search), and `size_model`
    (absent when sizes are the memrefs' bytes,
    `"allocator"` when they count what upstream's generic allocation lowering
    requests, i.e. size + alignment for an allocation with an explicit
    alignment; checks recompute the peak with the same model).

    A body with several blocks is scheduled block by block (orders never
    cross blocks; terminators and block arguments stay): `peak` is the
    largest peak of its blocks and `lower_bound` the largest of their
    bounds, so `lower_bound == peak` proves that no order of the ops within
    their blocks has a lower peak. Each block counts the buffers allocated
    when it starts (by earlier blocks) as live from its start. `block` is
    the position in the body (from 0) of the block whose bound is
    `lower_bound`; `bound_op` then names an op of that block (its position
    among the block's scheduled ops) and `cut` may include allocations of
    earlier blocks that are live in it.

    A body that allocates in a memory space other than the default one
    (GPU workgroup memory, numbered address spaces, device memory) also has
    `spaces`: one `#memsched.space` entry per memory space it allocates in
    (directly, in nested regions or through calls), each with the peak and
    the lower bound of that space alone. `peak` and `lower_bound` still count
    every space together (the memory of a machine where all spaces are one
    memory, e.g. a GPU program mapped to a CPU); where the spaces are
    separate pools, the entries are what each pool needs.

    After `--memsched-rematerialize`, `remat_ops` counts the ops the body
    computes a second time (clones of the producers of buffers freed early
    and computed again before their late readers) and `extra_compute_ppm`
    their estimated work in parts per million of the function's work before
    (docs/remat.md). After `--memsched-split` ran a segment by row bands,
    `extra_compute_ppm` (alone, or added to the recomputation's) is the
    work of the rows two bands both compute (the function's
    `memsched.extra_compute_ppm`, docs/split.md). `peak` and `lower_bound` then describe the body with
    the clones: the bound holds for every order of those ops, not for other
    choices of what to recompute.

    A body whose allocations have dynamic sizes is counted with each size
    at its upper bound: the constant bound the IR gives it, or the upper
    end of the range declared on the function argument it comes from
    (`memsched.range`, docs/dynamic.md); `sizes_at` then records the value
    each size declared so took (`{arg0 = 64}`), and a check counts at the
    same sizes. After `--memsched-schedule` scheduled such a body over the
    ranges of its sizes, `peak_expr` is its peak at every size of the
    ranges and `lower_bound_expr` a lower bound on the peak of every order
    at every size, each `max(...)` of polynomials in the sizes' names
    (`max(1024*arg0 + 64, 2048*arg0)`); a check recomputes the first and
    proves the second over the ranges. `lower_bound_low` is the bound at the
    lower ends of the ranges, found as `lower_bound` is at `sizes_at`, when
    it is above `lower_bound_expr` there: the two ends then carry the bounds
    a program of those sizes would get; a check proves it again at those
    sizes.

    After `--memsched-plan-arena`, `arena_size` is the size of the one arena
    the function's buffers were placed in and `peak_with_arena` the memory
    the planned function needs at its worst moment: the arena plus the
    buffers left outside it (and the calls' memory) live at that moment.
    `peak` and `lower_bound` still describe the buffers before placement, so
    `peak_with_arena >= peak >= lower_bound`: `peak_with_arena == peak`
    means the placement lost nothing to fragmentation, and
    `peak_with_arena == lower_bound` proves that no order and no placement
    of these ops needs less.

    Example:
    ```mlir
    func.func @f() attributes {memsched.certificate =
        #memsched.certificate<peak = 1605632, lower_bound = 1605632,
                              bound_kind = "forward",
                              bound_op = "linalg.conv_2d_nchw_fchw#3",
                              cut = [0, 2]>} { ... }
    ```
  }];
  let parameters = (ins
    MemSched_Bytes<"peak memory of the body as it stands, in bytes">:$peak,
    MemSched_Bytes<"lower bound on the peak of any valid order, in bytes">:$lower_bound,
    OptionalParameter<"::mlir::StringAttr", "family of the bound that proves lower_bound">:$bound_kind,
    OptionalParameter<"::mlir::StringAttr", "op whose cut proves lower_bound (name#position)">:$bound_op,
    MemSched_Positions<"allocations (positions among the body's allocations, block after block) counted in the proving cut">:$cut,
    OptionalParameter<"::mlir::StringAttr", "how allocation sizes were counted: absent for the memref's bytes, \"allocator\" for what the generic allocation lowering requests">:$size_model,
    MemSched_OptionalBytes<"memory the function needs with its buffers in one arena: the arena plus what stays outside it, at its worst moment">:$peak_with_arena,
    MemSched_OptionalBytes<"size of the arena alone, in bytes">:$arena_size,
    MemSched_OptionalBytes<"for a body with several blocks: the block (its position in the body, from 0) whose bound is lower_bound; bound_op and cut refer to its ops">:$block,
    OptionalParameter<"::mlir::ArrayAttr", "per memory space: #memsched.space entries with that space's peak and bound (when the body allocates outside the default space)">:$spaces,
    MemSched_OptionalBytes<"after --memsched-rematerialize: ops the body computes again (clones added)">:$remat_ops,
    MemSched_OptionalBytes<"after --memsched-rematerialize or a split by row bands: the estimated extra compute, in parts per million of the function's compute before">:$extra_compute_ppm,
    MemSched_OptionalBytes<"for bound_kind exhaustive: the states per stretch the exact search that proved it was given; a check runs it with as many">:$search_budget,
    OptionalParameter<"::mlir::DictionaryAttr", "for a body with dynamic sizes whose declared ranges bound them: the value each such size (named argN, or argN.dD for dimension D of argument N) had; the others are at their constant upper bounds">:$sizes_at,
    OptionalParameter<"::mlir::StringAttr", "for a body with dynamic sizes: its peak at every size of their ranges, as max(...) of polynomials in the sizes' names">:$peak_expr,
    OptionalParameter<"::mlir::StringAttr", "for a body with dynamic sizes: a lower bound on the peak of every order at every size of their ranges, as max(...) of polynomials">:$lower_bound_expr,
    MemSched_OptionalBytes<"for a body with dynamic sizes: a lower bound on the peak of every order at the lower ends of their ranges, found as lower_bound is at sizes_at, when above lower_bound_expr there">:$lower_bound_low
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// True when the bound proves the order optimal.
    bool isOptimal() const { return getLowerBound() == getPeak(); }
    /// The entry of `space` in `spaces` (null: the default space), if any.
    SpaceAttr getSpaceEntry(::mlir::Attribute space) const;
  }];
}

#endif // MEMSCHED_DIALECT_TD
