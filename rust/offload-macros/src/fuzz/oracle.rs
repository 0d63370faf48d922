//! The rule every generated case must keep: the macro returns, never
//! panics, and its output is either items that parse (both halves of a
//! kernel's expansion) or `compile_error!`s with a message. Every `unsafe`
//! block, `unsafe extern` block and `unsafe impl` the expansion adds to the
//! item carries its `SAFETY:` comment (`expand::safety`).

use std::panic::{AssertUnwindSafe, catch_unwind};

use proc_macro2::{TokenStream, TokenTree};
use syn::parse::{ParseStream, Parser};
use syn::visit_mut::{self, VisitMut};
use syn::{Attribute, Expr, ExprUnsafe, Item, ItemForeignMod, ItemImpl, LitStr, Stmt};

use crate::expand::safety::PREFIX;

/// What the macro made of a case that keeps the rule.
pub enum Outcome {
    Expanded,
    /// The first error's message.
    Refused(String),
}

/// Runs `expand` of `item` under `catch_unwind`; `Err` says how the rule
/// was broken.
pub fn run(item: &TokenStream, expand: impl FnOnce() -> TokenStream) -> Result<Outcome, String> {
    let output = catch_unwind(AssertUnwindSafe(expand)).map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        format!("the macro panicked: {message}")
    })?;
    // The item's own blocks are in each half of the expansion, as written.
    let written = syn::parse2::<Item>(item.clone()).map_or(0, |mut item| {
        let mut count = Undocumented::default();
        count.visit_item_mut(&mut item);
        count.0
    });
    judge(output, written)
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

fn judge(output: TokenStream, written: usize) -> Result<Outcome, String> {
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
    let mut undocumented = Undocumented::default();
    for item in &parsed {
        if let Item::Macro(m) = item
            && m.mac
                .path
                .segments
                .last()
                .is_some_and(|s| s.ident == "__kernel_item")
        {
            halves(m.mac.tokens.clone(), written)?;
        } else {
            undocumented.visit_item_mut(&mut item.clone());
        }
    }
    if undocumented.0 > 0 {
        return Err(format!(
            "{} unsafe blocks or impls without a SAFETY comment: {}",
            undocumented.0,
            clip(&output)
        ));
    }
    Ok(Outcome::Expanded)
}

/// `device { ... } host { ... }`: each half must parse as items and have
/// no `unsafe` block without its `SAFETY:` comment but the `written` ones
/// of the item.
fn halves(tokens: TokenStream, written: usize) -> Result<(), String> {
    let mut count = 0;
    for tree in tokens {
        if let TokenTree::Group(group) = tree {
            let mut half = items(group.stream())
                .map_err(|e| format!("a half does not parse: {e}: {}", clip(&group.stream())))?;
            let mut undocumented = Undocumented::default();
            for item in &mut half {
                undocumented.visit_item_mut(item);
            }
            if undocumented.0 != written {
                return Err(format!(
                    "{} unsafe blocks without a SAFETY comment, {written} of them the item's: {}",
                    undocumented.0,
                    clip(&group.stream())
                ));
            }
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

/// The count of `unsafe` blocks and `unsafe extern` blocks that are not
/// the whole of a statement with a `SAFETY:` doc attribute, and of `unsafe
/// impl`s without one.
#[derive(Default)]
struct Undocumented(usize);

fn has_safety(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("doc")
            && matches!(&attr.meta, syn::Meta::NameValue(nv)
                if matches!(&nv.value, Expr::Lit(l)
                    if matches!(&l.lit, syn::Lit::Str(s) if s.value().trim_start().starts_with(PREFIX))))
    })
}

/// The `unsafe` block that is the whole of `stmt` with its `SAFETY:`
/// comment: `let x = unsafe { ... };` or `unsafe { ... };`.
fn documented_unsafe(stmt: &mut Stmt) -> Option<&mut ExprUnsafe> {
    match stmt {
        Stmt::Local(local) if has_safety(&local.attrs) => match local.init.as_mut() {
            Some(init) if init.diverge.is_none() => match &mut *init.expr {
                Expr::Unsafe(block) => Some(block),
                _ => None,
            },
            _ => None,
        },
        Stmt::Expr(Expr::Unsafe(block), _) if has_safety(&block.attrs) => Some(block),
        _ => None,
    }
}

impl VisitMut for Undocumented {
    fn visit_stmt_mut(&mut self, stmt: &mut Stmt) {
        match documented_unsafe(stmt) {
            Some(block) => self.visit_block_mut(&mut block.block),
            None => visit_mut::visit_stmt_mut(self, stmt),
        }
    }

    fn visit_expr_unsafe_mut(&mut self, block: &mut ExprUnsafe) {
        self.0 += 1;
        visit_mut::visit_expr_unsafe_mut(self, block);
    }

    fn visit_item_impl_mut(&mut self, item: &mut ItemImpl) {
        if item.unsafety.is_some() && !has_safety(&item.attrs) {
            self.0 += 1;
        }
        visit_mut::visit_item_impl_mut(self, item);
    }

    fn visit_item_foreign_mod_mut(&mut self, item: &mut ItemForeignMod) {
        if item.unsafety.is_some() && !has_safety(&item.attrs) {
            self.0 += 1;
        }
        visit_mut::visit_item_foreign_mod_mut(self, item);
    }
}

#[cfg(test)]
mod tests {
    use syn::visit_mut::VisitMut;

    use super::Undocumented;

    fn undocumented(item: &str) -> usize {
        let mut item: syn::Item = syn::parse_str(item).unwrap();
        let mut count = Undocumented::default();
        count.visit_item_mut(&mut item);
        count.0
    }

    #[test]
    fn unsafe_blocks_count_until_a_statement_says_why() {
        assert_eq!(undocumented("fn f() { let x = unsafe { g() }; }"), 1);
        assert_eq!(undocumented("fn f() { h(unsafe { g() }); }"), 1);
        assert_eq!(undocumented("unsafe impl T for S {}"), 1);
        assert_eq!(
            undocumented("/// SAFETY: a reason.\nunsafe impl T for S {}"),
            0
        );
        assert_eq!(
            undocumented("fn f() { unsafe extern \"C\" { fn g(); } }"),
            1
        );
        assert_eq!(
            undocumented("fn f() { /// A reason.\n let x = unsafe { g() }; }"),
            1
        );
        assert_eq!(
            undocumented("fn f() { /// SAFETY: a reason.\n let x = unsafe { g() }; }"),
            0
        );
        assert_eq!(
            undocumented("fn f() { #[doc = \" SAFETY: a\"] unsafe { g() }; }"),
            0
        );
        assert_eq!(
            undocumented("fn f() { /// SAFETY: a reason.\n unsafe extern \"C\" { fn g(); } }"),
            0
        );
        // Only the statement's own block: one inside it says why itself.
        assert_eq!(
            undocumented("fn f() { /// SAFETY: a.\n let x = unsafe { h(unsafe { g() }) }; }"),
            1
        );
    }
}
