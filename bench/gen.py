#!/usr/bin/env python3
"""Module generators for the offload-passes benchmarks (bench/bench.py).

Each generator writes textual IR with `n` kernels to a file. Usage:
    python3 bench/gen.py KIND N OUT.ll
KIND: abi | bcc | wrap | dae | small | host-device | host-launch
(host-* are for the offload-host pass; see bench.py).
"""

import sys

AMDGCN_DL = (
    "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-"
    "p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-"
    "v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-"
    "S32-A5-G1-ni:7:8:9"
)
X86_DL = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"


def header(out, dl, triple):
    out.write(f'target datalayout = "{dl}"\ntarget triple = "{triple}"\n\n')


def gen_abi(n, out):
    """`amdgpu-kernel-abi` input: per kernel a first-class struct by value,
    a rustc-style `dead_on_return` indirect aggregate, a split pair named by
    an `!offload.aggregate.args` hint (params 2..3: one 16-byte, 8-aligned
    {i64, i32}), a scalar and a pointer; the body reads every argument."""
    header(out, AMDGCN_DL, "amdgcn-amd-amdhsa")
    out.write("%S = type { i32, i32, i32 }\n\n")
    body = (
        "  %a = extractvalue %S %s, 1\n"
        "  %b = load i32, ptr %r, align 4\n"
        "  %c = trunc i64 %t.0 to i32\n"
        "  %s1 = add i32 %a, %b\n"
        "  %s2 = add i32 %s1, %c\n"
        "  %s3 = add i32 %s2, %t.1\n"
        "  %s4 = add i32 %s3, %n\n"
        "  store i32 %s4, ptr addrspace(1) %out, align 4\n"
        "  ret void\n}\n\n"
    )
    for i in range(n):
        out.write(
            f"define amdgpu_kernel void @k{i}(%S %s, ptr dead_on_return noalias noundef "
            "readonly align 4 captures(none) dereferenceable(12) %r, i64 %t.0, i32 %t.1, "
            "i32 %n, ptr addrspace(1) %out) !offload.aggregate.args !0 {\n" + body
        )
    out.write("!0 = !{!1}\n!1 = !{i32 2, i32 2, i64 16, i64 8}\n")


def gen_bcc(n, out):
    """`byref-callee-copy` input: per kernel one byref struct that is only
    read (gets `readonly`) and one written through an addrspacecast (gets
    a private copy), plus a scalar and a pointer."""
    header(out, AMDGCN_DL, "amdgcn-amd-amdhsa")
    out.write("%S = type { i32, i32, i32 }\n\n")
    body = (
        "  %g = addrspacecast ptr addrspace(4) %w to ptr\n"
        "  %f = getelementptr inbounds i8, ptr %g, i64 4\n"
        "  store i32 %n, ptr %f, align 4\n"
        "  %a = load i32, ptr %g, align 4\n"
        "  %q = getelementptr inbounds i8, ptr addrspace(4) %s, i64 8\n"
        "  %b = load i32, ptr addrspace(4) %q, align 4\n"
        "  %c = add i32 %a, %b\n"
        "  store i32 %c, ptr addrspace(1) %out, align 4\n"
        "  ret void\n}\n\n"
    )
    for i in range(n):
        out.write(
            f"define amdgpu_kernel void @k{i}(ptr addrspace(4) noalias byref(%S) align 4 %s, "
            "ptr addrspace(4) noalias byref([16 x i8]) align 8 %w, i32 %n, "
            "ptr addrspace(1) %out) {\n" + body
        )


# The body of every `wrap` kernel (and `dae` function): reads each parameter.
WRAP_BODY = (
    "  %x = fptosi float %f to i32\n"
    "  %y = fptosi double %d to i32\n"
    "  %z = trunc i64 %m to i32\n"
    "  %s1 = add i32 %n, %x\n"
    "  %s2 = add i32 %s1, %y\n"
    "  %s3 = add i32 %s2, %z\n"
    "  store i32 %s3, ptr addrspace(1) %a, align 4\n"
    "  ret void\n}\n\n"
)


def gen_wrap(n, out):
    """`offload-wrap-kernels` input: pointer, narrow int, float, double and
    i64 parameters (every slot kind except byval)."""
    header(out, AMDGCN_DL, "amdgcn-amd-amdhsa")
    for i in range(n):
        out.write(
            f"define amdgpu_kernel void @k{i}(ptr addrspace(1) %a, i32 %n, float %f, "
            "double %d, i64 %m) {\n" + WRAP_BODY
        )


