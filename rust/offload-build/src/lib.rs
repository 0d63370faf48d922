//! `build.rs` helper for [`offload`](https://docs.rs/offload) programs: it
//! builds a `#![no_std]` **kernel crate** (its `#[offload::kernel]`
//! functions) into device images with cargo and the offload-passes plugin,
//! checks them, and compiles the launch stubs that the host crate's
//! launchers call. The kernel crate builds itself, with one line in its
//! `build.rs` and `offload-build` in its `[build-dependencies]`:
//!
//! ```no_run
//! // kernels/build.rs, in `fn main()`:
//! offload_build::DeviceCrate::new(".").build_or_exit();
//! ```
//!
//! Every artifact that links the kernel crate (another package's binary or
//! library, the kernel crate's own tests, doctests, examples and benches)
//! then links its launches, once. The host crate itself needs no plugin, no
//! `-Z` flag and no environment variable, and any host profile works.
//!
//! | Concept | What it does | Where |
//! |---|---|---|
//! | The builder | [`DeviceCrate`]: which kernel crate, for which targets, with which plugin, into which directories; [`DeviceCrate::build`] uses the rest, its docs list the steps | `lib.rs` |
//! | Run mode | a run of cargo that links nothing (`check`, `clippy`, `doc`, rust-analyzer) builds nothing and needs no plugin ([`OFFLOAD_DEVICE_BUILD`]) | `mode.rs` |
//! | Targets | `host` (libomptarget's CPU plugin) or `<triple>[:<cpu>]`, one image each ([`Target`], [`OFFLOAD_TARGETS`]) | `targets.rs` |
//! | The plugin | `liboffload_passes.so`: the one named ([`DeviceCrate::plugin`], `OFFLOAD_PASSES_PLUGIN`), else built once from its crate into the cache | `plugin/` |
//! | The device build | cargo on the kernel crate for one target with the plugin's passes; a GPU target's `core`; the device target directory all kernel crates share ([`OFFLOAD_DEVICE_TARGET_DIR`]); PTX assembled into cubins ([`OFFLOAD_PASSES_PTXAS`]) | `device/` |
//! | The cache | what is built once per user, under file locks ([`OFFLOAD_SYSROOT_CACHE`]) | `cache.rs` |
//! | The kernel table | each image's kernels, read from the records `#[kernel]` exports, and its digest ([`Image`], [`Kernel`]) | `image.rs` |
//! | The checks | one device build per kernel crate, the same dependency features on host and device ([`FeatureDifference`]), two kernels of one symbol, kernel libraries the image lacks, every image with the first one's kernels | `checks/` |
//! | The launch stubs | the generated `no_std` module the plugin's `offload-host` lowers (the images embedded and registered, the launch calls), compiled into the static library the host links ([`Contract`]) | `stubs/` |
//! | LLVM | LLVM 22's `llvm-config`; libomptarget and libomp linked, with an rpath | `llvm.rs` |
//! | Manifests | a package's name and features, read from its `Cargo.toml` | `manifest.rs` |
//! | Errors | one [`Error`] variant per failure, each naming the crate, kernel or target and what to do | `error.rs` |

#![deny(missing_docs)]

mod cache;
mod checks;
mod device;
mod error;
mod image;
mod llvm;
mod manifest;
mod mode;
mod plugin;
mod stubs;
mod targets;

use std::path::{Path, PathBuf};
use std::process::Command;

use offload_contract::digest::images_digest;

use checks::{agree, dep_features, libraries, owner};
use device::{cargo, target_dir, target_image};

