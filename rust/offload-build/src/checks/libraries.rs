//! Kernel libraries the image lacks: rustc links a dependency into the
//! device cdylib only where the kernel crate uses it, so a kernel library
//! the kernel crate depends on but never names has no kernels in the image,
//! and a launch of one fails only at the host's final link. After the
//! images are built, the kernel crate's direct normal dependencies that
//! depend on `offload` themselves (from `cargo metadata`) and have
//! `#[kernel]`s in their sources
//! must have a kernel in the image (each record names its crate), or be
//! named in the kernel crate's sources (then it is linked, and its kernels
//! are cfg'd out of the device build).

use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::image::Kernel;
use crate::manifest::package_name;
use crate::mode::{nested_cargo, output_of};
use serde_json::Value as Json;

/// The `offload` crate's package name.
const OFFLOAD: &str = "offload";

/// A kernel library the kernel crate depends on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Library {
    /// Its name in the kernel crate (the extern crate name: a renamed
    /// dependency's new name).
    pub extern_name: String,
    /// Its lib target's crate name, which its kernels' records carry.
    pub crate_name: String,
    /// The directory of its lib target's root source file.
    pub src_dir: PathBuf,
}

/// What `cargo metadata` says of the kernel crate at `manifest`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Dependencies {
    /// The kernel crate's package name.
    pub kernel_crate: String,
    /// Its lib target's root source file.
    pub lib_rs: PathBuf,
    /// Its kernel libraries.
    pub libraries: Vec<Library>,
}

/// Checks that every kernel library of the kernel crate at `dir` with
/// `#[kernel]`s has one in the image whose records are `kernels` (built for
/// `target`). Nothing to check where the kernel crate depends on nothing
/// but `offload`, or where a kernel names no crate ([`Kernel::named`]);
/// where the dependencies cannot be read, a `cargo:warning` says the check
/// did not run and why (a launch of such a library's kernel then fails at
/// the host's link).
pub(crate) fn check(dir: &Path, kernels: &[Kernel], target: &str) -> Result<(), Error> {
    let manifest = dir.join("Cargo.toml");
    if kernels.iter().any(|k| k.crate_name.is_empty()) || !has_other_dependencies(&manifest) {
        return Ok(());
    }
    let deps = match find_dependencies(&manifest, target) {
        Ok(deps) => deps,
        Err(why) => {
            println!("cargo::warning={}", skipped(&manifest, &why));
            return Ok(());
        }
    };
    let own_src = deps.lib_rs.parent().unwrap_or(dir);
    unlinked(
        &deps,
        kernels,
        |library| any_source(&library.src_dir, &mentions_kernel),
        |name| any_source(own_src, &|text| names_crate(text, name)),
    )
}

/// The warning of a check that could not run, for the kernel crate at
/// `manifest`.
fn skipped(manifest: &Path, why: &str) -> String {
    format!(
        "offload-build: not checked whether the kernel crate {} uses every kernel library it depends on: {why}; a launch of a kernel of a library it never names fails at the host's link (undefined symbol ``offload: no image in this program holds kernel `<symbol>` ...``)",
        manifest.display()
    )
}

/// The first kernel library with kernels (`has_kernels`), none in
/// `kernels`, and not named in the kernel crate's sources (`named`: a
/// library it names is linked, so its kernels are cfg'd out for the device)
/// as an error.
fn unlinked(
    deps: &Dependencies,
    kernels: &[Kernel],
    has_kernels: impl Fn(&Library) -> bool,
    named: impl Fn(&str) -> bool,
) -> Result<(), Error> {
    for library in &deps.libraries {
        let in_image = kernels.iter().any(|k| k.crate_name == library.crate_name);
        if !in_image && has_kernels(library) && !named(&library.extern_name) {
            return Err(Error::UnlinkedLibrary {
                kernel_crate: deps.kernel_crate.clone(),
                library: library.extern_name.clone(),
                lib_rs: deps.lib_rs.clone(),
            });
        }
    }
    Ok(())
}

