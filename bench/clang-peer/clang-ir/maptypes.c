/* Map types clang-22 puts in __tgt_kernel_arguments for common arguments. */
struct S { int a; double b; };
void k(int *in, int *out, int *io, long n, double d, struct S s) {
#pragma omp target map(to: in[0:n]) map(from: out[0:n]) map(tofrom: io[0:4])
  for (long i = 0; i < n; ++i) out[i] = in[i] + io[i % 4] + (int)d + s.a;
}
