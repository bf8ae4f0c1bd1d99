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
#include FT_MULTIPLE_MASTERS_H

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

/// A variable face's `wght` axis: with `set`, sets it to `weight` (clamped
/// to the axis's range) and the other axes to their defaults. Returns 0 when
/// the face has no weight axis (nothing is set), else 1, with the axis's
/// minimum and maximum in `range`.
static inline int cft_weight_axis(FT_Library library, FT_Face face, int set, double weight, double range[2]) {
  if (!FT_HAS_MULTIPLE_MASTERS(face)) return 0;
  FT_MM_Var *mm = NULL;
  if (FT_Get_MM_Var(face, &mm) != 0 || mm == NULL) return 0;
  int found = 0;
  FT_Fixed coords[64];
  FT_UInt count = mm->num_axis < 64 ? mm->num_axis : 64;
  for (FT_UInt i = 0; i < count; i++) {
    FT_Var_Axis axis = mm->axis[i];
    coords[i] = axis.def;
    if (axis.tag == FT_MAKE_TAG('w', 'g', 'h', 't')) {
      double low = axis.minimum / 65536.0, high = axis.maximum / 65536.0;
      double clamped = weight < low ? low : weight > high ? high : weight;
      coords[i] = (FT_Fixed)(clamped * 65536.0 + 0.5);
      range[0] = low;
      range[1] = high;
      found = 1;
    }
  }
  if (found && set) FT_Set_Var_Design_Coordinates(face, count, coords);
  FT_Done_MM_Var(library, mm);
  return found;
}

/// Colour bitmaps as they are stored (BGRA, premultiplied).
static inline FT_Int32 cft_color_load_flags(void) { return FT_LOAD_COLOR; }

/// Whether a bitmap is premultiplied BGRA (`FT_PIXEL_MODE_BGRA`).
static inline int cft_is_bgra(const FT_Bitmap *bitmap) { return bitmap->pixel_mode == FT_PIXEL_MODE_BGRA; }
#endif
