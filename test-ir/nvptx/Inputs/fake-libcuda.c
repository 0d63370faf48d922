/* A stand-in for libcuda.so.1, for testing scripts/gpu-check.sh's driver
   check without a GPU: the few driver calls it makes, with "device memory"
   in host memory, and the three kernels of examples/nvptx emulated on the
   packed argument buffer the way the wrapped kernels read it (dyn pointer,
   then one 8-byte slot per argument); a module's globals are read from the
   loaded cubin's symbol table. It checks the plumbing (ctypes signatures,
   buffer layout, sizes), not the GPU. Build:
     clang-22 -shared -fPIC fake-libcuda.c -o libcuda.so.1 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
enum { OK = 0, INVALID_VALUE = 1, NOT_FOUND = 500 };
struct func { const char *name; int params; };
static struct func funcs[] = {{"saxpy", 5}, {"scalars", 9}, {"step", 5}};
/* The loaded module: a copy of the cubin, whose globals the device-memory
   reads return (as cuModuleGetGlobal finds a module's globals). */
static unsigned char *module_image;

CUresult cuInit(unsigned flags) { (void)flags; return OK; }
CUresult cuGetErrorName(CUresult r, const char **s) { *s = r == NOT_FOUND ? "CUDA_ERROR_NOT_FOUND" : "CUDA_ERROR_FAKE"; return OK; }
CUresult cuDeviceGet(int *d, int i) { *d = i; return OK; }
CUresult cuDeviceGetAttribute(int *v, int attr, int d) { (void)d; *v = attr == 75 ? 9 : 0; return OK; }
CUresult cuDriverGetVersion(int *v) { *v = 13000; return OK; }
CUresult cuDevicePrimaryCtxRetain(void **c, int d) { (void)d; *c = (void *)1; return OK; }
CUresult cuCtxSetCurrent(void *c) { (void)c; return OK; }
static uint64_t word(const unsigned char *p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; i--) v = v << 8 | p[i];
  return v;
}
CUresult cuModuleLoadData(void **m, const void *image) {
  const unsigned char *e = image;
  if (memcmp(e, "\x7f" "ELF", 4) || e[4] != 2) return INVALID_VALUE;
  /* ptxas puts the section headers last: the image ends with them. */
  size_t size = word(e + 0x28, 8) + word(e + 0x3c, 2) * word(e + 0x3a, 2);
  free(module_image);
  module_image = malloc(size);
  memcpy(module_image, e, size);
  *m = (void *)2;
  return OK;
}
CUresult cuModuleUnload(void *m) { (void)m; return OK; }
CUresult cuModuleGetFunction(void **f, void *m, const char *name) {
  (void)m;
  for (int i = 0; i < 3; i++)
    if (!strcmp(name, funcs[i].name)) { *f = &funcs[i]; return OK; }
  return NOT_FOUND;
}
CUresult cuFuncGetParamInfo(void *f, size_t i, size_t *off, size_t *size) {
  if (i >= (size_t)((struct func *)f)->params) return INVALID_VALUE;
  *off = 8 * i;
  *size = 8;
  return OK;
}
/* The bytes of the module's symbol `name` (.symtab, st_value within its
   section, st_size long). */
CUresult cuModuleGetGlobal_v2(uint64_t *p, size_t *n, void *m, const char *name) {
  (void)m;
  const unsigned char *e = module_image;
  if (!e) return INVALID_VALUE;
  const unsigned char *sh = e + word(e + 0x28, 8);
  size_t shentsize = word(e + 0x3a, 2), shnum = word(e + 0x3c, 2);
  for (size_t i = 0; i < shnum; i++) {
    const unsigned char *s = sh + i * shentsize;
    if (word(s + 4, 4) != 2 /* SHT_SYMTAB */) continue;
    const unsigned char *strtab = e + word(sh + word(s + 40, 4) * shentsize + 24, 8);
    const unsigned char *sym = e + word(s + 24, 8);
    for (size_t k = 0; k < word(s + 32, 8) / 24; k++, sym += 24) {
      if (strcmp((const char *)strtab + word(sym, 4), name)) continue;
      const unsigned char *sec = sh + word(sym + 6, 2) * shentsize;
      *p = (uint64_t)(uintptr_t)(e + word(sec + 24, 8) + word(sym + 8, 8) - word(sec + 16, 8));
      *n = word(sym + 16, 8);
      return OK;
    }
  }
  return NOT_FOUND;
}
CUresult cuMemAlloc_v2(uint64_t *p, size_t n) { *p = (uint64_t)(uintptr_t)calloc(1, n); return OK; }
CUresult cuMemFree_v2(uint64_t p) { free((void *)(uintptr_t)p); return OK; }
CUresult cuMemcpyHtoD_v2(uint64_t d, const void *h, size_t n) { memcpy((void *)(uintptr_t)d, h, n); return OK; }
CUresult cuMemcpyDtoH_v2(void *h, uint64_t d, size_t n) { memcpy(h, (void *)(uintptr_t)d, n); return OK; }
CUresult cuCtxSynchronize(void) { return OK; }

static double half_to_double(uint16_t h) {
  int e = (h >> 10) & 31, m = h & 1023;
  double v = e ? (1 + m / 1024.0) * (double)(1u << e) / 32768.0 : m / 16777216.0;
  return h & 0x8000 ? -v : v;
}

CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shmem, void *stream, void **params, void **extra) {
  (void)gy; (void)gz; (void)by; (void)bz; (void)shmem; (void)stream;
  struct func *fn = f;
  if (params || !extra || extra[0] != (void *)1 || extra[2] != (void *)2 || extra[4] != 0) return INVALID_VALUE;
  uint64_t *slot = extra[1];
  if (*(size_t *)extra[3] != 8u * fn->params || slot[0] != UINT64_MAX) return INVALID_VALUE;
  if (!strcmp(fn->name, "saxpy")) {
    float a;
    uint32_t bits = (uint32_t)slot[1];
    memcpy(&a, &bits, 4);
    float *x = (float *)(uintptr_t)slot[2], *y = (float *)(uintptr_t)slot[3];
    for (int i = 0; i < (int)(int32_t)slot[4] && gx * bx > 0; i++) y[i] = a * x[i] + y[i];
  } else if (!strcmp(fn->name, "scalars")) {
    double *out = (double *)(uintptr_t)slot[8], g, v[7];
    float fl;
    uint32_t fb = (uint32_t)slot[6];
    memcpy(&fl, &fb, 4);
    memcpy(&g, &slot[7], 8);
    v[0] = (int8_t)slot[1]; v[1] = (int16_t)slot[2]; v[2] = (int32_t)slot[3]; v[3] = (double)(int64_t)slot[4];
    v[4] = half_to_double((uint16_t)slot[5]); v[5] = fl; v[6] = g;
    out[7] = 0;
    for (int i = 0; i < 7; i++) { out[i] = v[i]; out[7] += v[i]; }
  } else {
    double *p = (double *)(uintptr_t)slot[1], *out = (double *)(uintptr_t)slot[4], force, dt;
    memcpy(&force, &slot[2], 8);
    memcpy(&dt, &slot[3], 8);
    double v = p[1] + force / p[2] * dt;
    out[0] = p[0] + v * dt; out[1] = v; out[2] = p[2];
  }
  return OK;
}
