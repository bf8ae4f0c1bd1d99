"""pycairo peer of transvid-bench: the circle-spread and magic-move frames.

Same work as transvid's compositor:
- 1170×2532 ARGB32 target reused across runs; the opaque screens are RGB24
  surfaces (cairo's way of knowing a source is opaque, as transvid's
  `Bitmap.isKnownOpaque`), so painting them is a copy.
- circle: the old screen painted, the new one filled through an
  anti-aliased circle (cairo's default antialiasing: exact-area coverage).
- magic: the old screen, the new one at the to-screen opacity
  (`paint_with_alpha`), the flying snapshot's shadow — a rectangle blurred
  by a Gaussian of σ = 15 px (shadowRadius 5 pt × 3), computed exactly as
  the product of two erf profiles in numpy (cairo has no blur; this is the
  same analytic method transvid uses for box shadows), drawn as an A8 mask
  of 0.4 black — then the 216×216 cell image scaled into its fractional
  frame with FILTER_BILINEAR and EXTEND_PAD, edges anti-aliased.
Usage: cairo_frames.py OUT_DIR [RUNS]
"""
import math
import os
import sys

import cairo
import numpy as np

from common import box_profile, load, median_ms, runs_from_argv, write_json

out_dir = sys.argv[1]
runs = runs_from_argv()
params, images = load(out_dir)
W, H = params["width"], params["height"]


keep = []  # numpy buffers behind the surfaces


def surface_from_rgba(rgba, fmt):
    """RGBA bytes → a cairo surface (native-endian BGRA words; premultiplied)."""
    h, w, _ = rgba.shape
    stride = cairo.ImageSurface.format_stride_for_width(fmt, w)
    buf = np.zeros((h, stride // 4, 4), dtype=np.uint8)
    buf[:, :w, 0] = rgba[:, :, 2]
    buf[:, :w, 1] = rgba[:, :, 1]
    buf[:, :w, 2] = rgba[:, :, 0]
    buf[:, :w, 3] = rgba[:, :, 3]
    keep.append(buf)
    return cairo.ImageSurface.create_for_data(memoryview(buf), fmt, w, h, stride)


src_from = surface_from_rgba(images["from"], cairo.FORMAT_RGB24)
src_to = surface_from_rgba(images["to"], cairo.FORMAT_RGB24)
src_cell = surface_from_rgba(images["cell"], cairo.FORMAT_RGB24)
target = cairo.ImageSurface(cairo.FORMAT_ARGB32, W, H)


def circle():
    p = params["circle"]
    cr = cairo.Context(target)
    cr.set_source_surface(src_from, 0, 0)
    cr.paint()
    cr.set_source_surface(src_to, 0, 0)
    cr.arc(p["cx"], p["cy"], p["r"], 0, 2 * math.pi)
    cr.fill()
    target.flush()


def magic():
    p = params["magic"]
    cr = cairo.Context(target)
    cr.set_source_surface(src_from, 0, 0)
    cr.paint()
    cr.set_source_surface(src_to, 0, 0)
    cr.paint_with_alpha(p["to_opacity"])
    # The shadow: the snapshot's (opaque, rectangular) alpha blurred, ±3σ.
    x, y, w, h, sigma = p["x"], p["y"], p["w"], p["h"], p["shadow_sigma"]
    reach = math.ceil(3 * sigma)
    x0, y0 = math.floor(x) - reach, math.floor(y) - reach
    mw, mh = math.ceil(x + w) + reach - x0, math.ceil(y + h) + reach - y0
    fx = box_profile(x, x + w, sigma, x0, mw)
    fy = box_profile(y, y + h, sigma, y0, mh)
    stride = cairo.ImageSurface.format_stride_for_width(cairo.FORMAT_A8, mw)
    m = np.zeros((mh, stride), dtype=np.uint8)
    m[:, :mw] = (np.outer(fy, fx) * 255 + 0.5).astype(np.uint8)
    mask = cairo.ImageSurface.create_for_data(memoryview(m), cairo.FORMAT_A8, mw, mh, stride)
    cr.set_source_rgba(0, 0, 0, p["shadow_opacity"])
    cr.mask_surface(mask, x0, y0)
    # The snapshot, scaled bilinearly into its frame.
    cw, ch = params["cell_size"]
    pattern = cairo.SurfacePattern(src_cell)
    pattern.set_filter(cairo.FILTER_BILINEAR)
    pattern.set_extend(cairo.EXTEND_PAD)
    mat = cairo.Matrix(w / cw, 0, 0, h / ch, x, y)
    mat.invert()
    pattern.set_matrix(mat)
    cr.set_source(pattern)
    cr.rectangle(x, y, w, h)
    cr.fill()
    target.flush()


def rgba_of(surface):
    a = np.ndarray((H, surface.get_stride() // 4, 4), dtype=np.uint8, buffer=surface.get_data())[:, :W]
    return np.ascontiguousarray(a[:, :, [2, 1, 0, 3]])


results = {}
for name, body in [("circle", circle), ("magic", magic)]:
    ms = median_ms(runs, body)
    results[f"ms.cairo_{name}"] = ms
    results[f"ms.cairo_{name}_cpu"] = median_ms(runs, body, cpu=True)
    body()
    rgba_of(target).tofile(os.path.join(out_dir, f"cairo_{name}.rgba"))
    print(f"cairo {name}: {ms} ms, {results[f'ms.cairo_{name}_cpu']} ms CPU")
write_json(os.path.join(out_dir, "cairo.json"), results)
