//! The code emitter: turns a [`Table`] into Rust items — a fieldless `State` enum with one
//! variant per state (Knuth's labels, `r1c1d1p0`) and `Bottom`, the tables the engine needs
//! around the search (each state's cell, direction, fallback; the tailcodes), and
//! `Machine::run`, whose body is a single `loop { match state { … } }`. The enum, the machines
//! and the loop around the arms are the [`skeleton`] the multi-tile metric's emitter shares;
//! this module writes the arms and says which fields each loop works on.
//!
//! The shape of `run` follows what made a generated automaton as fast as Knuth's C (measured in
//! the project's notes): the match is exhaustive over a fieldless enum with no `_` arm, so the
//! dispatch is a bare jump table that LLVM can copy to every `state = X; continue` site
//! (threaded code, one predictable indirect jump per edge); each move state carries its
//! same-cell fallback chain inline, so a refused move costs no dispatch at all; the stack is two
//! arrays of 256 entries indexed by a wrapping `u8`, and the board a local array indexed only by
//! constants, so there are no bounds checks; a move is happy when its piece's bit is set in a
//! constant mask, giving Knuth's `del` (1 happy, `SAD` sad) by a bit test and a select; an undo
//! state pops the stack *before* restoring its piece, so that its tail differs from every other
//! undo's and LLVM gives each one its own dispatch instead of merging them into one; a move
//! into a cell where the blank has a single attempt (a corner) first checks whether that
//! attempt could be made at all, and when it could not, skips the move instead of making it,
//! dispatching, refusing, popping and dispatching back ([`DEAD_END_ATTEMPTS`]).
//!
//! These choices rest on LLVM's layout heuristics, not on guarantees: inlining even the corner
//! successors into their predecessors (tried) collapses the copied dispatch back into a single
//! shared indirect jump. Check the number of indirect jumps in `Machine::run` after changes.
//!
//! Invariant of `run`: `t = (sad << 8) + happy` moves remaining, Knuth's `t`; `stack[1..=sp]` holds, bottom up, `Bottom`, the root's untried tailcodes, and the
//! fallback of every move on the current path, each with the `t` to restore. The board is
//! correct on every cell but the blank's, whose content is never read. The loops that walk the
//! duplicate-pruning machine (`run_pruned`, `run_tables`) also keep `m`, the machine's state
//! after the path, and stack it with `t`: a move the machine refuses is neither made nor counted.
//! With pattern databases, `happy - sad` is the estimate of the node (the search starts each
//! root so, and every move keeps it), so the loop reads the node's estimate off `t`.

use crate::skeleton::{self, field, ident, Fact, Field, Local, Loop};
use crate::table::{Action, StateKey, Table};
use proc_macro2::{Ident, TokenStream};
use quote::quote;

/// The parameters of one instantiation: `automaton!(rows = R, cols = C)`, `tables = true` to
/// also generate the search with pattern databases ([`Variant::Tables`]), and `catalogue =
/// true` to generate it once more over a catalogue's tables ([`Variant::Catalogue`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    pub rows: usize,
    pub cols: usize,
    pub tables: bool,
    pub catalogue: bool,
}

impl syn::parse::Parse for Config {
    fn parse(input: syn::parse::ParseStream) -> syn::Result<Config> {
        let pairs =
            syn::punctuated::Punctuated::<syn::MetaNameValue, syn::Token![,]>::parse_terminated(
                input,
            )?;
        let (mut rows, mut cols, mut tables, mut catalogue) = (None, None, false, false);
        for pair in &pairs {
            let mut value = &pair.value;
            // A literal passed through `macro_rules!` arrives in an invisible group.
            while let syn::Expr::Group(group) = value {
                value = &group.expr;
            }
            if pair.path.is_ident("tables") || pair.path.is_ident("catalogue") {
                let flag = match value {
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Bool(flag),
                        ..
                    }) => flag.value,
                    other => return Err(syn::Error::new_spanned(other, "expected true or false")),
                };
                match pair.path.is_ident("tables") {
                    true => tables = flag,
                    false => catalogue = flag,
                }
                continue;
            }
            let value = match value {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Int(int),
                    ..
                }) => int.base10_parse::<usize>()?,
                other => return Err(syn::Error::new_spanned(other, "expected an integer")),
            };
            if !(2..=5).contains(&value) {
                return Err(syn::Error::new_spanned(
                    &pair.value,
                    "boards have 2 to 5 rows and columns",
                ));
            }
            if pair.path.is_ident("rows") {
                rows = Some(value);
            } else if pair.path.is_ident("cols") {
                cols = Some(value);
            } else {
                return Err(syn::Error::new_spanned(&pair.path, "expected rows or cols"));
            }
        }
        match (rows, cols) {
            (Some(rows), Some(cols)) => Ok(Config {
                rows,
                cols,
                tables,
                catalogue,
            }),
            _ => Err(input.error("expected `rows = R, cols = C`")),
        }
    }
}

