//! What can go wrong building the device side, one variant per failure.

use std::fmt;
use std::path::PathBuf;

/// What went wrong building the device side.
///
/// A variant's message already contains the message of the error it wraps
/// (an I/O or object-file error), so [`source`](std::error::Error::source)
/// returns `None`: a reporter walking the chain would print it twice.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// A file could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The image could not be copied into the output directory.
    Copy {
        /// The device build's image.
        from: PathBuf,
        /// Its copy.
        to: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// A tool (`cargo`, `rustc`) could not be started.
    Spawn {
        /// The tool's name.
        tool: &'static str,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// An environment variable a build script has is not set.
    EnvNotSet {
        /// The variable.
        name: &'static str,
    },
    /// No plugin is named and building one from its crate failed.
    PluginBuild(PluginBuildError),
    /// The plugin's path does not name a file.
    PluginPath {
        /// The path given (a relative one joined to the build script's
        /// package directory).
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The plugin's path has whitespace, at which rustc splits
    /// `-Zllvm-plugins`.
    PluginPathWhitespace {
        /// The path.
        path: PathBuf,
    },
    /// [`OFFLOAD_DEVICE_BUILD`](crate::OFFLOAD_DEVICE_BUILD) has a value
    /// other than `skip` or `run`.
    BadDeviceBuildMode {
        /// Its value.
        value: String,
    },
    /// The launch stubs' static library could not be made.
    ArchiveFailed {
        /// The library.
        lib: PathBuf,
        /// `ar`'s error output.
        stderr: String,
    },
    /// A package's build script builds a kernel crate whose own build
    /// script builds it too: the program would hold two copies.
    TwoDeviceBuilds {
        /// The kernel crate's package name.
        kernel_crate: String,
        /// Its directory.
        kernel_dir: PathBuf,
        /// The package whose build script builds it a second time.
        package: String,
        /// That package's directory.
        package_dir: PathBuf,
    },
    /// `llvm-config` could not be run or gave no answer.
    LlvmConfig(offload_contract::libomptarget::LlvmConfigError),
    /// The kernel crate's `Cargo.toml` has no `[package] name`.
    NoPackageName {
        /// The manifest.
        manifest: PathBuf,
    },
    /// Two `#[kernel]`s in the image (of the kernel crate or of its
    /// dependencies) have one symbol.
    DuplicateKernelSymbol {
        /// The kernel crate's directory.
        dir: PathBuf,
        /// The symbol.
        symbol: String,
        /// Two items with that symbol (paths with their crates).
        items: [String; 2],
    },
    /// A kernel library the kernel crate depends on has `#[kernel]`s, none
    /// of them in the image: the kernel crate never uses the library, so
    /// rustc did not link it.
    UnlinkedLibrary {
        /// The kernel crate's package name.
        kernel_crate: String,
        /// The library's name in the kernel crate (its extern crate name).
        library: String,
        /// The kernel crate's root source file (`src/lib.rs`).
        lib_rs: PathBuf,
    },
    /// Packages of the kernel crate's dependency graph have other features
    /// in the host build than in the device build.
    DependencyFeatures {
        /// The kernel crate's package name.
        kernel_crate: String,
        /// The packages and their features.
        differences: Vec<FeatureDifference>,
    },
    /// The image has no kernel: neither the kernel crate nor its
    /// dependencies define a `#[kernel]` in the device build.
    NoKernels {
        /// The kernel crate's directory.
        dir: PathBuf,
        /// The image.
        image: PathBuf,
    },
    /// The device build failed (cargo printed why).
    DeviceBuildFailed {
        /// The kernel crate's directory.
        dir: PathBuf,
        /// The device target triple.
        target: String,
    },
    /// The device build failed for want of a panic handler, and the kernel
    /// crate never names `offload` (which supplies it): it has no kernel.
    NeverNamesOffload {
        /// The kernel crate's directory.
        dir: PathBuf,
    },
    /// The device build wrote no image.
    NoImage {
        /// The kernel crate's library name.
        name: String,
        /// The directory searched.
        dir: PathBuf,
    },
    /// A target (of `OFFLOAD_TARGETS` or the build script's) is not
    /// `host` or `<triple>[:<cpu>]`.
    BadTarget {
        /// The item as given.
        item: String,
        /// What is wrong with it.
        why: String,
    },
    /// No ptxas for an nvptx target.
    PtxasNotFound {
        /// `OFFLOAD_PASSES_PTXAS`, where it names no file.
        given: Option<PathBuf>,
        /// The plugin, from which the repository's `tools/bin` is found.
        plugin: PathBuf,
    },
    /// ptxas refused the PTX.
    PtxasFailed {
        /// The PTX.
        ptx: PathBuf,
        /// ptxas's messages.
        stderr: String,
    },
    /// Building the shared `core` of a GPU target failed.
    CoreBuildFailed {
        /// The target triple.
        target: String,
        /// The directory of that build.
        dir: PathBuf,
    },
    /// A kernel of one image is missing or different in another: one set
    /// of launch stubs serves every image.
    KernelDiffers {
        /// The kernel's symbol.
        kernel: String,
        /// The target of the image that differs.
        target: String,
        /// The target of the first image, whose records the stubs follow.
        first: String,
        /// How it differs.
        what: String,
    },
    /// The image is not an object file `object` can read.
    NotAnObject {
        /// The image.
        image: PathBuf,
        /// The `object` crate's error.
        source: object::Error,
    },
    /// A record symbol is not in a section.
    RecordWithoutSection {
        /// The image.
        image: PathBuf,
        /// The record's symbol.
        symbol: String,
    },
    /// A record symbol's bytes run past its section.
    RecordOutsideSection {
        /// The image.
        image: PathBuf,
        /// The record's symbol.
        symbol: String,
    },
    /// A kernel record cannot be read.
    BadRecord {
        /// The image.
        image: PathBuf,
        /// The kernel the record names.
        kernel: String,
        /// What is wrong with it.
        problem: RecordProblem,
    },
    /// rustc with the plugin's `offload-host` refused the launch stubs.
    StubsRefused {
        /// The images.
        images: Vec<PathBuf>,
        /// The kernels whose stubs were compiled.
        kernels: Vec<String>,
        /// rustc's messages.
        stderr: String,
    },
}

/// What is wrong with a kernel record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum RecordProblem {
    /// Too short, or the magic of another layout version.
    NotThisVersion,
    /// A name length or argument count out of range.
    Corrupt,
    /// An argument of an unknown kind.
    ArgumentKind {
        /// The argument's index.
        arg: usize,
        /// Its kind.
        kind: u16,
    },
}

impl fmt::Display for RecordProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordProblem::NotThisVersion => f.write_str(
                "not an offload record of this version (offload and offload-build versions differ?)",
            ),
            RecordProblem::Corrupt => f.write_str("corrupt"),
            RecordProblem::ArgumentKind { arg, kind } => write!(f, "argument {arg} has kind {kind}"),
        }
    }
}

