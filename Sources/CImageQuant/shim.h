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
/// The palette depends on the count: each k-means iteration sums the
/// histogram in one part per thread (`schedule(static)`), its colour sums
/// combined in thread order and its error by OpenMP's `reduction(+)` in
/// the order the threads finish. With two threads that order cannot change
/// the sum (a + b is b + a); with three or more it can. So the count is
/// fixed (`PaletteQuantizer.threads`), never the machine's.
static inline int cimagequant_set_openmp_threads(int count) {
  int (*get)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "omp_get_max_threads");
  void (*set)(int) = (void (*)(int))dlsym(RTLD_DEFAULT, "omp_set_num_threads");
  if (!get || !set) return 0;
  int before = get();
  set(count);
  return before;
}