/// Whether the manifest names a dependency other than `offload` (any
/// dependency table but dev- and build-dependencies): else there is no
/// library to look for and no `cargo metadata` to run.
fn has_other_dependencies(manifest: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(manifest) else {
        return true;
    };
    let mut in_deps = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            let table = line.trim_matches(|c| c == '[' || c == ']');
            if let Some((_, name)) = table.split_once("dependencies.") {
                // `[dependencies.mathlib]`
                let normal =
                    !table.contains("dev-dependencies") && !table.contains("build-dependencies");
                if normal && name.trim_matches('"') != OFFLOAD {
                    return true;
                }
                in_deps = false;
            } else {
                in_deps = table == "dependencies" || table.ends_with(".dependencies");
            }
        } else if in_deps && let Some((key, _)) = line.split_once('=') {
            // `offload.workspace = true`
            let key = key.trim().split('.').next().unwrap_or_default();
            let key = key.trim_matches('"');
            if !key.is_empty() && !key.starts_with('#') && key != OFFLOAD {
                return true;
            }
        }
    }
    false
}

/// The kernel crate at `manifest` and its kernel libraries. Its direct
/// dependencies by path (workspace members, local crates) need only
/// `cargo metadata --no-deps` of their manifests, which reads no registry;
/// another kind (a registry's or git's crate) needs the resolved graph for
/// `target`, from the packages cargo has (`--offline`: a build script never
/// downloads). The error says why neither could be read.
fn find_dependencies(manifest: &Path, target: &str) -> Result<Dependencies, String> {
    let canonical = manifest
        .canonicalize()
        .map_err(|e| format!("cannot read {}: {e}", manifest.display()))?;
    let name = package_name(manifest).map_err(|e| e.to_string())?;
    let local = cargo_metadata(manifest, &["--no-deps"])?;
    let load = |dep: &Path| cargo_metadata(dep, &["--no-deps"]).ok();
    if let Some(deps) = path_dependencies(&local, &name, &canonical, &load) {
        return Ok(deps);
    }
    let resolved = cargo_metadata(manifest, &["--offline", "--filter-platform", target])?;
    dependencies(&resolved, &name, &canonical).ok_or_else(|| {
        format!(
            "`cargo metadata` does not list the package `{name}` at {}",
            manifest.display()
        )
    })
}

/// `cargo metadata --format-version 1 <args> --manifest-path <manifest>`,
/// with the environment a nested cargo gets (it runs no build script, so no
/// nested-build marker needed); the error names the command and what it
/// said.
fn cargo_metadata(manifest: &Path, args: &[&str]) -> Result<Json, String> {
    let mut cmd = nested_cargo();
    cmd.args(["metadata", "--format-version", "1"])
        .args(args)
        .arg("--manifest-path")
        .arg(manifest);
    let command = format!("`cargo metadata {}`", args.join(" "));
    let out = output_of(cmd, &command)?;
    serde_json::from_slice::<Json>(&out).map_err(|e| format!("{command} printed no JSON: {e}"))
}

/// The kernel crate (package `name`, manifest `manifest`) and its kernel
/// libraries from `cargo metadata --no-deps` of its workspace (`local`),
/// where every direct normal dependency but `offload` is a path
/// dependency: a dependency's package is a member of `local`, else `load`
/// reads its manifest. `None` where a dependency is of another kind or
/// cannot be read.
fn path_dependencies(
    local: &Json,
    name: &str,
    manifest: &Path,
    load: &dyn Fn(&Path) -> Option<Json>,
) -> Option<Dependencies> {
    path_dependencies_with(local, name, manifest, load, &|p| p.canonicalize().ok())
}

/// [`path_dependencies`], with `canonical` making a dependency's manifest
/// path comparable with `cargo metadata`'s.
fn path_dependencies_with(
    local: &Json,
    name: &str,
    manifest: &Path,
    load: &dyn Fn(&Path) -> Option<Json>,
    canonical: &dyn Fn(&Path) -> Option<PathBuf>,
) -> Option<Dependencies> {
    let root = find_package(local, name, manifest)?;
    let (_, lib_rs) = lib_target(root)?;
    let mut libraries = Vec::new();
    for dep in root.get("dependencies").map(items).unwrap_or_default() {
        let normal = dep.get("kind") == Some(&Json::Null);
        let dep_name = dep.get("name")?.as_str()?;
        if !normal || dep_name == OFFLOAD {
            continue;
        }
        let dep_manifest = Path::new(dep.get("path")?.as_str()?).join("Cargo.toml");
        let dep_manifest = canonical(&dep_manifest)?;
        let loaded;
        let package = match find_package(local, dep_name, &dep_manifest) {
            Some(package) => package,
            None => {
                loaded = load(&dep_manifest)?;
                find_package(&loaded, dep_name, &dep_manifest)?
            }
        };
        let uses_offload = package
            .get("dependencies")
            .map(items)
            .unwrap_or_default()
            .iter()
            .any(|d| {
                d.get("kind") == Some(&Json::Null)
                    && d.get("name").and_then(Json::as_str) == Some(OFFLOAD)
            });
        let rename = dep.get("rename").and_then(Json::as_str);
        if uses_offload && let Some(library) = library(package, rename.map(|r| r.replace('-', "_")))
        {
            libraries.push(library);
        }
    }
    Some(Dependencies {
        kernel_crate: name.to_owned(),
        lib_rs,
        libraries,
    })
}

