// A software prefetch hint, which Swift has no spelling for. Header only:
// the function is inlined into the Swift caller (no library to link).
#ifndef TRANSVID_PREFETCH_H
#define TRANSVID_PREFETCH_H

/// Asks the CPU to bring the cache line holding `p` into all cache levels
/// for reading. A hint only: never faults, even for an invalid address.
static inline __attribute__((always_inline)) void tv_prefetch(const void *p) {
  __builtin_prefetch(p, 0, 3);
}

#endif
