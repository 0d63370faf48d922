; Errors name the pass, the kernel, the parameter and its type, and leave the
; module unchanged. (Bad parameters -- `kernel=x`, `kernels`, `kernels=`,
; `kernels=a::b`, `kernels=a,b`, ... -- fail when the pipeline is parsed:
; bad-input/pass-params.ll.)
; RUN: rm -rf %t && split-file %s %t
;
; Unknown names in kernels= (all of them are listed):
; RUN: not %opt -passes='offload-wrap-kernels<kernels=ok:nope:gone>' -disable-output %t/ok.ll 2>&1 | %FileCheck %s --check-prefix=UNKNOWN
; UNKNOWN: error: offload-wrap-kernels: kernels=: no function named 'nope', 'gone' in the module
; RUN: not %opt -passes='offload-wrap-kernels<kernels=decl>' -disable-output %t/ok.ll 2>&1 | %FileCheck %s --check-prefix=DECL
; DECL: error: offload-wrap-kernels: kernels=: 'decl' is a declaration; only a defined function can be a kernel
;
; Parameters that do not fit one 8-byte launch slot:
; RUN: not %opt -passes=offload-wrap-kernels -disable-output %t/i128.ll 2>&1 | %FileCheck %s --check-prefix=I128
; I128: error: offload-wrap-kernels: kernel 'k', parameter #1 (%wide) of type 'i128': wider than 8 bytes; a launch passes one 8-byte slot per argument (a pointer or a scalar); pass it through a pointer the host maps TO
; RUN: not %opt -passes=offload-wrap-kernels -disable-output %t/fp128.ll 2>&1 | %FileCheck %s --check-prefix=FP128
; FP128: error: offload-wrap-kernels: kernel 'k', parameter #0 (%q) of type 'fp128': wider than 8 bytes;
; (Fixed vectors and aggregates by value arrive as a pointer to the host's
; mapped copy, see byval-byref.ll; a scalable vector has no size to map.)
; RUN: not %opt -passes=offload-wrap-kernels -disable-output %t/vector.ll 2>&1 | %FileCheck %s --check-prefix=VECTOR
; VECTOR: error: offload-wrap-kernels: kernel 'k', parameter #0 (%v) of type '<vscale x 2 x float>': a scalable vector; a launch passes one 8-byte slot per argument
; RUN: not %opt -passes=offload-wrap-kernels -disable-output %t/sret.ll 2>&1 | %FileCheck %s --check-prefix=SRET
; SRET: error: offload-wrap-kernels: kernel 'k', parameter #0 (%r) of type 'ptr': the 'sret' attribute has no meaning for a kernel the runtime launches
; RUN: not %opt -passes=offload-wrap-kernels -disable-output %t/gpu-byref.ll 2>&1 | %FileCheck %s --check-prefix=BYREF
; BYREF: error: offload-wrap-kernels: kernel 'g', parameter #0 (%s) of type 'ptr addrspace(4)': 'byref' puts the value inline in the kernel argument segment, but a launch passes one 8-byte slot per argument; pass a plain pointer (run offload-wrap-kernels before passes that introduce byref)
; A kernel called from IR (the message, shared with amdgpu-kernel-abi, is
; pinned in amdgpu-kernel-abi/preserves-function.ll):
; RUN: not %opt -passes=offload-wrap-kernels -disable-output %t/called.ll 2>&1 | %FileCheck %s --check-prefix=CALLED
; CALLED: error: offload-wrap-kernels:
; RUN: not %opt -passes=offload-wrap-kernels -disable-output %t/varargs.ll 2>&1 | %FileCheck %s --check-prefix=VARARGS
; VARARGS: error: offload-wrap-kernels: kernel 'k' is variadic; a launch passes a fixed argument list
; RUN: not %opt -passes=offload-wrap-kernels -disable-output %t/opaque.ll 2>&1 | %FileCheck %s --check-prefix=OPAQUE
; OPAQUE: error: offload-wrap-kernels: kernel 'k', parameter #1 (%e) of type 'target("spirv.Event")': this type cannot be a launch argument
;
; Every kernel is checked before any is rewritten (the unit test
; errors_leave_the_module_unchanged checks the module afterwards):
; RUN: not %opt -passes=offload-wrap-kernels -disable-output %t/second-bad.ll 2>&1 | %FileCheck %s --check-prefix=SECOND
; SECOND: error: offload-wrap-kernels: kernel 'bad', parameter #0 (%x) of type 'i128'

; A Rust symbol is named as the user wrote it (demangled, without the hash),
; also when named mangled in kernels=:
; RUN: not %opt -passes=offload-wrap-kernels -disable-output %t/rust-symbol.ll 2>&1 | %FileCheck %s --check-prefix=RUST
; RUST: error: offload-wrap-kernels: kernel 'device::kernels::scale', parameter #0 (%x) of type 'i128': wider than 8 bytes
; RUN: not %opt -passes='offload-wrap-kernels<kernels=_ZN6device7kernels4decl17h0123456789abcdefE>' -disable-output %t/rust-symbol.ll 2>&1 | %FileCheck %s --check-prefix=RUST-DECL
; RUST-DECL: error: offload-wrap-kernels: kernels=: 'device::kernels::decl' is a declaration; only a defined function can be a kernel

; The manifest's name is taken (by something other than this pass's own
; manifest of an already wrapped kernel):
; RUN: %no-output-file %t.out not %opt -passes=offload-wrap-kernels %t/manifest-name.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=MANIFEST-NAME
; MANIFEST-NAME: error: offload-wrap-kernels: kernel 'k': the module already has a global named '__offload_manifest_k', the name of its kernel manifest

;--- manifest-name.ll
@__offload_manifest_k = global i32 0
define void @k(i32 %x) !offload.kernel !0 {
  ret void
}
!0 = !{}

;--- rust-symbol.ll
define void @_ZN6device7kernels5scale17h0123456789abcdefE(i128 %x) !offload.kernel !0 {
  ret void
}
declare void @_ZN6device7kernels4decl17h0123456789abcdefE(i32)
!0 = !{}

;--- ok.ll
define void @ok(i32 %x) {
  ret void
}
declare void @decl(i32)

;--- i128.ll
define void @k(ptr %p, i128 %wide) !offload.kernel !0 {
  ret void
}
!0 = !{}

;--- fp128.ll
define void @k(fp128 %q) !offload.kernel !0 {
  ret void
}
!0 = !{}

;--- vector.ll
define void @k(<vscale x 2 x float> %v) !offload.kernel !0 {
  ret void
}
!0 = !{}

;--- sret.ll
define void @k(ptr sret(i32) %r) !offload.kernel !0 {
  ret void
}
!0 = !{}

;--- gpu-byref.ll
define amdgpu_kernel void @g(ptr addrspace(4) byref(i64) %s) {
  ret void
}

;--- opaque.ll
define void @k(ptr %p, target("spirv.Event") %e) !offload.kernel !0 {
  ret void
}
!0 = !{}

;--- called.ll
define void @k(i32 %x) !offload.kernel !0 {
  ret void
}
define void @caller() {
  call void @k(i32 1)
  ret void
}
!0 = !{}

;--- varargs.ll
define void @k(i32 %x, ...) !offload.kernel !0 {
  ret void
}
!0 = !{}

;--- second-bad.ll
define void @good(i32 %x) !offload.kernel !0 {
  ret void
}
define void @bad(i128 %x) !offload.kernel !0 {
  ret void
}
!0 = !{}
