// The kernels of kernels.ll in CUDA C, compiled by clang-22 for the device
// alone, with no CUDA installation (no headers, no libdevice):
//   clang-22 -x cuda --cuda-device-only --offload-arch=sm_90 -nocudainc -nocudalib \
//     --cuda-feature=+ptx80 -O2 -emit-llvm -c kernels.cu -o kernels.bc
// (without --cuda-feature=+ptx80 clang assumes an old CUDA and its backend
// stops: "PTX version 4.2 does not support target 'sm_90'"). Then the same
// steps as for IR: offload-wrap-kernels, llc-22, ptxas.
// extern "C" keeps the kernel names the host calls (CUDA is C++).
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))

typedef struct {
  double x, v, mass;
} Particle;

static __device__ unsigned thread_id(void) {
  return __nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() + __nvvm_read_ptx_sreg_tid_x();
}

extern "C" {
__global__ void saxpy(float a, const float *x, float *y, int n) {
  unsigned stride = __nvvm_read_ptx_sreg_ntid_x() * __nvvm_read_ptx_sreg_nctaid_x();
  for (unsigned i = thread_id(); i < (unsigned)n; i += stride)
    y[i] = a * x[i] + y[i];
}

__global__ void scalars(signed char a, short b, int c, long long d, _Float16 e, float f, double g, double *out) {
  if (thread_id() != 0)
    return;
  out[0] = a;
  out[1] = b;
  out[2] = c;
  out[3] = (double)d;
  out[4] = (double)e;
  out[5] = f;
  out[6] = g;
  out[7] = (double)a + b + c + (double)d + (double)e + f + g;
}

__global__ void step(Particle p, double force, double dt, Particle *out) {
  if (thread_id() != 0)
    return;
  p.v += force / p.mass * dt;
  p.x += p.v * dt;
  *out = p;
}
}
