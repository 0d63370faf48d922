// Identical kernels, one per element type (copy_i32, copy_u32), at
// -Copt-level=3 with fat LTO: MergeFunctions makes copy_u32 an alias of
// copy_i32 before the pass sees the module. The alias is a kernel named in
// kernels=, so the pass makes it a function again and wraps both: each has
// the launch signature and its own manifest.
// REQUIRES: rustc
// RUN: %rustc --crate-type cdylib -Cpanic=abort -Copt-level=3 -Clto=fat -Ccodegen-units=1 --emit=llvm-ir -o %t.ll %s \
// RUN:   -Cpasses='offload-wrap-kernels<kernels=copy_i32:copy_u32>'
// RUN: %FileCheck %s < %t.ll

// CHECK-DAG: @__offload_manifest_copy_i32 = constant
// CHECK-DAG: @__offload_manifest_copy_u32 = constant
// CHECK-DAG: define void @copy_i32(ptr {{[^,]*}}%dyn_ptr, ptr {{[^,]*}}, ptr {{[^,]*}}, i64 {{[^,]*}})
// CHECK-DAG: define void @copy_u32(ptr {{[^,]*}}, ptr {{[^,]*}}, ptr {{[^,]*}}, i64 {{[^,]*}})
// CHECK-NOT: @copy_u32 = {{.*}}alias

#![no_std]

#[unsafe(no_mangle)]
pub unsafe extern "C" fn copy_i32(dst: *mut i32, src: *const i32, n: usize) {
    let mut i = 0;
    while i < n {
        unsafe { *dst.add(i) = *src.add(i) };
        i += 1;
    }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn copy_u32(dst: *mut u32, src: *const u32, n: usize) {
    let mut i = 0;
    while i < n {
        unsafe { *dst.add(i) = *src.add(i) };
        i += 1;
    }
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}
