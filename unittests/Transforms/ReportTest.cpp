//===- ReportTest.cpp - JSON and SVG reports of a function's peak ---------===//
//
// Reports built by hand: the JSON fields read back with llvm::json::parse, the
// SVG checked by a small strict XML reader (well-formed, everything escaped),
// its labels, bars, tooltips and bar placement, determinism, an empty
// function and a very long one.
//
//===----------------------------------------------------------------------===//

#include "Transforms/MemSched/Report.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

using namespace mlir::memsched;
using llvm::StringRef;
namespace json = llvm::json;

namespace {

//===----------------------------------------------------------------------===//
// A strict little XML reader
//===----------------------------------------------------------------------===//

struct XmlElement {
  std::string name;
  std::map<std::string, std::string> attributes; // unescaped
  std::string text;                              // unescaped direct text
  int parent = -1;
};

struct XmlDocument {
  std::string error; // empty when well-formed
  std::vector<XmlElement> elements;
};

/// Reads `s` as XML: one root, balanced tags, attribute values quoted and
/// unique, and no raw '<', '>' or '&' in text or values (entities only).
class XmlReader {
public:
  explicit XmlReader(StringRef s) : s(s) {}

  XmlDocument read() {
    if (s.starts_with("<?xml")) {
      size_t end = s.find("?>");
      if (end == StringRef::npos)
        return fail("unterminated prolog");
      pos = end + 2;
    }
    std::vector<int> open;
    bool rootSeen = false;
    while (pos < s.size() && doc.error.empty()) {
      if (s[pos] != '<') {
        std::string text;
        if (!readText('<', text))
          break;
        if (open.empty()) {
          if (StringRef(text).find_first_not_of(" \t\r\n") != StringRef::npos)
            return fail("text outside the root");
        } else {
          doc.elements[open.back()].text += text;
        }
        continue;
      }
      if (s.substr(pos).starts_with("<!--")) {
        size_t end = s.find("-->", pos);
        if (end == StringRef::npos)
          return fail("unterminated comment");
        pos = end + 3;
        continue;
      }
      if (s.substr(pos).starts_with("</")) {
        pos += 2;
        std::string name = readName();
        skipSpace();
        if (name.empty() || !consume('>'))
          return fail("bad closing tag");
        if (open.empty() || doc.elements[open.back()].name != name)
          return fail("unbalanced </" + name + ">");
        open.pop_back();
        continue;
      }
      ++pos;
      if (open.empty() && rootSeen)
        return fail("second root element");
      rootSeen = true;
      XmlElement element;
      element.name = readName();
      element.parent = open.empty() ? -1 : open.back();
      if (element.name.empty())
        return fail("bad tag name");
      bool selfClosing = false;
      while (true) {
        bool spaced = skipSpace();
        if (consume('>'))
          break;
        if (s.substr(pos).starts_with("/>")) {
          pos += 2;
          selfClosing = true;
          break;
        }
        std::string name = readName();
        if (name.empty() || !spaced)
          return fail("bad attribute in <" + element.name + ">");
        skipSpace();
        if (!consume('='))
          return fail("attribute without '='");
        skipSpace();
        if (pos >= s.size() || (s[pos] != '"' && s[pos] != '\''))
          return fail("unquoted attribute " + name);
        char quote = s[pos++];
        std::string value;
        if (!readText(quote, value) || !consume(quote))
          return fail("bad value of " + name);
        if (!element.attributes.emplace(name, value).second)
          return fail("duplicate attribute " + name);
      }
      doc.elements.push_back(std::move(element));
      if (!selfClosing)
        open.push_back(doc.elements.size() - 1);
    }
    if (doc.error.empty() && (!open.empty() || !rootSeen))
      return fail("unclosed element or no root");
    return std::move(doc);
  }

private:
  XmlDocument fail(const std::string &message) {
    doc.error = message + " at offset " + std::to_string(pos);
    return std::move(doc);
  }
  bool skipSpace() {
    size_t start = pos;
    while (pos < s.size() && StringRef(" \t\r\n").contains(s[pos]))
      ++pos;
    return pos > start;
  }
  bool consume(char c) {
    if (pos < s.size() && s[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  std::string readName() {
    size_t start = pos;
    while (pos < s.size() && (isalnum(static_cast<unsigned char>(s[pos])) ||
                              StringRef("_:-.").contains(s[pos])))
      ++pos;
    return s.slice(start, pos).str();
  }
  /// Reads up to `stop`, unescaping entities; false (with an error) on a raw
  /// '<', '>' or bad '&'.
  bool readText(char stop, std::string &out) {
    static const std::pair<StringRef, char> entities[] = {{"&amp;", '&'},
                                                          {"&lt;", '<'},
                                                          {"&gt;", '>'},
                                                          {"&quot;", '"'},
                                                          {"&apos;", '\''}};
    while (pos < s.size() && s[pos] != stop) {
      char c = s[pos];
      if (c == '<' || c == '>') {
        fail(std::string("raw '") + c + "'");
        return false;
      }
      if (c != '&') {
        out += c;
        ++pos;
        continue;
      }
      bool known = false;
      for (const auto &[entity, value] : entities) {
        if (s.substr(pos).starts_with(entity)) {
          out += value;
          pos += entity.size();
          known = true;
          break;
        }
      }
      if (!known) {
        fail("raw '&'");
        return false;
      }
    }
    if (pos >= s.size() && stop != '<') {
      fail("unterminated value");
      return false;
    }
    return true;
  }

  StringRef s;
  size_t pos = 0;
  XmlDocument doc;
};

XmlDocument readXml(StringRef s) { return XmlReader(s).read(); }

TEST(XmlReaderTest, RejectsMalformed) {
  EXPECT_TRUE(readXml("<a x=\"1\"><b/>t&amp;</a>").error.empty());
  EXPECT_FALSE(readXml("<a><b></a>").error.empty());
  EXPECT_FALSE(readXml("<a x=\"<\"/>").error.empty());
  EXPECT_FALSE(readXml("<a x=\"&\"/>").error.empty());
  EXPECT_FALSE(readXml("<a>1 > 0</a>").error.empty());
  EXPECT_FALSE(readXml("<a x=\"1\" x=\"2\"/>").error.empty());
  EXPECT_FALSE(readXml("<a/><b/>").error.empty());
  EXPECT_FALSE(readXml("<a x=1/>").error.empty());
}

//===----------------------------------------------------------------------===//
// Reports
//===----------------------------------------------------------------------===//

/// Three convolutions' worth of buffers; scheduling drops the peak from 3000
/// to 2000 bytes, which the bound proves optimal.
FunctionReport makeReport() {
  FunctionReport report;
  report.function = "conv_chain";
  Timeline &before = report.before;
  before.ops = {"memref.alloc#0",   "linalg.conv_2d_nchw_fchw#1",
                "memref.alloc#2",   "linalg.add#3",
                "memref.dealloc#4", "memref.dealloc#5"};
  before.memoryAt = {1000, 1000, 3000, 3000, 2000, 0};
  before.buffers = {{"%a", "memref<250xf32>", 1000, 0, 4},
                    {"%b", "memref<250xf32>", 1000, 2, 5},
                    {"%c", "memref<250xf32>", 1000, 2, 3}};
  before.peak = 3000;
  before.peakPosition = 2;
  before.liveAtPeak = {"%a", "%b", "%c"};

  Timeline &after = report.after;
  after.ops = {"memref.alloc#0",   "linalg.conv_2d_nchw_fchw#1",
               "memref.dealloc#4", "memref.alloc#2",
               "linalg.add#3",     "memref.dealloc#5"};
  after.memoryAt = {1000, 1000, 1000, 2000, 2000, 0};
  after.buffers = {{"%a", "memref<250xf32>", 1000, 0, 2},
                   {"%b", "memref<250xf32>", 1000, 3, 5},
                   {"%c", "memref<250xf32>", 1000, 1, 4}};
  after.peak = 2000;
  after.peakPosition = 3;
  after.liveAtPeak = {"%b", "%c"};

  report.reordered = true;
  report.lowerBound = 2000;
  report.boundKind = "forward";
  report.boundOp = "linalg.add#3";
  report.cutBuffers = {"%b", "%c"};
  return report;
}

std::string jsonText(llvm::ArrayRef<FunctionReport> reports) {
  std::string text;
  llvm::raw_string_ostream os(text);
  writeJSONReport(reports, os);
  return text;
}

std::string svgText(const FunctionReport &report) {
  std::string text;
  llvm::raw_string_ostream os(text);
  writeTimelineSVG(report, os);
  return text;
}

/// The first function of a writeJSONReport output, parsed back.
json::Object parseFirstFunction(const std::string &text) {
  llvm::Expected<json::Value> parsed = json::parse(text);
  if (!parsed) {
    ADD_FAILURE() << llvm::toString(parsed.takeError());
    return {};
  }
  json::Array *functions = parsed->getAsObject()->getArray("functions");
  if (!functions || functions->empty()) {
    ADD_FAILURE() << "no functions";
    return {};
  }
  return *(*functions)[0].getAsObject();
}

std::vector<std::string> strings(const json::Array *array) {
  std::vector<std::string> result;
  if (!array)
    return {"<missing>"};
  for (const json::Value &v : *array)
    result.push_back(v.getAsString().value_or("<not a string>").str());
  return result;
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

TEST(ReportJSONTest, Fields) {
  json::Object f = parseFirstFunction(jsonText({makeReport()}));
  EXPECT_EQ(f.getString("function"), StringRef("conv_chain"));
  EXPECT_EQ(f.getBoolean("reordered"), true);
  EXPECT_EQ(f.getInteger("peak_before"), 3000);
  EXPECT_EQ(f.getInteger("peak_after"), 2000);
  EXPECT_EQ(f.getInteger("lower_bound"), 2000);
  EXPECT_EQ(f.getBoolean("optimal"), true);
  EXPECT_EQ(f.getInteger("gap"), 0);

  const json::Object *bound = f.getObject("bound");
  ASSERT_TRUE(bound);
  EXPECT_EQ(bound->getString("kind"), StringRef("forward"));
  EXPECT_EQ(bound->getString("op"), StringRef("linalg.add#3"));
  EXPECT_EQ(strings(bound->getArray("cut")),
            (std::vector<std::string>{"%b", "%c"}));

  const json::Object *before = f.getObject("before");
  const json::Object *after = f.getObject("after");
  ASSERT_TRUE(before && after);
  EXPECT_EQ(before->getInteger("peak"), 3000);
  EXPECT_EQ(before->getInteger("peak_position"), 2);
  EXPECT_EQ(before->getString("peak_op"), StringRef("memref.alloc#2"));
  EXPECT_EQ(after->getString("peak_op"), StringRef("memref.alloc#2"));
  EXPECT_EQ(after->getInteger("peak_position"), 3);
  EXPECT_EQ(strings(before->getArray("live_at_peak")),
            (std::vector<std::string>{"%a", "%b", "%c"}));
  EXPECT_EQ(strings(after->getArray("ops"))[2], "memref.dealloc#4");

  const json::Array *memory = after->getArray("memory");
  ASSERT_TRUE(memory);
  std::vector<int64_t> bytes;
  for (const json::Value &v : *memory)
    bytes.push_back(v.getAsInteger().value_or(-1));
  EXPECT_EQ(bytes, (std::vector<int64_t>{1000, 1000, 1000, 2000, 2000, 0}));

  const json::Array *buffers = after->getArray("buffers");
  ASSERT_TRUE(buffers);
  ASSERT_EQ(buffers->size(), 3u);
  const json::Object *c = (*buffers)[2].getAsObject();
  ASSERT_TRUE(c);
  EXPECT_EQ(c->getString("name"), StringRef("%c"));
  EXPECT_EQ(c->getString("type"), StringRef("memref<250xf32>"));
  EXPECT_EQ(c->getInteger("size"), 1000);
  EXPECT_EQ(c->getInteger("first"), 1);
  EXPECT_EQ(c->getInteger("last"), 4);
}

TEST(ReportJSONTest, ToJSONMatchesWrittenReport) {
  FunctionReport report = makeReport();
  json::Value direct(toJSON(report));
  json::Value written(parseFirstFunction(jsonText({report})));
  EXPECT_EQ(direct, written);
}

TEST(ReportJSONTest, GapWhenNotOptimal) {
  FunctionReport report = makeReport();
  report.lowerBound = 1500;
  json::Object f = toJSON(report);
  EXPECT_EQ(f.getBoolean("optimal"), false);
  EXPECT_EQ(f.getInteger("gap"), 500);
  // A bound above the peak is inconsistent input; the sign shows it.
  report.lowerBound = 2100;
  EXPECT_EQ(toJSON(report).getInteger("gap"), -100);
}

TEST(ReportJSONTest, KeysInDocumentedOrder) {
  std::string text = jsonText({makeReport()});
  const char *keys[] = {"\"function\"",   "\"reordered\"",   "\"peak_before\"",
                        "\"peak_after\"", "\"lower_bound\"", "\"optimal\"",
                        "\"gap\"",        "\"bound\"",       "\"before\"",
                        "\"after\""};
  size_t previous = 0;
  for (const char *key : keys) {
    size_t at = text.find(key);
    ASSERT_NE(at, std::string::npos) << key;
    EXPECT_GT(at, previous) << key;
    previous = at;
  }
  size_t peak = text.find("\"peak\"", text.find("\"before\""));
  size_t buffers = text.find("\"buffers\"", peak);
  EXPECT_LT(peak, text.find("\"memory\"", peak));
  EXPECT_LT(text.find("\"memory\"", peak), buffers);
  size_t name = text.find("\"name\"", buffers);
  EXPECT_LT(name, text.find("\"size\"", name));
  EXPECT_LT(text.find("\"first\"", name), text.find("\"last\"", name));
  EXPECT_EQ(text.back(), '\n');
}

TEST(ReportJSONTest, SeveralFunctions) {
  FunctionReport second = makeReport();
  second.function = "second";
  second.reordered = false;
  second.after = second.before;
  llvm::Expected<json::Value> parsed =
      json::parse(jsonText({makeReport(), second}));
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  json::Array *functions = parsed->getAsObject()->getArray("functions");
  ASSERT_TRUE(functions);
  ASSERT_EQ(functions->size(), 2u);
  const json::Object *f = (*functions)[1].getAsObject();
  EXPECT_EQ(f->getString("function"), StringRef("second"));
  EXPECT_EQ(f->getBoolean("reordered"), false);
  EXPECT_EQ(f->getInteger("peak_after"), 3000);
  EXPECT_EQ(f->getInteger("gap"), 1000);
  EXPECT_EQ(f->getBoolean("optimal"), false);

  llvm::Expected<json::Value> none = json::parse(jsonText({}));
  ASSERT_TRUE(bool(none));
  EXPECT_TRUE(none->getAsObject()->getArray("functions")->empty());
}

TEST(ReportJSONTest, EmptyFunction) {
  FunctionReport report;
  report.function = "empty";
  json::Object f = parseFirstFunction(jsonText({report}));
  EXPECT_EQ(f.getInteger("peak_after"), 0);
  EXPECT_EQ(f.getBoolean("optimal"), true);
  const json::Object *after = f.getObject("after");
  ASSERT_TRUE(after);
  ASSERT_TRUE(after->get("peak_op"));
  EXPECT_EQ(*after->get("peak_op"), json::Value(nullptr));
  EXPECT_TRUE(after->getArray("memory")->empty());
  EXPECT_TRUE(after->getArray("buffers")->empty());
}

TEST(ReportJSONTest, InvalidUTF8IsRepaired) {
  FunctionReport report = makeReport();
  report.function = "bad\xff name";
  report.after.buffers[0].name = "\xc3";
  json::Object f = parseFirstFunction(jsonText({report}));
  std::optional<StringRef> name = f.getString("function");
  ASSERT_TRUE(name);
  EXPECT_TRUE(json::isUTF8(*name));
  EXPECT_TRUE(name->starts_with("bad"));
}

TEST(ReportJSONTest, Deterministic) {
  FunctionReport report = makeReport();
  EXPECT_EQ(jsonText({report}), jsonText({report}));
}

//===----------------------------------------------------------------------===//
// SVG
//===----------------------------------------------------------------------===//

/// Elements named `name` (with class `cls` when given).
std::vector<int> find(const XmlDocument &doc, StringRef name,
                      StringRef cls = "") {
  std::vector<int> found;
  for (size_t i = 0, e = doc.elements.size(); i < e; ++i) {
    const XmlElement &element = doc.elements[i];
    if (element.name != name)
      continue;
    auto it = element.attributes.find("class");
    if (!cls.empty() && (it == element.attributes.end() || it->second != cls))
      continue;
    found.push_back(i);
  }
  return found;
}

/// Text of the <title> child of element `index`, or "" without one.
std::string tooltip(const XmlDocument &doc, int index) {
  for (const XmlElement &element : doc.elements)
    if (element.parent == index && element.name == "title")
      return element.text;
  return "";
}

/// All text content, unescaped.
std::string allText(const XmlDocument &doc) {
  std::string text;
  for (const XmlElement &element : doc.elements)
    text += element.text + "\n";
  return text;
}

double attribute(const XmlElement &element, StringRef name) {
  auto it = element.attributes.find(name.str());
  double value = -1;
  if (it == element.attributes.end() ||
      StringRef(it->second).getAsDouble(value))
    return -1;
  return value;
}

TEST(ReportSVGTest, WellFormedWithLabels) {
  std::string svg = svgText(makeReport());
  XmlDocument doc = readXml(svg);
  ASSERT_EQ(doc.error, "");
  ASSERT_FALSE(doc.elements.empty());
  EXPECT_EQ(doc.elements[0].name, "svg");
  EXPECT_EQ(doc.elements[0].attributes["xmlns"], "http://www.w3.org/2000/svg");

  std::string text = allText(doc);
  EXPECT_NE(text.find("conv_chain"), std::string::npos);
  EXPECT_NE(text.find("peak 3000 bytes"), std::string::npos);
  EXPECT_NE(text.find("peak 2000 bytes"), std::string::npos);
  EXPECT_NE(text.find("lower bound 2000 bytes"), std::string::npos);
  EXPECT_NE(text.find("optimal"), std::string::npos);
  EXPECT_NE(text.find("KiB"), std::string::npos); // byte axis in human units
  EXPECT_EQ(find(doc, "text", "peak-label").size(), 2u);
  EXPECT_EQ(find(doc, "text", "bound-label").size(), 2u);
  EXPECT_EQ(find(doc, "line", "peak").size(), 2u);
  EXPECT_EQ(find(doc, "line", "bound").size(), 2u);
  EXPECT_EQ(find(doc, "path", "memory").size(), 2u);

  // The op at the peak is marked in each panel.
  std::vector<int> markers = find(doc, "circle");
  ASSERT_EQ(markers.size(), 2u);
  EXPECT_NE(tooltip(doc, markers[0]).find("#2 memref.alloc#2"),
            std::string::npos);
  EXPECT_NE(tooltip(doc, markers[1]).find("#3 memref.alloc#2"),
            std::string::npos);
  // Few ops: every op is named on the x axis.
  EXPECT_NE(text.find("linalg.conv_2d_nchw_fchw#1"), std::string::npos);
  EXPECT_NE(text.find("memref.dealloc#5"), std::string::npos);
}

TEST(ReportSVGTest, LongOpNamesCutOnAxisOnly) {
  FunctionReport report = makeReport();
  std::string name = "linalg.matmul_transpose_b_with_a_long_name#4";
  report.after.ops[4] = name;
  XmlDocument doc = readXml(svgText(report));
  ASSERT_EQ(doc.error, "");
  std::string text = allText(doc);
  EXPECT_NE(text.find(name.substr(0, 26) + "..."), std::string::npos);
  // The hover column of the op keeps the whole name.
  std::vector<int> columns = find(doc, "g", "op-columns");
  ASSERT_EQ(columns.size(), 2u);
  bool whole = false;
  for (size_t i = 0; i < doc.elements.size(); ++i)
    if (doc.elements[i].parent == columns[1])
      whole |= tooltip(doc, i).find("#4 " + name) != std::string::npos;
  EXPECT_TRUE(whole);
}

TEST(ReportSVGTest, OneBarPerBufferWithTooltip) {
  FunctionReport report = makeReport();
  XmlDocument doc = readXml(svgText(report));
  ASSERT_EQ(doc.error, "");
  std::vector<int> bars = find(doc, "g", "buf");
  ASSERT_EQ(bars.size(),
            report.before.buffers.size() + report.after.buffers.size());
  // Before's bars come first, in buffer order.
  std::vector<const TimelineBuffer *> buffers;
  for (const TimelineBuffer &b : report.before.buffers)
    buffers.push_back(&b);
  for (const TimelineBuffer &b : report.after.buffers)
    buffers.push_back(&b);
  for (size_t i = 0; i < bars.size(); ++i) {
    std::string tip = tooltip(doc, bars[i]);
    EXPECT_EQ(tip.rfind(buffers[i]->name + "\n", 0), 0u) << tip;
    EXPECT_NE(tip.find(buffers[i]->type), std::string::npos) << tip;
    EXPECT_NE(tip.find("1000 bytes"), std::string::npos) << tip;
    EXPECT_NE(tip.find("#" + std::to_string(buffers[i]->first) + " "),
              std::string::npos)
        << tip;
    EXPECT_NE(tip.find("#" + std::to_string(buffers[i]->last) + " "),
              std::string::npos)
        << tip;
  }
  // %c in the after order: ops #1..#4, live at the peak.
  std::string tip = tooltip(doc, bars[5]);
  EXPECT_NE(tip.find("#1 linalg.conv_2d_nchw_fchw#1"), std::string::npos);
  EXPECT_NE(tip.find("#4 linalg.add#3"), std::string::npos);
  EXPECT_NE(tip.find("live at the peak"), std::string::npos);
  EXPECT_EQ(tooltip(doc, bars[3]).find("live at the peak"), std::string::npos);
}

/// A panel's scale, read off a rectangle that stands on the axis from the
/// first op and spans `bytes` bytes over `ops` ops.
struct Scale {
  double perByte, baseline, opWidth, x0;
};
Scale scaleOf(const XmlElement &rect, double bytes, double ops) {
  return {attribute(rect, "height") / bytes,
          attribute(rect, "y") + attribute(rect, "height"),
          attribute(rect, "width") / ops, attribute(rect, "x")};
}

/// The rectangles of buffer group `group`.
std::vector<const XmlElement *> runsOf(const XmlDocument &doc, int group) {
  std::vector<const XmlElement *> runs;
  for (const XmlElement &element : doc.elements)
    if (element.parent == group && element.name == "rect")
      runs.push_back(&element);
  return runs;
}

// Piled op by op: at every op the buffers live there are stacked without
// overlap and their top is the bytes live (the figures below derived by
// hand from the intervals: big 0-3, mid 1-2, small 2-5, late 4-5).
TEST(ReportSVGTest, PileTopIsTheLiveTotal) {
  FunctionReport report = makeReport();
  report.after.buffers = {{"big", "memref<1000xf32>", 4000, 0, 3},
                          {"small", "memref<250xf32>", 1000, 2, 5},
                          {"mid", "memref<500xf32>", 2000, 1, 2},
                          {"late", "memref<500xf32>", 2000, 4, 5}};
  report.after.memoryAt = {4000, 6000, 7000, 5000, 3000, 3000};
  report.after.peak = 7000;
  report.after.peakPosition = 2;
  XmlDocument doc = readXml(svgText(report));
  ASSERT_EQ(doc.error, "");
  std::vector<int> groups = find(doc, "g", "buf");
  ASSERT_EQ(groups.size(), 7u);
  std::vector<int> after(groups.begin() + 3, groups.end());
  std::vector<const XmlElement *> big = runsOf(doc, after[0]);
  ASSERT_EQ(big.size(), 1u);
  auto [perByte, baseline, opWidth, x0] = scaleOf(*big[0], 4000, 4);
  ASSERT_GT(perByte, 0);
  // Per op: the bytes each rectangle covering it spans, from the baseline.
  const uint64_t sizes[] = {4000, 1000, 2000, 2000};
  std::vector<std::vector<std::pair<double, double>>> spans(6);
  for (size_t i = 0; i < after.size(); ++i)
    for (const XmlElement *rect : runsOf(doc, after[i])) {
      EXPECT_NEAR(attribute(*rect, "height"), sizes[i] * perByte, 0.2);
      double from = (attribute(*rect, "x") - x0) / opWidth;
      double to = from + attribute(*rect, "width") / opWidth;
      double low = (baseline - attribute(*rect, "y") -
                    attribute(*rect, "height")) / perByte;
      for (int op = 0; op < 6; ++op)
        if (from < op + 0.5 && op + 0.5 < to)
          spans[op].push_back({low, low + sizes[i]});
    }
  for (int op = 0; op < 6; ++op) {
    double top = 0, total = 0;
    for (auto [low, high] : spans[op]) {
      top = std::max(top, high);
      total += high - low;
    }
    // No gap and no overlap: the pile is as high as what it holds, which
    // is the bytes live.
    EXPECT_NEAR(top, report.after.memoryAt[op], 40) << "op " << op;
    EXPECT_NEAR(total, report.after.memoryAt[op], 40) << "op " << op;
  }
  // "small" rides on "big" and "mid" at op 2 (offset 6000), drops to 4000
  // at op 3 when "mid" is freed, and to the axis at op 4: three runs.
  EXPECT_EQ(runsOf(doc, after[1]).size(), 3u);
}

// Bytes an op holds inside itself (a loop body, a callee) sit on top of
// the buffers: the top of the drawing is still the bytes live.
TEST(ReportSVGTest, InsideBytesOnTop) {
  FunctionReport report = makeReport();
  report.after.memoryAt[0] += 500; // op 0 holds %a alone: 1000 bytes
  XmlDocument doc = readXml(svgText(report));
  ASSERT_EQ(doc.error, "");
  std::vector<int> inside = find(doc, "g", "inside");
  ASSERT_EQ(inside.size(), 1u);
  std::vector<const XmlElement *> rects = runsOf(doc, inside[0]);
  ASSERT_EQ(rects.size(), 1u);
  EXPECT_NE(tooltip(doc, static_cast<int>(rects[0] - &doc.elements[0])).find("500 bytes inside"),
            std::string::npos);
}

// The cut that proves the bound, outlined, said in the legend and the
// buffer's tooltip.
TEST(ReportSVGTest, CutBuffersMarked) {
  FunctionReport report = makeReport();
  report.cutBuffers = {report.after.buffers[0].name};
  XmlDocument doc = readXml(svgText(report));
  ASSERT_EQ(doc.error, "");
  std::vector<int> groups = find(doc, "g", "buf");
  size_t marked = 0;
  for (int g : groups)
    marked += tooltip(doc, g).find("in the cut that proves the bound") !=
              std::string::npos;
  EXPECT_EQ(marked, 2u); // the buffer in each panel
  EXPECT_NE(allText(doc).find("in the cut that proves the bound"),
            std::string::npos);
  EXPECT_EQ(find(doc, "g", "legend").size(), 1u);
}

// An arena: one panel, its own title and axis, buffers at their offsets.
TEST(ReportSVGTest, ArenaHasItsOwnPicture) {
  FunctionReport report = makeReport();
  report.before = report.after;
  uint64_t offset = 0;
  for (TimelineBuffer &b : report.after.buffers) {
    b.offset = offset;
    offset = (offset + 1000) % 3000;
  }
  report.before = report.after;
  report.arenaSize = 3000;
  report.arenaMemory = 3000;
  XmlDocument doc = readXml(svgText(report));
  ASSERT_EQ(doc.error, "");
  std::string text = allText(doc);
  EXPECT_NE(text.find("Arena of"), std::string::npos);
  EXPECT_NE(text.find("offset in the arena"), std::string::npos);
  EXPECT_EQ(text.find("Before scheduling"), std::string::npos);
  EXPECT_EQ(text.find("bytes live\n"), std::string::npos);
  EXPECT_EQ(find(doc, "g", "panel").size(), 1u);
  EXPECT_EQ(find(doc, "g", "buf").size(), report.after.buffers.size());
}

// Arenas by phase: a buffer left outside piles on the arena live at each
// op (none between them), so the pile's top is the bytes the function
// holds there; each arena's top is a line over the ops it lives. Derived
// by hand: phase 0 (%a, offset 0, ops 0-1) is 4000 bytes; phase 1 (%b,
// offset 0, ops 3-5) is 1000 bytes; %out (outside, 500 bytes) lives over
// ops 1-5: its runs sit at 4000 (op 1), 0 (op 2) and 1000 (ops 3-5).
TEST(ReportSVGTest, ArenasByPhasePileOutsideOnTheLiveOne) {
  FunctionReport report = makeReport();
  report.after.ops = {"a#0", "b#1", "c#2", "d#3", "e#4", "f#5"};
  report.after.buffers = {{"a", "memref<1000xf32>", 4000, 0, 1},
                          {"b", "memref<250xf32>", 1000, 3, 5},
                          {"out", "memref<125xf32>", 500, 1, 5}};
  report.after.buffers[0].offset = 0;
  report.after.buffers[0].arenaPhase = 0;
  report.after.buffers[1].offset = 0;
  report.after.buffers[1].arenaPhase = 1;
  report.after.memoryAt = {4000, 4500, 500, 1500, 1500, 1500};
  report.after.peak = 4500;
  report.after.peakPosition = 1;
  report.before = report.after;
  report.arenaSize = 4000;
  report.arenaMemory = 4500;
  report.arenaPhaseSizes = {4000, 1000};
  XmlDocument doc = readXml(svgText(report));
  ASSERT_EQ(doc.error, "");
  std::vector<int> groups = find(doc, "g", "buf");
  ASSERT_EQ(groups.size(), 3u);
  std::vector<const XmlElement *> a = runsOf(doc, groups[0]);
  ASSERT_EQ(a.size(), 1u);
  auto [perByte, baseline, opWidth, x0] = scaleOf(*a[0], 4000, 2);
  std::vector<std::pair<int, double>> outside; // (first op, low byte)
  for (const XmlElement *rect : runsOf(doc, groups[2]))
    outside.push_back(
        {static_cast<int>((attribute(*rect, "x") - x0) / opWidth + 0.5),
         (baseline - attribute(*rect, "y") - attribute(*rect, "height")) /
             perByte});
  ASSERT_EQ(outside.size(), 3u);
  EXPECT_EQ(outside[0].first, 1);
  EXPECT_NEAR(outside[0].second, 4000, 20);
  EXPECT_EQ(outside[1].first, 2);
  EXPECT_NEAR(outside[1].second, 0, 20);
  EXPECT_EQ(outside[2].first, 3);
  EXPECT_NEAR(outside[2].second, 1000, 20);
  // One arena line per phase, over its ops.
  std::vector<int> lines = find(doc, "line", "arena");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NEAR(attribute(doc.elements[lines[0]], "x2") -
                  attribute(doc.elements[lines[0]], "x1"),
              2 * opWidth, 0.5);
  EXPECT_NEAR(attribute(doc.elements[lines[1]], "x2") -
                  attribute(doc.elements[lines[1]], "x1"),
              3 * opWidth, 0.5);
  EXPECT_NE(allText(doc).find("2 arenas by phase"), std::string::npos);
}

TEST(ReportSVGTest, EscapesNames) {
  FunctionReport report = makeReport();
  report.function = "f<&\">'";
  report.before.buffers[0].name = "%x<&\">";
  report.before.buffers[0].type = "memref<4xf32, \"quoted\">";
  report.after.ops[1] = "op<&\">#1";
  report.boundOp = "op<&\">#1";
  report.cutBuffers = {"%x<&\">"};
  std::string svg = svgText(report);
  XmlDocument doc = readXml(svg);
  ASSERT_EQ(doc.error, "");
  EXPECT_NE(svg.find("%x&lt;&amp;&quot;&gt;"), std::string::npos);
  EXPECT_EQ(svg.find("%x<"), std::string::npos);
  EXPECT_EQ(svg.find("f<&"), std::string::npos);
  // Unescaped, the names come back intact.
  std::vector<int> bars = find(doc, "g", "buf");
  ASSERT_FALSE(bars.empty());
  std::string tip = tooltip(doc, bars[0]);
  EXPECT_EQ(tip.rfind("%x<&\">\nmemref<4xf32, \"quoted\">", 0), 0u) << tip;
  EXPECT_NE(allText(doc).find("f<&\">'"), std::string::npos);
  EXPECT_NE(allText(doc).find("op<&\">#1"), std::string::npos);

  // Control characters XML cannot hold and invalid UTF-8 stay well-formed.
  report.function = std::string("ctl\x01\xff", 5);
  EXPECT_EQ(readXml(svgText(report)).error, "");
}

TEST(ReportSVGTest, Deterministic) {
  FunctionReport report = makeReport();
  std::string first = svgText(report);
  EXPECT_EQ(first, svgText(report));
  FunctionReport copy = makeReport();
  EXPECT_EQ(first, svgText(copy));
  // The bytes depend on the input.
  copy.after.peak = 2500;
  EXPECT_NE(first, svgText(copy));
}

TEST(ReportSVGTest, EmptyFunction) {
  FunctionReport report;
  report.function = "empty";
  std::string svg = svgText(report);
  XmlDocument doc = readXml(svg);
  ASSERT_EQ(doc.error, "");
  std::string text = allText(doc);
  EXPECT_NE(text.find("no ops"), std::string::npos);
  EXPECT_NE(text.find("peak 0 bytes"), std::string::npos);
  EXPECT_NE(text.find("lower bound 0 bytes"), std::string::npos);
  EXPECT_TRUE(find(doc, "g", "buf").empty());
  EXPECT_TRUE(find(doc, "path", "memory").empty());
}

TEST(ReportSVGTest, OutOfRangePositionsAreClamped) {
  FunctionReport report = makeReport();
  report.after.buffers.push_back({"%late", "memref<1xf32>", 4, 3, 99});
  report.after.peakPosition = 42;
  report.after.memoryAt.pop_back(); // shorter than ops
  XmlDocument doc = readXml(svgText(report));
  ASSERT_EQ(doc.error, "");
  std::vector<int> bars = find(doc, "g", "buf");
  ASSERT_EQ(bars.size(), 7u);
  EXPECT_NE(tooltip(doc, bars[6]).find("#5 memref.dealloc#5"),
            std::string::npos);
  EXPECT_EQ(find(doc, "circle").size(), 1u);
}

/// 5000 ops, 3000 buffers, mostly a few ops long: unnamed ops, bars narrower
/// than a pixel left out, the memory line whole.
TEST(ReportSVGTest, ManyOps) {
  FunctionReport report;
  report.function = "big";
  Timeline &t = report.before;
  const size_t numOps = 5000, numBuffers = 3000;
  for (size_t i = 0; i < numOps; ++i)
    t.ops.push_back("linalg.generic#" + std::to_string(i));
  t.memoryAt.assign(numOps, 0);
  uint64_t state = 12345;
  auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return state >> 33;
  };
  size_t wide = 0;
  for (size_t b = 0; b < numBuffers; ++b) {
    size_t first = next() % numOps;
    size_t length = b % 10 == 0 ? 50 + next() % 500 : 1 + next() % 3;
    size_t last = std::min(numOps - 1, first + length - 1);
    uint64_t size = 1024 * (1 + next() % 64);
    t.buffers.push_back(
        {"%b" + std::to_string(b), "memref<?xf32>", size, first, last});
    for (size_t i = first; i <= last; ++i)
      t.memoryAt[i] += size;
    // 1400 px over 5000 ops: 0.28 px per op.
    if ((last - first + 1) * 0.28 >= 1)
      ++wide;
  }
  for (size_t i = 0; i < numOps; ++i) {
    if (t.memoryAt[i] > t.peak) {
      t.peak = t.memoryAt[i];
      t.peakPosition = i;
    }
  }
  report.after = t;
  report.lowerBound = t.peak / 2;

  std::string svg = svgText(report);
  XmlDocument doc = readXml(svg);
  ASSERT_EQ(doc.error, "");
  EXPECT_EQ(find(doc, "g", "buf").size(), 2 * wide);
  EXPECT_LT(wide, numBuffers);
  EXPECT_NE(allText(doc).find(std::to_string(numBuffers - wide) + " of " +
                              std::to_string(numBuffers) +
                              " buffers narrower than a pixel not drawn"),
            std::string::npos);
  std::vector<int> paths = find(doc, "path", "memory");
  ASSERT_EQ(paths.size(), 2u);
  // One horizontal step per op.
  const std::string &d = doc.elements[paths[0]].attributes["d"];
  EXPECT_EQ(std::count(d.begin(), d.end(), 'H'), long(numOps));
  EXPECT_NE(allText(doc).find("peak at #" + std::to_string(t.peakPosition)),
            std::string::npos);
  EXPECT_NE(allText(doc).find("op position (5000 ops)"), std::string::npos);
  // Readable size: no per-op names or hover columns at this density.
  EXPECT_TRUE(find(doc, "g", "op-columns").empty());
  EXPECT_LT(svg.size(), 1u << 20);
}

} // namespace
