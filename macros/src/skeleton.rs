//! The skeleton both metrics' automata share, around their own state tables and state code:
//! the board's constants, the fieldless `State` enum with one `const fn` per fact about a state,
//! a machine (its fields, the explicit stack among them, and their defaults), and a search loop
//! that loads the fields it works on into locals, runs `loop { match state { … } }` over the
//! arms the metric writes, and stores them back.
//!
//! Invariant: a search loop's locals are exactly the machine's fields it names, loaded before
//! the loop and (when mutable) stored after it, so that a pass stopped by a win resumes from
//! the machine as it was left. The `match` has one arm per state plus `Bottom`, and no `_` arm:
//! what keeps its dispatch a bare jump table that LLVM copies into the arms (`tests/codegen.rs`
//! counts the copies).

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;
use std::fmt::Display;

/// The identifier of a state, a field or a function.
pub fn ident(name: impl Display) -> Ident {
    Ident::new(&name.to_string(), Span::call_site())
}

/// The constants of every instantiation: the board's size, the number of states and the depth
/// of the explicit stack.
pub fn board_constants(rows: usize, cols: usize, states: usize, what: &str) -> TokenStream {
    let cells = rows * cols;
    let doc = format!("Number of states ({what}).");
    quote! {
        /// Rows of the board this automaton is generated for.
        pub const ROWS: usize = #rows;
        /// Columns of the board.
        pub const COLS: usize = #cols;
        /// Cells of the board.
        pub const CELLS: usize = #cells;
        #[doc = #doc]
        pub const STATES: usize = #states;
        /// Entries of the explicit stack (indexed by a wrapping `u8`).
        pub const STACK: usize = 256;
    }
}

/// One fact about every state, emitted as `State::name(self) -> kind`.
pub struct Fact {
    pub name: &'static str,
    pub doc: &'static str,
    pub kind: TokenStream,
    /// `Bottom`'s value.
    pub bottom: TokenStream,
    /// Every other state's, in the order of the enum.
    pub values: Vec<TokenStream>,
}

