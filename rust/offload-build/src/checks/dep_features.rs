//! Features of the kernel crate's dependencies. Cargo enables a package's
//! features for a whole build: in the host build of a program, another
//! package (the host crate) may turn on a feature of a crate the kernel
//! crate uses, while the device build, of the kernel crate alone, resolves
//! its dependencies without it; the kernel would then compute with other
//! constants or code on the device than the host expects. (The kernel
//! crate's own features are compared at every launch, by its feature word.)
//!
//! Before the device build, `cargo tree` resolves both: the host build's
//! from the command line of the cargo that runs the build script (its
//! package selection and feature flags, in its directory, for the build
//! script's `TARGET`), and the device build's from the kernel crate with
//! the device build's features, for the device target. Every package of
//! the kernel crate's dependency graph in both (but the kernel crate itself
//! and `offload`, whose `device` feature is the device build's own) must
//! have the same features, or the build stops naming the package and the
//! features. A resolve that cannot be read is a `cargo:warning` saying the
//! check did not run.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::error::{Error, FeatureDifference};
use crate::manifest::package_name;
use crate::mode::{nested_cargo, output_of};

/// One package of a resolve: `cargo tree`'s `{p}` (name, version, source)
/// and its enabled features (`{f}`), sorted.
type Features = BTreeMap<String, Vec<String>>;

/// The flags of the host cargo's command line that decide its resolve:
/// (flag, whether it takes a value). Global flags (`--config`, `-Z`) too.
const RESOLVE_FLAGS: &[(&str, bool)] = &[
    ("-p", true),
    ("--package", true),
    ("--exclude", true),
    ("-F", true),
    ("--features", true),
    ("--manifest-path", true),
    ("--config", true),
    ("-Z", true),
    ("--workspace", false),
    ("--all", false),
    ("--all-features", false),
    ("--no-default-features", false),
    ("--locked", false),
    ("--frozen", false),
    ("--offline", false),
];

/// Flags of cargo's command lines that take a value but decide nothing of
/// the resolve (skipped with their value).
const OTHER_VALUE_FLAGS: &[&str] = &[
    "--bin",
    "--example",
    "--test",
    "--bench",
    "-j",
    "--jobs",
    "--profile",
    "--target",
    "--target-dir",
    "--message-format",
    "--color",
    "--artifact-dir",
    "--lockfile-path",
    "-C",
    "--explain",
];

/// The host cargo's run, as `cargo tree` reproduces its resolve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HostRun {
    /// Its resolve flags ([`RESOLVE_FLAGS`]), with their values.
    pub flags: Vec<String>,
    /// A run that builds tests or benches (`cargo test`, `bench`): dev-
    /// dependencies take part in the resolve.
    pub dev: bool,
}

/// The resolve flags of a cargo command line (`argv[0]` first), `None` for
/// another program.
pub(crate) fn host_run<S: AsRef<str>>(argv: &[S]) -> Option<HostRun> {
    let program = Path::new(argv.first()?.as_ref()).file_name()?;
    if !program.to_string_lossy().starts_with("cargo") {
        return None;
    }
    let mut run = HostRun {
        flags: Vec::new(),
        dev: false,
    };
    let mut subcommand = None;
    let mut args = argv.iter().skip(1).map(AsRef::as_ref);
    while let Some(arg) = args.next() {
        if arg == "--" {
            break;
        }
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) if flag.starts_with('-') => (flag, Some(value)),
            _ => (arg, None),
        };
        if let Some(&(_, takes_value)) = RESOLVE_FLAGS.iter().find(|(f, _)| *f == flag) {
            run.flags.push(flag.to_owned());
            if takes_value {
                run.flags.push(inline.or_else(|| args.next())?.to_owned());
            }
        } else if OTHER_VALUE_FLAGS.contains(&flag) && inline.is_none() {
            args.next();
        } else if !arg.starts_with(['-', '+']) && subcommand.is_none() {
            subcommand = Some(arg);
        }
    }
    run.dev = matches!(subcommand, Some("test" | "t" | "bench"));
    Some(run)
}

/// The command line and directory of the cargo that runs this build
/// script, from `/proc`.
fn parent_cargo() -> Result<(PathBuf, HostRun), String> {
    let parent = std::os::unix::process::parent_id();
    let unreadable =
        |e: std::io::Error| format!("the command line of its cargo cannot be read ({e})");
    let bytes = std::fs::read(format!("/proc/{parent}/cmdline")).map_err(unreadable)?;
    let cwd = std::fs::read_link(format!("/proc/{parent}/cwd")).map_err(unreadable)?;
    let argv: Vec<String> = bytes
        .split(|b| *b == 0)
        .filter(|a| !a.is_empty())
        .map(|a| String::from_utf8_lossy(a).into_owned())
        .collect();
    let run = host_run(&argv)
        .ok_or_else(|| "the build script does not run under a cargo command line".to_owned())?;
    Ok((cwd, run))
}

