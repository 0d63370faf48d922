#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000;
  int x[1] = {0};
  for (long it = 0; it < n; ++it) {
#pragma omp target map(tofrom: x[0:1])
    { for (int i = 0; i < 4; ++i) x[0] += 1; }
  }
  printf("x = %d\n", x[0]);
  return x[0] != 4 * n;
}
