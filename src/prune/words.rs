//! The forbidden words: move strings of the blank that another string replaces (Taylor & Korf,
//! "Pruning duplicate nodes in depth-first search", AAAI-93).
//!
//! A *word* is a string of *symbols*, the moves of a metric ([`Spelling`]): in the single-tile
//! metric a symbol is one of the blank's directions (Knuth's codes: east 0, north 1, west 2,
//! south 3); in the multi-tile metric it is a direction and a distance, a jump of the blank.
//! Its *effect* is what it does to the tiles, read on an unbounded board: where the blank ends
//! and which tile ends on each cell it visited. Its *box* is the smallest rectangle holding the
//! blank's cells along the way. On a bounded board a word can be made from a cell exactly when
//! its box, placed there, fits the board, and then it does what its effect says.
//!
//! Words are met in *search order*: shorter first, then lexicographically by symbol (the order
//! in which the engines try moves). A word `w` is *forbidden* when an earlier word `v` has the
//! same effect and a box inside `w`'s: wherever `w` can be made, `v` can too, and does the
//! same. So among the shortest paths to a position, the first in search order contains no
//! forbidden word: replacing one by its `v` would give a shorter path, or an equally short
//! earlier one. An IDA* that never extends a path ending in a forbidden word still finds every
//! optimal length (and, with every bound complete, every position at each distance).
//!
//! The search is breadth-first over the words with no forbidden piece, one length at a time,
//! in search order. Invariant at length `n`: `alive` holds, sorted, every word of length `n`
//! none of whose pieces is forbidden (and, for a board of the multi-tile metric, whose box fits
//! the board: other words are never made), and `seen` every effect met so far with the alive
//! words having it. A word of length `n + 1` has no forbidden piece shorter than itself exactly
//! when its first `n` and last `n` symbols are both alive; then it is forbidden or alive by the
//! rule.

use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::hash_map::Entry;

/// The version of the rules above: which words are forbidden, the order in which words are met,
/// and how symbols are numbered. A machine's file names it (`prune::cache`), so that a file built
/// under other rules is rebuilt rather than read as it is. Raise it with any change here that
/// could change a machine built from the same depth and spelling.
pub const RULES: u32 = 1;

/// The moves words are spelled in. A symbol is a direction and a distance of `1..=longest`
/// cells, numbered in the engines' order: `d * longest + distance - 1` for Knuth's direction
/// code `d` (east, north, west, south), shorter jumps first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Spelling {
    /// The longest jump: 1 in the single-tile metric.
    pub longest: u8,
    /// `(rows, columns)` of the board the words are made on; `None`: any board.
    pub within: Option<(u8, u8)>,
}

impl Spelling {
    /// The single-tile metric on any board: a symbol is a direction code.
    pub const STM: Spelling = Spelling {
        longest: 1,
        within: None,
    };

    /// The multi-tile metric on a board of `rows` x `cols` (a side of at most 8 cells).
    pub fn mtm(rows: usize, cols: usize) -> Spelling {
        let side = rows.max(cols).clamp(2, 8);
        Spelling {
            longest: (side - 1) as u8,
            within: Some((rows.min(8) as u8, cols.min(8) as u8)),
        }
    }

    /// How many symbols there are.
    pub fn symbols(self) -> usize {
        4 * usize::from(self.longest)
    }

    /// The symbol of a jump of `distance` cells in direction `d`.
    pub fn symbol(self, d: u8, distance: u8) -> u8 {
        (d & 3) * self.longest + distance - 1
    }

    /// The direction code and distance of a symbol.
    pub fn jump(self, symbol: u8) -> (u8, u8) {
        (symbol / self.longest, symbol % self.longest + 1)
    }
}

/// A word of at most [`MAX_WORD`] symbols: five bits a symbol, the first in the highest bits
/// used, so that words of one length compare as numbers in search order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Word {
    pub len: u8,
    pub code: u128,
}

