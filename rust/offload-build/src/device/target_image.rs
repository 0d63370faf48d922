//! One target's device image: the kernel crate built for it (under the
//! shared device target directory's lock), the image copied out of the
//! device build into the host's `OUT_DIR` (nvptx: assembled into a cubin)
//! and its kernel records read.

use std::path::Path;

use offload_contract::digest::image_digest;

use super::{cargo, ptxas, sysroot, target_dir};
use crate::error::{self, Error};
use crate::image::{self, Image};
use crate::targets::{self, Target};

/// Where one target's image is built.
pub(crate) struct Place<'a> {
    pub dir: &'a Path,
    pub host: &'a str,
    pub target_dir: &'a Path,
    pub out_dir: &'a Path,
    pub plugin: &'a Path,
}

impl Place<'_> {
    /// Builds the kernel crate for `target`; returns the image and its bytes.
    pub(crate) fn build_image(&self, target: &Target) -> Result<(Image, Vec<u8>), Error> {
        let triple = target.triple(self.host);
        let cpu = target.cpu();
        let gpu = targets::is_gpu(triple);
        // One target directory for every target and kernel crate: cargo
        // keeps each triple's files apart and builds the proc macros (syn,
        // offload-macros) once for all. Two cpus of one triple take turns
        // in it (each build rebuilds, as the flags differ). See
        // `target_dir` for what makes sharing it safe.
        let target_dir = self.target_dir;
        let sysroot = match cpu {
            Some(cpu) if gpu => {
                let cache = sysroot::cache_dir(target_dir);
                Some(sysroot::shared_core(&cache, triple, cpu)?)
            }
            _ => None,
        };
        // Until the image is copied out (and assembled).
        let _lock = target_dir::lock_target_dir(target_dir)?;
        let wrapper = target_dir::workspace_wrapper(target_dir, self.dir)?;
        let build = cargo::DeviceBuild {
            dir: self.dir,
            target: triple,
            target_cpu: cpu,
            target_dir,
            plugin: self.plugin,
            sysroot: sysroot.as_deref(),
            workspace_wrapper: &wrapper,
        };
        let built = build.run()?;
        for source in &built.sources {
            println!("cargo::rerun-if-changed={}", source.display());
        }
        let file = built.image.file_name().expect("an image file name");
        let copy = match cpu {
            // kernels.gfx90a.elf, kernels.sm_90.ptx: one out dir holds all.
            Some(cpu) if gpu => {
                let path = Path::new(file);
                let stem = path.file_stem().unwrap_or_default().to_string_lossy();
                let ext = path.extension().unwrap_or_default().to_string_lossy();
                self.out_dir.join(format!("{stem}.{cpu}.{ext}"))
            }
            _ => self.out_dir.join(file),
        };
        std::fs::copy(&built.image, &copy).map_err(|source| Error::Copy {
            from: built.image.clone(),
            to: copy.clone(),
            source,
        })?;
        let image_path = if copy.extension().is_some_and(|e| e == "ptx") {
            let cubin = copy.with_extension("cubin");
            let arch = cpu
                .and_then(targets::sm_arch)
                .ok_or_else(|| Error::BadTarget {
                    item: target.to_string(),
                    why: "an nvptx target needs an `sm_<number>` cpu for ptxas".into(),
                })?;
            let cubins = sysroot::cache_dir(self.target_dir).join("cubins");
            ptxas::assemble(&ptxas::find(self.plugin)?, arch, &copy, &cubin, &cubins)?;
            cubin
        } else {
            copy
        };
        let bytes = std::fs::read(&image_path).map_err(error::io(&image_path))?;
        let kernels = image::kernels(&bytes, &image_path)?;
        image::require_kernels(&kernels, self.dir, &image_path)?;
        let image = Image {
            target: target.clone(),
            size: bytes.len() as u64,
            digest: image_digest(&bytes),
            path: image_path,
            kernels,
        };
        Ok((image, bytes))
    }
}
