//! What offload-build checks around the device build, each a clear error
//! where a program would otherwise fail later (at the host's final link, or
//! at run time with the wrong kernel).
//!
//! | File | When | What it refuses |
//! |---|---|---|
//! | [`owner`] | first | two device builds of one kernel crate (its own build script and a host crate's) |
//! | [`dep_features`] | before the device builds | a dependency of the kernel crate with other features in the host build than in the device build |
//! | [`duplicates`] | after a failed device build | two `#[kernel]`s of one symbol: names both |
//! | [`libraries`] | after the first image | a kernel library the kernel crate depends on but never uses (not linked into the image) |
//! | [`agree`] | after every image | images whose kernel records differ from the first image's (one set of stubs serves all) |

pub(crate) mod agree;
pub(crate) mod dep_features;
pub(crate) mod duplicates;
pub(crate) mod libraries;
pub(crate) mod owner;
