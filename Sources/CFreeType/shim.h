// FreeType 2, for Raster's text: faces from memory, outlines, the
// anti-aliased grayscale rasterizer.
//
// The load flags and face-flag tests are macros Swift cannot import, so they
// are restated here as inline functions.
#ifndef TRANSVID_CFREETYPE_SHIM_H
#define TRANSVID_CFREETYPE_SHIM_H
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
#include FT_ADVANCES_H

/// Outlines only, no hinting, no embedded bitmaps: the same coverage on every
/// machine and every run, whatever the font's bytecode or the build's hinter.
static inline FT_Int32 cft_load_flags(void) {
  return FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP | FT_LOAD_NO_AUTOHINT | FT_LOAD_TARGET_NORMAL;
}

/// Whether the face has a legacy `kern` table (`FT_HAS_KERNING`).
static inline int cft_has_kerning(FT_Face face) { return FT_HAS_KERNING(face) ? 1 : 0; }

/// Whether the glyph slot holds an outline (`FT_GLYPH_FORMAT_OUTLINE`).
static inline int cft_is_outline(FT_GlyphSlot slot) { return slot->format == FT_GLYPH_FORMAT_OUTLINE; }
/// A face whose glyphs are colour bitmaps only (CBDT/sbix, as Noto Color
/// Emoji): no outlines, fixed strikes, colour.
static inline int cft_is_color_bitmap_face(FT_Face face) {
  return FT_HAS_COLOR(face) && FT_HAS_FIXED_SIZES(face) && !FT_IS_SCALABLE(face);
}

/// Colour bitmaps as they are stored (BGRA, premultiplied).
static inline FT_Int32 cft_color_load_flags(void) { return FT_LOAD_COLOR; }

/// Whether a bitmap is premultiplied BGRA (`FT_PIXEL_MODE_BGRA`).
static inline int cft_is_bgra(const FT_Bitmap *bitmap) { return bitmap->pixel_mode == FT_PIXEL_MODE_BGRA; }
#endif
