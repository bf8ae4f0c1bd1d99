// GNU FriBidi, for Raster's text: the Unicode Bidirectional Algorithm
// (UAX #9) — embedding levels of a paragraph and its base direction.
//
// The paragraph-direction constants are macros built from other macros,
// which Swift cannot import, so they are restated as inline functions.
#ifndef TRANSVID_CFRIBIDI_SHIM_H
#define TRANSVID_CFRIBIDI_SHIM_H
#include <fribidi.h>

/// The base direction from the first strong character (rules P2, P3).
static inline FriBidiParType cfb_par_auto(void) { return FRIBIDI_PAR_ON; }
static inline FriBidiParType cfb_par_ltr(void) { return FRIBIDI_PAR_LTR; }
static inline FriBidiParType cfb_par_rtl(void) { return FRIBIDI_PAR_RTL; }
/// No reordering of marks, no shaping, no removal: HarfBuzz shapes the runs.
static inline FriBidiFlags cfb_reorder_flags(void) { return 0; }
/// Whether a resolved paragraph direction is right-to-left.
static inline int cfb_par_is_rtl(FriBidiParType t) { return FRIBIDI_IS_RTL(t) ? 1 : 0; }
#endif
