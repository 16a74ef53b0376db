//! The puzzle library: classic sliding-block puzzles with their real goals (`puzzles/` in the
//! repository, compiled into the binary), for `fifteen sliding --puzzle NAME` and `--list`.
//!
//! The manifest `puzzles/library.tsv` gives each puzzle's other names (the same layout and
//! goal sold under another name: Red Donkey is Klotski), its goal in words, the optimal move
//! counts the literature publishes (with the move style they count in) and where they come
//! from; the tests solve every puzzle and check every published count.
//!
//! Invariant: every line of the manifest names a file of [`FILES`] and every file has a line.

use super::spec::Style;

/// The manifest, as shipped.
pub const MANIFEST: &str = include_str!("../../puzzles/library.tsv");

/// Every puzzle file, by name (the file's stem).
pub const FILES: &[(&str, &str)] = &[
    ("klotski", include_str!("../../puzzles/klotski.txt")),
    ("pennant", include_str!("../../puzzles/pennant.txt")),
    (
        "pennant_diagonal",
        include_str!("../../puzzles/pennant_diagonal.txt"),
    ),
    ("century", include_str!("../../puzzles/century.txt")),
    (
        "century_and_a_half",
        include_str!("../../puzzles/century_and_a_half.txt"),
    ),
    (
        "super_century",
        include_str!("../../puzzles/super_century.txt"),
    ),
    ("new_century", include_str!("../../puzzles/new_century.txt")),
    ("quzzle", include_str!("../../puzzles/quzzle.txt")),
    ("mas_puzzle", include_str!("../../puzzles/mas_puzzle.txt")),
    (
        "mas_puzzle_wide",
        include_str!("../../puzzles/mas_puzzle_wide.txt"),
    ),
    (
        "mas_puzzle_anywhere",
        include_str!("../../puzzles/mas_puzzle_anywhere.txt"),
    ),
    ("setting_sun", include_str!("../../puzzles/setting_sun.txt")),
    (
        "eight_puzzle",
        include_str!("../../puzzles/eight_puzzle.txt"),
    ),
    (
        "dudeney_letter_block",
        include_str!("../../puzzles/dudeney_letter_block.txt"),
    ),
    (
        "bickford_4x4",
        include_str!("../../puzzles/bickford_4x4.txt"),
    ),
];

/// One puzzle of the library.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub name: &'static str,
    /// Other names of the same puzzle (same layout and goal), accepted by [`find`].
    pub aliases: Vec<&'static str>,
    /// The puzzle in SLIDING's format.
    pub text: &'static str,
    pub rows: usize,
    pub cols: usize,
    /// The goal, in words.
    pub goal: &'static str,
    /// Optimal move counts the literature gives, with the style they count in.
    pub published: Vec<(Style, u32)>,
    /// Who made the puzzle and where the counts come from.
    pub provenance: &'static str,
}

/// Every puzzle, in the manifest's order (lines that do not parse, or name no file, are left
/// out; the tests see that there are none).
pub fn entries() -> Vec<Entry> {
    MANIFEST
        .lines()
        .skip(1)
        .filter(|line| !line.trim().is_empty())
        .filter_map(parse_line)
        .collect()
}

/// The puzzle called `name`, or one of its aliases (case, `-` and spaces aside: `Red-Donkey`
/// is `red_donkey`).
pub fn find(name: &str) -> Option<Entry> {
    let name = name.trim().to_lowercase().replace(['-', ' '], "_");
    entries()
        .into_iter()
        .find(|e| e.name == name || e.aliases.contains(&name.as_str()))
}

fn parse_line(line: &'static str) -> Option<Entry> {
    let fields: Vec<&'static str> = line.split('\t').collect();
    let [name, aliases, rows, cols, goal, published, provenance] = fields.as_slice() else {
        return None;
    };
    let text = FILES.iter().find(|(n, _)| n == name)?.1;
    let published = published
        .split(',')
        .filter(|p| !p.trim().is_empty())
        .map(|pair| {
            let (style, moves) = pair.trim().split_once(':')?;
            Some((Style::new(style.parse().ok()?)?, moves.parse().ok()?))
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Entry {
        name,
        aliases: aliases.split(',').filter(|a| !a.is_empty()).collect(),
        text,
        rows: rows.parse().ok()?,
        cols: cols.parse().ok()?,
        goal,
        published,
        provenance,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sliding::Puzzle;

    #[test]
    fn the_manifest_and_the_files_agree() {
        let lines = MANIFEST.lines().skip(1).filter(|l| !l.trim().is_empty());
        let all = entries();
        assert_eq!(all.len(), lines.count(), "every manifest line parses");
        assert_eq!(all.len(), FILES.len(), "every file has a line");
        for entry in &all {
            let puzzle = Puzzle::parse(entry.text.as_bytes()).expect("a valid puzzle");
            assert_eq!(
                (puzzle.rows, puzzle.cols),
                (entry.rows, entry.cols),
                "{}",
                entry.name
            );
            assert!(!puzzle.stops.is_empty(), "{}", entry.name);
            assert!(!entry.provenance.is_empty());
        }
        // A name means one puzzle.
        let mut names: Vec<&str> = all
            .iter()
            .flat_map(|e| std::iter::once(e.name).chain(e.aliases.iter().copied()))
            .collect();
        let count = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), count, "a name used twice");
    }
}
