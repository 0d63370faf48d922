# lit configuration for the offload-passes IR tests (test-ir/).
#
# Run: lit-22 -sv test-ir, or lit-22 -sv . (the same tests), after
# `cargo build --release`.
#
# Tools (LLVM 22's, first on PATH, so FileCheck, not, count and split-file
# are the right ones too):
#   %plugin    absolute path of liboffload_passes.so
#   %opt       opt-22 with the plugin loaded (-load-pass-plugin=%plugin)
#   %llc       llc-22        %clang   clang-22        %lld   ld.lld-22
#   %FileCheck FileCheck-22
#   %rustc     rustc with RUSTC_BOOTSTRAP=1 and the plugin (-Zllvm-plugins=%plugin)
#   %python    this Python
# Places: %examples (the bundled examples), %fuzz (fuzz/), %inputs
#   (test-ir/Inputs/), %omptarget_libdir (the directory holding libomptarget.so)
#
# Recipes (each script's header says exactly what it runs; %device-image and
# %host-link leave their intermediate files next to their output):
#   %device-image [-passes=PIPELINE] DEVICE IMAGE [LLC-OPTION...]
#       a device image from device IR (test-ir/Inputs/device-image.sh):
#       [%opt -passes=PIPELINE DEVICE -o BASE.bc]
#       %llc -O2 -relocation-model=pic -filetype=obj [LLC-OPTION...] DEVICE|BASE.bc -o BASE.o
#       %lld -shared BASE.o -o IMAGE              (BASE: IMAGE without .so)
#   %host-link HOST IMAGE EXE
#       a host program (test-ir/Inputs/host-link.sh):
#       %opt -passes='offload-host<image=IMAGE>' HOST -o BASE.bc
#       %clang -O1 BASE.bc -o EXE %link-omptarget  (BASE: EXE without .exe)
#   %run-offload IMAGE EXE [ARG...]
#       runs EXE with OMP_TARGET_OFFLOAD=MANDATORY, then removes the
#       /tmp/tmpfile_* copies of IMAGE that libomptarget's host plugin leaves
#       (scripts/run-offload.sh); exits with EXE's status
#   %no-output-file OUT COMMAND [ARG...]
#       removes OUT, runs COMMAND and fails if OUT exists afterwards
#       (test-ir/Inputs/no-output-file.sh); exits with COMMAND's status:
#       `%no-output-file %t.out not %opt ... -o %t.out` is a refused input
#       that writes nothing
#   %link-omptarget       clang flags linking libomptarget (-L, -l, -rpath)
#   %rust-link-omptarget  the same as rustc flags
#   %amdgpu-rustc         %rustc --target amdgcn-amd-amdhsa -Ctarget-cpu=gfx90a --crate-type cdylib
#   %cargo-target         the cargo target directory the Rust examples' tests share
#   %device-target        the device builds' shared target directory (OFFLOAD_DEVICE_TARGET_DIR)
#   %repo                 the repository root
#   %read-manifest IMAGE [--digest]
#       the kernel manifests of a linked device image, one block per kernel
#       (scripts/read-manifest.py, the format's example reader)
#   %ptxas    ptxas (feature 'ptxas': $PTXAS, else tools/bin/ptxas from
#       scripts/setup.sh, else ptxas on PATH)
#   %elf_info IMAGE [--data PREFIX]...
#       what a device ELF holds, one fact a line: machine, a cubin's sm, its
#       kernels (.entry) and device functions, a cubin's parameter table,
#       notes, data symbols with their bytes, sections
#       (test-ir/Inputs/elf-info.py)
#   %kernarg_layout FILE [LLC-OPTION...]
#       each AMDGPU kernel's explicit kernarg offset:size:kind, one line per
#       kernel (test-ir/Inputs/kernarg-layout.py); FILE ('-': stdin) is IR or
#       bitcode (compiled with %llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx90a
#       [LLC-OPTION...]), a linked code object (llvm-readobj --notes), or llc's
#       assembly
#
# Features: 'rustc' when rustc is on PATH, 'libomptarget' when the runtime is installed,
# 'valgrind' when valgrind is on PATH, 'ptxas' when NVIDIA's assembler is found
# ($PTXAS, tools/bin/ptxas or PATH), 'clang-offload' when clang's OpenMP offload driver can link
# (clang-linker-wrapper and libomp), 'mpirun' when Open MPI's mpirun is on PATH
# (scripts/setup.sh installs it; the MPI example's test).

import os
import shutil
import subprocess
import sys

import lit.formats

config.name = "offload-passes"
config.test_format = lit.formats.ShTest(execute_external=False)
# The suite's root is the repository root, so `lit-22 .` and `lit-22 test-ir`
# name the same suite. Tests live only under test-ir/, whose lit.local.cfg
# names the test suffixes; elsewhere the tree's .ll and .rs files are
# sources, not tests (fuzz/findings/, rust/, examples/), so no suffix here.
# (lit's `excludes` match a name at every depth: they could not keep fuzz/
# and rust/ out without hiding test-ir/fuzz/ and test-ir/rust/ too.)
config.suffixes = []
# Inputs/ folders hold data, not tests; target/ is only skipped, for speed.
config.excludes = ["Inputs", "target"]
root = os.path.dirname(os.path.abspath(__file__))
config.test_source_root = root
config.test_exec_root = os.path.join(root, "target", "lit")


def llvm_bindir():
    try:
        out = subprocess.run(["llvm-config-22", "--bindir"], capture_output=True, text=True, check=True)
        return out.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        lit_config.fatal("llvm-config-22 not found: install llvm-22 (see README)")


def llvm_libdir():
    out = subprocess.run(["llvm-config-22", "--libdir"], capture_output=True, text=True, check=True)
    return out.stdout.strip()


