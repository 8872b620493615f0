//===- Report.cpp - explain a function's peak as JSON and SVG ---*- C++ -*-===//
//
// Self-contained: needs only LLVM Support, so a test can compile it directly.
//
//===----------------------------------------------------------------------===//

#include "Transforms/MemSched/Report.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

using namespace mlir::memsched;
namespace json = llvm::json;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

/// `s` as valid UTF-8 (json::Value asserts on anything else).
static std::string toUTF8(StringRef s) {
  return json::isUTF8(s) ? s.str() : json::fixUTF8(s);
}

/// "1536 B", "1.50 KiB", "3.25 MiB", ...
static std::string humanBytes(uint64_t bytes) {
  static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024)
    return std::to_string(bytes) + " B";
  double value = static_cast<double>(bytes);
  unsigned unit = 0;
  while (value >= 1024 && unit + 1 < std::size(units)) {
    value /= 1024;
    ++unit;
  }
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%.2f ", value) << units[unit];
  return text;
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

static json::Array toJSONStrings(llvm::ArrayRef<std::string> strings) {
  json::Array array;
  for (const std::string &s : strings)
    array.push_back(toUTF8(s));
  return array;
}

static json::Object toJSON(const Timeline &timeline) {
  json::Array memory;
  for (uint64_t bytes : timeline.memoryAt)
    memory.push_back(bytes);
  json::Array buffers;
  for (const TimelineBuffer &buffer : timeline.buffers) {
    json::Object object{{"name", toUTF8(buffer.name)},
                        {"type", toUTF8(buffer.type)},
                        {"size", buffer.size},
                        {"first", uint64_t(buffer.first)},
                        {"last", uint64_t(buffer.last)}};
    if (!buffer.location.empty())
      object["location"] = toUTF8(buffer.location);
    if (buffer.offset)
      object["offset"] = *buffer.offset;
    buffers.push_back(std::move(object));
  }
  json::Value peakOp = nullptr;
  if (timeline.peakPosition < timeline.ops.size())
    peakOp = toUTF8(timeline.ops[timeline.peakPosition]);
  return json::Object{{"peak", timeline.peak},
                      {"peak_position", uint64_t(timeline.peakPosition)},
                      {"peak_op", std::move(peakOp)},
                      {"live_at_peak", toJSONStrings(timeline.liveAtPeak)},
                      {"ops", toJSONStrings(timeline.ops)},
                      {"memory", std::move(memory)},
                      {"buffers", std::move(buffers)}};
}

json::Object mlir::memsched::toJSON(const FunctionReport &report) {
  uint64_t peak = report.after.peak, bound = report.lowerBound;
  // A bound above the peak means the inputs disagree: keep the sign visible.
  json::Value gap =
      peak >= bound ? json::Value(uint64_t(peak - bound))
                    : json::Value(-static_cast<int64_t>(std::min<uint64_t>(
                          bound - peak, std::numeric_limits<int64_t>::max())));
  json::Object object{
      {"function", toUTF8(report.function)},
      {"reordered", report.reordered},
      {"peak_before", report.before.peak},
      {"peak_after", peak},
      {"lower_bound", bound},
      {"optimal", report.optimal()},
      {"gap", std::move(gap)},
      {"bound", json::Object{{"kind", toUTF8(report.boundKind)},
                             {"op", toUTF8(report.boundOp)},
                             {"cut", toJSONStrings(report.cutBuffers)}}},
      {"before", ::toJSON(report.before)},
      {"after", ::toJSON(report.after)}};
  if (report.arenaSize) {
    object["arena_size"] = *report.arenaSize;
    object["peak_with_arena"] = *report.arenaMemory;
    if (report.arenaPhaseSizes.size() > 1) {
      json::Array sizes;
      for (uint64_t size : report.arenaPhaseSizes)
        sizes.push_back(size);
      object["arena_phases"] = std::move(sizes);
    }
  }
  return object;
}

/// Output order of object keys, as documented in Report.h; keys not listed
/// follow in sorted order.
static const char *const jsonKeyOrder[] = {
    "functions",  "function",     "reordered", "peak_before",
    "peak_after", "lower_bound",  "optimal",   "gap",
    "bound",      "kind",         "op",        "cut",
    "before",     "after",        "peak",      "peak_position",
    "peak_op",    "live_at_peak", "ops",       "memory",
    "buffers",    "name",         "type",      "size",
    "first",      "last"};

static size_t jsonKeyRank(StringRef key) {
  return llvm::find(jsonKeyOrder, key) - std::begin(jsonKeyOrder);
}

/// Writes `value` with object keys in jsonKeyOrder (json::Object alone would
/// print them sorted).
static void writeOrdered(json::OStream &out, const json::Value &value) {
  if (const json::Object *object = value.getAsObject()) {
    llvm::SmallVector<const json::Object::value_type *> entries;
    for (const json::Object::value_type &entry : *object)
      entries.push_back(&entry);
    llvm::sort(entries, [](const auto *a, const auto *b) {
      StringRef keyA = a->first, keyB = b->first;
      size_t rankA = jsonKeyRank(keyA), rankB = jsonKeyRank(keyB);
      return rankA != rankB ? rankA < rankB : keyA < keyB;
    });
    out.object([&] {
      for (const json::Object::value_type *entry : entries) {
        out.attributeBegin(entry->first);
        writeOrdered(out, entry->second);
        out.attributeEnd();
      }
    });
    return;
  }
  if (const json::Array *array = value.getAsArray()) {
    out.array([&] {
      for (const json::Value &element : *array)
        writeOrdered(out, element);
    });
    return;
  }
  out.value(value);
}