pub use cache::OFFLOAD_SYSROOT_CACHE;
pub use device::ptxas::OFFLOAD_PASSES_PTXAS;
pub use device::target_dir::OFFLOAD_DEVICE_TARGET_DIR;
pub use error::{Error, FeatureDifference, PluginBuildError, RecordProblem};
pub use image::{Arg, ArgKind, Image, Kernel};
pub use mode::OFFLOAD_DEVICE_BUILD;
pub use stubs::Contract;
pub use targets::{OFFLOAD_TARGETS, Target};

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
///
/// Its own `build.rs` builds it (`DeviceCrate::new(".")`), or a host
/// crate's `build.rs` naming it (`DeviceCrate::new("../kernels")`), for a
/// kernel crate without such a build script; both for one kernel crate is
/// an error ([`Error::TwoDeviceBuilds`]): two device builds would put two
/// copies of the image and the stubs into one program.
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
    /// `OFFLOAD_PASSES_PLUGIN` (best absolute; no whitespace, at which rustc
    /// splits `-Zllvm-plugins`), else the `offload-passes-plugin` crate of
    /// offload-build's own version, built once per user, LLVM version and
    /// plugin version into `<cache>/plugin/<llvm version>-<plugin
    /// version>/` (the cache: [`OFFLOAD_SYSROOT_CACHE`]; minutes, under a
    /// file lock; `rm -rf` it to clean it), which needs LLVM 22's
    /// development files (`llvm-config-22`, or `LLVM_CONFIG`). A relative
    /// path is resolved against the directory of the package whose build
    /// script runs, not the workspace root.
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
    ///
    /// Each target's image must have the first image's kernel records, or
    /// the build stops naming the kernel and the target: the stubs are
    /// generated from the first image's records and register every image.
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
    /// images; the next `cargo build`, `test` or `run` reruns the build
    /// script. Otherwise, per target:
    ///
    /// 1. builds the kernel crate **with cargo** for the device, in the
    ///    shared device target directory ([`OFFLOAD_DEVICE_TARGET_DIR`]),
    ///    with `offload`'s `device` feature and the kernel crate's features
    ///    as cargo enabled them (in a host crate's build script: as resolved
    ///    in the host build; its dependencies must have the same features in
    ///    both builds: [`Error::DependencyFeatures`]), a release profile with
    ///    `panic = "abort"`, line tables only, fat LTO and one codegen unit.
    ///    The kernel crate may depend on other crates (`libm`, workspace
    ///    crates, kernel libraries). The plugin's `offload-wrap-kernels`
    ///    gives the kernels libomptarget's signature, and
    ///    `offload-check-uniform` refuses barriers and warp operations some
    ///    threads of a team can skip;
    /// 2. reads the kernel table (`#[kernel]`'s records) from the image and
    ///    computes its digest; a kernel library the kernel crate depends on
    ///    but never uses (so none of its kernels is in the image) is an
    ///    error ([`Error::UnlinkedLibrary`]).
    ///
    /// Then, for all images together:
    ///
    /// 3. generates the launch stubs (one small `no_std` Rust module whose
    ///    launches the plugin's `offload-host` lowers: every image embedded
    ///    and registered, libomptarget's mapper and launch calls) and
    ///    compiles them into a static library linked whole
    ///    (`rustc-link-lib=static:+whole-archive`) into the rlib of the
    ///    package whose build script runs: a program that names the kernel
    ///    crate but launches nothing still registers the images, so
    ///    libomptarget is initialised for the data API. The launchers call
    ///    the stubs by a name that carries a hash of the kernel crate's name
    ///    and version and of the kernel's signature: a host built from other
    ///    sources than the image does not link, and two kernel crates' images
    ///    in one program each serve their own launchers;
    /// 4. links libomptarget and libomp (`rustc-link-lib=dylib`, with an
    ///    rpath for the package's own binaries; other packages' binaries
    ///    find them in the system's library path);
    /// 5. tells cargo to rerun when any source file of the kernel crate or of
    ///    a local crate it depends on changes (cargo's dep-info of the device
    ///    build), or the plugin does.
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
            None => target_dir::shared_target_dir(&default_target_dir(&out_dir)),
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
            llvm::link_omptarget()?;
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
    let key: String = target_dir::crate_dir_key(dir)
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
