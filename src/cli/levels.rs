//! `fifteen levels --size RxC`: every configuration of a tile puzzle, counted by its distance
//! from the start (the tiles in order, the blank in a corner or any cell), in either metric, by
//! the enumerator of [`crate::levels`]. `fifteen sliding --levels` hands it plain tile puzzles
//! ([`exhaust`]).
//!
//! A run prints a line per distance as it completes, then the `Level sizes` and `Total` lines of
//! `sliding --levels` and the farthest configurations. The memory it needs is checked before it
//! starts; with `--checkpoint FILE` its labels are kept on disk at level boundaries, and
//! `--resume` goes on from them after a kill or a Ctrl-C with the same counts.

use super::sliding::parse_size;
use super::Failure;
use crate::levels::{checkpoint, Enumeration, Grid, Level, FEW};
use crate::mtm::Metric;
use crate::sliding::{self, Event, Outcome, Puzzle, Style};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Debug, Args)]
pub struct LevelsArgs {
    /// The board, ROWSxCOLUMNS: at least 2x2, at most 16 cells (2x7, 3x4, 4x3, 2x6, 3x3 …).
    #[arg(long, value_name = "RxC", value_parser = parse_board)]
    pub size: (usize, usize),

    /// How moves are counted: stm, one tile one cell; mtm, a run of tiles along a line.
    #[arg(long, value_enum, default_value_t = Metric::Stm)]
    pub metric: Metric,

    /// The start's blank cell as ROW,COLUMN counted from 1 (default: the bottom-right corner);
    /// the tiles fill the other cells in order.
    #[arg(long, value_name = "ROW,COL", value_parser = parse_cell)]
    pub blank: Option<(usize, usize)>,

    /// Memory budget, e.g. 512M or 16G (default 2G): a board that needs more is refused before
    /// the run starts.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub memory: Option<u64>,

    /// Threads (default: every core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,

    /// Keep a checkpoint in FILE: the labels and level sizes, written at a level boundary
    /// (FILE.part, then renamed), checked when read back.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,

    /// With --checkpoint: write it at the first level boundary this long after the last one
    /// (default 10m; 0 at every level; 90s, 10m, 2h).
    #[arg(long, value_name = "DURATION", value_parser = parse_duration, requires = "checkpoint")]
    pub checkpoint_every: Option<Duration>,

    /// Go on from the checkpoint FILE of --checkpoint (after a kill, a Ctrl-C or --stop-at).
    #[arg(long, requires = "checkpoint")]
    pub resume: bool,

    /// Stop once distance D is complete, after writing the checkpoint (go on with --resume).
    #[arg(long, value_name = "D", requires = "checkpoint")]
    pub stop_at: Option<u32>,

    /// Also draw the configurations per distance as an SVG chart in FILE.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,

    /// Print one JSON object (the level sizes, the radius, the farthest configurations) instead
    /// of text.
    #[arg(long)]
    pub json: bool,
}

/// `RxC`, as `2x7`.
fn parse_board(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("bad board size {text:?}; write ROWSxCOLUMNS, such as 2x7");
    let (rows, cols) = text.trim().split_once(['x', 'X']).ok_or_else(bad)?;
    let rows: usize = rows.trim().parse().map_err(|_| bad())?;
    let cols: usize = cols.trim().parse().map_err(|_| bad())?;
    Ok((rows, cols))
}

/// `ROW,COLUMN`, counted from 1.
fn parse_cell(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("bad cell {text:?}; write ROW,COLUMN counted from 1, such as 1,1");
    let (row, col) = text.trim().split_once(',').ok_or_else(bad)?;
    let row: usize = row.trim().parse().map_err(|_| bad())?;
    let col: usize = col.trim().parse().map_err(|_| bad())?;
    if row == 0 || col == 0 {
        return Err(bad());
    }
    Ok((row, col))
}

/// A duration: seconds, or a number with `s`, `m` or `h`.
fn parse_duration(text: &str) -> Result<Duration, String> {
    super::duration_seconds(text, "0, 90s, 10m or 2h")
        .map(|(seconds, _)| Duration::from_secs(seconds))
}

/// `12.2G`: a size in binary units with one decimal.
fn size_text(bytes: u64) -> String {
    let gib = bytes as f64 / f64::from(1 << 30);
    if gib >= 1.0 {
        format!("{gib:.1}G")
    } else {
        format!("{:.1}M", bytes as f64 / f64::from(1 << 20))
    }
}

