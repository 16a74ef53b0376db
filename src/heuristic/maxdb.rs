//! The heuristic of a catalogue ([`super::catalogue`]): the largest of its partitions' sums,
//! each partition looked up on the position and, on square boards, on its reflection, as
//! [`super::pdb`] does for one partition.
//!
//! A *lookup* is a group's table in one frame (the position's or the reflection's). Partitions
//! that share a group share its lookup, so a move reads each table that holds the moved tile
//! once per frame, however many partitions hold it: Clausecker's `small` has fourteen groups
//! in seven partitions, about 3.5 lookups a move and frame where seven sums are kept. The
//! values travel as bytes ([`Values`]): one per lookup, one per *sum* (a partition in a
//! frame), and the estimate, the largest sum.
//!
//! A move changes the lookup of the moved tile's group in each frame by one, up or down ([`
//! super::table`]), so every sum moves by exactly one too: a lookup's step is added to or
//! taken from the bytes of the sums that hold it, all at once (`Step::sums`). The estimate then
//! rises by one when a sum reaches one more than it, and otherwise falls by one.
//!
//! A move the search would refuse if it were sad (no sad move left) stops at the first lookup
//! that rises in a sum as large as the estimate: on a 5x5 position with `small`, 84% of the
//! moves looked up had no sad move left, two thirds of those stopped early, and a move read
//! 4.2 lookups on average instead of 7. Reading each frame's lookups in a loop of its own, so
//! that a move's direction in the frame is known at compile time, took 10% of the instructions.
//!
//! Measured (2026-11-28, one thread, interleaved): Korf & Felner's five quickest 24-puzzles
//! took 203,025,396 nodes and 43-49 s with `small`, against 633,932,551 nodes and 35 s with
//! `6-6-6-6` alone ([`super::pdb`]): 3.1 times fewer nodes at 4.1-4.5 times the time a node
//! (about 900 instructions a node in `look` against 355, and 316 MB of tables against 90 MB,
//! so more of the reads miss the caches). Only the 93-mover was faster (4.7-5.3 s against
//! 9.0-9.3 s). So no board's default is a catalogue.
//!
//! Best first (2026-11-30, the cut following these lookups move by move as it does a
//! partition's, [`crate::engine::steps::Stepped`]): the five quickest took 199,166,986 nodes and
//! 45-48 s with `small`, against 360,011,547 nodes and 15.5-18.8 s with `6-6-6-6` (two
//! interleaved rounds, one thread).
//!
//! Invariant: `values(at, blank)` holds each lookup's exact value, each sum the sum of its
//! lookups' and `h` their largest; `look` and `commit` keep them so.

use super::catalogue::Catalogue;
use super::partition::mirror_cells;
use super::pdb::{cell_map, tile_cells, Board32, Lookup, Probe};
use super::table::GroupTable;
use crate::position::Position;

/// Most lookups: distinct groups times frames.
pub const MAX_LOOKUPS: usize = 32;
const LOOKUP_WORDS: usize = MAX_LOOKUPS / 8;

/// Most sums: partitions times frames.
pub const MAX_SUMS: usize = 16;
const SUM_WORDS: usize = MAX_SUMS / 8;

/// Most lookups one tile is in.
pub const MAX_PROBES: usize = 16;

/// The values at a node: a byte for each lookup and for each sum, and the largest sum.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Values {
    lookups: [u64; LOOKUP_WORDS],
    sums: [u64; SUM_WORDS],
    h: u32,
}

/// Each lookup's entry at a node (as [`super::pdb::Entries`]).
pub type Entries = [u64; MAX_LOOKUPS];

/// The entries a move changed, as they were before it, in the order of the moved tile's steps.
pub type Before = [u64; MAX_PROBES];

/// What a move changes: the entries of the lookups of the moved tile, after it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Changed {
    entries: [u64; MAX_PROBES],
}

/// The name the generated automaton knows the tables by (`catalogue::Tables`).
pub type Tables = CatalogueDb;

/// One lookup a move of a tile changes: its probe, whether it is in the reflection's frame
/// (where a move along a row of the board goes along a column), and a 1 in the byte of every
/// sum that holds it.
#[derive(Clone, Copy, Debug, Default)]
struct Step {
    probe: Probe,
    reflected: bool,
    sums: [u64; SUM_WORDS],
}

/// The tables of a catalogue, ready for lookups.
#[derive(Debug)]
pub struct CatalogueDb {
    catalogue: Catalogue,
    tables: Vec<GroupTable>,
    lookups: Vec<Lookup>,
    /// The lookups of each sum.
    sums: Vec<Vec<usize>>,
    /// For each piece (by home cell), the lookups its moves change, position's frame first.
    steps: [[Step; MAX_PROBES]; 32],
    stepped: [u8; 32],
    /// How many of a piece's steps are in the position's frame (they come first).
    straight: [u8; 32],
}

