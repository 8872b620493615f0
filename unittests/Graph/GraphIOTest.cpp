//===- GraphIOTest.cpp - MemoryGraph JSON round trip and errors -*- C++ -*-===//

#include "Analysis/Graph/GraphGenerators.h"
#include "Analysis/Graph/GraphIO.h"

#include <gtest/gtest.h>

using namespace memsched;

namespace {

/// Same nodes, buffers, touchers, edges and flags.
void expectSameGraph(const MemoryGraph &a, const MemoryGraph &b) {
  ASSERT_EQ(a.numNodes(), b.numNodes());
  ASSERT_EQ(a.numBuffers(), b.numBuffers());
  for (NodeId n = 0; n < a.numNodes(); ++n) {
    EXPECT_EQ(a.transientBytes(n), b.transientBytes(n));
    EXPECT_EQ(a.nodeName(n), b.nodeName(n));
    EXPECT_EQ(a.preds(n), b.preds(n));
    EXPECT_EQ(a.succs(n), b.succs(n));
  }
  for (BufferId i = 0; i < a.numBuffers(); ++i) {
    EXPECT_EQ(a.buffer(i).size, b.buffer(i).size);
    EXPECT_EQ(a.buffer(i).touchers, b.buffer(i).touchers);
    EXPECT_EQ(a.buffer(i).liveIn, b.buffer(i).liveIn);
    EXPECT_EQ(a.buffer(i).liveOut, b.buffer(i).liveOut);
    EXPECT_EQ(a.buffer(i).name, b.buffer(i).name);
  }
}

TEST(GraphIO, RoundTripOfEveryFamily) {
  for (GraphFamily f : allFamilies())
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      SCOPED_TRACE(std::string(familyName(f)) + " seed " +
                   std::to_string(seed));
      MemoryGraph g = generateGraph(f, 10 + seed * 7, seed, 1ull << 40);
      std::string text = writeGraphJson(g);
      MemoryGraph back;
      std::string error;
      ASSERT_TRUE(readGraphJson(text, back, error)) << error;
      expectSameGraph(g, back);
      EXPECT_EQ(writeGraphJson(back), text);
    }
}

TEST(GraphIO, NamesWithEscapes) {
  MemoryGraph g;
  g.addNode(3, "op \"quoted\"\\\n\t\x01");
  g.addNode(0, "");
  BufferId b = g.addBuffer(UINT64_MAX, true, true, "%a\"b");
  g.addTouch(b, 0);
  g.addTouch(b, 1);
  g.addEdge(0, 1);
  g.finalize();
  MemoryGraph back;
  std::string error;
  ASSERT_TRUE(readGraphJson(writeGraphJson(g), back, error)) << error;
  expectSameGraph(g, back);
}

TEST(GraphIO, OptionalFieldsDefault) {
  MemoryGraph g;
  std::string error;
  ASSERT_TRUE(readGraphJson(
      R"({"format": "memsched-graph", "version": 1, "nodes": [{}, {"x": 1}],
          "buffers": [{"size": 8, "touchers": [1]}], "edges": [[0, 1]],
          "extra": {"ignored": [null]}})",
      g, error))
      << error;
  ASSERT_EQ(g.numNodes(), 2u);
  EXPECT_EQ(g.transientBytes(0), 0u);
  EXPECT_FALSE(g.buffer(0).liveIn);
  EXPECT_FALSE(g.buffer(0).liveOut);
  EXPECT_EQ(g.succs(0), std::vector<NodeId>{1});
}

TEST(GraphIO, MalformedInputIsRejectedWithAReason) {
  const std::pair<const char *, const char *> cases[] = {
      {"", "unexpected end of input"},
      {"[]", "must be an object"},
      {R"({"format": "x", "version": 1})", "\"format\" must be"},
      {R"({"format": "memsched-graph", "version": 2})", "unsupported \"version\" 2"},
      {R"({"format": "memsched-graph", "version": 1})", "missing \"nodes\""},
      {R"({"format": "memsched-graph", "version": 1, "nodes": [{"transient": -1}]})",
       "transient must be a non-negative integer"},
      {R"({"format": "memsched-graph", "version": 1, "nodes": [], "buffers": [{"touchers": []}]})",
       "needs a \"size\""},
      {R"({"format": "memsched-graph", "version": 1, "nodes": [],
           "buffers": [{"size": 99999999999999999999, "touchers": []}]})",
       "does not fit in 64 bits"},
      {R"({"format": "memsched-graph", "version": 1, "nodes": [{}],
           "buffers": [{"size": 1, "touchers": [1]}], "edges": []})",
       "toucher 1 is not a node (1 nodes)"},
      {R"({"format": "memsched-graph", "version": 1, "nodes": [{}, {}],
           "buffers": [], "edges": [[1, 0]]})",
       "does not go forward"},
      {R"({"format": "memsched-graph", "version": 1, "nodes": [{}, {}],
           "buffers": [], "edges": [[0]]})",
       "must be a pair"},
      {R"({"format": "memsched-graph", "version": 1, "nodes": [{}], "buffers": [], "edges": []} x)",
       "trailing characters"},
      {R"({"format": "memsched-graph", "version": 1, "nodes": [{"name": "a)",
       "unterminated string"},
      {R"({"format": "memsched-graph", "version": 1, "nodes": [{"live_in": tru}]})",
       "unexpected character"},
  };
  for (auto [text, message] : cases) {
    SCOPED_TRACE(text);
    MemoryGraph g;
    std::string error;
    EXPECT_FALSE(readGraphJson(text, g, error));
    EXPECT_NE(error.find(message), std::string::npos) << error;
    EXPECT_NE(error.find("at byte"), std::string::npos) << error;
  }
}

} // namespace