/// Parses the macro's arguments and expands them.
pub fn expand(input: TokenStream) -> syn::Result<TokenStream> {
    let config: Config = syn::parse2(input)?;
    let table = Table::new(config.rows, config.cols);
    Ok(emit(&table, config.tables, config.catalogue))
}

fn label(key: StateKey) -> Ident {
    ident(key)
}

/// Which of the two search loops is being written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// The plain solve: fastest shape, no counting.
    Plain,
    /// Counts every attempted move in `nodes` (Korf's generated nodes).
    Counted,
    /// Counts, and walks the duplicate-pruning machine `prune` (`prune[m + d]`: the state after
    /// a move in direction `d` from state `m`, or `u32::MAX` when the move completes a
    /// forbidden word and is not made, nor counted); `m` is stacked with `t` (`ms`).
    Pruned,
    /// Counts, and decides happy or sad by pattern databases instead of the constant masks:
    /// `db.look` gives the lookups' values after the move and their entries (one per half),
    /// the move is happy when their estimate drops below the node's (which `t` gives: its happy
    /// moves left less its sad ones), and the values before each move are
    /// stacked with `t` (`vs`). The lookups' entries (`entries`) are kept
    /// up to date: a move made commits its new ones and stacks the old ones with the piece it
    /// pushed (`es`, `ps`), an undo restores them. Walks the pruning machine as
    /// [`Variant::Pruned`] does (the machine with no words refuses nothing).
    Tables,
    /// [`Variant::Tables`] over a catalogue, the maximum over several partitions: the same
    /// code with the types of the module `catalogue` in scope (`catalogue::Tables`, ...).
    Catalogue,
}

impl Variant {
    /// Whether the loop looks moves up in tables.
    fn looks_up(self) -> bool {
        matches!(self, Variant::Tables | Variant::Catalogue)
    }