bindir = llvm_bindir()
plugin = os.environ.get(
    "OFFLOAD_PASSES_PLUGIN", os.path.join(root, "target", "release", "liboffload_passes.so")
)
if not os.path.exists(plugin):
    lit_config.fatal(f"plugin not built: {plugin} (run `cargo build --release` first)")

# LLVM 22's tools first on PATH, so FileCheck, not and count are the right ones.
config.environment["PATH"] = os.pathsep.join([bindir, config.environment.get("PATH", os.environ["PATH"])])
for var in ["HOME", "RUSTUP_HOME", "CARGO_HOME", "RUSTUP_TOOLCHAIN", "TMPDIR"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]
# The extension-point variables must not leak into tests from the caller.
for var in ["OFFLOAD_PASSES_PIPELINE_START", "OFFLOAD_PASSES_OPTIMIZER_LAST", "RUST_LOG"]:
    config.environment.pop(var, None)

# The examples' scripts (scripts/run-example.sh, host/build.rs) load the plugin
# named here, so they test the same build as %plugin.
config.environment["OFFLOAD_PASSES_PLUGIN"] = plugin

libdir = llvm_libdir()
# The recipe scripts (test-ir/Inputs/*.sh, kernarg-layout.py) take their
# tools and libomptarget from here, so they use the same LLVM as %opt.
config.environment["LLVM_BINDIR"] = bindir
config.environment["LLVM_LIBDIR"] = libdir

tool = lambda name: os.path.join(bindir, name)
inputs = os.path.join(root, "test-ir", "Inputs")
link_omptarget = f"-L{libdir} -lomptarget -Wl,-rpath,{libdir}"
config.substitutions.append(("%plugin", plugin))
config.substitutions.append(("%opt", f"{tool('opt')} -load-pass-plugin={plugin}"))
config.substitutions.append(("%llc", tool("llc")))
config.substitutions.append(("%clang", tool("clang")))
config.substitutions.append(("%lld", tool("ld.lld")))
config.substitutions.append(("%FileCheck", tool("FileCheck")))
config.substitutions.append(("%omptarget_libdir", libdir))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%examples", os.path.join(root, "examples")))
config.substitutions.append(("%inputs", inputs))
config.substitutions.append(("%fuzz", os.path.join(root, "fuzz")))

# Recipes (see the header).
config.substitutions.append(("%device-image", f"sh {os.path.join(inputs, 'device-image.sh')}"))
config.substitutions.append(("%host-link", f"sh {os.path.join(inputs, 'host-link.sh')}"))
config.substitutions.append(
    ("%run-offload", f"env OMP_TARGET_OFFLOAD=MANDATORY sh {os.path.join(root, 'scripts', 'run-offload.sh')}")
)
config.substitutions.append(("%no-output-file", f"sh {os.path.join(inputs, 'no-output-file.sh')}"))
config.substitutions.append(("%link-omptarget", link_omptarget))
config.substitutions.append(
    ("%rust-link-omptarget", f"-L native={libdir} -l omptarget -C link-arg=-Wl,-rpath,{libdir}")
)
# The Rust examples' builds share one cargo target directory (dependencies
# built once): their crates have distinct names (cargo names a workspace
# crate's artifacts by name, version and path relative to the workspace root,
# so two examples' `kernels/` crates of one name would share files); a test
# that edits sources copies an example and uses its own.
config.substitutions.append(("%cargo-target", os.path.join(root, "target", "lit-cargo")))
# Every Rust test's device builds share one cargo target directory (the
# proc macros of the device build built once), under target/ where CI can
# write, not the user's cache.
device_target = os.path.join(root, "target", "lit-device")
config.environment["OFFLOAD_DEVICE_TARGET_DIR"] = device_target
config.substitutions.append(("%device-target", device_target))
config.substitutions.append(("%repo", root))
config.substitutions.append(
    ("%read-manifest", f"{sys.executable} {os.path.join(root, 'scripts', 'read-manifest.py')}")
)
config.substitutions.append(("%elf_info", f"{sys.executable} {os.path.join(inputs, 'elf-info.py')}"))
config.substitutions.append(("%kernarg_layout", f"{sys.executable} {os.path.join(inputs, 'kernarg-layout.py')}"))

if shutil.which("valgrind"):
    config.available_features.add("valgrind")
if shutil.which("mpirun"):
    config.available_features.add("mpirun")

rustc = shutil.which("rustc")
if rustc:
    config.available_features.add("rustc")
    config.environment["RUSTC_BOOTSTRAP"] = "1"
    config.substitutions.append(("%rustc", f"{rustc} -Zllvm-plugins={plugin}"))
    config.substitutions.append(
        ("%amdgpu-rustc", f"{rustc} -Zllvm-plugins={plugin} --target amdgcn-amd-amdhsa -Ctarget-cpu=gfx90a --crate-type cdylib")
    )
# ptxas: $PTXAS, else the one scripts/setup.sh puts in tools/bin/ (from
# NVIDIA's PyPI wheel), else ptxas on PATH.
ptxas = os.environ.get("PTXAS")
if not ptxas and os.access(os.path.join(root, "tools", "bin", "ptxas"), os.X_OK):
    ptxas = os.path.join(root, "tools", "bin", "ptxas")
ptxas = ptxas or shutil.which("ptxas")
if ptxas and os.access(ptxas, os.X_OK):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
if os.path.exists(os.path.join(libdir, "libomptarget.so")):
    config.available_features.add("libomptarget")
# clang's OpenMP offload driver: clang-linker-wrapper (clang-tools-22) and
# libomp (libomp-22-dev), which it links.
if os.path.exists(tool("clang-linker-wrapper")) and os.path.exists(os.path.join(libdir, "libomp.so")):
    config.available_features.add("clang-offload")
