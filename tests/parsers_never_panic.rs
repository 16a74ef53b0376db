//! The two parsers of user input never panic, whatever they are given: `Position::parse` on
//! arbitrary text with any size and convention (and `Tray::parse`, the move verbs' on boards
//! up to 256 cells), and `Puzzle::parse_with` on arbitrary bytes
//! and on mutated copies of the bundled puzzles (the stable, CI-side counterpart of the
//! cargo-fuzz targets in `fuzz/`). Errors are one line; what parses satisfies the parser's
//! promises, and a parsed puzzle can be packed.
#![forbid(unsafe_code)]

use fifteen::sliding::{Geometry, Puzzle};
use fifteen::tray::{Shape, Tray};
use fifteen::{Board, Convention, Position};
use proptest::prelude::*;

fn any_size() -> impl Strategy<Value = Option<Board>> {
    // Sides 0..=7: supported and unsupported ones alike (the latter give no board).
    prop::option::of((0usize..8, 0usize..8))
        .prop_map(|size| size.and_then(|(r, c)| Board::new(r, c).ok()))
}

fn any_convention() -> impl Strategy<Value = Convention> {
    prop_oneof![Just(Convention::Knuth), Just(Convention::Korf)]
}

/// Text near the notations: hex digits, decimal lists (with tiles out of range, repeated,
/// missing), separators, signs and any character.
fn position_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[0-9a-fA-FxX, \t\n+-]{0,40}",
        prop::collection::vec(0usize..40, 0..30).prop_map(|tiles| {
            tiles
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(",")
        }),
        // Permutations of 0..n, whole or less one tile, in hex or decimal.
        (2usize..=26, any::<bool>(), any::<bool>()).prop_flat_map(|(n, hex, short)| {
            Just((0..n).collect::<Vec<usize>>())
                .prop_shuffle()
                .prop_map(move |mut tiles| {
                    if short {
                        tiles.pop();
                    }
                    if hex && n <= 16 {
                        tiles.iter().map(|t| format!("{t:x}")).collect::<String>()
                    } else {
                        tiles
                            .iter()
                            .map(usize::to_string)
                            .collect::<Vec<_>>()
                            .join(" ")
                    }
                })
        }),
    ]
}

/// The bundled puzzles of `tests/data/sliding`, read once.
fn bundled() -> &'static [Vec<u8>] {
    static FILES: std::sync::OnceLock<Vec<Vec<u8>>> = std::sync::OnceLock::new();
    FILES.get_or_init(read_bundled)
}

fn read_bundled() -> Vec<Vec<u8>> {
    let mut files: Vec<_> = std::fs::read_dir("tests/data/sliding")
        .expect("tests/data/sliding")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert!(files.len() >= 9, "{files:?}");
    files
        .iter()
        .map(|path| std::fs::read(path).expect("a puzzle"))
        .collect()
}

/// One edit of a byte string.
#[derive(Clone, Debug)]
enum Edit {
    Replace(usize, u8),
    Insert(usize, u8),
    Delete(usize),
    Truncate(usize),
    /// Copies a stretch somewhere else (repeats lines, definitions, configurations).
    Splice {
        from: usize,
        len: usize,
        to: usize,
    },
}

/// Bytes the format gives meaning to, and a few it does not.
fn interesting_byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        prop::sample::select(b"0123456789abcdefx=/ \t\r\n-gX".to_vec()),
        any::<u8>(),
    ]
}

fn any_edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), interesting_byte()).prop_map(|(at, b)| Edit::Replace(at, b)),
        (any::<usize>(), interesting_byte()).prop_map(|(at, b)| Edit::Insert(at, b)),
        any::<usize>().prop_map(Edit::Delete),
        any::<usize>().prop_map(Edit::Truncate),
        (any::<usize>(), 0usize..40, any::<usize>()).prop_map(|(from, len, to)| Edit::Splice {
            from,
            len,
            to
        }),
    ]
}

fn apply(text: &mut Vec<u8>, edit: &Edit) {
    let at = |i: usize, len: usize| if len == 0 { 0 } else { i % len };
    match *edit {
        Edit::Replace(i, b) if !text.is_empty() => {
            let i = at(i, text.len());
            text[i] = b;
        }
        Edit::Replace(..) => {}
        Edit::Insert(i, b) => {
            let i = at(i, text.len() + 1);
            text.insert(i, b);
        }
        Edit::Delete(i) if !text.is_empty() => {
            let i = at(i, text.len());
            text.remove(i);
        }
        Edit::Delete(_) => {}
        Edit::Truncate(i) => {
            let i = at(i, text.len() + 1);
            text.truncate(i);
        }
        Edit::Splice { from, len, to } => {
            let from = at(from, text.len() + 1);
            let end = (from + len).min(text.len());
            let piece = text[from..end].to_vec();
            let to = at(to, text.len() + 1);
            text.splice(to..to, piece);
        }
    }
}

