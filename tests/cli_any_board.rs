//! The move verbs on boards beyond the engines' 5x5 (issue 53): `apply`, `invert`, `simplify`
//! and `convert` on 6x6, 7x7, 10x10 and 8x3 boards, each answer checked against moves replayed
//! by hand on a `Vec` here; a board above 256 cells is one line naming the bound (status 2),
//! and the searches keep their own bound and its line.
#![forbid(unsafe_code)]

mod common;

use common::{refused, run};

/// A board replayed by hand: the tiles row by row (Knuth's numbers, 0 the blank).
#[derive(Clone, Debug, PartialEq)]
struct Hand {
    rows: usize,
    cols: usize,
    tiles: Vec<usize>,
}

impl Hand {
    fn goal(rows: usize, cols: usize) -> Hand {
        let n = rows * cols;
        Hand {
            rows,
            cols,
            tiles: (1..n).chain([0]).collect(),
        }
    }

    /// Written as fifteen writes a board above 16 cells: decimal tiles and commas.
    fn text(&self) -> String {
        let words: Vec<String> = self.tiles.iter().map(|t| t.to_string()).collect();
        words.join(",")
    }

    /// In rows as players write them: spaces between tiles, `/` between rows.
    fn rows_text(&self) -> String {
        let rows: Vec<String> = self
            .tiles
            .chunks(self.cols)
            .map(|row| {
                let words: Vec<String> = row.iter().map(|t| t.to_string()).collect();
                words.join(" ")
            })
            .collect();
        rows.join("/")
    }

    /// In Korf's convention: the board turned round, each tile x named n - x.
    fn korf_text(&self) -> String {
        let n = self.tiles.len();
        let words: Vec<String> = (self.tiles.iter().rev())
            .map(|&t| if t == 0 { 0 } else { n - t }.to_string())
            .collect();
        words.join(",")
    }

    /// Slides the tile on the blank's side opposite to where the tiles go, `letter` the
    /// tiles' direction; the tile pushed, or None off the board.
    fn slide(&mut self, letter: char) -> Option<usize> {
        let blank = self.tiles.iter().position(|&t| t == 0)?;
        let (r, c) = (blank / self.cols, blank % self.cols);
        // The tile that moves stands against the direction it moves.
        let from = match letter {
            'U' if r + 1 < self.rows => blank + self.cols,
            'D' if r > 0 => blank - self.cols,
            'L' if c + 1 < self.cols => blank + 1,
            'R' if c > 0 => blank - 1,
            _ => return None,
        };
        self.tiles.swap(blank, from);
        Some(self.tiles[blank])
    }

    /// Plays the tiles' letters with counts (`D3 R L2`), returning the tiles pushed.
    fn play(&mut self, moves: &str) -> Vec<usize> {
        let mut pushed = Vec::new();
        for word in moves.split_whitespace() {
            let letter = word.chars().next().expect("a letter");
            let count: usize = match &word[1..] {
                "" => 1,
                digits => digits.parse().expect("a count"),
            };
            for _ in 0..count {
                pushed.push(self.slide(letter).expect("a legal move"));
            }
        }
        pushed
    }
}

/// A random walk of `steps` tiles' moves on `rows x cols` from the goal, never undoing the last
/// step, written in the multi-tile metric's notation (runs merged with their counts).
fn walk(rows: usize, cols: usize, steps: usize, mut seed: u64) -> String {
    let mut hand = Hand::goal(rows, cols);
    let mut letters: Vec<char> = Vec::new();
    while letters.len() < steps {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let letter = ['U', 'D', 'L', 'R'][(seed >> 33) as usize % 4];
        let undoes = |last: char| {
            matches!(
                (last, letter),
                ('U', 'D') | ('D', 'U') | ('L', 'R') | ('R', 'L')
            )
        };
        if letters.last().is_some_and(|&last| undoes(last)) {
            continue;
        }
        if hand.slide(letter).is_some() {
            letters.push(letter);
        }
    }
    let mut words: Vec<(char, usize)> = Vec::new();
    for letter in letters {
        match words.last_mut() {
            Some((last, count)) if *last == letter => *count += 1,
            _ => words.push((letter, 1)),
        }
    }
    let words: Vec<String> = words
        .into_iter()
        .map(|(l, n)| {
            if n == 1 {
                l.to_string()
            } else {
                format!("{l}{n}")
            }
        })
        .collect();
    words.join(" ")
}

