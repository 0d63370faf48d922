//! `build.rs` helper for [`offload`](https://docs.rs/offload) programs.
//!
//! A program has a `#![no_std]` **kernel crate** (its `#[offload::kernel]`
//! functions) that the host crate depends on like any library. The kernel
//! crate builds its own device image, with one line in its `build.rs`:
//!
//! ```no_run
//! // kernels/build.rs, in `fn main()`:
//! offload_build::DeviceCrate::new(".").build_or_exit();
//! ```
//!
//! with `offload-build` in its `[build-dependencies]`. The LLVM plugin,
//! `liboffload_passes.so`, is the one the environment variable
//! `OFFLOAD_PASSES_PLUGIN` names (best absolute; a relative one is resolved
//! against the directory of the package whose build script runs, not the
//! workspace root; no whitespace, at which rustc splits `-Zllvm-plugins`);
//! unset or empty, offload-build builds the `offload-passes-plugin` crate of
//! its own version once per user, LLVM version and plugin version into
//! `<cache>/plugin/<llvm version>-<plugin version>/` (the cache directory
//! below; minutes, under a file lock; `rm -rf` it to clean it), which needs
//! LLVM 22's development files (`llvm-config-22`, or `LLVM_CONFIG`). Every
//! artifact that links the kernel crate (another package's binary or
//! library, the kernel crate's own tests, doctests, examples and benches)
//! then links its launches, once. A host crate's `build.rs` naming the
//! kernel crate (`DeviceCrate::new("../kernels")`) works too, for a kernel
//! crate without such a build script; both for one kernel crate is an error.
//!
//! In a run of cargo that links nothing (`cargo check`, `clippy`, `doc`,
//! rust-analyzer's `cargo check`; read from the command line of the cargo
//! that runs the build script, or [`OFFLOAD_DEVICE_BUILD`]) nothing is
//! built and no plugin is needed; the next `cargo build`, `test` or `run`
//! reruns the build script. Otherwise [`DeviceCrate::build`]
//! 1. builds the kernel crate **with cargo** for the device (in a target
//!    directory shared by every kernel crate and program, see below;
//!    `offload`'s `device` feature and the kernel crate features
//!    cargo enabled for it (in a host crate's build script: resolved for it
//!    in the host build; the kernel crate's dependencies must have the
//!    same features in the host build, by `cargo tree` of both builds,
//!    or the build stops naming them: [`Error::DependencyFeatures`]), a
//!    release profile with
//!    `panic = "abort"`, line tables only, fat LTO, one codegen unit), so it may
//!    depend on other crates (`libm`, workspace crates); the plugin's
//!    `offload-wrap-kernels<records>` gives the kernels libomptarget's
//!    signature — it finds them by the records `#[kernel]` exports, in every
//!    crate of the build (kernel libraries too); `offload-check-uniform`
//!    (at the plugin's OptimizerLast point) refuses barriers and warp
//!    operations some threads of a team can skip;
//! 2. reads the kernel table (`#[kernel]`'s records) from the image and
//!    computes the image digest (SHA-256); a kernel library the kernel
//!    crate depends on (a direct dependency on `offload` with `#[kernel]`s)
//!    but never uses, so rustc did not link it and none of its kernels is
//!    in the image, is an error saying so ([`Error::UnlinkedLibrary`]);
//! 3. generates the launch stubs (one small `no_std` Rust module whose
//!    launches the plugin's `offload-host` lowers: the image embedded and
//!    registered, libomptarget mapper and launch calls) and compiles it into
//!    a static library (`rustc-link-lib=static:+whole-archive`: bundled
//!    into the rlib of the package whose build script runs, so whatever
//!    links that package links it, whole: a program that names the kernel
//!    crate but launches nothing still registers the image, so
//!    libomptarget is initialised for the data API);
//! 4. links libomptarget and libomp (`rustc-link-lib=dylib`, with an rpath
//!    for the package's own binaries; other packages' binaries find them in
//!    the system's library path);
//! 5. tells cargo to rerun when any source file of the kernel crate or of a
//!    local crate it depends on changes (cargo's dep-info of the device
//!    build), or the plugin does.
//!
//! **Several targets** ([`DeviceCrate::targets`], or the environment
//! variable [`OFFLOAD_TARGETS`], e.g.
//! `host,amdgcn-amd-amdhsa:gfx90a,nvptx64-nvidia-cuda:sm_90`, which overrides
//! the build script): steps 1-2 run once per target (an NVPTX image is PTX
//! that ptxas assembles into a cubin: [`OFFLOAD_PASSES_PTXAS`], the
//! offload-passes repository's `tools/bin`, or `PATH`); every image must
//! have the first image's kernel records, or the build stops naming the
//! kernel and the target; the stubs, generated from the first image's
//! records and compiled for the host, embed and register every image. A GPU
//! target's `core` is built once per toolchain, target, cpu and flags into a
//! shared sysroot ([`OFFLOAD_SYSROOT_CACHE`], else
//! `$XDG_CACHE_HOME/offload-build` or `~/.cache/offload-build`; keyed by
//! `rustc -vV`, target, cpu and flags; built under an exclusive file lock,
//! so concurrent builds wait for one another), which every device build of
//! that target uses with `--sysroot`. NVPTX cubins are cached there too,
//! keyed by the PTX, the arch and ptxas's version.
//!
//! **The device target directory** ([`OFFLOAD_DEVICE_TARGET_DIR`], else
//! `target` in that cache directory) is shared by every kernel crate and
//! program, so the device build's proc macros and other host dependencies
//! are built once per toolchain, not per program or `cargo clean`. Each
//! kernel crate's workspace members are kept apart from another
//! workspace's of the same layout (a `RUSTC_WORKSPACE_WRAPPER` path of its
//! own, which cargo hashes into their file names), an image file last
//! written by another build is deleted before cargo runs (an owner stamp),
//! and each target's build holds an exclusive file lock on the directory
//! until its image is copied out: concurrent builds wait. `rm -rf` it to
//! clean it.
//!
//! The host crate itself needs no plugin, no `-Z` flag and no environment
//! variable: its launchers call the stubs by a name that carries a hash of
//! the defining crate's name and version and of the kernel's signature, so
//! a host built from other sources than the image does not link, and two
//! kernel crates' images in one program each serve their own launchers.
//! Any host profile works (incremental, 256 codegen units): the image lives
//! only in the stub object, rebuilt from the new image after every edit.

