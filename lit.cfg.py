# lit configuration for the offload-passes IR tests (test-ir/).
#
# Run: lit-22 -sv test-ir   (after `cargo build --release`)
#
# Substitutions:
#   %plugin   absolute path of liboffload_passes.so
#   %opt      opt-22 with the plugin loaded (-load-pass-plugin=%plugin)
#   %llc      llc-22
#   %clang    clang-22        %lld     ld.lld-22
#   %FileCheck / FileCheck, not, count: LLVM 22's
#   %rustc    rustc with RUSTC_BOOTSTRAP=1 and the plugin (-Zllvm-plugins=%plugin)
#   %omptarget_libdir  the directory holding libomptarget.so
#   %run_offload IMAGE PROGRAM (runs it, then removes its /tmp/tmpfile_* image copies)
#   %examples (the bundled examples), %fuzz (the fuzz/ directory), %python, %kernarg_layout (prints each AMDGPU kernel's explicit kernarg offsets:sizes), %inputs
# Features: 'rustc' when rustc is on PATH, 'libomptarget' when the runtime is installed.

import os
import shutil
import subprocess
import sys

import lit.formats

config.name = "offload-passes"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll", ".test", ".rs"]
# Tests live in test-ir/; run `lit-22 test-ir`. Inputs/ holds data, not tests.
# (The root fuzz/ directory is kept out by its own lit.local.cfg, so that
# test-ir/fuzz/ is found: lit excludes a name at every depth.)
config.excludes = ["Inputs", "target", "examples", "plugin", "passes", "bench"]
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

# The examples' scripts (examples/*/run.sh, host/build.rs) load the plugin
# named here, so they test the same build as %plugin.
config.environment["OFFLOAD_PASSES_PLUGIN"] = plugin

tool = lambda name: os.path.join(bindir, name)
config.substitutions.append(("%plugin", plugin))
config.substitutions.append(("%opt", f"{tool('opt')} -load-pass-plugin={plugin}"))
config.substitutions.append(("%llc", tool("llc")))
config.substitutions.append(("%clang", tool("clang")))
config.substitutions.append(("%lld", tool("ld.lld")))
config.substitutions.append(("%FileCheck", tool("FileCheck")))
config.substitutions.append(("%omptarget_libdir", llvm_libdir()))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%kernarg_layout", f"{sys.executable} {os.path.join(root, 'test-ir', 'Inputs', 'kernarg-layout.py')}"))
# Runs a program that loads an image through libomptarget's host plugin, then
# removes the /tmp/tmpfile_* copies of that image the plugin leaves behind.
config.substitutions.append(("%run_offload", f"sh {os.path.join(root, 'scripts', 'run-offload.sh')}"))
config.substitutions.append(("%examples", os.path.join(root, "examples")))
config.substitutions.append(("%inputs", os.path.join(root, "test-ir", "Inputs")))
config.substitutions.append(("%fuzz", os.path.join(root, "fuzz")))

rustc = shutil.which("rustc")
if rustc:
    config.available_features.add("rustc")
    config.environment["RUSTC_BOOTSTRAP"] = "1"
    config.substitutions.append(("%rustc", f"{rustc} -Zllvm-plugins={plugin}"))
if os.path.exists(os.path.join(llvm_libdir(), "libomptarget.so")):
    config.available_features.add("libomptarget")
