//! `Puzzle::parse_with` on arbitrary bytes, with the stop line required and optional (as
//! `fifteen sliding --levels` reads): it never panics, its errors are one line naming a line,
//! and a puzzle it accepts keeps the parser's promises and can be packed.
#![no_main]

use fifteen::sliding::spec::MAX_CELLS;
use fifteen::sliding::{Geometry, Puzzle};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &[u8]| {
    for stop_optional in [false, true] {
        match Puzzle::parse_with(text, stop_optional) {
            Err(error) => {
                assert!(error.line >= 1);
                assert!(!error.to_string().contains('\n'), "{error}");
            }
            Ok(puzzle) => {
                let cells = puzzle.cells();
                assert!((1..=MAX_CELLS).contains(&cells));
                assert_eq!(puzzle.start.dead.len(), cells);
                assert!(!puzzle.start.blocks.is_empty());
                assert!(stop_optional || !puzzle.stops.is_empty());
                let geometry = Geometry::new(&puzzle);
                let start = geometry.key_of(&puzzle.start);
                for stop in &puzzle.stops {
                    if !stop.is_partial() {
                        assert_eq!(stop.dead, puzzle.start.dead);
                        assert_eq!(stop.blocks.len(), puzzle.start.blocks.len());
                        assert_eq!(geometry.key_of(stop).len(), start.len());
                    }
                }
            }
        }
    }
});
