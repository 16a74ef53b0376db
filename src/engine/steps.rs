//! The single-tile metric's tree, as [`super::ida`] walks it: from a node the blank steps to a
//! neighbouring cell, in an engine's order of directions, never straight back where it came
//! from, and only where the duplicate-pruning machine lets it ([`prune::Machine::step`]).
//!
//! A child's estimate comes from an [`Estimate`]: the reference engine's ([`Scratch`]: the
//! Manhattan distance move by move, or the tables from scratch), or the cut's ([`Stepped`]: a
//! partition's or a catalogue's lookups followed move by move with [`PatternDb::step`] or
//! [`CatalogueDb::step`], so that the automaton's subtrees start with their values instead of
//! finding them from scratch).
//!
//! Invariant: the tree's tiles are those of the node being expanded, and its path the pieces
//! pushed to reach it (after the prefix it was made with); a node's `h` is the heuristic's
//! estimate of its tiles, and its `machine` the pruning machine's state after its path.

use super::parallel::Subtree;
use crate::board::{Board, Direction, MAX_CELLS};
use crate::heuristic::maxdb::{self, CatalogueDb};
use crate::heuristic::pdb::{piece_cells, Entries, PatternDb, Values};
use crate::heuristic::{Heuristic, Kept};
use crate::position::Position;
use crate::prune;

/// How a child's estimate is found from its parent's.
pub trait Estimate {
    /// What a node keeps to find its children's estimates.
    type State: Copy;

    /// The estimate and state of the child whose tiles are `tiles`, from its parent's
    /// `(h, state)`, reached by `(tile, from, to)`: `tile` moving from `from` into the blank
    /// at `to`.
    fn child(
        &self,
        tiles: &[u8],
        parent: (u32, &Self::State),
        moved: (u8, usize, usize),
    ) -> (u32, Self::State);

    /// The lookups' values in `state` (none kept: the reference engine's).
    fn values(state: &Self::State) -> Kept;
}

/// The reference engine's estimate: the Manhattan distance move by move, or the tables' from
/// scratch at each child.
pub struct Scratch<'a> {
    /// The heuristic when it reads tables (none: Manhattan, found move by move).
    tables: Option<&'a Heuristic>,
    /// `distance[tile * cells + cell]`: how far `tile` on `cell` is from home.
    distance: Vec<u32>,
    cells: usize,
}

impl<'a> Scratch<'a> {
    pub fn new(heuristic: &'a Heuristic, board: Board) -> Scratch<'a> {
        let cells = board.cells();
        let distance = (0..cells * cells)
            .map(|i| board.tile_distance((i / cells) as u8, i % cells) as u32)
            .collect();
        Scratch {
            tables: heuristic.has_tables().then_some(heuristic),
            distance,
            cells,
        }
    }
}

impl Estimate for Scratch<'_> {
    type State = ();

    #[inline(always)]
    fn child(
        &self,
        tiles: &[u8],
        (h, _): (u32, &()),
        (tile, from, to): (u8, usize, usize),
    ) -> (u32, ()) {
        let after = match self.tables {
            Some(tables) => tables.table_estimate(tiles).unwrap_or(h + 1),
            None => {
                let row = usize::from(tile) * self.cells;
                h + self.distance[row + to] - self.distance[row + from]
            }
        };
        debug_assert_eq!(after.abs_diff(h), 1, "a consistent heuristic");
        (after, ())
    }

    fn values(_: &()) -> Kept {
        Kept::Nothing
    }
}

/// The cut's estimate: [`Scratch`]'s, except that the lookups of a partition or a catalogue
/// are followed move by move, their values and entries kept at each node.
pub struct Stepped<'a> {
    scratch: Scratch<'a>,
    heuristic: &'a Heuristic,
    board: Board,
}

/// What a node of the cut keeps of the tables ([`Stepped`]).
#[derive(Clone, Copy, Debug)]
pub enum Followed {
    Nothing,
    Tables(Values, Entries),
    Catalogue(maxdb::Values, maxdb::Entries),
}

impl<'a> Stepped<'a> {
    pub fn new(heuristic: &'a Heuristic, board: Board) -> Stepped<'a> {
        Stepped {
            scratch: Scratch::new(heuristic, board),
            heuristic,
            board,
        }
    }

    /// What a node at `position` keeps, its values `kept` when they are the heuristic's (else
    /// found from scratch).
    pub fn start(&self, position: &Position, kept: Kept) -> Followed {
        let kept = match (self.heuristic, kept) {
            (Heuristic::Tables(_), Kept::Tables(_)) => kept,
            (Heuristic::Catalogue(_), Kept::Catalogue(_)) => kept,
            _ => self.heuristic.kept(position),
        };
        let (at, _) = piece_cells(position);
        match (self.heuristic, kept) {
            (Heuristic::Tables(db), Kept::Tables(values)) => {
                Followed::Tables(values, db.entries(&at))
            }
            (Heuristic::Catalogue(db), Kept::Catalogue(values)) => {
                Followed::Catalogue(values, db.entries(&at))
            }
            _ => Followed::Nothing,
        }
    }
}

impl Estimate for Stepped<'_> {
    type State = Followed;

