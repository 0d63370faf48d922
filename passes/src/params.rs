//! Pass parameters in the new pass manager's textual form: `pass<key=value;flag>`.
//!
//! The text arrives as bytes (a pipeline string is not promised to be
//! UTF-8): keys must be UTF-8, values are checked by the accessor that reads
//! them ([`Param::text`] for names and numbers, [`Param::path`] for file
//! paths, which may be any bytes on Unix; a path writes `%`, `;`, `,`, `<`,
//! `>`, space and control bytes as `%XX`: [`offload_contract::pass_param`]). A pass declares the keys it
//! accepts and which of them may repeat; anything else is a [`ParamError`]
//! naming the key.

use std::path::PathBuf;

/// A key a pass accepts.
#[derive(Debug, Clone, Copy)]
pub struct Key {
    pub name: &'static str,
    /// `kernels=a;kernels=b` adds up; any other key given twice is an error
    /// (a silent "last one wins" would hide a typo in a long pipeline).
    pub repeatable: bool,
}

impl Key {
    pub const fn once(name: &'static str) -> Key {
        Key {
            name,
            repeatable: false,
        }
    }

    pub const fn repeatable(name: &'static str) -> Key {
        Key {
            name,
            repeatable: true,
        }
    }
}

/// One `key` or `key=value` item of a parameter list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Param<'a> {
    pub key: &'a str,
    pub value: Option<&'a [u8]>,
}

/// What is wrong with a pass's parameter text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParamError {
    /// The pass has no parameters.
    NoneAccepted {
        item: String,
    },
    Unknown {
        key: String,
        accepted: Vec<&'static str>,
    },
    Duplicate {
        key: &'static str,
    },
    KeyNotUtf8 {
        item: String,
    },
    MissingValue {
        key: String,
    },
    ValueNotUtf8 {
        key: String,
        value: String,
    },
    NotANumber {
        key: String,
        value: String,
    },
    /// A `%` in a path value not followed by two hex digits.
    BadEscape {
        key: String,
        value: String,
    },
    /// A pass-specific check of a value failed.
    Invalid {
        key: String,
        why: String,
    },
    /// A value holds another parameter (`image=a.so image=b.so`).
    Joined {
        key: String,
        value: String,
        inner: &'static str,
    },
    /// A required key is absent.
    Required {
        usage: &'static str,
    },
}

impl std::fmt::Display for ParamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParamError::NoneAccepted { item } => write!(f, "takes no parameters, got '{item}'"),
            ParamError::Unknown { key, accepted } => write!(
                f,
                "unknown parameter '{key}' (accepted: {})",
                accepted.join(", ")
            ),
            ParamError::Duplicate { key } => {
                write!(f, "parameter '{key}' is given twice; give it once")
            }
            ParamError::KeyNotUtf8 { item } => {
                write!(f, "parameter '{item}' is not UTF-8 text")
            }
            ParamError::MissingValue { key } => {
                write!(f, "parameter '{key}' needs a value ('{key}=...')")
            }
            ParamError::ValueNotUtf8 { key, value } => {
                write!(f, "parameter '{key}': value '{value}' is not UTF-8 text")
            }
            ParamError::NotANumber { key, value } => {
                write!(f, "parameter '{key}': '{value}' is not a valid number")
            }
            ParamError::BadEscape { key, value } => write!(
                f,
                "parameter '{key}': '{value}' has a '%' without two hex digits after it; a path writes '%' as '%25' (and ';', ',', '<', '>', space as '%3B', '%2C', '%3C', '%3E', '%20')"
            ),
            ParamError::Joined { key, value, inner } => write!(
                f,
                "parameter '{key}': its value '{value}' holds another parameter '{inner}=...'; separate parameters with ';' ('{key}=...;{inner}=...')"
            ),
            ParamError::Invalid { key, why } => write!(f, "parameter '{key}': {why}"),
            ParamError::Required { usage } => write!(f, "needs {usage}"),
        }
    }
}

impl std::error::Error for ParamError {}

/// `bytes` for a message: the text, with invalid UTF-8 escaped.
fn shown(bytes: &[u8]) -> String {
    bytes.escape_ascii().to_string()
}

