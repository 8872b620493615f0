#!/usr/bin/env bash
# The tightness table of docs/lower-bounds.md (section 8): per family of
# generated graphs, the fraction whose lower bound equals the exhaustive
# optimum, for each set of bound procedures, on 1,000 graphs of 2-16 nodes
# per family, and with cuts + window on 50 graphs of 20 nodes.
#   bench/tightness-table.sh [BUILD_DIR]
# Deterministic (seeded generators): bench/check_docs.py lower-bounds
# compares it with the document.
set -euo pipefail
build=${1:-${MEMSCHED_BUILD_DIR:-build}}
bench="$build/bin/memsched-bound-bench"
small=$("$bench" --tightness 1000)
twenty=$("$bench" --tightness 50 --min-nodes 20 --max-nodes 20)
python3 - "$small" "$twenty" <<'PY'
import re, sys
def parse(text):
    rows = {}
    for line in text.splitlines():
        m = re.match(r"(?:family=(\S+)|(overall))\s.*?cuts=(\S+) "
                     r"cuts\+window=(\S+) cuts\+ends=(\S+) all=(\S+)", line)
        if m:
            rows[m.group(1) or "overall"] = m.groups()[2:]
    return rows
small, twenty = parse(sys.argv[1]), parse(sys.argv[2])
print("| family | cuts | cuts + window | cuts + ends | all (default) "
      "| n = 20: cuts + window |")
print("| --- | ---: | ---: | ---: | ---: | ---: |")
for family, (c, w, e, a) in small.items():
    n20 = twenty.get(family, ("", "-"))[1]
    print("| %s | %.3f | %.3f | %.3f | %.3f | %.2f |" % (
        family, float(c), float(w), float(e), float(a), float(n20)))
PY
