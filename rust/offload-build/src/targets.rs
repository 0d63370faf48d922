//! The targets a program's kernels are built for: `host` (libomptarget's
//! CPU plugin) or `<triple>[:<cpu>]`, from the build script or the
//! environment variable `OFFLOAD_TARGETS`.

use std::fmt;

use crate::error::Error;

/// The environment variable that overrides the build script's targets.
pub const OFFLOAD_TARGETS: &str = "OFFLOAD_TARGETS";

/// One target of the device build.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Target {
    /// The host's own triple (the build's `TARGET`): libomptarget's CPU
    /// plugin runs the image.
    Host,
    /// A device triple and its `-Ctarget-cpu` (`gfx90a`, `sm_90`).
    Device {
        /// The target triple (`amdgcn-amd-amdhsa`, `nvptx64-nvidia-cuda`).
        triple: String,
        /// `-Ctarget-cpu` for every crate of the device build.
        cpu: Option<String>,
    },
}

impl Target {
    /// A target from its text: `host`, `<triple>` or `<triple>:<cpu>`. A GPU
    /// triple needs a cpu (its code is specific to one).
    pub fn parse(item: &str) -> Result<Target, Error> {
        let bad = |why: &str| Error::BadTarget {
            item: item.to_owned(),
            why: why.to_owned(),
        };
        let text = item.trim();
        if text == "host" {
            return Ok(Target::Host);
        }
        let (triple, cpu) = match text.split_once(':') {
            Some((triple, cpu)) => (triple, Some(cpu)),
            None => (text, None),
        };
        let word = |s: &str| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        };
        if !word(triple) || triple.split('-').count() < 2 {
            return Err(bad(
                "expected `host` or a target triple such as `amdgcn-amd-amdhsa`, optionally `:<cpu>`",
            ));
        }
        if let Some(cpu) = cpu
            && !word(cpu)
        {
            return Err(bad("the cpu after `:` is empty or not a cpu name"));
        }
        let cpu = cpu.map(str::to_owned);
        if is_gpu(triple) && cpu.is_none() {
            return Err(bad(
                "a GPU target needs its cpu: `amdgcn-amd-amdhsa:gfx90a`, `nvptx64-nvidia-cuda:sm_90`",
            ));
        }
        if triple.starts_with("nvptx")
            && let Some(cpu) = &cpu
            && sm_arch(cpu).is_none()
        {
            return Err(bad("an nvptx cpu is `sm_<number>[a]`, e.g. `sm_90`"));
        }
        Ok(Target::Device {
            triple: triple.to_owned(),
            cpu,
        })
    }

    /// A comma-separated list (`OFFLOAD_TARGETS`'s form); empty items are
    /// refused, as are repeated targets.
    pub fn parse_list(list: &str) -> Result<Vec<Target>, Error> {
        let mut targets: Vec<Target> = Vec::new();
        for item in list.split(',') {
            let target = Target::parse(item)?;
            if targets.contains(&target) {
                return Err(Error::BadTarget {
                    item: item.to_owned(),
                    why: "named twice".to_owned(),
                });
            }
            targets.push(target);
        }
        Ok(targets)
    }

    /// The triple: `host` is the build's `TARGET`.
    pub(crate) fn triple<'a>(&'a self, host: &'a str) -> &'a str {
        match self {
            Target::Host => host,
            Target::Device { triple, .. } => triple,
        }
    }

    /// The `-Ctarget-cpu`, if any.
    pub(crate) fn cpu(&self) -> Option<&str> {
        match self {
            Target::Host => None,
            Target::Device { cpu, .. } => cpu.as_deref(),
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Host => f.write_str("host"),
            Target::Device { triple, cpu: None } => f.write_str(triple),
            Target::Device {
                triple,
                cpu: Some(cpu),
            } => write!(f, "{triple}:{cpu}"),
        }
    }
}

/// An AMDGPU or NVPTX triple: the device build needs `-Zbuild-std`'s core.
pub(crate) fn is_gpu(triple: &str) -> bool {
    triple.starts_with("amdgcn") || triple.starts_with("nvptx")
}

