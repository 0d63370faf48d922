"""The settings a batch is compiled at (rustc flags, where the passes run)
and the run-wide options the command line sets."""

PASSES = "amdgpu-kernel-abi,byref-callee-copy"
TARGET = ["--target", "amdgcn-amd-amdhsa", "-Ctarget-cpu=gfx90a"]

# mode: "opt" (rustc --emit=llvm-ir, then opt-22 -passes=PASSES), "start"
# (the plugin inside rustc, OFFLOAD_PASSES_PIPELINE_START=PASSES), "none"
# (rustc alone: the baseline the plugin fixes).
SETTINGS = {
    "O3-g2": ("3", True, "opt"),
    "O0-g2": ("0", True, "opt"),
    "O3-g2-start": ("3", True, "start"),
    "O0-g2-start": ("0", True, "start"),
    "O3-nodebug": ("3", False, "opt"),
    "O0-nodebug": ("0", False, "opt"),
    "O3-g2-none": ("3", True, "none"),
    "O3-g2-nomerge": ("3", True, "opt"),
}
# Extra rustc flags of a setting. rustc's MergeFunctions (on at -O3) makes one
# of two identical kernels an alias, which has no kernel descriptor; at the
# pipeline start the plugin stops it (kernels lose unnamed_addr), on rustc's
# finished .ll it can only warn. O3-g2-nomerge is O3-g2 as a user of that flow
# is told to build.
RUSTC_FLAGS = {"O3-g2-nomerge": ["-Zmerge-functions=disabled"]}
DEFAULT_SETTINGS = "O3-g2,O0-g2,O3-g2-start,O3-nodebug"

# Set by the command line before workers fork.
OPTIONS = {"self_test": False}
