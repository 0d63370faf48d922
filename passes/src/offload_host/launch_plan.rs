//! A planned launch: how each argument is passed ([`ArgPlan`]), where the
//! grid comes from ([`Grid`]) and what ties the launch to its images
//! ([`ImageTie`]). What planning ([`super::plan`]) produces and lowering
//! ([`super::kernel_launch`]) consumes; a leaf.

use inkwell::values::{FunctionValue, InstructionValue};

use super::descriptor::map_type;
use crate::ir::naming;

/// How one argument is passed.
#[derive(Debug, Clone, Copy)]
pub enum ArgPlan {
    /// By value in the base-pointer slot (LITERAL|IMPLICIT or as given).
    Literal { map: u64, size: u64 },
    /// A pointer to mapped memory.
    Mapped { map: u64, size: Size },
    /// A first-class aggregate: spilled to an entry-block alloca, mapped TO.
    Spilled { size: u64 },
}

#[derive(Debug, Clone, Copy)]
pub enum Size {
    Bytes(u64),
    /// `len * element` with `len` from kernel argument `len_arg` (v1).
    Elements {
        len_arg: u32,
        element: u64,
    },
    /// Known only at run time, from the v2 config's sizes.
    RunTime,
}

impl ArgPlan {
    pub fn map(&self) -> u64 {
        match *self {
            ArgPlan::Literal { map, .. } | ArgPlan::Mapped { map, .. } => map,
            ArgPlan::Spilled { .. } => map_type::TO,
        }
    }

    /// The size when known at compile time (`None` for a run-time size).
    pub fn constant_size(&self) -> Option<u64> {
        match *self {
            ArgPlan::Literal { size, .. } | ArgPlan::Spilled { size } => Some(size),
            ArgPlan::Mapped {
                size: Size::Bytes(n),
                ..
            } => Some(n),
            ArgPlan::Mapped {
                size: Size::Elements { .. } | Size::RunTime,
                ..
            } => None,
        }
    }
}

/// Where a launch's grid comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grid {
    /// v1: compile-time values (descriptor or pass defaults).
    Static {
        teams: [u32; 3],
        threads: [u32; 3],
        dyn_cgroup_mem: u32,
    },
    /// v2: the `LaunchConfig` the call passes as operand 1, read at run time.
    Config,
}

/// One launch site, fully resolved. Argument values are read again when
/// the launch is lowered: an earlier launch's lowering replaces its call,
/// whose result a later launch may take as an argument or a length.
pub struct Launch<'ctx> {
    pub call: InstructionValue<'ctx>,
    pub caller: FunctionValue<'ctx>,
    pub kernel: String,
    pub grid: Grid,
    /// The call operand of kernel argument 0 (0 in v1; 2 in v2, after the
    /// descriptor and the config).
    pub first_arg: u32,
    pub args: Vec<ArgPlan>,
    /// True when the call's i32 result is used: it receives the return code.
    pub returns_code: bool,
    /// Whether the launch names the image it was compiled against.
    pub image_tie: ImageTie,
}

/// What ties a compiled launch to the image it was checked against. A build
/// that reuses compiled host code (rustc's `-Cincremental` cache) does not
/// run the pass again: only a digest the host source depends on (`env!`)
/// makes a changed image recompile the launch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageTie {
    /// v2 with the image's digest: a stale descriptor is a compile-time error.
    Digest,
    /// v1: its descriptor carries no digest.
    V1Form,
    /// v2 with digest 0 (not checked).
    ZeroDigest,
}

impl Launch<'_> {
    /// The warning for a launch nothing ties to its images (`images`:
    /// [`ImageSet::label`](super::image_set::ImageSet::label)).
    pub fn untied_warning(&self, images: &str) -> Option<String> {
        let why = match self.image_tie {
            ImageTie::Digest => return None,
            ImageTie::V1Form => "the v1 call form carries no image digest",
            ImageTie::ZeroDigest => "its descriptor's image digest is 0 (not checked)",
        };
        Some(format!(
            "launch of '{}' in function '{}': {why}, so nothing ties it to {images}: a build that reuses compiled host code (rustc -Cincremental) keeps the image embedded when it was compiled after the image changes; use the v2 form with the image's digest",
            naming::display_symbol(&self.kernel),
            naming::name_of(self.caller),
        ))
    }
}
