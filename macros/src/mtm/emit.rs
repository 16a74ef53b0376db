//! The MTM automaton's code: a fieldless `State` enum with one variant per state of the
//! [`Table`] and `Bottom`, what the driver needs around a pass (each state's cell, landing cell
//! and fallback; the first state of a root or of a place entered by a jump), and
//! `Machine::run`, whose body is a single `loop { match state { … } }` with an explicit stack
//! (the enum, the machine and the loop around the arms from the [`skeleton`] Knuth's emitter
//! shares).
//!
//! Each move state is straight-line code for its jump: count the child, slide the jump's tiles
//! (constant cells, constant lines), and find the child's estimate as the reference search
//! does (`fifteen::mtm::search`); the child is searched when `g + 1 + h <= limit`, else
//! `g + 1 + h` is a candidate for the next bound; a child whose estimate is 0 is the goal.
//! The estimate is one of two bounds ([`Bound`], the generator's parameter `tables`):
//! - walking distance: each slide steps the moved axis's part (`v` or `h`), and the parts are
//!   combined (`bound.combine`);
//! - the relabelled 4x4 tables: each slide changes the node's codes (`Codes::slide`, a
//!   multiplication by a constant a view), which `bound.relabelled` ranks without looking at
//!   the tiles. The codes live on the stack (`cs[sp]` the node's), not in a variable of the
//!   loop: with one more value live across the `match`, LLVM stops copying the dispatch into
//!   the states.
//!
//! Every jump first asks the duplicate-pruning machine `prune` (`prune[m + symbol]`, the
//! symbol `d * longest + k - 1` of a jump of `k` cells in direction `d`, `m` the machine's
//! state after the node's path, kept on the stack as `ms[sp]`): a jump it refuses is neither
//! made nor counted, as in the reference search. The machine with no words refuses nothing.
//!
//! Invariant of `run`: `tiles` is the node's board (0 on the blank's cell); `g` its depth, `v`
//! and `h` its parts' states (walking distance), `cs[sp]` its tiles' codes (the tables),
//! `ms[sp]` the pruning machine's state after its path; `stack[1..=sp]` holds, bottom up, the
//! fallback of every jump on the path (a state at the cell the blank left) with the parts'
//! states to restore, and `stack[0]` is `Bottom`. The names `Bound` (with `vertical`,
//! `horizontal`, `combine`, `relabelled` and `prefetch` as in
//! `fifteen::mtm::bound::LowerBound`), `Axis` and `Codes` (`fifteen::mtm::relabel::Codes`) must
//! be in scope where the macro is invoked; the driver hands a machine of the tables a bound
//! with them, and one of walking distance a bound without.

use super::table::{Action, StateKey, Table};
use crate::skeleton::{self, field, ident, Fact, Field, Local, Loop};
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

fn label(key: StateKey) -> Ident {
    ident(key)
}

/// The part of the bound a jump changes, and the axis the next jump must be on.
fn parts(vertical: bool) -> (TokenStream, TokenStream, TokenStream) {
    if vertical {
        (quote!(vertical), quote!(HOME_ROW), quote!(Axis::Horizontal))
    } else {
        (quote!(horizontal), quote!(HOME_COL), quote!(Axis::Vertical))
    }
}

/// Which lower bound the generated code computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Walking distance in MTM: each slide steps the moved axis's part.
    Walking,
    /// The relabelled 4x4 table alone: each slide changes the node's codes.
    Relabelled,
}