/// `fifteen ARGS`: (status, stdout) of a run that wrote nothing on stderr.
fn quiet(args: &[&str]) -> (i32, String) {
    let (status, out, err) = run(args);
    assert!(err.is_empty(), "{args:?}: {err}");
    (status, out)
}

#[test]
fn a_scramble_of_6x6_and_10x10_is_applied_and_undone() {
    for (side, steps, seed) in [(6, 300, 1), (10, 1000, 2)] {
        let goal = Hand::goal(side, side);
        let moves = walk(side, side, steps, seed);
        let mut hand = goal.clone();
        let pushed = hand.play(&moves);
        let mtm = moves.split_whitespace().count();
        // apply: the position reached, as replayed here, in both metrics.
        let (status, out) = quiet(&["apply", &goal.text(), &moves]);
        assert_eq!(status, 1, "{out}");
        assert_eq!(
            out,
            format!(
                "{}: not the goal, after {steps} moves ({mtm} in MTM)\n",
                hand.text()
            )
        );
        // The tiles pushed, in decimal: the same tiles as here.
        let (status, tiles) = quiet(&["convert", &goal.text(), &moves, "--to", "tiles"]);
        assert_eq!(status, 0);
        let expected: Vec<String> = pushed.iter().map(|t| t.to_string()).collect();
        assert_eq!(tiles.trim(), expected.join(","));
        // invert, then apply from where the moves lead: the goal.
        let (status, back) = quiet(&["invert", &goal.text(), &moves]);
        assert_eq!(status, 0);
        let (status, out) = quiet(&["apply", &hand.text(), back.trim()]);
        assert_eq!(status, 0, "{out}");
        assert_eq!(
            out,
            format!(
                "{}: the goal, after {steps} moves ({mtm} in MTM)\n",
                goal.text()
            )
        );
        // The tiles' inverse is the same tiles backwards, and it leads back too.
        let (_, back_tiles) = quiet(&["invert", &goal.text(), tiles.trim()]);
        let reversed: Vec<String> = expected.iter().rev().cloned().collect();
        assert_eq!(back_tiles.trim(), reversed.join(","));
        let (status, _) = quiet(&["apply", &hand.text(), back_tiles.trim()]);
        assert_eq!(status, 0);
        // Korf's convention on the same board: the position turned round.
        let (_, korf) = quiet(&[
            "apply",
            "--convention",
            "korf",
            &goal.korf_text(),
            "--blank",
            &convert_to_blank(&goal.text(), &moves, "korf"),
        ]);
        assert!(
            korf.starts_with(&format!("{}: ", hand.korf_text())),
            "{korf}"
        );
    }
}

/// The blank's letters of `moves` from the Knuth position `start`, written in `convention`.
fn convert_to_blank(start: &str, moves: &str, convention: &str) -> String {
    let korf = convention == "korf";
    let (status, out) = quiet(&["convert", start, moves, "--to", "blank"]);
    assert_eq!(status, 0);
    // Korf's board is Knuth's turned round: each of the blank's letters turns too.
    out.trim()
        .chars()
        .map(|c| match (korf, c) {
            (false, c) => c,
            (true, 'U') => 'D',
            (true, 'D') => 'U',
            (true, 'L') => 'R',
            (true, _) => 'L',
        })
        .collect()
}

#[test]
fn runs_as_long_as_a_side_less_one_and_no_longer() {
    let goal = Hand::goal(10, 10);
    let mut hand = goal.clone();
    hand.play("D9 R9");
    let (status, out) = quiet(&["apply", &goal.text(), "D9 R9"]);
    assert_eq!(status, 1);
    assert_eq!(
        out,
        format!("{}: not the goal, after 18 moves (2 in MTM)\n", hand.text())
    );
    assert_eq!(&hand.tiles[..3], [0, 1, 2]);
    let (status, out, err) = run(&["apply", &goal.text(), "D9 R10"]);
    assert_eq!((status, out.as_str()), (2, ""));
    assert_eq!(
        err,
        "move 2 (R10) is not possible: no tile can move that way (letters name the tiles' directions; --blank reads them as the blank's)\n"
    );
}

