//! Links libomptarget and libomp into every program that uses `offload`:
//! the data API (`device_count`, `Device::alloc`, `map`) calls them, also in
//! a program that names no kernel crate. Device builds (the `device`
//! feature) link nothing.

use offload_contract::libomptarget;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=DOCS_RS");
    if std::env::var_os("CARGO_FEATURE_DEVICE").is_some() || std::env::var_os("DOCS_RS").is_some() {
        return;
    }
    match libomptarget::llvm_config("--libdir") {
        Ok(libdir) => libomptarget::link_from(Some(&libdir)),
        Err(error) => {
            // The libraries may still be in the linker's path; where they
            // are not, a kernel crate's build (offload-build) stops first,
            // saying what the machine needs.
            println!(
                "cargo::warning=offload: LLVM 22's library directory is unknown ({error}): libomptarget is linked from the linker's own path"
            );
            libomptarget::link_from(None);
        }
    }
}