void mlir::memsched::writeJSONReport(llvm::ArrayRef<FunctionReport> reports,
                                     llvm::raw_ostream &os) {
  json::Array functions;
  for (const FunctionReport &report : reports)
    functions.push_back(toJSON(report));
  json::OStream out(os, /*IndentSize=*/2);
  writeOrdered(out, json::Object{{"functions", std::move(functions)}});
  os << '\n';
}

//===----------------------------------------------------------------------===//
// SVG
//===----------------------------------------------------------------------===//

/// `s` escaped for XML text and attribute values. Control characters XML 1.0
/// forbids become '?'.
static std::string escapeXML(StringRef s) {
  std::string text = toUTF8(s), escaped;
  escaped.reserve(text.size());
  for (char c : text) {
    switch (c) {
    case '&':
      escaped += "&amp;";
      break;
    case '<':
      escaped += "&lt;";
      break;
    case '>':
      escaped += "&gt;";
      break;
    case '"':
      escaped += "&quot;";
      break;
    case '\'':
      escaped += "&apos;";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' &&
          c != '\r')
        escaped += '?';
      else
        escaped += c;
    }
  }
  return escaped;
}

/// `s` cut to `width` characters (UTF-8 aware) with "..." when longer.
static std::string truncate(StringRef s, size_t width) {
  size_t chars = 0;
  for (size_t i = 0, e = s.size(); i < e; ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) == 0x80)
      continue;
    if (chars++ == width)
      return s.take_front(i).str() + "...";
  }
  return s.str();
}

/// A fill colour for buffer `index`: hues a golden angle apart.
static std::string bufferColor(size_t index) {
  double hue = std::fmod(static_cast<double>(index) * 137.507764, 360.0) / 60;
  double saturation = 0.55, lightness = 0.68;
  double chroma = (1 - std::fabs(2 * lightness - 1)) * saturation;
  double x = chroma * (1 - std::fabs(std::fmod(hue, 2.0) - 1));
  double r = 0, g = 0, b = 0;
  switch (static_cast<int>(hue)) {
  case 0:
    r = chroma, g = x;
    break;
  case 1:
    r = x, g = chroma;
    break;
  case 2:
    g = chroma, b = x;
    break;
  case 3:
    g = x, b = chroma;
    break;
  case 4:
    r = x, b = chroma;
    break;
  default:
    r = chroma, b = x;
    break;
  }
  double m = lightness - chroma / 2;
  auto channel = [&](double v) {
    return static_cast<unsigned>(std::lround((v + m) * 255));
  };
  std::string color;
  llvm::raw_string_ostream(color)
      << llvm::format("#%02x%02x%02x", channel(r), channel(g), channel(b));
  return color;
}

namespace {
/// Where a buffer is drawn: runs of ops over which its bottom stays at one
/// byte offset.
struct Run {
  size_t first, last;
  uint64_t offset;
};
struct DrawnBuffer {
  size_t buffer;
  llvm::SmallVector<Run, 2> runs;
};
/// A panel's buffers and, per op, the top of what is drawn there.
struct Layout {
  std::vector<DrawnBuffer> buffers;
  std::vector<uint64_t> top;
  /// Per op: bytes the op holds inside itself (loop and branch bodies,
  /// callees), drawn on top of the buffers so the top is the live total.
  std::vector<uint64_t> inside;
};

/// Byte ticks of the y axis: `count` steps of `step` units of `unit` bytes.
struct ByteAxis {
  uint64_t unit = 1;
  const char *unitName = "B";
  double step = 1;
  unsigned count = 1;
  unsigned decimals = 0;
  double max() const { return step * count * static_cast<double>(unit); }
};

/// Geometry of one panel.
struct Panel {
  const Timeline *timeline;
  std::string title;
  size_t numOps;
  double pxPerOp;
  bool opNames; // one rotated name per op, else index ticks
  double top, plotTop, plotBottom, bottom;
};

/// Writes the SVG of one FunctionReport.
class TimelineWriter {
public:
  TimelineWriter(const FunctionReport &report, llvm::raw_ostream &os)
      : report(report), os(os) {}
  void write();

private:
  static constexpr double left = 96, right = 30, plotHeight = 240,
                          panelTitle = 30, namesHeight = 180, ticksHeight = 52,
                          panelGap = 18, lineHeight = 18;

  double x(size_t position, const Panel &panel) const {
    return left + position * panel.pxPerOp;
  }
  double y(double bytes, const Panel &panel) const {
    return panel.plotBottom - bytes / axis.max() * plotHeight;
  }
  std::vector<std::string> headerLines() const;
  void writeHeader(llvm::ArrayRef<std::string> lines);
  void writePanel(const Panel &panel, const Layout &layout);
  void writeYAxis(const Panel &panel);
  void writeXAxis(const Panel &panel);
  void writeBars(const Panel &panel, const Layout &layout);
  void writeLegend(double atY, bool anyInside);
  bool inArena() const { return report.arenaSize.has_value(); }
  void writeLines(const Panel &panel);
  void text(double atX, double atY, StringRef content, StringRef attributes);

