// rustc cannot attach !offload.kernel, so it names kernels in the pass
// parameter: -Cpasses='offload-wrap-kernels<kernels=a:b>'. With value names
// dropped (-Zfewer-names) and the pass given twice, every kernel is still
// wrapped exactly once (rustc's own name-based guard wrapped twice here).
// REQUIRES: rustc
// RUN: %rustc --crate-type cdylib -Cpanic=abort -Copt-level=2 -Ccodegen-units=1 --emit=llvm-ir -o %t.ll %s \
// RUN:   -Cpasses='offload-wrap-kernels<kernels=scale:offset>'
// RUN: %FileCheck %s < %t.ll
// RUN: %rustc --crate-type cdylib -Cpanic=abort -Copt-level=2 -Ccodegen-units=1 --emit=llvm-ir -o %t.nn.ll %s -Zfewer-names \
// RUN:   -Cpasses='offload-wrap-kernels<kernels=scale:offset> offload-wrap-kernels<kernels=scale:offset>'
// RUN: %FileCheck %s --check-prefix=NN < %t.nn.ll

// CHECK-DAG: define void @scale(ptr %dyn_ptr, ptr noundef captures(none) %a, i64 %n, i64 %factor) {{.*}}!offload.wrapped
// CHECK-DAG: define void @offset(ptr %dyn_ptr, ptr noundef captures(none) %a, i64 %delta) {{.*}}!offload.wrapped
// CHECK-DAG: define {{.*}}@not_a_kernel(double {{.*}}%x)
// NN-DAG: define void @scale(ptr %0, ptr noundef captures(none) %1, i64 %2, i64 %3) {{.*}}!offload.wrapped
// NN-DAG: define void @offset(ptr %0, ptr noundef captures(none) %1, i64 %2) {{.*}}!offload.wrapped
// NN-NOT: define void @scale(ptr %0, ptr %1,

#![no_std]

#[unsafe(no_mangle)]
pub unsafe extern "C" fn scale(a: *mut f64, n: i32, factor: f64) {
    let mut i = 0;
    while i < n as isize {
        unsafe { *a.offset(i) *= factor };
        i += 1;
    }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn offset(a: *mut f32, delta: f32) {
    unsafe { *a += delta };
}

#[unsafe(no_mangle)]
pub extern "C" fn not_a_kernel(x: f64) -> f64 {
    x * 2.0
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}
