//! `Position::parse` on arbitrary text, with any board size (supported or not) and either
//! convention: it never panics, its errors are one line, and what it accepts fills the board
//! and reads back from its own notation.
#![no_main]

use arbitrary::Arbitrary;
use fifteen::{Board, Convention, Position};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Input<'a> {
    /// `Some((rows, cols))`: the `--size` given (sides 0..=7, so unsupported ones too, which
    /// give no board).
    size: Option<(u8, u8)>,
    korf: bool,
    text: &'a str,
}

fuzz_target!(|input: Input<'_>| {
    let size = input
        .size
        .and_then(|(r, c)| Board::new(usize::from(r % 8), usize::from(c % 8)).ok());
    let convention = if input.korf {
        Convention::Korf
    } else {
        Convention::Knuth
    };
    match Position::parse(input.text, size, convention) {
        Err(error) => assert!(!error.to_string().contains('\n'), "{error}"),
        Ok(position) => {
            let board = position.board();
            assert!(size.is_none_or(|b| b == board));
            let again = Position::parse(&position.notation(convention), Some(board), convention);
            assert_eq!(again, Ok(position));
        }
    }
});
