//===- memsched-arena.cpp - plan an arena for a CSV of buffers --*- C++ -*-===//
//
// Reads buffers as CSV with the header `id,lower,upper,size` (lifetime
// half-open [lower, upper), the layout of public dynamic storage allocation
// benchmarks; `begin`/`start`, `end` and `buffer` name the same columns, as
// in other versions of those files; an optional `alignment` column; columns
// in any order),
// plans one arena (ArenaPlanner.h) and writes the same rows with an
// `offset` column. Ids are echoed as given. An `offset` column in the input
// (another planner's solution) is checked and its arena reported with
// --summary; the output holds the planned offsets in its place.
//
//   memsched-arena buffers.csv [-o planned.csv] [--summary]
//                  [--work-budget N] [--capacity BYTES] [--heuristic-only]
//                  [--heuristic NAME]
//
//===----------------------------------------------------------------------===//

#include "Analysis/Graph/ArenaPlanner.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace llvm;

/// The tool's own options: --help lists these alone.
static cl::OptionCategory arenaCategory("memsched-arena options");

static cl::opt<std::string> inputFile(cl::Positional,
                                      cl::desc("<buffers.csv>"), cl::init("-"),
                                      cl::cat(arenaCategory));
static cl::opt<std::string> outputFile("o",
                                       cl::desc("Output file (default: stdout)"),
                                       cl::value_desc("file"), cl::init("-"),
                                       cl::cat(arenaCategory));
static cl::opt<bool> summary(
    "summary",
    cl::desc("Print `arena=... ideal=... lower_bound=... optimal=yes|no "
             "seconds=...` to stderr"),
    cl::cat(arenaCategory));
static cl::opt<uint64_t> workBudget(
    "work-budget", cl::desc("Search nodes the exact search may expand"),
    cl::init(memsched_core::ArenaOptions().workBudget), cl::cat(arenaCategory));
static cl::opt<uint64_t> capacity(
    "capacity",
    cl::desc("A memory of this many bytes to fit in: decide that first and "
             "stop as soon as the arena fits (the summary adds fits=yes|no)"),
    cl::init(0), cl::cat(arenaCategory));
static cl::opt<bool> heuristicOnly("heuristic-only",
                                   cl::desc("Skip the exact search"),
                                   cl::cat(arenaCategory));
static cl::opt<std::string> heuristic(
    "heuristic",
    cl::desc("Use one heuristic alone: greedy-by-size, best-fit-by-size, "
             "first-fit-by-start or first-fit-by-conflicts"),
    cl::init(""), cl::cat(arenaCategory));

/// The cells joined by commas, the one at `skip` (if any) left out.
static std::string withoutColumn(ArrayRef<StringRef> cells, int skip) {
  SmallVector<StringRef> kept;
  for (auto [i, cell] : llvm::enumerate(cells))
    if (static_cast<int>(i) != skip)
      kept.push_back(cell.trim(" \t\r"));
  return llvm::join(kept, ",");
}