/// One package whose features differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeatureDifference {
    /// The package: name, version and source, as `cargo tree` shows it.
    pub package: String,
    /// Features only the host build enables.
    pub host_only: Vec<String>,
    /// Features only the device build enables.
    pub device_only: Vec<String>,
}

/// Why the plugin could not be built (where no plugin is named).
#[derive(Debug)]
pub enum PluginBuildError {
    /// What building it needs is missing: LLVM 22's `llvm-config` (and
    /// with it, its development files).
    Prerequisite {
        /// The `llvm-config` executable (`LLVM_CONFIG`, else
        /// `llvm-config-22`).
        tool: String,
        /// What is wrong with it.
        problem: String,
    },
    /// The nested cargo failed.
    Failed {
        /// The plugin's cache directory.
        dir: PathBuf,
        /// The nested cargo's whole output.
        log: PathBuf,
        /// Its last lines.
        output: String,
    },
}

impl fmt::Display for PluginBuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PluginBuildError::Prerequisite { tool, problem } => write!(
                f,
                "offload-build: no plugin is named (OFFLOAD_PASSES_PLUGIN is unset or empty), so it builds the offload-passes plugin, \
                 which needs LLVM 22's development files and libomptarget: `{tool}` {problem}. \
                 Install llvm-22-dev (LLVM 22's headers and llvm-config-22) and liboffload-22-dev (libomptarget) from apt.llvm.org, \
                 or set LLVM_CONFIG to LLVM 22's llvm-config, or set OFFLOAD_PASSES_PLUGIN to a built liboffload_passes.so"
            ),
            PluginBuildError::Failed { dir, log, output } => write!(
                f,
                "offload-build: building the offload-passes plugin into {} failed (whole output: {}; \
                 or set OFFLOAD_PASSES_PLUGIN to a built liboffload_passes.so):\n{output}",
                dir.display(),
                log.display()
            ),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io { path, source } => write!(f, "{}: {source}", path.display()),
            Error::Copy { from, to, source } => {
                write!(
                    f,
                    "copying {} to {}: {source}",
                    from.display(),
                    to.display()
                )
            }
            Error::Spawn { tool, source } => write!(f, "running {tool}: {source}"),
            Error::EnvNotSet { name } => {
                write!(f, "{name} is not set (run from a build script, or set it)")
            }
            Error::PluginBuild(error) => error.fmt(f),
            Error::PluginPath { path, source } => write!(
                f,
                "plugin {}: {source} (a relative OFFLOAD_PASSES_PLUGIN or plugin path is resolved against the directory of the package whose build script runs, not the workspace root; give an absolute path)",
                path.display()
            ),
            Error::PluginPathWhitespace { path } => write!(
                f,
                "plugin {}: the path has whitespace, at which rustc splits -Zllvm-plugins; move liboffload_passes.so (or a symlink to it) to a path without whitespace",
                path.display()
            ),
            Error::BadDeviceBuildMode { value } => write!(
                f,
                "offload-build: OFFLOAD_DEVICE_BUILD is `{value}`: give `skip` (no device build, as under `cargo check`) or `run` (always build), or unset it"
            ),
            Error::ArchiveFailed { lib, stderr } => {
                write!(
                    f,
                    "offload-build: ar could not make {}:\n{stderr}",
                    lib.display()
                )
            }
            Error::TwoDeviceBuilds {
                kernel_crate,
                kernel_dir,
                package,
                package_dir,
            } => write!(
                f,
                "offload-build: the kernel crate `{kernel_crate}` ({}) builds its own device image (its build.rs calls offload-build), \
                 and the build script of `{package}` ({}) builds it again: the program would hold two copies. \
                 Remove the `DeviceCrate::new(..)` call from `{package}`'s build.rs (and offload-build from its \
                 [build-dependencies]): every package that depends on `{kernel_crate}` gets its launches from `{kernel_crate}`'s own build",
                kernel_dir.display(),
                package_dir.display()
            ),
            Error::LlvmConfig(error) => write!(f, "{error}"),
            Error::NoPackageName { manifest } => {
                write!(f, "{}: no [package] name", manifest.display())
            }
            Error::DuplicateKernelSymbol {
                dir,
                symbol,
                items: [first, second],
            } => write!(
                f,
                "offload-build: the kernels {first} and {second} (both in the image of the kernel crate {}) have the same symbol '{symbol}': a kernel symbol is one name in the whole image, whichever crate defines the kernel; give one of them another with `#[kernel(name = \"...\")]`",
                dir.display()
            ),
            Error::UnlinkedLibrary {
                kernel_crate,
                library,
                lib_rs,
            } => write!(
                f,
                "offload-build: the kernel crate `{kernel_crate}` depends on the kernel library `{library}`, whose #[kernel]s are not in the image: rustc links a dependency only where the crate uses it; add `use {library} as _;` to {}",
                lib_rs.display()
            ),
            Error::DependencyFeatures {
                kernel_crate,
                differences,
            } => dependency_features(f, kernel_crate, differences),
            Error::NoKernels { dir, image } => write!(
                f,
                "{}: the device build of the kernel crate {} has no kernel: neither the crate nor its dependencies define an #[offload::kernel] in it (is a #[kernel] cfg'd out with offload's `device` feature or the device target?)",
                image.display(),
                dir.display()
            ),
            Error::DeviceBuildFailed { dir, target } => write!(
                f,
                "building the kernel crate {} for {target} failed (cargo's messages above)",
                dir.display()
            ),
            Error::NeverNamesOffload { dir } => never_names_offload(f, dir),
            Error::NoImage { name, dir } => write!(f, "no image lib{name}.* in {}", dir.display()),
            Error::BadTarget { .. }
            | Error::PtxasNotFound { .. }
            | Error::PtxasFailed { .. }
            | Error::CoreBuildFailed { .. }
            | Error::KernelDiffers { .. } => self.fmt_targets(f),
            Error::NotAnObject { .. }
            | Error::RecordWithoutSection { .. }
            | Error::RecordOutsideSection { .. }
            | Error::BadRecord { .. }
            | Error::StubsRefused { .. } => self.fmt_image(f),
        }
    }
}

