//! Breadth-first search with the seed's memory discipline (sections 19–41).
//!
//! Configurations get consecutive numbers as they are found; `milestones[d]` is the number of
//! the first configuration at distance `d`. Level `d` is built by generating every move from
//! every configuration of level `d − 1`, in order, and keeping the new ones. A move from level
//! `d − 1` can only reach levels `d − 2`, `d − 1` or `d`, so the newness test needs just those
//! three: the hash table holds configuration numbers, and a number below `milestones[d − 2]`
//! is *stale* — treated as a free slot for insertion and skipped on lookup (it is never equal
//! to a configuration generated now). Stale slots are swept out when the table is rebuilt.
//!
//! Every level keeps its packed configurations, in the order found, in chunks (no copying, little
//! slack), each with the seed's link to its predecessor in a byte (see [`Level`]). The link
//! serves twice: the path is read backwards along it, and the move back to a configuration's
//! predecessor, always among its successors (every move can be undone by a move of the same
//! style), is known to be old without a probe. Older levels are kept while the memory budget
//! allows and forgotten, oldest first, when it does not (a search without a goal reads no path
//! back and keeps only the live levels); if the way back then stops at a forgotten level `f`,
//! the caller searches again from the start with the configuration reached at level `f` as the
//! goal — the seed's waypoint restart. When even the three live levels and the table do not
//! fit, the search stops with a [`MemoryLimit`].
//!
//! The table has 32-bit slots: a configuration number relative to `table_base` in the low
//! `number_bits` bits (plus one; 0 is a free slot) and a fingerprint of the hash in the others,
//! so that most probes are settled without looking at a key. It is split into 64 parts by the
//! top bits of the hash, each with linear probing at load at most 0.85 and rebuilt on its own
//! (to twice its live entries), so growing never needs room for two whole tables.
//!
//! The table outgrows the caches long before the levels do, and every probe is then a cache
//! miss: moves are offered in batches of [`BATCH`] that run on from one configuration to the
//! next, and the slots and keys a batch will read are asked for before any of it is offered,
//! so that their misses overlap ([`Search::touch`]).
//!
//! The observer sees every event and may stop the search by returning `ControlFlow::Break`
//! (the command line does when its output is gone): the search then returns at once, with the
//! levels completed so far and no goal.
//!
//! Invariants: `table` holds exactly the live configurations (plus stale numbers); every level
//! `< d − 2` may be forgotten, never a live one; the memory counted in `bytes` (the chunks of
//! every kept level plus the table) never exceeds `limit`.

use super::moves::{Mover, Next};
use super::pack::Geometry;
use super::spec::Style;
use std::ops::ControlFlow;

/// What the search tells its observer as it goes.
pub enum Event<'a> {
    /// Work on distance `d` begins.
    Distance(u32),
    /// A new configuration: its number, its predecessor's number, its key.
    New {
        number: u64,
        parent: u64,
        key: &'a [u64],
    },
    /// Distance `d` is complete with `size` configurations; the search holds `memory` bytes.
    LevelDone {
        distance: u32,
        size: u64,
        memory: u64,
    },
    /// The goal was just found (after its `New` event).
    Goal,
}

/// The budget was exceeded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the memory limit of {} was reached at distance {distance} ({kept} configurations in memory); give a larger --memory", format_size(*limit))]
pub struct MemoryLimit {
    pub limit: u64,
    pub distance: u32,
    pub kept: u64,
}

/// A size in bytes, the way `--memory` takes it.
pub fn format_size(bytes: u64) -> String {
    const UNITS: [(u64, &str); 3] = [(1 << 30, "G"), (1 << 20, "M"), (1 << 10, "K")];
    for (unit, name) in UNITS {
        if bytes >= unit && bytes.is_multiple_of(unit) {
            return format!("{}{name}", bytes / unit);
        }
    }
    if bytes >= 1 << 20 {
        return format!("{:.1}M", bytes as f64 / f64::from(1 << 20));
    }
    format!("{bytes} bytes")
}

/// The result of one search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Sizes of the completed levels.
    pub levels: Vec<u64>,
    /// Moves generated (successor configurations, new or not).
    pub generated: u64,
    /// The goal's distance and the path to it, when found.
    pub found: Option<Found>,
}

