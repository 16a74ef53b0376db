//! The forbidden words: move strings of the blank that another string replaces (Taylor & Korf,
//! "Pruning duplicate nodes in depth-first search", AAAI-93).
//!
//! A *word* is a string of the blank's directions (Knuth's codes: east 0, north 1, west 2,
//! south 3). Its *effect* is what it does to the tiles, read on an unbounded board: where the
//! blank ends and which tile ends on each cell it visited. Its *box* is the smallest rectangle
//! holding the blank's cells along the way. On a bounded board a word can be made from a cell
//! exactly when its box, placed there, fits the board, and then it does what its effect says.
//!
//! Words are met in *search order*: shorter first, then lexicographically by code. A word `w`
//! is *forbidden* when an earlier word `v` has the same effect and a box inside `w`'s: wherever
//! `w` can be made, `v` can too, and does the same. So among the shortest paths to a position,
//! the first in search order contains no forbidden word: replacing one by its `v` would give a
//! shorter path, or an equally short earlier one. An IDA* that never extends a path ending in a
//! forbidden word still finds every optimal length (and, with every bound complete, every
//! position at each distance).
//!
//! The search is breadth-first over the words with no forbidden piece, one length at a time,
//! in search order. Invariant at length `n`: `alive` holds, sorted, every word of length `n`
//! none of whose pieces is forbidden, and `seen` every effect met so far with the alive words
//! having it. A word of length `n + 1` has no forbidden piece shorter than itself exactly when
//! its first `n` and last `n` moves are both alive; then it is forbidden or alive by the rule.

use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::hash_map::Entry;

/// A word of at most 32 moves: two bits a move, the first move in the highest bits used, so
/// that words of one length compare as numbers in search order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Word {
    pub len: u8,
    pub code: u64,
}

/// Longest word a [`Word`] holds.
pub const MAX_WORD: usize = 32;

impl Word {
    pub const EMPTY: Word = Word { len: 0, code: 0 };

    /// The word of these direction codes.
    pub fn of(moves: &[u8]) -> Word {
        moves.iter().fold(Word::EMPTY, |w, &d| w.then(d))
    }

    /// This word followed by direction `d`.
    pub fn then(self, d: u8) -> Word {
        Word {
            len: self.len + 1,
            code: (self.code << 2) | u64::from(d & 3),
        }
    }

    /// The `i`-th move.
    pub fn at(self, i: usize) -> u8 {
        ((self.code >> (2 * (usize::from(self.len) - 1 - i))) & 3) as u8
    }

    /// The moves, first to last.
    pub fn moves(self) -> Vec<u8> {
        (0..usize::from(self.len)).map(|i| self.at(i)).collect()
    }

    /// All but the first move.
    fn tail(self) -> Word {
        let len = self.len - 1;
        Word {
            len,
            code: self.code & ((1u64 << (2 * len)) - 1),
        }
    }
}

/// The steps of direction code `d` as (row, column) offsets.
pub fn step(d: u8) -> (i32, i32) {
    match d & 3 {
        0 => (0, 1),
        1 => (-1, 0),
        2 => (0, -1),
        _ => (1, 0),
    }
}

/// The smallest rectangle holding a word's cells, relative to the blank's start:
/// `(top, bottom, left, right)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Box2 {
    pub top: i32,
    pub bottom: i32,
    pub left: i32,
    pub right: i32,
}

impl Box2 {
    fn within(self, other: Box2) -> bool {
        self.top >= other.top
            && self.bottom <= other.bottom
            && self.left >= other.left
            && self.right <= other.right
    }
}

/// The effect of a word, exactly: the cells whose tile moved, each with the cell its tile came
/// from (the blank's start cell names the blank), as `[row, col, tile row, tile col]` sorted by
/// cell; and its box.
#[derive(Clone, Copy, Debug)]
struct Effect {
    moved: [[i8; 4]; MAX_WORD + 1],
    len: usize,
    bounds: Box2,
}

impl Effect {
    fn moved(&self) -> &[[i8; 4]] {
        &self.moved[..self.len]
    }

    fn fingerprint(&self) -> u64 {
        use std::hash::BuildHasher;
        rustc_hash::FxBuildHasher.hash_one(self.moved())
    }
}

fn effect(word: Word) -> Effect {
    // The cells visited, with the cell whose tile is there now; a word of n moves visits at
    // most n + 1 cells, so a list is as quick as anything.
    let mut cells = [[0i8; 4]; MAX_WORD + 1];
    let mut visited = 1;
    let (mut r, mut c) = (0i8, 0i8);
    let mut bounds = Box2 {
        top: 0,
        bottom: 0,
        left: 0,
        right: 0,
    };
    let mut blank = 0; // index in `cells` of the blank's cell
    for i in 0..usize::from(word.len) {
        let (dr, dc) = step(word.at(i));
        (r, c) = (r + dr as i8, c + dc as i8);
        bounds.top = bounds.top.min(i32::from(r));
        bounds.bottom = bounds.bottom.max(i32::from(r));
        bounds.left = bounds.left.min(i32::from(c));
        bounds.right = bounds.right.max(i32::from(c));
        let next = match cells[..visited].iter().position(|x| x[..2] == [r, c]) {
            Some(k) => k,
            None => {
                cells[visited] = [r, c, r, c];
                visited += 1;
                visited - 1
            }
        };
        // The tile on the blank's new cell slides onto its old one.
        let tile = [cells[next][2], cells[next][3]];
        cells[blank][2..].copy_from_slice(&tile);
        cells[next][2..].copy_from_slice(&[0, 0]);
        blank = next;
    }
    let mut moved = [[0i8; 4]; MAX_WORD + 1];
    let mut len = 0;
    for cell in &cells[..visited] {
        if cell[..2] != cell[2..] {
            moved[len] = *cell;
            len += 1;
        }
    }
    moved[..len].sort_unstable();
    Effect { moved, len, bounds }
}

