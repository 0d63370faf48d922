; offload-shared-memory refuses, naming the problem, a module whose
; `__offload_dyn_shared_base` has a body or is used other than by calls, or
; where `__offload_dyn_shared` is something else; nothing is changed.
; RUN: rm -rf %t && split-file %s %t
; RUN: not %opt -passes=offload-shared-memory -disable-output %t/defined.ll 2>&1 | %FileCheck %s --check-prefix=DEFINED
; RUN: not %opt -passes=offload-shared-memory -disable-output %t/escaped.ll 2>&1 | %FileCheck %s --check-prefix=ESCAPED
; RUN: not %opt -passes=offload-shared-memory -disable-output %t/taken.ll 2>&1 | %FileCheck %s --check-prefix=TAKEN
;
; DEFINED: offload-shared-memory: `__offload_dyn_shared_base` has a body: it must be the declaration the `offload` crate makes
; ESCAPED: offload-shared-memory: `__offload_dyn_shared_base` is used other than by a call `ptr ()`: store ptr @__offload_dyn_shared_base, ptr %p
; TAKEN: offload-shared-memory: `__offload_dyn_shared` is already defined other than as the external addrspace(3) array

;--- defined.ll
target triple = "nvptx64-nvidia-cuda"
define ptr @__offload_dyn_shared_base() {
  ret ptr null
}

;--- escaped.ll
target triple = "nvptx64-nvidia-cuda"
declare ptr @__offload_dyn_shared_base()
define void @f(ptr %p) {
  store ptr @__offload_dyn_shared_base, ptr %p
  ret void
}

;--- taken.ll
target triple = "amdgcn-amd-amdhsa"
@__offload_dyn_shared = global [4 x i8] zeroinitializer
declare ptr @__offload_dyn_shared_base()
define void @f() {
  %p = call ptr @__offload_dyn_shared_base()
  ret void
}
