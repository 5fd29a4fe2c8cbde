#!/usr/bin/python3
"""Plot a bench/run-zipf.sh results file: disk pages read per read (the
miss ratio) against theta, or against data : memcg when the run has one
theta and several memcg sizes (the sweep); one line per arm (median, with
min-max bars over the repeats) plus the bounds recorded by bench/bound.

usage: plot.py RESULTS OUT.png [ARMS] [TITLE] [DATA_MB] [BOUNDS]
ARMS: space-separated arm names, in legend order (default: as found).
DATA_MB: the data size, for the data : memcg axis.  BOUNDS: 0 leaves the
bounds out (mmap with read-around, where they do not apply).
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


def point(v):
    """(theta, memcg MiB) of a results line; older lines have no memcg."""
    return float(v["theta"]), float(v.get("memcg", "0"))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    results, out = sys.argv[1], sys.argv[2]
    order = sys.argv[3].split() if len(sys.argv) > 3 else []
    title = sys.argv[4] if len(sys.argv) > 4 else "fio Zipf"
    data_mb = float(sys.argv[5]) if len(sys.argv) > 5 else None
    show_bounds = sys.argv[6] != "0" if len(sys.argv) > 6 else True
    miss, bound = {}, {}
    with open(results) as f:
        for line in f:
            if line.startswith("bound "):
                # one per repeat's streams: plot their median
                v = fields(line)
                bound.setdefault(point(v), []).append(v)
            elif line.startswith("arm="):
                v = fields(line)
                ratio = int(v["disk_pages"]) / int(v["reads"])
                miss.setdefault(v["arm"], {}).setdefault(point(v), []).append(ratio)
    if not miss:
        sys.exit(f"plot.py: no results in {results}")
    arms = [a for a in order if a in miss] + [a for a in miss if a not in order]
    points = sorted({p for arm in miss for p in miss[arm]})
    thetas = sorted({t for t, _ in points})
    memcgs = sorted({m for _, m in points})
    # The sweep: one theta, several memcg sizes -> x is data : memcg.
    sweep = len(thetas) == 1 and len(memcgs) > 1 and data_mb
    if sweep:
        def x_of(p):
            return data_mb / p[1]
        lines = [(thetas[0], None)]
        xlabel = f"data : memcg (θ = {thetas[0]}, {data_mb:g} MiB of data)"
    else:
        def x_of(p):
            return p[0]
        lines = [(None, m) for m in memcgs]
        xlabel = "Zipf θ"

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for theta, memcg in lines:
        def on_line(p):
            return (theta is None or p[0] == theta) and (memcg is None or p[1] == memcg)
        suffix = f" ({memcg:g} MiB)" if memcg is not None and len(memcgs) > 1 else ""
        for arm in arms:
            pts = sorted((p for p in miss[arm] if on_line(p)), key=x_of)
            med = [statistics.median(miss[arm][p]) for p in pts]
            lo = [m - min(miss[arm][p]) for m, p in zip(med, pts)]
            hi = [max(miss[arm][p]) - m for m, p in zip(med, pts)]
            ax.errorbar([x_of(p) for p in pts], med, yerr=[lo, hi], marker="o", capsize=3,
                        label=arm.upper() + suffix)
        bpts = sorted((p for p in bound if on_line(p)), key=x_of) if show_bounds else []
        for key, label, style, mark in BOUNDS:
            if bpts:
                ax.plot([x_of(p) for p in bpts], [statistics.median(float(b[key + "_miss_ratio"]) for b in bound[p]) for p in bpts],
                        linestyle=style, marker=mark, fillstyle="none",
                        color="black" if key == "minw" else "grey", label=f"bound: {label}{suffix}")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("disk pages read per read (miss ratio)")
    what = "data : memcg" if sweep else "θ"
    ax.set_title(f"{title}: miss ratio vs {what} (median, min–max bars)")
    ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(out, dpi=100)


if __name__ == "__main__":
    main()
