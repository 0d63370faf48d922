// The same kernels in HIP, for clang-22's kernarg layout (test-ir/rustc/pointer-wrappers.rs).
#define __global__ __attribute__((global))
typedef unsigned int u32; typedef unsigned long long u64;
struct P { const u32 *p; };
struct alignas(16) A { const u32 *p; };
struct Q { const u64 *r; };
extern "C" __global__ void wrappers(P p, A a, const u64 *t, Q q, u32 *out, u64 *o64) { *out = *p.p + *a.p; *o64 = *t + *q.r; }
extern "C" __global__ void niche(const u32 *o, u32 *out) { if (o) *out = *o; }