/// Parses and, when the puzzle is accepted, checks the parser's promises and packs both
/// configurations (the first thing every caller does).
fn check_puzzle(text: &[u8], stop_optional: bool) -> Result<(), TestCaseError> {
    match Puzzle::parse_with(text, stop_optional) {
        Err(error) => {
            let message = error.to_string();
            prop_assert!(!message.contains('\n'), "{message:?}");
            prop_assert!(error.line >= 1);
        }
        Ok(puzzle) => {
            let cells = puzzle.cells();
            prop_assert!((1..=fifteen::sliding::spec::MAX_CELLS).contains(&cells));
            prop_assert_eq!(puzzle.start.dead.len(), cells);
            prop_assert!(!puzzle.start.blocks.is_empty());
            prop_assert!(stop_optional || !puzzle.stops.is_empty());
            let geometry = Geometry::new(&puzzle);
            let start = geometry.key_of(&puzzle.start);
            for stop in &puzzle.stops {
                prop_assert_eq!(stop.any.len(), cells);
                if stop.is_partial() {
                    prop_assert!(stop.blocks.len() <= puzzle.start.blocks.len());
                } else {
                    prop_assert_eq!(&stop.dead, &puzzle.start.dead);
                    prop_assert_eq!(stop.blocks.len(), puzzle.start.blocks.len());
                    let stop = geometry.key_of(stop);
                    prop_assert_eq!(stop.len(), start.len());
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn position_parse_never_panics(
        text in position_text(),
        size in any_size(),
        convention in any_convention(),
    ) {
        match Position::parse(&text, size, convention) {
            Err(error) => {
                let message = error.to_string();
                prop_assert!(!message.contains('\n'), "{:?}", message);
            }
            Ok(position) => {
                // Every cell got one tile, and the position reads back from its notation.
                let board = position.board();
                prop_assert!(size.is_none_or(|b| b == board));
                let trimmed = text.trim();
                let separator = |c: char| c == ',' || c.is_whitespace();
                let count = if trimmed.contains(separator) {
                    trimmed.split(separator).filter(|t| !t.is_empty()).count()
                } else {
                    trimmed.chars().count()
                };
                prop_assert_eq!(count, board.cells());
                let again = Position::parse(&position.notation(convention), Some(board), convention);
                prop_assert_eq!(again, Ok(position));
            }
        }
    }

    #[test]
    fn tray_parse_never_panics(
        text in position_text(),
        size in prop::option::of((0usize..20, 0usize..20)),
        convention in any_convention(),
    ) {
        // The move verbs' positions: any board up to 256 cells.
        let size = size.and_then(|(r, c)| Shape::new(r, c).ok());
        match Tray::parse(&text, size, convention) {
            Err(error) => {
                let message = error.to_string();
                prop_assert!(!message.contains('\n'), "{:?}", message);
            }
            Ok(tray) => {
                prop_assert!(size.is_none_or(|s| s == tray.shape()));
                prop_assert_eq!(tray.tiles().len(), tray.shape().cells());
                let again = Tray::parse(&tray.notation(convention), Some(tray.shape()), convention);
                prop_assert_eq!(again, Ok(tray));
            }
        }
    }

    #[test]
    fn puzzle_parse_never_panics_on_arbitrary_bytes(
        text in prop::collection::vec(interesting_byte(), 0..200),
        stop_optional in any::<bool>(),
    ) {
        check_puzzle(&text, stop_optional)?;
    }

    #[test]
    fn puzzle_parse_never_panics_on_mutated_puzzles(
        file in any::<prop::sample::Index>(),
        edits in prop::collection::vec(any_edit(), 1..6),
        stop_optional in any::<bool>(),
    ) {
        let files = bundled();
        let mut text = files[file.index(files.len())].clone();
        for edit in &edits {
            apply(&mut text, edit);
        }
        check_puzzle(&text, stop_optional)?;
    }
}

/// The bundled puzzles themselves parse (so the mutations start from valid input), with and
/// without their stop line.
#[test]
fn bundled_puzzles_parse() {
    for text in bundled() {
        let puzzle = Puzzle::parse(text).expect("a bundled puzzle");
        assert_eq!(puzzle.stops.len(), 1);
        let mut lines: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
        while lines.last().is_some_and(|l| l.is_empty()) {
            lines.pop();
        }
        lines.pop();
        let no_stop = lines.join(&b'\n');
        assert!(Puzzle::parse(&no_stop).is_err());
        let all = Puzzle::parse_with(&no_stop, true).expect("no stop line, explore all");
        assert!(all.stops.is_empty());
        assert_eq!(all.start, puzzle.start);
    }
}