/// Refuses a run whose labels would not fit in `limit` bytes, or in the memory the system has
/// available, before anything is taken.
pub fn check_memory(grid: &Grid, limit: u64) -> Result<(), Failure> {
    let need = Enumeration::bytes(grid);
    let what = format!(
        "every configuration of {}x{} needs {} of memory ({} configurations, two bits each)",
        grid.rows(),
        grid.cols(),
        size_text(need),
        grid.configurations()
    );
    if need > limit {
        let gib = need.div_ceil(1 << 30);
        return Err(Failure::BadInput(format!(
            "{what}; --memory allows {}: give --memory {gib}G or more",
            sliding::format_size(limit)
        )));
    }
    if let Some(available) = available_memory().filter(|&a| need > a) {
        return Err(Failure::BadInput(format!(
            "{what}; this machine has {} available",
            size_text(available)
        )));
    }
    Ok(())
}

/// `MemAvailable` of `/proc/meminfo`, where there is one.
fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The progress line of a run on stderr (levels done, configurations found, the ETA), redrawn
/// by a thread of its own; none when stderr is not a terminal.
struct Bar {
    bar: ProgressBar,
    found: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Bar {
    fn new(total: u64, done: u64, found: Arc<AtomicU64>, show: bool) -> Bar {
        let target = if show && std::io::stderr().is_terminal() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let bar = ProgressBar::with_draw_target(Some(total), target);
        let style = ProgressStyle::with_template(
            "{elapsed_precise} distance {msg} [{bar:24}] {human_pos}/{human_len} configurations, ETA {eta}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
        bar.set_style(style);
        bar.set_position(done);
        let stop = Arc::new(AtomicBool::new(false));
        let thread = (!bar.is_hidden()).then(|| {
            let (bar, found, stop) = (bar.clone(), found.clone(), stop.clone());
            std::thread::spawn(move || {
                while !stop.load(Relaxed) {
                    bar.set_position(found.load(Relaxed));
                    std::thread::sleep(Duration::from_millis(200));
                }
            })
        });
        Bar {
            bar,
            found,
            stop,
            thread,
        }
    }

    fn distance(&self, d: u32) {
        self.bar.set_message(d.to_string());
        self.bar.set_position(self.found.load(Relaxed));
    }

    fn suspend<R>(&self, print: impl FnOnce() -> R) -> R {
        self.bar.suspend(print)
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        self.stop.store(true, Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        self.bar.finish_and_clear();
    }
}

/// Where and how often a run keeps its checkpoint.
struct Keeping<'a> {
    path: &'a Path,
    every: Duration,
    last: Instant,
}

impl Keeping<'_> {
    fn save(&mut self, enumeration: &Enumeration, bar: &Bar) -> Result<(), Failure> {
        bar.bar.set_message(format!(
            "{} done, writing the checkpoint",
            enumeration.distance()
        ));
        checkpoint::save(self.path, enumeration).map_err(|error| {
            Failure::BadInput(format!(
                "cannot write the checkpoint {}: {error}",
                self.path.display()
            ))
        })?;
        self.last = Instant::now();
        Ok(())
    }
}

/// Ctrl-C: raised by the handler, read by the enumeration between chunks.
fn interrupted() -> Arc<AtomicBool> {
    static FLAG: std::sync::OnceLock<Arc<AtomicBool>> = std::sync::OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let raised = flag.clone();
        // Without a handler (one is set already), Ctrl-C ends the process as it would anyway.
        let _ = ctrlc::set_handler(move || raised.store(true, Relaxed));
        flag
    })
    .clone()
}

/// How a run ended.
enum Ending {
    /// Every configuration found.
    Complete,
    /// Stopped after the distance of `--stop-at`, with its checkpoint written.
    Stopped,
}

/// Expands levels until none is new (or `stop_at` is done), calling `level` after each, with
/// the progress line and the checkpoints.
fn drive(
    enumeration: &mut Enumeration,
    mut keeping: Option<Keeping>,
    stop_at: Option<u32>,
    level: &mut dyn FnMut(&Grid, u32, &Level) -> Result<(), Failure>,
    bar: &Bar,
) -> Result<Ending, Failure> {
    let interrupted = interrupted();
    loop {
        if stop_at.is_some_and(|d| enumeration.distance() >= d) {
            if let Some(keeping) = keeping.as_mut() {
                keeping.save(enumeration, bar)?;
            }
            return Ok(Ending::Stopped);
        }
        let d = enumeration.distance() + 1;
        bar.distance(d);
        let Some(found) = enumeration.expand(&bar.found, &interrupted) else {
            let kept = match &keeping {
                Some(k) if k.path.exists() => format!(
                    "; the checkpoint {} goes on with --resume",
                    k.path.display()
                ),
                _ => String::new(),
            };
            return Err(Failure::BadInput(format!(
                "interrupted at distance {d}{kept}"
            )));
        };
        if found.size == 0 {
            // Every configuration, once: the invariant of the enumeration, checked.
            let total: u64 = enumeration.levels().iter().sum();
            let all = enumeration.grid().configurations();
            if total != all {
                return Err(Failure::Disagreement(format!(
                    "the levels add up to {total} configurations, not {all}: the enumeration is wrong"
                )));
            }
            return Ok(Ending::Complete);
        }
        bar.suspend(|| level(enumeration.grid(), d, &found))?;
        if let Some(keeping) = keeping.as_mut() {
            if keeping.last.elapsed() >= keeping.every {
                keeping.save(enumeration, bar)?;
            }
        }
    }
}