/// ptxas's `-arch` from an nvptx cpu: `sm_90` → `sm_90`, `sm_90a` too;
/// `None` for anything else.
pub(crate) fn sm_arch(cpu: &str) -> Option<&str> {
    let number = cpu.strip_prefix("sm_")?;
    let digits = number.strip_suffix('a').unwrap_or(number);
    (!digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())).then_some(cpu)
}

/// The targets to build: `OFFLOAD_TARGETS` when set (cargo reruns the build
/// script when it changes), else the build script's `chosen`.
pub(crate) fn resolve(chosen: Vec<Target>) -> Result<Vec<Target>, Error> {
    println!("cargo::rerun-if-env-changed={OFFLOAD_TARGETS}");
    resolve_from(std::env::var(OFFLOAD_TARGETS).ok().as_deref(), chosen)
}

fn resolve_from(env: Option<&str>, chosen: Vec<Target>) -> Result<Vec<Target>, Error> {
    match env {
        Some(list) if !list.trim().is_empty() => Target::parse_list(list),
        _ if chosen.is_empty() => Ok(vec![Target::Host]),
        _ => Ok(chosen),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn device(triple: &str, cpu: &str) -> Target {
        Target::Device {
            triple: triple.into(),
            cpu: Some(cpu.into()),
        }
    }

    #[test]
    fn lists_parse() {
        let all =
            Target::parse_list("host,amdgcn-amd-amdhsa:gfx90a, nvptx64-nvidia-cuda:sm_90").unwrap();
        assert_eq!(
            all,
            [
                Target::Host,
                device("amdgcn-amd-amdhsa", "gfx90a"),
                device("nvptx64-nvidia-cuda", "sm_90")
            ]
        );
        assert_eq!(
            all.iter().map(ToString::to_string).collect::<Vec<_>>(),
            [
                "host",
                "amdgcn-amd-amdhsa:gfx90a",
                "nvptx64-nvidia-cuda:sm_90"
            ]
        );
        assert_eq!(
            Target::parse("x86_64-unknown-linux-gnu").unwrap(),
            Target::Device {
                triple: "x86_64-unknown-linux-gnu".into(),
                cpu: None
            }
        );
    }

    #[test]
    fn bad_items_are_named() {
        for (list, item, why) in [
            ("host,,amdgcn-amd-amdhsa:gfx90a", "", "expected `host`"),
            ("host,cuda", "cuda", "expected `host`"),
            ("amdgcn-amd-amdhsa", "amdgcn-amd-amdhsa", "needs its cpu"),
            (
                "nvptx64-nvidia-cuda:gfx90a",
                "nvptx64-nvidia-cuda:gfx90a",
                "sm_",
            ),
            ("amdgcn-amd-amdhsa:", "amdgcn-amd-amdhsa:", "cpu after"),
            ("host, host", " host", "named twice"),
        ] {
            let error = Target::parse_list(list).unwrap_err();
            let Error::BadTarget { item: named, .. } = &error else {
                panic!("{error}");
            };
            assert_eq!(named, item, "{list}");
            let text = error.to_string();
            assert!(
                text.contains(&format!("`{item}`")) && text.contains(why),
                "{text}"
            );
        }
    }

    #[test]
    fn the_environment_overrides_the_build_script() {
        let chosen = vec![device("amdgcn-amd-amdhsa", "gfx90a")];
        assert_eq!(resolve_from(None, chosen.clone()).unwrap(), chosen);
        assert_eq!(resolve_from(Some(" "), chosen.clone()).unwrap(), chosen);
        assert_eq!(
            resolve_from(Some("host,nvptx64-nvidia-cuda:sm_90"), chosen).unwrap(),
            [Target::Host, device("nvptx64-nvidia-cuda", "sm_90")]
        );
        assert_eq!(resolve_from(None, Vec::new()).unwrap(), [Target::Host]);
        assert!(resolve_from(Some("bogus"), Vec::new()).is_err());
    }

    #[test]
    fn sm_arches() {
        assert_eq!(sm_arch("sm_90"), Some("sm_90"));
        assert_eq!(sm_arch("sm_90a"), Some("sm_90a"));
        assert_eq!(sm_arch("sm_"), None);
        assert_eq!(sm_arch("gfx90a"), None);
    }
}