impl Fact {
    /// A fact: `values` in the order of the enum.
    pub fn new(
        name: &'static str,
        doc: &'static str,
        kind: TokenStream,
        bottom: TokenStream,
        values: impl IntoIterator<Item = impl quote::ToTokens>,
    ) -> Fact {
        let values = values.into_iter().map(|v| quote!(#v)).collect();
        Fact {
            name,
            doc,
            kind,
            bottom,
            values,
        }
    }

    /// `cell`: the blank's cell in each state.
    pub fn cell(cells: impl IntoIterator<Item = usize>) -> Fact {
        let doc = "The blank's cell in this state (`Bottom`: cell 0).";
        Fact::new("cell", doc, quote!(usize), quote!(0), cells)
    }

    /// `fallback`: the state each state goes on to at the same place.
    pub fn fallback(doc: &'static str, fallbacks: impl IntoIterator<Item = Ident>) -> Fact {
        let states = fallbacks.into_iter().map(|to| quote!(State::#to));
        Fact::new(
            "fallback",
            doc,
            quote!(State),
            quote!(State::Bottom),
            states,
        )
    }
}

/// `enum State` (`Bottom` and `labels`, in that order) with `State::ALL` and the facts.
pub fn state_enum(labels: &[Ident], order: &str, facts: &[Fact]) -> TokenStream {
    let count = labels.len();
    // One byte per stack entry when the states fit.
    let repr = if count < 256 { quote!(u8) } else { quote!(u16) };
    let all_doc = format!("Every state but `Bottom`, {order}.");
    let facts = facts.iter().map(|fact| {
        let Fact {
            name,
            doc,
            kind,
            bottom,
            values,
        } = fact;
        let name = ident(name);
        quote! {
            #[doc = #doc]
            pub const fn #name(self) -> #kind {
                match self {
                    State::Bottom => #bottom,
                    #(State::#labels => #values,)*
                }
            }
        }
    });
    quote! {
        /// The automaton's states, plus `Bottom` (the end of a pass).
        #[allow(non_camel_case_types, clippy::enum_variant_names)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(#repr)]
        pub enum State {
            Bottom,
            #(#labels,)*
        }

        impl State {
            #[doc = #all_doc]
            pub const ALL: [State; #count] = [#(State::#labels,)*];

            #(#facts)*
        }
    }
}

/// A field of a machine.
pub struct Field {
    pub name: &'static str,
    pub kind: TokenStream,
    pub init: TokenStream,
    pub doc: Option<&'static str>,
}

/// A field: its name, type, initial value and documentation.
pub fn field(
    name: &'static str,
    kind: TokenStream,
    init: TokenStream,
    doc: Option<&'static str>,
) -> Field {
    Field {
        name,
        kind,
        init,
        doc,
    }
}

/// The explicit stack every machine has: the state to go on from at each depth, and the
/// stack pointer.
pub fn stack_fields() -> [Field; 2] {
    [
        field(
            "states",
            quote!([State; STACK]),
            quote!([State::Bottom; STACK]),
            None,
        ),
        field("sp", quote!(u8), quote!(0), None),
    ]
}

/// `struct name` with `fields`, and its `Default`.
pub fn machine(name: &Ident, doc: &str, fields: &[Field]) -> TokenStream {
    let declared = fields.iter().map(|f| {
        let (name, kind) = (ident(f.name), &f.kind);
        let doc = f.doc.map(|doc| quote! { #[doc = #doc] });
        quote! { #doc pub #name: #kind, }
    });
    let defaults = fields.iter().map(|f| {
        let (name, init) = (ident(f.name), &f.init);
        quote! { #name: #init, }
    });
    quote! {
        #[doc = #doc]
        #[derive(Clone, Debug)]
        pub struct #name {
            #(#declared)*
        }

        impl Default for #name {
            fn default() -> #name {
                #name {
                    #(#defaults)*
                }
            }
        }
    }
}

/// How a search loop holds a field of its machine.
pub enum Local {
    /// A mutable copy, stored back after the loop.
    Copy(&'static str),
    /// A mutable copy kept in memory: its address handed out once (`black_box`), so that it
    /// cannot be split into values live across the `match`, which would stop LLVM copying the
    /// dispatch into the arms.
    InMemory(&'static str),
    /// A copy the loop only reads.
    Read(&'static str),
    /// Worked on in place.
    InPlace(&'static str),
}

/// A search loop: `pub fn name(&mut self, params start: State) -> Option<State>`.
pub struct Loop {
    pub name: Ident,
    /// Its documentation, as attributes.
    pub docs: TokenStream,
    pub params: TokenStream,
    /// The fields it works on, loaded in this order.
    pub locals: Vec<Local>,
    /// One arm per state but `Bottom`.
    pub arms: Vec<TokenStream>,
}

/// The search loop's function.
pub fn search_loop(spec: Loop) -> TokenStream {
    let Loop {
        name,
        docs,
        params,
        locals,
        arms,
    } = spec;
    let load = locals.iter().map(|local| match local {
        Local::Copy(name) => {
            let name = ident(name);
            quote! { let mut #name = self.#name; }
        }
        Local::InMemory(name) => {
            let name = ident(name);
            quote! {
                let mut #name = self.#name;
                std::hint::black_box(&mut #name);
            }
        }
        Local::Read(name) => {
            let name = ident(name);
            quote! { let #name = self.#name; }
        }
        Local::InPlace(name) => {
            let name = ident(name);
            quote! { let #name = &mut self.#name; }
        }
    });
    let store = locals.iter().filter_map(|local| match local {
        Local::Copy(name) | Local::InMemory(name) => {
            let name = ident(name);
            Some(quote! { self.#name = #name; })
        }
        _ => None,
    });
    quote! {
        #docs
        #[inline(never)]
        pub fn #name(&mut self, #params start: State) -> Option<State> {
            #(#load)*
            let mut state = start;
            let won = loop {
                match state {
                    State::Bottom => break None,
                    #(#arms)*
                }
            };
            #(#store)*
            won
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loop_loads_its_fields_and_stores_back_only_the_mutable_ones() {
        let code = search_loop(Loop {
            name: ident("run"),
            docs: quote! {},
            params: quote! { prune: &[u32], },
            locals: vec![
                Local::InMemory("tiles"),
                Local::Copy("sp"),
                Local::Read("limit"),
                Local::InPlace("board"),
            ],
            arms: vec![quote! { State::a => break None, }],
        })
        .to_string();
        assert!(code.contains("pub fn run (& mut self , prune : & [u32] , start : State)"));
        assert!(code.contains("let mut sp = self . sp ;"));
        assert!(code.contains("let limit = self . limit ;"));
        assert!(code.contains("let board = & mut self . board ;"));
        assert!(code.contains("self . sp = sp ;"));
        assert!(!code.contains("self . limit ="));
        assert!(!code.contains("self . board ="));
        let (before, after) = code.split_once("loop").expect("a loop");
        assert!(before.contains(
            "let mut tiles = self . tiles ; std :: hint :: black_box (& mut tiles) ; let mut sp"
        ));
        assert!(after.contains("self . tiles = tiles ;") && after.contains("self . sp = sp"));
        assert!(code.contains("State :: Bottom => break None , State :: a => break None"));
    }

    #[test]
    fn the_enum_has_bottom_first_and_one_fact_function_per_fact() {
        let labels = [ident("a"), ident("b")];
        let fact = Fact {
            name: "cell",
            doc: "The cell.",
            kind: quote!(usize),
            bottom: quote!(0),
            values: vec![quote!(3), quote!(4)],
        };
        let file: syn::File =
            syn::parse2(state_enum(&labels, "in order", &[fact])).expect("parses");
        let text = quote!(#file).to_string();
        assert!(text.contains("pub enum State { Bottom , a , b , }"));
        assert!(text.contains("[State :: a , State :: b ,]"));
        assert!(text.contains("State :: Bottom => 0 , State :: a => 3 , State :: b => 4 ,"));
        assert!(text.contains("# [repr (u8)]"));
    }

    #[test]
    fn a_machine_defaults_every_field() {
        let mut fields = vec![field("board", quote!([u8; 16]), quote!([0; 16]), None)];
        fields.extend(stack_fields());
        fields.push(field("nodes", quote!(u64), quote!(0), Some("Nodes.")));
        let file: syn::File =
            syn::parse2(machine(&ident("Machine"), "A machine.", &fields)).expect("parses");
        let text = quote!(#file).to_string();
        for name in ["board", "states", "sp", "nodes"] {
            assert!(text.contains(&format!("pub {name} :")), "{name}");
            assert!(text.contains(&format!("{name} :")), "{name}");
        }
        assert!(text.contains("impl Default for Machine"));
    }
}
