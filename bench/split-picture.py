#!/usr/bin/env python3
"""Memory over time of one network before and after --memsched-split.

Runs memsched-opt twice on NETWORK (an .mlir of bench/models): scheduled
alone, and split (with --extra as its max-extra-compute) then scheduled,
each with --memsched-schedule's report (docs/report-format.md), and draws
the bytes live while each op runs, as scheduled, for both programs on one
SVG: x is the position in each program's op order as a fraction of its ops
(the split program has more ops: its loops and bands), y the bytes live.

  bench/split-picture.py [--build BUILD] [--extra F] [--function forward]
                         NETWORK OUT.svg

Prints the two peaks and the split's extra compute.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

WIDTH, HEIGHT = 900, 420
LEFT, RIGHT, TOP, BOTTOM = 90, 30, 56, 60


def report(opt, network, passes, function):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.mlir")
        subprocess.run([opt, network] + passes + [
            "--memsched-schedule=count-alignment-padding report-dir=" + tmp,
            "-o", out], check=True)
        with open(os.path.join(tmp, function + ".json")) as f:
            data = json.load(f)
        with open(out) as f:
            text = f.read()
    ppm = re.search(r"extra_compute_ppm = (\d+)>", text)
    for entry in data["functions"]:
        if entry["function"].lstrip("@") == function:
            return entry["after"], int(ppm.group(1)) if ppm else 0
    sys.exit("no report for @%s" % function)


def human(n):
    for unit, scale in (("MB", 1e6), ("KB", 1e3)):
        if n >= scale:
            return "%.2f %s" % (n / scale, unit)
    return "%d B" % n


def steps(memory, top):
    """Points of a step line over [0, 1] x bytes."""
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    n = max(len(memory), 1)
    points = []
    for i, m in enumerate(memory):
        y = TOP + plot_h * (1 - m / top)
        points.append((LEFT + plot_w * i / n, y))
        points.append((LEFT + plot_w * (i + 1) / n, y))
    return " ".join("%.1f,%.1f" % p for p in points)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("network")
    ap.add_argument("out")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--extra", type=float, default=0.0)
    ap.add_argument("--function", default="forward")
    args = ap.parse_args()
    opt = os.path.join(args.build, "bin", "memsched-opt")
    before, _ = report(opt, args.network, [], args.function)
    split = "--memsched-split=count-alignment-padding max-extra-compute=%g" % \
        args.extra
    after, ppm = report(opt, args.network, [split], args.function)
    top = max(before["peak"], after["peak"]) * 1.08
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    name = os.path.splitext(os.path.basename(args.network))[0]
    out = []
    out.append('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
               'viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">'
               % (WIDTH, HEIGHT, WIDTH, HEIGHT))
    out.append('<rect width="100%" height="100%" fill="white"/>')
    out.append('<text x="%d" y="22" font-size="15" font-weight="bold">%s: bytes '
               'live while each op runs, scheduled, before and after '
               '--memsched-split</text>' % (LEFT, name))
    # Grid and y ticks.
    # 1, 2 or 5 times a power of ten: four to ten lines.
    magnitude = 10 ** (len(str(int(top))) - 1)
    step = next(m * f for m in (magnitude // 10, magnitude)
                for f in (1, 2, 5) if m and top / (m * f) <= 10)
    y = 0
    while y <= top:
        py = TOP + plot_h * (1 - y / top)
        out.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#e4e4e4"/>'
                   % (LEFT, LEFT + plot_w, py, py))
        out.append('<text x="%d" y="%.1f" text-anchor="end">%s</text>'
                   % (LEFT - 6, py + 4, human(y) if y else "0"))
        y += step
    for frac in (0, 0.25, 0.5, 0.75, 1):
        px = LEFT + plot_w * frac
        out.append('<text x="%.1f" y="%d" text-anchor="middle">%d%%</text>'
                   % (px, TOP + plot_h + 18, frac * 100))
    out.append('<text x="%.1f" y="%d" text-anchor="middle">position in the '
               'op order (each program: its first op to its last)</text>'
               % (LEFT + plot_w / 2, TOP + plot_h + 40))
    out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" '
               'stroke="#888"/>' % (LEFT, TOP, plot_w, plot_h))
    series = [
        (before, "#4878b0", "scheduled: peak %s" % human(before["peak"])),
        (after, "#d8661c", "split (%s extra compute) + scheduled: peak %s"
         % ("%.2f%%" % (ppm / 1e4), human(after["peak"]))),
    ]
    for data, colour, label in series:
        out.append('<polyline fill="none" stroke="%s" stroke-width="1.5" '
                   'points="%s"/>' % (colour, steps(data["memory"], top)))
        py = TOP + plot_h * (1 - data["peak"] / top)
        out.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="%s" '
                   'stroke-dasharray="4 3"/>' % (LEFT, LEFT + plot_w, py, py,
                                                 colour))
    # Legend.
    for i, (data, colour, label) in enumerate(series):
        ly = TOP + 44 + 18 * i
        out.append('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="%s" '
                   'stroke-width="3"/>' % (LEFT + plot_w - 430, LEFT + plot_w - 406,
                                           ly - 4, ly - 4, colour))
        out.append('<text x="%d" y="%d">%s</text>'
                   % (LEFT + plot_w - 400, ly, label))
    out.append('</svg>')
    with open(args.out, "w") as f:
        f.write("\n".join(out) + "\n")
    print("%s: peak %d -> %d bytes, extra compute %.2f%%" % (
        name, before["peak"], after["peak"], ppm / 1e4))


if __name__ == "__main__":
    main()