  const FunctionReport &report;
  llvm::raw_ostream &os;
  ByteAxis axis;
  double plotWidth = 0;
};
} // namespace

/// Per arena (by phase): its size and the ops it lives over, from the
/// first op of its first buffer to the last op of its last.
struct ArenaSpan {
  uint64_t size = 0;
  size_t first = 0, last = 0;
};

static std::vector<ArenaSpan> arenaSpans(const Timeline &timeline,
                                         const FunctionReport &report) {
  std::vector<ArenaSpan> spans;
  if (!report.arenaSize)
    return spans;
  std::vector<uint64_t> sizes = report.arenaPhaseSizes;
  if (sizes.empty())
    sizes.push_back(*report.arenaSize);
  std::vector<bool> seen(sizes.size(), false);
  spans.resize(sizes.size());
  for (size_t p = 0; p < sizes.size(); ++p)
    spans[p].size = sizes[p];
  for (const TimelineBuffer &buffer : timeline.buffers) {
    if (!buffer.offset || buffer.arenaPhase >= spans.size())
      continue;
    ArenaSpan &span = spans[buffer.arenaPhase];
    span.first = seen[buffer.arenaPhase] ? std::min(span.first, buffer.first)
                                         : buffer.first;
    span.last = seen[buffer.arenaPhase] ? std::max(span.last, buffer.last)
                                        : buffer.last;
    seen[buffer.arenaPhase] = true;
  }
  std::vector<ArenaSpan> live;
  for (size_t p = 0; p < spans.size(); ++p)
    if (seen[p])
      live.push_back(spans[p]);
  return live;
}

/// The buffers of `timeline` stacked op by op: at every op the live
/// buffers are piled in a stable order (by first op, then index) from
/// `base` up, so the top of the pile is the bytes live there. In arenas
/// (`arenas`), a buffer with an offset stands at it instead, and the others
/// (left outside) are piled from the top of the arena live at that op.
static Layout layOut(const Timeline &timeline,
                     const std::vector<ArenaSpan> &arenas) {
  bool inArena = !arenas.empty();
  Layout layout;
  size_t numOps = timeline.ops.size();
  if (numOps == 0)
    return layout;
  auto clamped = [&](const TimelineBuffer &buffer) {
    size_t last = std::min(buffer.last, numOps - 1);
    return std::make_pair(std::min(buffer.first, last), last);
  };
  layout.buffers.resize(timeline.buffers.size());
  std::vector<size_t> piled;
  for (size_t i = 0, e = timeline.buffers.size(); i < e; ++i) {
    const TimelineBuffer &buffer = timeline.buffers[i];
    layout.buffers[i].buffer = i;
    auto [first, last] = clamped(buffer);
    if (inArena && buffer.offset)
      layout.buffers[i].runs.push_back({first, last, *buffer.offset});
    else
      piled.push_back(i);
  }
  llvm::stable_sort(piled, [&](size_t a, size_t b) {
    return clamped(timeline.buffers[a]).first <
           clamped(timeline.buffers[b]).first;
  });
  // The arena live at each op (arenas by phase never live together).
  std::vector<uint64_t> arenaAt(numOps, 0);
  for (const ArenaSpan &span : arenas)
    for (size_t op = span.first; op <= span.last && op < numOps; ++op)
      arenaAt[op] = span.size;
  layout.top.assign(numOps, 0);
  layout.inside.assign(numOps, 0);
  std::vector<size_t> active;
  size_t next = 0;
  for (size_t op = 0; op < numOps; ++op) {
    llvm::erase_if(active, [&](size_t i) {
      return clamped(timeline.buffers[i]).second < op;
    });
    while (next < piled.size() &&
           clamped(timeline.buffers[piled[next]]).first == op)
      active.push_back(piled[next++]);
    uint64_t offset = arenaAt[op];
    for (size_t i : active) {
      auto &runs = layout.buffers[i].runs;
      if (!runs.empty() && runs.back().offset == offset &&
          runs.back().last + 1 == op)
        runs.back().last = op;
      else
        runs.push_back({op, op, offset});
      offset += timeline.buffers[i].size;
    }
    layout.top[op] = offset;
    if (!inArena) {
      uint64_t live = op < timeline.memoryAt.size() ? timeline.memoryAt[op] : 0;
      if (live > offset)
        layout.inside[op] = live - offset;
    }
  }
  return layout;
}

