//! `#[kernel(...)]`'s options.

use syn::LitStr;
use syn::meta::ParseNestedMeta;

/// `#[kernel(name = "symbol")]`.
#[derive(Default)]
pub struct Options {
    /// The kernel's symbol in the image (by default the function's name).
    pub name: Option<LitStr>,
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
        } else {
            Err(meta.error("unknown #[kernel] option; the only one is `name = \"symbol\"`"))
        }
    }
}
