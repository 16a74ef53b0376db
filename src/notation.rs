//! Move strings in every notation fifteen prints, read back, rewritten and written: the tiles
//! pushed (hex digits on boards of at most 16 cells, `c8437b…`, or decimal tiles separated by
//! commas or spaces), and letters `U D L R` with optional counts (`D3 R L2`, spaces optional),
//! naming the direction the tiles move (players' notation, the MTM default) or the blank's
//! (`--moves blank`).
//!
//! A move string is held as the blank's unit steps on Knuth's board; its length in the
//! single-tile metric is their number, in the multi-tile metric the number of runs of one
//! direction (a run of tiles slid along a line is one move). [`invert`] and [`simplify`] are
//! pure functions of the steps.
//!
//! Invariant: [`read`] of what [`write`] (or a solve) wrote gives the same steps, in every
//! notation and either convention (Korf's board is Knuth's turned 180 degrees: his tile `x` is
//! Knuth's `n - x`, his `U` Knuth's `D`).

use crate::board::Direction;
use crate::position::{Convention, Position};

/// What a move string needs of a position: the engines' [`Position`], or the move verbs'
/// [`crate::tray::Tray`] on boards up to 16x16. Tiles are Knuth's numbers.
pub trait Playable: Clone {
    /// The number of cells (tiles with the blank).
    fn cells(&self) -> usize;
    /// Whether tiles are written as hex digits (at most 16 cells).
    fn uses_hex(&self) -> bool;
    /// Moves the blank in direction `d`; the tile pushed, or `None` off the board.
    fn move_blank(&mut self, d: Direction) -> Option<u8>;
    /// The blank's move that pushes `tile`, if it stands next to the blank.
    fn direction_of(&self, tile: u8) -> Option<Direction>;
    /// Tiles pushed (Knuth's numbers) in the user's convention and notation.
    fn moves_notation(&self, moves: &[u8], convention: Convention) -> String;
}

impl Playable for Position {
    fn cells(&self) -> usize {
        self.board().cells()
    }

    fn uses_hex(&self) -> bool {
        self.board().uses_hex()
    }

    fn move_blank(&mut self, d: Direction) -> Option<u8> {
        Position::move_blank(self, d)
    }

    fn direction_of(&self, tile: u8) -> Option<Direction> {
        Position::direction_of(self, tile)
    }

    fn moves_notation(&self, moves: &[u8], convention: Convention) -> String {
        Position::moves_notation(self, moves, convention)
    }
}

/// Whose direction a letter names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Mover {
    /// The tiles' (players' notation).
    Tiles,
    /// The blank's.
    Blank,
}

/// How a move string is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Written {
    /// The tiles pushed, one after the other (Knuth's output: `c8437b`, or `24,19` above 16
    /// cells).
    Tiles,
    /// The blank's directions, a letter a step (`LURD`: `solve --moves blank`).
    Blank,
    /// The tiles' directions, a letter a step (`RDLU`).
    Letters,
    /// The tiles' directions, a run along a line as one move with its count (`D3 R L2`: the
    /// multi-tile metric's notation).
    Mtm,
}

/// A move string that cannot be read or played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MovesError {
    #[error("move {index} ({text:?}) is not a tile of the board or a letter U, D, L or R")]
    Unreadable { index: usize, text: String },
    #[error("move {index} ({text}) is not possible: the tile is not next to the blank")]
    Illegal { index: usize, text: String },
    #[error("move {index} ({text}) is not possible: no tile can move that way (letters name the tiles' directions; --blank reads them as the blank's)")]
    IllegalLetter { index: usize, text: String },
    #[error("move {index} ({text}) is not possible: the blank cannot move that way")]
    IllegalBlank { index: usize, text: String },
}

/// The letter of a step of the blank on Knuth's board, as the user reads it.
pub fn letter(blank: Direction, mover: Mover, convention: Convention) -> char {
    match turned(blank, mover, convention) {
        Direction::East => 'R',
        Direction::North => 'U',
        Direction::West => 'L',
        Direction::South => 'D',
    }
}

/// The step of the blank on Knuth's board that a letter names.
fn named(letter: char, mover: Mover, convention: Convention) -> Option<Direction> {
    let shown = match letter.to_ascii_uppercase() {
        'R' => Direction::East,
        'U' => Direction::North,
        'L' => Direction::West,
        'D' => Direction::South,
        _ => return None,
    };
    // Turning is its own inverse.
    Some(turned(shown, mover, convention))
}

