//===- MemSchedRuntime.c - Counting allocator for measured peaks ---------===//
//
// Defines the generic allocation functions that
// `finalize-memref-to-llvm{use-generic-functions=true}` calls, and counts the
// live bytes so the peak a program really allocates can be compared with the
// peak memsched computes. Also prints bit-exact hashes of memref contents so
// two runs (original and scheduled) can be compared.
//
// Counting contract:
//   - every pointer returned by `_mlir_memref_to_llvm_alloc(size)` or
//     `_mlir_memref_to_llvm_aligned_alloc(alignment, size)` is charged exactly
//     `size` bytes (the size the lowered program requested, including any
//     alignment padding the lowering added);
//   - `_mlir_memref_to_llvm_free(ptr)` releases the bytes charged for `ptr`;
//   - `memsched_counter_reset()` starts a new measurement: current and peak
//     become 0 and allocations made before it are never charged, even when
//     they are freed later (e.g. buffers the harness allocates for arguments).
//
// Not thread-safe, by design: the measured programs are single-threaded.
//
//===----------------------------------------------------------------------===//

// posix_memalign.
#define _POSIX_C_SOURCE 200112L

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(_WIN32)
#define MEMSCHED_EXPORT __declspec(dllexport)
#else
#define MEMSCHED_EXPORT __attribute__((visibility("default")))
#endif

//===----------------------------------------------------------------------===//
// Pointer -> size table (open addressing, linear probing, backward-shift
// deletion so no tombstones are needed).
//===----------------------------------------------------------------------===//

typedef struct {
  void *ptr; // NULL marks an empty slot.
  uint64_t size;
  uint64_t epoch; // Measurement epoch the allocation was made in.
} Entry;

static Entry *table;
static size_t tableCapacity; // Always a power of two (or 0).
static size_t tableCount;

static uint64_t currentEpoch = 1;
static uint64_t currentBytes;
static uint64_t peakBytes;
static uint64_t numAllocs;
static uint64_t numFrees;
static uint64_t numUnknownFrees;

static size_t hashPointer(const void *ptr) {
  uint64_t x = (uint64_t)(uintptr_t)ptr;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (size_t)x;
}

static void tableInsertNoGrow(Entry e) {
  size_t mask = tableCapacity - 1;
  size_t i = hashPointer(e.ptr) & mask;
  while (table[i].ptr)
    i = (i + 1) & mask;
  table[i] = e;
  ++tableCount;
}

static void tableGrow(void) {
  size_t oldCapacity = tableCapacity;
  Entry *old = table;
  tableCapacity = oldCapacity ? oldCapacity * 2 : 1024;
  table = (Entry *)calloc(tableCapacity, sizeof(Entry));
  if (!table) {
    fprintf(stderr, "memsched-runtime: out of memory for the pointer table\n");
    abort();
  }
  tableCount = 0;
  for (size_t i = 0; i < oldCapacity; ++i)
    if (old[i].ptr)
      tableInsertNoGrow(old[i]);
  free(old);
}

static void tableInsert(void *ptr, uint64_t size, uint64_t epoch) {
  if ((tableCount + 1) * 2 > tableCapacity)
    tableGrow();
  Entry e = {ptr, size, epoch};
  tableInsertNoGrow(e);
}

/// Removes `ptr` from the table; returns 0 if it was not there.
static int tableErase(void *ptr, Entry *removed) {
  if (!tableCapacity)
    return 0;
  size_t mask = tableCapacity - 1;
  size_t i = hashPointer(ptr) & mask;
  while (table[i].ptr != ptr) {
    if (!table[i].ptr)
      return 0;
    i = (i + 1) & mask;
  }
  *removed = table[i];
  // Backward-shift deletion keeps every probe chain contiguous.
  size_t hole = i;
  for (size_t j = (i + 1) & mask; table[j].ptr; j = (j + 1) & mask) {
    size_t home = hashPointer(table[j].ptr) & mask;
    // Move j into the hole unless its home lies cyclically in (hole, j].
    int homeInRange =
        hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
    if (!homeInRange) {
      table[hole] = table[j];
      hole = j;
    }
  }
  table[hole].ptr = NULL;
  --tableCount;
  return 1;
}

static void recordAlloc(void *ptr, uint64_t size) {
  tableInsert(ptr, size, currentEpoch);
  ++numAllocs;
  currentBytes += size;
  if (currentBytes > peakBytes)
    peakBytes = currentBytes;
}

//===----------------------------------------------------------------------===//
// Generic allocation functions called by the lowered program.
//===----------------------------------------------------------------------===//

MEMSCHED_EXPORT void *_mlir_memref_to_llvm_alloc(uint64_t size) {
  // Never return NULL for a zero-byte request: every allocation needs a
  // distinct key in the table.
  void *ptr = malloc(size ? size : 1);
  if (!ptr) {
    fprintf(stderr, "memsched-runtime: malloc(%" PRIu64 ") failed\n", size);
    abort();
  }
  recordAlloc(ptr, size);
  return ptr;
}

MEMSCHED_EXPORT void *_mlir_memref_to_llvm_aligned_alloc(uint64_t alignment,
                                                         uint64_t size) {
  // posix_memalign needs a power-of-two multiple of sizeof(void *).
  size_t align = sizeof(void *);
  while (align < alignment)
    align *= 2;
  void *ptr = NULL;
  if (posix_memalign(&ptr, align, size ? size : 1) != 0 || !ptr) {
    fprintf(stderr,
            "memsched-runtime: aligned_alloc(%" PRIu64 ", %" PRIu64
            ") failed\n",
            alignment, size);
    abort();
  }
  recordAlloc(ptr, size);
  return ptr;
}

