// HarfBuzz, for Raster's text: OpenType shaping (GSUB, GPOS, the script
// shapers for Arabic, Indic, Thai …) of one run of text with one face.
// Faces are made from the same bytes FreeType reads; HarfBuzz's own
// OpenType functions read metrics, so no FreeType object is shared.
#ifndef TRANSVID_CHARFBUZZ_SHIM_H
#define TRANSVID_CHARFBUZZ_SHIM_H
#include <hb.h>
#include <hb-ot.h>
#endif