/// A direction between the blank's on Knuth's board and the one a letter names: the tiles go
/// against the blank, and Korf's board is Knuth's turned round.
fn turned(d: Direction, mover: Mover, convention: Convention) -> Direction {
    let mut d = d;
    if mover == Mover::Tiles {
        d = d.reverse();
    }
    if convention == Convention::Korf {
        d = d.reverse();
    }
    d
}

/// Whether `text` is written in letters (else tiles). Lower-case `d` alone is a hex tile;
/// fifteen writes its letters in upper case.
fn in_letters(text: &str) -> bool {
    text.chars()
        .any(|c| matches!(c, 'U' | 'D' | 'L' | 'R' | 'u' | 'l' | 'r'))
}

/// The notation `text` is written in, read as `mover`'s letters if it has letters.
pub fn written_in(text: &str, mover: Mover) -> Written {
    match (in_letters(text), mover) {
        (false, _) => Written::Tiles,
        (true, Mover::Blank) => Written::Blank,
        (true, Mover::Tiles) if text.trim().chars().any(|c| c.is_ascii_digit()) => Written::Mtm,
        (true, Mover::Tiles) => Written::Letters,
    }
}

/// The moves of `text` from `start`: the blank's unit steps on Knuth's board, or the first
/// move (counted from 1) that cannot be read or made.
pub fn read<P: Playable>(
    start: &P,
    text: &str,
    convention: Convention,
    mover: Mover,
) -> Result<Vec<Direction>, MovesError> {
    let text = text.trim();
    match in_letters(text) {
        true => read_letters(start, text, convention, mover),
        false => read_tiles(start, text, convention),
    }
}

/// Tiles pushed, one after the other.
fn read_tiles<P: Playable>(
    start: &P,
    text: &str,
    convention: Convention,
) -> Result<Vec<Direction>, MovesError> {
    let cells = start.cells();
    let words: Vec<&str> = text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .collect();
    // Decimal tiles: with commas, on boards above 16 cells, or when there are several words,
    // each a tile's number, and one has two digits (`12 13`). Else hex digits, run together or
    // spaced (`45ac8 8ca54`): one word is hex digits (`11` is tile 1 twice, as fifteen writes
    // it; a single tile 11 is `11,` or `b`).
    let numbers = words.iter().all(|w| {
        w.parse::<usize>()
            .is_ok_and(|t| (1..cells).contains(&t) && !w.starts_with('0'))
    });
    let decimal = text.contains(',')
        || !start.uses_hex()
        || (numbers && words.len() > 1 && words.iter().any(|w| w.len() > 1));
    let tokens: Vec<String> = match decimal {
        true => words.iter().map(|w| w.to_string()).collect(),
        false => words.concat().chars().map(String::from).collect(),
    };
    let radix = if decimal { 10 } else { 16 };
    let mut position = start.clone();
    let mut steps = Vec::with_capacity(tokens.len());
    for (i, token) in tokens.iter().enumerate() {
        let index = i + 1;
        let shown = u8::from_str_radix(token, radix)
            .ok()
            .filter(|&t| t >= 1 && usize::from(t) < cells)
            .ok_or_else(|| MovesError::Unreadable {
                index,
                text: token.clone(),
            })?;
        let tile = match convention {
            Convention::Knuth => shown,
            Convention::Korf => (cells - usize::from(shown)) as u8,
        };
        let illegal = || MovesError::Illegal {
            index,
            text: format!("tile {token}"),
        };
        let d = position.direction_of(tile).ok_or_else(illegal)?;
        position.move_blank(d).ok_or_else(illegal)?;
        steps.push(d);
    }
    Ok(steps)
}

/// Letters with optional counts.
fn read_letters<P: Playable>(
    start: &P,
    text: &str,
    convention: Convention,
    mover: Mover,
) -> Result<Vec<Direction>, MovesError> {
    let mut position = start.clone();
    let mut steps = Vec::new();
    let mut chars = text.chars().filter(|c| !c.is_whitespace()).peekable();
    let mut index = 0;
    while let Some(c) = chars.next() {
        index += 1;
        let mut count = String::new();
        while let Some(digit) = chars.next_if(char::is_ascii_digit) {
            count.push(digit);
        }
        let text = format!("{c}{count}");
        let unreadable = || MovesError::Unreadable {
            index,
            text: text.clone(),
        };
        let blank = named(c, mover, convention).ok_or_else(unreadable)?;
        let distance = match count.as_str() {
            "" => 1,
            digits => digits
                .parse::<usize>()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(unreadable)?,
        };
        for _ in 0..distance {
            if position.move_blank(blank).is_none() {
                let text = text.clone();
                return Err(match mover {
                    Mover::Tiles => MovesError::IllegalLetter { index, text },
                    Mover::Blank => MovesError::IllegalBlank { index, text },
                });
            }
            steps.push(blank);
        }
    }
    Ok(steps)
}

