"""skia-python peer of transvid-bench: the page-flip frame.

Same work as transvid's compositor: a 1170×2532 RGBA8 premultiplied raster
surface reused across runs; the new screen (an opaque image) drawn 1:1, a
full-screen black rect at the under-overlay alpha; then, through the page's
3×3 homography (image pixels → device pixels, from frames.json), the old
screen drawn with bilinear sampling (`SamplingOptions(FilterMode.kLinear)`,
no mipmaps) and anti-aliased edges, and the page's black overlay rect at
its alpha through the same matrix. Timed to the end of the draws
(`flushAndSubmit`; the raster backend draws immediately).
Usage: skia_pageflip.py OUT_DIR [RUNS]
"""
import os
import sys

import numpy as np
import skia

from common import load, median_ms, runs_from_argv, write_json

out_dir = sys.argv[1]
runs = runs_from_argv()
params, images = load(out_dir)
W, H = params["width"], params["height"]
p = params["pageflip"]

info = skia.ImageInfo.Make(W, H, skia.kRGBA_8888_ColorType, skia.kPremul_AlphaType)
surface = skia.Surface.MakeRaster(info)
canvas = surface.getCanvas()
img_from = skia.Image.fromarray(images["from"], colorType=skia.kRGBA_8888_ColorType, alphaType=skia.kOpaque_AlphaType)
img_to = skia.Image.fromarray(images["to"], colorType=skia.kRGBA_8888_ColorType, alphaType=skia.kOpaque_AlphaType)

# transvid's Homography is row-vector ([x y 1]·M): X = m11 x + m21 y + m31, …
m = p["map"]
matrix = skia.Matrix.MakeAll(m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8])
sampling = skia.SamplingOptions(skia.FilterMode.kLinear, skia.MipmapMode.kNone)
page_paint = skia.Paint(AntiAlias=True)
under_overlay = skia.Paint(Color=skia.Color4f(0, 0, 0, p["under_overlay"]).toColor(), AntiAlias=True)
page_overlay = skia.Paint(Color=skia.Color4f(0, 0, 0, p["page_overlay"]).toColor(), AntiAlias=True)
full = skia.Rect.MakeWH(W, H)


def pageflip():
    canvas.drawImage(img_to, 0, 0)
    canvas.drawRect(full, under_overlay)
    canvas.save()
    canvas.concat(matrix)
    canvas.drawImageRect(img_from, full, full, sampling, page_paint)
    canvas.drawRect(full, page_overlay)
    canvas.restore()
    surface.flushAndSubmit()


ms = median_ms(runs, pageflip)
cpu = median_ms(runs, pageflip, cpu=True)
pageflip()
out = np.zeros((H, W, 4), dtype=np.uint8)
surface.readPixels(info, out)
out.tofile(os.path.join(out_dir, "skia_pageflip.rgba"))
print(f"skia pageflip: {ms} ms, {cpu} ms CPU")
write_json(os.path.join(out_dir, "skia.json"), {"ms.skia_pageflip": ms, "ms.skia_pageflip_cpu": cpu})
