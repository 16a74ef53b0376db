//! SLIDING's output format (sections 12, 32–40 of the seed).
//!
//! A board is drawn two lines per row: a line of ` |` joints between vertically adjacent cells
//! of one block (blanks elsewhere), then the cells, ` k` for a cell of kind `k` (`-k` when it
//! joins the block on its left), ` 0` for an empty cell and two blanks for a dead one. The
//! search prints `*** Distance d:` as it starts each distance, the first new configuration of
//! the distance in packed hex and ` and N more.` when it completes (every configuration, with
//! its number and its predecessor's, when verbose), and `... Solution!` when the stop appears.

use super::bfs::Event;
use super::pack::{Block, Geometry, State, WALL};
use super::spec::Layout;
use std::io::Write;
use std::time::{Duration, Instant};

/// For this long from its start, a run's output may wait in the buffer: a run that ends sooner
/// makes one `write` at the end instead of one per line.
const QUIET_START: Duration = Duration::from_millis(20);

/// A distance with this many configurations is flushed even in the quiet start: the next
/// distance, whose work grows with it, may take a while. Below it the next distance takes
/// a few milliseconds at most, so waiting output is never held back for long.
const BIG_LEVEL: u64 = 1 << 12;

/// The seed's two-lines-per-row picture of a configuration.
pub fn picture(geometry: &Geometry, state: &State) -> String {
    let at = |r: isize, c: isize| -> u16 {
        if r < 0 || c < 0 {
            return WALL;
        }
        let index = (r as usize + 1) * geometry.stride + c as usize;
        state.cells.get(index).copied().unwrap_or(WALL)
    };
    let joined = |v: u16, w: u16| v == w && v != 0 && v != WALL;
    let mut text = String::new();
    for r in 0..geometry.rows as isize {
        for c in 0..geometry.cols as isize {
            text.push_str(if joined(at(r, c), at(r - 1, c)) {
                " |"
            } else {
                "  "
            });
        }
        text.push('\n');
        for c in 0..geometry.cols as isize {
            let v = at(r, c);
            if v == WALL {
                text.push_str("  ");
                continue;
            }
            text.push(if joined(v, at(r, c - 1)) { '-' } else { ' ' });
            let kind = if v == 0 {
                0
            } else {
                state.blocks[usize::from(v - 1)].kind
            };
            text.push(char::from_digit(u32::from(kind), 16).unwrap_or('?'));
        }
        text.push('\n');
    }
    text
}

/// The picture of a stopping configuration: `?` on the cells that do not matter.
pub fn picture_of_stop(geometry: &Geometry, stop: &Layout) -> String {
    // Not by packing: a partial stop has fewer blocks than a configuration.
    let mut state = geometry.empty_state();
    for (b, placed) in stop.blocks.iter().enumerate() {
        state.blocks.push(Block {
            kind: placed.kind,
            anchor: geometry.pad(placed.anchor),
        });
        state.put_block(geometry, b as u16);
    }
    picture(geometry, &state)
        .lines()
        .enumerate()
        .map(|(i, line)| {
            let mut line = line.as_bytes().to_vec();
            if i % 2 == 1 {
                let row = i / 2;
                for col in 0..geometry.cols {
                    if stop.any.get(row * geometry.cols + col) == Some(&true) {
                        if let Some(c) = line.get_mut(2 * col + 1) {
                            *c = b'?';
                        }
                    }
                }
            }
            String::from_utf8_lossy(&line).into_owned() + "\n"
        })
        .collect()
}

/// The picture of a packed configuration.
pub fn picture_of_key(geometry: &Geometry, key: &[u64]) -> String {
    let mut state = geometry.empty_state();
    state.unpack(geometry, key);
    picture(geometry, &state)
}

/// Prints the search's progress in the seed's words. `out` should be buffered: what was
/// written is flushed as each distance completes, except for small distances in the first
/// [`QUIET_START`] of the run, so long runs show their progress line by line.
pub struct Progress<'g, W: Write> {
    geometry: &'g Geometry,
    verbose: bool,
    first_of_level: bool,
    /// A configuration was printed without its line end yet.
    open_line: bool,
    started: Instant,
    out: W,
}

impl<'g, W: Write> Progress<'g, W> {
    pub fn new(geometry: &'g Geometry, verbose: bool, out: W) -> Self {
        Progress {
            geometry,
            verbose,
            first_of_level: true,
            open_line: false,
            started: Instant::now(),
            out,
        }
    }

    /// Ends a line left open by the first configuration of an unfinished distance (before an
    /// error message) and flushes.
    pub fn close_line(&mut self) -> std::io::Result<()> {
        if std::mem::take(&mut self.open_line) {
            writeln!(self.out)?;
        }
        self.out.flush()
    }

