//! Property tests of move strings (src/notation.rs) on every board from 2x2 to 5x5, in both
//! conventions: what is written in any notation reads back as the same steps; inverting twice
//! is the identity, and the inverse from where the moves lead leads back; simplify never
//! lengthens a path in either metric, keeps its effect, leaves no step that the next undoes,
//! and is idempotent.
#![forbid(unsafe_code)]

use fifteen::board::Direction;
use fifteen::notation::{self, Mover, Written};
use fifteen::{Board, Convention, Position};
use proptest::prelude::*;

fn any_position() -> impl Strategy<Value = Position> {
    (2usize..=5, 2usize..=5).prop_flat_map(|(r, c)| {
        let board = Board::new(r, c).expect("2..=5 is supported");
        let tiles: Vec<u8> = (0..board.cells() as u8).collect();
        Just(tiles)
            .prop_shuffle()
            .prop_map(move |t| Position::from_tiles(board, &t).expect("a permutation"))
    })
}

/// A position and a legal path of the blank from it (each wanted direction that would leave
/// the board is left out), with many steps undone by the next one.
fn any_path() -> impl Strategy<Value = (Position, Vec<Direction>)> {
    (any_position(), prop::collection::vec(0usize..4, 0..80)).prop_map(|(start, wanted)| {
        let mut position = start;
        let mut steps = Vec::new();
        for i in wanted {
            let d = Direction::ALL[i];
            if position.move_blank(d).is_some() {
                steps.push(d);
            }
        }
        (start, steps)
    })
}

const NOTATIONS: [Written; 4] = [
    Written::Tiles,
    Written::Blank,
    Written::Letters,
    Written::Mtm,
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn every_notation_reads_back_as_the_same_steps((start, steps) in any_path()) {
        for convention in [Convention::Knuth, Convention::Korf] {
            for written in NOTATIONS {
                let text = notation::write(&start, &steps, written, convention);
                let mover = match written {
                    Written::Blank => Mover::Blank,
                    _ => Mover::Tiles,
                };
                let read = notation::read(&start, &text, convention, mover);
                prop_assert_eq!(read.as_ref(), Ok(&steps), "{:?} {:?}: {}", written, convention, text);
                if !steps.is_empty() && written != Written::Tiles {
                    prop_assert_eq!(notation::written_in(&text, mover), match written {
                        // Runs of one step each have no count: the tiles' letters.
                        Written::Mtm if notation::mtm_length(&steps) == steps.len() => Written::Letters,
                        _ => written,
                    });
                }
            }
        }
        // The tiles pushed, back to steps.
        let tiles = notation::tiles_of(&start, &steps);
        prop_assert_eq!(tiles.len(), steps.len());
        prop_assert_eq!(notation::steps_of(&start, &tiles), steps);
    }

    #[test]
    fn the_inverse_leads_back((start, steps) in any_path()) {
        let inverse = notation::invert(&steps);
        prop_assert_eq!(notation::invert(&inverse), steps.clone());
        prop_assert_eq!(inverse.len(), steps.len());
        let end = notation::play(&start, &steps);
        // Every step of the inverse is legal from where the moves lead.
        let tiles = notation::tiles_of(&end, &inverse);
        prop_assert_eq!(tiles.len(), inverse.len());
        prop_assert_eq!(notation::play(&end, &inverse), start);
        // The same tiles, pushed in the other order.
        let forward: Vec<u8> = notation::tiles_of(&start, &steps).into_iter().rev().collect();
        prop_assert_eq!(tiles, forward);
    }

    #[test]
    fn simplify_keeps_the_effect_and_never_lengthens((start, steps) in any_path()) {
        let short = notation::simplify(&steps);
        prop_assert!(short.len() <= steps.len());
        prop_assert_eq!(short.len() % 2, steps.len() % 2);
        prop_assert!(notation::mtm_length(&short) <= notation::mtm_length(&steps));
        prop_assert_eq!(notation::play(&start, &short), notation::play(&start, &steps));
        prop_assert_eq!(notation::tiles_of(&start, &short).len(), short.len());
        prop_assert!(short.windows(2).all(|w| w[1] != w[0].reverse()));
        prop_assert_eq!(notation::simplify(&short), short.clone());
        // A path that goes out and comes straight back is nothing.
        let mut there_and_back = steps.clone();
        there_and_back.extend(notation::invert(&steps));
        prop_assert!(notation::simplify(&there_and_back).is_empty());
    }
}
