//! The device build: the kernel crate built by cargo for one target into
//! an image, with the plugin's passes.
//!
//! | File | What it does |
//! |---|---|
//! | [`target_image`] | one target's build, from the kernel crate to the image in `OUT_DIR` and its kernel table |
//! | [`cargo`] | the nested `cargo rustc` (device profile, the plugin's passes, the kernel crate's features) |
//! | [`target_dir`] | the device target directory every kernel crate shares, and what makes sharing it safe |
//! | [`sysroot`] | a GPU target's `core`, built once into the cache |
//! | [`ptxas`] | NVPTX images: PTX assembled into a cubin, cached |

pub(crate) mod cargo;
pub(crate) mod ptxas;
pub(crate) mod sysroot;
pub(crate) mod target_dir;
pub(crate) mod target_image;
