/* The kernels of `rust-gpu-toolkit --bench` as a C user of OpenMP offload
 * writes them for a GPU: one `target teams distribute parallel for` region
 * per kernel (the block scans also as `target teams distribute` with a
 * nested `scan`), with `map` clauses, run through libomptarget's host plugin
 * (OMP_TARGET_OFFLOAD=MANDATORY). Each region is timed as launched, the
 * maps included (the host plugin allocates, copies in, runs, copies out and
 * frees on every launch, as the Rust grid's launches map theirs), best of 5,
 * against a plain single-threaded loop computing the same; every result is
 * compared exactly with the plain loop's (the inputs are small integers, so
 * every sum is exact in float whatever the order). Prints one line per
 * kernel in the Rust bench's shape:
 *
 *   <what>: clang teams X ms, plain loop Y ms, ratio R
 *
 * The number of workers is libomp's: one team (its default on the host),
 * OMP_NUM_THREADS threads in it. See bench/README.md.
 *
 *   clang-22 -O2 -fopenmp -fopenmp-targets=x86_64-unknown-linux-gnu grid.c \
 *     -L$(llvm-config-22 --libdir) -Wl,-rpath,$(llvm-config-22 --libdir) -lm -Xoffload-linker -lm
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { RUNS = 5, TILE = 16, SCAN_THREADS = 256, SCAN_ITEMS = 64, SUM_LEN = 1 << 20 };

/* Keeps the compiler from dropping or hoisting a plain loop whose result
 * is otherwise unused (Rust's `std::hint::black_box`). */
static void black_box(const void *p) { __asm__ volatile("" : : "r"(p) : "memory"); }

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* A kernel or its plain loop, with the arguments it was given. */
struct job {
  void (*run)(const struct job *);
  int n;
  long chunk;
  const float *a, *b;
  float *out;
  float *sum;
};

static double best_ms(const struct job *j) {
  double best = 1e300;
  for (int r = 0; r < RUNS; ++r) {
    double start = now_ms();
    j->run(j);
    double t = now_ms() - start;
    if (t < best)
      best = t;
  }
  return best;
}

static void report(const char *what, double teams, double plain) {
  printf("%s: clang teams %.3f ms, plain loop %.3f ms, ratio %.1f\n", what, teams, plain,
         teams / plain);
}

static void check(int ok, const char *what) {
  if (!ok) {
    fprintf(stderr, "clang-peer-grid: %s: the target region's result differs from the plain loop's\n",
            what);
    exit(1);
  }
}

/* Small integers: every sum and product is exact in float. */
static float *matrix(int n, int seed) {
  float *m = malloc(sizeof(float) * n * n);
  for (long i = 0; i < (long)n * n; ++i)
    m[i] = (float)((i * seed + 3) % 7) - 3.0f;
  return m;
}

/* One GPU thread per element of c, the k loop inside it. */
static void matmul_teams(const struct job *j) {
  int n = j->n;
  const float *a = j->a, *b = j->b;
  float *c = j->out;
#pragma omp target teams distribute parallel for collapse(2) \
    map(to : a[0 : n * n], b[0 : n * n]) map(from : c[0 : n * n])
  for (int row = 0; row < n; ++row)
    for (int col = 0; col < n; ++col) {
      float acc = 0.0f;
      for (int k = 0; k < n; ++k)
        acc += a[row * n + k] * b[k * n + col];
      c[row * n + col] = acc;
    }
}

static void matmul_plain(const struct job *j) {
  int n = j->n;
  for (int row = 0; row < n; ++row)
    for (int col = 0; col < n; ++col) {
      float acc = 0.0f;
      for (int k = 0; k < n; ++k)
        acc += j->a[row * n + k] * j->b[k * n + col];
      j->out[row * n + col] = acc;
    }
  black_box(j->out);
}

static void sum_teams(const struct job *j) {
  int n = j->n;
  const float *x = j->a;
  float sum = 0.0f;
#pragma omp target teams distribute parallel for reduction(+ : sum) map(to : x[0 : n]) \
    map(tofrom : sum)
  for (int i = 0; i < n; ++i)
    sum += x[i];
  *j->sum = sum;
}

static void sum_plain(const struct job *j) {
  black_box(j->a);
  float sum = 0.0f;
  for (int i = 0; i < j->n; ++i)
    sum += j->a[i];
  *j->sum = sum;
  black_box(j->sum);
}

/* Inclusive prefix sums of each `chunk`-element slice, the form a CPU
 * user writes: each slice is one iteration of the parallel loop, scanned
 * sequentially inside it. */
static void scan_teams(const struct job *j) {
  int n = j->n;
  long chunk = j->chunk;
  const float *x = j->a;
  float *out = j->out;
#pragma omp target teams distribute parallel for map(to : x[0 : n]) map(from : out[0 : n])
  for (long s = 0; s < n / chunk; ++s) {
    float acc = 0.0f;
    for (long i = s * chunk; i < (s + 1) * chunk; ++i) {
      acc += x[i];
      out[i] = acc;
    }
  }
}

/* The same as the GPU's block scan: the slices distributed over the teams,
 * each slice scanned by its team's threads together with OpenMP 5.0's
 * `scan` directive (an `inscan` reduction). libomp runs one team on the
 * host, so the slices run one after another, each a parallel region. */
static void scan_directive_teams(const struct job *j) {
  int n = j->n;
  long chunk = j->chunk;
  const float *x = j->a;
  float *out = j->out;
#pragma omp target teams distribute map(to : x[0 : n]) map(from : out[0 : n])
  for (long s = 0; s < n / chunk; ++s) {
    float acc = 0.0f;
#pragma omp parallel for reduction(inscan, + : acc)
    for (long i = s * chunk; i < (s + 1) * chunk; ++i) {
      acc += x[i];
#pragma omp scan inclusive(acc)
      out[i] = acc;
    }
  }
}