impl Error {
    /// The messages of the errors found reading an image and lowering its
    /// launch stubs.
    fn fmt_image(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NotAnObject { image, source } => write!(f, "{}: {source}", image.display()),
            Error::RecordWithoutSection { image, symbol } => {
                write!(f, "{}: {symbol} has no section", image.display())
            }
            Error::RecordOutsideSection { image, symbol } => {
                write!(f, "{}: {symbol} is outside its section", image.display())
            }
            Error::BadRecord {
                image,
                kernel,
                problem,
            } => write!(f, "{}: kernel record {kernel}: {problem}", image.display()),
            Error::StubsRefused {
                images,
                kernels,
                stderr,
            } => write!(
                f,
                "offload-host refused the launch stubs of the images {} (kernels: {}):\n{stderr}",
                images
                    .iter()
                    .map(|i| i.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                kernels.join(", ")
            ),
            _ => Ok(()),
        }
    }

    /// The messages of the errors of several targets and GPU images.
    fn fmt_targets(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::BadTarget { item, why } => write!(
                f,
                "offload-build: target `{item}` (OFFLOAD_TARGETS or the build script's targets): {why}"
            ),
            Error::PtxasNotFound {
                given: Some(given), ..
            } => write!(
                f,
                "offload-build: OFFLOAD_PASSES_PTXAS names {}, which is not a file",
                given.display()
            ),
            Error::PtxasNotFound {
                given: None,
                plugin,
            } => write!(
                f,
                "offload-build: no ptxas for the nvptx image (libomptarget's CUDA plugin loads cubins): \
                 set OFFLOAD_PASSES_PTXAS to one, or run the offload-passes repository's scripts/setup.sh \
                 (it puts NVIDIA's ptxas, from the PyPI wheel nvidia-cuda-nvcc-cu12, in tools/bin/, \
                 found from the plugin {}), or put CUDA's ptxas on PATH",
                plugin.display()
            ),
            Error::PtxasFailed { ptx, stderr } => {
                write!(f, "ptxas refused {}:\n{stderr}", ptx.display())
            }
            Error::CoreBuildFailed { target, dir } => write!(
                f,
                "building core for {target} with -Zbuild-std=core in {} failed (cargo's messages above; \
                 is rustup's rust-src component installed?)",
                dir.display()
            ),
            Error::KernelDiffers {
                kernel,
                target,
                first,
                what,
            } => write!(
                f,
                "kernel `{kernel}` in the image for {target} differs from the first image's ({first}): {what}"
            ),
            // The other variants are written by `Display::fmt`.
            _ => Ok(()),
        }
    }
}

