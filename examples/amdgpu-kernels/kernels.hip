// C/HIP equivalents of kernels.rs: clang 22's kernarg layout is the layout the
// offload-passes AMDGPU kernel-ABI pass must reproduce for the Rust kernels.
// Build (see test-ir/Inputs/clang-22-hip.ll header for the exact command):
//   clang-22 -x hip --cuda-device-only --offload-arch=gfx90a -nogpulib -nogpuinc -O2 -S -emit-llvm kernels.hip
#define __global__ __attribute__((global))

typedef unsigned char u8;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef u32 u32x4 __attribute__((ext_vector_type(4)));

struct One { u32 a; };
struct OneF { float f; };
struct OneC { u32 a; };
struct OneCF { float f; };
struct WideC { u64 x; };
struct Three { u32 a, b, c; };
struct Padding { u8 a; double b; };          // 16 bytes, align 8
struct Arrays { u32 a[3]; u32 b[8]; };       // 44 bytes, align 4
struct Inner { u32 x, y; };
struct Nested { Inner p, q, r; };            // 24 bytes, align 4
union U { u32 i; float f; };                 // 4 bytes
struct Complex { float re, im; };            // 8 bytes
struct Wide { u64 x; };
struct Huge { __int128 x; };
struct alignas(16) Over { u32 a; };          // 16 bytes, align 16
struct Tail { u64 a; u32 b; };               // 16 bytes (4 bytes tail padding)
struct Slice { const u32 *p; u64 n; };       // Rust &[u32]
struct V4 { u32x4 v; };

extern "C" {

__global__ void k_scalars(u32 a, u64 b, float c, u8 d, u32 *out) {
  out[0] = a; *(u64 *)(out + 2) = b; *(float *)(out + 4) = c; *(u8 *)(out + 5) = d;
}
__global__ void k_ptrs(const u32 *src, u32 *dst) { *dst = *src; }
__global__ void k_one(One s, u32 *out) { out[0] = s.a; }
__global__ void k_one_f(OneF s, u32 *out) { *(float *)out = s.f; }
__global__ void k_one_c(OneC s, u32 *out) { out[0] = s.a; out[1] = 1; }
__global__ void k_one_cf(OneCF s, u32 *out) { *(float *)out = s.f; out[1] = 2; }
__global__ void k_wide_c(WideC w, u32 *out) { *(u64 *)out = w.x; out[2] = 3; }
__global__ void k_three(Three s, u32 *out) { out[0] = s.a; out[1] = s.b; out[2] = s.c; }
__global__ void k_padding(Padding s, u32 *out) { *(u8 *)out = s.a; *(double *)(out + 2) = s.b; }
__global__ void k_arrays(Arrays s, u32 *out) {
  out[0] = s.a[0]; out[1] = s.a[1]; out[2] = s.a[2]; out[3] = s.b[0]; out[4] = s.b[7];
}
__global__ void k_nested(Nested s, u32 *out) {
  out[0] = s.p.x; out[1] = s.q.y; out[2] = s.r.x; out[3] = s.r.y;
}
__global__ void k_union(U u, u32 *out) { out[0] = u.i; *(float *)(out + 1) = u.f; }
__global__ void k_slice(Slice v, u32 *out) { out[0] = *v.p; *(u64 *)(out + 2) = v.n; }
__global__ void k_complex(Complex c, u32 *out) { *(float *)out = c.im; *(float *)(out + 1) = c.re; }
__global__ void k_wide(Wide w, u32 *out) { *(u64 *)out = w.x; }
__global__ void k_huge(Huge h, u32 *out) { *(__int128 *)out = h.x; }
__global__ void k_over(u8 a, Over o, u32 *out) { *(u8 *)out = a; out[1] = o.a; }
__global__ void k_tail(Tail t, u8 k, u32 *out) {
  *(u64 *)out = t.a; out[2] = t.b; *(u8 *)(out + 3) = k;
}
__global__ void k_mixed(Arrays d, One o, Tail t, u8 k, u32 *out) {
  out[0] = d.a[0]; out[1] = o.a; *(u64 *)(out + 2) = t.a; out[4] = d.b[7]; out[5] = t.b;
  *(u8 *)(out + 6) = k;
}
__global__ void k_vec(u32x4 v, V4 w, u32 *out) { *(u32x4 *)out = v; *(u32x4 *)(out + 4) = w.v; }
__global__ void k_mut(Three s, u32 *out) {
  s.a = s.c; s.b = out[0];
  out[0] = s.c; out[1] = s.b; out[2] = s.a;
}
__global__ void k_mut_dyn(Three s, bool pick, u32 *out) {
  u32 *p = pick ? &s.a : &s.c;
  *p = out[0];
  out[0] = s.a; out[1] = s.b; out[2] = s.c;
}

} // extern "C"
