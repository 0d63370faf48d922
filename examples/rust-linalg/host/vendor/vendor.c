/* A stand-in for a vendor library (cuBLAS, rocBLAS): routines that take
 * DEVICE pointers. On libomptarget's host plugin device memory is a separate
 * host allocation, so plain C can read and write it; the host's own arrays
 * are never touched here. */
#include <stddef.h>

/* y = alpha * x + y on n device floats. */
void vendor_saxpy(size_t n, float alpha, const float *x, float *y) {
  for (size_t i = 0; i < n; i++)
    y[i] = alpha * x[i] + y[i];
}

/* The sum of n device floats. */
float vendor_sum(size_t n, const float *x) {
  float s = 0.0f;
  for (size_t i = 0; i < n; i++)
    s += x[i];
  return s;
}