/// Ticks covering [0, maxBytes] in the largest binary unit below maxBytes,
/// 4 to 10 steps of 1, 2 or 5 times a power of ten.
static ByteAxis makeByteAxis(uint64_t maxBytes) {
  static const char *const names[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  ByteAxis axis;
  unsigned unit = 0;
  while (unit + 1 < std::size(names) && maxBytes / axis.unit >= 1024) {
    axis.unit *= 1024;
    ++unit;
  }
  axis.unitName = names[unit];
  // Some headroom above the highest line for its label.
  double top = std::max(1.0, static_cast<double>(maxBytes) * 1.08 /
                                 static_cast<double>(axis.unit));
  double raw = top / 5, power = 1;
  while (power * 10 <= raw)
    power *= 10;
  while (power > raw)
    power /= 10;
  double step = power;
  for (double factor : {1.0, 2.0, 5.0, 10.0}) {
    step = power * factor;
    if (step >= raw)
      break;
  }
  // Bytes do not split.
  if (unit == 0)
    step = std::max(1.0, step);
  axis.step = step;
  axis.count = static_cast<unsigned>(std::ceil(top / step - 1e-9));
  axis.count = std::max(1u, axis.count);
  for (double scaled = step; scaled < 1 - 1e-9 && axis.decimals < 6;
       scaled *= 10)
    ++axis.decimals;
  return axis;
}

void TimelineWriter::text(double atX, double atY, StringRef content,
                          StringRef attributes) {
  os << llvm::format("<text x=\"%.1f\" y=\"%.1f\"", atX, atY);
  if (!attributes.empty())
    os << ' ' << attributes;
  os << '>' << escapeXML(content) << "</text>\n";
}

void TimelineWriter::write() {
  // In an arena the order is the one scheduled: one panel, the after one.
  unsigned numPanels = inArena() ? 1 : 2;
  const Timeline *timelines[2] = {inArena() ? &report.after : &report.before,
                                  &report.after};
  Layout layouts[2];
  for (unsigned i = 0; i < numPanels; ++i)
    layouts[i] = layOut(*timelines[i], arenaSpans(*timelines[i], report));

  // One byte scale for both panels so their heights compare.
  uint64_t maxBytes =
      std::max({report.before.peak, report.after.peak, report.lowerBound,
                report.arenaSize.value_or(0), report.arenaMemory.value_or(0)});
  for (unsigned i = 0; i < numPanels; ++i) {
    for (uint64_t bytes : timelines[i]->memoryAt)
      maxBytes = std::max(maxBytes, bytes);
    for (size_t op = 0; op < layouts[i].top.size(); ++op)
      maxBytes = std::max(maxBytes, layouts[i].top[op] + layouts[i].inside[op]);
  }
  axis = makeByteAxis(maxBytes);

  size_t maxOps = std::max(report.before.ops.size(), report.after.ops.size());
  plotWidth = std::clamp(static_cast<double>(maxOps) * 28, 800.0, 1400.0);

  std::vector<std::string> lines = headerLines();
  Panel panels[2];
  // Title, the lines, the legend (two rows).
  double legendY = 30 + lineHeight * lines.size() + 6;
  double top = legendY + 2 * lineHeight + 4;
  for (unsigned i = 0; i < numPanels; ++i) {
    Panel &panel = panels[i];
    const Timeline &timeline = *timelines[i];
    panel.timeline = &timeline;
    panel.numOps = timeline.ops.size();
    panel.pxPerOp = plotWidth / std::max<size_t>(panel.numOps, 1);
    panel.opNames = panel.numOps > 0 && panel.pxPerOp >= 12;
    panel.top = top;
    panel.plotTop = top + panelTitle;
    panel.plotBottom = panel.plotTop + plotHeight;
    panel.bottom =
        panel.plotBottom + (panel.opNames ? namesHeight : ticksHeight);
    top = panel.bottom + panelGap;

    std::string &title = panel.title;
    if (inArena())
      title = "Placement in the arena, ops in the scheduled order";
    else if (i == 0)
      title = "Before scheduling";
    else
      title = report.reordered ? "After scheduling (reordered)"
                               : "After scheduling (order unchanged)";
    title += ": peak " + humanBytes(timeline.peak);
    if (timeline.peakPosition < panel.numOps)
      title += " at #" + std::to_string(timeline.peakPosition) + " " +
               truncate(timeline.ops[timeline.peakPosition], 40);
    title += " (" + std::to_string(panel.numOps) + " ops, " +
             std::to_string(timeline.buffers.size()) + " buffers)";
  }
  double width = left + plotWidth + right, height = top;

  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  os << llvm::format("<svg xmlns=\"http://www.w3.org/2000/svg\" "
                     "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
                     "font-family=\"DejaVu Sans, Arial, sans-serif\" "
                     "font-size=\"11\">\n",
                     width, height, width, height);
  os << "<title>" << escapeXML("memsched: " + report.function) << "</title>\n";
  os << "<rect class=\"background\" width=\"100%\" height=\"100%\" "
        "fill=\"#ffffff\"/>\n";
  writeHeader(lines);
  bool anyInside = false;
  for (unsigned i = 0; i < numPanels; ++i)
    anyInside |= llvm::any_of(layouts[i].inside, [](uint64_t b) { return b; });
  writeLegend(legendY, anyInside);
  for (unsigned i = 0; i < numPanels; ++i)
    writePanel(panels[i], layouts[i]);
  os << "</svg>\n";
}

/// The lines under the title: peaks, bound and verdict, cut.
std::vector<std::string> TimelineWriter::headerLines() const {
  std::vector<std::string> lines;
  std::string line;
  if (inArena() && report.arenaPhaseSizes.size() > 1) {
    line = std::to_string(report.arenaPhaseSizes.size()) +
           " arenas by phase (";
    for (auto [i, size] : llvm::enumerate(report.arenaPhaseSizes))
      line += (i ? ", " : "") + humanBytes(size);
    line += "); with the buffers left outside them the function needs " +
            std::to_string(report.arenaMemory.value_or(0)) +
            " bytes; the bytes live peak at " +
            std::to_string(report.after.peak) + " bytes";
  } else if (inArena()) {
    line = "arena " + humanBytes(*report.arenaSize) + " (" +
           std::to_string(*report.arenaSize) +
           " bytes); with the buffers left outside it the function needs " +
           std::to_string(report.arenaMemory.value_or(0)) +
           " bytes; the bytes live peak at " +
           std::to_string(report.after.peak) + " bytes";
  } else {
    line = "peak " + humanBytes(report.before.peak) + " (" +
           std::to_string(report.before.peak) + " bytes) before, " +
           humanBytes(report.after.peak) + " (" +
           std::to_string(report.after.peak) + " bytes) after";
    line += report.reordered ? ", reordered" : ", order unchanged";
  }
  lines.push_back(line);

  line = "lower bound " + humanBytes(report.lowerBound) + " (" +
         std::to_string(report.lowerBound) + " bytes)";
  if (report.boundKind == "exhaustive")
    line += ", exhaustive search from " + truncate(report.boundOp, 40);
  else if (!report.boundKind.empty() || !report.boundOp.empty())
    line += ", " + report.boundKind + " cut at " + truncate(report.boundOp, 40);
  if (report.optimal()) {
    line += ": the order is optimal";
  } else if (report.after.peak > report.lowerBound) {
    uint64_t gap = report.after.peak - report.lowerBound;
    line += ": gap " + humanBytes(gap);
    if (report.lowerBound > 0) {
      std::string percent;
      llvm::raw_string_ostream(percent)
          << llvm::format(" (%.1f%% above the bound)",
                          100.0 * static_cast<double>(gap) / report.lowerBound);
      line += percent;
    }
  } else {
    line += ": above the peak (inconsistent input)";
  }
  lines.push_back(line);

  if (!report.cutBuffers.empty() && !inArena()) {
    line = "the bound's cut (dashed green outline): ";
    size_t shown = std::min<size_t>(report.cutBuffers.size(), 8);
    for (size_t i = 0; i < shown; ++i)
      line += (i ? ", " : "") + truncate(report.cutBuffers[i], 24);
    if (shown < report.cutBuffers.size())
      line +=
          ", +" + std::to_string(report.cutBuffers.size() - shown) + " more";
    lines.push_back(line);
  }
  return lines;
}

void TimelineWriter::writeHeader(llvm::ArrayRef<std::string> lines) {
  text(left, 24,
       (inArena() ? "Arena of " : "Peak memory of ") +
           truncate(report.function, 60),
       "class=\"title\" font-size=\"16\" font-weight=\"bold\"");
  double atY = 26;
  for (const std::string &line : lines)
    text(left, atY += lineHeight, line, "font-size=\"12\"");
}

void TimelineWriter::writeLegend(double atY, bool anyInside) {
  os << "<g class=\"legend\" font-size=\"10\">\n";
  double atX = left;
  // A swatch (a box with `style`, or a line) and its label.
  auto item = [&](StringRef swatch, StringRef label) {
    os << swatch << "\n";
    text(atX + 22, atY + 9, label, "fill=\"#333333\"");
    atX += 22 + 5.4 * static_cast<double>(label.size()) + 16;
  };
  // A box or a line 16 px wide, with `style`.
  auto swatch = [&](bool isBox, StringRef style) {
    std::string svg;
    llvm::raw_string_ostream os(svg);
    if (isBox)
      os << llvm::format("<rect x=\"%.1f\" y=\"%.1f\" width=\"16\" "
                         "height=\"10\" ",
                         atX, atY);
    else
      os << llvm::format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                         "y2=\"%.1f\" ",
                         atX, atY + 5, atX + 16, atY + 5);
    os << style << "/>";
    return svg;
  };
  auto box = [&](StringRef style) { return swatch(true, style); };
  auto line = [&](StringRef style) { return swatch(false, style); };
  item(box("fill=\"" + bufferColor(0) + "\""),
       inArena() ? "a buffer at its offset in the arena, over the ops it is "
                   "live (hover: name, type, size, allocation site)"
                 : "a buffer while live, piled op by op: the top is the "
                   "bytes live (hover: name, type, size, allocation site)");
  item(box("fill=\"" + bufferColor(1) + "\" stroke=\"#222222\" "
           "stroke-width=\"1.5\""),
       "live at the peak");
  if (inArena())
    item(line("stroke=\"#1f77b4\" stroke-width=\"1.5\""), "the arena's top");
  atX = left;
  atY += lineHeight;
  if (!inArena()) {
    if (!report.cutBuffers.empty())
      item(box("fill=\"" + bufferColor(2) +
               "\" stroke=\"#1f7a1f\" stroke-width=\"1.5\" "
               "stroke-dasharray=\"3 2\""),
           "in the cut that proves the bound");
    if (anyInside)
      item(box("fill=\"#bdbdbd\""),
           "bytes inside an op (loop and branch bodies, callees)");
  } else {
    item(box("fill=\"" + bufferColor(3) + "\" fill-opacity=\"0.55\""),
         "above the arena: buffers left outside it, piled op by op");
  }
  item(line("stroke=\"#111111\" stroke-width=\"1.5\""), "bytes live per op");
  item(line("stroke=\"#d62728\" stroke-width=\"1.2\" "
            "stroke-dasharray=\"6 4\""),
       "peak");
  item(line("stroke=\"#2ca02c\" stroke-width=\"1.2\" "
            "stroke-dasharray=\"2 3\""),
       "lower bound (no order needs less)");
  os << "</g>\n";
}

