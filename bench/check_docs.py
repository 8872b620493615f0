#!/usr/bin/env python3
"""Check that the tables of docs/ still hold what the bench scripts print now,
for everything that does not depend on the machine (every column but the
times).

Each entry below names a document, the script that produces its table(s)
and which of the document's tables they are. The script runs, its Markdown
tables are read, and every row of the document's table is compared with the
row of the same key (its first cell, and the second when it names a
preparation, or the budget) cell by cell, the columns whose header says "time" or
"seconds" or ends in " s" aside. Rows present on one side only are differences too.

  bench/check_docs.py --build-dir build            # every entry (about 25 min)
  bench/check_docs.py --build-dir build split-224  # some of them
  bench/check_docs.py --list

Exit 0 when everything matches, 1 with the differences. docs/benchmarks.md
is checked in ctest by bench/check_table.py (bench-table); the entries here
take minutes each (differential runs under mlir-runner), which is why they
are a script. To refresh a document after an intended change, run its
script (the command each entry prints) and paste the table.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# name: (document, command ({build} and {out} replaced), which of the
# document's tables with the header the command prints, in order, and the
# columns that make a row's key).
ENTRIES = {
    "arena-corpus": ("docs/arena-corpus.md",
                     ["bash", "bench/arena-corpus.sh", "-o", "{out}"], [0],
                     (0, 1)),
    "split-224": ("docs/split.md",
                  ["env", "EXTRA=0", "bash", "bench/split-corpus.sh", "{build}",
                   "224"], [0], (0,)),
    "split-224-2": ("docs/split.md",
                    ["env", "EXTRA=0.02", "bash", "bench/split-corpus.sh",
                     "{build}", "224"], [1], (0,)),
    "split-224-5": ("docs/split.md",
                    ["env", "EXTRA=0.05", "bash", "bench/split-corpus.sh",
                     "{build}", "224"], [2], (0,)),
    "split-corpus": ("docs/split.md",
                     ["bash", "bench/split-corpus.sh", "{build}"], [3], (0,)),
    "remat": ("docs/remat.md", ["bash", "bench/remat-table.sh", "{build}"],
              [0], (0, 2)),
    "peers": ("docs/benchmarks.md",
              ["bash", "bench/peers-table.sh", "{build}"], [0], (0,)),
    "lower-bounds": ("docs/lower-bounds.md",
                     ["bash", "bench/tightness-table.sh", "{build}"], [0],
                     (0,)),
    "generated": ("docs/benchmarks.md",
                  ["bash", "bench/generated-table.sh", "{build}"], [0],
                  (0, 1)),
}

# Columns of times (wall clock), left out of the comparison: "time",
# "seconds", "schedule s".
TIME = re.compile(r"time|seconds|(^|\s)s$", re.I)


def tables(text):
    """The Markdown tables of `text`: lists of rows, each a list of cells,
    the header first (the separator row left out)."""
    found, current = [], None
    for line in text.splitlines():
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if all(re.fullmatch(r":?-+:?", c) for c in cells):
                continue
            if current is None:
                current = []
                found.append(current)
            current.append(cells)
        else:
            current = None
    return found


def keyed(table, key):
    header, rows = table[0], table[1:]
    return header, {tuple(r[i] for i in key): r for r in rows}


def compare(name, doc_table, new_table, key=(0,)):
    problems = []
    header, doc_rows = keyed(doc_table, key)
    new_header, new_rows = keyed(new_table, key)
    if header != new_header:
        return ["%s: header %s, now %s" % (name, header, new_header)]
    skip = {i for i, h in enumerate(header) if TIME.search(h)}
    for key in sorted(set(doc_rows) | set(new_rows)):
        if key not in new_rows:
            problems.append("%s: row %s in the document, not printed now"
                            % (name, "/".join(key)))
            continue
        if key not in doc_rows:
            problems.append("%s: row %s printed now, not in the document"
                            % (name, "/".join(key)))
            continue
        for i, (a, b) in enumerate(zip(doc_rows[key], new_rows[key])):
            if i not in skip and a != b:
                problems.append("%s: %s, %s: %s in the document, %s now"
                                % (name, "/".join(key), header[i], a, b))
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    ap.add_argument("--list", action="store_true")
    ap.add_argument("entries", nargs="*")
    args = ap.parse_args()
    if args.list:
        for name, (doc, command, _, _) in ENTRIES.items():
            print("%-14s %s <- %s" % (name, doc, " ".join(command)))
        return 0
    names = args.entries or list(ENTRIES)
    unknown = [n for n in names if n not in ENTRIES]
    if unknown:
        ap.error("unknown entries: %s (see --list)" % ", ".join(unknown))
    build = os.path.abspath(args.build_dir)
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            doc, command, which, key = ENTRIES[name]
            out = os.path.join(tmp, name + ".md")
            command = [c.format(build=build, out=out) for c in command]
            print("%s: %s" % (name, " ".join(command)), flush=True)
            env = dict(os.environ, MEMSCHED_BUILD_DIR=build)
            p = subprocess.run(command, cwd=ROOT, env=env,
                               capture_output=True, text=True)
            if p.returncode != 0:
                problems.append("%s: the script failed (%d): %s"
                                % (name, p.returncode, p.stderr[-500:]))
                continue
            printed = open(out).read() if "{out}" in " ".join(
                ENTRIES[name][1]) else p.stdout
            new = tables(printed)
            # The document's tables with the header the script prints (a
            # document may hold other tables too).
            docs = [t for t in tables(open(os.path.join(ROOT, doc)).read())
                    if new and t[0] == new[0][0]]
            for n, index in enumerate(which):
                if n >= len(new) or index >= len(docs):
                    problems.append("%s: table %d missing" % (name, index))
                    continue
                problems += compare(name, docs[index], new[n], key)
    for p in problems:
        print(p)
    print("%d difference(s)" % len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