impl CatalogueDb {
    /// Puts the tables of `catalogue` together: `tables[g]` is the table of its `g`-th group
    /// ([`Catalogue::groups`]).
    pub fn new(catalogue: Catalogue, tables: Vec<GroupTable>) -> Result<CatalogueDb, String> {
        let groups = catalogue.groups();
        let too_many = |what: &str| format!("{catalogue}: more than {what} for one search");
        if tables.len() != groups.len() {
            return Err(format!(
                "{catalogue}: {} tables for {} groups",
                tables.len(),
                groups.len()
            ));
        }
        let mut frames = vec![(cell_map(None), None)];
        if let Some(mirror) = mirror_cells(catalogue.board()) {
            frames.push((cell_map(Some(&mirror)), Some(mirror)));
        }
        let mut lookups = Vec::new();
        let mut sums = Vec::new();
        for (map, mirror) in &frames {
            let first = lookups.len();
            for (g, table) in tables.iter().enumerate() {
                let sources = table
                    .homes()
                    .iter()
                    .map(|&p| mirror.as_ref().map_or(p, |m| m[usize::from(p)]))
                    .collect();
                let byte = lookups.len();
                lookups.push(Lookup::new(g, table.layout(), sources, *map, byte));
            }
            for partition in catalogue.partitions() {
                let members = partition.groups().iter();
                sums.push(
                    members
                        .filter_map(|group| groups.iter().position(|g| g == group))
                        .map(|g| first + g)
                        .collect::<Vec<usize>>(),
                );
            }
        }
        if lookups.len() > MAX_LOOKUPS {
            return Err(too_many(&format!(
                "{} distinct groups",
                MAX_LOOKUPS / frames.len()
            )));
        }
        if sums.len() > MAX_SUMS {
            return Err(too_many(&format!("{} partitions", MAX_SUMS / frames.len())));
        }
        let mut steps = [[Step::default(); MAX_PROBES]; 32];
        let mut stepped = [0u8; 32];
        let mut straight = [0u8; 32];
        for piece in 0..32 {
            for (l, lookup) in lookups.iter().enumerate() {
                let Some(probe) = lookup.probe(l, piece) else {
                    continue;
                };
                let mut step = Step {
                    probe,
                    reflected: l >= groups.len(),
                    sums: [0; SUM_WORDS],
                };
                for (s, members) in sums.iter().enumerate() {
                    if members.contains(&l) {
                        step.sums[s / 8] |= 1 << (8 * (s % 8));
                    }
                }
                let slot = steps[piece]
                    .get_mut(usize::from(stepped[piece]))
                    .ok_or_else(|| too_many(&format!("{MAX_PROBES} groups holding one tile")))?;
                *slot = step;
                stepped[piece] += 1;
                straight[piece] += u8::from(!step.reflected);
            }
        }
        Ok(CatalogueDb {
            catalogue,
            tables,
            lookups,
            sums,
            steps,
            stepped,
            straight,
        })
    }

    /// The tables of `catalogue` from `table(tiles, label)`, for each of its distinct groups
    /// (called `label`, "5x5 small table 3 of 14", where it says anything), put together.
    pub fn with_tables(
        catalogue: &Catalogue,
        mut table: impl FnMut(&[u8], &str) -> Result<GroupTable, String>,
    ) -> Result<CatalogueDb, String> {
        let groups = catalogue.groups();
        let tables = groups
            .iter()
            .enumerate()
            .map(|(g, tiles)| {
                table(
                    tiles,
                    &format!("{catalogue} table {} of {}", g + 1, groups.len()),
                )
            })
            .collect::<Result<Vec<_>, _>>()?;
        CatalogueDb::new(catalogue.clone(), tables)
    }

    pub fn catalogue(&self) -> &Catalogue {
        &self.catalogue
    }

    /// The first damage found in a table's file, if any (see [`super::Heuristic::damage`]).
    pub fn damage(&self) -> Option<String> {
        self.tables
            .iter()
            .find_map(|table| table.bits().damage().map(str::to_string))
    }

    /// Each table's checksum, in the order of [`Catalogue::groups`].
    pub fn checksums(&self) -> Vec<u32> {
        self.tables.iter().map(|t| t.bits().checksum()).collect()
    }