impl std::error::Error for Error {}

/// `Error::Io` for `path`, for `map_err`.
pub(crate) fn io(path: &std::path::Path) -> impl FnOnce(std::io::Error) -> Error + '_ {
    move |source| Error::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The message of [`Error::DependencyFeatures`].
fn dependency_features(
    f: &mut fmt::Formatter<'_>,
    kernel_crate: &str,
    differences: &[FeatureDifference],
) -> fmt::Result {
    let list = |features: &[String]| match features {
        [] => "none".to_owned(),
        features => features
            .iter()
            .map(|f| format!("`{f}`"))
            .collect::<Vec<_>>()
            .join(", "),
    };
    write!(
        f,
        "offload-build: the dependencies of the kernel crate `{kernel_crate}` have other features in the host build than in its device build, so its kernels would compute otherwise on the device than the host expects:"
    )?;
    for d in differences {
        write!(
            f,
            "\n  {}: only in the host build: {}; only in the device build: {}",
            d.package,
            list(&d.host_only),
            list(&d.device_only)
        )?;
    }
    let name = differences
        .first()
        .and_then(|d| d.package.split(' ').next())
        .unwrap_or("the crate");
    write!(
        f,
        "\ncargo enables a package's features for a whole build, so another package of the host build turns these on (or off), while the device build resolves the kernel crate alone; give the kernel crate's own dependency on each of them the host build's features in its Cargo.toml (e.g. `{name} = {{ ..., features = [...] }}`; a direct dependency, if it has none), or take them out of the host build"
    )
}

/// The message of [`Error::NeverNamesOffload`].
fn never_names_offload(f: &mut fmt::Formatter<'_>, dir: &std::path::Path) -> fmt::Result {
    write!(
        f,
        "offload-build: the kernel crate {} has no kernel: it never names `offload` (no #[offload::kernel], no `use offload`), so rustc does not link offload into its device build, and offload supplies the device's panic handler (hence rustc's \"`#[panic_handler]` function required\" above); define its kernels with #[offload::kernel], or name the kernel library that defines them (`use mathlib as _;`)",
        dir.display()
    )
}

impl From<offload_contract::libomptarget::LlvmConfigError> for Error {
    fn from(error: offload_contract::libomptarget::LlvmConfigError) -> Self {
        Error::LlvmConfig(error)
    }
}
