//! Property tests: notations round-trip on every board size, and the reference engine solves
//! random walks of length L in at most L moves with solutions that replay to the goal.
#![forbid(unsafe_code)]

use fifteen::engine::reference::ReferenceIda;
use fifteen::random::PositionSource;
use fifteen::{Board, Convention, Engine, Position, SearchOptions};
use proptest::prelude::*;

fn any_board() -> impl Strategy<Value = Board> {
    (2usize..=5, 2usize..=5).prop_map(|(r, c)| Board::new(r, c).expect("2..=5 is supported"))
}

fn any_position() -> impl Strategy<Value = Position> {
    any_board().prop_flat_map(|board| {
        let tiles: Vec<u8> = (0..board.cells() as u8).collect();
        Just(tiles)
            .prop_shuffle()
            .prop_map(move |t| Position::from_tiles(board, &t).expect("a permutation"))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn notation_round_trips(position in any_position()) {
        let board = position.board();
        for convention in [Convention::Knuth, Convention::Korf] {
            let text = position.notation(convention);
            prop_assert_eq!(Position::parse(&text, Some(board), convention), Ok(position));
            // The decimal list works on every board, separated by commas or by spaces.
            let decimal: Vec<String> = Position::parse(&text, Some(board), convention)
                .map(|p| match convention {
                    Convention::Knuth => p.tiles().to_vec(),
                    Convention::Korf => {
                        let n = board.cells() as u8;
                        p.tiles().iter().rev().map(|&t| if t == 0 { 0 } else { n - t }).collect()
                    }
                })
                .unwrap_or_default()
                .iter()
                .map(u8::to_string)
                .collect();
            prop_assert_eq!(Position::parse(&decimal.join(" "), Some(board), convention), Ok(position));
            prop_assert_eq!(Position::parse(&decimal.join(","), Some(board), convention), Ok(position));
        }
    }

    #[test]
    fn solvability_is_preserved_by_moves_and_flipped_by_a_swap(position in any_position(), d in 0u8..4) {
        let mut moved = position;
        moved.move_blank(fifteen::Direction::from_code(d));
        prop_assert_eq!(moved.is_solvable(), position.is_solvable());
        let mut tiles = position.tiles().to_vec();
        let nonblank: Vec<usize> = (0..tiles.len()).filter(|&i| tiles[i] != 0).collect();
        tiles.swap(nonblank[0], nonblank[1]);
        let swapped = Position::from_tiles(position.board(), &tiles).expect("a permutation");
        prop_assert_ne!(swapped.is_solvable(), position.is_solvable());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn random_walks_are_solved_within_their_length(board in any_board(), seed in any::<u64>(), length in 0usize..=24) {
        let length = if board.cells() > 16 { length.min(18) } else { length };
        let start = PositionSource::new(seed).random_walk(board, length);
        let outcome = ReferenceIda
            .solve(&start, &SearchOptions::default(), &mut |_| {})
            .expect("a walk from the goal is solvable");
        let solution = &outcome.solutions[0];
        prop_assert!(solution.len() <= length);
        prop_assert_eq!(solution.len() % 2, length % 2);
        prop_assert!(solution.solves(&start));
        prop_assert_eq!((solution.happy - solution.sad) as usize, start.manhattan());
        // The split agrees with a replay that classifies every move.
        let replayed = fifteen::Solution::from_moves(&start, solution.moves.clone());
        prop_assert_eq!(replayed.as_ref(), Some(solution));
    }
}
