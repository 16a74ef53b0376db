//! The move verbs on the command line: a scrambled position's solution, as `solve` prints it
//! in each notation and metric, is replayed to the goal by `fifteen apply` in as many moves as
//! solve says; `convert` writes moves that `apply` replays to the same position in every
//! notation; `invert` from where moves lead leads back; `simplify` cancels what a step undoes;
//! a move that cannot be read or made is named by its number (status 2), and moves that miss
//! the goal give status 1.
#![forbid(unsafe_code)]

mod common;

use common::{run, solution};

/// What `fifteen ARGS` prints on success.
fn ok(args: &[&str]) -> String {
    let (status, out, err) = run(args);
    assert_eq!(status, 0, "{args:?}: {err}");
    out
}

#[test]
fn solve_a_scrambled_position_and_apply_its_answer() {
    let scrambled = ok(&["scramble", "--size", "3x3", "--count", "3", "--seed", "41"]);
    let walks = ok(&["scramble", "--walk", "40", "--count", "2", "--seed", "41"]);
    for position in scrambled.lines().chain(walks.lines()) {
        let base = ["solve", "--heuristic", "manhattan", position];
        // The tiles pushed.
        let (length, tiles) = solution(&ok(&base));
        let expected = format!("the goal, after {length} moves (");
        let applied = ok(&["apply", position, &tiles]);
        assert!(applied.contains(&expected), "{position} {tiles}: {applied}");
        let goal = applied.split(':').next().expect("a position");
        // The blank's letters (with --blank), and Korf's convention.
        let (_, blank) = solution(&ok(&[&base[..], &["--moves", "blank"]].concat()));
        let applied = ok(&["apply", "--blank", position, &blank]);
        assert!(applied.contains(&expected), "{blank}: {applied}");
        assert!(applied.starts_with(goal), "{applied}");
        // The multi-tile metric's players' notation: as many MTM moves as solve says.
        let (mtm_length, mtm) = solution(&ok(&["solve", "--metric", "mtm", position]));
        let applied = ok(&["apply", position, &mtm]);
        assert!(
            applied.ends_with(&format!(" ({mtm_length} in MTM)\n")),
            "{mtm}: {applied}"
        );
        assert!(applied.contains(": the goal, after "), "{applied}");
    }
}

#[test]
fn convert_invert_and_simplify_keep_the_effect() {
    let start = "d68cfe0ab7459132";
    // Korf's first, 17 moves of its optimal path: not the goal (status 1).
    let moves = "45ac84532ac84537b";
    let (status, reached, _) = run(&["apply", start, moves]);
    assert_eq!(status, 1);
    assert_eq!(
        reached,
        "d654fe380b7c912a: not the goal, after 17 moves (10 in MTM)\n"
    );
    for to in ["tiles", "blank", "letters", "mtm"] {
        let written = ok(&["convert", start, moves, "--to", to]);
        let written = written.trim();
        let mut args = vec!["apply", start, written];
        if to == "blank" {
            args.push("--blank");
        }
        let (status, again, err) = run(&args);
        assert_eq!(
            (status, again.as_str()),
            (1, reached.as_str()),
            "{to}: {err}"
        );
    }
    let end = reached.split(':').next().expect("a position");
    let back = ok(&["invert", start, moves]);
    assert_eq!(back, "b73548ca23548ca54\n");
    let (status, home, _) = run(&["apply", end, back.trim()]);
    assert_eq!(status, 1);
    assert!(home.starts_with(&format!("{start}: ")), "{home}");
    // `verify` is `apply`.
    assert_eq!(
        run(&["verify", end, back.trim()]),
        run(&["apply", end, back.trim()])
    );
    // Out and back is nothing; a step and its undoing among others go.
    assert_eq!(ok(&["simplify", start, "45ac8", "8ca54"]), "\n");
    assert_eq!(ok(&["simplify", start, "455", "--to", "tiles"]), "4\n");
    assert_eq!(
        ok(&["simplify", "867254301", "--blank", "LURLRU"]),
        "R D L D\n"
    );
}

#[test]
fn a_move_that_cannot_be_read_or_made_is_named() {
    for (args, message) in [
        (
            vec!["apply", "867254301", "329"],
            "move 3 (\"9\") is not a tile of the board or a letter U, D, L or R\n",
        ),
        (
            vec!["apply", "867254301", "3251"],
            "move 4 (tile 1) is not possible: the tile is not next to the blank\n",
        ),
        (
            vec!["apply", "867254301", "LURU"],
            "move 2 (U) is not possible: no tile can move that way (letters name the tiles' directions; --blank reads them as the blank's)\n",
        ),
        (
            vec!["invert", "867254301", "--blank", "L R3"],
            "move 2 (R3) is not possible: the blank cannot move that way\n",
        ),
        (
            vec!["convert", "867254301", "D0"],
            "move 1 (\"D0\") is not a tile of the board or a letter U, D, L or R\n",
        ),
    ] {
        let (status, out, err) = run(&args);
        assert_eq!((status, out.as_str(), err.as_str()), (2, "", message), "{args:?}");
    }
}
