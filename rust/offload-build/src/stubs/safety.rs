//! The `// SAFETY:` comments of the generated module: `quote!` drops `//`
//! comments, so a template emits a marker statement before each statement
//! with an `unsafe` block, and [`safety_comments`] turns the printed
//! markers into comments.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The macro a template calls, as a statement, before a statement with an
/// `unsafe` block: `quote!` drops `//` comments, so [`source`](super::source) turns each
/// such line of the printed module into the `// SAFETY:` comment it names.
pub(super) const SAFETY_MARKER: &str = "__offload_safety";

/// The marker of an `unsafe` block's `// SAFETY: reason` comment.
pub(super) fn safety(reason: &str) -> TokenStream {
    let marker = format_ident!("{SAFETY_MARKER}");
    quote!(#marker!(#reason);)
}

/// `printed` with each [`safety`] marker statement (one line, or several
/// where the printer wrapped it) replaced by its `// SAFETY:` comment, at
/// the marker's indentation, wrapped at 100 columns.
pub(super) fn safety_comments(printed: &str) -> String {
    let mut out = String::with_capacity(printed.len());
    let mut lines = printed.lines();
    while let Some(line) = lines.next() {
        let code = line.trim_start();
        if !code.starts_with(SAFETY_MARKER) {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let mut statement = code.to_owned();
        while !statement.ends_with(");") {
            let Some(next) = lines.next() else { break };
            statement.push_str(next.trim());
        }
        let indent = &line[..line.len() - code.len()];
        match safety_reason(&statement) {
            Some(reason) => push_comment(&mut out, indent, &reason),
            // Not a marker after all: kept (and refused by rustc).
            None => {
                out.push_str(indent);
                out.push_str(&statement);
                out.push('\n');
            }
        }
    }
    out
}

/// The reason a [`safety`] marker statement (on one line) names.
pub(super) fn safety_reason(statement: &str) -> Option<String> {
    let literal = statement
        .strip_prefix(SAFETY_MARKER)?
        .strip_prefix("!(")?
        .strip_suffix(");")?;
    Some(syn::parse_str::<syn::LitStr>(literal).ok()?.value())
}

/// `// SAFETY: reason` at `indent`, continued on `//` lines.
pub(super) fn push_comment(out: &mut String, indent: &str, reason: &str) {
    let mut line = format!("{indent}// SAFETY:");
    for word in reason.split_whitespace() {
        if line.len() + 1 + word.len() > 100 && !line.ends_with(':') {
            out.push_str(&line);
            out.push('\n');
            line = format!("{indent}//");
        }
        line.push(' ');
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
}