/// Splits `params` at `;` and checks every key is in `accepted` (and that
/// keys which may not repeat appear once).
pub fn parse<'a>(params: &'a [u8], accepted: &[Key]) -> Result<Vec<Param<'a>>, ParamError> {
    let mut seen: Vec<&'static str> = Vec::new();
    let mut out = Vec::new();
    for item in params.split(|&b| b == b';').filter(|item| !item.is_empty()) {
        let (key, value) = match item.iter().position(|&b| b == b'=') {
            Some(at) => (&item[..at], Some(&item[at + 1..])),
            None => (item, None),
        };
        if accepted.is_empty() {
            return Err(ParamError::NoneAccepted { item: shown(item) });
        }
        let key =
            std::str::from_utf8(key).map_err(|_| ParamError::KeyNotUtf8 { item: shown(item) })?;
        let Some(spec) = accepted.iter().find(|k| k.name == key) else {
            return Err(ParamError::Unknown {
                key: key.to_owned(),
                accepted: accepted.iter().map(|k| k.name).collect(),
            });
        };
        if !spec.repeatable && seen.contains(&spec.name) {
            return Err(ParamError::Duplicate { key: spec.name });
        }
        if let Some(value) = value
            && let Some(inner) = inner_key(value, accepted)
        {
            return Err(ParamError::Joined {
                key: key.to_owned(),
                value: shown(value),
                inner,
            });
        }
        seen.push(spec.name);
        out.push(Param { key, value });
    }
    Ok(out)
}

/// An accepted key written as `key=` inside `value`, at its start or after
/// whitespace: two parameters run together (`image=a.so image=b.so`,
/// `image=image=a.so`) where a `;` was meant. A path writes a space as
/// `%20`, so a raw one before `key=` is no part of a path.
fn inner_key(value: &[u8], accepted: &[Key]) -> Option<&'static str> {
    accepted.iter().map(|k| k.name).find(|name| {
        let pattern = [name.as_bytes(), b"="].concat();
        value
            .windows(pattern.len())
            .enumerate()
            .any(|(at, window)| {
                window == pattern.as_slice() && (at == 0 || value[at - 1].is_ascii_whitespace())
            })
    })
}

