// Fontconfig, for Rendering's FontLibrary: a family name ("Noto Sans
// Arabic", "Inter") to the file and face index the system has for it.
//
// The property names are string macros, restated as inline functions.
#ifndef TRANSVID_CFONTCONFIG_SHIM_H
#define TRANSVID_CFONTCONFIG_SHIM_H
#include <fontconfig/fontconfig.h>

static inline const char *cfc_family(void) { return FC_FAMILY; }
static inline const char *cfc_file(void) { return FC_FILE; }
static inline const char *cfc_index(void) { return FC_INDEX; }
static inline const char *cfc_weight(void) { return FC_WEIGHT; }
/// Fontconfig's weight for an OpenType one (400 regular, 700 bold).
static inline int cfc_weight_of(int opentype) { return (int)FcWeightFromOpenTypeDouble((double)opentype); }
#endif
