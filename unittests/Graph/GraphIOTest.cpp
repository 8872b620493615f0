//===- GraphIOTest.cpp - MemoryGraph JSON round trip and errors -*- C++ -*-===//

#include "Analysis/Graph/GraphGenerators.h"
#include "Analysis/Graph/GraphIO.h"

#include <gtest/gtest.h>

using namespace memsched_core;

namespace {

/// Same nodes, buffers, touchers, edges and flags.
void expectSameGraph(const MemoryGraph &a, const MemoryGraph &b) {
  ASSERT_EQ(a.numNodes(), b.numNodes());
  ASSERT_EQ(a.numBuffers(), b.numBuffers());
  for (NodeId n = 0; n < a.numNodes(); ++n) {
    EXPECT_EQ(a.transientBytes(n), b.transientBytes(n));
    EXPECT_EQ(a.nodeName(n), b.nodeName(n));
    EXPECT_EQ(a.preds(n).vec(), b.preds(n).vec());
    EXPECT_EQ(a.succs(n).vec(), b.succs(n).vec());
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
  EXPECT_EQ(g.succs(0).vec(), std::vector<NodeId>{1});
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

namespace {

TEST(GraphIO, RematDataRoundTrip) {
  MemoryGraph g = generateGraph(GraphFamily::Layered, 40, 7);
  GraphRematData data;
  for (NodeId n = 0; n < g.numNodes(); ++n)
    data.cost.push_back(n * 3 + 1);
  data.sources.push_back({0, {0, 1}, {5, 9}, {1}});
  data.sources.push_back({2, {3}, {4}, {}});
  std::string text = writeGraphJson(g, &data);
  MemoryGraph back;
  GraphRematData read;
  std::string error;
  ASSERT_TRUE(readGraphJson(text, back, error, &read)) << error;
  expectSameGraph(g, back);
  EXPECT_EQ(read.cost, data.cost);
  ASSERT_EQ(read.sources.size(), 2u);
  EXPECT_EQ(read.sources[0].buffer, 0u);
  EXPECT_EQ(read.sources[0].producers, data.sources[0].producers);
  EXPECT_EQ(read.sources[0].readers, data.sources[0].readers);
  EXPECT_EQ(read.sources[0].inner, data.sources[0].inner);
  EXPECT_TRUE(read.sources[1].inner.empty());
  // Without remat data requested, the same file reads as a plain graph;
  // without costs in the file, none are read.
  ASSERT_TRUE(readGraphJson(text, back, error)) << error;
  ASSERT_TRUE(readGraphJson(writeGraphJson(g), back, error, &read)) << error;
  EXPECT_TRUE(read.cost.empty());
  EXPECT_TRUE(read.sources.empty());
}

TEST(GraphIO, MalformedRematSourcesAreRejected) {
  const std::pair<const char *, const char *> cases[] = {
      {R"({"format": "memsched-graph", "version": 1, "nodes": [{}, {}],
           "buffers": [{"size": 1, "touchers": [0, 1]}], "edges": [],
           "remat_sources": [{"producers": [0], "readers": [1]}]})",
       "needs a \"buffer\""},
      {R"({"format": "memsched-graph", "version": 1, "nodes": [{}, {}],
           "buffers": [{"size": 1, "touchers": [0, 1]}], "edges": [],
           "remat_sources": [{"buffer": 3, "producers": [0], "readers": [1]}]})",
       "buffer 3 is out of range"},
      {R"({"format": "memsched-graph", "version": 1, "nodes": [{}, {}],
           "buffers": [{"size": 1, "touchers": [0, 1]}], "edges": [],
           "remat_sources": [{"buffer": 0, "producers": [1], "readers": [0]}]})",
       "every producer before every reader"},
      {R"({"format": "memsched-graph", "version": 1, "nodes": [{"cost": -2}],
           "buffers": [], "edges": []})",
       "cost must be a non-negative integer"},
  };
  for (auto [text, expected] : cases) {
    MemoryGraph g;
    GraphRematData data;
    std::string error;
    EXPECT_FALSE(readGraphJson(text, g, error, &data)) << text;
    EXPECT_NE(error.find(expected), std::string::npos)
        << "error: " << error << "\nexpected: " << expected;
  }
}

} // namespace