/// The goal was reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub distance: u32,
    /// The distance of `path[0]`: 0 when the whole path survived in memory.
    pub first_level: u32,
    /// Keys from level `first_level` to the goal.
    pub path: Vec<Vec<u64>>,
}

/// A test of new configurations (by key): `true` ends the search.
pub type StopTest<'a> = &'a mut dyn FnMut(&[u64]) -> bool;

/// Where a search ends.
pub enum Goal<'a> {
    /// Nowhere: everything reachable is explored.
    Everything,
    /// At this configuration.
    Key(&'a [u64]),
    /// At the first new configuration this accepts (given its key).
    Test(StopTest<'a>),
}

/// One search from `start` to `goal`. When the observer returns `Break`, the search ends at
/// once with what it has (`found` is `None`).
pub fn search<'a>(
    geometry: &Geometry,
    start: &[u64],
    goal: Goal<'a>,
    style: Style,
    limit: u64,
    observer: &'a mut dyn FnMut(Event) -> ControlFlow<()>,
) -> Result<Report, MemoryLimit> {
    match geometry.words {
        1 => Search::<1>::run(geometry, start, goal, style, limit, observer),
        2 => Search::<2>::run(geometry, start, goal, style, limit, observer),
        3 | 4 => Search::<4>::run(geometry, start, goal, style, limit, observer),
        5..=8 => Search::<8>::run(geometry, start, goal, style, limit, observer),
        _ => Search::<16>::run(geometry, start, goal, style, limit, observer),
    }
}

/// Moves offered together (see [`Search::touch`]).
const BATCH: usize = 64;

/// A move waiting in a batch: the successor's key and hash, the number of the configuration
/// it was made from, and how many moves had been generated with it (the count reported when
/// it is the goal).
struct Pending<const W: usize> {
    key: [u64; W],
    hash: u64,
    parent: u64,
    serial: u64,
}

/// Live configurations from which the table and the live levels outgrow the caches, so that
/// [`Search::touch`] pays: below, everything is at hand and touching only doubles the work.
const TOUCH_FROM: u64 = 1 << 17;

/// The configurations of one level, in the order found, each with its *link*: the index (in
/// the level before) of its predecessor, the configuration that found it first. Links never
/// decrease, as configurations are found in their predecessors' order, so each is kept as its
/// step from the one before, in a byte (steps of [`FAR`] or more go to `far`).
struct Level<const W: usize> {
    chunks: Vec<Vec<[u64; W]>>,
    /// The steps of the links, in chunks beside those of the keys.
    steps: Vec<Vec<u8>>,
    far: Vec<u64>,
    /// The link of the last configuration.
    last_link: u64,
    len: usize,
}

/// A step byte that stands for the next entry of `Level::far`.
const FAR: u8 = u8::MAX;

impl<const W: usize> Level<W> {
    /// Bytes per configuration: its key and its step.
    const ENTRY: u64 = (W * 8 + 1) as u64;

    /// Entries per chunk (after the first chunk, which grows up to this size): 2^13, and at
    /// least 128 KB (2^14 one-word keys). From 128 KB (its mmap threshold) glibc usually maps
    /// an allocation on its own instead of carving it from the heap, so the chunks do not
    /// fill the holes the table's rebuilds leave, and the holes merge and serve the next,
    /// larger parts (p18: 1.4 MB less peak memory than with 64 KB chunks).
    const CHUNK_BITS: u32 = if W == 1 { 14 } else { 13 };
    const CHUNK: usize = 1 << Self::CHUNK_BITS;

    fn new() -> Self {
        Level {
            chunks: Vec::new(),
            steps: Vec::new(),
            far: Vec::new(),
            last_link: 0,
            len: 0,
        }
    }

    fn bytes(&self) -> u64 {
        let chunks: u64 = self.chunks.iter().map(|c| c.capacity() as u64).sum();
        chunks * Self::ENTRY + self.far.capacity() as u64 * 8
    }

    #[inline]
    fn get(&self, index: usize) -> &[u64; W] {
        &self.chunks[index >> Self::CHUNK_BITS][index & (Self::CHUNK - 1)]
    }

    /// Entries the next push allocates (0 when there is room).
    fn growth(&self) -> usize {
        match self.chunks.last() {
            Some(chunk) if chunk.len() < chunk.capacity() => 0,
            Some(chunk) if self.chunks.len() == 1 && chunk.len() < Self::CHUNK => {
                (chunk.len() * 2).min(Self::CHUNK) - chunk.len()
            }
            Some(_) => Self::CHUNK,
            None => 64,
        }
    }