/// The position `steps` of the blank lead to from `start` (steps off the board are skipped:
/// [`read`] gives none).
pub fn play<P: Playable>(start: &P, steps: &[Direction]) -> P {
    let mut position = start.clone();
    for &d in steps {
        position.move_blank(d);
    }
    position
}

/// The tiles `steps` push from `start` (Knuth's numbering), as far as they stay on the board.
pub fn tiles_of<P: Playable>(start: &P, steps: &[Direction]) -> Vec<u8> {
    let mut position = start.clone();
    steps
        .iter()
        .map_while(|&d| position.move_blank(d))
        .collect()
}

/// The steps of the blank that push `tiles` from `start`, as far as each is next to it.
pub fn steps_of<P: Playable>(start: &P, tiles: &[u8]) -> Vec<Direction> {
    let mut position = start.clone();
    tiles
        .iter()
        .map_while(|&tile| {
            let d = position.direction_of(tile)?;
            position.move_blank(d).map(|_| d)
        })
        .collect()
}

/// The number of moves of `steps` in the multi-tile metric: runs of one direction.
pub fn mtm_length(steps: &[Direction]) -> usize {
    runs(steps).len()
}

/// The runs of one direction in `steps`, with their lengths.
fn runs(steps: &[Direction]) -> Vec<(Direction, usize)> {
    let mut runs: Vec<(Direction, usize)> = Vec::new();
    for &d in steps {
        match runs.last_mut() {
            Some((last, count)) if *last == d => *count += 1,
            _ => runs.push((d, 1)),
        }
    }
    runs
}

/// Letters for `steps`, each run of one direction as one letter with its count above one
/// (`D3 R L2`), separated by spaces: the multi-tile metric's notation.
pub fn runs_text(steps: &[Direction], mover: Mover, convention: Convention) -> String {
    let words: Vec<String> = runs(steps)
        .into_iter()
        .map(|(d, count)| {
            let letter = letter(d, mover, convention);
            match count {
                1 => letter.to_string(),
                _ => format!("{letter}{count}"),
            }
        })
        .collect();
    words.join(" ")
}

/// `steps` from `start` written in `written`.
pub fn write<P: Playable>(
    start: &P,
    steps: &[Direction],
    written: Written,
    convention: Convention,
) -> String {
    let letters = |mover| {
        steps
            .iter()
            .map(|&d| letter(d, mover, convention))
            .collect()
    };
    match written {
        Written::Tiles => start.moves_notation(&tiles_of(start, steps), convention),
        Written::Blank => letters(Mover::Blank),
        Written::Letters => letters(Mover::Tiles),
        Written::Mtm => runs_text(steps, Mover::Tiles, convention),
    }
}

/// The moves that undo `steps`: backwards, each the other way. From where `steps` lead, they
/// lead back.
pub fn invert(steps: &[Direction]) -> Vec<Direction> {
    steps.iter().rev().map(|d| d.reverse()).collect()
}

