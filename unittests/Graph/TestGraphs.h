//===- TestGraphs.h - small hand-made graphs shared by the tests -*- C++ -*-===//

#ifndef MEMSCHED_UNITTESTS_TESTGRAPHS_H
#define MEMSCHED_UNITTESTS_TESTGRAPHS_H

#include "Analysis/Graph/MemoryGraph.h"

namespace memsched {

/// a -> {b, c} -> d, each node writing its own buffer (10, 20, 30 bytes; d's
/// 5-byte output is live-out); b and c read a, d reads b and c.
inline MemoryGraph diamondGraph() {
  MemoryGraph g;
  for (int i = 0; i < 4; ++i)
    g.addNode();
  BufferId a = g.addBuffer(10), b = g.addBuffer(20), c = g.addBuffer(30),
           d = g.addBuffer(5, false, true);
  for (NodeId n : {0, 1, 2})
    g.addTouch(a, n);
  g.addTouch(b, 1);
  g.addTouch(b, 3);
  g.addTouch(c, 2);
  g.addTouch(c, 3);
  g.addTouch(d, 3);
  g.addEdge(0, 1);
  g.addEdge(0, 2);
  g.addEdge(1, 3);
  g.addEdge(2, 3);
  g.finalize();
  return g;
}

} // namespace memsched

#endif // MEMSCHED_UNITTESTS_TESTGRAPHS_H