    /// Bytes the push of a configuration linked to `link` allocates.
    fn growth_bytes(&self, link: u64) -> u64 {
        let far = link - self.last_link >= u64::from(FAR) && self.far.len() == self.far.capacity();
        self.growth() as u64 * Self::ENTRY
            + if far {
                self.far.capacity().max(4) as u64 * 8
            } else {
                0
            }
    }

    fn push(&mut self, key: [u64; W], link: u64) {
        let growth = self.growth();
        if growth > 0 {
            match (self.chunks.last_mut(), self.steps.last_mut()) {
                (Some(chunk), Some(steps)) if chunk.len() < Self::CHUNK => {
                    chunk.reserve_exact(growth);
                    steps.reserve_exact(growth);
                }
                _ => {
                    self.chunks.push(Vec::with_capacity(growth));
                    self.steps.push(Vec::with_capacity(growth));
                }
            }
        }
        let step = link - self.last_link;
        if let (Some(chunk), Some(steps)) = (self.chunks.last_mut(), self.steps.last_mut()) {
            chunk.push(key);
            if step < u64::from(FAR) {
                steps.push(step as u8);
            } else {
                steps.push(FAR);
                if self.far.len() == self.far.capacity() {
                    self.far.reserve_exact(self.far.capacity().max(4));
                }
                self.far.push(step);
            }
            self.last_link = link;
            self.len += 1;
        }
    }

    /// The link of configuration `index`.
    fn link(&self, index: usize) -> u64 {
        let mut links = Links::default();
        (0..=index).map(|_| links.next(self)).last().unwrap_or(0)
    }
}

/// Reads the links of a level front to back.
#[derive(Default)]
struct Links {
    index: usize,
    far: usize,
    link: u64,
}

impl Links {
    /// The link of the next configuration.
    #[inline]
    fn next<const W: usize>(&mut self, level: &Level<W>) -> u64 {
        let chunk = self.index >> Level::<W>::CHUNK_BITS;
        let step = level.steps[chunk][self.index & (Level::<W>::CHUNK - 1)];
        self.index += 1;
        self.link += if step == FAR {
            self.far += 1;
            level.far[self.far - 1]
        } else {
            u64::from(step)
        };
        self.link
    }
}

/// The table is split by the top hash bits into this many parts, rebuilt one at a time, so a
/// rebuild never needs room for two whole tables.
const PART_BITS: u32 = 6;
const PARTS: usize = 1 << PART_BITS;
const MIN_PART: usize = 16;

struct Search<'o, const W: usize> {
    levels: Vec<Option<Level<W>>>,
    milestones: Vec<u64>,
    /// The first numbers of the live levels `d − 2`, `d − 1`, `d` (0 for those below 0).
    recent: [u64; 3],
    next_number: u64,
    /// Numbers below this are stale.
    live_base: u64,
    /// The parts of the table.
    parts: Vec<Vec<u32>>,
    /// Occupied slots of each part, stale ones included.
    used: Vec<usize>,
    /// Slot numbers are relative to this.
    table_base: u64,
    number_bits: u32,
    bytes: u64,
    limit: u64,
    distance: u32,
    goal: Option<[u64; W]>,
    test: Option<StopTest<'o>>,
    found_at: Option<u32>,
    /// Moves generated (up to the goal, when it is found).
    generated: u64,
    error: Option<Stop>,
    observer: &'o mut dyn FnMut(Event<'_>) -> ControlFlow<()>,
}

/// Why the search must end now.
enum Stop {
    Memory(MemoryLimit),
    /// The observer returned `Break`.
    Observer,
}

