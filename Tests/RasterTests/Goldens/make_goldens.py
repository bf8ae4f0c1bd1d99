#!/usr/bin/env python3
"""Independent goldens for RasterTests/GoldenTests.swift, drawn by skia-python
(perspective, shadow blurs, gradient) and pycairo (circle mask) — renderers
that share no code with transvid's Raster.

Each scene is described here from its CALayer parameters and turned into
device geometry with CATransform3D's conventions written out again in numpy
(row vectors; layer → superlayer = T(−anchor)·transform·T(position), the
superlayer's sublayerTransform about its anchor), so the goldens check the
geometry too. Output: `<name>.rgba` = b"TVG1", width, height (little-endian
u32), then width·height premultiplied RGBA8 bytes (Raster has no PNG decoder).

Shadows: Core Animation's shadowRadius is the Gaussian's standard deviation
in points (UIKIT.md §3), so σ = shadowRadius × scale device pixels; skia's
`MaskFilter.MakeBlur(kNormal, σ)` takes that σ directly.

Run from anywhere: `python3 Tests/RasterTests/Goldens/make_goldens.py`
(needs `pip install skia-python pycairo numpy`).
"""
import math
import os
import struct

import cairo
import numpy as np
import skia

HERE = os.path.dirname(os.path.abspath(__file__))
W = H = 200


def save(name, rgba):
    assert rgba.shape == (H, W, 4) and rgba.dtype == np.uint8
    with open(os.path.join(HERE, name + ".rgba"), "wb") as f:
        f.write(b"TVG1" + struct.pack("<II", W, H) + rgba.tobytes())


def surface():
    info = skia.ImageInfo.Make(W, H, skia.kRGBA_8888_ColorType, skia.kPremul_AlphaType)
    return skia.Surface.MakeRaster(info), info


def pixels(s, info):
    out = np.zeros((H, W, 4), dtype=np.uint8)
    s.readPixels(info, out)
    return out


def color(r, g, b, a=1.0):
    return skia.Color4f(r, g, b, a).toColor()


