//! Whether this run of the build script builds the device side: a run of
//! cargo that links (build, test, run, bench, install) needs the image and
//! the stubs; `cargo check`, `clippy`, `doc` (rust-analyzer runs `cargo
//! check`) link nothing and need neither the plugin nor the device build.
//!
//! A build script cannot tell those runs apart from its environment (cargo
//! shares a build script's output between check and build), but its parent
//! process is the cargo that runs it: its command line names the
//! subcommand. A skipped run prints `cargo::rerun-if-changed` of a path that
//! never exists, so the next linking run reruns the build script and builds
//! the image.

use std::ffi::OsStr;
use std::path::PathBuf;
use std::process::Command;

use crate::error::Error;

/// Environment variable overriding how the device build is chosen, for
/// tools whose build scripts are not run by a cargo whose command line says
/// what it does: `skip` (no device build: nothing is built and nothing is
/// linked, as in `cargo check`) or `run` (always build, also under `cargo
/// check`). Unset: from the command line of the cargo running the build
/// script, a linking run building and any other skipping; a command line
/// that cannot be read or is not known builds.
pub const OFFLOAD_DEVICE_BUILD: &str = "OFFLOAD_DEVICE_BUILD";

/// Set by offload-build for the cargo runs it starts itself (the device
/// build, the expansion pass, the shared `core`): a kernel crate's own build
/// script runs in them too and must not start another device build.
/// Internal to offload-build; never set it by hand.
pub(crate) const OFFLOAD_BUILD_NESTED: &str = "OFFLOAD_BUILD_NESTED";

/// What a run of [`crate::DeviceCrate::build`] does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Build the images and the stubs and link them.
    Build,
    /// A run that links nothing (`cargo check`, `clippy`, `doc`): no device
    /// build, no plugin needed.
    Skip,
    /// Forced skip ([`OFFLOAD_DEVICE_BUILD`]`=skip`) in a run that links:
    /// like [`Mode::Skip`], with a warning (the program will not link).
    SkipLinking,
    /// Inside one of offload-build's own cargo runs: nothing to do.
    Nested,
}

/// The mode of this build script's run.
pub(crate) fn current() -> Result<Mode, Error> {
    println!("cargo::rerun-if-env-changed={OFFLOAD_DEVICE_BUILD}");
    if std::env::var_os(OFFLOAD_BUILD_NESTED).is_some() {
        return Ok(Mode::Nested);
    }
    let links = parent_cargo_links();
    match std::env::var_os(OFFLOAD_DEVICE_BUILD) {
        None => Ok(if links { Mode::Build } else { Mode::Skip }),
        Some(value) if value == "run" => Ok(Mode::Build),
        Some(value) if value == "skip" => Ok(if links { Mode::SkipLinking } else { Mode::Skip }),
        Some(value) => Err(Error::BadDeviceBuildMode {
            value: value.to_string_lossy().into_owned(),
        }),
    }
}

/// A path that never exists: cargo reruns a build script that named it in
/// `rerun-if-changed` on every run, so a skipped device build happens on the
/// next run that links.
pub(crate) fn never_fresh(out_dir: &std::path::Path) -> PathBuf {
    out_dir.join("offload-device-build-skipped-rerun-next-time")
}

/// Whether the cargo that runs this build script links: its command line
/// (`/proc/<parent>/cmdline`), [`links`]; `true` where it cannot be read.
fn parent_cargo_links() -> bool {
    let parent = std::os::unix::process::parent_id();
    let Ok(bytes) = std::fs::read(format!("/proc/{parent}/cmdline")) else {
        return true;
    };
    let args: Vec<&OsStr> = bytes
        .split(|b| *b == 0)
        .filter(|a| !a.is_empty())
        .map(|a| {
            use std::os::unix::ffi::OsStrExt;
            OsStr::from_bytes(a)
        })
        .collect();
    links(&args)
}

/// Whether a cargo command line (`argv[0]` first) runs a subcommand that
/// links; a program other than cargo links. Skipped: the toolchain (`+nightly`), cargo's global flags and
/// their values; then the subcommand decides: `check`/`c`, `clippy`,
/// `doc`/`d`, `rustdoc`, `fix` and `metadata` link nothing; `build`/`b`,
/// `test`/`t`, `run`/`r`, `bench`, `install`, `package` (its verification
/// build), `rustc` and anything not known link.
pub(crate) fn links<S: AsRef<OsStr>>(argv: &[S]) -> bool {
    // Only cargo's own command line says what the run does.
    let is_cargo = argv.first().is_some_and(|program| {
        std::path::Path::new(program.as_ref())
            .file_name()
            .is_some_and(|name| name.to_string_lossy().starts_with("cargo"))
    });
    if !is_cargo {
        return true;
    }
    /// Global flags followed by a value (unless written `--flag=value`).
    const WITH_VALUE: &[&str] = &["--color", "--config", "-C", "-Z", "--explain"];
    const NO_LINK: &[&str] = &[
        "check", "c", "clippy", "doc", "d", "rustdoc", "fix", "metadata",
    ];
    let mut args = argv.iter().skip(1).map(|a| a.as_ref().to_string_lossy());
    while let Some(arg) = args.next() {
        if arg.starts_with('+') {
            continue;
        }
        if WITH_VALUE.contains(&arg.as_ref()) {
            args.next();
            continue;
        }
        if arg.starts_with('-') {
            continue;
        }
        return !NO_LINK.contains(&arg.as_ref());
    }
    true
}