/// The kernel library that `package` is, named `extern_name` in the kernel
/// crate (`None`: its crate name); `None` when it has no library target.
fn library(package: &Json, extern_name: Option<String>) -> Option<Library> {
    let (crate_name, src) = lib_target(package)?;
    Some(Library {
        extern_name: extern_name.unwrap_or_else(|| crate_name.clone()),
        src_dir: src.parent()?.to_path_buf(),
        crate_name,
    })
}

/// The package `name` whose manifest is `manifest` (canonical) in
/// `cargo metadata`'s `packages`.
fn find_package<'a>(json: &'a Json, name: &str, manifest: &Path) -> Option<&'a Json> {
    json.get("packages").map(items)?.iter().find(|p| {
        p.get("name").and_then(Json::as_str) == Some(name)
            && p.get("manifest_path")
                .and_then(Json::as_str)
                .is_some_and(|m| {
                    let m = Path::new(m);
                    m == manifest || m.canonicalize().is_ok_and(|c| c == manifest)
                })
    })
}

/// The kernel crate (package `name`, manifest `manifest`) and its kernel
/// libraries: direct normal dependencies in the resolve graph that depend
/// directly (normally) on `offload`.
pub(crate) fn dependencies(json: &Json, name: &str, manifest: &Path) -> Option<Dependencies> {
    let packages = json.get("packages").map(items)?;
    let nodes = json.get("resolve")?.get("nodes").map(items)?;
    let package = |id: &str| {
        packages
            .iter()
            .find(|p| p.get("id").and_then(Json::as_str) == Some(id))
    };
    let root = find_package(json, name, manifest)?;
    let root_id = root.get("id")?.as_str()?;
    let node = |id: &str| {
        nodes
            .iter()
            .find(|n| n.get("id").and_then(Json::as_str) == Some(id))
    };
    let (_, lib_rs) = lib_target(root)?;
    let mut libraries = Vec::new();
    for dep in normal_deps(node(root_id)?) {
        let (extern_name, id) = dep;
        let Some(dep_package) = package(id) else {
            continue;
        };
        if dep_package.get("name").and_then(Json::as_str) == Some(OFFLOAD) {
            continue;
        }
        let uses_offload = node(id).is_some_and(|n| {
            normal_deps(n).any(|(_, d)| {
                package(d)
                    .and_then(|p| p.get("name"))
                    .and_then(Json::as_str)
                    == Some(OFFLOAD)
            })
        });
        if uses_offload && let Some(library) = library(dep_package, Some(extern_name.to_owned())) {
            libraries.push(library);
        }
    }
    Some(Dependencies {
        kernel_crate: name.to_owned(),
        lib_rs,
        libraries,
    })
}

/// A resolve node's normal dependencies: (extern crate name, package id).
/// The elements of a JSON array (none for any other value).
fn items(value: &Json) -> &[Json] {
    value.as_array().map_or(&[], Vec::as_slice)
}

fn normal_deps(node: &Json) -> impl Iterator<Item = (&str, &str)> {
    node.get("deps")
        .map(items)
        .unwrap_or_default()
        .iter()
        .filter(|dep| {
            dep.get("dep_kinds")
                .map(items)
                .unwrap_or_default()
                .iter()
                .any(|k| k.get("kind") == Some(&Json::Null))
        })
        .filter_map(|dep| Some((dep.get("name")?.as_str()?, dep.get("pkg")?.as_str()?)))
}

/// A package's lib target: its crate name and root source file.
fn lib_target(package: &Json) -> Option<(String, PathBuf)> {
    let target = package.get("targets").map(items)?.iter().find(|t| {
        t.get("kind")
            .map(items)
            .unwrap_or_default()
            .iter()
            .any(|k| matches!(k.as_str(), Some("lib" | "rlib" | "cdylib" | "staticlib")))
    })?;
    let name = target.get("name")?.as_str()?.replace('-', "_");
    let src = PathBuf::from(target.get("src_path")?.as_str()?);
    Some((name, src))
}