    /// Handles one event. A write error (a closed pipe, a full disk) is returned, so that the
    /// caller can stop the search whose output is gone.
    pub fn event(&mut self, event: Event) -> std::io::Result<()> {
        self.write(event)
    }

    fn write(&mut self, event: Event) -> std::io::Result<()> {
        match event {
            Event::Distance(d) => {
                writeln!(self.out, "*** Distance {d}:")?;
                self.first_of_level = true;
            }
            Event::New {
                number,
                parent,
                key,
            } => {
                if self.verbose {
                    let hex = self.geometry.key_hex(key);
                    writeln!(self.out, "{hex} ({number}=#{number:x}, from #{parent:x})")?;
                } else if self.first_of_level {
                    write!(self.out, "{}", self.geometry.key_hex(key))?;
                    self.open_line = true;
                }
                self.first_of_level = false;
            }
            Event::LevelDone { distance, size, .. } => {
                self.open_line = false;
                if !self.verbose {
                    if distance == 0 {
                        writeln!(self.out, ".")?;
                    } else {
                        writeln!(self.out, " and {} more.", size - 1)?;
                    }
                }
                if size >= BIG_LEVEL || self.started.elapsed() >= QUIET_START {
                    self.out.flush()?;
                }
            }
            Event::Goal => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sliding::Puzzle;

    /// A writer that tells how much of what it was given has been flushed.
    #[derive(Default)]
    struct Recorder {
        written: Vec<u8>,
        flushed: usize,
    }

    impl Write for Recorder {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.written.extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            self.flushed = self.written.len();
            Ok(())
        }
    }

    /// A writer whose reader has gone away.
    struct Closed;

    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
    }

    #[test]
    fn write_errors_are_returned() {
        let puzzle = Puzzle::parse(b"2 x 2 tiny\n1 = 1\n1\n0001\n").expect("valid");
        let geometry = Geometry::new(&puzzle);
        let key = geometry.key_of(&puzzle.start);
        for verbose in [false, true] {
            let mut progress = Progress::new(&geometry, verbose, Closed);
            let new = Event::New {
                number: 0,
                parent: 0,
                key: &key,
            };
            let error = progress.event(new).expect_err("nothing can be written");
            assert_eq!(error.kind(), std::io::ErrorKind::BrokenPipe);
            let error = progress.close_line().expect_err("nor flushed");
            assert_eq!(error.kind(), std::io::ErrorKind::BrokenPipe);
        }
    }

    fn level(progress: &mut Progress<'_, &mut Recorder>, key: &[u64], distance: u32, size: u64) {
        let events = [
            Event::Distance(distance),
            Event::New {
                number: 0,
                parent: 0,
                key,
            },
            Event::LevelDone {
                distance,
                size,
                memory: 0,
            },
        ];
        for event in events {
            progress.event(event).expect("a recorder takes everything");
        }
    }

    #[test]
    fn small_distances_wait_only_in_the_quiet_start() {
        let puzzle = Puzzle::parse(b"2 x 2 tiny\n1 = 1\n1\n0001\n").expect("valid");
        let geometry = Geometry::new(&puzzle);
        let key = geometry.key_of(&puzzle.start);
        let mut recorder = Recorder::default();
        let mut progress = Progress::new(&geometry, false, &mut recorder);
        // Started "in an hour": the quiet start lasts however slowly the test runs.
        progress.started = Instant::now() + Duration::from_secs(3600);
        level(&mut progress, &key, 0, 1);
        level(&mut progress, &key, 1, BIG_LEVEL - 1);
        assert_eq!(progress.out.flushed, 0, "small distances wait at first");
        level(&mut progress, &key, 2, BIG_LEVEL);
        let everything = progress.out.written.len();
        assert_eq!(
            progress.out.flushed, everything,
            "a big distance is shown at once"
        );
        level(&mut progress, &key, 3, 1);
        assert_eq!(progress.out.flushed, everything);
        progress.started = Instant::now()
            .checked_sub(QUIET_START)
            .expect("the clock has run for the quiet start");
        level(&mut progress, &key, 4, 1);
        assert_eq!(
            progress.out.flushed,
            progress.out.written.len(),
            "after the quiet start every distance is shown as it completes"
        );
        let text = String::from_utf8(progress.out.written.clone()).expect("ASCII");
        assert_eq!(text.lines().count(), 10);
        assert!(text.starts_with("*** Distance 0:\n1.\n*** Distance 1:\n1 and 4094 more.\n"));
        progress.event(Event::Distance(5)).expect("recorded");
        progress
            .event(Event::New {
                number: 0,
                parent: 0,
                key: &key,
            })
            .expect("recorded");
        progress.close_line().expect("recorded");
        assert!(progress.out.written.ends_with(b"*** Distance 5:\n1\n"));
        assert_eq!(progress.out.flushed, progress.out.written.len());
    }
}