static void scan_plain(const struct job *j) {
  for (long s = 0; s < j->n / j->chunk; ++s) {
    float acc = 0.0f;
    for (long i = s * j->chunk; i < (s + 1) * j->chunk; ++i) {
      acc += j->a[i];
      j->out[i] = acc;
    }
  }
  black_box(j->out);
}

static void transpose_teams(const struct job *j) {
  int n = j->n;
  const float *a = j->a;
  float *t = j->out;
#pragma omp target teams distribute parallel for collapse(2) map(to : a[0 : n * n]) \
    map(from : t[0 : n * n])
  for (int row = 0; row < n; ++row)
    for (int col = 0; col < n; ++col)
      t[col * n + row] = a[row * n + col];
}

static void transpose_plain(const struct job *j) {
  int n = j->n;
  for (int row = 0; row < n; ++row)
    for (int col = 0; col < n; ++col)
      j->out[col * n + row] = j->a[row * n + col];
  black_box(j->out);
}

/* Times `teams` and `plain` on the same inputs and compares their outputs
 * (`len` floats of `out`, or the sums). */
static void compare(const char *what, struct job teams, struct job plain, long len) {
  double t = best_ms(&teams), p = best_ms(&plain);
  if (len > 0)
    check(memcmp(teams.out, plain.out, sizeof(float) * len) == 0, what);
  else
    check(*teams.sum == *plain.sum, what);
  report(what, t, p);
}

static void bench_matmul(void) {
  int n = 8 * TILE;
  float *a = matrix(n, 5), *b = matrix(n, 11);
  float *c = calloc((size_t)n * n, sizeof(float)), *plain = calloc((size_t)n * n, sizeof(float));
  char what[128];
  snprintf(what, sizeof what, "matmul %dx%d, collapse(2) over c, k loop inside", n, n);
  compare(what, (struct job){matmul_teams, n, 0, a, b, c, 0},
          (struct job){matmul_plain, n, 0, a, b, plain, 0}, (long)n * n);
  free(a), free(b), free(c), free(plain);
}

static void bench_sum(void) {
  float *x = malloc(sizeof(float) * SUM_LEN);
  for (int i = 0; i < SUM_LEN; ++i)
    x[i] = (float)(i % 7);
  float s_teams = -1.0f, s_plain = -2.0f;
  compare("sum, 2^20 floats, reduction(+:sum)", (struct job){sum_teams, SUM_LEN, 0, x, 0, 0, &s_teams},
          (struct job){sum_plain, SUM_LEN, 0, x, 0, 0, &s_plain}, 0);
  free(x);
}

static void bench_scans(void) {
  float *x = malloc(sizeof(float) * SUM_LEN);
  for (int i = 0; i < SUM_LEN; ++i)
    x[i] = (float)(i % 5);
  float *out = calloc(SUM_LEN, sizeof(float)), *plain = calloc(SUM_LEN, sizeof(float));
  long chunks[] = {SCAN_THREADS, SCAN_THREADS * SCAN_ITEMS};
  for (int c = 0; c < 2; ++c) {
    char what[160];
    snprintf(what, sizeof what,
             "block prefix scan, 2^20 floats, slices of %ld, one slice per iteration", chunks[c]);
    memset(out, 0, sizeof(float) * SUM_LEN);
    compare(what, (struct job){scan_teams, SUM_LEN, chunks[c], x, 0, out, 0},
            (struct job){scan_plain, SUM_LEN, chunks[c], x, 0, plain, 0}, SUM_LEN);
    snprintf(what, sizeof what,
             "block prefix scan, 2^20 floats, slices of %ld, a team per slice, scan directive",
             chunks[c]);
    memset(out, 0, sizeof(float) * SUM_LEN);
    compare(what, (struct job){scan_directive_teams, SUM_LEN, chunks[c], x, 0, out, 0},
            (struct job){scan_plain, SUM_LEN, chunks[c], x, 0, plain, 0}, SUM_LEN);
  }
  free(x), free(out), free(plain);
}

static void bench_transpose(void) {
  int n = 64 * TILE;
  float *a = matrix(n, 5);
  float *t = calloc((size_t)n * n, sizeof(float)), *plain = calloc((size_t)n * n, sizeof(float));
  char what[128];
  snprintf(what, sizeof what, "transpose %dx%d, collapse(2)", n, n);
  compare(what, (struct job){transpose_teams, n, 0, a, 0, t, 0},
          (struct job){transpose_plain, n, 0, a, 0, plain, 0}, (long)n * n);
  free(a), free(t), free(plain);
}

/* What libomp gives a target region here: the teams and the threads of
 * team 0's parallel regions, and whether it ran off the initial device. */
static void print_grid(void) {
  int teams = 0, threads = 0, offloaded = 0;
#pragma omp target teams map(tofrom : teams, threads, offloaded)
  if (omp_get_team_num() == 0) {
    teams = omp_get_num_teams();
    offloaded = !omp_is_initial_device();
#pragma omp parallel
    if (omp_get_thread_num() == 0)
      threads = omp_get_num_threads();
  }
  if (!offloaded) {
    fprintf(stderr, "clang-peer-grid: the target region ran on the initial device, not on "
                    "libomptarget's host plugin (set OMP_TARGET_OFFLOAD=MANDATORY)\n");
    exit(1);
  }
  printf("host plugin: %d team(s) x %d thread(s)\n", teams, threads);
}

int main(void) {
  print_grid();
  bench_matmul();
  bench_sum();
  bench_scans();
  bench_transpose();
  return 0;
}