void TimelineWriter::writePanel(const Panel &panel, const Layout &layout) {
  os << "<g class=\"panel\">\n";
  text(left, panel.top + 20, panel.title,
       "class=\"panel-title\" font-size=\"13\" font-weight=\"bold\"");
  os << llvm::format("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                     "height=\"%.1f\" fill=\"#fafafa\" stroke=\"#bbbbbb\"/>\n",
                     left, panel.plotTop, plotWidth, plotHeight);
  writeYAxis(panel);
  if (panel.numOps == 0)
    text(left + plotWidth / 2, panel.plotTop + plotHeight / 2, "no ops",
         "text-anchor=\"middle\" fill=\"#888888\" font-size=\"14\"");
  writeBars(panel, layout);
  writeLines(panel);
  writeXAxis(panel);
  os << "</g>\n";
}

void TimelineWriter::writeYAxis(const Panel &panel) {
  for (unsigned i = 0; i <= axis.count; ++i) {
    double value = axis.step * i;
    double atY = y(value * axis.unit, panel);
    if (i > 0)
      os << llvm::format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                         "y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n",
                         left, atY, left + plotWidth, atY);
    std::string label;
    llvm::raw_string_ostream(label)
        << llvm::format("%.*f ", axis.decimals, value) << axis.unitName;
    text(left - 6, atY + 4, i == 0 ? "0" : label, "text-anchor=\"end\"");
  }
  double midY = (panel.plotTop + panel.plotBottom) / 2;
  os << llvm::format("<text x=\"18\" y=\"%.1f\" text-anchor=\"middle\" "
                     "transform=\"rotate(-90 18 %.1f)\">%s</text>\n",
                     midY, midY,
                     inArena() ? "offset in the arena (outside: above it)"
                               : "bytes live");
}