/// Whether a failed device build of the kernel crate at `dir`, whose cargo
/// said `stderr`, lacked offload's panic handler because the crate never
/// names `offload` (in the sources under `src/`): rustc links a dependency
/// only where the crate names it.
pub(crate) fn lacks_offload(dir: &Path, stderr: &str) -> bool {
    stderr.contains("`#[panic_handler]` function required")
        && !any_source(&dir.join("src"), &|text| names_crate(text, OFFLOAD))
}

/// Whether a `.rs` file under `dir` says `says` (a text search: cheap).
fn any_source(dir: &Path, says: &dyn Fn(&str) -> bool) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    entries.flatten().any(|entry| {
        let path = entry.path();
        if path.is_dir() {
            any_source(&path, says)
        } else {
            path.extension().is_some_and(|e| e == "rs")
                && std::fs::read_to_string(&path).is_ok_and(|text| says(&text))
        }
    })
}

/// Whether `text` names crate `name` outside `//` comments (a `use`, a
/// path): an identifier of its own, not part of a longer one.
fn names_crate(text: &str, name: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    text.lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .any(|code| {
            code.match_indices(name).any(|(at, _)| {
                !code[..at].chars().next_back().is_some_and(ident)
                    && !code[at + name.len()..].chars().next().is_some_and(ident)
            })
        })
}

