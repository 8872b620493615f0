#!/usr/bin/env python3
"""Check that docs/benchmarks.md still holds what bench/run.sh would print,
for everything that does not depend on the machine.

Runs bench/corpus-table.sh (the real-network table of run.sh) without times
and compares every column but the time with the table in docs/benchmarks.md:
model, ops, the upstream peak, the peak with optimize-allocation-liveness,
memsched-schedule's peak, the lower bound and the verdict. It also checks
those peaks against test/Integration/memref_peaks.py, which computes them from
the IR text alone (upstream: the upstream program; liveness: the shipped
bench/models/<name>.mlir; memsched-schedule: the scheduled output), and that
the notes at the end of docs/benchmarks.md are bench/NOTES.md (run.sh appends
that file).

  bench/check_table.py --build-dir build

Exit 0 when everything matches, 1 with a list of differences. To refresh the
docs after an intended change, run bench/run.sh (it rewrites the whole file,
times included).
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.join(ROOT, "test", "Integration"))
import memref_peaks  # noqa: E402

COLUMNS = ["model", "ops", "upstream", "liveness", "schedule", "bound", "certified"]


def table(text, heading="## Real networks"):
    """Rows of the first Markdown table after `heading`, as lists of cells."""
    rows, inside = [], False
    for line in text.splitlines():
        if line.startswith(heading):
            inside = True
            continue
        if not inside:
            continue
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if cells[0] != "model" and not set(cells[0]) <= set("-: "):
                rows.append(cells)
        elif rows:
            break
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    ap.add_argument("--docs", default=os.path.join(ROOT, "docs", "benchmarks.md"))
    a = ap.parse_args()
    opt = os.path.join(os.path.abspath(a.build_dir), "bin", "memsched-opt")
    docs = open(a.docs).read()
    errors = []
    with tempfile.TemporaryDirectory() as work:
        out = subprocess.run([os.path.join(ROOT, "bench", "corpus-table.sh"), opt, work],
                             capture_output=True, text=True)
        if out.returncode:
            print(out.stderr, file=sys.stderr)
            return 1
        got = {r[0]: r[:len(COLUMNS)] for r in table("## Real networks\n" + out.stdout)}
        want = {r[0]: r[:len(COLUMNS)] for r in table(docs)}
        for name in sorted(set(got) | set(want)):
            if name not in got or name not in want:
                errors.append(f"{name}: only in {'docs' if name in want else 'corpus-table.sh'}")
                continue
            for col, g, w in zip(COLUMNS, got[name], want[name]):
                if g != w:
                    errors.append(f"{name}: {col}: docs {w}, corpus-table.sh {g}")
            # The peaks from the IR text alone (no padding: run.sh's size model).
            files = {"upstream": f"{name}.upstream.mlir", "schedule": f"{name}.scheduled.mlir"}
            static = {col: memref_peaks.analyse(os.path.join(work, f))["peak-as-written"]
                      for col, f in files.items() if os.path.exists(os.path.join(work, f))}
            static["liveness"] = memref_peaks.analyse(
                os.path.join(ROOT, "bench", "models", f"{name}.mlir"))["peak-as-written"]
            for col, v in static.items():
                g = got[name][COLUMNS.index(col)]
                if g != str(v):
                    errors.append(f"{name}: {col}: memsched {g}, memref_peaks.py {v}")
    notes = open(os.path.join(ROOT, "bench", "NOTES.md")).read()
    if not docs.endswith("\n" + notes):
        errors.append("docs/benchmarks.md does not end with bench/NOTES.md")
    for e in errors:
        print(f"error: {e}")
    if not errors:
        print(f"docs/benchmarks.md matches: {len(got)} models, columns {', '.join(COLUMNS)}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
