#!/usr/bin/env python3
"""How --memsched-schedule scales with the size of the program.

  python3 bench/scale.py [--build-dir build] [--families synthetic,layered,...]
                         [--sizes 1000,10000,100000] [--seed 1]
                         [--work-dir /tmp/memsched-scale] [--svg FILE]

For each family of bench/scale_programs.py and each size N (compute ops),
writes the program and runs, one at a time (the times are wall times: run it
on an otherwise idle machine):

  * parse + print: `memsched-opt FILE -o OUT` (what any pass of a pipeline
    costs at least: reading and writing the IR);
  * the pass: `memsched-opt FILE --memsched-schedule="remarks phase-times"
    --mlir-timing -o OUT`: the pass's line of --mlir-timing (it includes
    MLIR's verifier after the pass), the peak before and after, the lower
    bound, and the time of each phase from the phase-times remark;
  * the peak RSS of that run (/usr/bin/time).

Prints one markdown table row per run: family, N, ops in the file, parse +
print seconds, pass seconds, their ratio, peak, bound, bound / peak,
RSS, and the phases that took at least 5% of the pass. With --svg, also
draws pass seconds and parse + print seconds against N on log-log axes,
one line per family (docs/performance.md shows it).

Needs Python 3, /usr/bin/time and the build's memsched-opt.
"""

import argparse
import math
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def run(cmd):
    p = subprocess.run(["/usr/bin/time", "-f", "memsched-scale-rss %M"] + cmd,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if p.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), p.stderr[-2000:]))
    rss = int(re.search(r"memsched-scale-rss (\d+)", p.stderr).group(1))
    return p.stderr, rss


def timing_line(text, name):
    """Seconds of `name` in --mlir-timing output (the first column)."""
    m = re.search(r"^\s*([0-9.]+) \([ 0-9.]+%\)\s+" + re.escape(name) +
                  r"\s*$", text, re.M)
    return float(m.group(1)) if m else None


def measure(opt, path, out):
    text, _ = run([opt, path, "--mlir-timing", "-o", out])
    parse = timing_line(text, "Parser") or 0.0
    output = timing_line(text, "Output") or 0.0
    text, rss = run([opt, path, "--memsched-schedule=remarks phase-times",
                     "--mlir-timing", "--mlir-print-op-on-diagnostic=false",
                     "-o", out])
    row = {"parse_print": parse + output, "pass": timing_line(text, "Schedule"),
           "rss_mb": rss / 1024.0}
    m = re.search(r"peak (\d+) -> (\d+) bytes, lower bound (\d+) bytes", text)
    row["before"], row["peak"], row["bound"] = map(int, m.groups())
    m = re.search(r"phase times: (.*) \(total ([0-9.]+) s\)", text)
    phases = []
    for part in m.group(1).split(", "):
        pm = re.match(r"(.*) ([0-9.]+) s(?: \(x\d+\))?$", part)
        phases.append((pm.group(1), float(pm.group(2))))
    row["phases"] = phases
    row["total"] = float(m.group(2))
    return row


