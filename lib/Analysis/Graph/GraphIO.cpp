//===- GraphIO.cpp - MemoryGraph as plain JSON ------------------*- C++ -*-===//
//
// Writer and reader of the graph document (GraphIO.h). The reader is a small
// recursive-descent JSON parser into a value tree (the documents are at most
// a few megabytes), then a checked conversion into a MemoryGraph: ids in
// range, sizes and ids unsigned integers, edges going forward in the program
// order. Unknown object keys are ignored, so later versions can add fields.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Graph/GraphIO.h"

#include <algorithm>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

using namespace memsched_core;

//===----------------------------------------------------------------------===//
// Writer
//===----------------------------------------------------------------------===//

static void appendString(std::string &out, const std::string &s) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (c < 0x20) {
        static const char hex[] = "0123456789abcdef";
        out += "\\u00";
        out += hex[c >> 4];
        out += hex[c & 15];
      } else {
        out += static_cast<char>(c);
      }
    }
  }
  out += '"';
}

static void appendIds(std::string &out, const std::vector<uint32_t> &ids) {
  out += "[";
  for (size_t i = 0; i < ids.size(); ++i)
    out += (i ? ", " : "") + std::to_string(ids[i]);
  out += "]";
}

std::string memsched_core::writeGraphJson(const MemoryGraph &graph,
                                     const GraphRematData *remat) {
  std::string out = "{\"format\": \"memsched-graph\", \"version\": 1,\n";
  out += " \"nodes\": [";
  for (NodeId n = 0; n < graph.numNodes(); ++n) {
    out += n ? ",\n  " : "\n  ";
    out += "{\"name\": ";
    appendString(out, graph.nodeName(n));
    out += ", \"transient\": " + std::to_string(graph.transientBytes(n));
    if (remat && n < remat->cost.size())
      out += ", \"cost\": " + std::to_string(remat->cost[n]);
    out += "}";
  }
  out += "],\n \"buffers\": [";
  for (BufferId b = 0; b < graph.numBuffers(); ++b) {
    const GraphBuffer &buf = graph.buffer(b);
    out += b ? ",\n  " : "\n  ";
    out += "{\"name\": ";
    appendString(out, buf.name);
    out += ", \"size\": " + std::to_string(buf.size) + ", \"touchers\": [";
    for (size_t i = 0; i < buf.touchers.size(); ++i)
      out += (i ? ", " : "") + std::to_string(buf.touchers[i]);
    out += "], \"live_in\": ";
    out += buf.liveIn ? "true" : "false";
    out += ", \"live_out\": ";
    out += buf.liveOut ? "true" : "false";
    out += "}";
  }
  out += "],\n \"edges\": [";
  bool first = true;
  for (NodeId n = 0; n < graph.numNodes(); ++n)
    for (NodeId s : graph.succs(n)) {
      out += first ? "\n  " : ",\n  ";
      first = false;
      out += "[" + std::to_string(n) + ", " + std::to_string(s) + "]";
    }
  out += "]";
  if (remat && !remat->sources.empty()) {
    out += ",\n \"remat_sources\": [";
    for (size_t i = 0; i < remat->sources.size(); ++i) {
      const RematSource &src = remat->sources[i];
      out += i ? ",\n  " : "\n  ";
      out += "{\"buffer\": " + std::to_string(src.buffer) + ", \"producers\": ";
      appendIds(out, src.producers);
      out += ", \"readers\": ";
      appendIds(out, src.readers);
      out += ", \"inner\": ";
      appendIds(out, src.inner);
      out += "}";
    }
    out += "]";
  }
  out += "}\n";
  return out;
}

//===----------------------------------------------------------------------===//
// Parser
//===----------------------------------------------------------------------===//

namespace {

struct JsonValue {
  enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
  bool boolean = false;
  /// Number: its text; String: the decoded string.
  std::string text;
  std::vector<JsonValue> items;
  std::map<std::string, JsonValue> fields;
  size_t offset = 0;
};

class Parser {
public:
  explicit Parser(const std::string &text) : s(text) {}

  bool parseDocument(JsonValue &v) {
    if (!parseValue(v, 0))
      return false;
    skipSpace();
    if (pos != s.size())
      return fail("trailing characters after the document");
    return true;
  }

