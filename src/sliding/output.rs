//! SLIDING's output format (sections 12, 32–40 of the seed).
//!
//! A board is drawn two lines per row: a line of ` |` joints between vertically adjacent cells
//! of one block (blanks elsewhere), then the cells, ` k` for a cell of kind `k` (`-k` when it
//! joins the block on its left), ` 0` for an empty cell and two blanks for a dead one. The
//! search prints `*** Distance d:` as it starts each distance, the first new configuration of
//! the distance in packed hex and ` and N more.` when it completes (every configuration, with
//! its number and its predecessor's, when verbose), and `... Solution!` when the stop appears.

use super::bfs::Event;
use super::pack::{Geometry, State, WALL};
use std::io::Write;

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

/// The picture of a packed configuration.
pub fn picture_of_key(geometry: &Geometry, key: &[u64]) -> String {
    let mut state = geometry.empty_state();
    state.unpack(geometry, key);
    picture(geometry, &state)
}

/// Prints the search's progress in the seed's words, flushing as each distance completes.
pub struct Progress<'g, W: Write> {
    geometry: &'g Geometry,
    verbose: bool,
    first_of_level: bool,
    /// A configuration was printed without its line end yet.
    open_line: bool,
    out: W,
}

impl<'g, W: Write> Progress<'g, W> {
    pub fn new(geometry: &'g Geometry, verbose: bool, out: W) -> Self {
        Progress {
            geometry,
            verbose,
            first_of_level: true,
            open_line: false,
            out,
        }
    }

    /// Ends a line left open by the first configuration of an unfinished distance (before an
    /// error message).
    pub fn close_line(&mut self) {
        if std::mem::take(&mut self.open_line) {
            let _ = writeln!(self.out);
        }
        let _ = self.out.flush();
    }

    /// Handles one event. Write errors (a closed pipe) are ignored here, as in the seed.
    pub fn event(&mut self, event: Event) {
        let _ = self.write(event);
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
            Event::LevelDone { distance, size } => {
                self.open_line = false;
                if !self.verbose {
                    if distance == 0 {
                        writeln!(self.out, ".")?;
                    } else {
                        writeln!(self.out, " and {} more.", size - 1)?;
                    }
                }
                self.out.flush()?;
            }
            Event::Goal => {}
        }
        Ok(())
    }
}