def svg_plot(results, path):
    """Pass and parse + print seconds against N, log-log, per family."""
    W, H, L, R, T, B = 640, 400, 70, 150, 30, 50
    xs = [r["n"] for r in results]
    ys = [v for r in results for v in (r["pass"], r["parse_print"]) if v]
    x0, x1 = math.log10(min(xs)), math.log10(max(xs))
    y0, y1 = math.floor(math.log10(min(ys))), math.ceil(math.log10(max(ys)))
    x1 = max(x1, x0 + 1)
    y1 = max(y1, y0 + 1)

    def px(n):
        return L + (math.log10(n) - x0) / (x1 - x0) * (W - L - R)

    def py(s):
        return T + (y1 - math.log10(s)) / (y1 - y0) * (H - T - B)

    colors = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"]
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif" font-size="12">' % (W, H),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="18" font-size="14">memsched-schedule: seconds '
           'against compute ops (log-log)</text>' % L]
    for e in range(int(y0), int(y1) + 1):
        y = py(10 ** e)
        out.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>'
                   % (L, W - R, y, y))
        out.append('<text x="%d" y="%.1f" text-anchor="end">%s s</text>'
                   % (L - 6, y + 4, ("%g" % 10 ** e)))
    for n in sorted(set(xs)):
        x = px(n)
        out.append('<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#ddd"/>'
                   % (x, x, T, H - B))
        out.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>'
                   % (x, H - B + 16, "{:,}".format(n)))
    out.append('<text x="%d" y="%d" text-anchor="middle">compute ops</text>'
               % ((L + W - R) // 2, H - 12))
    families = []
    for r in results:
        if r["family"] not in families:
            families.append(r["family"])
    for i, fam in enumerate(families):
        c = colors[i % len(colors)]
        rows = sorted((r for r in results if r["family"] == fam),
                      key=lambda r: r["n"])
        for key, dash in (("pass", ""), ("parse_print", ' stroke-dasharray="5,4"')):
            pts = " ".join("%.1f,%.1f" % (px(r["n"]), py(r[key])) for r in rows)
            out.append('<polyline points="%s" fill="none" stroke="%s" '
                       'stroke-width="2"%s/>' % (pts, c, dash))
            for r in rows:
                out.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"><title>'
                           '%s %s ops: %s %.2f s</title></circle>'
                           % (px(r["n"]), py(r[key]), c, fam,
                              "{:,}".format(r["n"]),
                              "pass" if key == "pass" else "parse + print",
                              r[key]))
        ly = T + 20 + 20 * i
        out.append('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="%s" '
                   'stroke-width="2"/>' % (W - R + 10, W - R + 34, ly, ly, c))
        out.append('<text x="%d" y="%d">%s</text>' % (W - R + 40, ly + 4, fam))
    ly = T + 20 + 20 * len(families) + 10
    out.append('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#444" '
               'stroke-width="2"/>' % (W - R + 10, W - R + 34, ly, ly))
    out.append('<text x="%d" y="%d">the pass</text>' % (W - R + 40, ly + 4))
    ly += 20
    out.append('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#444" '
               'stroke-width="2" stroke-dasharray="5,4"/>'
               % (W - R + 10, W - R + 34, ly, ly))
    out.append('<text x="%d" y="%d">parse + print</text>'
               % (W - R + 40, ly + 4))
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    p = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build-dir", default="build")
    p.add_argument("--families", default="synthetic,layered,inception,branchy")
    p.add_argument("--sizes", default="1000,10000,100000")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--work-dir", default="/tmp/memsched-scale")
    p.add_argument("--svg", default="")
    a = p.parse_args()
    opt = os.path.join(a.build_dir, "bin", "memsched-opt")
    os.makedirs(a.work_dir, exist_ok=True)
    out = os.path.join(a.work_dir, "out.mlir")
    print("| family | N | ops | parse + print s | pass s | pass / (parse + "
          "print) | peak as written | peak | lower bound | bound / peak | "
          "RSS MB | phases (>= 5% of the pass) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | "
          "---: | ---: | --- |")
    results = []
    for fam in a.families.split(","):
        for n in map(int, a.sizes.split(",")):
            path = os.path.join(a.work_dir, "%s-%d.mlir" % (fam, n))
            with open(path, "w") as f:
                subprocess.run([sys.executable,
                                os.path.join(HERE, "scale_programs.py"),
                                "--family", fam, "--ops", str(n),
                                "--seed", str(a.seed)], stdout=f, check=True)
            with open(path) as f:
                ops = sum(1 for line in f
                          if re.match(r"\s*(%\S+ = )?[a-z_]+\.[a-z_.]+", line))
            r = measure(opt, path, out)
            r.update(family=fam, n=n)
            results.append(r)
            big = ", ".join("%s %.2f" % (ph, s) for ph, s in r["phases"]
                            if s >= 0.05 * r["total"])
            print("| %s | %s | %s | %.2f | %.2f | %.2f | %s | %s | %s | %.3f | "
                  "%.0f | %s |" % (
                      fam, "{:,}".format(n), "{:,}".format(ops),
                      r["parse_print"], r["pass"],
                      r["pass"] / r["parse_print"], "{:,}".format(r["before"]),
                      "{:,}".format(r["peak"]), "{:,}".format(r["bound"]),
                      r["bound"] / r["peak"] if r["peak"] else 1.0,
                      r["rss_mb"], big), flush=True)
    if a.svg:
        svg_plot(results, a.svg)


if __name__ == "__main__":
    main()