def checker(w, h):
    """The test image (same formula as GoldenTests.checker): 10-px checks
    of two colours, green ramping with x, opaque."""
    y, x = np.mgrid[0:h, 0:w]
    on = ((x // 10) + (y // 10)) % 2 == 1
    img = np.zeros((h, w, 4), dtype=np.uint8)
    img[..., 0] = np.where(on, 230, 40)
    img[..., 1] = (x * 255 // (w - 1)).astype(np.uint8)
    img[..., 2] = np.where(on, 60, 200)
    img[..., 3] = 255
    return img


# CATransform3D helpers (row-vector convention, as CA and transvid's Geometry).
def translation(x, y, z=0.0):
    t = np.eye(4)
    t[3, :3] = [x, y, z]
    return t


def rotation_y(a):
    t = np.eye(4)
    c, s = math.cos(a), math.sin(a)
    t[0, 0], t[0, 2], t[2, 0], t[2, 2] = c, -s, s, c
    return t


def flatten(t):
    """The z = 0 plane's homography (rows/columns 1, 2, 4)."""
    return t[np.ix_([0, 1, 3], [0, 1, 3])]


def skia_matrix(h):
    """Row-vector 3×3 → skia's column-vector Matrix."""
    return skia.Matrix.MakeAll(h[0, 0], h[1, 0], h[2, 0], h[0, 1], h[1, 1], h[2, 1], h[0, 2], h[1, 2], h[2, 2])


def perspective():
    """A 160×120 pt layer showing the checker image (160×120 px), anchor
    (0, 0.5) at (20, 100), rotated −50° about y under a 200×200 container
    whose sublayerTransform.m34 = −1/300; grey opaque background; @1x."""
    s, info = surface()
    c = s.getCanvas()
    c.clear(color(0.9, 0.9, 0.92))
    bw, bh = 160.0, 120.0
    layer = translation(-0.0 * bw, -0.5 * bh) @ rotation_y(math.radians(-50)) @ translation(20, 100)
    persp = np.eye(4)
    persp[2, 3] = -1.0 / 300
    m = layer @ translation(-100, -100) @ persp @ translation(100, 100)
    img = skia.Image.fromarray(checker(160, 120), colorType=skia.kRGBA_8888_ColorType, alphaType=skia.kOpaque_AlphaType)
    c.save()
    c.concat(skia_matrix(flatten(m)))
    c.drawImageRect(img, skia.Rect.MakeWH(160, 120), skia.Rect.MakeWH(bw, bh),
                    skia.SamplingOptions(skia.FilterMode.kLinear), skia.Paint(AntiAlias=True),
                    skia.Canvas.kStrict_SrcRectConstraint)
    c.restore()
    save("perspective", pixels(s, info))


def circle_mask():
    """pycairo: an opaque blue-grey background, then an orange layer masked
    by a circle of radius 61.7 at (97.3, 104.6); cairo's default AA."""
    surf = cairo.ImageSurface(cairo.FORMAT_ARGB32, W, H)
    cr = cairo.Context(surf)
    cr.set_source_rgb(60 / 255, 80 / 255, 100 / 255)
    cr.paint()
    cr.set_source_rgb(240 / 255, 150 / 255, 40 / 255)
    cr.arc(97.3, 104.6, 61.7, 0, 2 * math.pi)
    cr.fill()
    surf.flush()
    a = np.ndarray((H, surf.get_stride() // 4, 4), dtype=np.uint8, buffer=surf.get_data())[:, :W]
    save("circle_mask", np.ascontiguousarray(a[:, :, [2, 1, 0, 3]]))


def shadow_rounded_rect():
    """A 90×70 pt blue layer at (50, 60), cornerRadius 14, shadowOpacity 0.8,
    shadowRadius 6 (σ = 6 px at @1x), shadowOffset (4, 7), black, on white."""
    s, info = surface()
    c = s.getCanvas()
    c.clear(skia.ColorWHITE)
    rr = skia.RRect.MakeRectXY(skia.Rect.MakeXYWH(50, 60, 90, 70), 14, 14)
    shadow = skia.Paint(AntiAlias=True, Color=color(0, 0, 0, 0.8),
                        MaskFilter=skia.MaskFilter.MakeBlur(skia.kNormal_BlurStyle, 6.0))
    c.save()
    c.translate(4, 7)
    c.drawRRect(rr, shadow)
    c.restore()
    c.drawRRect(rr, skia.Paint(AntiAlias=True, Color=color(0.2, 0.4, 0.9)))
    save("shadow_rounded_rect", pixels(s, info))


def shadow_oval():
    """A shape layer filling an oval (ovalIn 30, 40, 120, 90 in a 200×200
    layer), green, with shadowOpacity 1, shadowRadius 5 (σ = 5 px),
    shadowOffset (−6, 5) — the general (rendered alpha) shadow path — on
    light grey."""
    s, info = surface()
    c = s.getCanvas()
    c.clear(color(0.93, 0.93, 0.93))
    oval = skia.Rect.MakeXYWH(30, 40, 120, 90)
    shadow = skia.Paint(AntiAlias=True, Color=skia.ColorBLACK,
                        MaskFilter=skia.MaskFilter.MakeBlur(skia.kNormal_BlurStyle, 5.0))
    c.save()
    c.translate(-6, 5)
    c.drawOval(oval, shadow)
    c.restore()
    c.drawOval(oval, skia.Paint(AntiAlias=True, Color=color(0.1, 0.7, 0.3)))
    save("shadow_oval", pixels(s, info))


def gradient():
    """A full 200×200 CAGradientLayer: colours red, blue, yellow at locations
    0, 0.3, 1, startPoint (0.1, 0.2), endPoint (0.9, 0.7) (unit coordinates)."""
    s, info = surface()
    c = s.getCanvas()
    p0, p1 = skia.Point(0.1 * W, 0.2 * H), skia.Point(0.9 * W, 0.7 * H)
    shader = skia.GradientShader.MakeLinear(
        [p0, p1], [skia.ColorRED, skia.ColorBLUE, skia.ColorYELLOW], [0.0, 0.3, 1.0])
    c.drawRect(skia.Rect.MakeWH(W, H), skia.Paint(Shader=shader))
    save("gradient", pixels(s, info))


if __name__ == "__main__":
    perspective()
    circle_mask()
    shadow_rounded_rect()
    shadow_oval()
    gradient()
    print("wrote", sorted(f for f in os.listdir(HERE) if f.endswith(".rgba")))
