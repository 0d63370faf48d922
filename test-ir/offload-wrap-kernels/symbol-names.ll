; Kernel symbols are names the manifest and offload-host read as UTF-8
; text: a symbol that is not UTF-8 is refused here, naming it escaped (a
; replaced byte would record another kernel's name). A UTF-8 symbol that is
; not ASCII is wrapped and recorded as it is.
; RUN: split-file %s %t
; RUN: not %opt -passes=offload-wrap-kernels -disable-output %t/bad.ll 2>&1 | %FileCheck %s --check-prefix=BAD
; RUN: %opt -passes=offload-wrap-kernels -S %t/good.ll | %FileCheck %s --check-prefix=GOOD
;
; An alias of a named kernel that cannot be a copy of its aliasee again (its
; type differs) is an error naming both:
; RUN: not %opt -passes='offload-wrap-kernels<kernels=k1:k2>' -disable-output %t/alias.ll 2>&1 | %FileCheck %s --check-prefix=ALIAS

; BAD: offload-wrap-kernels: kernel symbol 'k\xffbad' is not UTF-8: the kernel manifest and offload-host name kernels by UTF-8 text; give the kernel a UTF-8 (best: ASCII) symbol
; GOOD: @"__offload_manifest_gr\C3\B6\C3\9Fe" = constant
; GOOD: define void @"gr\C3\B6\C3\9Fe"(ptr %dyn_ptr, ptr %p)
; ALIAS: offload-wrap-kernels: kernel 'k2' is an alias of the identical function 'k1' (MergeFunctions merges identical unnamed_addr functions) and cannot be made a copy of it again: its signature is not that function's; run offload-wrap-kernels before MergeFunctions or compile with -Zmerge-functions=disabled

;--- bad.ll
target triple = "x86_64-unknown-linux-gnu"
define void @"k\FFbad"(ptr %p) !offload.kernel !0 {
  ret void
}
!0 = !{}

;--- good.ll
target triple = "x86_64-unknown-linux-gnu"
define void @"gr\C3\B6\C3\9Fe"(ptr %p) !offload.kernel !0 {
  ret void
}
!0 = !{}

;--- alias.ll
target triple = "x86_64-unknown-linux-gnu"
@k2 = unnamed_addr alias void (i64), ptr @k1
define void @k1(ptr %p) unnamed_addr {
  ret void
}
