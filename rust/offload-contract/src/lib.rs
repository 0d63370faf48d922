//! The launch contract between the `offload-passes` plugin, the `offload`
//! crate and `offload-build`: every value more than one of them reads or
//! writes, defined once.
//!
//! - [`map_type`]: libomptarget's map-type bits.
//! - [`descriptor`]: the words of v1 and v2 launch descriptors, their
//!   encoders and their decoders (which check every word).
//! - [`launch_config`]: [`LaunchConfig`], the run-time record of a v2 launch.
//! - [`launch_code`]: what a launch returns when it does not launch.
//! - [`record`]: the kernel table `#[kernel]` exports and `offload-build`
//!   reads back.
//! - [`features`]: the word of a kernel crate's enabled features, which the
//!   record carries and the host's launcher compares.
//! - [`layout`]: the layout words of the argument types, which the record
//!   carries and the host's launcher compares.
//! - [`manifest`]: the kernel-manifest note `offload-wrap-kernels` writes
//!   and `offload-host` reads.
//! - [`digest`]: the image digest a v2 descriptor carries.
//! - [`grid`]: the launch grid in a kernel's hidden leading slots.
//! - [`pass_param`]: how a file path is escaped in a pass parameter.
//! - `libomptarget` (feature `build-script`): how a build script finds and
//!   links libomptarget, for `offload`'s and `offload-build`'s.
//!
//! The crate is `no_std` and has no dependencies; the `digest` feature adds
//! `digest::image_digest` (with `sha2`), the `build-script` feature the
//! `libomptarget` module (with `std`).

#![no_std]
#![deny(missing_docs)]

pub mod descriptor;
pub mod digest;
pub mod features;
pub mod grid;
pub mod kind;
pub mod launch_code;
pub mod launch_config;
pub mod layout;
#[cfg(all(
    feature = "build-script",
    not(any(target_arch = "amdgpu", target_arch = "nvptx64"))
))]
pub mod libomptarget;
pub mod manifest;
pub mod map_type;
pub mod pass_param;
pub mod record;

pub use launch_config::LaunchConfig;
