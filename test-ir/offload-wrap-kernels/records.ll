; The flag `records`: the kernels are the functions the module's kernel
; records (@__offload_rs_record_<symbol>, offload-contract's layout) name, as
; a Rust kernel crate's `#[kernel]`s and those of its dependencies export
; them: no list of names from the front end. Malformed records are errors
; naming the pass and the global.
; RUN: rm -rf %t && split-file %s %t
; RUN: %opt -passes='offload-wrap-kernels<records>' -S %t/ok.ll | %FileCheck %s
; RUN: %opt -passes='offload-wrap-kernels<records>' -S %t/ok.ll | %FileCheck %s --check-prefix=MANIFEST
; Named kernels add up with recorded ones:
; RUN: %opt -passes='offload-wrap-kernels<records;kernels=not_a_kernel>' -S %t/ok.ll | %FileCheck %s --check-prefix=NAMED
;
; CHECK-LABEL: define void @not_a_kernel(
; CHECK-SAME:    double %d) {
; CHECK-LABEL: define void @axpy_f32(
; CHECK-SAME:    ptr %dyn_ptr, i64 %a, ptr %x, i64 %n) !offload.wrapped
; CHECK-LABEL: define void @scale(
; CHECK-SAME:    ptr %dyn_ptr, ptr %p, i64 %a) !offload.wrapped
; MANIFEST-NOT: @__offload_manifest_not_a_kernel
; MANIFEST-NOT: @__offload_manifest_elsewhere
; MANIFEST-DAG: @__offload_manifest_axpy_f32 =
; MANIFEST-DAG: @__offload_manifest_scale =
; NAMED: define void @not_a_kernel(ptr %dyn_ptr, i64 %d) !offload.wrapped
;
; RUN: not %opt -passes='offload-wrap-kernels<records>' -disable-output %t/magic.ll 2>&1 | %FileCheck %s --check-prefix=MAGIC
; MAGIC: error: offload-wrap-kernels: records: the kernel record '@__offload_rs_record_scale' is not a kernel record of this layout (1064 bytes starting with 'OFFRSK04'; it has 1064 bytes): the `offload` crate and the plugin are of different versions
; RUN: not %opt -passes='offload-wrap-kernels<records>' -disable-output %t/size.ll 2>&1 | %FileCheck %s --check-prefix=SIZE
; SIZE: error: offload-wrap-kernels: records: the kernel record '@__offload_rs_record_scale' is not a kernel record of this layout (1064 bytes starting with 'OFFRSK04'; it has 900 bytes)
; RUN: not %opt -passes='offload-wrap-kernels<records>' -disable-output %t/len.ll 2>&1 | %FileCheck %s --check-prefix=LEN
; LEN: error: offload-wrap-kernels: records: the kernel record '@__offload_rs_record_scale' has a name length of 200 (at most 128)
; RUN: not %opt -passes='offload-wrap-kernels<records>' -disable-output %t/other.ll 2>&1 | %FileCheck %s --check-prefix=OTHER
; OTHER: error: offload-wrap-kernels: records: the kernel record '@__offload_rs_record_scale' names the kernel 'scale2', not the symbol its global's name carries
; RUN: not %opt -passes='offload-wrap-kernels<records>' -disable-output %t/pointer.ll 2>&1 | %FileCheck %s --check-prefix=POINTER
; POINTER: error: offload-wrap-kernels: records: the kernel record '@__offload_rs_record_scale' holds 'i64 ptrtoint (ptr @scale to i64)' at byte 0, not plain bytes
; RUN: not %opt -passes='offload-wrap-kernels<records>' -disable-output %t/missing.ll 2>&1 | %FileCheck %s --check-prefix=MISSING
; MISSING: error: offload-wrap-kernels: records: the kernel record '@__offload_rs_record_gone' names the kernel 'gone', which the module does not define
; ... unless the module is one codegen unit of several:
; RUN: %opt -passes='offload-wrap-kernels<records;codegen-unit>' -S %t/missing.ll | %FileCheck %s --check-prefix=UNIT
; UNIT: define void @scale(ptr %p, float %a) {
; A flag takes no value:
; RUN: not %opt -passes='offload-wrap-kernels<records=1>' -disable-output %t/ok.ll 2>&1 | %FileCheck %s --check-prefix=FLAG
; FLAG: error: offload-wrap-kernels: parameter 'records': is a flag: write 'records', no value

;--- ok.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; Records of the kernel crate and of a kernel library, as fat LTO merges them.
@__offload_rs_record_axpy_f32 = constant <{ [32 x i8], [1032 x i8] }> <{ [32 x i8] c"OFFRSK044\12\00\00\00\00\00\00\08\00\00\00\01\00\00\00axpy_f32", [1032 x i8] zeroinitializer }>
@__offload_rs_record_scale = constant <{ [29 x i8], [1035 x i8] }> <{ [29 x i8] c"OFFRSK044\12\00\00\00\00\00\00\05\00\00\00\01\00\00\00scale", [1035 x i8] zeroinitializer }>
; A declared record: its kernel is in another module (another codegen unit).
@__offload_rs_record_elsewhere = external constant [1064 x i8]
@not_a_record = constant [4 x i8] c"OFFR"

define void @not_a_kernel(double %d) {
  ret void
}

define void @axpy_f32(float %a, ptr %x, i64 %n) {
  ret void
}

define void @scale(ptr %p, float %a) {
  store float %a, ptr %p
  ret void
}

;--- magic.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"
@__offload_rs_record_scale = constant <{ [29 x i8], [1035 x i8] }> <{ [29 x i8] c"OFFRSK024\12\00\00\00\00\00\00\05\00\00\00\01\00\00\00scale", [1035 x i8] zeroinitializer }>

define void @scale(ptr %p, float %a) {
  store float %a, ptr %p
  ret void
}

;--- size.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"
@__offload_rs_record_scale = constant <{ [29 x i8], [871 x i8] }> <{ [29 x i8] c"OFFRSK044\12\00\00\00\00\00\00\05\00\00\00\01\00\00\00scale", [871 x i8] zeroinitializer }>

define void @scale(ptr %p, float %a) {
  store float %a, ptr %p
  ret void
}

;--- len.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"
@__offload_rs_record_scale = constant <{ [29 x i8], [1035 x i8] }> <{ [29 x i8] c"OFFRSK044\12\00\00\00\00\00\00\C8\00\00\00\01\00\00\00scale", [1035 x i8] zeroinitializer }>

define void @scale(ptr %p, float %a) {
  store float %a, ptr %p
  ret void
}

;--- other.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"
@__offload_rs_record_scale = constant <{ [30 x i8], [1034 x i8] }> <{ [30 x i8] c"OFFRSK044\12\00\00\00\00\00\00\06\00\00\00\01\00\00\00scale2", [1034 x i8] zeroinitializer }>

define void @scale(ptr %p, float %a) {
  store float %a, ptr %p
  ret void
}

;--- pointer.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"
@__offload_rs_record_scale = constant { i64, [1056 x i8] } { i64 ptrtoint (ptr @scale to i64), [1056 x i8] zeroinitializer }

define void @scale(ptr %p, float %a) {
  store float %a, ptr %p
  ret void
}

;--- missing.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"
@__offload_rs_record_gone = constant <{ [28 x i8], [1036 x i8] }> <{ [28 x i8] c"OFFRSK044\12\00\00\00\00\00\00\04\00\00\00\01\00\00\00gone", [1036 x i8] zeroinitializer }>

define void @scale(ptr %p, float %a) {
  store float %a, ptr %p
  ret void
}