impl<'a> Param<'a> {
    /// The value's bytes, required to be present and non-empty.
    pub fn bytes(&self) -> Result<&'a [u8], ParamError> {
        match self.value {
            Some(v) if !v.is_empty() => Ok(v),
            _ => Err(ParamError::MissingValue {
                key: self.key.to_owned(),
            }),
        }
    }

    /// The value as UTF-8 text (names, numbers).
    pub fn text(&self) -> Result<&'a str, ParamError> {
        let bytes = self.bytes()?;
        std::str::from_utf8(bytes).map_err(|_| ParamError::ValueNotUtf8 {
            key: self.key.to_owned(),
            value: shown(bytes),
        })
    }

    /// The value as a file path: any bytes, as Unix paths are, with `%XX`
    /// read as the byte it escapes.
    pub fn path(&self) -> Result<PathBuf, ParamError> {
        let bytes = self.unescaped()?;
        let bytes = bytes.as_slice();
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            Ok(PathBuf::from(std::ffi::OsStr::from_bytes(bytes)))
        }
        #[cfg(not(unix))]
        {
            self.text().map(PathBuf::from)
        }
    }

    /// The value's bytes with every `%XX` replaced by its byte.
    fn unescaped(&self) -> Result<Vec<u8>, ParamError> {
        use offload_contract::pass_param::{ESCAPE, hex_value};
        let bytes = self.bytes()?;
        let mut out = Vec::with_capacity(bytes.len());
        let mut rest = bytes;
        while let Some((&byte, tail)) = rest.split_first() {
            rest = tail;
            if byte != ESCAPE {
                out.push(byte);
                continue;
            }
            let digits = rest
                .get(..2)
                .and_then(|d| Some((hex_value(d[0])?, hex_value(d[1])?)));
            let Some((high, low)) = digits else {
                return Err(ParamError::BadEscape {
                    key: self.key.to_owned(),
                    value: shown(bytes),
                });
            };
            out.push(high << 4 | low);
            rest = &rest[2..];
        }
        Ok(out)
    }

    /// The value as a number.
    pub fn number<T: std::str::FromStr>(&self) -> Result<T, ParamError> {
        let text = self.text()?;
        text.parse().map_err(|_| ParamError::NotANumber {
            key: self.key.to_owned(),
            value: text.to_owned(),
        })
    }

    /// A pass-specific problem with this parameter's value.
    pub fn invalid(&self, why: impl Into<String>) -> ParamError {
        ParamError::Invalid {
            key: self.key.to_owned(),
            why: why.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEYS: &[Key] = &[
        Key::once("image"),
        Key::once("teams"),
        Key::repeatable("kernels"),
        Key::once("verbose"),
    ];

    #[test]
    fn parses_keys_values_and_flags() {
        let p = parse(b"image=/a/b.so;teams=4;verbose;kernels=a;kernels=b", KEYS).unwrap();
        assert_eq!(p[0].key, "image");
        assert_eq!(p[0].path().unwrap(), PathBuf::from("/a/b.so"));
        assert_eq!(p[1].number::<u32>().unwrap(), 4);
        assert_eq!(p[2].value, None);
        assert_eq!((p[3].text().unwrap(), p[4].text().unwrap()), ("a", "b"));
    }

    #[test]
    fn rejects_unknown_duplicate_and_malformed_items() {
        assert!(matches!(
            parse(b"imag=x", KEYS),
            Err(ParamError::Unknown { ref key, .. }) if key == "imag"
        ));
        assert!(matches!(
            parse(b"x", &[]),
            Err(ParamError::NoneAccepted { ref item }) if item == "x"
        ));
        assert_eq!(
            parse(b"teams=1;teams=2", KEYS),
            Err(ParamError::Duplicate { key: "teams" })
        );
        assert!(matches!(
            parse(b"\xffkey=1", KEYS),
            Err(ParamError::KeyNotUtf8 { .. })
        ));
        let p = parse(b"teams=four;image=;kernels=\xfe", KEYS).unwrap();
        assert!(matches!(
            p[0].number::<u32>(),
            Err(ParamError::NotANumber { .. })
        ));
        assert!(matches!(p[1].path(), Err(ParamError::MissingValue { .. })));
        assert!(matches!(p[2].text(), Err(ParamError::ValueNotUtf8 { .. })));
    }

    #[test]
    fn parameters_run_together_are_named() {
        for text in [
            &b"image=a.so image=b.so"[..],
            b"image=image=a.so",
            b"image=a.so\tteams=4",
            b"teams=4 image=a.so",
        ] {
            assert!(
                matches!(parse(text, KEYS), Err(ParamError::Joined { .. })),
                "{}",
                shown(text)
            );
        }
        let error = parse(b"image=a.so image=b.so", KEYS).unwrap_err();
        assert_eq!(
            error.to_string(),
            "parameter 'image': its value 'a.so image=b.so' holds another parameter 'image=...'; separate parameters with ';' ('image=...;image=...')"
        );
        // Inside a path, `key=` is a name like any other.
        let p = parse(b"image=/tmp/image=1/xteams=2.so;teams=4", KEYS).unwrap();
        assert_eq!(p.len(), 2);
    }

    #[test]
    fn paths_read_escapes() {
        let p = parse(b"image=/my%20dir/semi%3bx%25.so;teams=1%", KEYS).unwrap();
        assert_eq!(p[0].path().unwrap(), PathBuf::from("/my dir/semi;x%.so"));
        assert!(matches!(p[1].path(), Err(ParamError::BadEscape { .. })));
        assert!(matches!(
            parse(b"image=a%2", KEYS).unwrap()[0].path(),
            Err(ParamError::BadEscape { .. })
        ));
    }

    #[test]
    fn paths_may_be_any_bytes() {
        let p = parse(b"image=/tmp/\xff.so", KEYS).unwrap();
        assert_eq!(p[0].path().unwrap().as_os_str().len(), 9);
    }
}