  std::string error;

private:
  bool fail(const std::string &what) {
    if (error.empty())
      error = what + " at byte " + std::to_string(pos);
    return false;
  }
  void skipSpace() {
    while (pos < s.size() &&
           (s[pos] == ' ' || s[pos] == '\n' || s[pos] == '\r' || s[pos] == '\t'))
      ++pos;
  }
  bool literal(const char *word) {
    size_t len = std::char_traits<char>::length(word);
    if (s.compare(pos, len, word) != 0)
      return false;
    pos += len;
    return true;
  }

  bool parseValue(JsonValue &v, unsigned depth) {
    if (depth > 64)
      return fail("nesting too deep");
    skipSpace();
    v.offset = pos;
    if (pos >= s.size())
      return fail("unexpected end of input");
    char c = s[pos];
    if (c == '{')
      return parseObject(v, depth);
    if (c == '[')
      return parseArray(v, depth);
    if (c == '"') {
      v.kind = JsonValue::String;
      return parseString(v.text);
    }
    if (literal("true")) {
      v.kind = JsonValue::Bool;
      v.boolean = true;
      return true;
    }
    if (literal("false")) {
      v.kind = JsonValue::Bool;
      return true;
    }
    if (literal("null"))
      return true;
    if (c == '-' || (c >= '0' && c <= '9')) {
      v.kind = JsonValue::Number;
      size_t start = pos;
      while (pos < s.size() &&
             (std::isdigit(static_cast<unsigned char>(s[pos])) || s[pos] == '-' ||
              s[pos] == '+' || s[pos] == '.' || s[pos] == 'e' || s[pos] == 'E'))
        ++pos;
      v.text = s.substr(start, pos - start);
      return true;
    }
    return fail(std::string("unexpected character '") + c + "'");
  }

  bool parseString(std::string &out) {
    ++pos; // opening quote
    while (pos < s.size() && s[pos] != '"') {
      char c = s[pos++];
      if (static_cast<unsigned char>(c) < 0x20)
        return fail("control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos >= s.size())
        break;
      char e = s[pos++];
      switch (e) {
      case '"':
      case '\\':
      case '/':
        out += e;
        break;
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'r':
        out += '\r';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'u': {
        if (pos + 4 > s.size())
          return fail("truncated \\u escape");
        unsigned code = 0;
        for (int i = 0; i < 4; ++i) {
          char h = s[pos++];
          code <<= 4;
          if (h >= '0' && h <= '9')
            code |= h - '0';
          else if (h >= 'a' && h <= 'f')
            code |= h - 'a' + 10;
          else if (h >= 'A' && h <= 'F')
            code |= h - 'A' + 10;
          else
            return fail("bad \\u escape");
        }
        // Names only: code points of the Basic Multilingual Plane as UTF-8.
        if (code < 0x80) {
          out += static_cast<char>(code);
        } else if (code < 0x800) {
          out += static_cast<char>(0xC0 | (code >> 6));
          out += static_cast<char>(0x80 | (code & 0x3F));
        } else {
          out += static_cast<char>(0xE0 | (code >> 12));
          out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
          out += static_cast<char>(0x80 | (code & 0x3F));
        }
        break;
      }
      default:
        return fail("bad escape in a string");
      }
    }
    if (pos >= s.size())
      return fail("unterminated string");
    ++pos; // closing quote
    return true;
  }

  bool parseArray(JsonValue &v, unsigned depth) {
    v.kind = JsonValue::Array;
    ++pos;
    skipSpace();
    if (pos < s.size() && s[pos] == ']') {
      ++pos;
      return true;
    }
    for (;;) {
      v.items.emplace_back();
      if (!parseValue(v.items.back(), depth + 1))
        return false;
      skipSpace();
      if (pos < s.size() && s[pos] == ',') {
        ++pos;
        continue;
      }
      if (pos < s.size() && s[pos] == ']') {
        ++pos;
        return true;
      }
      return fail("expected ',' or ']' in an array");
    }
  }

  bool parseObject(JsonValue &v, unsigned depth) {
    v.kind = JsonValue::Object;
    ++pos;
    skipSpace();
    if (pos < s.size() && s[pos] == '}') {
      ++pos;
      return true;
    }
    for (;;) {
      skipSpace();
      if (pos >= s.size() || s[pos] != '"')
        return fail("expected a key string in an object");
      std::string key;
      if (!parseString(key))
        return false;
      skipSpace();
      if (pos >= s.size() || s[pos] != ':')
        return fail("expected ':' after a key");
      ++pos;
      JsonValue item;
      if (!parseValue(item, depth + 1))
        return false;
      v.fields[key] = std::move(item);
      skipSpace();
      if (pos < s.size() && s[pos] == ',') {
        ++pos;
        continue;
      }
      if (pos < s.size() && s[pos] == '}') {
        ++pos;
        return true;
      }
      return fail("expected ',' or '}' in an object");
    }
  }

  const std::string &s;
  size_t pos = 0;
};

/// Checked access to the parsed document.
struct Reader {
  std::string &error;

