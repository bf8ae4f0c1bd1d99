// ICU's break iterator, for Raster's text: line-break opportunities by
// UAX #14 with ICU's tailorings — no break between an ideograph and a
// closing 。, breaks between ideographs and kana, and dictionary breaks for
// Thai, Lao, Khmer and Burmese, which write words without spaces.
//
// ICU's C functions carry its version in their names (`ubrk_open_72`)
// through macros Swift cannot import, so the calls are made here.
#ifndef TRANSVID_CICU_SHIM_H
#define TRANSVID_CICU_SHIM_H
#include <unicode/ubrk.h>

/// The offsets (UTF-16 units) where a line of `text` may end, ascending,
/// the last being `length`; `locale` is an ICU locale ID ("ja", "" for the
/// root rules). Returns how many were written to `breaks` (at most
/// `capacity`), or -1 when ICU cannot open its line rules.
static inline int32_t cicu_line_breaks(
    const UChar *text, int32_t length, const char *locale, int32_t *breaks, int32_t capacity) {
  UErrorCode status = U_ZERO_ERROR;
  UBreakIterator *iterator = ubrk_open(UBRK_LINE, locale, text, length, &status);
  if (U_FAILURE(status)) return -1;
  int32_t count = 0;
  for (int32_t p = ubrk_next(iterator); p != UBRK_DONE && count < capacity; p = ubrk_next(iterator)) {
    breaks[count++] = p;
  }
  ubrk_close(iterator);
  return count;
}
#endif
