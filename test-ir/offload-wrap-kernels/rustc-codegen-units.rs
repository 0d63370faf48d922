// rustc with several codegen units runs the pass once per unit, and each
// unit holds only some of the kernels kernels= names (one module each here).
// Without the flag that is an error that says what to do; with
// `codegen-unit` each unit wraps the kernels it defines, and the linked
// library has every kernel's manifest.
// REQUIRES: rustc
// RUN: not %rustc --crate-type cdylib -Cpanic=abort -Copt-level=2 -Ccodegen-units=4 -o %t.err.so %s \
// RUN:   -Cpasses='offload-wrap-kernels<kernels=k1:k2:k3>' 2>&1 | %FileCheck %s --check-prefix=ERR
// RUN: %rustc --crate-type cdylib -Cpanic=abort -Copt-level=2 -Ccodegen-units=4 -o %t.so %s \
// RUN:   -Cpasses='offload-wrap-kernels<kernels=k1:k2:k3;codegen-unit>'
// RUN: llvm-nm %t.so | %FileCheck %s

// ERR: offload-wrap-kernels: kernels=: no function named '{{k[123]}}'{{.*}} in the module (if rustc splits the crate into several codegen units, each holds only some kernels: add the flag 'codegen-unit' (kernels=a:b;codegen-unit) or build with -Ccodegen-units=1 or -Clto=fat)

// CHECK-DAG: __offload_manifest_k1
// CHECK-DAG: __offload_manifest_k2
// CHECK-DAG: __offload_manifest_k3

#![no_std]

pub mod a {
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn k1(p: *mut f64, x: f64) {
        unsafe { *p = x }
    }
}

pub mod b {
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn k2(p: *mut f32, x: f32) {
        unsafe { *p = x }
    }
}

pub mod c {
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn k3(p: *mut i32, x: i32) {
        unsafe { *p = x }
    }
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}