  bool fail(const JsonValue &at, const std::string &what) {
    if (error.empty())
      error = what + " at byte " + std::to_string(at.offset);
    return false;
  }
  const JsonValue *field(const JsonValue &obj, const char *key) {
    auto it = obj.fields.find(key);
    return it == obj.fields.end() ? nullptr : &it->second;
  }
  bool unsignedOf(const JsonValue &v, const char *what, uint64_t &out) {
    if (v.kind != JsonValue::Number || v.text.empty() ||
        v.text.find_first_not_of("0123456789") != std::string::npos)
      return fail(v, std::string(what) + " must be a non-negative integer");
    errno = 0;
    out = std::strtoull(v.text.c_str(), nullptr, 10);
    if (errno == ERANGE)
      return fail(v, std::string(what) + " does not fit in 64 bits");
    return true;
  }
  bool optionalUnsigned(const JsonValue &obj, const char *key, uint64_t &out) {
    const JsonValue *v = field(obj, key);
    return !v || unsignedOf(*v, key, out);
  }
  bool optionalBool(const JsonValue &obj, const char *key, bool &out) {
    const JsonValue *v = field(obj, key);
    if (!v)
      return true;
    if (v->kind != JsonValue::Bool)
      return fail(*v, std::string(key) + " must be true or false");
    out = v->boolean;
    return true;
  }
  bool optionalString(const JsonValue &obj, const char *key, std::string &out) {
    const JsonValue *v = field(obj, key);
    if (!v)
      return true;
    if (v->kind != JsonValue::String)
      return fail(*v, std::string(key) + " must be a string");
    out = v->text;
    return true;
  }
  const JsonValue *array(const JsonValue &obj, const char *key) {
    const JsonValue *v = field(obj, key);
    if (!v) {
      fail(obj, std::string("missing \"") + key + "\"");
      return nullptr;
    }
    if (v->kind != JsonValue::Array) {
      fail(*v, std::string("\"") + key + "\" must be an array");
      return nullptr;
    }
    return v;
  }
  bool nodeId(const JsonValue &v, uint64_t numNodes, const char *what,
              NodeId &out) {
    uint64_t id = 0;
    if (!unsignedOf(v, what, id))
      return false;
    if (id >= numNodes)
      return fail(v, std::string(what) + " " + std::to_string(id) +
                         " is not a node (" + std::to_string(numNodes) +
                         " nodes)");
    out = static_cast<NodeId>(id);
    return true;
  }
};

} // namespace

bool memsched_core::readGraphJson(const std::string &text, MemoryGraph &graph,
                             std::string &error, GraphRematData *remat) {
  error.clear();
  if (remat)
    *remat = GraphRematData();
  bool anyCost = false;
  std::vector<uint64_t> costs;
  graph = MemoryGraph();
  JsonValue doc;
  Parser parser(text);
  if (!parser.parseDocument(doc)) {
    error = parser.error;
    return false;
  }
  Reader r{error};
  if (doc.kind != JsonValue::Object)
    return r.fail(doc, "the document must be an object");
  std::string format;
  if (!r.optionalString(doc, "format", format))
    return false;
  if (format != "memsched-graph")
    return r.fail(doc, "\"format\" must be \"memsched-graph\"");
  uint64_t version = 0;
  if (!r.optionalUnsigned(doc, "version", version))
    return false;
  if (version != 1)
    return r.fail(doc, "unsupported \"version\" " + std::to_string(version) +
                           " (this reader knows 1)");

  const JsonValue *nodes = r.array(doc, "nodes");
  if (!nodes)
    return false;
  for (const JsonValue &n : nodes->items) {
    if (n.kind != JsonValue::Object)
      return r.fail(n, "a node must be an object");
    uint64_t transient = 0, cost = 1;
    std::string name;
    if (!r.optionalUnsigned(n, "transient", transient) ||
        !r.optionalString(n, "name", name))
      return false;
    if (r.field(n, "cost")) {
      if (!r.optionalUnsigned(n, "cost", cost))
        return false;
      anyCost = true;
    }
    costs.push_back(cost);
    graph.addNode(transient, std::move(name));
  }
  const JsonValue *buffers = r.array(doc, "buffers");
  if (!buffers)
    return false;
  for (const JsonValue &b : buffers->items) {
    if (b.kind != JsonValue::Object)
      return r.fail(b, "a buffer must be an object");
    uint64_t size = 0;
    bool liveIn = false, liveOut = false;
    std::string name;
    const JsonValue *size_ = r.field(b, "size");
    if (!size_)
      return r.fail(b, "a buffer needs a \"size\"");
    if (!r.unsignedOf(*size_, "size", size) ||
        !r.optionalBool(b, "live_in", liveIn) ||
        !r.optionalBool(b, "live_out", liveOut) ||
        !r.optionalString(b, "name", name))
      return false;
    BufferId id = graph.addBuffer(size, liveIn, liveOut, std::move(name));
    const JsonValue *touchers = r.array(b, "touchers");
    if (!touchers)
      return false;
    for (const JsonValue &t : touchers->items) {
      NodeId node = 0;
      if (!r.nodeId(t, graph.numNodes(), "toucher", node))
        return false;
      graph.addTouch(id, node);
    }
  }
  const JsonValue *edges = r.array(doc, "edges");
  if (!edges)
    return false;
  for (const JsonValue &e : edges->items) {
    if (e.kind != JsonValue::Array || e.items.size() != 2)
      return r.fail(e, "an edge must be a pair [from, to]");
    NodeId from = 0, to = 0;
    if (!r.nodeId(e.items[0], graph.numNodes(), "edge end", from) ||
        !r.nodeId(e.items[1], graph.numNodes(), "edge end", to))
      return false;
    if (from >= to)
      return r.fail(e, "edge [" + std::to_string(from) + ", " +
                           std::to_string(to) +
                           "] does not go forward in the program order");
    graph.addEdge(from, to);
  }
  graph.finalize();
  if (!remat)
    return true;
  if (anyCost)
    remat->cost = std::move(costs);
  const JsonValue *sources = r.field(doc, "remat_sources");
  if (!sources)
    return true;
  if (sources->kind != JsonValue::Array)
    return r.fail(*sources, "\"remat_sources\" must be an array");
  auto ids = [&](const JsonValue &obj, const char *key, uint64_t limit,
                 const char *what, std::vector<uint32_t> &out) {
    const JsonValue *list = r.array(obj, key);
    if (!list)
      return false;
    for (const JsonValue &v : list->items) {
      uint64_t id = 0;
      if (!r.unsignedOf(v, what, id))
        return false;
      if (id >= limit)
        return r.fail(v, std::string(what) + " " + std::to_string(id) +
                             " is out of range");
      out.push_back(static_cast<uint32_t>(id));
    }
    return true;
  };
  for (const JsonValue &src : sources->items) {
    if (src.kind != JsonValue::Object)
      return r.fail(src, "a remat source must be an object");
    RematSource rs;
    uint64_t buffer = 0;
    const JsonValue *b = r.field(src, "buffer");
    if (!b)
      return r.fail(src, "a remat source needs a \"buffer\"");
    if (!r.unsignedOf(*b, "buffer", buffer))
      return false;
    if (buffer >= graph.numBuffers())
      return r.fail(*b, "buffer " + std::to_string(buffer) + " is out of range");
    rs.buffer = static_cast<BufferId>(buffer);
    if (!ids(src, "producers", graph.numNodes(), "producer", rs.producers) ||
        !ids(src, "readers", graph.numNodes(), "reader", rs.readers))
      return false;
    if (r.field(src, "inner") &&
        !ids(src, "inner", graph.numBuffers(), "inner buffer", rs.inner))
      return false;
    if (rs.producers.empty() || rs.readers.empty() ||
        !std::is_sorted(rs.producers.begin(), rs.producers.end()) ||
        !std::is_sorted(rs.readers.begin(), rs.readers.end()) ||
        rs.producers.back() >= rs.readers.front())
      return r.fail(src, "a remat source's producers and readers must be "
                         "sorted and every producer before every reader");
    remat->sources.push_back(std::move(rs));
  }
  return true;
}

bool memsched_core::readGraphFile(const std::string &path, MemoryGraph &graph,
                             std::string &error, GraphRematData *remat) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot read '" + path + "'";
    return false;
  }
  std::stringstream text;
  text << in.rdbuf();
  if (!readGraphJson(text.str(), graph, error, remat)) {
    error = path + ": " + error;
    return false;
  }
  return true;
}