/// `fifteen levels`.
pub fn run(args: &LevelsArgs) -> Result<(), Failure> {
    let (rows, cols) = args.size;
    let blank = match args.blank {
        Some((row, col)) if row > rows || col > cols => {
            return Err(Failure::BadInput(format!(
                "the blank's cell (row {row}, column {col}) is not on a {rows}x{cols} board"
            )))
        }
        Some((row, col)) => (row - 1) * cols + col - 1,
        None => (rows * cols).saturating_sub(1),
    };
    let grid = Grid::new(rows, cols, blank).map_err(Failure::bad_input)?;
    check_memory(&grid, args.memory.unwrap_or(sliding::DEFAULT_MEMORY))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.map_or(0, usize::from))
        .build()
        .map_err(Failure::bad_input)?;
    pool.install(|| run_on(args, grid))
}

fn run_on(args: &LevelsArgs, grid: Grid) -> Result<(), Failure> {
    let mut enumeration = match (&args.checkpoint, args.resume) {
        (Some(path), true) => {
            checkpoint::load(path, &grid, args.metric).map_err(Failure::bad_input)?
        }
        _ => Enumeration::new(grid.clone(), args.metric),
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let text = !args.json;
    if text {
        writeln!(
            out,
            "Every configuration of the {}x{} puzzle in the {} metric, from the tiles in order \
             with the blank at row {}, column {}: {} configurations, {} of memory.",
            grid.rows(),
            grid.cols(),
            crate::levels::metric_name(args.metric),
            grid.blank() / grid.cols() + 1,
            grid.blank() % grid.cols() + 1,
            grid.configurations(),
            size_text(Enumeration::bytes(&grid))
        )?;
        for (d, size) in enumeration.levels().iter().enumerate() {
            writeln!(out, "Distance {d}: {size}")?;
        }
        out.flush()?;
    }
    let keeping = args.checkpoint.as_deref().map(|path| Keeping {
        path,
        every: args.checkpoint_every.unwrap_or(Duration::from_secs(600)),
        last: Instant::now(),
    });
    let done: u64 = enumeration.levels().iter().sum();
    let found = Arc::new(AtomicU64::new(done));
    let bar = Bar::new(grid.configurations(), done, found, true);
    let ending = drive(
        &mut enumeration,
        keeping,
        args.stop_at,
        &mut |_, d, level| {
            if text {
                writeln!(out, "Distance {d}: {}", level.size)?;
                out.flush()?;
            }
            Ok(())
        },
        &bar,
    )?;
    drop(bar);
    let levels = enumeration.levels().to_vec();
    let total: u64 = levels.iter().sum();
    let radius = enumeration.distance();
    let last = enumeration.last();
    let farthest: Vec<String> = if last.size <= FEW as u64 {
        let cells = grid.cells() as u64;
        last.few
            .iter()
            .map(|&i| grid.write(&grid.board(i / cells, (i % cells) as usize)))
            .collect()
    } else {
        Vec::new()
    };
    let complete = matches!(ending, Ending::Complete);
    if args.json {
        let report = serde_json::json!({
            "rows": grid.rows(),
            "cols": grid.cols(),
            "metric": args.metric,
            "blank": [grid.blank() / grid.cols() + 1, grid.blank() % grid.cols() + 1],
            "complete": complete,
            "levels": levels,
            "configurations": total,
            "radius": radius,
            "farthest": farthest,
        });
        writeln!(out, "{report}")?;
    } else {
        let which = if complete { "all" } else { "completed" };
        super::sliding::print_levels(&mut out, &levels, which)?;
        if complete {
            let count = last.size;
            let s = if count == 1 { "" } else { "s" };
            if farthest.is_empty() {
                writeln!(
                    out,
                    "The farthest, at distance {radius}: {count} configuration{s}."
                )?;
            } else {
                writeln!(
                    out,
                    "The farthest, at distance {radius}: {count} configuration{s}:"
                )?;
                for board in &farthest {
                    writeln!(out, "{board}")?;
                }
            }
        } else if let Some(path) = &args.checkpoint {
            writeln!(
                out,
                "Stopped after distance {radius}; the checkpoint {} goes on with --resume.",
                path.display()
            )?;
        }
    }
    out.flush()?;
    drop(out);
    if let Some(path) = &args.plot {
        let chart = crate::plot::levels(&crate::plot::Levels {
            title: format!("{}x{} puzzle", grid.rows(), grid.cols()),
            about: format!(
                "{} x {}, {} metric",
                grid.rows(),
                grid.cols(),
                crate::levels::metric_name(args.metric)
            ),
            counts: levels,
            solution: None,
        });
        super::write_plot(path, &chart)?;
    }
    Ok(())
}

/// The grid of a plain tile puzzle (distinct unit tiles, one empty cell, no walls, at least
/// 2x2 and at most 16 cells) and the kinds of its tiles in their start order; `None` for any
/// other puzzle.
fn plain_tiles(puzzle: &Puzzle) -> Option<(Grid, Vec<u8>)> {
    let cells = puzzle.rows * puzzle.cols;
    let start = &puzzle.start;
    if start.dead.contains(&true) || start.blocks.len() + 1 != cells {
        return None;
    }
    let mut covered = vec![false; cells];
    let mut kinds_seen = 0u32;
    for block in &start.blocks {
        let shape = puzzle.shapes[usize::from(block.kind)].as_ref()?;
        if shape.offsets != [(0, 0)] || kinds_seen & 1 << block.kind != 0 {
            return None;
        }
        kinds_seen |= 1 << block.kind;
        *covered.get_mut(block.anchor)? = true;
    }
    let blank = covered.iter().position(|&c| !c)?;
    let grid = Grid::new(puzzle.rows, puzzle.cols, blank).ok()?;
    let mut blocks = start.blocks.clone();
    blocks.sort_by_key(|b| b.anchor);
    Some((grid, blocks.iter().map(|b| b.kind).collect()))
}

/// `sliding --levels` on a plain tile puzzle with no stop, in style 0 or 3 (the single- and
/// multi-tile metrics), whose labels fit in `memory`: every reachable configuration by the
/// enumerator, reported to `observer` as the breadth-first engine reports it (each level's
/// first configuration is the one of least index, not the one that engine meets first).
/// `None` for another puzzle, or one too big.
pub fn exhaust(
    puzzle: &Puzzle,
    style: Style,
    memory: u64,
    observer: &mut dyn FnMut(Event) -> ControlFlow<std::io::Error>,
) -> Option<Result<Outcome, Failure>> {
    let metric = match style.0 {
        0 => Metric::Stm,
        3 => Metric::Mtm,
        _ => return None,
    };
    if !puzzle.stops.is_empty() {
        return None;
    }
    let (grid, kinds) = plain_tiles(puzzle)?;
    // Too big to hold whole: the breadth-first engine goes as far as the memory lets it.
    check_memory(&grid, memory).ok()?;
    Some(exhaust_tiles(puzzle, grid, &kinds, metric, observer))
}

fn exhaust_tiles(
    puzzle: &Puzzle,
    grid: Grid,
    kinds: &[u8],
    metric: Metric,
    observer: &mut dyn FnMut(Event) -> ControlFlow<std::io::Error>,
) -> Result<Outcome, Failure> {
    let bytes = Enumeration::bytes(&grid);
    let geometry = sliding::Geometry::new(puzzle);
    let cells = grid.cells();
    // The events of one level: its start, its first configuration, its end.
    let mut report = |grid: &Grid, d: u32, level: &Level| -> Result<(), Failure> {
        let board = grid.board(
            level.first / cells as u64,
            (level.first % cells as u64) as usize,
        );
        let mut layout = puzzle.start.clone();
        layout.blocks = (0..cells)
            .filter(|&c| board[c] != 0)
            .map(|c| sliding::spec::PlacedBlock {
                kind: kinds[usize::from(board[c]) - 1],
                anchor: c,
            })
            .collect();
        let key = geometry.key_of(&layout);
        for event in [
            Event::Distance(d),
            Event::New {
                number: 0,
                parent: 0,
                key: &key,
            },
            Event::LevelDone {
                distance: d,
                size: level.size,
                memory: bytes,
            },
        ] {
            if let ControlFlow::Break(error) = observer(event) {
                return Err(Failure::Output(error));
            }
        }
        Ok(())
    };
    let mut enumeration = Enumeration::new(grid, metric);
    report(enumeration.grid(), 0, enumeration.last())?;
    // The breadth-first engine's own progress line reads the events.
    let bar = Bar::new(
        enumeration.grid().configurations(),
        1,
        Arc::default(),
        false,
    );
    let ending = drive(&mut enumeration, None, None, &mut report, &bar)?;
    drop(bar);
    debug_assert!(matches!(ending, Ending::Complete));
    // The distance that found nothing, as the breadth-first engine announces it.
    if let ControlFlow::Break(error) = observer(Event::Distance(enumeration.distance() + 1)) {
        return Err(Failure::Output(error));
    }
    Ok(Outcome::Exhausted {
        levels: enumeration.levels().to_vec(),
        generated: 0,
    })
}