/// `cargo tree` in `dir` with `args`, every package with its features
/// (`--prefix depth`, no deduplication).
fn cargo_tree(dir: &Path, args: &[String]) -> Result<Vec<(usize, String, Vec<String>)>, String> {
    let mut cmd = nested_cargo();
    cmd.current_dir(dir).arg("tree").args(args);
    // A build script never downloads: the packages the build needs are
    // there (a resolve that needs another is a warning).
    if !args.iter().any(|a| a == "--offline" || a == "--frozen") {
        cmd.arg("--offline");
    }
    cmd.args(["--no-dedupe", "--prefix", "depth", "--format", "{p}|{f}"]);
    let out = output_of(cmd, &format!("`cargo tree {}`", args.join(" ")))?;
    Ok(parse_tree(&String::from_utf8_lossy(&out)))
}

/// `cargo tree --prefix depth --format '{p}|{f}'`'s lines: depth, package,
/// features (sorted).
fn parse_tree(text: &str) -> Vec<(usize, String, Vec<String>)> {
    text.lines()
        .filter_map(|line| {
            let digits = line.find(|c: char| !c.is_ascii_digit())?;
            let depth = line[..digits].parse().ok()?;
            let (package, features) = line[digits..].rsplit_once('|')?;
            let mut features: Vec<String> = features
                .split(',')
                .map(str::trim)
                .filter(|f| !f.is_empty())
                .map(str::to_owned)
                .collect();
            features.sort();
            Some((depth, package.trim().to_owned(), features))
        })
        .collect()
}

/// The packages under the first `root` of `tree` (`root` is the kernel
/// crate's `{p}`, or `None`: the first line), with their features; a proc
/// macro's dependencies are left out (built for the build machine in both
/// builds).
fn subtree(tree: &[(usize, String, Vec<String>)], root: Option<&str>) -> Option<Features> {
    let at = match root {
        Some(root) => tree.iter().position(|(_, p, _)| p == root)?,
        None => 0,
    };
    let depth = tree.get(at)?.0;
    let mut out = Features::new();
    let mut skip_below: Option<usize> = None;
    for (d, package, features) in tree[at + 1..].iter() {
        if *d <= depth {
            break;
        }
        if skip_below.is_some_and(|s| *d > s) {
            continue;
        }
        // `name vX (proc-macro) (/path)`.
        skip_below = package.contains(" (proc-macro)").then_some(*d);
        out.insert(package.clone(), features.clone());
    }
    Some(out)
}

/// The manifests of the local packages (`name vX (/path)`) of a tree.
fn local_manifests(tree: &[(usize, String, Vec<String>)]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    for (_, package, _) in tree {
        let Some(dir) = package.rsplit_once(" (/").map(|(_, dir)| dir) else {
            continue;
        };
        let manifest = Path::new("/")
            .join(dir.trim_end_matches(')'))
            .join("Cargo.toml");
        if !out.contains(&manifest) {
            out.push(manifest);
        }
    }
    out
}

/// The packages of `device` (the kernel crate's device resolve) whose
/// features `host` (its host resolve) has otherwise; `offload` is left out.
fn differences(host: &Features, device: &Features) -> Vec<FeatureDifference> {
    device
        .iter()
        .filter(|(package, _)| !package.starts_with("offload v"))
        .filter_map(|(package, on_device)| {
            let on_host = host.get(package)?;
            let only = |a: &[String], b: &[String]| -> Vec<String> {
                a.iter().filter(|f| !b.contains(f)).cloned().collect()
            };
            let difference = FeatureDifference {
                package: package.clone(),
                host_only: only(on_host, on_device),
                device_only: only(on_device, on_host),
            };
            (!difference.host_only.is_empty() || !difference.device_only.is_empty())
                .then_some(difference)
        })
        .collect()
}

/// Compares the features of the kernel crate at `dir`'s dependencies in the
/// host build (for `host_target`) and in its device build (for
/// `device_target`, with `device_flags`: its `--features` and
/// `--no-default-features`).
pub(crate) fn check(
    dir: &Path,
    host_target: &str,
    device_target: &str,
    device_flags: &[String],
) -> Result<(), Error> {
    let manifest = dir.join("Cargo.toml");
    match resolve_both(&manifest, host_target, device_target, device_flags) {
        Ok((host, device)) => {
            let differences = differences(&host, &device);
            if differences.is_empty() {
                return Ok(());
            }
            Err(Error::DependencyFeatures {
                kernel_crate: package_name(&manifest).unwrap_or_default(),
                differences,
            })
        }
        Err(why) => {
            println!(
                "cargo::warning=offload-build: not checked whether the kernel crate {}'s dependencies have the same features in the host and the device build: {why}",
                dir.display()
            );
            Ok(())
        }
    }
}