static int fail(const Twine &msg) {
  WithColor::error(errs(), "memsched-arena") << msg << "\n";
  return 1;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(arenaCategory);
  cl::ParseCommandLineOptions(argc, argv, "memsched arena planner\n");

  ErrorOr<std::unique_ptr<MemoryBuffer>> file =
      MemoryBuffer::getFileOrSTDIN(inputFile, /*IsText=*/true);
  if (!file)
    return fail("cannot read '" + inputFile + "': " + file.getError().message());

  SmallVector<StringRef> lines;
  (*file)->getBuffer().split(lines, '\n', -1, /*KeepEmpty=*/false);
  auto trimmed = [](StringRef s) { return s.trim(" \t\r"); };
  while (!lines.empty() && trimmed(lines.back()).empty())
    lines.pop_back();
  if (lines.empty())
    return fail("empty input: expected a header `id,lower,upper,size`");

  SmallVector<StringRef> header;
  trimmed(lines[0]).split(header, ',');
  int col[6] = {-1, -1, -1, -1, -1, -1};
  const char *names[6] = {"id", "lower", "upper", "size", "alignment",
                          "offset"};
  for (auto [i, h] : llvm::enumerate(header)) {
    StringRef name = trimmed(h);
    // The names other versions of the public benchmark files use.
    if (name == "begin" || name == "start")
      name = "lower";
    else if (name == "end")
      name = "upper";
    else if (name == "buffer")
      name = "id";
    for (int k = 0; k < 6; ++k)
      if (name == names[k]) {
        if (col[k] >= 0)
          return fail(Twine("the header names the `") + names[k] +
                      "` column twice");
        col[k] = i;
      }
  }
  for (int k = 0; k < 4; ++k)
    if (col[k] < 0)
      return fail(Twine("the header has no `") + names[k] +
                  "` column (expected id,lower,upper,size[,alignment])");

  std::vector<memsched_core::ArenaBuffer> buffers;
  std::vector<std::string> rows;
  // The given offsets, when the input has them.
  std::vector<uint64_t> given;
  for (size_t l = 1; l < lines.size(); ++l) {
    StringRef line = trimmed(lines[l]);
    if (line.empty())
      continue;
    SmallVector<StringRef> cells;
    line.split(cells, ',');
    if (cells.size() != header.size())
      return fail("line " + Twine(l + 1) + ": " + Twine(cells.size()) +
                  " columns, the header has " + Twine(header.size()));
    uint64_t v[6] = {0, 0, 0, 0, 1, 0};
    for (int k = 1; k < 6; ++k) {
      if (col[k] < 0)
        continue;
      if (trimmed(cells[col[k]]).getAsInteger(10, v[k]))
        return fail("line " + Twine(l + 1) + ": `" + names[k] +
                    "` is not a non-negative integer: '" + cells[col[k]] + "'");
    }
    if (v[2] <= v[1])
      return fail("line " + Twine(l + 1) +
                  ": `upper` must be above `lower` (lifetimes are [lower, upper))");
    if (v[4] == 0 || (v[4] & (v[4] - 1)))
      return fail("line " + Twine(l + 1) + ": `alignment` must be a power of two");
    if (v[3] >= (uint64_t{1} << 62))
      return fail("line " + Twine(l + 1) + ": `size` is too large");
    memsched_core::ArenaBuffer b;
    b.first = v[1];
    b.last = v[2] - 1;
    b.size = v[3];
    b.alignment = v[4];
    buffers.push_back(b);
    rows.push_back(col[5] < 0 ? line.str() : withoutColumn(cells, col[5]));
    if (col[5] >= 0)
      given.push_back(v[5]);
  }

  auto start = std::chrono::steady_clock::now();
  memsched_core::ArenaPlan plan;
  if (!heuristic.empty()) {
    bool known = false;
    for (auto h : {memsched_core::ArenaHeuristic::GreedyBySize,
                   memsched_core::ArenaHeuristic::BestFitBySize,
                   memsched_core::ArenaHeuristic::FirstFitByStart,
                   memsched_core::ArenaHeuristic::FirstFitByConflicts})
      if (heuristic == memsched_core::getHeuristicName(h)) {
        known = true;
        plan.offsets = memsched_core::placeHeuristic(buffers, h);
        plan.arenaSize = memsched_core::getArenaSize(buffers, plan.offsets);
        plan.ideal = plan.lowerBound = memsched_core::getIdealArena(buffers);
        plan.optimal = plan.arenaSize <= plan.lowerBound;
      }
    if (!known)
      return fail("unknown heuristic '" + heuristic + "'");
  } else {
    memsched_core::ArenaOptions options;
    options.workBudget = workBudget;
    options.heuristicOnly = heuristicOnly;
    options.capacity = capacity;
    plan = memsched_core::planArena(buffers, options);
  }
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  std::string why;
  if (!memsched_core::isValidPlacement(buffers, plan.offsets, plan.arenaSize, &why))
    return fail("internal error: invalid placement: " + why);

  {
    std::error_code ec;
    ToolOutputFile out(outputFile, ec, sys::fs::OF_Text);
    if (ec)
      return fail("cannot write '" + outputFile + "': " + ec.message());
    out.os() << (col[5] < 0 ? trimmed(lines[0]).str()
                            : withoutColumn(header, col[5]))
             << ",offset\n";
    for (size_t i = 0; i < rows.size(); ++i)
      out.os() << rows[i] << "," << plan.offsets[i] << "\n";
    out.keep();
  }
  outs().flush();
  if (summary) {
    errs() << "arena=" << plan.arenaSize << " ideal=" << plan.ideal
           << " lower_bound=" << plan.lowerBound
           << " optimal=" << (plan.optimal ? "yes" : "no")
           << " seconds=" << format("%.3f", seconds);
    if (capacity)
      errs() << " fits=" << (plan.arenaSize <= capacity ? "yes" : "no");
    // The solution given with the input, checked as the plan is.
    if (col[5] >= 0) {
      uint64_t givenArena = memsched_core::getArenaSize(buffers, given);
      std::string whyNot;
      bool valid = memsched_core::isValidPlacement(buffers, given, givenArena,
                                                   &whyNot);
      errs() << " given_arena=" << givenArena
             << " given_valid=" << (valid ? "yes" : "no");
      if (!valid)
        errs() << " (" << whyNot << ")";
    }
    errs() << "\n";
  }
  return 0;
}