    /// Every lookup's and sum's exact value and the estimate, from scratch; `at[piece]` is the
    /// cell of each piece (named by its home cell), `blank` the blank's cell.
    pub fn values(&self, at: &[u8], blank: u8) -> Values {
        let mut values = Values::default();
        let mut each = [0u32; MAX_LOOKUPS];
        for (lookup, value) in self.lookups.iter().zip(&mut each) {
            *value = lookup.value(&self.tables[lookup.table], at, blank).min(255);
            values.lookups[lookup.byte / 8] |= u64::from(*value) << (8 * (lookup.byte % 8));
        }
        for (s, members) in self.sums.iter().enumerate() {
            let sum: u32 = members.iter().map(|&l| each[l]).sum::<u32>().min(255);
            values.sums[s / 8] |= u64::from(sum) << (8 * (s % 8));
            values.h = values.h.max(sum);
        }
        values
    }

    /// Every lookup's entry, from scratch; `at[piece]` is the cell of each piece.
    pub fn entries(&self, at: &[u8]) -> Entries {
        super::pdb::entries_of(&self.lookups, &self.tables, at)
    }

    /// The estimate: the largest sum.
    #[inline]
    pub fn estimate(values: Values) -> u32 {
        values.h
    }

    /// The estimate of the tiles `tiles` (row by row, Knuth's numbering), from scratch.
    pub fn estimate_tiles(&self, tiles: &[u8]) -> u32 {
        let (at, blank) = tile_cells(self.catalogue.board(), tiles);
        self.values(&at, blank).h
    }

    /// The estimate of a position, from scratch.
    pub fn estimate_position(&self, position: &Position) -> u32 {
        self.estimate_tiles(position.tiles())
    }

    /// Whether a move with the values `after` after it is happy at a node whose estimate is
    /// `h`.
    #[inline]
    pub fn happy(h: u32, after: Values) -> bool {
        after.h < h
    }

    /// Looks up the move of `piece` from `from` into the blank at `to` (`VERTICAL` or not),
    /// given the values and entries before it and `board[cell]`, the piece on each cell but the
    /// blank's: the values after the move, and what it changes, for [`CatalogueDb::commit`].
    ///
    /// When `sad_refused` (no sad move is left), a lookup that rises in a sum as large as the
    /// estimate makes the move sad, and the search refuses it: the other lookups are not read,
    /// and the values returned are only good for saying it is sad.
    /// (`COLS`, the board's columns, is the generated automaton's as for
    /// [`super::pdb::PatternDb::look`]; not used here.)
    #[inline(never)]
    pub fn look<const VERTICAL: bool, const COLS: usize>(
        &self,
        values: Values,
        entries: &Entries,
        board: &Board32,
        (piece, from, to): (u8, u8, u8),
        sad_refused: bool,
    ) -> (Values, Changed) {
        let piece = usize::from(piece & 31);
        let mut after = values;
        let mut changed = Changed::default();
        let count = usize::from(self.stepped[piece]).min(MAX_PROBES);
        let straight = usize::from(self.straight[piece]).min(count);
        let (steps, entries_after) = (&self.steps[piece], &mut changed.entries);
        // The position's frame sees a vertical move along a column, the reflection's a
        // horizontal one: two loops, so that each knows which at compile time.
        let found = (values, entries, board, (from, to), sad_refused);
        for k in 0..straight {
            if self.probe(
                &steps[k],
                found,
                VERTICAL,
                &mut after,
                &mut entries_after[k],
            ) {
                return (after, changed);
            }
        }
        for k in straight..count {
            if self.probe(
                &steps[k],
                found,
                !VERTICAL,
                &mut after,
                &mut entries_after[k],
            ) {
                return (after, changed);
            }
        }
        let up = values.h + 1;
        after.h = match after.sums.iter().any(|&sums| has_byte(sums, up)) {
            true => up,
            false => values.h.saturating_sub(1),
        };
        (after, changed)
    }

