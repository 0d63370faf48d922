// The launch contract written in Rust source on stable rustc: a descriptor
// static with a documented export name, `extern "C"` declarations of the
// kernel and of the data-region functions. rustc runs offload-host through
// -Cpasses (one codegen unit, so the static and the calls are in one module).
// REQUIRES: rustc, libomptarget
// RUN: rm -rf %t && split-file %s %t
// RUN: %device-image -passes=offload-wrap-kernels %t/dev.ll %t/dev.so
// RUN: %rustc -O -Ccodegen-units=1 '-Cpasses=offload-host<image=%t/dev.so>' %t/main.rs -o %t/main %rust-link-omptarget
// RUN: %run-offload %t/dev.so %t/main | %FileCheck %s
// RUN: %rustc -Copt-level=0 -Ccodegen-units=1 '-Cpasses=offload-host<image=%t/dev.so>' %t/main.rs -o %t/main0 %rust-link-omptarget
// RUN: %run-offload %t/dev.so %t/main0 | %FileCheck %s

// CHECK: [3, 6, 9, 4, 5]
// CHECK-NEXT: in region: [3, 6, 9, 4, 5]
// CHECK-NEXT: [27, 54, 81, 36, 45]
// CHECK-NEXT: sum 15

//--- main.rs
// scale: argument 0 is TO|FROM (3) with 4-byte elements counted by argument 1
// (LEN = 1 + 1); argument 1 is inferred (a literal).
#[unsafe(export_name = "__offload_launch.scale")]
pub static SCALE: [u64; 15] = [1, 1, 1, 1, 1, 1, 1, 0, 2, 3, 4, 2, 0, 0, 0];

// sum: `&[i32; 5]` TO 20 bytes, `&mut i64` TO|FROM 8 bytes. With -O rustc
// marks references readonly/dereferenceable(N), which the pass would infer
// from; at -Copt-level=0 it emits no such attributes, so Rust source spells
// pointer arguments out in the descriptor.
#[unsafe(export_name = "__offload_launch.sum")]
pub static SUM: [u64; 15] = [1, 0, 0, 0, 0, 0, 0, 0, 2, 1, 20, 0, 3, 8, 0];

unsafe extern "C" {
    fn scale(p: *mut i32, n: usize);
    fn sum(values: &[i32; 5], total: &mut i64);
    fn __offload_data_begin(p: *const u8, size: u64, map_type: u64);
    fn __offload_data_end(p: *const u8, size: u64, map_type: u64);
}

fn main() {
    let mut v = vec![1i32, 2, 3, 4, 5];
    let n = std::env::args().count() + 2; // 3, known only at run time
    unsafe { scale(v.as_mut_ptr(), n) };
    println!("{v:?}");
    let bytes = (v.len() * 4) as u64;
    unsafe {
        __offload_data_begin(v.as_ptr().cast(), bytes, 3);
        scale(v.as_mut_ptr(), v.len());
        scale(v.as_mut_ptr(), v.len());
        println!("in region: {v:?}");
        __offload_data_end(v.as_ptr().cast(), bytes, 3);
    }
    println!("{v:?}");
    let mut total = 0i64;
    unsafe { sum(&[1, 2, 3, 4, 5], &mut total) };
    println!("sum {total}");
}

//--- dev.ll
target triple = "x86_64-unknown-linux-gnu"

define void @scale(ptr %p, i64 %n) !offload.kernel !0 {
entry:
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %exit, label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %q = getelementptr i32, ptr %p, i64 %i
  %v = load i32, ptr %q
  %v3 = mul i32 %v, 3
  store i32 %v3, ptr %q
  %i1 = add i64 %i, 1
  %more = icmp ult i64 %i1, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

define void @sum(ptr %values, ptr %total) !offload.kernel !0 {
  %v = load <5 x i32>, ptr %values, align 4
  %s = call i32 @llvm.vector.reduce.add.v5i32(<5 x i32> %v)
  %w = sext i32 %s to i64
  store i64 %w, ptr %total
  ret void
}
declare i32 @llvm.vector.reduce.add.v5i32(<5 x i32>)
!0 = !{}