void TimelineWriter::writeBars(const Panel &panel, const Layout &layout) {
  const Timeline &timeline = *panel.timeline;
  if (panel.numOps == 0)
    return;

  // Columns under the buffers: hovering empty space names the op.
  if (panel.pxPerOp >= 2) {
    os << "<g class=\"op-columns\" fill=\"#ffffff\" fill-opacity=\"0\">\n";
    for (size_t i = 0; i < panel.numOps; ++i) {
      uint64_t bytes = i < timeline.memoryAt.size() ? timeline.memoryAt[i] : 0;
      os << llvm::format("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                         "height=\"%.1f\">",
                         x(i, panel), panel.plotTop, panel.pxPerOp, plotHeight)
         << "<title>"
         << escapeXML("#" + std::to_string(i) + " " + timeline.ops[i] + "\n" +
                      std::to_string(bytes) + " bytes live (" +
                      humanBytes(bytes) + ")")
         << "</title></rect>\n";
    }
    os << "</g>\n";
  }

  llvm::StringSet<> liveAtPeak, inCut;
  for (const std::string &name : timeline.liveAtPeak)
    liveAtPeak.insert(name);
  if (!inArena())
    for (const std::string &name : report.cutBuffers)
      inCut.insert(name);

  // One group per buffer, in buffer order (the input's, not the pile's):
  // a rectangle per run of ops at one offset, one tooltip.
  size_t skipped = 0;
  os << "<g class=\"buffers\">\n";
  for (const DrawnBuffer &drawn : layout.buffers) {
    if (drawn.runs.empty())
      continue;
    size_t ops = 0;
    for (const Run &run : drawn.runs)
      ops += run.last - run.first + 1;
    if (static_cast<double>(ops) * panel.pxPerOp < 1) {
      ++skipped;
      continue;
    }
    const TimelineBuffer &buffer = timeline.buffers[drawn.buffer];
    bool live = liveAtPeak.contains(buffer.name);
    bool cut = inCut.contains(buffer.name);
    bool outside = inArena() && !buffer.offset;
    os << "<g class=\"buf\" fill=\"" << bufferColor(drawn.buffer) << '"'
       << (outside ? " fill-opacity=\"0.55\"" : "") << "><title>";
    size_t first = drawn.runs.front().first, last = drawn.runs.back().last;
    std::string tooltip =
        buffer.name + "\n" + buffer.type + "\n" + std::to_string(buffer.size) +
        " bytes (" + humanBytes(buffer.size) + ")";
    if (!buffer.location.empty())
      tooltip += "\nallocated at " + buffer.location;
    if (buffer.offset)
      tooltip += "\nat offset " + std::to_string(*buffer.offset) +
                 " of the arena";
    else if (inArena())
      tooltip += "\noutside the arena";
    tooltip += "\nlive from #" + std::to_string(first) + " " +
               timeline.ops[first] + "\nto #" + std::to_string(last) + " " +
               timeline.ops[last];
    if (live)
      tooltip += "\nlive at the peak";
    if (cut)
      tooltip += "\nin the cut that proves the bound";
    os << escapeXML(tooltip) << "</title>\n";
    // Every buffer stays visible and hoverable, even a tiny one.
    double height = std::max(
        y(0, panel) - y(static_cast<double>(buffer.size), panel), 1.0);
    for (const Run &run : drawn.runs) {
      double bottom = y(static_cast<double>(run.offset), panel);
      os << llvm::format("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                         "height=\"%.1f\"/>\n",
                         x(run.first, panel), bottom - height,
                         (run.last - run.first + 1) * panel.pxPerOp, height);
    }
    // One outline around all its runs: along the bottom, back along the top.
    os << "<path fill=\"none\""
       << (live  ? " stroke=\"#222222\" stroke-width=\"1.5\""
           : cut ? " stroke=\"#1f7a1f\" stroke-width=\"1.5\" "
                   "stroke-dasharray=\"3 2\""
                 : " stroke=\"#ffffff\" stroke-width=\"0.5\"")
       << " d=\"";
    for (size_t i = 0; i < drawn.runs.size(); ++i) {
      const Run &run = drawn.runs[i];
      double bottom = y(static_cast<double>(run.offset), panel);
      if (i == 0)
        os << llvm::format("M%.1f %.1f", x(run.first, panel), bottom);
      else
        os << llvm::format("V%.1f", bottom);
      os << llvm::format("H%.1f", x(run.last + 1, panel));
    }
    for (size_t i = drawn.runs.size(); i-- > 0;) {
      const Run &run = drawn.runs[i];
      os << llvm::format("V%.1f", y(static_cast<double>(run.offset), panel) -
                                      height);
      os << llvm::format("H%.1f", x(run.first, panel));
    }
    os << "Z\"/>\n</g>\n";
  }
  os << "</g>\n";

  // What the ops hold inside themselves, on top of the pile.
  bool anyInside = llvm::any_of(layout.inside, [](uint64_t b) { return b; });
  if (anyInside) {
    os << "<g class=\"inside\" fill=\"#bdbdbd\">\n";
    for (size_t i = 0; i < panel.numOps && i < layout.inside.size(); ++i) {
      if (!layout.inside[i])
        continue;
      double top = y(static_cast<double>(layout.top[i] + layout.inside[i]),
                     panel);
      double bottom = y(static_cast<double>(layout.top[i]), panel);
      os << llvm::format("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                         "height=\"%.1f\">",
                         x(i, panel), top, panel.pxPerOp,
                         std::max(bottom - top, 1.0))
         << "<title>"
         << escapeXML("#" + std::to_string(i) + " " + timeline.ops[i] + "\n" +
                      std::to_string(layout.inside[i]) +
                      " bytes inside the op (loop and branch bodies, callees)")
         << "</title></rect>\n";
    }
    os << "</g>\n";
  }
  if (skipped)
    text(left + plotWidth - 4, panel.plotTop + 14,
         std::to_string(skipped) + " of " +
             std::to_string(timeline.buffers.size()) +
             " buffers narrower than a pixel not drawn",
         "text-anchor=\"end\" font-size=\"10\" fill=\"#777777\"");
}

