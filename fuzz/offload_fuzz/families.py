"""The generator families and the pipelines each one's modules go through.

A family turns a seed into modules, each for one target; every module
runs through each selected pipeline of its target, and one module through
one pipeline is one case. Pipelines are (name, pipeline text, target,
checks): "lint" = no write to constant memory after the pipeline, "llc" =
the output compiles to an object.
"""

import random

from . import gen_device, gen_host
from .tools import llvm_stress

DEVICE_PIPELINES = [
    ("amdgpu-kernel-abi", "amdgpu-kernel-abi", "amdgpu", ()),
    ("byref-callee-copy", "byref-callee-copy", "amdgpu", ("lint",)),
    ("abi+copy", "amdgpu-kernel-abi,byref-callee-copy", "amdgpu", ("lint",)),
]
WRAP_PIPELINE = ("offload-wrap-kernels", "offload-wrap-kernels", "x86", ())


class Module:
    """One generated module: `stem` names it in logs and --keep files."""

    def __init__(self, target, stem, ir, expect):
        self.target, self.stem, self.ir, self.expect = target, stem, ir, expect


class Family:
    def __init__(self, name, pipelines, generate, doc, unit="seeds"):
        self.name = name
        self.pipelines = pipelines
        self.generate = generate  # (seed, targets, ctx) -> [Module]
        self.doc = doc
        self.unit = unit


def stress_size(ctx, seed):
    return ctx.size or random.Random(seed).randint(10, 80)


def gen_stress(seed, targets, ctx):
    stress = llvm_stress(seed, stress_size(ctx, seed))
    modules = []
    for target in targets:
        if target == "host":
            ir, expect = gen_host.gen_host(stress, seed)
        else:
            ir, kernel = gen_device.make_kernel(stress, seed, target)
            expect = kernel.expect
        modules.append(Module(target, f"seed{seed}", ir, expect))
    return modules


def gen_debuginfo(seed, targets, ctx):
    from . import gen_debuginfo as g
    stress = llvm_stress(seed, stress_size(ctx, seed))
    return [Module(t, f"seed{seed}", *g.make_di_kernel(stress, seed, t)) for t in targets]


def gen_special(seed, targets, ctx):
    from . import gen_special as g
    stress = llvm_stress(seed, stress_size(ctx, seed))
    return [Module(t, f"seed{seed}", *g.make_special_kernel(stress, seed, t)) for t in targets]


def gen_rustc(seed, targets, ctx):
    from . import gen_rustc as g
    return [Module(t, stem, ir, expect) for t in targets
            for stem, ir, expect in g.rustc_modules(seed, t, ctx)]


FAMILIES = {
    "stress": Family("stress", DEVICE_PIPELINES + [
        WRAP_PIPELINE,
        # The pass text gets `<image=...>` (the campaign's image) and the
        # module's own extra parameters.
        ("offload-host", "offload-host", "host", ("llc",)),
    ], gen_stress, "llvm-stress bodies as AMDGPU and x86 kernels and host modules"),
    "debuginfo": Family("debuginfo", DEVICE_PIPELINES + [WRAP_PIPELINE], gen_debuginfo,
                        "kernels whose DISubprogram describes the parameters, truly or not"),
    "special": Family("special", DEVICE_PIPELINES + [WRAP_PIPELINE], gen_special,
                      "naked, musttail, optnone and other kernels a signature change can break"),
    "rustc": Family("rustc", DEVICE_PIPELINES + [
        ("offload-wrap-kernels", "offload-wrap-kernels", "amdgpu", ()),
    ], gen_rustc, "rustc 1.95 -Cdebuginfo=2 kernels with random #[repr(C)] signatures", unit="crates"),
}
