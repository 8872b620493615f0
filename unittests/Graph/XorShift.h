//===- XorShift.h - the seeded random stream of the graph tests -*- C++ -*-===//

#ifndef MEMSCHED_UNITTESTS_XORSHIFT_H
#define MEMSCHED_UNITTESTS_XORSHIFT_H

#include <cstdint>

namespace memsched_core::test {

/// xorshift64: cheap, deterministic on every platform.
struct XorShift {
  uint64_t x;
  uint64_t next() {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  }
  uint64_t below(uint64_t n) { return next() % n; }
};

} // namespace memsched_core::test

#endif // MEMSCHED_UNITTESTS_XORSHIFT_H