def gen_dae(n, out):
    """Reference input for LLVM's own `deadargelim` at the sizes of `wrap`:
    the same functions and bodies, `internal` and with one more parameter,
    `i32 %dead`, that nothing uses. Dead argument elimination rewrites each
    one the way offload-wrap-kernels rewrites a kernel: a new function of
    the new type, the body spliced over, names and uses moved, the old
    function erased."""
    header(out, AMDGCN_DL, "amdgcn-amd-amdhsa")
    for i in range(n):
        out.write(
            f"define internal void @k{i}(ptr addrspace(1) %a, i32 %n, float %f, "
            "double %d, i64 %m, i32 %dead) {\n" + WRAP_BODY
        )


def gen_small(n, out):
    """A small module for the plugin load-cost check (n kernels of `abi`)."""
    gen_abi(n, out)


def gen_host_device(n, out, image_bytes=0):
    """Device module for an offload-host image (an x86_64 CPU image): kernels
    `k<i>(ptr %a, i64 %n) !offload.kernel` that set a[0..n) to i (run through
    offload-wrap-kernels, which adds the dyn pointer and the manifest), plus,
    when `image_bytes` is set, an exported constant array of that many bytes
    (a constant zero array stays in .rodata, so the image grows by that much)."""
    header(out, X86_DL, "x86_64-unknown-linux-gnu")
    if image_bytes:
        out.write(f"@blob = constant [{image_bytes} x i8] zeroinitializer, align 16\n\n")
    for i in range(n):
        out.write(
            f"define void @k{i}(ptr %a, i64 %n) !offload.kernel !0 {{\n"
            "entry:\n  %empty = icmp eq i64 %n, 0\n  br i1 %empty, label %exit, label %loop\n"
            "loop:\n"
            "  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]\n"
            "  %p = getelementptr inbounds i64, ptr %a, i64 %i\n"
            f"  store i64 {i}, ptr %p, align 8\n"
            "  %i.next = add nuw i64 %i, 1\n"
            "  %done = icmp uge i64 %i.next, %n\n"
            "  br i1 %done, label %exit, label %loop\n"
            "exit:\n  ret void\n}\n\n"
        )
    out.write("!0 = !{}\n")


# Whether a host launch site passes the leading dyn pointer itself. The
# runtime adds it for kernel-arguments version 3, so the host calls the kernel
# with its own arguments only; flip this if offload-host's contract differs.
HOST_CALL_PASSES_DYN_PTR = False


def gen_host_launch(n_sites, out, n_kernels=1):
    """Host module for offload-host: `n_sites` launch sites, each a call to an
    external declaration named like a kernel of the image, with a pointer and
    a scalar argument (the host pass's launch contract: a call to a declared
    kernel symbol of the image is a launch). Sites cycle over `n_kernels`."""
    header(out, X86_DL, "x86_64-unknown-linux-gnu")
    # dereferenceable gives the mapped size (the contract refuses pointers of
    # unknown size); the scalar is a literal.
    params, args = (
        ("ptr, ptr dereferenceable(64), i64", "ptr null, ptr %a, i64 %n")
        if HOST_CALL_PASSES_DYN_PTR
        else ("ptr dereferenceable(64), i64", "ptr %a, i64 %n")
    )
    for k in range(n_kernels):
        out.write(f"declare void @k{k}({params})\n")
    out.write("\ndefine void @host(ptr %a, i64 %n) {\nentry:\n")
    for s in range(n_sites):
        out.write(f"  call void @k{s % n_kernels}({args})\n")
    out.write("  ret void\n}\n")


GENERATORS = {
    "abi": gen_abi,
    "bcc": gen_bcc,
    "wrap": gen_wrap,
    "dae": gen_dae,
    "small": gen_small,
    "host-device": gen_host_device,
    "host-launch": gen_host_launch,
}


def main(argv):
    if len(argv) != 4 or argv[1] not in GENERATORS:
        sys.exit(__doc__)
    with open(argv[3], "w") as out:
        GENERATORS[argv[1]](int(argv[2]), out)


if __name__ == "__main__":
    main(sys.argv)