    /// The path of one of the types the loop looks moves up with (`Tables`, `Values`,
    /// `Changed`, `Entries`, `Before`): in scope, or in the module `catalogue`.
    fn lookup_type(self, name: &str) -> TokenStream {
        let name = ident(name);
        match self {
            Variant::Catalogue => quote!(catalogue::#name),
            _ => quote!(#name),
        }
    }
}

/// The code run when state `key` is entered, with its same-cell fallback chain inline.
fn state_code(table: &Table, key: StateKey, variant: Variant) -> TokenStream {
    let Some(state) = table.get(key) else {
        return quote! { compile_error!("missing state"); };
    };
    let cell = state.cell;
    let cell_u8 = cell as u8;
    match state.action {
        // The piece to put back comes from the stack, not from the board: at the root, an
        // undo pops a tailcode and only scribbles on the blank's cell (the piece it names
        // there has not moved), and the tailcodes' entries name no piece (31).
        Action::Undo { neighbour } if variant.looks_up() => quote! {
            state = states[sp as usize];
            t = ts[sp as usize];
            m = ms[sp as usize];
            values = vs[sp as usize];
            db.restore(&mut entries, ps[sp as usize], es[sp as usize]);
            sp = sp.wrapping_sub(1);
            board[#cell] = board[#neighbour];
            continue;
        },
        Action::Undo { neighbour } if variant == Variant::Pruned => quote! {
            state = states[sp as usize];
            t = ts[sp as usize];
            m = ms[sp as usize];
            sp = sp.wrapping_sub(1);
            board[#cell] = board[#neighbour];
            continue;
        },
        Action::Undo { neighbour } => quote! {
            state = states[sp as usize];
            t = ts[sp as usize];
            sp = sp.wrapping_sub(1);
            board[#cell] = board[#neighbour];
            continue;
        },
        Action::Move {
            neighbour,
            successor,
            fallback,
        } => {
            let mask = u32::try_from(table.happy_mask(key)).unwrap_or(u32::MAX);
            let me = label(key);
            let next = label(successor);
            let back = label(fallback);
            let refused = state_code(table, fallback, variant);
            let d = u32::from(key.d);
            if variant.looks_up() {
                let neighbour_u8 = neighbour as u8;
                let vertical = key.d % 2 == 1;
                // A square board's columns let `look` specialise its frames; 0 for any board.
                let shape = table.shape;
                let square = if shape.rows == shape.cols {
                    shape.cols
                } else {
                    0
                };
                let cols = proc_macro2::Literal::usize_unsuffixed(square);
                let [tables, values, changed] =
                    ["Tables", "Values", "Changed"].map(|name| variant.lookup_type(name));
                return quote! {
                    // Outside the machine (no machine the engine builds has such a state): refused.
                    let m_after = prune.get((m + #d) as usize).copied().unwrap_or(u32::MAX);
                    let piece = board[#neighbour];
                    // A refused move: a quota no `t` reaches.
                    let (del, changed, after): (Quota, #changed, #values) = if m_after == u32::MAX {
                        (Quota::MAX, #changed::default(), values)
                    } else {
                        nodes = nodes.wrapping_add(1);
                        let the_move = (piece, #neighbour_u8, #cell_u8);
                        // (With no sad move left, the tables may stop at the first lookup
                        // that makes the move sad.)
                        let (after, changed) = db.look::<#vertical, #cols>(values, &entries, &board, the_move, t <= SAD);
                        // The node's estimate, from `t`: a happy move spends a happy move
                        // and lowers it by one, a sad one spends a sad move and raises it.
                        let h = u32::from(t & 0xff).wrapping_sub(u32::from(t >> 8));
                        (if #tables::happy(h, after) { 1 } else { SAD }, changed, after)
                    };
                    if t <= del {
                        if t == del {
                            break Some(State::#me);
                        }
                        #refused
                    }
                    board[#cell] = piece;
                    sp = sp.wrapping_add(1);
                    states[sp as usize] = State::#back;
                    ts[sp as usize] = t;
                    vs[sp as usize] = values;
                    ps[sp as usize] = piece;
                    es[sp as usize] = db.commit(&mut entries, piece, &changed);
                    ms[sp as usize] = m;
                    m = m_after;
                    values = after;
                    t -= del;
                    state = State::#next;
                    continue;
                };
            }
            let happy_or_sad = quote! { if (#mask >> (piece & 31)) & 1 != 0 { 1 } else { SAD } };
            let count = quote! { nodes = nodes.wrapping_add(1); };
            // What the pruned loop adds: the machine asked first (a refused move gets a quota
            // no `t` reaches, and is not counted), its state stacked.
            let (ask, del, push) = match variant {
                Variant::Pruned => (
                    quote! {
                        // Outside the machine (no machine the engine builds has such a state):
                        // refused.
                        let m_after = prune.get((m + #d) as usize).copied().unwrap_or(u32::MAX);
                    },
                    quote! {
                        if m_after == u32::MAX { Quota::MAX } else { #count #happy_or_sad }
                    },
                    quote! { ms[sp as usize] = m; m = m_after; },
                ),
                Variant::Plain => (quote! {}, happy_or_sad, quote! {}),
                _ => (count, happy_or_sad, quote! {}),
            };
            let dead_end = match variant {
                Variant::Plain => dead_end_test(table, successor),
                _ => quote! {},
            };
            quote! {
                #ask
                let piece = board[#neighbour];
                let del: Quota = #del;
                if t <= del #dead_end {
                    if t == del {
                        break Some(State::#me);
                    }
                    #refused
                }
                board[#cell] = piece;
                sp = sp.wrapping_add(1);
                states[sp as usize] = State::#back;
                ts[sp as usize] = t;
                #push
                t -= del;
                state = State::#next;
                continue;
            }
        }
    }
}

/// Boards of at most this many cells are searched on a local copy of the board.
pub const LOCAL_BOARD_CELLS: usize = 16;

/// Successors with at most this many attempts are tested for a dead end before the move.
/// Measured on 4 x 4 (`--all`, four positions of 2–3 s): testing the one-attempt successors
/// (the corners) saved 5–10% of the time; also testing the two-attempt ones (edges) saved
/// less, since each failed test is repeated in the successor.
pub const DEAD_END_ATTEMPTS: usize = 1;

/// The extra condition under which a move is not made at all: when no sad move would be left
/// after it (`t - del < SAD`, so the successor refuses every sad attempt) and none of the
/// successor's attempts is happy, the successor would refuse them all and undo the move at
/// once. Skipping it is the same search without the push, the two dispatches and the pop.
/// Only the plain loop skips (the counted one keeps the original shape). Empty for successors
/// with more than [`DEAD_END_ATTEMPTS`] attempts. (A dead successor never holds a win: a win
/// is a happy move.)
fn dead_end_test(table: &Table, successor: StateKey) -> TokenStream {
    let attempts = table.attempts(successor);
    if attempts.is_empty() || attempts.len() > DEAD_END_ATTEMPTS {
        return quote! {};
    }
    let bits: Vec<TokenStream> = attempts
        .iter()
        .filter_map(|&key| {
            let mask = u32::try_from(table.happy_mask(key)).unwrap_or(u32::MAX);
            match table.get(key)?.action {
                Action::Move { neighbour, .. } => {
                    Some(quote! { (#mask >> (board[#neighbour] & 31)) })
                }
                Action::Undo { .. } => None,
            }
        })
        .collect();
    quote! {
        || (t < del + SAD && (#(#bits)|*) & 1 == 0)
    }
}

/// One search loop: `Machine::run_plain`, `run_counted`, `run_pruned` or
/// `TablesMachine::run_tables`.
fn search_loop(table: &Table, variant: Variant) -> TokenStream {
    let arms: Vec<TokenStream> = table
        .states
        .iter()
        .map(|s| {
            let me = label(s.key);
            let code = state_code(table, s.key, variant);
            quote! { State::#me => { #code } }
        })
        .collect();
    // The plain loop works on a local copy of the board (LLVM keeps its cells in registers)
    // up to 16 cells; beyond that, and in the counted loop, the extra live values make LLVM
    // give up copying the dispatch, so the board is worked on in place.
    let local = variant == Variant::Plain && table.shape.cells() <= LOCAL_BOARD_CELLS;
    let board = if local {
        Local::Copy("board")
    } else {
        Local::InPlace("board")
    };
    let mut locals = vec![
        board,
        Local::Copy("states"),
        Local::Copy("ts"),
        Local::Copy("sp"),
        Local::Copy("t"),
    ];
    let counted: &[&'static str] = match variant {
        Variant::Plain => &[],
        Variant::Counted => &["nodes"],
        Variant::Pruned => &["nodes", "m", "ms"],
        Variant::Tables | Variant::Catalogue => {
            &["nodes", "m", "ms", "values", "vs", "ps", "entries", "es"]
        }
    };
    locals.extend(counted.iter().map(|&name| Local::Copy(name)));
    let (name, doc, params) = match variant {
        Variant::Plain => (
            "run_plain",
            quote! { #[doc = "Without counting nodes."] },
            quote! {},
        ),
        Variant::Counted => (
            "run_counted",
            quote! { #[doc = "Every move attempted adds one to `nodes` (Korf's generated nodes)."] },
            quote! {},
        ),
        Variant::Pruned => (
            "run_pruned",
            quote! { #[doc = "Counts nodes; never completes a word the machine `prune` forbids."] },
            quote! { prune: &[u32], },
        ),
        Variant::Tables => (
            "run_tables",
            quote! {
                #[doc = "Happy or sad by the pattern databases `db`; counts nodes; never completes"]
                #[doc = "a word the machine `prune` forbids."]
            },
            quote! { db: &Tables, prune: &[u32], },
        ),
        Variant::Catalogue => (
            "run_catalogue",
            quote! {
                #[doc = "Happy or sad by the maximum over a catalogue's partitions `db`; counts"]
                #[doc = "nodes; never completes a word the machine `prune` forbids."]
            },
            quote! { db: &catalogue::Tables, prune: &[u32], },
        ),
    };
    skeleton::search_loop(Loop {
        name: ident(name),
        docs: quote! {
            /// Runs the automaton from `start` until it pops `Bottom` (returns `None`) or a move
            /// reaches the goal (returns that move's state, with the board, stack and `t` as they
            /// were before it, so that running from `win.fallback()` resumes the search).
            #doc
        },
        params,
        locals,
        arms,
    })
}

/// The fields of a machine: the board, the stack of states and of `t`, the node count and the
/// pruning machine's state (all loops'), then `extra` (`TablesMachine`'s).
fn fields(board: Field, extra: Vec<Field>) -> Vec<Field> {
    let mut fields = vec![board];
    fields.extend(skeleton::stack_fields());
    fields.extend([
        field("ts", quote!([Quota; STACK]), quote!([0; STACK]), None),
        field("t", quote!(Quota), quote!(0), None),
        field("nodes", quote!(u64), quote!(0), None),
        field(
            "m",
            quote!(u32),
            quote!(0),
            Some("The pruning machine's state (times four) and its stacked values."),
        ),
        field("ms", quote!([u32; STACK]), quote!([0; STACK]), None),
    ]);
    fields.extend(extra);
    fields
}

/// All items of one instantiation; with `tables`, also `TablesMachine`, whose `run_tables`
/// looks moves up in pattern databases (the types `Tables`, `Values`, `Entries`, `Changed` and
/// `Before` must be in scope where the macro is invoked, with `look`, `commit`, `restore` and
/// `happy` as in `fifteen::heuristic::pdb::PatternDb`); with `catalogue`, also
/// `CatalogueMachine`, the same over the types of a module `catalogue` in scope.
pub fn emit(table: &Table, tables: bool, catalogue: bool) -> TokenStream {
    let shape = table.shape;
    let (rows, cols) = (shape.rows, shape.cols);
    let count = table.states.len();
    let labels: Vec<Ident> = table.states.iter().map(|s| label(s.key)).collect();
    let fallbacks = table.states.iter().map(|s| match s.action {
        Action::Move { fallback, .. } => label(fallback),
        Action::Undo { .. } => label(s.key),
    });
    let facts = [
        Fact::cell(table.states.iter().map(|s| s.cell)),
        Fact::new(
            "direction",
            "The direction `d` this state tries (or takes back, for an undo).",
            quote!(u8),
            quote!(0),
            table.states.iter().map(|s| s.key.d),
        ),
        Fact::new(
            "is_undo",
            "Whether this state takes the last move back.",
            quote!(bool),
            quote!(false),
            table.states.iter().map(|s| s.key.is_undo()),
        ),
        Fact::fallback(
            "The next state at the same cell: where a move state goes when its attempt is \
             refused or finished (an undo state and `Bottom` are their own).",
            fallbacks,
        ),
    ];
    let constants = skeleton::board_constants(rows, cols, count, "`(r, c, d, p)`");
    let states = skeleton::state_enum(&labels, "in Knuth's code order", &facts);
    let run_plain = search_loop(table, Variant::Plain);
    let run_counted = search_loop(table, Variant::Counted);
    let run_pruned = search_loop(table, Variant::Pruned);
    let machine = skeleton::machine(
        &ident("Machine"),
        "One depth-first pass of the automaton: the board (pieces named by their home cell), \
         the explicit stack, the quota `t` and the node count.",
        &fields(
            field("board", quote!([u8; CELLS]), quote!([0; CELLS]), None),
            vec![],
        ),
    );
    let tables_machine = match tables {
        true => lookup_machine(table, Variant::Tables),
        false => quote! {},
    };
    let catalogue_machine = match catalogue {
        true => lookup_machine(table, Variant::Catalogue),
        false => quote! {},
    };
    let tail_arms: Vec<TokenStream> = (0..rows)
        .flat_map(|row| (0..cols).map(move |col| (row, col)))
        .flat_map(|(row, col)| (0..4).map(move |d| (row, col, d)))
        .filter_map(|(row, col, d)| {
            let me = label(table.tailcode(row, col, d)?);
            let cell = shape.cell(row, col);
            Some(quote! { (#cell, #d) => Some(State::#me), })
        })
        .collect();
    let entered_arms: Vec<TokenStream> = (0..rows)
        .flat_map(|row| (0..cols).map(move |col| (row, col)))
        .flat_map(|(row, col)| (0..4).map(move |p| (row, col, p)))
        .filter_map(|(row, col, p)| {
            let me = label(table.entered(row, col, p)?);
            let cell = shape.cell(row, col);
            Some(quote! { (#cell, #p) => Some(State::#me), })
        })
        .collect();
    quote! {
        #constants
        /// Knuth's `t`: `(sad << 8) + happy` moves remaining (paths of at most 255 happy and
        /// 255 sad moves; the engine keeps within that).
        pub type Quota = u16;
        /// Knuth's `del` for a sad move: one unit of the sad field of `t` (a happy move: 1).
        pub const SAD: Quota = 1 << 8;

        #states

        /// Knuth's `tailcode(r, c, d)` for the blank on `cell`: the state trying only `d`.
        pub const fn tailcode(cell: usize, d: u8) -> Option<State> {
            match (cell, d) {
                #(#tail_arms)*
                _ => None,
            }
        }

        /// The state run when a move brings the blank onto `cell` from its neighbour in
        /// direction `p`: where a search of the subtree below that move starts.
        pub const fn entered(cell: usize, p: u8) -> Option<State> {
            match (cell, p) {
                #(#entered_arms)*
                _ => None,
            }
        }

        #machine

        impl Machine {
            #run_plain
            #run_counted
            #run_pruned
        }

        #tables_machine
        #catalogue_machine
    }
}

/// `TablesMachine` and its `run_tables` ([`Variant::Tables`]), or `CatalogueMachine` and its
/// `run_catalogue` ([`Variant::Catalogue`]).
fn lookup_machine(table: &Table, variant: Variant) -> TokenStream {
    let (name, run, doc) = match variant {
        Variant::Catalogue => (
            "CatalogueMachine",
            search_loop(table, Variant::Catalogue),
            "The automaton with a catalogue of pattern databases: as [`TablesMachine`], with \
             the maximum over several partitions.",
        ),
        _ => (
            "TablesMachine",
            search_loop(table, Variant::Tables),
            "The automaton with pattern databases: the pass of [`Machine`] plus the lookups' \
             values, stacked with `t`, and their entries, with the piece each move pushed and \
             the entries it changed stacked.",
        ),
    };
    let [values, entries, before] =
        ["Values", "Entries", "Before"].map(|name| variant.lookup_type(name));
    let name = ident(name);
    let machine = skeleton::machine(
        &name,
        doc,
        &fields(
            field(
                "board",
                quote!([u8; 32]),
                quote!([0; 32]),
                Some(
                    "The board, 32 cells long so that a lookup may index it by any cell of a mask.",
                ),
            ),
            vec![
                field("values", quote!(#values), quote!(#values::default()), None),
                field(
                    "vs",
                    quote!([#values; STACK]),
                    quote!([#values::default(); STACK]),
                    None,
                ),
                field(
                    "ps",
                    quote!([u8; STACK]),
                    quote!([31; STACK]),
                    Some("The piece each stacked move pushed (31: none)."),
                ),
                field(
                    "es",
                    quote!([#before; STACK]),
                    quote!([<#before>::default(); STACK]),
                    Some("The lookups' entries each stacked move changed, as they were before it."),
                ),
                field(
                    "entries",
                    quote!(#entries),
                    quote!(<#entries>::default()),
                    Some("The lookups' entries at the node."),
                ),
            ],
        ),
    );
    quote! {
        #machine

        impl #name {
            #run
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expansion(rows: usize, cols: usize) -> syn::File {
        let tokens = expand(quote! { rows = #rows, cols = #cols }).expect("valid arguments");
        syn::parse2(tokens).expect("the expansion parses as Rust items")
    }

    /// The `match state` inside `Machine::run`.
    fn run_match(file: &syn::File) -> syn::ExprMatch {
        use syn::visit::Visit;
        struct Finder(Option<syn::ExprMatch>);
        impl<'a> Visit<'a> for Finder {
            fn visit_impl_item_fn(&mut self, f: &'a syn::ImplItemFn) {
                if f.sig.ident == "run_plain" {
                    struct Inner<'b>(&'b mut Option<syn::ExprMatch>);
                    impl<'a> Visit<'a> for Inner<'_> {
                        fn visit_expr_match(&mut self, m: &'a syn::ExprMatch) {
                            if self.0.is_none() {
                                *self.0 = Some(m.clone());
                            }
                        }
                    }
                    Inner(&mut self.0).visit_impl_item_fn(f);
                }
            }
        }
        let mut finder = Finder(None);
        finder.visit_file(file);
        finder.0.expect("run has a match")
    }

    #[test]
    fn one_arm_per_state_and_no_catch_all() {
        for (rows, cols, states) in [(3, 3, 68), (3, 4, 102), (4, 4, 152), (5, 5, 268)] {
            let file = expansion(rows, cols);
            let matched = run_match(&file);
            // Bottom plus one arm per state.
            assert_eq!(matched.arms.len(), states + 1, "{rows}x{cols}");
            for arm in &matched.arms {
                assert!(
                    matches!(arm.pat, syn::Pat::Path(_)),
                    "every arm names one state, no `_` or bindings"
                );
                assert!(arm.guard.is_none());
            }
        }
    }

    #[test]
    fn the_expansion_is_deterministic() {
        let a = expand(quote! { rows = 4, cols = 4 }).map(|t| t.to_string());
        let b = expand(quote! { rows = 4, cols = 4 }).map(|t| t.to_string());
        let text = a.expect("expands");
        assert_eq!(Some(&text), b.as_ref().ok());
        // The arms come in Knuth's code order.
        let first = text.find("State :: r0c0d0p3 =>").expect("arm r0c0d0p3");
        let later = text.find("State :: r3c3d2p2 =>").expect("arm r3c3d2p2");
        assert!(first < later);
    }

    #[test]
    fn fallback_chains_are_inline() {
        let table = Table::new(4, 4);
        let key = StateKey::new(1, 1, 3, 0); // tries S, W, N, then undoes E
        let code = state_code(&table, key, Variant::Plain).to_string();
        // Three attempts, one undo, four ways out: three moves and one pop.
        assert_eq!(code.matches("let piece").count(), 3);
        assert_eq!(code.matches("states [sp as usize] = State").count(), 3);
        assert_eq!(code.matches("continue").count(), 4);
        assert!(code.contains("state = State :: r2c1d0p1"));
        assert!(code.contains("state = State :: r1c0d3p0"));
        assert!(code.contains("state = State :: r0c1d2p3"));
        assert!(code.contains("board [5usize] = board [6usize]"));
    }

    #[test]
    fn moves_into_corners_test_for_a_dead_end() {
        let table = Table::new(4, 4);
        let successor = |key: StateKey| match table.get(key).map(|s| s.action) {
            Some(Action::Move { successor, .. }) => successor,
            other => panic!("{key} is not a move: {other:?}"),
        };
        // r0c1d2p3 moves the blank west into the corner r0c0, which then tries only south.
        let into_corner = StateKey::new(0, 1, 2, 3);
        let corner = successor(into_corner);
        assert_eq!(corner, StateKey::new(0, 0, 3, 0));
        assert_eq!(table.attempts(corner), vec![corner]);
        let code = state_code(&table, into_corner, Variant::Plain).to_string();
        let own_part = code.split("continue").next().unwrap_or_default();
        assert!(own_part.contains("t < del + SAD"));
        // The corner's one attempt: the piece below it (cell 4) moving up.
        let mask = table.happy_mask(corner);
        assert!(own_part.contains(&format!("({mask}u32 >> (board [4usize] & 31))")));
        // r1c1d1p0 moves north to r0c1, which tries two moves: no dead-end test.
        let to_edge = StateKey::new(1, 1, 1, 0);
        assert_eq!(table.attempts(successor(to_edge)).len(), 2);
        let code = state_code(&table, to_edge, Variant::Plain).to_string();
        let own_part = code.split("continue").next().unwrap_or_default();
        assert!(!own_part.contains("t < del + SAD"));
    }

    #[test]
    fn the_tables_variant_looks_moves_up_and_stacks_the_values() {
        let plain = expand(quote! { rows = 3, cols = 3 }).map(|t| t.to_string());
        assert!(!plain.expect("expands").contains("TablesMachine"));
        let text = expand(quote! { rows = 3, cols = 3, tables = true })
            .map(|t| t.to_string())
            .expect("expands");
        assert!(text.contains("pub struct TablesMachine"));
        assert!(text.contains(
            "pub fn run_tables (& mut self , db : & Tables , prune : & [u32] , start : State)"
        ));
        let table = Table::new(3, 3);
        // The centre entered from the east tries three moves, each looked up and stacked.
        let code = state_code(&table, StateKey::new(1, 1, 3, 0), Variant::Tables).to_string();
        assert_eq!(code.matches("db . look :: <").count(), 3);
        assert_eq!(
            code.matches("(values , & entries , & board , the_move , t <= SAD)")
                .count(),
            3
        );
        assert_eq!(code.matches("vs [sp as usize] = values").count(), 3);
        assert_eq!(code.matches("ps [sp as usize] = piece").count(), 3);
        assert_eq!(
            code.matches("es [sp as usize] = db . commit (& mut entries , piece , & changed)")
                .count(),
            3
        );
        assert_eq!(code.matches("nodes = nodes . wrapping_add (1)").count(), 3);
        assert!(
            !code.contains("t < del + SAD"),
            "no Manhattan dead-end test"
        );
        // An undo restores the values, and the entries of the piece named on the stack.
        let undo = state_code(&table, StateKey::new(1, 1, 0, 0), Variant::Tables).to_string();
        assert!(undo.contains("values = vs [sp as usize]"));
        assert!(undo.contains("db . restore (& mut entries , ps [sp as usize] , es [sp as usize])"));
    }

    #[test]
    fn the_catalogue_variant_is_the_tables_loop_over_the_catalogue_types() {
        let text = expand(quote! { rows = 3, cols = 3, tables = true, catalogue = true })
            .map(|t| t.to_string())
            .expect("expands");
        assert!(text.contains("pub struct TablesMachine"));
        assert!(text.contains("pub struct CatalogueMachine"));
        assert!(text.contains(
            "pub fn run_catalogue (& mut self , db : & catalogue :: Tables , prune : & [u32] , start : State)"
        ));
        let table = Table::new(3, 3);
        let key = StateKey::new(1, 1, 3, 0);
        let tables = state_code(&table, key, Variant::Tables).to_string();
        let catalogue = state_code(&table, key, Variant::Catalogue).to_string();
        // The same moves, looked up with the catalogue's types.
        assert_eq!(
            tables
                .replace("Tables ::", "catalogue :: Tables ::")
                .replace("Changed", "catalogue :: Changed")
                .replace("Values", "catalogue :: Values"),
            catalogue
        );
        let plain = expand(quote! { rows = 3, cols = 3, tables = true }).map(|t| t.to_string());
        assert!(!plain.expect("expands").contains("CatalogueMachine"));
    }

    #[test]
    fn the_pruned_variant_asks_the_machine_before_counting() {
        let table = Table::new(3, 3);
        let key = StateKey::new(1, 1, 3, 0); // tries S, W, N, then undoes E
        let code = state_code(&table, key, Variant::Pruned).to_string();
        // One lookup per attempt, with the direction tried, and the state stacked with `t`.
        for d in [3u32, 2, 1] {
            assert!(
                code.contains(&format!("prune . get ((m + {d}u32) as usize)")),
                "{d}"
            );
        }
        assert_eq!(code.matches("ms [sp as usize] = m").count(), 3);
        assert_eq!(code.matches("m = m_after").count(), 3);
        // The node is counted only when the machine lets the move be made.
        let first = code
            .find("if m_after == u32 :: MAX")
            .expect("the machine is asked");
        let counted = code
            .find("nodes = nodes . wrapping_add (1)")
            .expect("counted");
        assert!(first < counted);
        let undo = state_code(&table, StateKey::new(1, 1, 0, 0), Variant::Pruned).to_string();
        assert!(undo.contains("m = ms [sp as usize]"));
        // Knuth's loops know nothing of it.
        for variant in [Variant::Plain, Variant::Counted] {
            assert!(!state_code(&table, key, variant)
                .to_string()
                .contains("prune"));
        }
    }

    #[test]
    fn bad_arguments_are_refused() {
        assert!(expand(quote! { rows = 4, cols = 4, tables = 1 }).is_err());
        assert!(expand(quote! { rows = 4 }).is_err());
        assert!(expand(quote! { rows = 6, cols = 4 }).is_err());
        assert!(expand(quote! { rows = 4, cols = 4, depth = 3 }).is_err());
        assert!(expand(quote! { rows = "4", cols = 4 }).is_err());
    }
}
