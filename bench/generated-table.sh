#!/usr/bin/env bash
# memsched on generated graphs of 2,000-20,000 nodes, against the peers'
# schedulers: per graph, each peer's peak (the best in bold), memsched's peak,
# the lower bound as memsched-schedule certifies it (min-cut bound and what
# the exact search proved), the gap and the times; then the median of
# bound / peak and how often memsched is at or below the best peer.
#
#   bench/generated-table.sh BUILD_DIR [SIZES...]   (default: 2000 5000 10000 20000)
set -euo pipefail
BUILD="$1"
shift
BENCH="$BUILD/bin/memsched-graph-bench"
sizes=("$@")
[ "${#sizes[@]}" -gt 0 ] || sizes=(2000 5000 10000 20000)
field() { tr ' ' '\n' | sed -n "s/^$1=//p"; }
families=$("$BENCH" --help 2>&1 | sed -n 's/^families: //p' || true)
peersList="xla-list xla-dfs xla-postorder inductor-lpmf inductor-bfs inductor-dfs"
echo "| family | nodes | $(echo $peersList | sed 's/ / | /g') | memsched | bound | gap | schedule s | bound s |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
ratios=()
atPeer=0
total=0
for fam in $families; do
  for n in "${sizes[@]}"; do
    line=$("$BENCH" --family "$fam" --nodes "$n" --seed 1 --certify)
    peak=$(echo "$line" | field peak)
    bound=$(echo "$line" | field bound)
    best=$(echo "$line" | field best_peer)
    # Each peer's peak, the best in bold.
    cells=""
    for p in $peersList; do
      v=$(echo "$line" | field "$p")
      [ "$v" = "$best" ] && v="**$v**"
      cells="$cells $v |"
    done
    gap="-"
    [ "$(echo "$line" | field certified)" = yes ] || gap="$(echo "$line" | field gap_pct)%"
    echo "| $fam | $(echo "$line" | field nodes) |$cells $peak | $bound | $gap | $(echo "$line" | field seconds) | $(echo "$line" | field bound_seconds) |"
    ratios+=("$(awk -v p="$peak" -v b="$bound" 'BEGIN {printf "%.4f", p ? b / p : 1}')")
    total=$((total + 1))
    [ "$peak" -le "$best" ] && atPeer=$((atPeer + 1))
  done
done
median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{v[NR] = $1} END {if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2}')
echo
echo "$total graphs: memsched at or below the best peer on $atPeer; median bound / peak $median."
