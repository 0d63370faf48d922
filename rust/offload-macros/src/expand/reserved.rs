//! Symbols a kernel cannot take. A kernel's symbol is exported from its
//! image; in the host (x86_64) image, which libomptarget's host plugin
//! loads as a shared object, a kernel named like a C library function the
//! image calls (the grid runner's `calloc`, `free`, `pthread_create`;
//! `memcpy` and the math functions core's code calls) would be called in
//! its place, and a kernel named like a libomptarget or OpenMP entry point
//! would take that one's place in the program's symbol lookup.

/// Functions of the C library and libm the images call.
const C_LIBRARY: &[&str] = &[
    "abort",
    "aligned_alloc",
    "atexit",
    "bcmp",
    "calloc",
    "exit",
    "free",
    "malloc",
    "memalign",
    "memchr",
    "memcmp",
    "memcpy",
    "memmove",
    "memset",
    "mmap",
    "munmap",
    "posix_memalign",
    "realloc",
    "strlen",
    "syscall",
    "write",
    "acos",
    "acosf",
    "asin",
    "asinf",
    "atan",
    "atanf",
    "atan2",
    "atan2f",
    "cbrt",
    "cbrtf",
    "ceil",
    "ceilf",
    "copysign",
    "copysignf",
    "cos",
    "cosf",
    "cosh",
    "coshf",
    "exp",
    "expf",
    "exp2",
    "exp2f",
    "expm1",
    "expm1f",
    "fabs",
    "fabsf",
    "fdim",
    "fdimf",
    "floor",
    "floorf",
    "fma",
    "fmaf",
    "fmax",
    "fmaxf",
    "fmin",
    "fminf",
    "fmod",
    "fmodf",
    "hypot",
    "hypotf",
    "ldexp",
    "ldexpf",
    "log",
    "logf",
    "log10",
    "log10f",
    "log1p",
    "log1pf",
    "log2",
    "log2f",
    "pow",
    "powf",
    "rint",
    "rintf",
    "round",
    "roundf",
    "sin",
    "sinf",
    "sincos",
    "sincosf",
    "sinh",
    "sinhf",
    "sqrt",
    "sqrtf",
    "tan",
    "tanf",
    "tanh",
    "tanhf",
    "trunc",
    "truncf",
];

/// The entry points of programs and shared objects.
const ENTRY_POINTS: &[&str] = &["main", "_start", "_init", "_fini"];

/// Prefixes of the C library's and the runtimes' names.
const PREFIXES: &[(&str, &str)] = &[
    ("pthread_", "the C library's threads (the grid runner's)"),
    ("omp_", "the OpenMP runtime (libomp, libomptarget)"),
    ("ompx_", "the OpenMP runtime (libomp, libomptarget)"),
    ("__kmpc_", "the OpenMP runtime (libomp, libomptarget)"),
    ("__tgt_", "libomptarget"),
    ("__offload", "offload's and offload-passes' own symbols"),
    ("llvm.", "LLVM's intrinsics"),
    ("__llvm", "LLVM's runtime"),
    ("__nv_", "NVIDIA's libdevice"),
    ("__ocml_", "AMD's device libraries"),
    ("__ockl_", "AMD's device libraries"),
];

/// What `symbol` clashes with, if it does.
pub fn clash(symbol: &str) -> Option<String> {
    if C_LIBRARY.contains(&symbol) {
        return Some(format!(
            "the C library's `{symbol}`, which the images or the grid runner call"
        ));
    }
    if ENTRY_POINTS.contains(&symbol) {
        return Some(format!(
            "the entry point `{symbol}` of programs and shared objects"
        ));
    }
    PREFIXES
        .iter()
        .find(|(prefix, _)| symbol.starts_with(prefix))
        .map(|(prefix, owner)| format!("the names `{prefix}...` of {owner}"))
}

#[cfg(test)]
mod tests {
    use super::clash;

    #[test]
    fn c_library_and_runtime_names_clash() {
        for symbol in [
            "calloc",
            "free",
            "memcpy",
            "sinf",
            "pthread_join",
            "omp_get_num_devices",
        ] {
            assert!(clash(symbol).is_some(), "{symbol}");
        }
        assert!(clash("calloc").unwrap().contains("`calloc`"));
        assert!(
            clash("__tgt_register_lib")
                .unwrap()
                .contains("libomptarget")
        );
        for symbol in ["scale", "saxpy", "fill", "free_list", "my_calloc", "sines"] {
            assert_eq!(clash(symbol), None, "{symbol}");
        }
    }
}