/// What the search over words found, length by length.
#[derive(Clone, Debug, Default)]
pub struct Words {
    /// The forbidden words, in search order.
    pub forbidden: Vec<Word>,
    /// `alive[n]`: how many words of length `n` have no forbidden piece.
    pub alive: Vec<u64>,
}

/// The forbidden words of at most `depth` moves (at most [`MAX_WORD`]).
pub fn forbidden(depth: usize) -> Words {
    let depth = depth.min(MAX_WORD);
    // Effects met, by fingerprint: the alive words that have one, with their boxes (the first
    // in `seen`, any others, rare, in `more`). A word whose box holds the box of one of them is
    // forbidden, and need not be kept: a later word whose box holds its box holds theirs too.
    let mut seen: FxHashMap<u64, (Word, Box2)> = FxHashMap::default();
    let mut more: FxHashMap<u64, Vec<(Word, Box2)>> = FxHashMap::default();
    let nothing = effect(Word::EMPTY);
    seen.insert(nothing.fingerprint(), (Word::EMPTY, nothing.bounds));
    let mut alive = vec![Word::EMPTY];
    let mut words = Words {
        forbidden: Vec::new(),
        alive: vec![1],
    };
    for _ in 0..depth {
        let previous: FxHashSet<u64> = alive.iter().map(|w| w.code).collect();
        let mut next = Vec::with_capacity(alive.len() * 3);
        for &stem in &alive {
            for d in 0..4 {
                let word = stem.then(d);
                if !previous.contains(&word.tail().code) {
                    continue; // it ends in a forbidden word
                }
                let this = effect(word);
                let key = this.fingerprint();
                let replaces = |&(earlier, their_box): &(Word, Box2)| {
                    their_box.within(this.bounds) && effect(earlier).moved() == this.moved()
                };
                let entry = (word, this.bounds);
                let replaced = match seen.entry(key) {
                    Entry::Vacant(slot) => {
                        slot.insert(entry);
                        false
                    }
                    Entry::Occupied(first) => {
                        let others = more.entry(key).or_default();
                        let replaced = replaces(first.get()) || others.iter().any(replaces);
                        if !replaced {
                            others.push(entry);
                        }
                        replaced
                    }
                };
                if replaced {
                    words.forbidden.push(word);
                } else {
                    next.push(word);
                }
            }
        }
        words.alive.push(next.len() as u64);
        alive = next;
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_keep_their_moves_in_order() {
        let w = Word::of(&[3, 0, 1]);
        assert_eq!(w.moves(), vec![3, 0, 1]);
        assert_eq!(w.tail().moves(), vec![0, 1]);
        assert!(Word::of(&[0, 3]) < Word::of(&[1, 0]));
    }

    #[test]
    fn effects_are_what_the_tiles_do() {
        // East then west puts everything back.
        assert_eq!(effect(Word::of(&[0, 2])).moved(), &[] as &[[i8; 4]]);
        // East: the blank is on (0, 1), the tile from there on (0, 0).
        assert_eq!(
            effect(Word::of(&[0])).moved(),
            &[[0, 0, 0, 1], [0, 1, 0, 0]]
        );
        // Three times round a 2 x 2 block is nothing, and twice round it is not.
        let round = [0, 3, 2, 1];
        assert_eq!(effect(Word::of(&round.repeat(3))).moved().len(), 0);
        assert_ne!(effect(Word::of(&round.repeat(2))).moved().len(), 0);
    }

    #[test]
    fn the_shortest_duplicates_are_found() {
        let words = forbidden(12);
        // Length 2: each move undone (four words); nothing else until the 2 x 2 cycles.
        let short: Vec<Vec<u8>> = words
            .forbidden
            .iter()
            .filter(|w| w.len <= 2)
            .map(|w| w.moves())
            .collect();
        assert_eq!(short, vec![vec![0, 2], vec![1, 3], vec![2, 0], vec![3, 1]]);
        assert!(words.forbidden.iter().all(|w| w.len == 2 || w.len >= 6));
        // Six moves: three round a 2 x 2 block one way equal three the other way round: the
        // later of each pair in search order is forbidden, one for each of the four blocks
        // with a corner on the blank's cell.
        let six = words.forbidden.iter().filter(|w| w.len == 6).count();
        assert_eq!(six, 4);
        // Alive words: 4, then 3 a move, until the first duplicates at six moves.
        assert_eq!(&words.alive[..6], &[1, 4, 12, 36, 108, 324]);
        assert_eq!(words.alive[6], 972 - 4);
    }
}