/// Longest word a [`Word`] holds.
pub const MAX_WORD: usize = 25;

/// Bits a symbol.
const BITS: usize = 5;

impl Word {
    pub const EMPTY: Word = Word { len: 0, code: 0 };

    /// The word of these symbols.
    pub fn of(symbols: &[u8]) -> Word {
        symbols.iter().fold(Word::EMPTY, |w, &s| w.then(s))
    }

    /// This word followed by `symbol`.
    pub fn then(self, symbol: u8) -> Word {
        Word {
            len: self.len + 1,
            code: (self.code << BITS) | u128::from(symbol & 31),
        }
    }

    /// The `i`-th symbol.
    pub fn at(self, i: usize) -> u8 {
        ((self.code >> (BITS * (usize::from(self.len) - 1 - i))) & 31) as u8
    }

    /// The symbols, first to last.
    pub fn moves(self) -> Vec<u8> {
        (0..usize::from(self.len)).map(|i| self.at(i)).collect()
    }

    /// All but the first symbol.
    fn tail(self) -> Word {
        let len = self.len - 1;
        Word {
            len,
            code: self.code & ((1u128 << (BITS * usize::from(len))) - 1),
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

    fn fits(self, (rows, cols): (u8, u8)) -> bool {
        self.bottom - self.top < i32::from(rows) && self.right - self.left < i32::from(cols)
    }
}

/// Most cells a word visits: `MAX_WORD + 1` single steps, or a board of 64 cells.
const VISITED: usize = 65;

/// The effect of a word, exactly: the cells whose tile moved, each with the cell its tile came
/// from (the blank's start cell names the blank), as `[row, col, tile row, tile col]` sorted by
/// cell; and its box.
#[derive(Clone, Copy, Debug)]
struct Effect {
    moved: [[i8; 4]; VISITED],
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

/// The effect of `word` spelled in `spelling`; `None` when its box does not fit the board the
/// spelling is for.
fn effect(word: Word, spelling: Spelling) -> Option<Effect> {
    // The cells visited, with the cell whose tile is there now; few enough that a list is as
    // quick as anything.
    let mut cells = [[0i8; 4]; VISITED];
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
        let (d, distance) = spelling.jump(word.at(i));
        let (dr, dc) = step(d);
        for _ in 0..distance {
            (r, c) = (r + dr as i8, c + dc as i8);
            bounds.top = bounds.top.min(i32::from(r));
            bounds.bottom = bounds.bottom.max(i32::from(r));
            bounds.left = bounds.left.min(i32::from(c));
            bounds.right = bounds.right.max(i32::from(c));
            if spelling.within.is_some_and(|board| !bounds.fits(board)) {
                return None;
            }
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
    }
    let mut moved = [[0i8; 4]; VISITED];
    let mut len = 0;
    for cell in &cells[..visited] {
        if cell[..2] != cell[2..] {
            moved[len] = *cell;
            len += 1;
        }
    }
    moved[..len].sort_unstable();
    Some(Effect { moved, len, bounds })
}

/// What the search over words found, length by length.
#[derive(Clone, Debug, Default)]
pub struct Words {
    /// The forbidden words, in search order.
    pub forbidden: Vec<Word>,
    /// `alive[n]`: how many words of length `n` have no forbidden piece.
    pub alive: Vec<u64>,
}

/// The forbidden words of at most `depth` symbols (at most [`MAX_WORD`]) spelled in
/// `spelling`.
pub fn forbidden(depth: usize, spelling: Spelling) -> Words {
    let depth = depth.min(MAX_WORD);
    let symbols = spelling.symbols() as u8;
    // Effects met, by fingerprint: the alive words that have one, with their boxes (the first
    // in `seen`, any others, rare, in `more`). A word whose box holds the box of one of them is
    // forbidden, and need not be kept: a later word whose box holds its box holds theirs too.
    let mut seen: FxHashMap<u64, (Word, Box2)> = FxHashMap::default();
    let mut more: FxHashMap<u64, Vec<(Word, Box2)>> = FxHashMap::default();
    let mut words = Words {
        forbidden: Vec::new(),
        alive: vec![1],
    };
    let Some(nothing) = effect(Word::EMPTY, spelling) else {
        return words;
    };
    seen.insert(nothing.fingerprint(), (Word::EMPTY, nothing.bounds));
    let mut alive = vec![Word::EMPTY];
    for _ in 0..depth {
        let previous: FxHashSet<u128> = alive.iter().map(|w| w.code).collect();
        let mut next = Vec::with_capacity(alive.len() * 3);
        for &stem in &alive {
            for s in 0..symbols {
                let word = stem.then(s);
                if !previous.contains(&word.tail().code) {
                    continue; // it ends in a forbidden word
                }
                let Some(this) = effect(word, spelling) else {
                    continue; // never made on the board
                };
                let key = this.fingerprint();
                let replaces = |&(earlier, their_box): &(Word, Box2)| {
                    their_box.within(this.bounds)
                        && effect(earlier, spelling).is_some_and(|e| e.moved() == this.moved())
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

    fn stm(word: Word) -> Effect {
        effect(word, Spelling::STM).expect("any board takes any word")
    }

    #[test]
    fn effects_are_what_the_tiles_do() {
        // East then west puts everything back.
        assert_eq!(stm(Word::of(&[0, 2])).moved(), &[] as &[[i8; 4]]);
        // East: the blank is on (0, 1), the tile from there on (0, 0).
        assert_eq!(stm(Word::of(&[0])).moved(), &[[0, 0, 0, 1], [0, 1, 0, 0]]);
        // Three times round a 2 x 2 block is nothing, and twice round it is not.
        let round = [0, 3, 2, 1];
        assert_eq!(stm(Word::of(&round.repeat(3))).moved().len(), 0);
        assert_ne!(stm(Word::of(&round.repeat(2))).moved().len(), 0);
    }

    #[test]
    fn the_shortest_duplicates_are_found() {
        let words = forbidden(12, Spelling::STM);
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

    #[test]
    fn the_shortest_jump_duplicates_are_found() {
        let spelling = Spelling::mtm(4, 4);
        assert_eq!((spelling.symbols(), spelling.jump(5)), (12, (1, 3)));
        let words = forbidden(6, spelling);
        let of_length = |n: u8| words.forbidden.iter().filter(move |w| w.len == n);
        // Two jumps: exactly the pairs on one axis that fit four cells (the engines never
        // make them either: they are one jump, or none).
        let axis = |s: u8| spelling.jump(s).0 & 1;
        assert!(of_length(2).all(|w| axis(w.at(0)) == axis(w.at(1))));
        let fitting = (1..=3i32)
            .flat_map(|a| (1..=3i32).map(move |b| (a, b)))
            .map(|(a, b)| {
                // The same way (a + b cells beyond the start) or back (max(a, b) cells).
                usize::from(a + b <= 3) + usize::from(a.max(b) <= 3)
            })
            .sum::<usize>();
        assert_eq!(of_length(2).count(), 2 * 2 * fitting);
        // Nothing else until six jumps, where single steps three times round a 2 x 2 block
        // equal three the other way round: four words, as in the single-tile metric.
        assert_eq!(
            of_length(3).count() + of_length(4).count() + of_length(5).count(),
            0
        );
        let six: Vec<Vec<(u8, u8)>> = of_length(6)
            .map(|w| w.moves().into_iter().map(|s| spelling.jump(s)).collect())
            .collect();
        assert_eq!(six.len(), 4);
        assert!(six.iter().flatten().all(|&(_, distance)| distance == 1));
        // Alive: every symbol, then every pair on two axes.
        assert_eq!(&words.alive[..3], &[1, 12, 72]);
    }
}