#![deny(missing_docs)]

mod agree;
mod cargo;
mod dep_features;
mod device_dir;
mod duplicates;
mod error;
mod image;
mod libraries;
mod mode;
mod owner;
mod plugin;
mod plugin_build;
mod ptxas;
mod stubs;
mod sysroot;
mod target_image;
mod targets;

use std::path::{Path, PathBuf};
use std::process::Command;

use offload_contract::digest::images_digest;

pub use dep_features::FeatureDifference;
pub use device_dir::OFFLOAD_DEVICE_TARGET_DIR;
pub use error::{Error, RecordProblem};
pub use image::{Arg, ArgKind, Kernel};
pub use mode::OFFLOAD_DEVICE_BUILD;
pub use plugin_build::PluginBuildError;
pub use ptxas::OFFLOAD_PASSES_PTXAS;
pub use stubs::Contract;
pub use sysroot::OFFLOAD_SYSROOT_CACHE;
pub use targets::{OFFLOAD_TARGETS, Target};

/// One built device image.
#[derive(Debug, Clone)]
pub struct Image {
    /// The target it was built for.
    pub target: Target,
    /// The image (a copy in the host crate's `OUT_DIR`; for nvptx the
    /// cubin, next to the PTX it was assembled from).
    pub path: PathBuf,
    /// Size in bytes.
    pub size: u64,
    /// First 8 bytes of the image's SHA-256, little-endian.
    pub digest: u64,
    /// The kernels in the image, from their records.
    pub kernels: Vec<Kernel>,
}