MEMSCHED_EXPORT void _mlir_memref_to_llvm_free(void *ptr) {
  if (!ptr)
    return;
  Entry e;
  if (!tableErase(ptr, &e)) {
    // Not ours (or a double free): report it, never free it.
    ++numUnknownFrees;
    fprintf(stderr, "memsched-runtime: free of unknown pointer %p\n", ptr);
    return;
  }
  if (e.epoch == currentEpoch) {
    ++numFrees;
    currentBytes -= e.size;
  }
  free(ptr);
}

//===----------------------------------------------------------------------===//
// Counter control, callable from MLIR as `func.func private @name()`.
//===----------------------------------------------------------------------===//

MEMSCHED_EXPORT void memsched_counter_reset(void) {
  ++currentEpoch;
  currentBytes = 0;
  peakBytes = 0;
  numAllocs = 0;
  numFrees = 0;
  numUnknownFrees = 0;
}

MEMSCHED_EXPORT void memsched_counter_print(void) {
  printf("memsched-measured-peak=%" PRIu64 " live-at-end=%" PRIu64
         " allocs=%" PRIu64 " frees=%" PRIu64 "\n",
         peakBytes, currentBytes, numAllocs, numFrees);
  if (numUnknownFrees)
    printf("memsched-unknown-frees=%" PRIu64 "\n", numUnknownFrees);
  fflush(stdout);
}

/// Also exposed for C callers and tests of the runtime itself.
MEMSCHED_EXPORT uint64_t memsched_counter_peak(void) { return peakBytes; }
MEMSCHED_EXPORT uint64_t memsched_counter_current(void) { return currentBytes; }

//===----------------------------------------------------------------------===//
// Bit-exact content hashes.
//
// MLIR declaration (one per element type, `llvm.emit_c_interface` so the
// memref is passed as a pointer to its unranked descriptor):
//   func.func private @memsched_print_hash_f32(i64, i64, memref<*xf32>)
//       attributes {llvm.emit_c_interface}
// The first operand is the kind (0 = result, 1 = argument), the second the
// position. Prints
//   memsched-hash <kind>#<pos> <type> elems=<n> fnv1a=0x<16 hex digits>
// where the hash is the 64-bit FNV-1a of the element bytes visited in
// row-major order of the logical indices (strides and offset honoured, so
// views hash their visible elements only).
//===----------------------------------------------------------------------===//

typedef struct {
  int64_t rank;
  void *descriptor;
} UnrankedMemRef;

// Ranked descriptor: { T *allocated; T *aligned; int64_t offset;
//                      int64_t sizes[rank]; int64_t strides[rank]; }
typedef struct {
  void *allocated;
  char *aligned;
  int64_t offset;
  int64_t sizesAndStrides[];
} RankedDescriptorHeader;

static const uint64_t kFnvOffset = 0xcbf29ce484222325ULL;
static const uint64_t kFnvPrime = 0x100000001b3ULL;

static void printHash(int64_t kind, int64_t pos, const char *typeName,
                      const UnrankedMemRef *m, size_t elemBytes) {
  const RankedDescriptorHeader *d =
      (const RankedDescriptorHeader *)m->descriptor;
  int64_t rank = m->rank;
  const int64_t *sizes = d->sizesAndStrides;
  const int64_t *strides = d->sizesAndStrides + rank;

  uint64_t numElements = 1;
  for (int64_t r = 0; r < rank; ++r)
    numElements *= sizes[r] > 0 ? (uint64_t)sizes[r] : 0;

  uint64_t hash = kFnvOffset;
  if (numElements) {
    int64_t *index = (int64_t *)calloc(rank ? rank : 1, sizeof(int64_t));
    for (uint64_t n = 0; n < numElements; ++n) {
      int64_t linear = d->offset;
      for (int64_t r = 0; r < rank; ++r)
        linear += index[r] * strides[r];
      const unsigned char *p =
          (const unsigned char *)d->aligned + linear * (int64_t)elemBytes;
      for (size_t b = 0; b < elemBytes; ++b) {
        hash ^= p[b];
        hash *= kFnvPrime;
      }
      // Row-major increment.
      for (int64_t r = rank - 1; r >= 0; --r) {
        if (++index[r] < sizes[r])
          break;
        index[r] = 0;
      }
    }
    free(index);
  }
  printf("memsched-hash %s#%" PRId64 " %s elems=%" PRIu64 " fnv1a=0x%016" PRIx64
         "\n",
         kind == 0 ? "result" : "arg", pos, typeName, numElements, hash);
  fflush(stdout);
}

#define MEMSCHED_DEFINE_HASH(SUFFIX, BYTES)                                    \
  MEMSCHED_EXPORT void _mlir_ciface_memsched_print_hash_##SUFFIX(              \
      int64_t kind, int64_t pos, UnrankedMemRef *m) {                          \
    printHash(kind, pos, #SUFFIX, m, BYTES);                                   \
  }

MEMSCHED_DEFINE_HASH(f16, 2)
MEMSCHED_DEFINE_HASH(bf16, 2)
MEMSCHED_DEFINE_HASH(f32, 4)
MEMSCHED_DEFINE_HASH(f64, 8)
MEMSCHED_DEFINE_HASH(i1, 1)
MEMSCHED_DEFINE_HASH(i8, 1)
MEMSCHED_DEFINE_HASH(i16, 2)
MEMSCHED_DEFINE_HASH(i32, 4)
MEMSCHED_DEFINE_HASH(i64, 8)
MEMSCHED_DEFINE_HASH(index, 8)

#undef MEMSCHED_DEFINE_HASH
