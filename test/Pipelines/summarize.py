#!/usr/bin/env python3
"""What --memsched-schedule does on each case of test/Pipelines, from its remarks.

For every case <name>.mlir the first RUN command is the upstream pipeline:

    // RUN: memsched-opt %s <upstream passes> \
    // RUN: | tee %t.memref.mlir \
    // RUN: | memsched-opt --memsched-schedule=remarks --memsched-verify ...

The script runs those upstream passes on the case, then
`memsched-opt --memsched-schedule=remarks` on their output, and reads one
remark per func.func:

    remark: memsched-schedule: peak P -> Q bytes[, lower bound L bytes[ (optimal)]]
    remark: memsched-schedule: 'f' left unchanged: <reason>

A scheduled function's name is found from the remark's line in the upstream
output. It prints a Markdown table (one row per case) and the counts: per
function, scheduled (peak lowered or not) and unchanged per reason (the
reason up to its first ';', callee names replaced by @callee).

  summarize.py [--build-dir build] [--only NAME...]   # print the summary
  summarize.py --write-readme    # put it into README.md, between the markers
  summarize.py --check-readme    # exit 1 when README.md's copy is stale

Exits 1 when a pipeline or memsched fails on a case (the row says so).
"""

import argparse
import collections
import os
import re
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

REMARK = re.compile(r"^(?P<file>[^:\n]*):(?P<line>\d+):(?P<col>\d+): "
                    r"remark: memsched-schedule: (?P<text>.*)$", re.M)
RANGE = re.compile(r"over (?P<ranges>[^:]*): .*?; at "
                   r"(?P<at>[^:]*): (?P<before>\d+) -> (?P<after>\d+) bytes")
SCHEDULED = re.compile(r"peak (\d+) -> (\d+) bytes(?:, lower bound (\d+) bytes)?"
                       r"( \(optimal\))?")
UNCHANGED = re.compile(r"'(?P<func>[^']*)' left unchanged: (?P<reason>.*)")
CERTIFIED = re.compile(r"peak (\d+) bytes, already certified optimal")
FUNC = re.compile(r"func\.func (?:(?:private|public|nested) )?@([\w$.]+)")


def run_lines(path):
    """The RUN commands of a case, continuation lines joined."""
    commands, current = [], ""
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*//\s*RUN:(.*)$", line)
            if not m:
                continue
            text = m.group(1).strip()
            if text.endswith("\\"):
                current += text[:-1] + " "
                continue
            commands.append((current + text).strip())
            current = ""
    return commands


def upstream_pipeline(path):
    """The first RUN command's first stage after `memsched-opt %s`, as written."""
    commands = run_lines(path)
    if not commands:
        raise ValueError("no RUN line")
    first = commands[0].split(" | ")[0].strip()
    if not first.startswith("memsched-opt %s"):
        raise ValueError("first RUN command is not `memsched-opt %s ...`")
    return first[len("memsched-opt %s"):].strip()


# Abbreviations of the table (printed as its legend), longest first.
ABBREVIATIONS = [
    ("OSB-id", '--one-shot-bufferize="bufferize-function-boundaries '
               'function-boundary-type-conversion=identity-layout-map"'),
    ("OSB", '--one-shot-bufferize="bufferize-function-boundaries"'),
    ("DEALLOC", "--buffer-deallocation-pipeline --convert-bufferization-to-memref"),
]


def abbreviate(pipeline):
    if not pipeline:
        return "(none: hand-written input)"
    for short, long in ABBREVIATIONS:
        pipeline = pipeline.replace(long, short)
    return pipeline


def normalise(reason):
    """The reason without what names this case: callees, blocks, types."""
    reason = reason.split(";")[0]
    reason = re.sub(r"@[\w$.]+", "@callee", reason)
    reason = re.sub(r"\^bb\d+", "^bbN", reason)
    reason = re.sub(r" \((?:[^()]|\([^()]*\))*\)", "", reason)
    return reason.strip()


