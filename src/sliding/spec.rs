//! Reading a puzzle in SLIDING's input format (section 2 of the seed).
//!
//! Line 1 is `ROWS x COLS` followed by any commentary; then come piece definitions
//! `p = PATTERN` (p one of the hex names `1`..`f`, the pattern rows of `0`s and `1`s separated by
//! `/`), then the starting and the stopping configuration in the shorthand that names, again and
//! again, what occupies the topmost-leftmost cell not yet specified: a piece name, `0` for an
//! empty cell, `x` for a permanently blocked one; trailing zeros may be omitted. Blank lines
//! between the definitions are skipped, as in the original.
//!
//! Beyond the original (its "several ways to stop"): one or more stopping configurations, the
//! search ending at the first configuration that matches any of them; and in a stopping
//! configuration `?` for one cell whose content does not matter (empty, or covered by any
//! block), and a final `*` for every cell not yet specified. A *partial* stop (one with `?`
//! or `*`) is matched by every configuration that has its named blocks anchored where named
//! and its `0` cells empty.
//!
//! Invariant of a [`Puzzle`] that leaves this module: every block lies inside the board on live
//! cells, no cell is filled twice, every stop has the start's dead cells (where it cares), a
//! full stop has the start's number of blocks of every kind and a partial stop at most that
//! many and at most the start's number of empty cells, and there is at least one block.
//! Everything else is an [`SpecError`] naming the line and the problem; nothing here panics on
//! input.
//!
//! The six move styles of section 3 ([`Style`]), which the command line names beside the
//! puzzle, are defined here too, for every file after this one.

/// Boards have at most this many cells (as in the original's `maxsize`).
pub const MAX_CELLS: usize = 256;

/// The shape of a kind of piece: the cells it covers as (row, column) offsets from its
/// topmost-leftmost cell, which comes first as (0, 0). Later cells follow in row-major order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    pub offsets: Vec<(i32, i32)>,
}

/// One block of a configuration: its kind (1..=15) and the board cell (row-major index) of its
/// topmost-leftmost cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PlacedBlock {
    pub kind: u8,
    pub anchor: usize,
}

/// A configuration as written in the input: the dead cells and the blocks in the order their
/// anchors are met row by row; in a stopping configuration also the cells that do not matter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub dead: Vec<bool>,
    pub blocks: Vec<PlacedBlock>,
    /// Cells whose content does not matter (`?`, and those after a final `*`): any `true`
    /// makes the layout a partial stop.
    pub any: Vec<bool>,
}

impl Layout {
    /// Whether some cell does not matter (the layout is a partial stop).
    pub fn is_partial(&self) -> bool {
        self.any.contains(&true)
    }

    /// The cells that must be empty: live, not covered, and not `any`.
    pub fn empty_cells(&self, shapes: &[Option<Shape>; 16], cols: usize) -> Vec<usize> {
        let mut covered: Vec<bool> = self.dead.clone();
        for block in &self.blocks {
            let offsets = shapes[usize::from(block.kind)]
                .as_ref()
                .map_or(&[][..], |s| &s.offsets);
            for &(dr, dc) in offsets {
                let r = (block.anchor / cols) as i64 + i64::from(dr);
                let c = (block.anchor % cols) as i64 + i64::from(dc);
                if let Some(slot) = covered.get_mut((r * cols as i64 + c) as usize) {
                    *slot = true;
                }
            }
        }
        (0..self.dead.len())
            .filter(|&cell| !covered[cell] && !self.any[cell])
            .collect()
    }
}

/// A whole puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub rows: usize,
    pub cols: usize,
    /// The rest of the first line (the puzzle's name, usually).
    pub title: String,
    /// `shapes[k]` is the shape of kind `k` (index 0 unused).
    pub shapes: [Option<Shape>; 16],
    pub start: Layout,
    /// The stopping configurations, in the order given: empty only when the caller allowed a
    /// missing stop line (explore every reachable configuration).
    pub stops: Vec<Layout>,
}

/// A fault in the puzzle text, with the (1-based) line it was found on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct SpecError {
    pub line: usize,
    pub problem: Problem,
}