#[test]
fn simplify_a_7x7_move_string() {
    let goal = Hand::goal(7, 7);
    let moves = "D3 U R2 L2 D R L U2 R";
    // By hand: D3 U is D2; R2 L2 cancels; D makes D3; R L cancels; U2 leaves D; R stays.
    let (status, out) = quiet(&["simplify", &goal.text(), moves]);
    assert_eq!(status, 0);
    assert_eq!(out, "D R\n");
    let mut long = goal.clone();
    long.play(moves);
    let mut short = goal.clone();
    short.play(out.trim());
    assert_eq!(long, short);
    // The same effect, read back by apply: 2 moves in either metric.
    let (_, applied) = quiet(&["apply", &goal.text(), out.trim()]);
    assert_eq!(
        applied,
        format!("{}: not the goal, after 2 moves (2 in MTM)\n", short.text())
    );
    let (_, tiles) = quiet(&["simplify", &goal.text(), moves, "--to", "tiles"]);
    let pushed: Vec<String> = goal
        .clone()
        .play("D R")
        .iter()
        .map(|t| t.to_string())
        .collect();
    assert_eq!(tiles.trim(), pushed.join(","));
}

#[test]
fn convert_between_notations_on_8x3() {
    let goal = Hand::goal(8, 3);
    let moves = "D3 R2 U L D5 R";
    let mut hand = goal.clone();
    let pushed = hand.play(moves);
    let decimal: Vec<String> = pushed.iter().map(|t| t.to_string()).collect();
    let expected = [
        ("tiles", decimal.join(",")),
        ("blank", "UUULLDRUUUUUL".to_string()),
        ("letters", "DDDRRULDDDDDR".to_string()),
        ("mtm", moves.to_string()),
    ];
    let start = goal.text();
    for (to, written) in &expected {
        let (status, out) = quiet(&["convert", "--size", "8x3", &start, moves, "--to", to]);
        assert_eq!(status, 0);
        assert_eq!(out.trim(), written, "--to {to}");
        // Each notation read back: the same moves in the multi-tile metric.
        let blank: &[&str] = if *to == "blank" { &["--blank"] } else { &[] };
        let args = [
            &["convert", "--size", "8x3", &start, written, "--to", "mtm"],
            blank,
        ]
        .concat();
        let (_, again) = quiet(&args);
        assert_eq!(again.trim(), moves, "from {to}");
    }
    // Written in rows, the board needs no --size; apply ends where the hand does.
    let (status, out) = quiet(&["apply", &goal.rows_text(), &decimal.join(",")]);
    assert_eq!(status, 1);
    assert_eq!(
        out,
        format!("{}: not the goal, after 13 moves (6 in MTM)\n", hand.text())
    );
    // 3x7 and 2x8 (hex digits up to 16 cells) with --size.
    let (_, out) = quiet(&["apply", "--size", "2x8", "123456789abcdef0", "D R3"]);
    assert_eq!(
        out,
        "123405679abcdef8: not the goal, after 4 moves (2 in MTM)\n"
    );
    let wide = Hand::goal(3, 7);
    let (status, _) = quiet(&["apply", "--size", "3x7", &wide.text(), "R6 L6"]);
    assert_eq!(status, 0);
}

#[test]
fn a_board_beyond_the_bound_is_one_line() {
    let bound = "the move verbs take boards of at least 2 rows and 2 columns and at most 256 cells (16x16), not 17x17";
    for verb in ["apply", "invert", "simplify", "convert"] {
        let (status, out, err) = run(&[verb, "--size", "17x17", "1,2,0", "R"]);
        assert_eq!((status, out.as_str()), (2, ""), "{verb}");
        assert_eq!(
            err,
            format!("error: invalid value '17x17' for '--size <RxC>': {bound}\n")
        );
    }
    // A square of 289 tiles without --size, and 17 rows of 17.
    let big = Hand::goal(17, 17);
    let err = refused(&["apply", &big.text(), "R"]);
    assert_eq!(err, format!("The start position does not fit: {bound}!\n"));
    let err = refused(&["invert", &big.rows_text(), "R"]);
    assert_eq!(err, format!("The start position does not fit: {bound}!\n"));
    // 30 tiles is no square: --size says which board.
    let thirty = Hand::goal(5, 6);
    let err = refused(&["apply", &thirty.text(), "R"]);
    assert!(
        err.starts_with("The start position has 30 tiles; give --size RxC"),
        "{err}"
    );
    let (status, _) = quiet(&["apply", "--size", "5x6", &thirty.text(), "D"]);
    assert_eq!(status, 1);
    // The searches keep their bound and its line.
    let err = refused(&["solve", "--size", "6x6", &Hand::goal(6, 6).text()]);
    assert_eq!(
        err,
        "error: invalid value '6x6' for '--size <RxC>': the board must have 2 to 5 rows and columns, not 6x6\n"
    );
}
