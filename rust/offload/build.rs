//! Links libomptarget and libomp into every program that uses `offload`:
//! the data API (`device_count`, `Device::alloc`, `map`) calls them, also in
//! a program that names no kernel crate. Device builds (the `device`
//! feature) link nothing.

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=DOCS_RS");
    if std::env::var_os("CARGO_FEATURE_DEVICE").is_some() || std::env::var_os("DOCS_RS").is_some()
    {
        return;
    }
    if let Err(error) = offload_contract::libomptarget::link() {
        eprintln!("offload: cannot link libomptarget: {error}");
        std::process::exit(1);
    }
}
