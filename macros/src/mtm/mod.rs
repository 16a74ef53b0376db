//! The multi-tile metric's automaton, a parameter of the same macro:
//! `automaton!(rows = R, cols = C, metric = mtm)` (`metric = stm`, or none, is Knuth's).
//!
//! - [`table`]: the states — the blank's cell, the jump that brought it there, the attempt;
//! - [`emit`]: the Rust code of one instantiation, a single `loop { match state { … } }`.
//!
//! Invariant: the arguments other than `metric` mean what they mean for Knuth's automaton
//! (they are parsed by the same [`Config`]); `tables = true` asks for the bound of the
//! relabelled 4x4 table ([`emit::Bound::Relabelled`]) instead of walking distance, and is
//! refused on other boards.

pub mod emit;
pub mod table;

use crate::emit::Config;
use proc_macro2::TokenStream;
use quote::quote;
use syn::punctuated::Punctuated;

/// Splits `metric = stm|mtm` off the macro's arguments: whether MTM was asked for, and the
/// other arguments.
pub fn split_metric(input: TokenStream) -> syn::Result<(bool, TokenStream)> {
    let pairs = syn::parse::Parser::parse2(
        Punctuated::<syn::MetaNameValue, syn::Token![,]>::parse_terminated,
        input,
    )?;
    let mut mtm = false;
    let mut rest = Vec::new();
    for pair in pairs {
        if !pair.path.is_ident("metric") {
            rest.push(pair);
            continue;
        }
        let mut value = &pair.value;
        // A name passed through `macro_rules!` arrives in an invisible group.
        while let syn::Expr::Group(group) = value {
            value = &group.expr;
        }
        mtm = match value {
            syn::Expr::Path(path) if path.path.is_ident("mtm") => true,
            syn::Expr::Path(path) if path.path.is_ident("stm") => false,
            other => return Err(syn::Error::new_spanned(other, "expected stm or mtm")),
        };
    }
    Ok((mtm, quote! { #(#rest),* }))
}

/// Expands the MTM automaton of the board the other arguments name.
pub fn expand(rest: TokenStream) -> syn::Result<TokenStream> {
    let config: Config = syn::parse2(rest.clone())?;
    let bound = match config.tables {
        true if (config.rows, config.cols) != (4, 4) => {
            return Err(syn::Error::new_spanned(
                rest,
                "the MTM automaton has a table for the 4x4 board only",
            ))
        }
        true => emit::Bound::Relabelled,
        false => emit::Bound::Walking,
    };
    Ok(emit::emit(
        &table::Table::new(config.rows, config.cols),
        bound,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_metric_parameter_picks_the_automaton() {
        let (mtm, rest) = split_metric(quote! { rows = 3, metric = mtm, cols = 4 }).expect("ok");
        assert!(mtm);
        assert_eq!(rest.to_string(), quote! { rows = 3, cols = 4 }.to_string());
        let (mtm, _) = split_metric(quote! { rows = 3, cols = 4, metric = stm }).expect("ok");
        assert!(!mtm);
        let (mtm, _) = split_metric(quote! { rows = 3, cols = 4 }).expect("ok");
        assert!(!mtm);
        assert!(split_metric(quote! { rows = 3, cols = 4, metric = 3 }).is_err());
        assert!(expand(quote! { rows = 3, cols = 4, tables = true }).is_err());
        assert!(expand(quote! { rows = 4, cols = 4, tables = true }).is_ok());
        assert!(expand(quote! { rows = 3 }).is_err());
        let text = expand(quote! { rows = 2, cols = 2 }).map(|t| t.to_string());
        assert!(text
            .expect("expands")
            .contains("pub fn run (& mut self , bound : & Bound"));
    }
}
