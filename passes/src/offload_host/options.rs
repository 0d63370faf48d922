//! The pass's parameters: `image=` (repeatable), `teams=`, `threads=`,
//! `device=`, `foreign=`, `arch=`.

use std::path::PathBuf;

use super::image::CudaArch;
use crate::params::{self, Key, ParamError};

const KEYS: &[Key] = &[
    Key::repeatable("image"),
    Key::once("teams"),
    Key::once("threads"),
    Key::once("device"),
    Key::repeatable("foreign"),
    Key::once("arch"),
];

/// The pass's parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// The device images, in registration order (`image=` may repeat).
    pub images: Vec<PathBuf>,
    /// Default NumTeams / ThreadLimit in x (0: the runtime chooses).
    pub teams: u32,
    pub threads: u32,
    /// libomptarget device number (-1: the default device).
    pub device: i64,
    /// Kernels of an image without a manifest to launch unchecked.
    pub foreign: Vec<String>,
    /// `arch=sm_NN[a]`: the NVIDIA GPU the program is for, checked against
    /// the NVIDIA images ([`super::image::DeviceImage::check_arch`]).
    pub arch: Option<CudaArch>,
}

impl Options {
    /// The options of `offload-host<...>`'s parameter text.
    pub fn parse(text: &[u8]) -> Result<Options, ParamError> {
        let mut options = Options {
            images: Vec::new(),
            teams: 0,
            threads: 0,
            device: -1,
            foreign: Vec::new(),
            arch: None,
        };
        for param in params::parse(text, KEYS)? {
            match param.key {
                "image" => {
                    let path = param.path()?;
                    if options.images.contains(&path) {
                        // One image twice would be two registrations of one
                        // target, which libomptarget never runs.
                        return Err(param.invalid(format!(
                            "image '{}' is given twice; give each image once",
                            path.display()
                        )));
                    }
                    options.images.push(path);
                }
                "foreign" => {
                    for name in param.text()?.split(':') {
                        if name.is_empty() {
                            return Err(param.invalid("an empty kernel name"));
                        }
                        options.foreign.push(name.to_owned());
                    }
                }
                "arch" => {
                    options.arch =
                        Some(CudaArch::parse(param.text()?).map_err(|why| param.invalid(why))?);
                }
                "teams" => options.teams = param.number()?,
                "threads" => options.threads = param.number()?,
                _ => {
                    options.device = param.number()?;
                    if options.device < -1 {
                        return Err(param.invalid(format!(
                            "{} is not a device number (-1 or more)",
                            options.device
                        )));
                    }
                }
            }
        }
        if options.images.is_empty() {
            return Err(ParamError::Required {
                usage: "the device image: 'offload-host<image=PATH>'",
            });
        }
        Ok(options)
    }
}
