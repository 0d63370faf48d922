//! The rule every generated case must keep: the macro returns, never
//! panics, and its output is either items that parse (both halves of a
//! kernel's expansion) or `compile_error!`s with a message.

use std::panic::{AssertUnwindSafe, catch_unwind};

use proc_macro2::{TokenStream, TokenTree};
use syn::parse::{ParseStream, Parser};
use syn::{Item, LitStr};

/// What the macro made of a case that keeps the rule.
pub enum Outcome {
    Expanded,
    /// The first error's message.
    Refused(String),
}

/// Runs `expand` under `catch_unwind`; `Err` says how the rule was broken.
pub fn run(expand: impl FnOnce() -> TokenStream) -> Result<Outcome, String> {
    let output = catch_unwind(AssertUnwindSafe(expand)).map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        format!("the macro panicked: {message}")
    })?;
    judge(output)
}

/// Items, as in a module: no inner attributes, nothing left over.
fn items(tokens: TokenStream) -> syn::Result<Vec<Item>> {
    let parser = |input: ParseStream<'_>| {
        let mut items = Vec::new();
        while !input.is_empty() {
            items.push(input.parse::<Item>()?);
        }
        Ok(items)
    };
    parser.parse2(tokens)
}

fn is_compile_error(item: &Item) -> bool {
    matches!(item, Item::Macro(m) if m.mac.path.segments.last().is_some_and(|s| s.ident == "compile_error"))
}

fn judge(output: TokenStream) -> Result<Outcome, String> {
    let parsed = items(output.clone())
        .map_err(|e| format!("the output does not parse: {e}: {}", clip(&output)))?;
    let errors = parsed.iter().filter(|i| is_compile_error(i)).count();
    if errors > 0 {
        if errors != parsed.len() {
            return Err(format!(
                "compile_error! next to an expansion: {}",
                clip(&output)
            ));
        }
        let Item::Macro(first) = &parsed[0] else {
            unreachable!("checked by is_compile_error")
        };
        let message = first
            .mac
            .parse_body::<LitStr>()
            .map_err(|e| format!("compile_error! without a message: {e}"))?
            .value();
        if message.trim().is_empty() {
            return Err("compile_error! with an empty message".to_owned());
        }
        return Ok(Outcome::Refused(message));
    }
    for item in &parsed {
        if let Item::Macro(m) = item
            && m.mac
                .path
                .segments
                .last()
                .is_some_and(|s| s.ident == "__kernel_item")
        {
            halves(m.mac.tokens.clone())?;
        }
    }
    Ok(Outcome::Expanded)
}

/// `device { ... } host { ... }`: each half must parse as items.
fn halves(tokens: TokenStream) -> Result<(), String> {
    let mut count = 0;
    for tree in tokens {
        if let TokenTree::Group(group) = tree {
            items(group.stream())
                .map_err(|e| format!("a half does not parse: {e}: {}", clip(&group.stream())))?;
            count += 1;
        }
    }
    if count == 2 {
        Ok(())
    } else {
        Err(format!("__kernel_item! with {count} halves"))
    }
}

/// At most 600 characters of `tokens`, for a failure's message.
fn clip(tokens: &TokenStream) -> String {
    let text = tokens.to_string();
    if text.chars().count() <= 600 {
        return text;
    }
    let start: String = text.chars().take(600).collect();
    format!("{start}...")
}