    fn child(
        &self,
        tiles: &[u8],
        (h, followed): (u32, &Followed),
        (tile, from, to): (u8, usize, usize),
    ) -> (u32, Followed) {
        // The piece on each cell, named by its home (the blank's cell holds 31).
        let mut pieces = [31; 32];
        for (cell, &t) in pieces.iter_mut().zip(tiles) {
            if t != 0 {
                *cell = self.board.home(t) as u8 & 31;
            }
        }
        let the_move = (self.board.home(tile) as u8, from as u8, to as u8);
        match (self.heuristic, followed) {
            (Heuristic::Tables(db), Followed::Tables(values, entries)) => {
                let (values, entries) = db.step(*values, entries, &pieces, the_move);
                (
                    PatternDb::estimate(values),
                    Followed::Tables(values, entries),
                )
            }
            (Heuristic::Catalogue(db), Followed::Catalogue(values, entries)) => {
                let (values, entries) = db.step(*values, entries, &pieces, the_move);
                let h = CatalogueDb::estimate(values);
                (h, Followed::Catalogue(values, entries))
            }
            _ => {
                let (after, ()) = self.scratch.child(tiles, (h, &()), (tile, from, to));
                (after, *followed)
            }
        }
    }

    fn values(followed: &Followed) -> Kept {
        match followed {
            Followed::Nothing => Kept::Nothing,
            Followed::Tables(values, _) => Kept::Tables(*values),
            Followed::Catalogue(values, _) => Kept::Catalogue(*values),
        }
    }
}

/// A node: the blank's cell, its last move (none at the start), the estimate, the pruning
/// machine's state and the estimate's.
#[derive(Clone, Copy, Debug)]
pub struct Node<S> {
    pub blank: usize,
    pub came: Option<Direction>,
    pub h: u32,
    pub machine: u32,
    pub state: S,
}

/// A step: the blank's direction, the cell it comes from to take the tile there, and the
/// pruning machine's state after it.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    d: Direction,
    from: usize,
    machine: u32,
}

/// The tree of the blank's steps from a position.
pub struct Steps<'a, E> {
    board: Board,
    /// `orders[c]`: the directions tried after the blank's move of code `c` (4: at the
    /// start), in the engine's order; `counts[c]` of them.
    orders: [[Direction; 4]; 5],
    counts: [usize; 5],
    /// `neighbours[cell][d]`: the cell next to `cell` in direction `d`.
    neighbours: Vec<[Option<usize>; 4]>,
    machine: &'a prune::Machine,
    tiles: [u8; MAX_CELLS],
    path: Vec<u8>,
    estimate: E,
}

impl<'a, E: Estimate> Steps<'a, E> {
    /// The tree from `start`, trying at a node reached by the blank's move `came` the
    /// directions `order(came)`, refused by `machine`'s words, estimated by `estimate`; its
    /// path begins with `path`.
    pub fn new(
        start: &Position,
        order: &dyn Fn(Option<Direction>) -> Vec<Direction>,
        machine: &'a prune::Machine,
        path: &[u8],
        estimate: E,
    ) -> Steps<'a, E> {
        let board = start.board();
        let cells = board.cells();
        let mut orders = [[Direction::East; 4]; 5];
        let mut counts = [0; 5];
        let came = Direction::ALL.map(Some).into_iter().chain([None]);
        for (c, came) in came.enumerate() {
            let order = order(came);
            counts[c] = order.len().min(4);
            orders[c][..counts[c]].copy_from_slice(&order[..counts[c]]);
        }
        let neighbours = (0..cells)
            .map(|cell| Direction::ALL.map(|d| board.neighbour(cell, d)))
            .collect();
        let mut tiles = [0u8; MAX_CELLS];
        tiles[..cells].copy_from_slice(start.tiles());
        Steps {
            board,
            orders,
            counts,
            neighbours,
            machine,
            tiles,
            path: path.to_vec(),
            estimate,
        }
    }

    fn order(came: Option<Direction>) -> usize {
        came.map_or(4, |d| usize::from(d.code()))
    }
}

impl<E: Estimate> super::ida::Tree for Steps<'_, E> {
    type Node = Node<E::State>;
    type Move = Step;
    type Subtree = Subtree;

    const GOAL_AT_LIMIT: bool = true;

    #[inline(always)]
    fn moves(&self, node: &Self::Node) -> usize {
        self.counts[Self::order(node.came)]
    }

    #[inline(always)]
    fn step(&self, node: &Self::Node, i: usize) -> Option<Step> {
        let d = self.orders[Self::order(node.came)][i];
        let from = self.neighbours[node.blank][usize::from(d.code())]?;
        let machine = self.machine.step(node.machine, d)?;
        Some(Step { d, from, machine })
    }

    #[inline(always)]
    fn make(&mut self, node: &Self::Node, m: Step, _: (u32, u32)) -> (Self::Node, u32) {
        let (blank, from) = (node.blank, m.from);
        let tile = self.tiles[from];
        self.tiles[blank] = tile;
        self.tiles[from] = 0;
        self.path.push(tile);
        let tiles = &self.tiles[..self.board.cells()];
        let (h, state) = self
            .estimate
            .child(tiles, (node.h, &node.state), (tile, from, blank));
        debug_assert!(
            h > 0
                || tiles
                    .iter()
                    .enumerate()
                    .all(|(c, &t)| self.board.home(t) == c)
        );
        let child = Node {
            blank: from,
            came: Some(m.d),
            h,
            machine: m.machine,
            state,
        };
        (child, h)
    }

    #[inline(always)]
    fn unmake(&mut self, node: &Self::Node, m: Step) {
        self.path.pop();
        self.tiles[m.from] = self.tiles[node.blank];
        self.tiles[node.blank] = 0;
    }

    fn path(&self) -> &[u8] {
        &self.path
    }

    fn subtree(&self, child: &Self::Node, g: u32, limit: u32) -> Option<Subtree> {
        let left = limit - g;
        Some(Subtree {
            root: Position::from_tiles(self.board, &self.tiles[..self.board.cells()]).ok()?,
            came: child.came?,
            path: self.path.clone(),
            happy: (left + child.h) / 2,
            sad: (left - child.h) / 2,
            values: E::values(&child.state),
            machine: child.machine,
        })
    }
}
