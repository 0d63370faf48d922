; Host module following offload-host's launch contract: a call to an
; external declaration whose symbol is a kernel of the image is a launch.
; Map types and sizes come from the declaration's attributes: %y (no
; readonly/writeonly) is TO|FROM, %x (readonly) is TO, both 32 bytes
; (dereferenceable); %a and %n are literals.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@x = private constant [4 x double] [double 1.0, double 2.0, double 3.0, double 4.0]
@fmt = private constant [20 x i8] c"daxpy: %g %g %g %g\0A\00"

declare void @daxpy(ptr dereferenceable(32), ptr readonly dereferenceable(32), double, i32)
declare i32 @printf(ptr, ...)

define i32 @main() {
  %y = alloca [4 x double], align 8
  store [4 x double] [double 0.5, double 0.25, double -1.0, double 10.0], ptr %y
  call void @daxpy(ptr %y, ptr @x, double 2.5, i32 4)
  %y0 = load double, ptr %y
  %p1 = getelementptr double, ptr %y, i64 1
  %y1 = load double, ptr %p1
  %p2 = getelementptr double, ptr %y, i64 2
  %y2 = load double, ptr %p2
  %p3 = getelementptr double, ptr %y, i64 3
  %y3 = load double, ptr %p3
  call i32 (ptr, ...) @printf(ptr @fmt, double %y0, double %y1, double %y2, double %y3)
  ret i32 0
}