void TimelineWriter::writeLines(const Panel &panel) {
  const Timeline &timeline = *panel.timeline;
  const char *halo = "stroke=\"#ffffff\" stroke-width=\"3\" "
                     "paint-order=\"stroke\"";

  // Memory per op as a step line.
  if (panel.numOps > 0) {
    os << "<path class=\"memory\" fill=\"none\" stroke=\"#111111\" "
          "stroke-width=\"1.5\" d=\"";
    for (size_t i = 0; i < panel.numOps; ++i) {
      uint64_t bytes = i < timeline.memoryAt.size() ? timeline.memoryAt[i] : 0;
      double atY = y(static_cast<double>(bytes), panel);
      if (i == 0)
        os << llvm::format("M%.1f %.1f", x(0, panel), atY);
      else
        os << llvm::format("V%.1f", atY);
      os << llvm::format("H%.1f", x(i + 1, panel));
    }
    os << "\"/>\n";
  }

  // The op at the peak.
  if (timeline.peakPosition < panel.numOps) {
    size_t position = timeline.peakPosition;
    double center = x(position, panel) + panel.pxPerOp / 2;
    uint64_t bytes = position < timeline.memoryAt.size()
                         ? timeline.memoryAt[position]
                         : timeline.peak;
    os << llvm::format("<line class=\"peak-op\" x1=\"%.1f\" y1=\"%.1f\" "
                       "x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d62728\" "
                       "stroke-dasharray=\"2 3\"/>\n",
                       center, panel.plotTop, center, panel.plotBottom);
    os << llvm::format("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" "
                       "fill=\"#d62728\"><title>",
                       center, y(static_cast<double>(bytes), panel))
       << escapeXML("peak at #" + std::to_string(position) + " " +
                    timeline.ops[position])
       << "</title></circle>\n";
  }

  // Peak: label above its line at the right end.
  double peakY = y(static_cast<double>(timeline.peak), panel);
  os << llvm::format("<line class=\"peak\" x1=\"%.1f\" y1=\"%.1f\" "
                     "x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d62728\" "
                     "stroke-width=\"1.2\" stroke-dasharray=\"6 4\"/>\n",
                     left, peakY, left + plotWidth, peakY);
  text(left + plotWidth - 4, peakY - 4,
       "peak " + std::to_string(timeline.peak) + " bytes (" +
           humanBytes(timeline.peak) + ")",
       std::string("class=\"peak-label\" text-anchor=\"end\" "
                   "fill=\"#d62728\" ") +
           halo);

  // The arenas' tops, each over the ops it lives (labelled on the
  // largest).
  if (report.arenaSize) {
    std::vector<ArenaSpan> spans = arenaSpans(report.after, report);
    size_t largest = 0;
    for (size_t i = 0; i < spans.size(); ++i)
      if (spans[i].size > spans[largest].size)
        largest = i;
    for (auto [i, span] : llvm::enumerate(spans)) {
      double arenaY = y(static_cast<double>(span.size), panel);
      double from = x(span.first, panel), to = x(span.last + 1, panel);
      os << llvm::format("<line class=\"arena\" x1=\"%.1f\" y1=\"%.1f\" "
                         "x2=\"%.1f\" y2=\"%.1f\" stroke=\"#1f77b4\" "
                         "stroke-width=\"1.5\"/>\n",
                         from, arenaY, to, arenaY);
      if (i != largest)
        continue;
      // Centred on a wide span; from its start on a narrow one (the label
      // stays in the plot).
      bool wide = to - from >= plotWidth / 2;
      text(wide ? (from + to) / 2 : from + 4, arenaY - 4,
           std::string(spans.size() > 1 ? "largest arena " : "arena ") +
               std::to_string(span.size) + " bytes (" +
               humanBytes(span.size) + "); the function needs " +
               std::to_string(report.arenaMemory.value_or(0)) + " bytes",
           std::string("class=\"arena-label\" text-anchor=\"") +
               (wide ? "middle" : "start") + "\" fill=\"#1f77b4\" " + halo);
    }
  }

  // Lower bound: label at the left end, below its line when there is room, so
  // it never collides with the peak label.
  double boundY = y(static_cast<double>(report.lowerBound), panel);
  os << llvm::format("<line class=\"bound\" x1=\"%.1f\" y1=\"%.1f\" "
                     "x2=\"%.1f\" y2=\"%.1f\" stroke=\"#2ca02c\" "
                     "stroke-width=\"1.2\" stroke-dasharray=\"2 3\"/>\n",
                     left, boundY, left + plotWidth, boundY);
  double labelY = boundY + 13 < panel.plotBottom - 2 ? boundY + 13 : boundY - 4;
  text(left + 4, labelY,
       "lower bound " + std::to_string(report.lowerBound) + " bytes (" +
           humanBytes(report.lowerBound) + ")",
       std::string("class=\"bound-label\" fill=\"#1f7a1f\" ") + halo);
}

