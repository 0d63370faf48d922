//! The checks of a program's kernel crates and images.

pub(crate) mod agree;
pub(crate) mod dep_features;
pub(crate) mod duplicates;
pub(crate) mod libraries;
pub(crate) mod owner;