/// What is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    #[error("the input is empty; the first line should give the board size as `ROWS x COLS`")]
    Empty,
    #[error("the line contains a byte that is not ASCII")]
    NotAscii,
    #[error("bad board size {0:?}; the first line should start with `ROWS x COLS` (e.g. `5 x 4 (Klotski)`) with positive ROWS and COLS")]
    BadSize(String),
    #[error("a {rows} x {cols} board has {cells} cells; at most {MAX_CELLS} are allowed")]
    BoardTooLarge {
        rows: usize,
        cols: usize,
        cells: usize,
    },
    #[error("bad piece name {0:?}; pieces are named by one hex digit 1-9 or a-f")]
    BadPieceName(String),
    #[error("bad character {found:?} in the pattern of piece {piece}; patterns use 0, 1 and /")]
    BadPatternChar { piece: char, found: char },
    #[error("piece {0} is empty; its pattern needs at least one 1")]
    EmptyPiece(char),
    #[error("piece {piece} is defined twice (first on line {first})")]
    Redefined { piece: char, first: usize },
    #[error("no piece is defined; definitions look like `1 = 11/11`")]
    NoPieces,
    #[error("missing the {0} configuration")]
    Missing(&'static str),
    #[error("bad character {found:?} in the {which} configuration; use piece names 1-9 a-f, 0 (empty) and x (blocked){}", if *which == "stopping" { ", ? (any content) and a final *" } else { "" })]
    BadConfigChar { which: &'static str, found: char },
    #[error(
        "{found:?} may only appear in a stopping configuration: the start must name every cell"
    )]
    WildcardInStart { found: char },
    #[error("a * must end the stopping configuration (it stands for every cell left)")]
    StarNotLast,
    #[error("the {which} configuration uses piece {piece}, which is not defined")]
    UndefinedPiece { which: &'static str, piece: char },
    #[error("the {which} configuration names more cells than the {cells}-cell board has")]
    Overfull { which: &'static str, cells: usize },
    #[error("in the {which} configuration, piece {piece} placed at row {row}, column {col} sticks out of the board")]
    OffBoard {
        which: &'static str,
        piece: char,
        row: usize,
        col: usize,
    },
    #[error("in the {which} configuration, piece {piece} placed at row {row}, column {col} fills row {cell_row}, column {cell_col} a second time")]
    FilledTwice {
        which: &'static str,
        piece: char,
        row: usize,
        col: usize,
        cell_row: usize,
        cell_col: usize,
    },
    #[error("the puzzle has no pieces")]
    NoBlocks,
    #[error("the dead cells (x) differ between the starting and stopping configurations (row {row}, column {col})")]
    DeadCellsDiffer { row: usize, col: usize },
    #[error("the stopping configuration has {stop} piece(s) {piece}, the starting configuration {start}")]
    PieceCounts {
        piece: char,
        start: usize,
        stop: usize,
    },
    #[error("no configuration can match this stop: it names {stop} piece(s) {piece}, but the start has {start}")]
    TooManyPieces {
        piece: char,
        start: usize,
        stop: usize,
    },
    #[error("no configuration can match this stop: it wants {stop} empty cells, but the start has {start}")]
    TooManyEmpty { start: usize, stop: usize },
}

/// A move style, 0 to 5 (section 3 of the seed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Style(pub u8);

impl Style {
    pub const ALL: [Style; 6] = [Style(0), Style(1), Style(2), Style(3), Style(4), Style(5)];

    /// A style from its number; `None` outside 0..=5.
    pub fn new(number: u8) -> Option<Style> {
        (number <= 5).then_some(Style(number))
    }

    /// Whether several blocks may move together.
    pub fn superpieces(self) -> bool {
        self.0 >= 3
    }
}

/// The hex name of kind `k` (1..=15).
pub fn kind_name(kind: u8) -> char {
    char::from_digit(u32::from(kind), 16).unwrap_or('?')
}

fn kind_of(c: u8) -> Option<u8> {
    match c {
        b'1'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None,
    }
}

impl Puzzle {
    /// Parses a puzzle; the stopping configuration is required.
    pub fn parse(text: &[u8]) -> Result<Puzzle, SpecError> {
        Puzzle::parse_with(text, false)
    }

    /// Parses a puzzle; with `stop_optional`, a missing stopping configuration is allowed.
    pub fn parse_with(text: &[u8], stop_optional: bool) -> Result<Puzzle, SpecError> {
        // A UTF-8 byte-order mark at the start is no part of the puzzle.
        let text = text.strip_prefix(b"\xef\xbb\xbf").unwrap_or(text);
        let lines = split_lines(text)?;
        let mut cursor = lines.iter().peekable();
        let (first_no, first) = cursor.next().copied().ok_or(SpecError {
            line: 1,
            problem: Problem::Empty,
        })?;
        let (rows, cols, title) = parse_size(first).map_err(|problem| SpecError {
            line: first_no,
            problem,
        })?;
        let mut shapes: [Option<Shape>; 16] = Default::default();
        let mut defined_on = [0usize; 16];
        // Definitions (and blank lines) until the first other line.
        while let Some(&&(no, line)) = cursor.peek() {
            let trimmed = line.trim_ascii();
            if trimmed.is_empty() {
                cursor.next();
                continue;
            }
            let Some(eq) = line.iter().position(|&c| c == b'=') else {
                break;
            };
            cursor.next();
            let err = |problem| SpecError { line: no, problem };
            let name = line[..eq].trim_ascii();
            let pattern = line[eq + 1..].trim_ascii();
            let kind = match name {
                [c] => kind_of(*c),
                _ => None,
            }
            .ok_or_else(|| err(Problem::BadPieceName(String::from_utf8_lossy(name).into())))?;
            let piece = kind_name(kind);
            if defined_on[usize::from(kind)] != 0 {
                return Err(err(Problem::Redefined {
                    piece,
                    first: defined_on[usize::from(kind)],
                }));
            }
            let shape = parse_pattern(piece, pattern).map_err(err)?;
            shapes[usize::from(kind)] = Some(shape);
            defined_on[usize::from(kind)] = no;
        }
        if shapes.iter().all(Option::is_none) {
            let line = cursor.peek().map_or(first_no + 1, |&&(no, _)| no);
            return Err(SpecError {
                line,
                problem: Problem::NoPieces,
            });
        }
        let last_line = lines.last().map_or(1, |&(no, _)| no);
        let (start_no, start_text) = cursor.next().copied().ok_or(SpecError {
            line: last_line + 1,
            problem: Problem::Missing("starting"),
        })?;
        let start =
            parse_layout(start_text, "starting", rows, cols, &shapes).map_err(|p| SpecError {
                line: start_no,
                problem: p,
            })?;
        if start.blocks.is_empty() {
            return Err(SpecError {
                line: start_no,
                problem: Problem::NoBlocks,
            });
        }
        // Every later line that is not blank is a stopping configuration.
        let mut stops = Vec::new();
        for &(no, line) in cursor {
            if line.trim_ascii().is_empty() {
                continue;
            }
            let err = |problem| SpecError { line: no, problem };
            let stop = parse_layout(line, "stopping", rows, cols, &shapes).map_err(err)?;
            check_compatible(&start, &stop, &shapes, cols).map_err(err)?;
            stops.push(stop);
        }
        if stops.is_empty() && !stop_optional {
            return Err(SpecError {
                line: last_line + 1,
                problem: Problem::Missing("stopping"),
            });
        }
        Ok(Puzzle {
            rows,
            cols,
            title,
            shapes,
            start,
            stops,
        })
    }

    /// The shape of `kind`; only kinds used by a parsed configuration are asked for.
    pub fn shape(&self, kind: u8) -> &[(i32, i32)] {
        self.shapes
            .get(usize::from(kind))
            .and_then(Option::as_ref)
            .map_or(&[], |s| s.offsets.as_slice())
    }

    pub fn cells(&self) -> usize {
        self.rows * self.cols
    }
}

/// Splits the text into numbered lines, rejecting non-ASCII bytes. Lines end with LF or CRLF,
/// the last one also with the end of the text; trailing blanks, tabs and CRs are ignored.
fn split_lines(text: &[u8]) -> Result<Vec<(usize, &[u8])>, SpecError> {
    if text.is_empty() {
        return Err(SpecError {
            line: 1,
            problem: Problem::Empty,
        });
    }
    let mut lines = Vec::new();
    let mut rest = text;
    let mut no = 0;
    while !rest.is_empty() {
        no += 1;
        let (mut line, next) = match rest.iter().position(|&c| c == b'\n') {
            Some(end) => (&rest[..end], &rest[end + 1..]),
            None => (rest, &rest[rest.len()..]),
        };
        rest = next;
        if !line.is_ascii() {
            return Err(SpecError {
                line: no,
                problem: Problem::NotAscii,
            });
        }
        while let [head @ .., b' ' | b'\t' | b'\r'] = line {
            line = head;
        }
        lines.push((no, line));
    }
    Ok(lines)
}

/// `ROWS x COLS commentary`, spaces allowed around the `x` as in the original's `sscanf`.
fn parse_size(line: &[u8]) -> Result<(usize, usize, String), Problem> {
    let text = String::from_utf8_lossy(line).into_owned();
    let bad = || Problem::BadSize(text.clone());
    let number = |s: &str| -> Option<(usize, usize)> {
        let s_trim = s.trim_start();
        let skipped = s.len() - s_trim.len();
        let digits = s_trim.bytes().take_while(u8::is_ascii_digit).count();
        let value = s_trim[..digits].parse::<usize>().ok()?;
        Some((value, skipped + digits))
    };
    let (rows, used) = number(&text).ok_or_else(bad)?;
    let rest = text[used..].trim_start();
    let rest = rest.strip_prefix('x').ok_or_else(bad)?;
    let (cols, used) = number(rest).ok_or_else(bad)?;
    if rows == 0 || cols == 0 {
        return Err(bad());
    }
    let cells = rows.saturating_mul(cols);
    if cells > MAX_CELLS {
        return Err(Problem::BoardTooLarge { rows, cols, cells });
    }
    Ok((rows, cols, rest[used..].trim().to_string()))
}

fn parse_pattern(piece: char, pattern: &[u8]) -> Result<Shape, Problem> {
    let mut filled = Vec::new();
    let (mut r, mut c) = (0i32, 0i32);
    for &ch in pattern {
        match ch {
            b'1' => {
                filled.push((r, c));
                c += 1;
            }
            b'0' => c += 1,
            b'/' => {
                r += 1;
                c = 0;
            }
            other => {
                return Err(Problem::BadPatternChar {
                    piece,
                    found: char::from(other),
                })
            }
        }
    }
    let Some(&(r0, c0)) = filled.first() else {
        return Err(Problem::EmptyPiece(piece));
    };
    Ok(Shape {
        offsets: filled.iter().map(|&(r, c)| (r - r0, c - c0)).collect(),
    })
}

fn parse_layout(
    line: &[u8],
    which: &'static str,
    rows: usize,
    cols: usize,
    shapes: &[Option<Shape>; 16],
) -> Result<Layout, Problem> {
    #[derive(Clone, Copy, PartialEq)]
    enum Cell {
        Open,
        Dead,
        Filled,
        Any,
    }
    let cells = rows * cols;
    let mut grid = vec![Cell::Open; cells];
    let mut blocks = Vec::new();
    let mut next = 0usize;
    let stopping = which == "stopping";
    for (i, &ch) in line.iter().enumerate() {
        if matches!(ch, b'?' | b'*') && !stopping {
            return Err(Problem::WildcardInStart {
                found: char::from(ch),
            });
        }
        if ch == b'*' {
            if i + 1 != line.len() {
                return Err(Problem::StarNotLast);
            }
            for cell in grid.iter_mut().filter(|c| **c == Cell::Open) {
                *cell = Cell::Any;
            }
            break;
        }
        while next < cells && grid[next] != Cell::Open {
            next += 1;
        }
        if next >= cells {
            return Err(Problem::Overfull { which, cells });
        }
        match ch {
            b'0' => grid[next] = Cell::Filled,
            b'x' => grid[next] = Cell::Dead,
            b'?' => grid[next] = Cell::Any,
            _ => {
                let kind = kind_of(ch).ok_or(Problem::BadConfigChar {
                    which,
                    found: char::from(ch),
                })?;
                let piece = kind_name(kind);
                let shape = shapes[usize::from(kind)]
                    .as_ref()
                    .ok_or(Problem::UndefinedPiece { which, piece })?;
                let (row, col) = (next / cols, next % cols);
                for &(dr, dc) in &shape.offsets {
                    let (r, c) = (row as i64 + i64::from(dr), col as i64 + i64::from(dc));
                    if r < 0 || c < 0 || r >= rows as i64 || c >= cols as i64 {
                        return Err(Problem::OffBoard {
                            which,
                            piece,
                            row: row + 1,
                            col: col + 1,
                        });
                    }
                    let cell = r as usize * cols + c as usize;
                    if grid[cell] != Cell::Open {
                        return Err(Problem::FilledTwice {
                            which,
                            piece,
                            row: row + 1,
                            col: col + 1,
                            cell_row: r as usize + 1,
                            cell_col: c as usize + 1,
                        });
                    }
                    grid[cell] = Cell::Filled;
                }
                blocks.push(PlacedBlock { kind, anchor: next });
            }
        }
    }
    Ok(Layout {
        dead: grid.iter().map(|&c| c == Cell::Dead).collect(),
        blocks,
        any: grid.iter().map(|&c| c == Cell::Any).collect(),
    })
}

/// A stop must agree with the start on the dead cells it cares about; a full stop has the
/// start's blocks of every kind, a partial one at most as many, and at most its empty cells.
fn check_compatible(
    start: &Layout,
    stop: &Layout,
    shapes: &[Option<Shape>; 16],
    cols: usize,
) -> Result<(), Problem> {
    if let Some(cell) =
        (0..start.dead.len()).find(|&i| !stop.any[i] && start.dead[i] != stop.dead[i])
    {
        return Err(Problem::DeadCellsDiffer {
            row: cell / cols + 1,
            col: cell % cols + 1,
        });
    }
    let partial = stop.is_partial();
    for kind in 1..16u8 {
        let count = |l: &Layout| l.blocks.iter().filter(|b| b.kind == kind).count();
        let (start, stop) = (count(start), count(stop));
        let piece = kind_name(kind);
        if partial && stop > start {
            return Err(Problem::TooManyPieces { piece, start, stop });
        }
        if !partial && start != stop {
            return Err(Problem::PieceCounts { piece, start, stop });
        }
    }
    if partial {
        let (start, stop) = (
            start.empty_cells(shapes, cols).len(),
            stop.empty_cells(shapes, cols).len(),
        );
        if stop > start {
            return Err(Problem::TooManyEmpty { start, stop });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SILLY: &[u8] = include_bytes!("../../tests/data/sliding/silly.txt");

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let plain = Puzzle::parse(SILLY).expect("the seed's example");
        let marked = [&b"\xef\xbb\xbf"[..], SILLY].concat();
        assert_eq!(Puzzle::parse(&marked), Ok(plain));
    }

    #[test]
    fn crlf_and_a_missing_final_newline_read_as_lf() {
        let lf = Puzzle::parse(SILLY).expect("the seed's example");
        let text = std::str::from_utf8(SILLY).expect("ASCII");
        let crlf = text.replace('\n', "\r\n");
        assert_eq!(Puzzle::parse(crlf.as_bytes()), Ok(lf.clone()));
        let unterminated = text.strip_suffix('\n').expect("the file ends with LF");
        assert_eq!(Puzzle::parse(unterminated.as_bytes()), Ok(lf.clone()));
        let both = crlf.strip_suffix("\r\n").expect("CRLF");
        assert_eq!(Puzzle::parse(both.as_bytes()), Ok(lf));
    }

    #[test]
    fn line_numbers_survive_crlf_and_the_missing_newline() {
        let error = Puzzle::parse(b"2 x 2\r\n1 = 1\r\n\r\n1?\r\n1").expect_err("bad start");
        assert_eq!(error.line, 4);
        assert_eq!(error.problem, Problem::WildcardInStart { found: '?' });
        let error = Puzzle::parse(b"2 x 2\n1 = 1").expect_err("no start");
        assert_eq!(
            error.to_string(),
            "line 3: missing the starting configuration"
        );
    }
}