/// A nested cargo: `$CARGO` (the cargo running this build script), else
/// `cargo` on the PATH, with the outer build's settings removed
/// ([`clean_env`]).
pub(crate) fn nested_cargo() -> Command {
    let mut cmd = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    clean_env(&mut cmd);
    cmd
}

/// Runs `cmd` (named `command` in messages) and returns its standard
/// output, or why not: it could not start, or it failed, with its first
/// `error` line (else its first line of standard error).
pub(crate) fn output_of(mut cmd: Command, command: &str) -> Result<Vec<u8>, String> {
    let out = cmd
        .output()
        .map_err(|e| format!("{command} could not start: {e}"))?;
    if out.status.success() {
        return Ok(out.stdout);
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    let said = stderr
        .lines()
        .find(|l| l.starts_with("error"))
        .or_else(|| stderr.lines().next())
        .unwrap_or("no output");
    Err(format!("{command} failed ({})", said.trim()))
}

/// Removes what the outer cargo set for this build script, which must not
/// steer a nested cargo; the jobserver (CARGO_MAKEFLAGS) and RUSTC stay. Marks
/// the run as offload-build's own, where a kernel crate's build script does
/// nothing (this module).
pub(crate) fn clean_env(cmd: &mut Command) {
    cmd.env(OFFLOAD_BUILD_NESTED, "1");
    for (key, _) in std::env::vars_os() {
        let key = key.to_string_lossy().into_owned();
        let drop = key.starts_with("CARGO_PROFILE_")
            || key.starts_with("CARGO_BUILD_")
            || key.starts_with("CARGO_TARGET_")
            || key.starts_with("CARGO_CFG_")
            || key.starts_with("CARGO_FEATURE_")
            || key.starts_with("OFFLOAD_PASSES_PIPELINE")
            || key.starts_with("OFFLOAD_PASSES_OPTIMIZER")
            || matches!(
                key.as_str(),
                "RUSTFLAGS"
                    | "CARGO_ENCODED_RUSTFLAGS"
                    | "RUSTDOCFLAGS"
                    | "CARGO_ENCODED_RUSTDOCFLAGS"
                    | "CARGO_INCREMENTAL"
                    | "RUSTC_WORKSPACE_WRAPPER"
                    | "CARGO_MANIFEST_DIR"
                    | "CARGO_MANIFEST_PATH"
                    | "CARGO_PKG_NAME"
            );
        if drop {
            cmd.env_remove(&key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn links_(line: &str) -> bool {
        links(&line.split(' ').collect::<Vec<_>>())
    }

    #[test]
    fn cargo_command_lines_that_link() {
        for line in [
            "cargo build",
            "/home/u/.rustup/toolchains/stable/bin/cargo build --release",
            "cargo b",
            "cargo test --doc",
            "cargo t",
            "cargo run -p app",
            "cargo r",
            "cargo bench",
            "cargo install --path .",
            "cargo rustc --lib",
            "cargo package",
            "cargo +nightly -Zunstable-options build",
            "cargo --color always -C dir test",
            "cargo --config build.jobs=1 build",
            "cargo -v --locked build",
            "cargo my-alias",
            "cargo",
            "make check",
            "/bin/sh -c check",
        ] {
            assert!(links_(line), "{line}");
        }
    }

    #[test]
    fn cargo_command_lines_that_link_nothing() {
        for line in [
            "cargo check",
            "/usr/bin/cargo check --workspace --message-format=json --all-targets",
            "cargo c",
            "cargo clippy --all-targets -- -D warnings",
            "cargo doc --no-deps",
            "cargo d",
            "cargo rustdoc",
            "cargo fix",
            "cargo metadata",
            "cargo +stable check",
            "cargo --color never --config build.jobs=1 -Z x -C . check",
            "cargo --color=always -q check",
            "cargo -vv c",
        ] {
            assert!(!links_(line), "{line}");
        }
    }

    #[test]
    fn a_nested_run_gives_its_output_or_its_first_error_line() {
        let sh = |script: &str| {
            let mut cmd = Command::new("sh");
            cmd.args(["-c", script]);
            cmd
        };
        assert_eq!(output_of(sh("echo out"), "`x`").unwrap(), b"out\n");
        let failed = sh("echo out; echo note >&2; echo 'error: boom ' >&2; exit 3");
        assert_eq!(
            output_of(failed, "`x`").unwrap_err(),
            "`x` failed (error: boom)"
        );
        let quiet = sh("echo first >&2; echo second >&2; exit 1");
        assert_eq!(output_of(quiet, "`x`").unwrap_err(), "`x` failed (first)");
        assert_eq!(
            output_of(sh("exit 1"), "`x`").unwrap_err(),
            "`x` failed (no output)"
        );
        let missing = Command::new("/nonexistent/cargo");
        let err = output_of(missing, "`y`").unwrap_err();
        assert!(err.starts_with("`y` could not start: "), "{err}");
    }
}
