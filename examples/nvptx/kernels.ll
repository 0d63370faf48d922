; NVPTX device kernels in hand-written IR, with the natural signatures a
; front end emits (examples/nvptx/kernels.cu and kernels.rs are the same
; kernels in CUDA C and Rust). offload-wrap-kernels gives every ptx_kernel
; libomptarget's launch signature; llc-22 and ptxas make the cubin:
;   opt-22 -load-pass-plugin=liboffload_passes.so -passes=offload-wrap-kernels kernels.ll -o k.bc
;   llc-22 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 -mattr=+ptx80 k.bc -o k.ptx
;   ptxas -arch=sm_90 k.ptx -o k.cubin
; The kernels:
;   saxpy(a, x, y, n)        y[i] = a * x[i] + y[i], grid-stride over n floats
;   scalars(i8 .. double, out) out[0..6] = each scalar as a double, out[7] = their sum
;   step(Particle p, force, dt, out)  one time step of a struct passed by value
; Thread 0 alone writes the results of scalars and step, so any grid works.
;
; offload-wrap-kernels also records each kernel's manifest (its parameters
; and their slots) as @__offload_manifest_<kernel>, a `.visible .global` that
; ptxas keeps in the cubin (docs/kernel-manifest.md); offload-host checks the
; launches in host.c against it.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%Particle = type { double, double, double }

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()

define ptx_kernel void @saxpy(float %a, ptr readonly %x, ptr %y, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %nctaid = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %base = mul i32 %ctaid, %ntid
  %first = add i32 %base, %tid
  %stride = mul i32 %ntid, %nctaid
  br label %test
test:
  %i = phi i32 [ %first, %entry ], [ %next, %body ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %body, label %exit
body:
  %xp = getelementptr float, ptr %x, i32 %i
  %yp = getelementptr float, ptr %y, i32 %i
  %xv = load float, ptr %xp
  %yv = load float, ptr %yp
  %r = call float @madd(float %a, float %xv, float %yv)
  store float %r, ptr %yp
  %next = add i32 %i, %stride
  br label %test
exit:
  ret void
}

; A device function: ptxas keeps it as `$saxpy$madd` (no .entry), which
; offload-host refuses to launch.
define float @madd(float %a, float %x, float %y) noinline {
  %ax = fmul float %a, %x
  %r = fadd float %ax, %y
  ret float %r
}

define ptx_kernel void @scalars(i8 signext %a, i16 signext %b, i32 %c, i64 %d, half %e, float %f, double %g, ptr %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %id = or i32 %tid, %ctaid
  %first = icmp eq i32 %id, 0
  br i1 %first, label %write, label %exit
write:
  %a.d = sitofp i8 %a to double
  %b.d = sitofp i16 %b to double
  %c.d = sitofp i32 %c to double
  %d.d = sitofp i64 %d to double
  %e.d = fpext half %e to double
  %f.d = fpext float %f to double
  store double %a.d, ptr %out
  %o1 = getelementptr double, ptr %out, i32 1
  store double %b.d, ptr %o1
  %o2 = getelementptr double, ptr %out, i32 2
  store double %c.d, ptr %o2
  %o3 = getelementptr double, ptr %out, i32 3
  store double %d.d, ptr %o3
  %o4 = getelementptr double, ptr %out, i32 4
  store double %e.d, ptr %o4
  %o5 = getelementptr double, ptr %out, i32 5
  store double %f.d, ptr %o5
  %o6 = getelementptr double, ptr %out, i32 6
  store double %g, ptr %o6
  %s1 = fadd double %a.d, %b.d
  %s2 = fadd double %s1, %c.d
  %s3 = fadd double %s2, %d.d
  %s4 = fadd double %s3, %e.d
  %s5 = fadd double %s4, %f.d
  %s6 = fadd double %s5, %g
  %o7 = getelementptr double, ptr %out, i32 7
  store double %s6, ptr %o7
  br label %exit
exit:
  ret void
}

; p by value, as clang passes a C struct to a CUDA kernel (byval); the kernel
; changes its own copy.
define ptx_kernel void @step(ptr byval(%Particle) align 8 %p, double %force, double %dt, ptr %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %id = or i32 %tid, %ctaid
  %first = icmp eq i32 %id, 0
  br i1 %first, label %write, label %exit
write:
  %xp = getelementptr %Particle, ptr %p, i32 0, i32 0
  %vp = getelementptr %Particle, ptr %p, i32 0, i32 1
  %mp = getelementptr %Particle, ptr %p, i32 0, i32 2
  %x = load double, ptr %xp
  %v = load double, ptr %vp
  %m = load double, ptr %mp
  %acc = fdiv double %force, %m
  %dv = fmul double %acc, %dt
  %v2 = fadd double %v, %dv
  store double %v2, ptr %vp
  %dx = fmul double %v2, %dt
  %x2 = fadd double %x, %dx
  store double %x2, ptr %xp
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %out, ptr align 8 %p, i64 24, i1 false)
  br label %exit
exit:
  ret void
}

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
