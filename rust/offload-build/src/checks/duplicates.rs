//! Explaining a device build that failed on one symbol defined twice: two
//! `#[kernel]`s (of one crate, or of the kernel crate and a kernel library)
//! with one symbol. rustc names one item (`symbol ... is already defined`),
//! fat LTO none (`Linking globals named ...: symbol multiply defined!`);
//! the kernels' markers in the `-Zunpretty=expanded` output of the crates
//! involved name both. This runs only after such a failure: a build that
//! succeeds compiles each crate once.

use std::path::Path;
use std::process::Command;

use offload_contract::record::{KERNEL_MARKER, SYMBOL_PREFIX};

use crate::error::Error;
use crate::mode::nested_cargo;

/// The symbol a failed device build's messages say two items define.
pub fn clashing_symbol(stderr: &str) -> Option<&str> {
    let between = |start: &str, end: &str| {
        let from = stderr.find(start)? + start.len();
        let len = stderr[from..].find(end)?;
        Some(&stderr[from..from + len])
    };
    between("symbol `", "` is already defined")
        .or_else(|| between("Linking globals named '", "': symbol multiply defined"))
}

/// The crates (library names) whose bitcode fat LTO failed to link: those
/// of `failed to load bitcode of module "<crate>-<hash>...`.
fn lto_crates(stderr: &str) -> Vec<String> {
    let key = "failed to load bitcode of module \"";
    stderr
        .match_indices(key)
        .filter_map(|(at, _)| {
            let rest = &stderr[at + key.len()..];
            rest.find('-').map(|end| rest[..end].to_owned())
        })
        .collect()
}

/// The items a crate's expansion marks as kernels with symbol `kernel`.
fn marked_items(expanded: &str, kernel: &str) -> Vec<String> {
    let marker = format!("\"{KERNEL_MARKER}{kernel} ");
    expanded
        .match_indices(&marker)
        .filter_map(|(at, _)| {
            let rest = &expanded[at + marker.len()..];
            rest.find('"').map(|end| rest[..end].to_owned())
        })
        .collect()
}

/// The `-Zunpretty=expanded` output of the kernel crate (`package`
/// `None`, built by `kernel_crate`: the device build's command, with its
/// features) or of its dependency `package`, for `target`.
fn expanded(
    kernel_crate: Command,
    dir: &Path,
    target: &str,
    target_dir: &Path,
    package: Option<&str>,
) -> Option<String> {
    let mut cmd = match package {
        None => kernel_crate,
        Some(package) => {
            let mut cmd = nested_cargo();
            cmd.env("RUSTC_BOOTSTRAP", "1");
            cmd.env("CARGO_TARGET_DIR", target_dir);
            cmd.arg("rustc")
                .arg("--manifest-path")
                .arg(dir.join("Cargo.toml"));
            cmd.args(["-p", package, "--lib", "--target", target]);
            if crate::targets::is_gpu(target) {
                cmd.arg("-Zbuild-std=core");
            }
            cmd
        }
    };
    cmd.args(["--quiet", "--profile", "check", "--", "-Zunpretty=expanded"]);
    let out = cmd.output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The error naming both items of the symbol a failed device build of the
/// kernel crate at `dir` (whose messages are `stderr`) says is defined
/// twice, `None` where the failure is another or the items are not found.
/// `kernel_crate` makes the device build's command.
pub fn explain(
    kernel_crate: impl Fn() -> Option<Command>,
    dir: &Path,
    target: &str,
    target_dir: &Path,
    stderr: &str,
) -> Option<Error> {
    let symbol = clashing_symbol(stderr)?;
    let kernel = symbol.strip_prefix(SYMBOL_PREFIX).unwrap_or(symbol);
    let mut packages: Vec<Option<String>> = vec![None];
    // A crate's library name has `_` where its package name may have `-`.
    for name in lto_crates(stderr) {
        packages.push(Some(name.replace('_', "-")));
        if name.contains('_') {
            packages.push(Some(name));
        }
    }
    let mut items: Vec<String> = Vec::new();
    for package in &packages {
        let Some(cmd) = kernel_crate() else {
            continue;
        };
        let Some(text) = expanded(cmd, dir, target, target_dir, package.as_deref()) else {
            continue;
        };
        for item in marked_items(&text, kernel) {
            if !items.contains(&item) {
                items.push(item);
            }
        }
    }
    let [first, second, ..] = &items[..] else {
        return None;
    };
    Some(Error::DuplicateKernelSymbol {
        dir: dir.to_path_buf(),
        symbol: kernel.to_owned(),
        items: [first.clone(), second.clone()],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_crates_and_items_of_the_messages() {
        let rustc =
            "error: symbol `__offload_rs_record_twin` is already defined\n --> src/lib.rs:3:5";
        assert_eq!(clashing_symbol(rustc), Some("__offload_rs_record_twin"));
        let lto = "warning: Linking globals named '__offload_rs_record_sines': symbol multiply defined!\nerror: failed to load bitcode of module \"mathlib-bd5ef9dd55e35f8a.mathlib.da4654d0cfb43d2e-cgu.0.rcgu.o\": ";
        assert_eq!(clashing_symbol(lto), Some("__offload_rs_record_sines"));
        assert_eq!(lto_crates(lto), ["mathlib"]);
        assert_eq!(clashing_symbol("error: mismatched types"), None);
        let expanded = r#"const _: &str = "__offload_rs_kernel:twin k::a::twin";
const _: &str = "__offload_rs_kernel:twins k::twins";
const _: &str = "__offload_rs_kernel:twin k::b::twin";"#;
        assert_eq!(marked_items(expanded, "twin"), ["k::a::twin", "k::b::twin"]);
    }
}
