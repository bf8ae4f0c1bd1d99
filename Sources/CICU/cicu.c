#include "cicu.h"
#include <unicode/ubrk.h>
#include <unicode/unumsys.h>
#include <unicode/upluralrules.h>
#include <unicode/ustring.h>

int32_t cicu_line_breaks(
    const uint16_t *text, int32_t length, const char *locale, int32_t *breaks, int32_t capacity) {
  UErrorCode status = U_ZERO_ERROR;
  UBreakIterator *iterator = ubrk_open(UBRK_LINE, locale, (const UChar *)text, length, &status);
  if (U_FAILURE(status)) return -1;
  int32_t count = 0;
  for (int32_t p = ubrk_next(iterator); p != UBRK_DONE && count < capacity; p = ubrk_next(iterator)) {
    breaks[count++] = p;
  }
  ubrk_close(iterator);
  return count;
}

int32_t cicu_plural_category(const char *locale, double number, char *category, int32_t capacity) {
  UErrorCode status = U_ZERO_ERROR;
  UPluralRules *rules = uplrules_openForType(locale, UPLURAL_TYPE_CARDINAL, &status);
  if (U_FAILURE(status)) return -1;
  UChar keyword[16];
  int32_t length = uplrules_select(rules, number, keyword, 16, &status);
  uplrules_close(rules);
  if (U_FAILURE(status) || length >= capacity || length >= 16) return -1;
  u_UCharsToChars(keyword, category, length);
  category[length] = 0;
  return length;
}

int32_t cicu_is_decimal_numbering_system(const char *name) {
  UErrorCode status = U_ZERO_ERROR;
  UNumberingSystem *system = unumsys_openByName(name, &status);
  if (U_FAILURE(status) || system == NULL) return 0;
  int32_t decimal = !unumsys_isAlgorithmic(system) && unumsys_getRadix(system) == 10;
  unumsys_close(system);
  return decimal;
}
