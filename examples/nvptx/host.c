// The host program for the kernels of kernels.ll / kernels.cu / kernels.rs,
// in C, following offload-host's launch contract: each kernel is an extern
// function the program calls; a launch descriptor (`__offload_launch.K`,
// named with an asm label) gives the grid and what the IR cannot say (which
// pointer is read or written, and how much). offload-host turns the calls
// into libomptarget launches of the kernels in the image it embeds:
//   clang-22 -O1 -emit-llvm -c host.c -o host.bc
//   opt-22 -load-pass-plugin=liboffload_passes.so '-passes=offload-host<image=k.cubin;arch=sm_90>' host.bc -o host.offload.bc
//   clang-22 host.offload.bc -o host -L$(llvm-config-22 --libdir) -lomptarget -Wl,-rpath,$(llvm-config-22 --libdir)
// Run it on an NVIDIA GPU with OMP_TARGET_OFFLOAD=MANDATORY (scripts/gpu-check.sh).
// It prints one line per kernel with the numbers it checked, "PASS" or
// "FAIL", then "all: PASS" (exit 0) or "all: FAIL" (exit 1).
//
// The CUDA plugin runs these kernels (no OpenMP kernel environment) in
// "bare" mode: the grid is exactly the descriptor's teams x threads, so both
// are given (0 there would mean an empty launch).
#include <stdio.h>
#include <string.h>

typedef struct {
  double x, v, mass;
} Particle;

void saxpy(float a, const float *x, float *y, int n);
void scalars(signed char a, short b, int c, long long d, _Float16 e, float f, double g, double *out);
void step(Particle p, double force, double dt, Particle *out);

enum { TO = 1, FROM = 2 };
#define INFER 0, 0, 0
// Header: version 1, teams x y z, threads x y z, dynamic shared memory, argument count.
#define HEADER(teams, threads, args) 1, teams, 1, 1, threads, 1, 1, 0, args

// x: TO, y: TO|FROM, 4-byte elements, n of them (argument 3: LEN = 1 + 3).
__attribute__((used)) const unsigned long long saxpy_launch[] __asm__("__offload_launch.saxpy") = {
    HEADER(4, 128, 4), INFER, TO, 4, 4, TO | FROM, 4, 4, INFER};
// out: FROM, 8 doubles.
__attribute__((used)) const unsigned long long scalars_launch[] __asm__("__offload_launch.scalars") = {
    HEADER(1, 32, 8), INFER, INFER, INFER, INFER, INFER, INFER, INFER, FROM, 64, 0};
// p by value (inferred: TO, sizeof(Particle)), out: FROM, one Particle.
__attribute__((used)) const unsigned long long step_launch[] __asm__("__offload_launch.step") = {
    HEADER(1, 32, 4), INFER, INFER, INFER, FROM, sizeof(Particle), 0};

enum { N = 1000 };

int main(void) {
  int ok_all = 1;

  static float x[N], y[N];
  for (int i = 0; i < N; i++) {
    x[i] = 0.5f * i;
    y[i] = 1000.0f - i;
  }
  saxpy(2.5f, x, y, N);
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += y[i] != 1000.0f + 0.25f * i; // exact in float
  printf("saxpy: n=%d y[0]=%g y[1]=%g y[999]=%g mismatches=%d %s\n", N, y[0], y[1], y[999], bad, bad ? "FAIL" : "PASS");
  ok_all &= !bad;

  double out[8];
  memset(out, 0, sizeof out);
  scalars(-5, -300, 70000, -5000000000LL, (_Float16)0.5f, 2.25f, -1.125, out);
  const double want[8] = {-5, -300, 70000, -5000000000.0, 0.5, 2.25, -1.125, -4999930303.375};
  int ok = !memcmp(out, want, sizeof want);
  printf("scalars: %g %g %g %g %g %g %g sum=%.3f %s\n", out[0], out[1], out[2], out[3], out[4], out[5], out[6], out[7], ok ? "PASS" : "FAIL");
  ok_all &= ok;

  Particle p = {1.0, 2.0, 4.0}, q = {0, 0, 0};
  step(p, 8.0, 0.25, &q);
  ok = q.x == 1.625 && q.v == 2.5 && q.mass == 4.0 && p.x == 1.0 && p.v == 2.0;
  printf("step: x=%g v=%g mass=%g (host copy x=%g v=%g) %s\n", q.x, q.v, q.mass, p.x, p.v, ok ? "PASS" : "FAIL");
  ok_all &= ok;

  printf("all: %s\n", ok_all ? "PASS" : "FAIL");
  return ok_all ? 0 : 1;
}
