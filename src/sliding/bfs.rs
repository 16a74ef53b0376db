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
//! Every level keeps its packed configurations and, per configuration, the index of its
//! predecessor in the level before, so the path to the goal is read backwards. Older levels are
//! kept while the memory budget allows and forgotten, oldest first, when it does not; if the
//! way back then stops at a forgotten level `f`, the caller searches again from the start with
//! the configuration reached at level `f` as the goal — the seed's waypoint restart. When even
//! the three live levels and the table do not fit, the search stops with a [`MemoryLimit`].
//!
//! Invariants: `table` holds exactly the live configurations (plus stale numbers); every level
//! `< d − 2` may be forgotten, never a live one; the memory counted in `bytes` is the capacity
//! of every kept vector plus the table, and never exceeds `limit`.

use super::moves::Mover;
use super::pack::Geometry;
use super::Style;

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
    /// Distance `d` is complete with `size` configurations.
    LevelDone { distance: u32, size: u64 },
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
        if bytes >= unit && bytes % unit == 0 {
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

/// One search from `start` to `goal` (or over everything reachable when `goal` is `None`).
pub fn search(
    geometry: &Geometry,
    start: &[u64],
    goal: Option<&[u64]>,
    style: Style,
    limit: u64,
    observer: &mut dyn FnMut(Event),
) -> Result<Report, MemoryLimit> {
    match geometry.words {
        1 => Search::<1>::run(geometry, start, goal, style, limit, observer),
        2 => Search::<2>::run(geometry, start, goal, style, limit, observer),
        3 | 4 => Search::<4>::run(geometry, start, goal, style, limit, observer),
        5..=8 => Search::<8>::run(geometry, start, goal, style, limit, observer),
        _ => Search::<16>::run(geometry, start, goal, style, limit, observer),
    }
}

struct Level<const W: usize> {
    keys: Vec<[u64; W]>,
    parents: Vec<u32>,
}

impl<const W: usize> Level<W> {
    const ENTRY: u64 = (W * 8 + 4) as u64;

    fn new() -> Self {
        Level {
            keys: Vec::new(),
            parents: Vec::new(),
        }
    }

    fn bytes(&self) -> u64 {
        self.keys.capacity() as u64 * (W as u64 * 8) + self.parents.capacity() as u64 * 4
    }
}

const ID_BITS: u32 = 40;
const ID_MASK: u64 = (1 << ID_BITS) - 1;
const MIN_TABLE: usize = 1 << 10;

struct Search<'o, const W: usize> {
    levels: Vec<Option<Level<W>>>,
    milestones: Vec<u64>,
    next_number: u64,
    /// Numbers below this are stale.
    live_base: u64,
    table: Vec<u64>,
    /// Occupied slots, stale ones included.
    used: usize,
    shift: u32,
    bytes: u64,
    limit: u64,
    distance: u32,
    goal: Option<[u64; W]>,
    found_at: Option<u32>,
    error: Option<MemoryLimit>,
    observer: &'o mut dyn FnMut(Event),
}