/// Whether `text` has a `#[kernel]` or `#[offload::kernel]` attribute (a
/// library with kernels has at least one).
fn mentions_kernel(text: &str) -> bool {
    ["#[kernel", "#[offload::kernel"].iter().any(|attr| {
        text.match_indices(attr).any(|(at, _)| {
            matches!(
                text[at + attr.len()..].chars().next(),
                Some(']' | '(' | ' ')
            )
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `cargo metadata` of a kernel crate `kernels` depending on `offload`,
    /// on the kernel library `mathlib` (renamed `math` in `kernels`), on
    /// `libm` (no `offload`), and (dev only) on the kernel library `extra`.
    const METADATA: &str = r#"{
      "packages": [
        {"name": "kernels", "id": "path+file:///w/kernels#0.1.0", "manifest_path": "/w/kernels/Cargo.toml",
         "targets": [{"kind": ["lib"], "name": "kernels", "src_path": "/w/kernels/src/lib.rs"}]},
        {"name": "mathlib", "id": "path+file:///w/mathlib#0.1.0", "manifest_path": "/w/mathlib/Cargo.toml",
         "targets": [{"kind": ["lib"], "name": "mathlib", "src_path": "/w/mathlib/src/lib.rs"}]},
        {"name": "extra", "id": "path+file:///w/extra#0.1.0", "manifest_path": "/w/extra/Cargo.toml",
         "targets": [{"kind": ["lib"], "name": "extra", "src_path": "/w/extra/src/lib.rs"}]},
        {"name": "libm", "id": "registry+x#libm@0.2.0", "manifest_path": "/r/libm/Cargo.toml",
         "targets": [{"kind": ["lib"], "name": "libm", "src_path": "/r/libm/src/lib.rs"}]},
        {"name": "offload", "id": "path+file:///o/offload#0.1.0", "manifest_path": "/o/offload/Cargo.toml",
         "targets": [{"kind": ["lib"], "name": "offload", "src_path": "/o/offload/src/lib.rs"}]}
      ],
      "resolve": {"root": null, "nodes": [
        {"id": "path+file:///w/kernels#0.1.0", "deps": [
          {"name": "offload", "pkg": "path+file:///o/offload#0.1.0", "dep_kinds": [{"kind": null, "target": null}]},
          {"name": "math", "pkg": "path+file:///w/mathlib#0.1.0", "dep_kinds": [{"kind": null, "target": null}]},
          {"name": "libm", "pkg": "registry+x#libm@0.2.0", "dep_kinds": [{"kind": null, "target": null}]},
          {"name": "extra", "pkg": "path+file:///w/extra#0.1.0", "dep_kinds": [{"kind": "dev", "target": null}]}]},
        {"id": "path+file:///w/mathlib#0.1.0", "deps": [
          {"name": "offload", "pkg": "path+file:///o/offload#0.1.0", "dep_kinds": [{"kind": null, "target": null}]},
          {"name": "libm", "pkg": "registry+x#libm@0.2.0", "dep_kinds": [{"kind": null, "target": null}]}]},
        {"id": "path+file:///w/extra#0.1.0", "deps": [
          {"name": "offload", "pkg": "path+file:///o/offload#0.1.0", "dep_kinds": [{"kind": null, "target": null}]}]},
        {"id": "registry+x#libm@0.2.0", "deps": []},
        {"id": "path+file:///o/offload#0.1.0", "deps": []}
      ]}
    }"#;

    fn kernel(symbol: &str, crate_name: &str) -> Kernel {
        Kernel {
            crate_name: crate_name.into(),
            ..Kernel::named(symbol)
        }
    }

    fn deps() -> Dependencies {
        let json = serde_json::from_str::<Json>(METADATA).unwrap();
        dependencies(&json, "kernels", Path::new("/w/kernels/Cargo.toml")).unwrap()
    }

    #[test]
    fn the_kernel_libraries_are_normal_dependencies_on_offload() {
        assert_eq!(
            deps(),
            Dependencies {
                kernel_crate: "kernels".into(),
                lib_rs: "/w/kernels/src/lib.rs".into(),
                libraries: vec![Library {
                    extern_name: "math".into(),
                    crate_name: "mathlib".into(),
                    src_dir: "/w/mathlib/src".into(),
                }],
            }
        );
    }

    #[test]
    fn a_library_with_kernels_none_in_the_image_is_an_error() {
        let own = [kernel("axpy", "kernels")];
        let named = |_: &str| false;
        let error = unlinked(&deps(), &own, |_| true, named).unwrap_err();
        assert_eq!(
            error.to_string(),
            "offload-build: the kernel crate `kernels` depends on the kernel library `math`, whose #[kernel]s are not in the image: rustc links a dependency only where the crate uses it; add `use math as _;` to /w/kernels/src/lib.rs"
        );
        // Linked: one of its kernels is in the image.
        let linked = [
            kernel("axpy", "kernels"),
            kernel("mathlib_sines", "mathlib"),
        ];
        unlinked(&deps(), &linked, |_| true, named).unwrap();
        // A library without #[kernel]s has none to miss.
        unlinked(&deps(), &own, |_| false, named).unwrap();
        // A library the kernel crate names is linked: its kernels are
        // cfg'd out of the device build.
        unlinked(&deps(), &own, |_| true, |name| name == "math").unwrap();
    }

    /// `cargo metadata --no-deps` of a workspace holding `kernels`, which
    /// depends on `offload`, on the member `mathlib` (renamed `math`) and
    /// on `sim` outside the workspace; both depend on `offload`.
    const NO_DEPS: &str = r#"{"packages": [
        {"name": "kernels", "manifest_path": "/w/kernels/Cargo.toml",
         "targets": [{"kind": ["lib"], "name": "kernels", "src_path": "/w/kernels/src/lib.rs"}],
         "dependencies": [
           {"name": "offload", "kind": null, "rename": null, "path": "/o/offload"},
           {"name": "mathlib", "kind": null, "rename": "math", "path": "/w/mathlib"},
           {"name": "sim", "kind": null, "rename": null, "path": "/s"},
           {"name": "extra", "kind": "dev", "rename": null, "path": "/w/extra"}]},
        {"name": "mathlib", "manifest_path": "/w/mathlib/Cargo.toml",
         "targets": [{"kind": ["lib"], "name": "mathlib", "src_path": "/w/mathlib/src/lib.rs"}],
         "dependencies": [{"name": "offload", "kind": null, "rename": null, "path": "/o/offload"}]}
    ]}"#;

    const SIM: &str = r#"{"packages": [
        {"name": "sim", "manifest_path": "/s/Cargo.toml",
         "targets": [{"kind": ["lib"], "name": "sim_core", "src_path": "/s/src/lib.rs"}],
         "dependencies": [{"name": "offload", "kind": null, "rename": null, "path": "/o/offload"}]}
    ]}"#;

    #[test]
    fn path_dependencies_need_no_resolve() {
        let local = serde_json::from_str::<Json>(NO_DEPS).unwrap();
        let sim = serde_json::from_str::<Json>(SIM).unwrap();
        // The paths do not exist here: compare them as given.
        let load = |m: &Path| (m == Path::new("/s/Cargo.toml")).then(|| sim.clone());
        let deps = path_dependencies_with(
            &local,
            "kernels",
            Path::new("/w/kernels/Cargo.toml"),
            &load,
            &|p| Some(p.to_path_buf()),
        )
        .unwrap();
        let library = |extern_name: &str, crate_name: &str, src_dir: &str| Library {
            extern_name: extern_name.into(),
            crate_name: crate_name.into(),
            src_dir: src_dir.into(),
        };
        assert_eq!(
            deps.libraries,
            [
                library("math", "mathlib", "/w/mathlib/src"),
                library("sim_core", "sim_core", "/s/src")
            ]
        );
        // A dependency whose manifest cannot be read: the resolve is needed.
        let none = |_: &Path| None;
        assert!(
            path_dependencies_with(
                &local,
                "kernels",
                Path::new("/w/kernels/Cargo.toml"),
                &none,
                &|p| Some(p.to_path_buf()),
            )
            .is_none()
        );
    }

    #[test]
    fn a_check_that_cannot_run_says_why() {
        let dir =
            std::env::temp_dir().join(format!("offload-build-offline-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("src")).unwrap();
        std::fs::write(dir.join("src/lib.rs"), "").unwrap();
        let manifest = dir.join("Cargo.toml");
        // A registry dependency cargo has never downloaded.
        std::fs::write(
            &manifest,
            "[package]\nname = \"k\"\nedition = \"2024\"\n[dependencies]\nno-such-offload-kernel-library = \"1\"\n",
        )
        .unwrap();
        let why = find_dependencies(&manifest, "x86_64-unknown-linux-gnu").unwrap_err();
        assert!(
            why.starts_with(
                "`cargo metadata --offline --filter-platform x86_64-unknown-linux-gnu` failed ("
            ),
            "{why}"
        );
        let warning = skipped(&manifest, &why);
        assert!(
            warning.starts_with("offload-build: not checked whether the kernel crate "),
            "{warning}"
        );
        assert!(warning.contains(&why), "{warning}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_kernel_crate_that_never_names_offload_lacks_its_panic_handler() {
        let dir =
            std::env::temp_dir().join(format!("offload-build-no-offload-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("src")).unwrap();
        let said = "error: `#[panic_handler]` function required, but not found";
        std::fs::write(
            dir.join("src/lib.rs"),
            "#![no_std]\n//! Uses offload? No.\npub fn f() {}\n",
        )
        .unwrap();
        assert!(lacks_offload(&dir, said));
        assert!(!lacks_offload(&dir, "error: something else"));
        std::fs::write(dir.join("src/lib.rs"), "#![no_std]\nuse offload::kernel;\n").unwrap();
        assert!(!lacks_offload(&dir, said));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn kernel_attributes_are_found_by_text() {
        assert!(mentions_kernel("#[kernel]\npub fn f() {}"));
        assert!(mentions_kernel("#[kernel(name = \"x\")]"));
        assert!(mentions_kernel("#[offload::kernel]"));
        assert!(!mentions_kernel("#[kernel_helper]\n// kernel"));
    }

    #[test]
    fn a_crate_is_named_by_code_not_comments() {
        assert!(names_crate("use mathlib as _;", "mathlib"));
        assert!(names_crate("let y = mathlib::sines;", "mathlib"));
        assert!(!names_crate("//! the `mathlib` kernel library", "mathlib"));
        assert!(!names_crate(
            "use mathlib2 as _; use my_mathlib;",
            "mathlib"
        ));
    }

    #[test]
    fn a_crate_on_offload_alone_needs_no_metadata() {
        let dir = std::env::temp_dir().join(format!("offload-build-libs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let manifest = dir.join("Cargo.toml");
        let check = |text: &str| {
            std::fs::write(&manifest, text).unwrap();
            has_other_dependencies(&manifest)
        };
        let package = "[package]\nname = \"k\"\n";
        assert!(!check(&format!(
            "{package}[dependencies]\noffload.workspace = true\n[build-dependencies]\noffload-build = \"0.1\"\n"
        )));
        assert!(check(&format!(
            "{package}[dependencies]\noffload = {{ path = \"o\" }}\nmathlib = {{ path = \"m\" }}\n"
        )));
        assert!(check(&format!(
            "{package}[dependencies.mathlib]\npath = \"m\"\n"
        )));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