def summarise_case(tool, path, tmp):
    """[(function, outcome, detail)] and the pipeline string, or an error."""
    pipeline = upstream_pipeline(path)
    args = shlex.split(pipeline)
    lowered = os.path.join(tmp, os.path.basename(path) + ".memref.mlir")
    proc = subprocess.run([tool, path, *args, "-o", lowered],
                          capture_output=True, text=True)
    if proc.returncode:
        return pipeline, None, "upstream pipeline failed: " + proc.stderr.strip()
    proc = subprocess.run([tool, lowered, "--memsched-schedule=remarks",
                           "--mlir-print-op-on-diagnostic=false", "-o", os.devnull],
                          capture_output=True, text=True)
    if proc.returncode:
        return pipeline, None, "memsched-schedule failed: " + proc.stderr.strip()
    with open(lowered) as f:
        lines = f.read().split("\n")
    rows = []
    for m in REMARK.finditer(proc.stderr):
        text = m.group("text")
        u = UNCHANGED.match(text)
        if u:
            rows.append((u.group("func"), "unchanged", normalise(u.group("reason"))))
            continue
        f = FUNC.search(lines[int(m.group("line")) - 1])
        name = f.group(1) if f else "?"
        s = SCHEDULED.match(text)
        c = CERTIFIED.match(text)
        if s:
            before, after, bound, optimal = s.groups()
            detail = "peak %s -> %s" % (before, after)
            if bound:
                detail += ", bound %s%s" % (bound, " (optimal)" if optimal else "")
            kind = "scheduled, peak lowered" if int(after) < int(before) \
                else "scheduled, peak unchanged"
            rows.append((name, kind, detail))
        elif c:
            rows.append((name, "already certified", "peak %s" % c.group(1)))
        elif RANGE.match(text):
            # Dynamic sizes scheduled over their ranges (docs/dynamic.md):
            # the peak at the upper ends.
            r = RANGE.match(text)
            kind = "scheduled over ranges, peak lowered" \
                if int(r.group("after")) < int(r.group("before")) \
                else "scheduled over ranges, peak unchanged"
            rows.append((name, kind, "%s: peak %s -> %s at %s" % (
                r.group("ranges"), r.group("before"), r.group("after"),
                r.group("at"))))
        else:
            rows.append((name, "other remark", text))
    return abbreviate(pipeline), rows, None


BEGIN = "<!-- begin: generated by summarize.py -->"
END = "<!-- end: generated by summarize.py -->"


def summarise(tool, cases_dir, only):
    """The generated Markdown (table, legend, counts) and whether all ran."""
    cases = sorted(n for n in os.listdir(cases_dir) if n.endswith(".mlir"))
    if only:
        cases = [c for c in cases if c[:-5] in only or c in only]
    per_function = collections.Counter()
    per_case = collections.Counter()
    ok = True
    out = ["| case | upstream pipeline | what memsched did |",
           "| --- | --- | --- |"]
    with tempfile.TemporaryDirectory() as tmp:
        for case in cases:
            try:
                pipeline, rows, error = summarise_case(
                    tool, os.path.join(cases_dir, case), tmp)
            except (ValueError, OSError) as e:
                pipeline, rows, error = "?", None, str(e)
            if error:
                ok = False
                per_case["error"] += 1
                out.append("| %s | `%s` | **error**: %s |" % (
                    case[:-5], pipeline, " ".join(error.split())))
                continue
            cells = []
            for name, kind, detail in rows:
                if kind == "unchanged":
                    per_function["unchanged: " + detail] += 1
                    cells.append("@%s unchanged: %s" % (name, detail))
                else:
                    per_function[kind] += 1
                    cells.append("@%s %s (%s)" % (name, kind, detail))
            kinds = {k for _, k, _ in rows}
            per_case["all functions scheduled" if kinds and "unchanged" not in kinds
                     else "no function scheduled" if kinds == {"unchanged"}
                     else "some functions scheduled, some unchanged"] += 1
            out.append("| %s | `%s` | %s |" % (case[:-5], pipeline,
                                               "<br>".join(cells)))
    out.append("")
    out.append("Pipelines: " + "; ".join("`%s` = `%s`" % a for a in ABBREVIATIONS) + ".")
    out.append("")
    out.append("Per function (%d):" % sum(per_function.values()))
    out.append("")
    for key, n in sorted(per_function.items(), key=lambda kv: (-kv[1], kv[0])):
        out.append("- %d %s" % (n, key))
    out.append("")
    out.append("Per case (%d):" % sum(per_case.values()))
    out.append("")
    for key, n in sorted(per_case.items(), key=lambda kv: (-kv[1], kv[0])):
        out.append("- %d %s" % (n, key))
    return "\n".join(out) + "\n", ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    parser.add_argument("--cases", default=HERE)
    parser.add_argument("--only", nargs="*", default=None)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write-readme", action="store_true",
                      help="replace the generated part of README.md")
    mode.add_argument("--check-readme", action="store_true",
                      help="exit 1 when README.md's generated part is stale")
    opts = parser.parse_args()
    tool = os.path.join(opts.build_dir, "bin", "memsched-opt")
    text, ok = summarise(tool, opts.cases, opts.only)
    if not (opts.write_readme or opts.check_readme):
        sys.stdout.write(text)
        return 0 if ok else 1
    readme = os.path.join(opts.cases, "README.md")
    with open(readme) as f:
        old = f.read()
    if BEGIN not in old or END not in old:
        sys.stderr.write("%s: no %s ... %s section\n" % (readme, BEGIN, END))
        return 1
    head, rest = old.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    new = head + BEGIN + "\n" + text + END + tail
    if opts.check_readme:
        if new != old:
            sys.stderr.write("%s is stale: run summarize.py --write-readme\n" % readme)
            return 1
        return 0 if ok else 1
    with open(readme, "w") as f:
        f.write(new)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
