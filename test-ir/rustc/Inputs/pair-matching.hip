// The kernels of test-ir/rustc/pair-matching.rs in HIP, for clang-22's kernarg layout.
#define __global__ __attribute__((global))
typedef unsigned char u8; typedef unsigned long long u64;
struct Arr { const u64 *a[2]; };
struct S { u64 *p; u8 c; };
extern "C" __global__ void g1(Arr a, const u64 *b, u64 *o64) { *o64 = *a.a[0] + *a.a[1] + *b; }
extern "C" __global__ void g2(Arr a, S b, unsigned *out, u8 *o8) { *b.p = *a.a[0] + *a.a[1]; *o8 = b.c; }