    /// One lookup of [`CatalogueDb::look`]: its value and sums in `after`, and its entry after
    /// the move in `entry_after`. Returns whether the move is sad and `sad_refused`: it is
    /// then refused, and the rest need not be looked up (`after.h` says it is sad).
    #[inline(always)]
    fn probe(
        &self,
        step: &Step,
        (values, entries, board, (from, to), sad_refused): Found,
        column: bool,
        after: &mut Values,
        entry_after: &mut u64,
    ) -> bool {
        let probe = &step.probe;
        let l = usize::from(probe.lookup) % MAX_LOOKUPS;
        let (Some(lookup), Some(table)) = (
            self.lookups.get(l),
            self.tables.get(usize::from(probe.table)),
        ) else {
            return false;
        };
        let entry = lookup.next_entry(probe, entries[l], board, (from, to, column));
        // The blank takes the piece's cell.
        let blank = lookup.map[usize::from(from & 31)];
        let index = table.layout().index(entry >> 32, entry as u32, blank);
        let (word, shift) = (usize::from(probe.word) % LOOKUP_WORDS, probe.shift & 63);
        let old = (after.lookups[word] >> shift) as u32 & 0xff;
        let value = table.next_value(old, index);
        let up = value > old;
        if up && sad_refused && binding(values, step) {
            after.h = values.h + 1;
            return true;
        }
        after.lookups[word] = (after.lookups[word] & !(0xff << shift)) | u64::from(value) << shift;
        for (sum, &one) in after.sums.iter_mut().zip(&step.sums) {
            *sum = match up {
                true => sum.wrapping_add(one),
                false => sum.wrapping_sub(one),
            };
        }
        *entry_after = entry;
        false
    }

    /// The values and entries after `piece` moves from `from` into the blank at `to`, given
    /// those before; `board[cell]` is the piece on each cell but the blank's (as
    /// [`super::pdb::PatternDb::step`]).
    pub fn step(
        &self,
        values: Values,
        entries: &Entries,
        board: &Board32,
        (piece, from, to): (u8, u8, u8),
    ) -> (Values, Entries) {
        let the_move = (piece, from, to);
        let (after, changed) = match from.abs_diff(to) > 1 {
            true => self.look::<true, 0>(values, entries, board, the_move, false),
            false => self.look::<false, 0>(values, entries, board, the_move, false),
        };
        let mut entries = *entries;
        self.commit(&mut entries, piece, &changed);
        (after, entries)
    }

    /// Makes the move of `piece` that `changed` was looked up for in `entries`; returns the
    /// entries it changes as they were, for [`CatalogueDb::restore`].
    #[inline]
    pub fn commit(&self, entries: &mut Entries, piece: u8, changed: &Changed) -> Before {
        let mut before = Before::default();
        let piece = usize::from(piece & 31);
        let count = usize::from(self.stepped[piece]).min(MAX_PROBES);
        let steps = self.steps[piece][..count].iter();
        for ((step, &after), old) in steps.zip(&changed.entries).zip(&mut before) {
            let l = usize::from(step.probe.lookup) % MAX_LOOKUPS;
            *old = std::mem::replace(&mut entries[l], after);
        }
        before
    }

    /// Takes back the move of `piece` whose [`CatalogueDb::commit`] returned `before`.
    #[inline]
    pub fn restore(&self, entries: &mut Entries, piece: u8, before: Before) {
        let piece = usize::from(piece & 31);
        let count = usize::from(self.stepped[piece]).min(MAX_PROBES);
        for (step, &old) in self.steps[piece][..count].iter().zip(&before) {
            entries[usize::from(step.probe.lookup) % MAX_LOOKUPS] = old;
        }
    }
}

/// What every step of a look shares: the values and entries before the move, the board, the
/// move's cells, and whether a sad move is refused.
type Found<'a> = (Values, &'a Entries, &'a Board32, (u8, u8), bool);

/// Whether a sum that holds the lookup of `step` is as large as the estimate.
#[inline(always)]
fn binding(values: Values, step: &Step) -> bool {
    let held = |(&sums, &ones): (&u64, &u64)| sums & ones.wrapping_mul(0xff);
    let mut words = values.sums.iter().zip(&step.sums).map(held);
    values.h > 0 && words.any(|sums| has_byte(sums, values.h))
}

/// Whether a byte of `word` is `value` (1 to 255).
#[inline(always)]
fn has_byte(word: u64, value: u32) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let x = word ^ ONES.wrapping_mul(u64::from(value & 0xff));
    x.wrapping_sub(ONES) & !x & (ONES << 7) != 0
}

/// Builds every table of `catalogue` in memory (with progress bars on a terminal).
pub fn build(catalogue: &Catalogue) -> Result<CatalogueDb, String> {
    let board = catalogue.board();
    CatalogueDb::with_tables(catalogue, |tiles, label| {
        super::pdb::build_group(board, tiles, label)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_byte_is_found_where_it_is() {
        assert!(has_byte(0x0000_0000_0700_0000, 7));
        assert!(!has_byte(0x0000_0000_0600_0800, 7));
        assert!(has_byte(0x0900_0000_0000_0000, 9));
        // Borrows from a byte below never fake a match.
        assert!(!has_byte(0x0100_0000_0000_0000, 2));
        assert!(!has_byte(0, 1));
        assert!(has_byte(0xff00, 255));
    }
}
