//! `#[kernel(...)]`'s options.

use syn::meta::ParseNestedMeta;
use syn::punctuated::Punctuated;
use syn::{LitStr, Token, Type};

/// `#[kernel(name = "symbol", instances(T1, T2))]`.
#[derive(Default)]
pub struct Options {
    /// The kernel's symbol in the image (by default the function's name;
    /// of a generic kernel, the base its instances' symbols extend).
    pub name: Option<LitStr>,
    /// The types a generic kernel's type parameter is instantiated with,
    /// one kernel each (`None`: the option is not given).
    pub instances: Option<Vec<Type>>,
}

impl Options {
    /// Reads one option: an error at an unknown one or at a symbol a
    /// linker would not take.
    pub fn parse(&mut self, meta: ParseNestedMeta<'_>) -> syn::Result<()> {
        if meta.path.is_ident("name") {
            let name: LitStr = meta.value()?.parse()?;
            let valid = !name.value().is_empty()
                && name
                    .value()
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b == b'.');
            if !valid {
                return Err(syn::Error::new(
                    name.span(),
                    "a kernel symbol is ASCII letters, digits, '_', '$' and '.'",
                ));
            }
            self.name = Some(name);
            Ok(())
        } else if meta.path.is_ident("instances") {
            if self.instances.is_some() {
                return Err(meta.error("`instances(...)` is given twice: list every type once"));
            }
            let content;
            syn::parenthesized!(content in meta.input);
            let types = Punctuated::<Type, Token![,]>::parse_terminated(&content)?;
            if types.is_empty() {
                return Err(meta.error(
                    "`instances()` lists no type: a generic kernel needs at least one instance, e.g. `instances(f32, f64)`",
                ));
            }
            self.instances = Some(types.into_iter().collect());
            Ok(())
        } else {
            Err(meta.error(
                "unknown #[kernel] option; the options are `name = \"symbol\"` and `instances(T1, T2, ...)` (the types a generic kernel is built for)",
            ))
        }
    }
}
