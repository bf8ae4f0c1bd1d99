#include <libimagequant.h>
#include <dlfcn.h>

#ifndef RTLD_DEFAULT
#define RTLD_DEFAULT ((void *)0)
#endif

/// Sets the OpenMP threads libimagequant's parallel loops use on the calling
/// thread and returns the count before, or 0 when libimagequant was built
/// without OpenMP (then there is nothing to set). Looked up at run time:
/// libgomp is libimagequant's dependency, not transvid's.
///
/// One thread for the GIF's palette: its output is the same for any count
/// (libimagequant's k-means sums per thread are combined in order), and on
/// two cores shared with the compositor the second thread mostly spins at
/// the barriers (liq_histogram_quantize 0.44 s with two, 0.18 s with one).
static inline int cimagequant_set_openmp_threads(int count) {
  int (*get)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "omp_get_max_threads");
  void (*set)(int) = (void (*)(int))dlsym(RTLD_DEFAULT, "omp_set_num_threads");
  if (!get || !set) return 0;
  int before = get();
  set(count);
  return before;
}