/// What [`DeviceCrate::build`] made.
#[derive(Debug, Clone)]
pub struct Built {
    /// One image per target, in the targets' order (the launch stubs
    /// register them in this order); empty in a run without a device build
    /// (`cargo check`, clippy, `cargo doc`).
    pub images: Vec<Image>,
    /// The launch stubs' static library, linked into every artifact that
    /// links the package whose build script ran (`None` for
    /// [`DeviceCrate::image_only`] and for a run without a device build).
    pub stubs: Option<PathBuf>,
}

impl Built {
    /// A run without a device build: `cargo check`, `clippy`, `doc`, or
    /// offload-build's own cargo runs.
    fn nothing() -> Self {
        Built {
            images: Vec::new(),
            stubs: None,
        }
    }
}

/// A kernel crate to build into device images.
#[derive(Debug, Clone)]
pub struct DeviceCrate {
    dir: PathBuf,
    target: Option<String>,
    target_cpu: Option<String>,
    targets: Option<Vec<String>>,
    contract: Contract,
    image_only: bool,
    target_dir: Option<PathBuf>,
    out_dir: Option<PathBuf>,
    plugin: Option<PathBuf>,
}

impl DeviceCrate {
    /// The kernel crate in directory `dir` (relative to the package whose
    /// build script runs, or absolute): `"."` in the kernel crate's own
    /// build script, which then takes exactly the features cargo enabled
    /// for it.
    pub fn new(dir: impl AsRef<Path>) -> Self {
        let dir = dir.as_ref();
        let dir = match std::env::var_os("CARGO_MANIFEST_DIR") {
            Some(manifest) if dir.is_relative() => PathBuf::from(manifest).join(dir),
            _ => dir.to_path_buf(),
        };
        // `new(".")` in the kernel crate's own build script: its directory.
        let dir: PathBuf = dir
            .components()
            .filter(|c| *c != std::path::Component::CurDir)
            .collect();
        DeviceCrate {
            dir,
            target: None,
            target_cpu: None,
            targets: None,
            contract: Contract::default(),
            image_only: false,
            target_dir: None,
            out_dir: None,
            plugin: None,
        }
    }

    /// The plugin, `liboffload_passes.so`. Default: the environment variable
    /// `OFFLOAD_PASSES_PLUGIN`, else the plugin built once into the cache
    /// (see the crate documentation). A relative path is resolved against
    /// the directory of the package whose build script runs.
    pub fn plugin(mut self, path: impl Into<PathBuf>) -> Self {
        self.plugin = Some(path.into());
        self
    }

    /// One device target triple (with [`target_cpu`](Self::target_cpu)).
    /// Default: the host's (libomptarget's CPU plugin). For several, see
    /// [`targets`](Self::targets).
    pub fn target(mut self, triple: &str) -> Self {
        self.target = Some(triple.to_owned());
        self
    }

    /// `-Ctarget-cpu` for every crate of [`target`](Self::target)'s build
    /// (`gfx90a`, `sm_90`).
    pub fn target_cpu(mut self, cpu: &str) -> Self {
        self.target_cpu = Some(cpu.to_owned());
        self
    }

    /// The targets of one program, each `host` (the build's own target,
    /// libomptarget's CPU plugin) or `<triple>[:<cpu>]`: e.g. `["host",
    /// "amdgcn-amd-amdhsa:gfx90a", "nvptx64-nvidia-cuda:sm_90"]`. The
    /// kernel crate is built once per target, every image is embedded and
    /// registered, and libomptarget runs the one that fits the device it
    /// finds. The environment variable [`OFFLOAD_TARGETS`] (the same items,
    /// comma-separated) overrides this and [`target`](Self::target). A bad
    /// item is an error of [`build`](Self::build) naming it.
    pub fn targets<I, S>(mut self, targets: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.targets = Some(targets.into_iter().map(|t| t.as_ref().to_owned()).collect());
        self
    }

    /// Which launch contract the stubs use (see [`Contract`]).
    pub fn contract(mut self, contract: Contract) -> Self {
        self.contract = contract;
        self
    }

