"""Merges the compositor bench's timings (swift.json, cairo.json, skia.json
under OUT_DIR) into BENCH_JSON (one flat object of numbers, read-modify-
write: other bench sections keep their keys), adds the ratios, prints a
table, and checks the peers drew the same frames (PSNR of transvid's frame
against the peer's).
Usage: report.py OUT_DIR BENCH_JSON [ROUND_DIR …]
With round directories (each holding one round's swift.json, cairo.json and
skia.json), every figure is the median over the rounds — each ratio the
median of the rounds' own ratios (a round pairs runs seconds apart).
"""
import json
import math
import os
import sys

import numpy as np

out_dir, bench_json = sys.argv[1], sys.argv[2]
round_dirs = sys.argv[3:] or [out_dir]
GOALS = {
    "ratio.circle_vs_floor": 1.5,
    "ratio.circle_vs_cairo": 0.6,
    "ratio.magic_vs_cairo": 0.3,
    "ratio.pageflip_vs_skia": 0.1,
}


def load_round(directory):
    """One round's figures and ratios."""
    values = {}
    for name in ["swift.json", "cairo.json", "skia.json"]:
        path = os.path.join(directory, name)
        if os.path.exists(path):
            with open(path) as f:
                values.update(json.load(f))

    def ratio(a, b):
        if a in values and b in values and values[b] > 0:
            return values[a] / values[b]
        return None

    ratios = {
        # Paired in the Swift bench when it measured it (median of per-pair ratios).
        "ratio.circle_vs_floor": values.get("ratio.circle_vs_floor") or ratio("ms.circle", "ms.floor"),
        "ratio.circle_vs_cairo": ratio("ms.circle", "ms.cairo_circle"),
        "ratio.magic_vs_cairo": ratio("ms.magic", "ms.cairo_magic"),
        "ratio.pageflip_vs_skia": ratio("ms.pageflip", "ms.skia_pageflip"),
        # On a loaded machine: single-thread CPU time against the peers' (informational).
        "ratio.unindexed.magic_vs_cairo": ratio("ms.magic_unindexed", "ms.cairo_magic"),
        "ratio.unindexed.pageflip_vs_skia": ratio("ms.pageflip_unindexed", "ms.skia_pageflip"),
        "ratio.cpu_1t.circle_vs_cairo": ratio("ms.circle_1t_cpu", "ms.cairo_circle_cpu"),
        "ratio.cpu_1t.magic_vs_cairo": ratio("ms.magic_1t_cpu", "ms.cairo_magic_cpu"),
        "ratio.cpu_1t.pageflip_vs_skia": ratio("ms.pageflip_1t_cpu", "ms.skia_pageflip_cpu"),
    }
    values.update({k: v for k, v in ratios.items() if v is not None})
    return values


rounds = [load_round(d) for d in round_dirs]
values = {}
for k in sorted(set().union(*rounds)):
    xs = [r[k] for r in rounds if k in r]
    values[k] = float(np.median(xs))
if len(rounds) > 1:
    for k in GOALS:
        xs = [r[k] for r in rounds if k in r]
        if xs:
            print(f"  {k} by round: " + ", ".join(f"{x:.3f}" for x in xs))


def psnr(a, b):
    if not (os.path.exists(a) and os.path.exists(b)):
        return None
    x = np.fromfile(a, dtype=np.uint8).astype(np.float64)
    y = np.fromfile(b, dtype=np.uint8).astype(np.float64)
    if x.shape != y.shape:
        return None
    mse = np.mean((x - y) ** 2)
    return math.inf if mse == 0 else 10 * math.log10(255 * 255 / mse)


print(f"compositor (1170×2532, median ms per frame, median of {len(rounds)} round(s))")
for k in sorted(values):
    if k.startswith("ms."):
        print(f"  {k:24s} {values[k]:9.2f}")
for k, goal in GOALS.items():
    if k in values:
        v = values[k]
        print(f"  {k:24s} {v:9.3f}   goal ≤ {goal}  {'ok' if v <= goal else 'MISSED'}")
for k in sorted(values):
    if k.startswith("ratio.cpu_1t."):
        print(f"  {k:32s} {values[k]:9.3f}   (one thread each, CPU time)")
    if k.startswith("ratio.unindexed."):
        print(f"  {k:32s} {values[k]:9.3f}   (no flat-stretch index: screens without flat colour)")
for frame, peer in [("circle", "cairo_circle"), ("magic", "cairo_magic"), ("pageflip", "skia_pageflip")]:
    p = psnr(os.path.join(out_dir, f"swift_{frame}.rgba"), os.path.join(out_dir, f"{peer}.rgba"))
    if p is not None:
        print(f"  same frame? PSNR transvid {frame} vs {peer}: {p:.1f} dB")

merged = {}
if os.path.exists(bench_json):
    try:
        with open(bench_json) as f:
            merged = json.load(f)
    except (ValueError, OSError):
        merged = {}
merged.update({k: float(v) for k, v in values.items()})
os.makedirs(os.path.dirname(os.path.abspath(bench_json)), exist_ok=True)
with open(bench_json, "w") as f:
    json.dump(merged, f, indent=1, sort_keys=True)
    f.write("\n")
print(f"wrote {bench_json}")