#[inline]
fn hash<const W: usize>(key: &[u64; W]) -> u64 {
    let mut h = 0x243f_6a88_85a3_08d3u64;
    for &w in key {
        h = (h.rotate_left(23) ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    h ^= h >> 32;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^ (h >> 29)
}

/// Asks for the cache line holding `value` without waiting for it (elsewhere than on x86-64,
/// does nothing).
#[inline(always)]
pub(crate) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    safe_arch::prefetch_t0(value);
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

fn to_words<const W: usize>(key: &[u64]) -> [u64; W] {
    let mut words = [0u64; W];
    for (w, &k) in words.iter_mut().zip(key) {
        *w = k;
    }
    words
}

impl<'o, const W: usize> Search<'o, W> {
    fn run(
        geometry: &Geometry,
        start: &[u64],
        goal: Goal<'o>,
        style: Style,
        limit: u64,
        observer: &'o mut dyn FnMut(Event<'_>) -> ControlFlow<()>,
    ) -> Result<Report, MemoryLimit> {
        let (goal, test) = match goal {
            Goal::Everything => (None, None),
            Goal::Key(key) => (Some(to_words(key)), None),
            Goal::Test(test) => (None, Some(test)),
        };
        let mut search = Search::<W> {
            levels: vec![Some(Level::new())],
            milestones: vec![0],
            recent: [0; 3],
            next_number: 0,
            live_base: 0,
            parts: vec![Vec::new(); PARTS],
            used: vec![0; PARTS],
            table_base: 0,
            number_bits: 1,
            bytes: 0,
            limit,
            distance: 0,
            goal,
            test,
            found_at: None,
            generated: 0,
            error: None,
            observer,
        };
        let mut levels = Vec::new();
        // What a search stopped by its observer returns.
        let stopped = |levels: Vec<u64>, generated: u64| {
            Ok(Report {
                levels,
                generated,
                found: None,
            })
        };
        search.rebuild_all()?;
        if (search.observer)(Event::Distance(0)).is_break() {
            return stopped(levels, search.generated);
        }
        let start = to_words::<W>(start);
        search.offer(start, hash(&start), 0);
        match search.error.take() {
            Some(Stop::Memory(error)) => return Err(error),
            Some(Stop::Observer) => return stopped(levels, search.generated),
            None => {}
        }
        let mut state = geometry.empty_state();
        let mut mover = Mover::new();
        let mut batch: Vec<Pending<W>> = Vec::with_capacity(BATCH);
        let paths = style.0 % 3 == 2;
        while search.found_at.is_none() {
            let previous = search.distance as usize;
            let size = search.live(previous).len;
            if size == 0 {
                break;
            }
            levels.push(size as u64);
            let told = (search.observer)(Event::LevelDone {
                distance: search.distance,
                size: size as u64,
                memory: search.bytes,
            });
            if told.is_break() {
                return stopped(levels, search.generated);
            }
            search.distance += 1;
            let d = search.distance as usize;
            if (search.observer)(Event::Distance(search.distance)).is_break() {
                return stopped(levels, search.generated);
            }
            search.milestones.push(search.next_number);
            search.live_base = if d >= 2 { search.milestones[d - 2] } else { 0 };
            search.recent = [
                search.live_base,
                search.milestones[d - 1],
                search.next_number,
            ];
            search.levels.push(Some(Level::new()));
            // Without a goal no path is read back: the levels that are no longer live go.
            if search.goal.is_none() && search.test.is_none() && d >= 3 {
                if let Some(level) = search.levels[d - 3].take() {
                    search.bytes -= level.bytes();
                }
            }
            let source_base = search.milestones[d - 1];
            let level_start = search.next_number;
            let mut links = Links::default();
            for index in 0..size {
                let key = *search.live(previous).get(index);
                let parent = source_base + index as u64;
                // The predecessor of `key`: the move back to it is known to be old, unprobed.
                let back = match previous {
                    0 => None,
                    _ => {
                        let link = links.next(search.live(previous)) as usize;
                        Some(*search.live(previous - 1).get(link))
                    }
                };
                mover.successor_keys(geometry, &mut state, &key, style, |next| {
                    let key = *next;
                    search.generated += 1;
                    let old = Some(key) == back;
                    if paths {
                        if old {
                            return Next::Prune;
                        }
                        // Along paths the next step depends on this one's answer: offered
                        // at once, and not looked beyond when it is older than level `d`.
                        let number = search.offer(key, hash(&key), parent);
                        if search.found_at.is_some() || search.error.is_some() {
                            return Next::Stop;
                        }
                        return if number >= level_start {
                            Next::Explore
                        } else {
                            Next::Prune
                        };
                    }
                    if !old {
                        batch.push(Pending {
                            key,
                            hash: hash(&key),
                            parent,
                            serial: search.generated,
                        });
                        if batch.len() == BATCH {
                            search.offer_batch(&mut batch);
                        }
                    }
                    if search.found_at.is_none() && search.error.is_none() {
                        Next::Explore
                    } else {
                        Next::Stop
                    }
                });
                if search.found_at.is_some() || search.error.is_some() {
                    break;
                }
            }
            // The batch runs on from one configuration to the next: the rest of the level.
            search.offer_batch(&mut batch);
            match search.error.take() {
                Some(Stop::Memory(error)) => return Err(error),
                Some(Stop::Observer) => return stopped(levels, search.generated),
                None => {}
            }
        }
        let found = search.found_at.map(|distance| search.path_back(distance));
        Ok(Report {
            levels,
            generated: search.generated,
            found,
        })
    }

    /// A live level (`d − 2` to `d`): never forgotten.
    fn live(&self, d: usize) -> &Level<W> {
        self.levels[d].as_ref().expect("live levels are kept")
    }

    /// The key of live configuration `number`.
    #[inline]
    fn key_of(&self, number: u64) -> &[u64; W] {
        // How many levels back from `d` it lies: 0, 1 or 2.
        let back = usize::from(number < self.recent[2]) + usize::from(number < self.recent[1]);
        let first = self.recent[(2 - back) % 3];
        self.live(self.distance as usize - back)
            .get((number - first) as usize)
    }

    /// The part of the table and the slot in it where a hash starts probing.
    #[inline]
    fn home(&self, h: u64) -> (usize, usize) {
        let high = (h >> 32) as u32;
        let part = (high >> (32 - PART_BITS)) as usize;
        let len = self.parts[part].len() as u64;
        (part, ((u64::from(high << PART_BITS) * len) >> 32) as usize)
    }

    /// Offers a batch of moves in order (stopping at the goal or an error) and empties it.
    fn offer_batch(&mut self, batch: &mut Vec<Pending<W>>) {
        if self.next_number - self.live_base >= TOUCH_FROM {
            self.touch(batch);
        }
        for pending in batch.iter() {
            if self.found_at.is_some() || self.error.is_some() {
                break;
            }
            self.offer(pending.key, pending.hash, pending.parent);
            if self.found_at.is_some() {
                self.generated = pending.serial;
            }
        }
        batch.clear();
    }

    /// Asks for the first slot of every move of a batch, then for the key each slot may name
    /// (reading the slots, which have been arriving meanwhile), without waiting for the keys:
    /// the cache misses of the whole batch overlap before [`Search::offer`] needs them. (The
    /// slots read as loads instead of prefetches, the key misses wait on one another: the 3x4
    /// three-alike enumeration takes 1.15 times as long.)
    #[inline]
    fn touch(&self, batch: &[Pending<W>]) {
        let number_mask = (1u32 << self.number_bits) - 1;
        let stale_below = self.stale_below();
        for pending in batch {
            let (part, i) = self.home(pending.hash);
            prefetch(&self.parts[part][i]);
        }
        for pending in batch {
            let h = pending.hash;
            let (part, i) = self.home(h);
            let slot = self.parts[part][i];
            let n = slot & number_mask;
            if n >= stale_below && (slot ^ h as u32) & !number_mask == 0 {
                prefetch(self.key_of(self.table_base + u64::from(n) - 1));
            }
        }
    }

    /// Slot numbers below this one name stale configurations (and 0 a free slot): a slot
    /// holds `number − table_base + 1`, and `table_base ≤ live_base` within `number_bits`.
    #[inline]
    fn stale_below(&self) -> u32 {
        (self.live_base - self.table_base + 1) as u32
    }

    /// The newness test and insertion of one generated configuration with hash `h`: its
    /// number, old or new (meaningless when the insertion failed with an error).
    #[inline(always)]
    fn offer(&mut self, key: [u64; W], h: u64, parent: u64) -> u64 {
        let number_mask = (1u32 << self.number_bits) - 1;
        let fingerprint = (h as u32) & !number_mask;
        let stale_below = self.stale_below();
        let (part, mut i) = self.home(h);
        let slots = &self.parts[part];
        let len = slots.len();
        // The first stale slot met (else `NONE`), kept without a branch: whether a slot is
        // stale is as good as random.
        const NONE: usize = usize::MAX;
        let mut free = NONE;
        loop {
            let slot = slots[i];
            if slot == 0 {
                break;
            }
            let n = slot & number_mask;
            let take = (free == NONE) & (n < stale_below);
            free = if take { i } else { free };
            // Live with our fingerprint, in one comparison: `slot ^ fingerprint` is `n` just
            // when the fingerprints agree, and more than `number_mask` otherwise.
            if (slot ^ fingerprint).wrapping_sub(stale_below) <= number_mask - stale_below {
                let number = self.table_base + u64::from(n) - 1;
                if *self.key_of(number) == key {
                    return number;
                }
            }
            i += 1;
            if i == len {
                i = 0;
            }
        }
        // The configuration is new: it goes in the stale slot met first, else in the empty
        // one that ended the probe.
        let at = if free == NONE { i } else { free };
        self.insert(key, fingerprint, part, at, free == NONE, parent)
    }

    /// Inserts a new configuration into slot `at` of table part `part` (a free slot when
    /// `fresh`, else a stale one): its number. Out of line: most offers find an old
    /// configuration, and only the probe is inlined into the callers of [`Search::offer`].
    #[inline(never)]
    fn insert(
        &mut self,
        key: [u64; W],
        fingerprint: u32,
        part: usize,
        at: usize,
        fresh: bool,
        parent: u64,
    ) -> u64 {
        let number_mask = (1u32 << self.number_bits) - 1;
        let len = self.parts[part].len();
        let number = self.next_number;
        let d = self.distance as usize;
        if !self.append(d, key, parent - self.recent[1]) {
            return number;
        }
        self.next_number += 1;
        let slot = fingerprint | ((number - self.table_base + 1) as u32);
        self.used[part] += usize::from(fresh);
        self.parts[part][at] = slot;
        let told = (self.observer)(Event::New {
            number,
            parent,
            key: &key,
        });
        if told.is_break() {
            self.error = Some(Stop::Observer);
            return number;
        }
        if self.goal == Some(key) || self.test.as_mut().is_some_and(|test| test(&key)) {
            self.found_at = Some(self.distance);
            if (self.observer)(Event::Goal).is_break() {
                self.error = Some(Stop::Observer);
            }
            return number;
        }
        let result = if self.next_number - self.table_base + 1 >= u64::from(number_mask) {
            self.rebuild_all()
        } else if self.used[part] * 20 > len * 17 {
            self.rebuild_part(part, self.table_base, self.number_bits)
        } else {
            Ok(())
        };
        if let Err(error) = result {
            self.error = Some(Stop::Memory(error));
        }
        number
    }

    /// Appends to level `d` (linked to configuration `link` of the level before) within the
    /// budget; false (with `error` set) when it cannot.
    fn append(&mut self, d: usize, key: [u64; W], link: u64) -> bool {
        let growth = self.live(d).growth_bytes(link);
        if growth > 0 && !self.make_room(growth) {
            self.error = Some(Stop::Memory(self.limit_error()));
            return false;
        }
        if let Some(level) = self.levels[d].as_mut() {
            level.push(key, link);
        }
        self.bytes += growth;
        true
    }

    fn limit_error(&self) -> MemoryLimit {
        MemoryLimit {
            limit: self.limit,
            distance: self.distance,
            kept: self.next_number - self.live_base,
        }
    }

    /// Forgets old levels until `extra` more bytes fit; false if they cannot.
    fn make_room(&mut self, extra: u64) -> bool {
        let d = self.distance as usize;
        let mut oldest = 0;
        while self.bytes + extra > self.limit {
            while oldest + 2 < d && self.levels[oldest].is_none() {
                oldest += 1;
            }
            if oldest + 2 >= d {
                return false;
            }
            if let Some(level) = self.levels[oldest].take() {
                self.bytes -= level.bytes();
            }
        }
        true
    }

    /// Rebuilds every part, renumbering the slots from the oldest live configuration with
    /// enough number bits for twice the live configurations (plus some) to come.
    fn rebuild_all(&mut self) -> Result<(), MemoryLimit> {
        let (old_base, old_bits) = (self.table_base, self.number_bits);
        let live = self.next_number - self.live_base;
        let room = 2 * live + (1 << 22);
        self.number_bits = (u64::BITS - room.leading_zeros()).min(31);
        if live + 2 >= 1 << self.number_bits {
            return Err(self.limit_error());
        }
        self.table_base = self.live_base;
        for part in 0..PARTS {
            self.rebuild_part(part, old_base, old_bits)?;
        }
        Ok(())
    }

    /// Rebuilds one part of the table, dropping stale numbers, with room for twice its live
    /// entries; its slots were encoded with `old_base` and `old_bits`.
    fn rebuild_part(
        &mut self,
        part: usize,
        old_base: u64,
        old_bits: u32,
    ) -> Result<(), MemoryLimit> {
        let old_mask = (1u32 << old_bits) - 1;
        // A slot holds `number − old_base + 1`: live from this value on (0, a free slot, never).
        let live_from = (self.live_base + 1 - old_base) as u32;
        let live = self.parts[part]
            .iter()
            .filter(|&&s| s & old_mask >= live_from)
            .count();
        let capacity = (live * 2).max(MIN_PART);
        if !self.make_room(capacity as u64 * 4) {
            return Err(self.limit_error());
        }
        let mut old = std::mem::replace(&mut self.parts[part], vec![0u32; capacity]);
        self.bytes += capacity as u64 * 4;
        // The live entries to the front, without a branch per slot (whether a slot is live is
        // as good as random).
        let mut kept = 0;
        for i in 0..old.len() {
            let entry = old[i] & old_mask;
            old[kept] = entry;
            kept += usize::from(entry >= live_from);
        }
        // In number order, the keys are read front to back through the levels instead of
        // at random: most of a rebuild's cache misses go.
        old[..kept].sort_unstable();
        let number_mask = (1u32 << self.number_bits) - 1;
        self.used[part] = 0;
        // A batch of keys is hashed before any of them is inserted, and the keys of the next
        // batch are asked for meanwhile, so that their cache misses overlap.
        let mut hashes = [0u64; BATCH];
        for (b, batch) in old[..kept].chunks(BATCH).enumerate() {
            for &entry in old[..kept].iter().skip((b + 1) * BATCH).take(BATCH) {
                prefetch(self.key_of(old_base + u64::from(entry) - 1));
            }
            for (h, &entry) in hashes.iter_mut().zip(batch) {
                *h = hash(self.key_of(old_base + u64::from(entry) - 1));
            }
            for (&h, &entry) in hashes.iter().zip(batch) {
                let number = old_base + u64::from(entry) - 1;
                let (_, mut i) = self.home(h);
                let slots = &mut self.parts[part];
                while slots[i] != 0 {
                    i += 1;
                    if i == capacity {
                        i = 0;
                    }
                }
                slots[i] = ((h as u32) & !number_mask) | ((number - self.table_base + 1) as u32);
                self.used[part] += 1;
            }
        }
        self.bytes -= old.len() as u64 * 4;
        Ok(())
    }

    /// The keys from the oldest surviving level up to the goal, the last configuration found,
    /// following the links.
    fn path_back(&self, distance: u32) -> Found {
        let mut d = distance as usize;
        let goal_level = self.live(d);
        let mut index = goal_level.len - 1;
        let mut path = vec![goal_level.get(index).to_vec()];
        while d > 0 {
            let (Some(level), Some(before)) =
                (self.levels[d].as_ref(), self.levels[d - 1].as_ref())
            else {
                break;
            };
            index = level.link(index) as usize;
            path.push(before.get(index).to_vec());
            d -= 1;
        }
        path.reverse();
        Found {
            distance,
            first_level: d as u32,
            path,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every link reads back, front to back and one at a time, across chunks and through
    /// steps too long for a byte; and the memory each push was said to take is what it took.
    #[test]
    fn links_read_back_across_chunks_and_long_steps() {
        let mut level = Level::<1>::new();
        let (mut links, mut link, mut said) = (Vec::new(), 0u64, 0u64);
        for i in 0..40_000u64 {
            link += [0, 1, 254, 255, 256, 100_000][(i * 7 % 6) as usize];
            said += level.growth_bytes(link);
            level.push([i], link);
            links.push(link);
        }
        assert!(level.far.len() > 10_000, "{}", level.far.len());
        assert!(level.chunks.len() > 2);
        assert_eq!(said, level.bytes());
        let mut reader = Links::default();
        for (i, &link) in links.iter().enumerate() {
            assert_eq!(reader.next(&level), link, "link {i}");
            assert_eq!(*level.get(i), [i as u64]);
        }
        for i in [0, 1, 16_383, 16_384, 39_999] {
            assert_eq!(level.link(i), links[i], "link {i}");
        }
    }
}