void TimelineWriter::writeXAxis(const Panel &panel) {
  const Timeline &timeline = *panel.timeline;
  double base = panel.plotBottom;
  size_t peak = timeline.peakPosition;
  if (panel.opNames) {
    for (size_t i = 0; i < panel.numOps; ++i) {
      double center = x(i, panel) + panel.pxPerOp / 2;
      os << llvm::format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                         "y2=\"%.1f\" stroke=\"#888888\"/>\n",
                         center, base, center, base + 4);
      std::string attributes;
      llvm::raw_string_ostream(attributes)
          << llvm::format("text-anchor=\"end\" font-size=\"10\" "
                          "transform=\"rotate(-60 %.1f %.1f)\"",
                          center, base + 12);
      if (i == peak)
        attributes += " fill=\"#d62728\" font-weight=\"bold\"";
      text(center + 3, base + 12, truncate(timeline.ops[i], 26), attributes);
    }
    text(left + plotWidth / 2, panel.bottom - 4, "ops in order",
         "text-anchor=\"middle\" fill=\"#555555\"");
    return;
  }
  if (panel.numOps == 0)
    return;

  // Too many ops to name: index ticks at least 50 px apart.
  size_t step = 1;
  for (size_t power = 1;; power *= 10) {
    size_t candidates[] = {power, 2 * power, 5 * power};
    auto wide = llvm::find_if(candidates, [&](size_t c) {
      return static_cast<double>(c) * panel.pxPerOp >= 50;
    });
    if (wide != std::end(candidates)) {
      step = *wide;
      break;
    }
  }
  for (size_t i = 0; i < panel.numOps; i += step) {
    double center = x(i, panel) + panel.pxPerOp / 2;
    os << llvm::format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                       "stroke=\"#888888\"/>\n",
                       center, base, center, base + 4);
    text(center, base + 15, std::to_string(i), "text-anchor=\"middle\"");
  }
  if (peak < panel.numOps) {
    double center = x(peak, panel) + panel.pxPerOp / 2;
    bool leftHalf = center < left + plotWidth / 2;
    text(center, base + 30,
         "peak at #" + std::to_string(peak) + " " +
             truncate(timeline.ops[peak], 40),
         std::string(leftHalf ? "text-anchor=\"start\""
                              : "text-anchor=\"end\"") +
             " fill=\"#d62728\" font-weight=\"bold\"");
  }
  text(left + plotWidth / 2, panel.bottom - 4,
       "op position (" + std::to_string(panel.numOps) + " ops)",
       "text-anchor=\"middle\" fill=\"#555555\"");
}

void mlir::memsched::writeTimelineSVG(const FunctionReport &report,
                                      llvm::raw_ostream &os) {
  TimelineWriter(report, os).write();
}
