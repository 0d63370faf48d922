; Structs passed by value to a CPU kernel. The host maps such a struct TO and
; passes the device address in the argument's slot.
; - byval(T): the callee owns a private copy (it may write it). The slot
;   becomes a plain pointer to the mapped struct and the body gets an alloca
;   copy (memcpy from the slot; the host's alignment is unknown, so align 1).
;   The byval attributes (byval, align of the stack copy) are dropped.
; - byref(T): the callee reads the caller's memory and may not write it: the
;   slot stays a pointer with its attributes.
; - a first-class aggregate or fixed vector (%S %s, <2 x double> %v): the host
;   (offload-host) maps it TO like a byval struct, so the slot is a plain
;   pointer to the mapped copy and the body loads the value (align 1).
; (On amdgpu_kernel/ptx_kernel, byref means "inline in the kernarg segment",
; which a launch slot is not: an error, see errors.ll.)
; RUN: %opt -passes=offload-wrap-kernels -S %s | %FileCheck %s
; RUN: %opt -passes=offload-wrap-kernels %s | %llc -O2 -relocation-model=pic -filetype=obj -o /dev/null

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.Big = type { double, i64, [4 x i32] }

; CHECK-LABEL: define void @by_value(ptr %dyn_ptr, ptr %out, ptr %s) !offload.kernel !0 !offload.wrapped !0 {
; CHECK-NEXT:    %s.copy = alloca %struct.Big, align 16
; CHECK-NEXT:    call void @llvm.memcpy.p0.p0.i64(ptr align 16 %s.copy, ptr align 1 %s, i64 32, i1 false)
; CHECK-NEXT:    %x = load double, ptr %s.copy, align 8
; CHECK-NEXT:    store double 0.000000e+00, ptr %s.copy, align 8
define void @by_value(ptr %out, ptr byval(%struct.Big) align 16 %s) !offload.kernel !0 {
  %x = load double, ptr %s
  store double 0.0, ptr %s
  store double %x, ptr %out
  ret void
}

; Without an align attribute the copy gets the type's ABI alignment.
; CHECK-LABEL: define void @by_value_abi_align(ptr %dyn_ptr, ptr %s) !offload.kernel !0 !offload.wrapped !0 {
; CHECK-NEXT:    %s.copy = alloca %struct.Big, align 8
define void @by_value_abi_align(ptr byval(%struct.Big) %s) !offload.kernel !0 {
  ret void
}

; CHECK-LABEL: define void @by_ref(ptr %dyn_ptr, ptr %out, ptr noundef byref(%struct.Big) align 8 %s) !offload.kernel !0 !offload.wrapped !0 {
; CHECK-NEXT:    %x = load double, ptr %s, align 8
define void @by_ref(ptr %out, ptr noundef byref(%struct.Big) align 8 %s) !offload.kernel !0 {
  %x = load double, ptr %s
  store double %x, ptr %out
  ret void
}

; CHECK-LABEL: define void @first_class(ptr %dyn_ptr, ptr %out, ptr %s, ptr %v) !offload.kernel !0 !offload.wrapped !0 {
; CHECK-NEXT:    %s.load = load %struct.Big, ptr %s, align 1
; CHECK-NEXT:    %v.load = load <2 x double>, ptr %v, align 1
; CHECK-NEXT:    %x = extractvalue %struct.Big %s.load, 0
; CHECK-NEXT:    %y = extractelement <2 x double> %v.load, i32 1
define void @first_class(ptr %out, %struct.Big %s, <2 x double> %v) !offload.kernel !0 {
  %x = extractvalue %struct.Big %s, 0
  %y = extractelement <2 x double> %v, i32 1
  %z = fadd double %x, %y
  store double %z, ptr %out
  ret void
}

!0 = !{}