    /// Build the images only: no stubs, no link directives (tests, other
    /// packagers).
    pub fn image_only(mut self) -> Self {
        self.image_only = true;
        self
    }

    /// Where the device build's cargo puts its files. Default:
    /// [`OFFLOAD_DEVICE_TARGET_DIR`], else `target` in offload-build's cache
    /// directory ([`OFFLOAD_SYSROOT_CACHE`], `$XDG_CACHE_HOME/offload-build`
    /// or `~/.cache/offload-build`), else `offload-device` in the host
    /// build's target directory (found from `OUT_DIR`). Shared by kernel
    /// crates and programs: see the crate docs for what makes that safe.
    pub fn target_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.target_dir = Some(dir.into());
        self
    }

    /// Where the image copies and the stubs go. Default: `OUT_DIR`.
    pub fn out_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// [`build`](Self::build), printing the error and exiting on failure (a
    /// build script's error output is what cargo shows).
    pub fn build_or_exit(self) -> Built {
        match self.build() {
            Ok(built) => built,
            Err(error) => {
                eprintln!("error: {error}");
                std::process::exit(1);
            }
        }
    }

    /// The build script's targets: [`targets`](Self::targets), else
    /// [`target`](Self::target) and [`target_cpu`](Self::target_cpu), else
    /// none (the host).
    fn chosen_targets(&self) -> Result<Vec<Target>, Error> {
        if let Some(items) = &self.targets {
            return Target::parse_list(&items.join(","));
        }
        Ok(match (&self.target, &self.target_cpu) {
            (None, None) => Vec::new(),
            (triple, cpu) => vec![Target::Device {
                triple: triple.clone().unwrap_or_else(build_target),
                cpu: cpu.clone(),
            }],
        })
    }

    /// Builds the images and (unless [`image_only`](Self::image_only)) the
    /// stubs, printing cargo's directives. In a run of cargo that links
    /// nothing (`cargo check`, `clippy`, `doc`; see
    /// [`OFFLOAD_DEVICE_BUILD`]) and in offload-build's own cargo runs it
    /// builds nothing, needs no plugin and returns a [`Built`] without
    /// images.
    pub fn build(self) -> Result<Built, Error> {
        let mode = mode::current()?;
        if mode == mode::Mode::Nested {
            return Ok(Built::nothing());
        }
        let out_dir = match &self.out_dir {
            Some(dir) => dir.clone(),
            None => PathBuf::from(env("OUT_DIR")?),
        };
        owner::check_one_build(&self.dir)?;
        if mode != mode::Mode::Build {
            self.skip(mode, &out_dir);
            return Ok(Built::nothing());
        }
        let plugin = plugin::find(self.plugin.clone())?;
        let targets = targets::resolve(self.chosen_targets()?)?;
        let target_dir = match &self.target_dir {
            Some(dir) => dir.clone(),
            None => device_dir::shared_target_dir(&default_target_dir(&out_dir)),
        };
        println!("cargo::rerun-if-changed={}", self.dir.display());
        // The kernel crate's dependency versions.
        if let Some(lock) = self
            .dir
            .ancestors()
            .map(|d| d.join("Cargo.lock"))
            .find(|l| l.exists())
        {
            println!("cargo::rerun-if-changed={}", lock.display());
        }
        let host = build_target();
        if let Some(first) = targets.first() {
            // Before the device builds: a difference is in every image.
            let flags = cargo::device_feature_flags(&self.dir);
            dep_features::check(&self.dir, &host, first.triple(&host), &flags)?;
        }
        let mut images = Vec::new();
        let mut bytes = Vec::new();
        let place = target_image::Place {
            dir: &self.dir,
            host: &host,
            target_dir: &target_dir,
            out_dir: &out_dir,
            plugin: &plugin,
        };
        for target in &targets {
            let (image, image_bytes) = place.build_image(target)?;
            if images.is_empty() {
                // Before the other targets' builds: a missing library is
                // missing from every image.
                libraries::check(&self.dir, &image.kernels, target.triple(&host))?;
            }
            images.push(image);
            bytes.push(image_bytes);
        }
        agree::check(&images)?;
        let mut built = Built {
            images,
            stubs: None,
        };
        if !self.image_only {
            let name = stubs_lib_name(&self.dir);
            let object = stubs::build(
                &built.images,
                images_digest(&bytes),
                &plugin,
                (&host, &name),
                &out_dir,
                self.contract,
            )?;
            let lib = stubs::archive(&object, &name)?;
            println!("cargo::rustc-link-search=native={}", out_dir.display());
            println!("cargo::rustc-link-lib=static:+whole-archive={name}");
            link_omptarget()?;
            built.stubs = Some(lib);
        }
        Ok(built)
    }

    /// A run without a device build: a path that never exists makes cargo
    /// rerun the build script next time, when a run that links builds the
    /// image. Quiet under `cargo check`; a warning where the run links.
    fn skip(&self, mode: mode::Mode, out_dir: &Path) {
        println!(
            "cargo::rerun-if-changed={}",
            mode::never_fresh(out_dir).display()
        );
        if mode == mode::Mode::SkipLinking {
            println!(
                "cargo::warning=offload-build: {OFFLOAD_DEVICE_BUILD}=skip: the kernel crate {} is not built for the device, so its launches will not link",
                self.dir.display()
            );
        }
    }
}