/// At a place's first attempt: the table entries of every child of the place asked for, so
/// that their misses overlap.
fn prefetches(table: &Table, key: StateKey) -> TokenStream {
    let children = (0..).map_while(|attempt| {
        let state = table.get(StateKey { attempt, ..key })?;
        let Action::Move { passed, .. } = &state.action else {
            return None;
        };
        let before: Vec<usize> = std::iter::once(key.cell)
            .chain(passed.iter().copied())
            .collect();
        let slides = before.windows(2).map(|pair| {
            let (to, from) = (pair[0], pair[1]);
            quote! { c = c.slide(tiles[#from], #from, #to); }
        });
        Some(quote! { { let mut c = cs[sp as usize]; #(#slides)* bound.prefetch(c); } })
    });
    let children: Vec<TokenStream> = children.collect();
    quote! { #(#children)* }
}

/// The code of one state.
fn state_code(table: &Table, bound: Bound, key: StateKey) -> TokenStream {
    let Some(state) = table.get(key) else {
        return quote! { compile_error!("missing state"); };
    };
    let cols = table.shape.cols;
    let relabelled = bound == Bound::Relabelled;
    let cell = key.cell;
    match &state.action {
        Action::End => quote! { break None; },
        Action::Undo { origin, passed } => {
            let restore_parts = (!relabelled).then(|| {
                quote! {
                    v = vs[sp as usize];
                    h = hs[sp as usize];
                }
            });
            // Each passed cell takes back the tile of the cell before it, from the far end.
            let before: Vec<usize> = std::iter::once(*origin)
                .chain(passed.iter().copied())
                .collect();
            let shifts = before.windows(2).rev().map(|pair| {
                let (from, to) = (pair[0], pair[1]);
                quote! { tiles[#to] = tiles[#from]; }
            });
            quote! {
                #(#shifts)*
                tiles[#origin] = 0;
                state = states[sp as usize];
                #restore_parts
                sp = sp.wrapping_sub(1);
                g = g.wrapping_sub(1);
                continue;
            }
        }
        Action::Move {
            jump,
            passed,
            successor,
            fallback,
        } => {
            let vertical = jump.vertical();
            let (part, home, next_axis) = parts(vertical);
            let line = |c: usize| if vertical { c / cols } else { c % cols };
            let moved = if vertical { quote!(v) } else { quote!(h) };
            let before: Vec<usize> = std::iter::once(cell)
                .chain(passed.iter().copied())
                .collect();
            let names: Vec<Ident> = (0..passed.len())
                .map(|i| Ident::new(&format!("tile{i}"), Span::call_site()))
                .collect();
            let slides = before.windows(2).zip(&names).map(|(pair, name)| {
                let (to, from) = (pair[0], pair[1]);
                let (line_from, line_to) = (line(from), line(to));
                let change = match bound {
                    Bound::Relabelled => quote! { child = child.slide(#name, #from, #to); },
                    Bound::Walking => quote! {
                        after = bound.#part.step(
                            after, usize::from(#home[usize::from(#name & 31)]), #line_from, #line_to,
                        );
                    },
                };
                quote! {
                    let #name = tiles[#from];
                    #change
                    tiles[#to] = #name;
                }
            });
            let restores = before.windows(2).zip(&names).map(|(pair, name)| {
                let from = pair[1];
                quote! { tiles[#from] = #name; }
            });
            let landing = before.last().copied().unwrap_or(cell);
            let me = label(key);
            let next = label(*successor);
            let back = label(*fallback);
            let walking = if vertical {
                quote! { bound.combine(after, h, Some(#next_axis)) }
            } else {
                quote! { bound.combine(v, after, Some(#next_axis)) }
            };
            // The tables' estimate is looked up only as far as it can matter (cut off, and not
            // lowering `next`), and their 0 is the goal's only if the tiles say so.
            let (start, estimate, push) = match bound {
                Bound::Relabelled => (
                    quote! { let mut child = cs[sp as usize]; },
                    quote! {{
                        let (budget, settled) =
                            (limit.saturating_sub(g + 1), next.saturating_sub(g + 1));
                        bound.relabelled(&mut child, (budget, settled), || tiles == GOAL)
                    }},
                    quote! { cs[sp as usize] = child; },
                ),
                Bound::Walking => (
                    quote! { let mut after = #moved; },
                    walking,
                    quote! {
                        vs[sp as usize] = v;
                        hs[sp as usize] = h;
                        #moved = after;
                    },
                ),
            };
            let prefetch = (relabelled && key.attempt == 0).then(|| prefetches(table, key));
            // The jump's symbol, numbered as `fifteen::prune::Spelling::mtm` numbers them (the
            // node-for-node tests against the reference search would catch a difference).
            let symbol = u32::from(jump.d) * (table.shape.rows.max(table.shape.cols) as u32 - 1)
                + jump.k as u32
                - 1;
            quote! {
                #prefetch
                // Outside the machine (no machine the engine builds has such a state): refused.
                let m_after = prune
                    .get((ms[sp as usize] + #symbol) as usize)
                    .copied()
                    .unwrap_or(u32::MAX);
                // A refused jump and a child cut off leave by one way, to the next attempt.
                if m_after != u32::MAX {
                    prefetch_row(prune, m_after);
                    nodes = nodes.wrapping_add(1);
                    #start
                    #(#slides)*
                    tiles[#landing] = 0;
                    let estimate = #estimate;
                    let f = g + 1 + estimate;
                    if estimate != 0 && f <= limit {
                        sp = sp.wrapping_add(1);
                        states[sp as usize] = State::#back;
                        #push
                        ms[sp as usize] = m_after;
                        g += 1;
                        state = State::#next;
                        continue;
                    }
                    #(#restores)*
                    tiles[#cell] = 0;
                    if estimate == 0 {
                        break Some(State::#me);
                    }
                    next = next.min(f);
                }
                state = State::#back;
                continue;
            }
        }
    }
}

/// `Machine::run`: one depth-first pass, or the rest of one after a win.
fn search_loop(table: &Table, bound: Bound) -> TokenStream {
    let arms = table.states.iter().map(|s| {
        let me = label(s.key);
        let code = state_code(table, bound, s.key);
        quote! { State::#me => { #code } }
    });
    let mut locals = vec![
        // The board stays in memory. Nothing else takes its address (the bound reads codes),
        // and split into 16 values live across the `match` it stops LLVM copying the
        // dispatch into the states (Korf #49 in MTM: 1.33x slower; tests/codegen.rs).
        Local::InMemory("tiles"),
        Local::Copy("states"),
        Local::Copy("ms"),
        Local::Copy("sp"),
        Local::Copy("g"),
        Local::Read("limit"),
        Local::Copy("next"),
        Local::Copy("nodes"),
    ];
    locals.extend(kept(bound).iter().map(|kept| Local::Copy(kept.name)));
    skeleton::search_loop(Loop {
        name: ident("run"),
        docs: quote! {
            /// Runs the automaton from `start` until the pass ends (returns `None`) or a jump
            /// reaches the goal (returns that jump's state, with the board, stack and depth as
            /// they were before it, so that running from `win.fallback()` resumes the pass).
            /// Every child generated adds one to `nodes`; `next` keeps the least `g + h` cut off;
            /// no jump completes a word the machine `prune` forbids.
        },
        params: quote! { bound: &Bound, prune: &[u32], },
        locals,
        arms: arms.collect(),
    })
}

/// What a machine keeps of its bound, as fields.
fn kept(bound: Bound) -> Vec<Field> {
    let kept = |name, kind, init, doc| field(name, kind, init, Some(doc));
    match bound {
        Bound::Walking => vec![
            kept(
                "v",
                quote!(u32),
                quote!(0),
                "The vertical part's state at the node.",
            ),
            kept(
                "h",
                quote!(u32),
                quote!(0),
                "The horizontal part's state at the node.",
            ),
            kept(
                "vs",
                quote!([u32; STACK]),
                quote!([0; STACK]),
                "The vertical part's state to restore at each depth of the stack.",
            ),
            kept(
                "hs",
                quote!([u32; STACK]),
                quote!([0; STACK]),
                "The horizontal part's state to restore at each depth of the stack.",
            ),
        ],
        Bound::Relabelled => vec![kept(
            "cs",
            quote!([Codes; STACK]),
            quote!([Codes::default(); STACK]),
            "The relabelled board's codes of the node at each depth of the stack: `cs[0]` the \
             root's, `cs[sp]` the current node's.",
        )],
    }
}

/// All items of one MTM instantiation.
pub fn emit(table: &Table, bound: Bound) -> TokenStream {
    let shape = table.shape;
    let (rows, cols, cells) = (shape.rows, shape.cols, shape.cells());
    let labels: Vec<Ident> = table.states.iter().map(|s| label(s.key)).collect();
    let fallbacks = table.states.iter().map(|s| match &s.action {
        Action::Move { fallback, .. } => label(*fallback),
        _ => label(s.key),
    });
    let facts = [
        Fact::cell(table.states.iter().map(|s| s.key.cell)),
        Fact::new(
            "landing",
            "Where this state's jump lands (its own cell for an undo or an end).",
            quote!(usize),
            quote!(0),
            table.states.iter().map(|s| table.landing(s)),
        ),
        Fact::fallback(
            "The next state of the same place (an end and `Bottom` are their own).",
            fallbacks,
        ),
    ];
    // The home line of every tile (index: the tile, 1 to cells; 32 entries so that a masked
    // index needs no bounds check). Tile t's home is cell t - 1: the driver names each tile
    // after its home (plus 1), so that a goal with the blank anywhere has tiles 1 to cells
    // but the blank's home plus 1 (the standard goal: 1 to cells - 1).
    let home_row: Vec<u8> = (0..32)
        .map(|t: usize| {
            if (1..=cells).contains(&t) {
                ((t - 1) / cols) as u8
            } else {
                0
            }
        })
        .collect();
    let home_col: Vec<u8> = (0..32)
        .map(|t: usize| {
            if (1..=cells).contains(&t) {
                ((t - 1) % cols) as u8
            } else {
                0
            }
        })
        .collect();
    let roots = (0..cells).filter_map(|cell| {
        let me = label(table.root(cell)?);
        Some(quote! { #cell => Some(State::#me), })
    });
    let entered = table.states.iter().filter_map(|s| match &s.action {
        Action::Move { jump, .. } => Some((table.landing(s), *jump)),
        _ => None,
    });
    let entered: Vec<TokenStream> = {
        let mut seen = std::collections::BTreeSet::new();
        entered
            .filter(|pair| seen.insert(*pair))
            .filter_map(|(cell, jump)| {
                let me = label(table.entered(cell, jump)?);
                let (d, k) = (jump.d, jump.k as u8);
                Some(quote! { (#cell, #d, #k) => Some(State::#me), })
            })
            .collect()
    };
    let run = search_loop(table, bound);
    let goal = (1..cells).map(|t| t as u8).chain([0u8]);
    let (set_parts, set_codes, bound_constants) = match bound {
        Bound::Walking => (
            quote! { (self.v, self.h) = (v, h); },
            quote! { let _ = codes; },
            quote! {
                /// The row of each tile's home (the vertical part's class).
                const HOME_ROW: [u8; 32] = [#(#home_row),*];
                /// The column of each tile's home (the horizontal part's class).
                const HOME_COL: [u8; 32] = [#(#home_col),*];
            },
        ),
        Bound::Relabelled => (
            quote! { let _ = (v, h); },
            quote! { self.cs[0] = codes; },
            quote! {
                /// The goal's tiles, cell by cell.
                const GOAL: [u8; CELLS] = [#(#goal),*];
            },
        ),
    };
    let mut fields = vec![field(
        "tiles",
        quote!([u8; CELLS]),
        quote!([0; CELLS]),
        None,
    )];
    fields.extend(skeleton::stack_fields());
    fields.extend([
        field(
            "ms",
            quote!([u32; STACK]),
            quote!([0; STACK]),
            Some(
                "The pruning machine's state after the path to the node at each depth of the \
                 stack: `ms[0]` the root's, `ms[sp]` the current node's.",
            ),
        ),
        field("g", quote!(u32), quote!(0), None),
        field("limit", quote!(u32), quote!(0), None),
        field("next", quote!(u32), quote!(u32::MAX), None),
        field("nodes", quote!(u64), quote!(0), None),
    ]);
    fields.extend(kept(bound));
    let machine = skeleton::machine(
        &ident("Machine"),
        "One depth-first pass: the board (tiles, 0 for the blank), the explicit stack of states \
         and of what the bound keeps, the depth `g`, the bound `limit`, the least `g + h` cut \
         off (`next`) and the nodes generated.",
        &fields,
    );
    let constants = {
        let common = skeleton::board_constants(
            rows,
            cols,
            table.states.len(),
            "the places' attempts and ends",
        );
        quote! { #common #bound_constants }
    };
    let states = skeleton::state_enum(&labels, "place by place", &facts);
    quote! {
        #constants

        #states

        /// The first state of a search from the root with the blank on `cell`.
        pub const fn root(cell: usize) -> Option<State> {
            match cell {
                #(#roots)*
                _ => None,
            }
        }

        /// The first state of the place a jump in direction `d` (Knuth's code) of `k` cells
        /// lands on at `cell`: where the search below that jump starts.
        pub const fn entered(cell: usize, d: u8, k: u8) -> Option<State> {
            match (cell, d, k) {
                #(#entered)*
                _ => None,
            }
        }

        #machine

        impl Machine {
            /// Sets the root's parts' states (walking distance; with the table nothing).
            pub fn set_parts(&mut self, v: u32, h: u32) {
                #set_parts
            }

            /// Sets the root's codes, with their distances (the table; elsewhere nothing).
            pub fn set_codes(&mut self, codes: Codes) {
                #set_codes
            }

            #run
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mtm::table::Jump;

    fn text(table: &Table, cell: usize, came: Option<Jump>, attempt: usize) -> String {
        code_of(table, Bound::Walking, cell, came, attempt)
    }

    fn code_of(
        table: &Table,
        bound: Bound,
        cell: usize,
        came: Option<Jump>,
        attempt: usize,
    ) -> String {
        state_code(
            table,
            bound,
            StateKey {
                cell,
                came,
                attempt,
            },
        )
        .to_string()
    }

    #[test]
    fn a_jump_slides_its_tiles_on_constant_cells() {
        let table = Table::new(4, 4);
        // Cell 5 entered by north 2; attempt 1 is east 2, passing 6 and landing on 7.
        let code = text(&table, 5, Some(Jump { d: 1, k: 2 }), 1);
        assert_eq!(code.matches("nodes = nodes . wrapping_add (1)").count(), 1);
        assert!(code.contains("let tile0 = tiles [6usize]"));
        assert!(code.contains("tiles [5usize] = tile0"));
        assert!(code.contains("let tile1 = tiles [7usize]"));
        assert!(code.contains("tiles [6usize] = tile1"));
        assert!(code.contains("tiles [7usize] = 0"));
        // Two horizontal steps: columns 2 -> 1, then 3 -> 2.
        assert_eq!(code.matches("bound . horizontal . step").count(), 2);
        assert!(code.contains("2usize , 1usize"));
        assert!(code.contains("3usize , 2usize"));
        assert!(code.contains("bound . combine (v , after , Some (Axis :: Vertical))"));
        assert!(code.contains("state = State :: c7_e2_t0"));
        assert!(code.contains("states [sp as usize] = State :: c5_n2_t2"));
        assert!(code.contains("break Some (State :: c5_n2_t1)"));
        assert!(!code.contains("vertical . step"));
        // The pruning machine is asked first, for east 2 (symbol 0 * 3 + 2 - 1), and a child
        // searched carries the machine's state on the stack.
        let ask = code.find("prune . get ((ms [sp as usize] + 1u32) as usize)");
        assert!(ask.is_some() && ask < code.find("nodes = nodes"), "{code}");
        assert!(code.contains("ms [sp as usize] = m_after"));
    }

    #[test]
    fn with_the_table_a_jump_slides_the_codes_and_a_place_asks_for_its_childrens_entries() {
        let table = Table::new(4, 4);
        let relabelled = |attempt| {
            code_of(
                &table,
                Bound::Relabelled,
                5,
                Some(Jump { d: 1, k: 2 }),
                attempt,
            )
        };
        // Cell 5 entered by north 2; attempt 1 is east 2: tile0 from 6 to 5, tile1 from 7 to 6.
        let code = relabelled(1);
        assert!(code.contains("let mut child = cs [sp as usize]"));
        assert!(code.contains("child = child . slide (tile0 , 6usize , 5usize)"));
        assert!(code.contains("child = child . slide (tile1 , 7usize , 6usize)"));
        assert!(code
            .contains("bound . relabelled (& mut child , (budget , settled) , || tiles == GOAL)"));
        assert!(code.contains("cs [sp as usize] = child"));
        assert!(!code.contains("bound . prefetch"));
        // No walking distance: no parts stepped, combined, stacked or restored.
        assert!(!code.contains("step") && !code.contains("combine") && !code.contains("vs ["));
        assert!(!relabelled(3).contains("vs ["));
        // The place's first attempt asks for the entries of its three children (west 1, east
        // 1, east 2), each from the node's codes.
        let first = relabelled(0);
        assert_eq!(first.matches("bound . prefetch (c)").count(), 3, "{first}");
        assert_eq!(first.matches("let mut c = cs [sp as usize]").count(), 3);
        // With walking distance no codes are kept.
        for (rows, cols) in [(3, 3), (4, 4)] {
            let walking = Table::new(rows, cols);
            let code = text(&walking, 4, Some(Jump { d: 1, k: 1 }), 1);
            assert!(code.contains("let estimate = bound . combine ("), "{code}");
            assert!(
                !code.contains("slide")
                    && !code.contains("bound . prefetch")
                    && !code.contains("cs [")
            );
        }
        let small = Table::new(3, 3);
        let code = text(&small, 4, Some(Jump { d: 1, k: 1 }), 1);
        // Its jumps are spelled with two distances: this one, west 1, is symbol 2 * 2 + 1 - 1.
        assert!(code.contains("prune . get ((ms [sp as usize] + 4u32) as usize)"));
    }

    #[test]
    fn an_undo_takes_the_jump_back_and_pops() {
        let table = Table::new(4, 4);
        let code = text(&table, 5, Some(Jump { d: 1, k: 2 }), 3);
        // Entered from 13 through 9: 5 takes 9's tile, 9 takes 13's, 13 is the blank.
        let first = code.find("tiles [5usize] = tiles [9usize]");
        let second = code.find("tiles [9usize] = tiles [13usize]");
        assert!(first.is_some() && first < second, "{code}");
        assert!(code.contains("tiles [13usize] = 0"));
        assert!(code.contains("v = vs [sp as usize]"));
        assert!(code.contains("g = g . wrapping_sub (1)"));
        assert_eq!(text(&table, 5, None, 6), "break None ;");
    }

    #[test]
    fn one_arm_per_state_and_the_lookups_are_complete() {
        let table = Table::new(3, 3);
        let file: syn::File =
            syn::parse2(emit(&table, Bound::Walking)).expect("the expansion parses");
        let text = quote!(#file).to_string();
        assert_eq!(
            text.matches("nodes = nodes . wrapping_add (1)").count(),
            9 * 4 + 9 * 4 * 2
        );
        // Every cell has a root, and every landing an entered place.
        for cell in 0..9 {
            assert!(text.contains(&format!("{cell}usize => Some (State :: c{cell}_root_t0)")));
        }
        assert!(text.contains("(4usize , 1u8 , 1u8) => Some (State :: c4_n1_t0)"));
        assert!(text.contains("pub enum State"));
        assert!(text.contains("# [repr (u8)]"));
    }
}
