// ICU's break iterator, for Raster's text: line-break opportunities by
// UAX #14 with ICU's tailorings — no break between an ideograph and a
// closing 。, breaks between ideographs and kana, and dictionary breaks for
// Thai, Lao, Khmer and Burmese, which write words without spaces. And
// ICU's plural rules, for Jobs' String Catalogs: CLDR's category of a
// number in a language (`one`, `few`, …); and its numbering systems, for a
// locale's `-u-nu-` digits.
//
// This header names no ICU type: Foundation carries its own copy of ICU's
// headers (_FoundationICU), and a Swift module that saw both would have
// two definitions of `UErrorCode` and fail to build. So ICU is included
// only by cicu.c, and its C functions (whose names carry ICU's version,
// `ubrk_open_72`, through macros Swift cannot import) are called there.
#ifndef TRANSVID_CICU_H
#define TRANSVID_CICU_H
#include <stdint.h>

/// The offsets (UTF-16 units) where a line of `text` may end, ascending,
/// the last being `length`; `locale` is an ICU locale ID ("ja", "" for the
/// root rules). Returns how many were written to `breaks` (at most
/// `capacity`), or -1 when ICU cannot open its line rules.
int32_t cicu_line_breaks(
    const uint16_t *text, int32_t length, const char *locale, int32_t *breaks, int32_t capacity);

/// CLDR's plural category of `number` in `locale` (an ICU locale ID: "ru",
/// "ar", "pt_PT"), as "zero", "one", "two", "few", "many" or "other", written
/// NUL-terminated to `category` (at least 8 bytes). Returns its length, or
/// -1 when ICU has no cardinal rules for it.
int32_t cicu_plural_category(const char *locale, double number, char *category, int32_t capacity);

/// Whether ICU has a numbering system `name` (CLDR's: "latn", "arab",
/// "deva") of ten digits, as `-u-nu-` names one: 1 for one, 0 for an
/// algorithmic one ("roman", "hans") or none of that name.
int32_t cicu_is_decimal_numbering_system(const char *name);
#endif
