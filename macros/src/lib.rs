//! Proc-macro entry points of `fifteen`. The generator itself lives in ordinary modules so that
//! it can be unit-tested like any other code; this file only parses invocations.
//!
//! - [`table`]: which states `(r, c, d, p)` Knuth's automaton has for a board, and where each
//!   one goes on a move, on a refusal, or at the end of its subtree;
//! - [`emit`]: the Rust code of one instantiation, a single `loop { match state { … } }`;
//! - [`mtm`]: the same for the multi-tile metric (`metric = mtm`), its states and its code;
//! - [`skeleton`]: what both metrics' code shares: the board's constants, the `State` enum,
//!   a machine's fields and a search loop around the metric's arms.
#![forbid(unsafe_code)]

mod emit;
mod mtm;
mod skeleton;
mod table;

/// `automaton!(rows = R, cols = C)` expands into the items of Knuth's 15PUZZLE-KORF1 automaton
/// for an `R x C` board: `enum State`, its tables, `tailcode` and `Machine::run`. Invoke it
/// inside a module of its own, one module per board. With `metric = mtm` it expands into the
/// multi-tile metric's automaton instead ([`mtm`]).
#[proc_macro]
pub fn automaton(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    mtm::split_metric(input.into())
        .and_then(|(mtm, rest)| match mtm {
            true => mtm::expand(rest),
            false => emit::expand(rest),
        })
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}
