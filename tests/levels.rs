//! The enumerator of `fifteen levels` against the breadth-first engine that was there before it
//! (SLIDING, style 0 for the single-tile metric and style 3, superpieces, for the multi-tile
//! metric) on every board of up to 10 cells, from every blank cell up to 9 cells.

use fifteen::levels::{Enumeration, Grid};
use fifteen::mtm::Metric;
use fifteen::sliding::{self, Outcome, Puzzle, Style};
use std::sync::atomic::{AtomicBool, AtomicU64};

/// Every level of the enumerator, run to the end.
fn enumerate(rows: usize, cols: usize, blank: usize, metric: Metric) -> Vec<u64> {
    let grid = Grid::new(rows, cols, blank).unwrap();
    let configurations = grid.configurations();
    let mut enumeration = Enumeration::new(grid, metric);
    let found = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    while enumeration.expand(&found, &stop).unwrap().size > 0 {}
    let levels = enumeration.levels().to_vec();
    assert_eq!(levels.iter().sum::<u64>(), configurations);
    levels
}

/// The tiles in order, the blank in `blank`, as a SLIDING puzzle with no stop.
fn sliding_levels(rows: usize, cols: usize, blank: usize, style: Style) -> Vec<u64> {
    let mut text = format!("{rows} x {cols}\n");
    for tile in 1..rows * cols {
        text.push_str(&format!("{tile:x} = 1\n"));
    }
    let mut tile = 1;
    for cell in 0..rows * cols {
        if cell == blank {
            text.push('0');
        } else {
            text.push_str(&format!("{tile:x}"));
            tile += 1;
        }
    }
    text.push('\n');
    let puzzle = Puzzle::parse_with(text.as_bytes(), true).unwrap();
    let outcome = sliding::solve(&puzzle, style, 1 << 30, &mut |_| {}, &mut |_| {}).unwrap();
    let Outcome::Exhausted { levels, .. } = outcome else {
        panic!("no stop, yet solved");
    };
    levels
}

#[test]
fn every_small_board_from_every_cell_has_sliding_s_levels_in_both_metrics() {
    for (rows, cols) in [
        (2, 2),
        (2, 3),
        (3, 2),
        (2, 4),
        (4, 2),
        (3, 3),
        (2, 5),
        (5, 2),
    ] {
        // Every cell up to 9 cells; on 10 (1.8 M configurations) a corner, an edge, the middle.
        let blanks: Vec<usize> = if rows * cols <= 9 {
            (0..rows * cols).collect()
        } else {
            vec![0, 1, rows * cols / 2]
        };
        for blank in blanks {
            for (metric, style) in [(Metric::Stm, Style(0)), (Metric::Mtm, Style(3))] {
                assert_eq!(
                    enumerate(rows, cols, blank, metric),
                    sliding_levels(rows, cols, blank, style),
                    "{rows}x{cols}, blank in cell {blank}, {metric:?}"
                );
            }
        }
    }
}