/// The name of the launch stubs' static library of the kernel crate at
/// `dir`: one per kernel crate, so two kernel crates' stubs can be linked
/// into one program.
fn stubs_lib_name(dir: &Path) -> String {
    let key: String = device_dir::crate_dir_key(dir)
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    format!("offload_stubs_{key}")
}

fn env(name: &'static str) -> Result<String, Error> {
    std::env::var(name).map_err(|_| Error::EnvNotSet { name })
}

/// The triple the host program is built for: the build script's `TARGET`,
/// else rustc's host.
fn build_target() -> String {
    std::env::var("TARGET").unwrap_or_else(|_| host_triple())
}

fn host_triple() -> String {
    let out = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
        .arg("-vV")
        .output();
    out.ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("host: ").map(str::to_owned))
        })
        .unwrap_or_else(|| "x86_64-unknown-linux-gnu".to_owned())
}

/// `<target>/offload-device` from `<target>/[<triple>/]<profile>/build/<pkg>/out`.
fn default_target_dir(out_dir: &Path) -> PathBuf {
    let mut dir = out_dir.to_path_buf();
    for _ in 0..4 {
        if !dir.pop() {
            break;
        }
    }
    if dir.join("CACHEDIR.TAG").exists() || dir.parent().is_none() {
        return dir.join("offload-device");
    }
    // A --target build: one more level.
    let parent = dir.parent().map(Path::to_path_buf).unwrap_or(dir);
    parent.join("offload-device")
}

/// libomptarget and libomp from LLVM 22's library directory, with an rpath
/// (`offload` links them too; here for the kernel crate's own tests).
fn link_omptarget() -> Result<(), Error> {
    offload_contract::libomptarget::link().map_err(Error::from)
}

pub(crate) fn llvm_config(arg: &str) -> Result<String, Error> {
    offload_contract::libomptarget::llvm_config(arg).map_err(Error::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_build_scripts_targets() {
        let k = || DeviceCrate::new("/k");
        assert_eq!(k().chosen_targets().unwrap(), []);
        assert_eq!(
            k().target("amdgcn-amd-amdhsa")
                .target_cpu("gfx90a")
                .chosen_targets()
                .unwrap(),
            [Target::parse("amdgcn-amd-amdhsa:gfx90a").unwrap()]
        );
        assert_eq!(
            k().targets(["host", "nvptx64-nvidia-cuda:sm_90"])
                .chosen_targets()
                .unwrap(),
            [
                Target::Host,
                Target::parse("nvptx64-nvidia-cuda:sm_90").unwrap()
            ]
        );
        let bad = k()
            .targets(["host", "gfx90a"])
            .chosen_targets()
            .unwrap_err();
        assert!(
            bad.to_string()
                .starts_with("offload-build: target `gfx90a`"),
            "{bad}"
        );
    }
}
