//! Pass parameters in the new pass manager's textual form: `pass<key=value;flag>`.
//! Passes declare the keys they accept; anything else is an error that names
//! the key and lists the accepted ones.

/// One `key` or `key=value` item of a parameter list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Param<'a> {
    pub key: &'a str,
    pub value: Option<&'a str>,
}

/// Splits `params` at `;` and checks every key is in `accepted`.
pub fn parse<'a>(params: &'a str, accepted: &[&str]) -> Result<Vec<Param<'a>>, String> {
    params
        .split(';')
        .filter(|item| !item.is_empty())
        .map(|item| {
            let (key, value) = match item.split_once('=') {
                Some((k, v)) => (k, Some(v)),
                None => (item, None),
            };
            if accepted.contains(&key) {
                Ok(Param { key, value })
            } else if accepted.is_empty() {
                Err(format!("takes no parameters, got '{item}'"))
            } else {
                Err(format!(
                    "unknown parameter '{key}' (accepted: {})",
                    accepted.join(", ")
                ))
            }
        })
        .collect()
}

/// The value of a `key=value` parameter, required to be present and non-empty.
pub fn value<'a>(param: &Param<'a>) -> Result<&'a str, String> {
    match param.value {
        Some(v) if !v.is_empty() => Ok(v),
        _ => Err(format!(
            "parameter '{}' needs a value ('{}=...')",
            param.key, param.key
        )),
    }
}

/// A `key=N` parameter as an unsigned number.
pub fn number<T: std::str::FromStr>(param: &Param<'_>) -> Result<T, String> {
    let text = value(param)?;
    text.parse()
        .map_err(|_| format!("parameter '{}': '{text}' is not a valid number", param.key))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_keys_values_and_flags() {
        let p = parse(
            "image=/a/b.so;teams=4;verbose",
            &["image", "teams", "verbose"],
        )
        .unwrap();
        assert_eq!(
            p[0],
            Param {
                key: "image",
                value: Some("/a/b.so")
            }
        );
        assert_eq!(number::<u32>(&p[1]).unwrap(), 4);
        assert_eq!(
            p[2],
            Param {
                key: "verbose",
                value: None
            }
        );
    }

    #[test]
    fn rejects_unknown_keys_and_bad_numbers() {
        assert_eq!(
            parse("imag=x", &["image"]).unwrap_err(),
            "unknown parameter 'imag' (accepted: image)"
        );
        assert_eq!(parse("x", &[]).unwrap_err(), "takes no parameters, got 'x'");
        let p = parse("teams=four", &["teams"]).unwrap();
        assert_eq!(
            number::<u32>(&p[0]).unwrap_err(),
            "parameter 'teams': 'four' is not a valid number"
        );
        let p = parse("image=", &["image"]).unwrap();
        assert!(value(&p[0]).is_err());
    }
}
