//! `fifteen tables build|list`: the pattern databases on disk.
//!
//! `build` makes sure every table of the named partition (or of every preset of the board)
//! is cached, building the missing or damaged ones, and says for each where it is and, when
//! built, how long it took and how many entries it has; the duplicate-pruning machine
//! (`crate::prune`) too. `list` shows what the table directory holds.

use super::{out, Failure};
use crate::board::Board;
use crate::heuristic::cache::{CacheError, TableFile};
use crate::heuristic::catalogue::Catalogue;
use crate::heuristic::partition::{Partition, PartitionError};
use crate::heuristic::store::{Choice, Source, Store};
use crate::mtm::store::Origin;
use crate::mtm::{BoundChoice, Metric};
use crate::prune;
use clap::{Args, Subcommand};
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct TablesArgs {
    #[command(subcommand)]
    pub action: Action,

    /// Directory of the tables (default: $FIFTEEN_TABLES, else the user's cache directory).
    #[arg(long, value_name = "DIR", global = true)]
    pub tables: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum Action {
    /// Build (or check) the tables of one partition, or of every preset of the board, and the
    /// duplicate-pruning machine; with --metric mtm, the multi-tile metric's 4x4 table instead.
    /// The pattern databases are built on every core (RAYON_NUM_THREADS=N limits them; solve's
    /// --threads does not), the MTM table on one.
    Build {
        /// Board size RxC (default 4x4).
        #[arg(long, value_name = "RxC")]
        size: Option<Board>,
        /// The partition (e.g. 6-6-3) or catalogue (small, 6-6-3+5-5-5); every preset
        /// partition of the board when omitted. With --metric
        /// mtm: relabel or default (the same table).
        #[arg(long, value_name = "NAME", value_parser = super::heuristic_names(), hide_possible_values = true)]
        heuristic: Option<Choice>,
        /// Which searches the tables are for: stm (the default: the pattern databases and the
        /// duplicate-pruning machine) or mtm, the 76 MB tables of the 4x4 board relabelled two
        /// ways that `--metric mtm` reads (about 25 s on one thread; otherwise built by the
        /// first MTM solve that needs them).
        #[arg(long, value_enum, value_name = "METRIC", default_value_t = Metric::Stm)]
        metric: Metric,
    },
    /// List the cached tables: file, size and what each holds.
    List,
}

pub fn run(args: &TablesArgs) -> Result<(), Failure> {
    let mut store = Store::new(args.tables.as_deref()).map_err(Failure::BadInput)?;
    // Each build is said once, on stdout, when it is done (the progress bar names it meanwhile).
    store.announce = false;
    match &args.action {
        Action::Build {
            size,
            heuristic,
            metric: Metric::Mtm,
        } => build_mtm(&store, *size, heuristic.as_ref()),
        Action::Build {
            size,
            heuristic,
            metric: Metric::Stm,
        } => {
            let board = size.unwrap_or_else(Board::fifteen);
            if let Some(Choice::Tables(name)) = heuristic {
                check_partition(board, name, size.is_some())?;
            }
            build(&store, board, heuristic.as_ref())
        }
        Action::List => list(&store, args.tables.is_some()),
    }
}

/// A partition `tables build` cannot make for `board` is refused in one line that says what
/// to do: the board it belongs to (`6-6-6-6` is a 5x5 partition), else the board's own.
fn check_partition(board: Board, name: &str, size_given: bool) -> Result<(), Failure> {
    let error = match Catalogue::parse(board, name) {
        Ok(_) => return Ok(()),
        Err(error) => error,
    };
    if !matches!(error, PartitionError::Unknown { .. }) || name.contains('+') {
        return Err(Failure::bad_input(error));
    }
    let boards: Vec<String> = Partition::boards_of(name)
        .iter()
        .map(Board::to_string)
        .collect();
    let own = Partition::names(board);
    let message = if !boards.is_empty() {
        let verb = if size_given { "use" } else { "add" };
        let sizes: Vec<String> = boards.iter().map(|b| format!("--size {b}")).collect();
        format!(
            "{name:?} is a {} partition, not a {board} one: {verb} {}",
            boards.join(" and "),
            sizes.join(" or ")
        )
    } else if own.is_empty() {
        format!("there is no pattern database {name:?}, and the {board} board has none")
    } else {
        format!(
            "there is no pattern database {name:?} for the {board} board; its partitions are {}",
            own.join(", ")
        )
    };
    Err(Failure::BadInput(message))
}

fn build(store: &Store, board: Board, choice: Option<&Choice>) -> Result<(), Failure> {
    let names: Vec<String> = match choice {
        None => Partition::names(board)
            .iter()
            .map(|n| n.to_string())
            .collect(),
        Some(Choice::Tables(name)) => vec![name.clone()],
        Some(Choice::Manhattan) => {
            return Err(Failure::BadInput("manhattan needs no tables".into()));
        }
        Some(Choice::Default) => store
            .default_name(board)
            .map(String::from)
            .into_iter()
            .collect(),
    };
    if names.is_empty() {
        return Err(Failure::BadInput(format!(
            "the {board} board has no pattern databases"
        )));
    }
    let (mut lost, mut machine_lost) = (0, false);
    for name in names {
        let catalogue = Catalogue::parse(board, &name).map_err(Failure::bad_input)?;
        let groups = catalogue.groups();
        for (g, tiles) in groups.iter().enumerate() {
            let label = format!("{catalogue} table {} of {}", g + 1, groups.len());
            let (table, source) = store
                .group_table(board, tiles, &label)
                .map_err(Failure::BadInput)?;
            let entries = table.layout().entries();
            let megabytes = table.bits().len() as f64 / 1e6;
            let what = format!(
                "{label} (tiles {}): {entries} entries, {megabytes:.1} MB",
                tiles
                    .iter()
                    .map(u8::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            );
            match source {
                Source::Cached(path) => writeln!(out(), "{what}, cached in {}", path.display())?,
                Source::Built {
                    seconds,
                    report,
                    kept,
                } => {
                    lost += usize::from(kept.is_none());
                    writeln!(
                        out(),
                        "{what}, built in {seconds:.1} sec (largest value {}){}",
                        report.max_value,
                        kept.map(|p| format!(", kept in {}", p.display()))
                            .unwrap_or_else(|| ", not kept".into())
                    )?
                }
            }
        }
    }
    // The duplicate-pruning machine every search with tables walks.
    let file = prune::cache::path(store.dir(), prune::DEPTH, prune::Spelling::STM);
    let (machine, origin) =
        prune::cache::load(Some(store.dir()), prune::DEPTH, prune::Spelling::STM, false);
    let what = format!(
        "duplicate-pruning machine: {} forbidden words of at most {} moves, {} states",
        machine.words(),
        machine.depth(),
        machine.states()
    );
    match origin {
        prune::cache::Origin::Cached => writeln!(out(), "{what}, cached in {}", file.display())?,
        prune::cache::Origin::Built { seconds, kept } => {
            machine_lost = !kept;
            let kept = if kept {
                format!(", kept in {}", file.display())
            } else {
                ", not kept".into()
            };
            writeln!(out(), "{what}, built in {seconds:.1} sec{kept}")?
        }
    }
    // A set-up script's `fifteen tables build && …` must not believe the cache is warm.
    let what = match (lost, machine_lost) {
        (0, false) => return Ok(()),
        (0, true) => "the duplicate-pruning machine".to_string(),
        (n, false) => format!("{n} table(s)"),
        (n, true) => format!("{n} table(s) and the duplicate-pruning machine"),
    };
    Err(Failure::BadInput(format!(
        "{what} built but not kept in {}: every run will build them again",
        store.dir().display()
    )))
}

/// The 4x4 board's duplicate-pruning machine of jump words, read and checked or built.
fn build_jump_machine(store: &Store) -> Result<(), Failure> {
    let board = Board::fifteen();
    let spelling = prune::Spelling::mtm(board.rows(), board.cols());
    let depth = prune::mtm_depth(board.rows(), board.cols());
    let file = prune::cache::path(store.dir(), depth, spelling);
    let (machine, origin) = prune::cache::load(Some(store.dir()), depth, spelling, false);
    let what = format!(
        "{}: {} forbidden words of at most {} moves, {} states",
        prune::cache::name(spelling),
        machine.words(),
        machine.depth(),
        machine.states()
    );
    match origin {
        prune::cache::Origin::Cached => writeln!(out(), "{what}, cached in {}", file.display())?,
        prune::cache::Origin::Built {
            seconds,
            kept: true,
        } => writeln!(
            out(),
            "{what}, built in {seconds:.1} sec, kept in {}",
            file.display()
        )?,
        prune::cache::Origin::Built {
            seconds,
            kept: false,
        } => {
            writeln!(out(), "{what}, built in {seconds:.1} sec, not kept")?;
            return Err(Failure::BadInput(format!(
                "the MTM duplicate-pruning machine built but not kept in {}: every MTM search will build it again",
                store.dir().display()
            )));
        }
    }
    Ok(())
}

/// `tables build --metric mtm`: the relabelled 4x4 table and the board's duplicate-pruning
/// machine, read and checked or built. Other boards and lower bounds have no table to build,
/// and say so.
fn build_mtm(store: &Store, size: Option<Board>, choice: Option<&Choice>) -> Result<(), Failure> {
    if let Some(board) = size.filter(|b| *b != Board::fifteen()) {
        return Err(Failure::BadInput(format!(
            "the multi-tile metric has a table for the 4x4 board only; on {board} its searches use walking distance, which needs none"
        )));
    }
    let name = choice.map(Choice::to_string);
    match BoundChoice::parse(name.as_deref()).map_err(Failure::BadInput)? {
        BoundChoice::Walking => {
            return Err(Failure::BadInput("walking distance needs no tables".into()));
        }
        BoundChoice::Default | BoundChoice::Relabel => {}
    }
    let (table, origin) = crate::mtm::store::load_or_build_from(Some(store.dir()), false);
    let what = format!(
        "4x4 multi-tile metric tables of the board relabelled two ways: {} entries each, {:.1} MB",
        crate::mtm::relabel::STATES,
        table.bytes().len() as f64 / 1e6
    );
    match origin {
        Origin::Cached(path) => writeln!(out(), "{what}, cached in {}", path.display())?,
        Origin::Built {
            seconds,
            largest,
            kept,
        } => {
            let place = kept.as_ref().map_or_else(
                || ", not kept".to_string(),
                |p| format!(", kept in {}", p.display()),
            );
            writeln!(
                out(),
                "{what}, built in {seconds:.1} sec (largest value {largest}){place}"
            )?;
            if kept.is_none() {
                return Err(Failure::BadInput(format!(
                    "the MTM table built but not kept in {}: every MTM search will build it again",
                    store.dir().display()
                )));
            }
        }
    }
    build_jump_machine(store)
}

/// Every file of the table directory, each table checked whole (header and every block):
/// the good ones with what they hold, damaged and foreign files marked as such, then which
/// partitions are complete. A directory named by `--tables` (`named`) that is not there is an
/// error, not an empty cache (a mistyped path); the default one is made by the first build.
fn list(store: &Store, named: bool) -> Result<(), Failure> {
    let dir = store.dir();
    let mut files = match std::fs::read_dir(dir) {
        Ok(items) => items
            .filter_map(Result::ok)
            .map(|item| item.path())
            .filter(|path| {
                !path
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with('.'))
            })
            .collect::<Vec<_>>(),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound && named => {
            return Err(Failure::BadInput(format!(
                "--tables {}: no such directory (a build or solve makes it when it keeps a table)",
                dir.display()
            )));
        }
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(error) => return Err(Failure::BadInput(format!("{}: {error}", dir.display()))),
    };
    files.sort();
    let known = store.known();
    let mut good = Vec::new();
    let mut lines = Vec::new();
    let (mut total, mut damaged) = (0, 0);
    for path in &files {
        let bytes = std::fs::metadata(path).map_or(0, |m| m.len());
        let size = format!("{:>10.1} MB", bytes as f64 / 1e6);
        let table = store.table_of_file(path);
        // A duplicate-pruning machine (STM, or MTM jumps on one board): listed, not counted
        // among the tables.
        let machine = if *path == prune::cache::path(dir, prune::DEPTH, prune::Spelling::STM) {
            Some((prune::Spelling::STM, prune::DEPTH))
        } else {
            prune::cache::mtm_file(path)
        };
        if let Some((spelling, depth)) = machine {
            let what = match prune::cache::read(path, depth, spelling) {
                Ok(m) => {
                    total += bytes;
                    let on = match spelling.within {
                        Some((rows, cols)) => format!(" of MTM jumps on {rows}x{cols}"),
                        None => String::new(),
                    };
                    format!(
                        "(duplicate-pruning machine{on}: {} forbidden words of at most {} moves, {} states)",
                        m.words(),
                        m.depth(),
                        m.states()
                    )
                }
                Err(prune::cache::Unread::OtherRules(_, rules)) => format!(
                    "OLD: a duplicate-pruning machine of other word rules ({rules}), rebuilt when next used"
                ),
                Err(error) => {
                    damaged += 1;
                    format!("DAMAGED: {error}")
                }
            };
            lines.push(format!("{size}  {}  {what}", path.display()));
            continue;
        }
        if path
            .file_name()
            .is_some_and(|n| n == crate::mtm::store::NAME)
        {
            // The exact MTM table of the relabelled 4x4 board (`--metric mtm`).
            let what = match crate::mtm::store::check(path) {
                Ok(()) => {
                    total += bytes;
                    "(multi-tile metric: the 4x4 board relabelled two ways, distances mod 3)"
                        .to_string()
                }
                Err((true, _)) => {
                    "OLD: the MTM table of an older format, rebuilt when next used".to_string()
                }
                Err((false, error)) => {
                    damaged += 1;
                    format!("DAMAGED: {error}")
                }
            };
            lines.push(format!("{size}  {}  {what}", path.display()));
            continue;
        }
        let status = match &table {
            Some((key, len)) => match TableFile::open(path, key, *len) {
                Err(CacheError::Older(_, format)) => Err((
                    false,
                    format!("OLD: {key}, table format {format}, rebuilt when next used"),
                )),
                opened => opened
                    .and_then(|file| file.check_all())
                    .map(|()| format!("({key})"))
                    .map_err(|error| (true, format!("DAMAGED: {error}"))),
            },
            None => Err((
                false,
                "FOREIGN: not a table of this program (left alone)".into(),
            )),
        };
        match status {
            Ok(what) => {
                total += bytes;
                good.push(path.clone());
                lines.push(format!("{size}  {}  {what}", path.display()));
            }
            Err((damage, what)) => {
                damaged += usize::from(damage);
                lines.push(format!("{size}  {}  {what}", path.display()));
            }
        }
    }
    let mut out = out();
    // Every file listed is counted: the tables, the machine, the MTM table, damaged and
    // foreign files alike (each line says which).
    writeln!(out, "{} file(s) in {}", lines.len(), dir.display())?;
    for line in &lines {
        writeln!(out, "{line}")?;
    }
    if !good.is_empty() {
        writeln!(out, "{:>10.1} MB  in all", total as f64 / 1e6)?;
    }
    if damaged > 0 {
        writeln!(
            out,
            "{damaged} damaged table(s): each is rebuilt when next needed"
        )?;
    }
    // Partitions with every table good, and those begun.
    let mut complete = Vec::new();
    let mut partial = Vec::new();
    for partition in Partition::all() {
        let files: Vec<&PathBuf> = known
            .iter()
            .filter(|(.., p)| *p == partition)
            .map(|(file, ..)| file)
            .collect();
        let have = files.iter().filter(|file| good.contains(file)).count();
        if have == files.len() {
            complete.push(partition.to_string());
        } else if have > 0 {
            partial.push(format!("{partition} ({have} of {} tables)", files.len()));
        }
    }
    let or_none = |names: &[String]| match names {
        [] => "none".to_string(),
        _ => names.join(", "),
    };
    writeln!(out, "Complete partitions: {}", or_none(&complete))?;
    if !partial.is_empty() {
        writeln!(out, "Incomplete: {}", partial.join(", "))?;
    }
    // The named catalogues begun: their partitions, and their tables present.
    for catalogue in Catalogue::all() {
        let board = catalogue.board();
        let groups = catalogue.groups();
        let have = groups
            .iter()
            .filter(|tiles| good.contains(&store.path(board, tiles)))
            .count();
        if have == 0 {
            continue;
        }
        let partitions: Vec<&str> = catalogue.partitions().iter().map(|p| p.name()).collect();
        let state = match have == groups.len() {
            true => "complete".to_string(),
            false => format!("{have} of {} tables", groups.len()),
        };
        writeln!(
            out,
            "Catalogue {catalogue} ({state}): the largest of {} partitions, {}",
            partitions.len(),
            partitions.join(", ")
        )?;
    }
    Ok(())
}