/// `steps` without a step undone by the next (`L R`), repeatedly, so that what is left has no
/// such pair: the same effect, never longer, in either metric.
pub fn simplify(steps: &[Direction]) -> Vec<Direction> {
    let mut kept: Vec<Direction> = Vec::with_capacity(steps.len());
    for &d in steps {
        match kept.last() {
            Some(&last) if last == d.reverse() => {
                kept.pop();
            }
            _ => kept.push(d),
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    fn parse(text: &str) -> Position {
        Position::parse(text, None, Convention::Knuth).expect("a position")
    }

    #[test]
    fn every_notation_of_one_solution_reads_the_same() {
        // 867254301 in 31 moves (fifteen solve --heuristic manhattan, each --moves).
        let start = parse("867254301");
        let tiles = read(
            &start,
            "3256741365874136287413528741256",
            Convention::Knuth,
            Mover::Tiles,
        );
        let blank = read(
            &start,
            "LURURDDLULURRDDLLUURRDLDLUURDRD",
            Convention::Knuth,
            Mover::Blank,
        );
        assert_eq!(tiles, blank);
        let steps = tiles.expect("legal");
        assert_eq!(steps.len(), 31);
        assert!(play(&start, &steps).is_goal());
        // The same moves as the tiles' directions, runs merged (MTM's notation).
        let letters = "R D L D L U U R D R D L L U U R R D D L L U R U R D D L U L U";
        let players = read(&start, letters, Convention::Knuth, Mover::Tiles).expect("legal");
        assert_eq!(players, steps);
        assert_eq!(mtm_length(&steps), 24);
        let mtm = read(
            &start,
            "D R U L2 D2 R2 U L D R U2 L2 D R2 U L2 D2 R2 U2 L2",
            Convention::Knuth,
            Mover::Tiles,
        )
        .expect("legal");
        assert!(play(&start, &mtm).is_goal());
        assert_eq!((mtm.len(), mtm_length(&mtm)), (31, 20));
    }

    #[test]
    fn bad_and_illegal_moves_are_named_by_their_index() {
        let start = parse("123456780");
        assert_eq!(
            read(&start, "8x", Convention::Knuth, Mover::Tiles),
            Err(MovesError::Unreadable {
                index: 2,
                text: "x".into()
            })
        );
        assert_eq!(
            read(&start, "81", Convention::Knuth, Mover::Tiles),
            Err(MovesError::Illegal {
                index: 2,
                text: "tile 1".into()
            })
        );
        // The blank in the corner cannot go right; the tiles cannot go left twice after one right.
        assert_eq!(
            read(&start, "U R", Convention::Knuth, Mover::Blank),
            Err(MovesError::IllegalBlank {
                index: 2,
                text: "R".into()
            })
        );
        assert_eq!(
            read(&start, "R L2", Convention::Knuth, Mover::Tiles),
            Err(MovesError::IllegalLetter {
                index: 2,
                text: "L2".into()
            })
        );
        assert_eq!(
            read(&start, "D0", Convention::Knuth, Mover::Tiles),
            Err(MovesError::Unreadable {
                index: 1,
                text: "D0".into()
            })
        );
        // Decimal tiles on 5x5.
        let five = Board::new(5, 5).expect("5x5");
        let goal = Position::goal(five);
        assert_eq!(
            read(&goal, "24,19", Convention::Knuth, Mover::Tiles).map(|s| s.len()),
            Ok(2)
        );
        assert_eq!(
            read(&goal, "24,25", Convention::Knuth, Mover::Tiles),
            Err(MovesError::Unreadable {
                index: 2,
                text: "25".into()
            })
        );
    }

    #[test]
    fn one_word_of_digits_is_hex_tiles_on_small_boards() {
        // 4x3, Korf's convention: fifteen writes tile 1 pushed twice as `11`.
        let board = Board::new(4, 3).ok();
        let start = Position::parse("916425b380a7", board, Convention::Knuth).expect("valid");
        let steps = [Direction::North, Direction::South];
        let written = write(&start, &steps, Written::Tiles, Convention::Korf);
        assert_eq!(written, "11");
        assert_eq!(
            read(&start, &written, Convention::Korf, Mover::Tiles),
            Ok(steps.to_vec())
        );
        // Several words of tiles' numbers are decimal; a comma makes one word decimal.
        let goal = parse("123456780");
        assert_eq!(
            read(&goal, "8 5", Convention::Knuth, Mover::Tiles).map(|s| s.len()),
            Ok(2)
        );
        let fifteen = Position::parse("123456789abcdef0", None, Convention::Knuth).expect("valid");
        assert_eq!(
            read(&fifteen, "12,", Convention::Knuth, Mover::Tiles),
            read(&fifteen, "c", Convention::Knuth, Mover::Tiles)
        );
    }

    #[test]
    fn korfs_convention_reads_his_numbers_and_letters() {
        // Korf's tile x is Knuth's 16 - x; his board is turned, so his U is Knuth's D.
        let start = Position::parse("123456789abcde0f", None, Convention::Knuth).expect("valid");
        let knuth = read(&start, "f", Convention::Knuth, Mover::Tiles).expect("legal");
        assert_eq!(
            read(&start, "1", Convention::Korf, Mover::Tiles),
            Ok(knuth.clone())
        );
        let letter = read(&start, "L", Convention::Knuth, Mover::Tiles).expect("legal");
        assert_eq!(letter, knuth);
        assert_eq!(read(&start, "R", Convention::Korf, Mover::Tiles), Ok(knuth));
    }
}