/// The kernel crate's dependencies with their features in the host and in
/// the device resolve.
fn resolve_both(
    manifest: &Path,
    host_target: &str,
    device_target: &str,
    device_flags: &[String],
) -> Result<(Features, Features), String> {
    let (cwd, run) = parent_cargo()?;
    let kernel_dir = manifest.parent().unwrap_or(Path::new("."));
    let mut device_args = vec![
        "--manifest-path".to_owned(),
        manifest.display().to_string(),
        "-e".to_owned(),
        "normal".to_owned(),
        "--target".to_owned(),
        device_target.to_owned(),
    ];
    device_args.extend(device_flags.iter().cloned());
    let device_tree = cargo_tree(kernel_dir, &device_args)?;
    let root = device_tree
        .first()
        .map(|(_, p, _)| p.clone())
        .ok_or("`cargo tree` of the kernel crate printed nothing")?;
    let device = subtree(&device_tree, None).unwrap_or_default();
    let mut host_args = run.flags.clone();
    let edges = if run.dev { "normal,dev" } else { "normal" };
    host_args.extend([
        "-e".into(),
        edges.into(),
        "--target".into(),
        host_target.into(),
    ]);
    let host_tree = cargo_tree(&cwd, &host_args)?;
    // An edit of a local package's manifest can change the host build's
    // features of the kernel crate's dependencies: check again then.
    for manifest in local_manifests(&host_tree) {
        println!("cargo::rerun-if-changed={}", manifest.display());
    }
    let host = subtree(&host_tree, Some(&root))
        .ok_or_else(|| format!("the host build's `cargo tree` does not show {root}"))?;
    Ok((host, device))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(line: &str) -> Option<HostRun> {
        host_run(&line.split(' ').collect::<Vec<_>>())
    }

    #[test]
    fn the_host_runs_resolve_flags() {
        let r = run("/t/bin/cargo +nightly --config a=1 build --release -p host --features host/x,common/big -j 4 --bin app --locked -- -p no").unwrap();
        assert_eq!(
            r.flags,
            [
                "--config",
                "a=1",
                "-p",
                "host",
                "--features",
                "host/x,common/big",
                "--locked"
            ]
        );
        assert!(!r.dev);
        let r = run("cargo test --workspace --all-features --manifest-path=w/Cargo.toml --target x86_64-unknown-linux-gnu").unwrap();
        assert_eq!(
            r.flags,
            [
                "--workspace",
                "--all-features",
                "--manifest-path",
                "w/Cargo.toml"
            ]
        );
        assert!(r.dev);
        assert!(run("cargo t -F big").unwrap().dev);
        assert_eq!(run("rustc --crate-name x"), None);
    }

    const HOST_TREE: &str = "\
0feat-host v0.1.0 (/w/host)|
1feat-common v0.1.0 (/w/common)|big,default
1feat-kernels v0.1.0 (/w/kernels)|
2feat-common v0.1.0 (/w/common)|big,default
2libm v0.2.8|default
2offload v0.1.0 (/o/offload)|
3offload-macros v0.1.0 (proc-macro) (/o/offload-macros)|
4offload-contract v0.1.0 (/o/offload-contract)|digest
4syn v2.0.0|full,parsing
3offload-contract v0.1.0 (/o/offload-contract)|
1offload v0.1.0 (/o/offload)|
";

    const DEVICE_TREE: &str = "\
0feat-kernels v0.1.0 (/w/kernels)|
1feat-common v0.1.0 (/w/common)|default
1libm v0.2.8|default
1offload v0.1.0 (/o/offload)|device
2offload-macros v0.1.0 (proc-macro) (/o/offload-macros)|
3offload-contract v0.1.0 (/o/offload-contract)|digest
3syn v2.0.0|full
2offload-contract v0.1.0 (/o/offload-contract)|
";

    #[test]
    fn the_kernel_crates_dependencies_are_compared() {
        let host_tree = parse_tree(HOST_TREE);
        let device_tree = parse_tree(DEVICE_TREE);
        let host = subtree(&host_tree, Some("feat-kernels v0.1.0 (/w/kernels)")).unwrap();
        let device = subtree(&device_tree, None).unwrap();
        // Under the kernel crate only; a proc macro's dependencies left out.
        assert_eq!(
            host.keys().collect::<Vec<_>>(),
            [
                "feat-common v0.1.0 (/w/common)",
                "libm v0.2.8",
                "offload v0.1.0 (/o/offload)",
                "offload-contract v0.1.0 (/o/offload-contract)",
                "offload-macros v0.1.0 (proc-macro) (/o/offload-macros)"
            ]
        );
        assert_eq!(
            differences(&host, &device),
            [FeatureDifference {
                package: "feat-common v0.1.0 (/w/common)".into(),
                host_only: vec!["big".into()],
                device_only: vec![],
            }]
        );
        assert_eq!(differences(&device, &device), []);
        // A proc macro's dependencies are built for the build machine: not
        // the kernel's code, left out.
        assert_eq!(
            host["offload-contract v0.1.0 (/o/offload-contract)"],
            Vec::<String>::new()
        );
        assert_eq!(
            local_manifests(&host_tree),
            [
                Path::new("/w/host/Cargo.toml"),
                Path::new("/w/common/Cargo.toml"),
                Path::new("/w/kernels/Cargo.toml"),
                Path::new("/o/offload/Cargo.toml"),
                Path::new("/o/offload-macros/Cargo.toml"),
                Path::new("/o/offload-contract/Cargo.toml")
            ]
        );
    }
}
