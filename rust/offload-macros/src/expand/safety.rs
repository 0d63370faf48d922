//! The `SAFETY:` justification of an `unsafe` block the expansion emits,
//! where the expansion's reader sees it. `quote!` keeps no comments, so a
//! `// SAFETY:` line in a template never reaches the expansion; a doc
//! attribute on the statement does, and `cargo expand` (prettyplease)
//! prints it as `/// SAFETY: ...` above the statement. Every `unsafe`
//! block of the expansion is therefore the whole value of a statement
//! (`let x = unsafe { ... };` or `unsafe { ... };`) that carries one, and
//! so is the `unsafe extern` block of a launcher; on the derives' `unsafe
//! impl` it is the impl's docs. The fuzz oracle checks every expansion for
//! them.
//!
//! rustdoc documents no statement, and says so with `unused_doc_comments`;
//! the functions that hold these statements allow it ([`allow_lint`]).

use proc_macro2::TokenStream;
use quote::quote;

/// The text before each justification.
pub const PREFIX: &str = "SAFETY: ";

/// The widest line of a justification, as printed after `/// ` (in a
/// function body, within 80 columns).
const WIDTH: usize = 72;

/// `text`, prefixed with `SAFETY: `, as doc attributes of one line each
/// (at most [`WIDTH`] characters where the words allow), for the statement
/// that follows them.
pub fn safety(text: &str) -> TokenStream {
    let lines = wrap(&format!("{PREFIX}{text}"));
    let lines = lines.iter().map(|line| format!(" {line}"));
    quote! { #(#[doc = #lines])* }
}

/// The attribute that lets a function's statements carry [`safety`]'s
/// doc attributes.
pub fn allow_lint() -> TokenStream {
    quote!(#[allow(unused_doc_comments)])
}

/// `text` in lines of at most [`WIDTH`] characters, broken between words
/// (a longer word is a line of its own).
fn wrap(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > WIDTH {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::{WIDTH, safety, wrap};

    #[test]
    fn lines_break_between_words() {
        let text = "the slot points at the launch's device copy of the value, valid until the kernel returns; every thread reaches it only through its own view";
        let lines = wrap(text);
        assert!(lines.len() > 1, "{lines:?}");
        assert!(
            lines.iter().all(|l| l.chars().count() <= WIDTH),
            "{lines:?}"
        );
        assert_eq!(lines.join(" "), text);
    }

    #[test]
    fn each_line_is_a_doc_attribute() {
        let tokens = safety("a short reason").to_string();
        assert_eq!(tokens, "# [doc = \" SAFETY: a short reason\"]");
    }
}
