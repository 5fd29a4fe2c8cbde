#!/usr/bin/python3
"""Plot a bench/run-zipf.sh results file: disk pages read per read (the
miss ratio) against theta, one line per arm (median, with min-max bars
over the repeats) plus the bounds recorded by bench/bound.

usage: plot.py RESULTS OUT.png [ARMS] [TITLE]
ARMS: space-separated arm names, in legend order (default: as found).
Needs Debian's python3-matplotlib.  Plotting only: the numbers come from
the results file as written by run-zipf.sh.
"""
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

BOUNDS = (("static", "static top-C", ":", "s"), ("min", "MIN", "-.", "^"),
          ("minw", "MIN, warm start (floor)", "--", "v"))


def fields(line):
    return dict(f.split("=", 1) for f in line.split() if "=" in f)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    results, out = sys.argv[1], sys.argv[2]
    order = sys.argv[3].split() if len(sys.argv) > 3 else []
    title = sys.argv[4] if len(sys.argv) > 4 else "fio Zipf"
    miss, bound = {}, {}
    with open(results) as f:
        for line in f:
            if line.startswith("bound "):
                v = fields(line)
                bound[float(v["theta"])] = v
            elif line.startswith("arm="):
                v = fields(line)
                ratio = int(v["disk_pages"]) / int(v["reads"])
                miss.setdefault(v["arm"], {}).setdefault(float(v["theta"]), []).append(ratio)
    if not miss:
        sys.exit(f"plot.py: no results in {results}")
    arms = [a for a in order if a in miss] + [a for a in miss if a not in order]

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for arm in arms:
        thetas = sorted(miss[arm])
        med = [statistics.median(miss[arm][t]) for t in thetas]
        lo = [m - min(miss[arm][t]) for m, t in zip(med, thetas)]
        hi = [max(miss[arm][t]) - m for m, t in zip(med, thetas)]
        ax.errorbar(thetas, med, yerr=[lo, hi], marker="o", capsize=3, label=arm.upper())
    thetas = sorted(bound)
    for key, label, style, mark in BOUNDS:
        if thetas:
            ax.plot(thetas, [float(bound[t][key + "_miss_ratio"]) for t in thetas],
                    linestyle=style, marker=mark, fillstyle="none", color="black" if key == "minw" else "grey",
                    label=f"bound: {label}")
    ax.set_xlabel("Zipf θ")
    ax.set_ylabel("disk pages read per read (miss ratio)")
    ax.set_title(f"{title}: miss ratio vs θ (median, min–max bars)")
    ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(out, dpi=100)


if __name__ == "__main__":
    main()
