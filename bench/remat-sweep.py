#!/usr/bin/env python3
"""Peak and extra compute of --memsched-rematerialize against the budget.

  python3 bench/remat-sweep.py [--model train_step_cnn] [--build-dir build]
                               [--svg docs/remat-sweep.svg]

Schedules the model's function (its certified peak P), then runs the pass
at budgets of 1.00, 0.95, ..., 0.50 times P and prints a Markdown table of
the peak reached and the extra compute; with --svg, draws both against the
budget. Exits 1 if a smaller budget ever ends at a higher peak.
"""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(opt, model, options):
    out = subprocess.run([opt, model, options, "--mlir-print-op-on-diagnostic=false",
                          "-o", "/dev/null"], capture_output=True, text=True)
    return out.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="train_step_cnn")
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    ap.add_argument("--opt", help="memsched-opt to run (default: in --build-dir)")
    ap.add_argument("--svg")
    args = ap.parse_args()
    opt = args.opt or os.path.join(args.build_dir, "bin", "memsched-opt")
    model = os.path.join(ROOT, "bench", "models", args.model + ".mlir")
    sched = subprocess.run([opt, model, "--memsched-schedule", "-o", "-"],
                           capture_output=True, text=True).stdout
    P = int(re.search(r"certificate<peak = (\d+)", sched).group(1))
    rows = []
    for step in range(20, 9, -1):
        frac = step * 0.05
        budget = int(P * frac)
        err = run(opt, model, f"--memsched-rematerialize=bytes={budget} remarks")
        m = re.search(r"peak \d+ -> (\d+) bytes.*?(\d+) op\(s\).*?\(([\d.]+)%\)", err)
        if m:
            rows.append((frac, budget, int(m.group(1)), int(m.group(2)), float(m.group(3))))
        else:
            rows.append((frac, budget, P, 0, 0.0))
    print(f"{args.model}: certified optimal peak of the schedule P = {P} bytes\n")
    print("| budget / P | budget | peak reached | peak / P | ops again | extra compute |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: |")
    for frac, budget, peak, ops, extra in rows:
        print(f"| {frac:.2f} | {budget} | {peak} | {peak / P:.3f} | {ops} | {extra:.2f}% |")
    monotone = all(rows[i + 1][2] <= rows[i][2] for i in range(len(rows) - 1))
    print(f"\nmonotone: {'yes' if monotone else 'NO'}")
    if args.svg:
        W, H, L, B = 560, 300, 60, 40
        def x(f): return L + (1.0 - f) / 0.5 * (W - L - 20)
        def y(v, lo, hi): return H - B - (v - lo) / (hi - lo or 1) * (H - B - 20)
        lo = min(r[2] for r in rows) / P
        lo = min(lo, 0.5)
        pts = " ".join(f"{x(f):.1f},{y(p / P, lo, 1.0):.1f}" for f, _, p, _, _ in rows)
        bud = " ".join(f"{x(f):.1f},{y(f, lo, 1.0):.1f}" for f, _, _, _, _ in rows)
        emax = max(max(r[4] for r in rows), 1.0)
        ext = " ".join(f"{x(f):.1f},{y(e, 0, emax):.1f}" for f, _, _, _, e in rows)
        svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="11">',
               f'<rect width="{W}" height="{H}" fill="white"/>',
               f'<text x="{L}" y="14">{args.model}: peak / P (blue), budget / P (grey), extra compute (red, 0-{emax:.1f}%)</text>',
               f'<line x1="{L}" y1="{H - B}" x2="{W - 20}" y2="{H - B}" stroke="black"/>',
               f'<line x1="{L}" y1="20" x2="{L}" y2="{H - B}" stroke="black"/>',
               f'<polyline points="{bud}" fill="none" stroke="#999" stroke-dasharray="4 3"/>',
               f'<polyline points="{pts}" fill="none" stroke="#1f5fbf" stroke-width="2"/>',
               f'<polyline points="{ext}" fill="none" stroke="#c0392b" stroke-width="2"/>']
        for f, _, _, _, _ in rows[::2]:
            svg.append(f'<text x="{x(f) - 10:.1f}" y="{H - B + 15}">{f:.1f}</text>')
        svg.append(f'<text x="{(W) / 2 - 40}" y="{H - 8}">budget / P</text>')
        for v in (lo, (lo + 1) / 2, 1.0):
            svg.append(f'<text x="8" y="{y(v, lo, 1.0) + 4:.1f}">{v:.2f}</text>')
        svg.append("</svg>")
        with open(args.svg, "w") as f:
            f.write("\n".join(svg) + "\n")
    return 0 if monotone else 1


if __name__ == "__main__":
    sys.exit(main())