#[inline]
fn hash<const W: usize>(key: &[u64; W]) -> u64 {
    let mut h = 0x243f_6a88_85a3_08d3u64;
    for &w in key {
        h = (h.rotate_left(23) ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^ (h >> 33)
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
        goal: Option<&[u64]>,
        style: Style,
        limit: u64,
        observer: &'o mut dyn FnMut(Event),
    ) -> Result<Report, MemoryLimit> {
        let mut search = Search::<W> {
            levels: Vec::new(),
            milestones: vec![0],
            next_number: 0,
            live_base: 0,
            table: Vec::new(),
            used: 0,
            shift: 0,
            bytes: 0,
            limit,
            distance: 0,
            goal: goal.map(to_words),
            found_at: None,
            error: None,
            observer,
        };
        search.resize_table(MIN_TABLE)?;
        search.levels.push(Some(Level::new()));
        (search.observer)(Event::Distance(0));
        search.offer(to_words(start), 0);
        if let Some(error) = search.error.take() {
            return Err(error);
        }
        let mut levels = Vec::new();
        let mut generated = 0u64;
        let mut state = geometry.empty_state();
        let mut mover = Mover::new(geometry);
        while search.found_at.is_none() {
            let previous = search.distance as usize;
            let size = search.level(previous).keys.len();
            if size == 0 {
                break;
            }
            levels.push(size as u64);
            (search.observer)(Event::LevelDone {
                distance: search.distance,
                size: size as u64,
            });
            search.distance += 1;
            let d = search.distance as usize;
            (search.observer)(Event::Distance(search.distance));
            search.milestones.push(search.next_number);
            search.live_base = if d >= 2 { search.milestones[d - 2] } else { 0 };
            search.levels.push(Some(Level::new()));
            for index in 0..size {
                let key = search.level(previous).keys[index];
                state.unpack(geometry, &key);
                mover.successors(geometry, &mut state, style, |after, _, _| {
                    if search.found_at.is_some() || search.error.is_some() {
                        return;
                    }
                    generated += 1;
                    search.offer(after.pack::<W>(geometry), index as u32);
                });
                if let Some(error) = search.error.take() {
                    return Err(error);
                }
                if search.found_at.is_some() {
                    break;
                }
            }
        }
        let found = search.found_at.map(|distance| search.path_back(distance));
        Ok(Report {
            levels,
            generated,
            found,
        })
    }

    fn level(&self, d: usize) -> &Level<W> {
        // Live levels are never forgotten.
        self.levels[d].as_ref().expect("live level kept")
    }

    #[inline]
    fn key_of(&self, number: u64) -> &[u64; W] {
        let d = self.distance as usize;
        let level = if number >= self.milestones[d] {
            d
        } else if number >= self.milestones[d - 1] {
            d - 1
        } else {
            d - 2
        };
        let index = (number - self.milestones[level]) as usize;
        &self.level(level).keys[index]
    }

    /// The newness test and insertion of one generated configuration.
    #[inline]
    fn offer(&mut self, key: [u64; W], parent: u32) {
        let h = hash(&key);
        let fingerprint = (h & 0xff_ffff) << ID_BITS;
        let mask = self.table.len() - 1;
        let mut i = (h >> self.shift) as usize;
        let mut free = None;
        loop {
            let slot = self.table[i];
            if slot == 0 {
                break;
            }
            let number = (slot & ID_MASK) - 1;
            if number < self.live_base {
                free.get_or_insert(i);
            } else if slot & !ID_MASK == fingerprint && *self.key_of(number) == key {
                return;
            }
            i = (i + 1) & mask;
        }
        let number = self.next_number;
        let d = self.distance as usize;
        if self.push(d, key, parent).is_err() {
            return;
        }
        self.next_number += 1;
        match free {
            Some(slot) => self.table[slot] = fingerprint | (number + 1),
            None => {
                self.table[i] = fingerprint | (number + 1);
                self.used += 1;
            }
        }
        let parent_number = if d == 0 {
            0
        } else {
            self.milestones[d - 1] + u64::from(parent)
        };
        (self.observer)(Event::New {
            number,
            parent: parent_number,
            key: &key,
        });
        if self.goal == Some(key) {
            self.found_at = Some(self.distance);
            (self.observer)(Event::Goal);
            return;
        }
        if self.used * 5 > self.table.len() * 3 {
            let live = (self.next_number - self.live_base) as usize;
            let capacity = if live * 10 > self.table.len() * 3 {
                self.table.len() * 2
            } else {
                self.table.len()
            };
            if let Err(error) = self.resize_table(capacity) {
                self.error = Some(error);
            }
        }
    }

    /// Appends to level `d`, growing its vectors within the budget.
    fn push(&mut self, d: usize, key: [u64; W], parent: u32) -> Result<(), ()> {
        let (len, capacity) = {
            let level = self.level(d);
            (level.keys.len(), level.keys.capacity())
        };
        if len == capacity {
            let wanted = (capacity / 2).max(1024) as u64;
            let extra = match self.make_room(wanted * Level::<W>::ENTRY) {
                Ok(()) => wanted,
                Err(room) if room >= Level::<W>::ENTRY => room / Level::<W>::ENTRY,
                Err(_) => {
                    self.error = Some(self.limit_error());
                    return Err(());
                }
            };
            if len + extra as usize > u32::MAX as usize {
                self.error = Some(self.limit_error());
                return Err(());
            }
            let Some(level) = self.levels[d].as_mut() else {
                return Err(());
            };
            let before = level.bytes();
            level.keys.reserve_exact(extra as usize);
            level.parents.reserve_exact(extra as usize);
            let after = level.bytes();
            self.bytes = self.bytes - before + after;
        }
        let Some(level) = self.levels[d].as_mut() else {
            return Err(());
        };
        level.keys.push(key);
        level.parents.push(parent);
        Ok(())
    }

    fn limit_error(&self) -> MemoryLimit {
        MemoryLimit {
            limit: self.limit,
            distance: self.distance,
            kept: self.next_number - self.live_base,
        }
    }

    /// Frees old levels until `extra` more bytes fit; on failure returns the room there is.
    fn make_room(&mut self, extra: u64) -> Result<(), u64> {
        let d = self.distance as usize;
        let mut oldest = 0;
        while self.bytes + extra > self.limit {
            while oldest + 2 < d && self.levels[oldest].is_none() {
                oldest += 1;
            }
            if oldest + 2 >= d {
                return Err(self.limit.saturating_sub(self.bytes));
            }
            if let Some(level) = self.levels[oldest].take() {
                self.bytes -= level.bytes();
            }
        }
        Ok(())
    }

    /// Rebuilds the table with `capacity` slots, dropping stale numbers.
    fn resize_table(&mut self, capacity: usize) -> Result<(), MemoryLimit> {
        let new_bytes = capacity as u64 * 8;
        if self.make_room(new_bytes).is_err() {
            return Err(self.limit_error());
        }
        let old = std::mem::replace(&mut self.table, vec![0u64; capacity]);
        self.bytes += new_bytes;
        self.shift = 64 - capacity.trailing_zeros();
        self.used = 0;
        let mask = capacity - 1;
        for slot in old.iter().copied().filter(|&s| s != 0) {
            let number = (slot & ID_MASK) - 1;
            if number < self.live_base {
                continue;
            }
            let mut i = (hash(self.key_of(number)) >> self.shift) as usize;
            while self.table[i] != 0 {
                i = (i + 1) & mask;
            }
            self.table[i] = slot;
            self.used += 1;
        }
        self.bytes -= old.len() as u64 * 8;
        Ok(())
    }

    /// The keys from the oldest surviving level up to the goal, the goal being the last
    /// configuration inserted at `distance`.
    fn path_back(&self, distance: u32) -> Found {
        let mut d = distance as usize;
        let mut index = self.level(d).keys.len() - 1;
        let mut path = vec![self.level(d).keys[index].to_vec()];
        while d > 0 {
            let Some(before) = self.levels[d - 1].as_ref() else {
                break;
            };
            index = self.level(d).parents[index] as usize;
            d -= 1;
            path.push(before.keys[index].to_vec());
        }
        path.reverse();
        Found {
            distance,
            first_level: d as u32,
            path,
        }
    }
}
