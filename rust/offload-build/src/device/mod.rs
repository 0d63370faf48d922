//! The device build.

pub(crate) mod cargo;
pub(crate) mod image;
pub(crate) mod ptxas;
pub(crate) mod sysroot;
pub(crate) mod target_dir;
