//! `fifteen shard plan | run | merge`: one bound of a search spread over processes or
//! machines, with the answer of one thread. `plan` writes the bound's cut (the items of
//! `engine::parallel`, in the engine's order or best first) and what a worker must match to
//! JSON; `run` searches one item and writes its result; `merge` reads the results and prints
//! the bound's answer as `fifteen solve --threads 1` finds it (best first: as one thread
//! searching the plan's list), and the next bound to plan. In either metric and toward any
//! goal: what a plan searches is [`super::shard_search`]'s.
//!
//! Plans and results are written atomically (a temporary file beside the target, then
//! renamed), and a result is the same bytes for the same plan and item, so a task run twice,
//! or by two workers, does no harm.

use super::shard_search::{ItemFound, Problem, Searcher};
use super::{Failure, HeuristicArgs};
use crate::board::Board;
use crate::engine::parallel::{self, Found};
use crate::engine::{automaton, shard, EngineKind, Solution};
use crate::heuristic::store::Choice;
use crate::mtm::Metric;
use crate::position::{Convention, MoveNotation, Position};
use crate::prune::Prune;
use clap::{Args, Subcommand, ValueEnum};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// What a plan's and a result's `format` field says.
const PLAN_FORMAT: &str = "fifteen shard plan 2";
const RESULT_FORMAT: &str = "fifteen shard result 1";

/// Items wanted by default: a few for each of a few hundred workers.
const ITEMS: u32 = 1000;

#[derive(Debug, Args)]
pub struct ShardArgs {
    #[command(subcommand)]
    pub command: ShardCommand,
}

#[derive(Debug, Subcommand)]
pub enum ShardCommand {
    /// Cut one bound of a search into items (subtrees in the engine's order, or best first) and
    /// write the plan.
    Plan(PlanArgs),
    /// Search one item of a plan and write its result.
    Run(RunArgs),
    /// Merge a plan's results into the bound's answer, as one thread finds it.
    Merge(MergeArgs),
}

#[derive(Debug, Args)]
pub struct PlanArgs {
    /// The start position (as for `solve`).
    #[arg(required = true, num_args = 1.., value_name = "POSITION")]
    pub position: Vec<String>,

    #[command(flatten)]
    pub board: super::BoardArgs,

    /// How moves are counted, as for `solve`: stm, or mtm (the multi-tile metric: its bounds
    /// are N moves, its lower bound `--heuristic walking`, `relabel` or `default`).
    #[arg(long, value_enum, default_value_t = Metric::Stm)]
    pub metric: Metric,

    #[command(flatten)]
    pub goal: super::GoalArgs,

    /// Which IDA* engine's order the items follow and which engine searches them (default:
    /// automaton; in MTM, ida where the automaton is not generated or toward a goal whose blank
    /// is not in a corner).
    #[arg(long, value_enum)]
    pub engine: Option<EngineKind>,

    #[command(flatten)]
    pub heuristic: HeuristicArgs,

    /// The bound to cut, H+S moves as `solve` prints them (default: the first bound).
    #[arg(long, value_name = "H+S")]
    pub bound: Option<String>,

    /// Subtrees wanted: the cut goes deeper until there are at least this many (or the tree
    /// has no more).
    #[arg(long, value_name = "N", default_value_t = ITEMS,
          value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    pub items: u32,

    /// Cut deeper in places: a JSON list of {"moves": [PIECE, ...], "depth": D}, each asking
    /// for items at least D moves from the start below the node those pieces pushed reach
    /// (paths that are no node of the bound change nothing).
    #[arg(long, value_name = "SPLIT.json")]
    pub split: Option<PathBuf>,

    /// Every optimal solution: workers search their items to the end, and merge lists every
    /// solution of the bound in one thread's order.
    #[arg(long)]
    pub all: bool,

    /// The items' order: `walk` (the engine's) or `best-first` (each root kept once, closest
    /// to the goal by the tables first, as `solve` searches 24-puzzles' long bounds). Default:
    /// best first on boards of more than 16 cells with tables, without `--all`; else the walk.
    #[arg(long, value_enum)]
    pub order: Option<Order>,

    /// Where to write the plan (JSON).
    #[arg(long, value_name = "PLAN.json")]
    pub out: PathBuf,
}

/// The order of a plan's items.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Order {
    /// The engine's walk: the order of one thread's search.
    #[default]
    Walk,
    /// [`parallel::best_first`]: each root kept once, closest to the goal first.
    BestFirst,
}

impl Order {
    /// The order of a plan in `metric`, with tables or not, `all` or not, on `board`: the one
    /// `given` (best first refused where it cannot be), else the default.
    fn of(
        given: Option<Order>,
        metric: Metric,
        (has_tables, all): (bool, bool),
        board: Board,
    ) -> Result<Order, Failure> {
        let why_not = if metric != Metric::Stm {
            Some("--order best-first is for the single-tile metric")
        } else if !has_tables {
            Some("--order best-first orders the items by the tables: it takes a --heuristic with tables")
        } else if all {
            Some("--order best-first keeps each root once and would lose solutions of --all")
        } else {
            None
        };
        match (given, why_not) {
            (Some(Order::BestFirst), Some(why)) => Err(bad(why)),
            (Some(order), _) => Ok(order),
            (None, None) if crate::engine::best_first_after(board) != u64::MAX => {
                Ok(Order::BestFirst)
            }
            (None, _) => Ok(Order::Walk),
        }
    }
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// The plan written by `fifteen shard plan`.
    #[arg(value_name = "PLAN")]
    pub plan: PathBuf,

    /// The items to search, counted from 0, in this order (`--item 3,4,9` or `--item 3 --item 4`);
    /// without the plan's `--all`, an item after one that holds a solution is not searched.
    #[arg(long, value_name = "I", required = true, num_args = 1.., value_delimiter = ',')]
    pub item: Vec<usize>,

    /// Directory of the pattern-database tables (default: $FIFTEEN_TABLES, else the user's
    /// cache directory); their checksums must be the plan's.
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,

    /// Where to write the result (JSON) of the one item.
    #[arg(long, value_name = "RESULT.json", required_unless_present = "out_dir")]
    pub out: Option<PathBuf>,

    /// Where to write each item's result, as I.json, as soon as it is found.
    #[arg(long, value_name = "DIR", conflicts_with = "out")]
    pub out_dir: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The plan written by `fifteen shard plan`.
    #[arg(value_name = "PLAN")]
    pub plan: PathBuf,

    /// The results written by `fifteen shard run` (every item up to the first solution).
    #[arg(value_name = "RESULTS")]
    pub results: Vec<PathBuf>,
}

/// A plan: one bound's cut and what a worker must match.
#[derive(Debug, Serialize, Deserialize)]
pub struct Plan {
    pub format: String,
    /// A checksum of everything below (with `id` empty): results name their plan by it.
    pub id: String,
    /// The version of the binary that wrote it; a worker must be the same.
    pub version: String,
    pub board: String,
    pub position: String,
    pub convention: String,
    /// `mtm` for the multi-tile metric (absent: stm).
    #[serde(default, skip_serializing_if = "is_stm")]
    pub metric: Metric,
    /// The goal, written as the position is (absent: the convention's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goal: Option<String>,
    pub engine: String,
    pub heuristic: String,
    /// The duplicate pruning searched with (`fsm` or `none`).
    pub prune: String,
    /// The CRC-32 (hex) of each table the heuristic reads, in the partition's order.
    pub tables: Vec<String>,
    /// The bound as `solve` prints it (H+S, H - S the Manhattan distance; MTM: N).
    pub bound: String,
    /// The bound as the engine searches it: happy and sad moves, `happy - sad` the estimate
    /// (MTM: the bound in `happy`, and `sad` 0).
    pub happy: u32,
    pub sad: u32,
    /// MTM: the start's lower bound, the first bound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimate: Option<u32>,
    /// MTM: the least `g + h` that the walk above the cut cut off (absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<u32>,
    /// Every solution (items searched to the end), or the first.
    pub all: bool,
    /// The items' order (absent: the walk's); best first, every item's `before` is `above`.
    #[serde(default, skip_serializing_if = "is_walk")]
    pub order: Order,
    /// Nodes generated above the cut (the root not counted).
    pub above: u64,
    pub items: Vec<PlanItem>,
}

/// An item of the cut: the nodes one thread generates before it, the moves (pieces pushed)
/// from the start to its root, and the happy and sad moves left there (MTM: the moves left in
/// `happy`); with none left, the moves are a solution met above the cut.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PlanItem {
    pub before: u64,
    pub moves: Vec<u8>,
    pub happy: u32,
    pub sad: u32,
}

impl From<(u64, Vec<u8>, u32, u32)> for PlanItem {
    fn from((before, moves, happy, sad): (u64, Vec<u8>, u32, u32)) -> PlanItem {
        PlanItem {
            before,
            moves,
            happy,
            sad,
        }
    }
}

impl PlanItem {
    fn is_solution(&self) -> bool {
        self.happy == 0 && self.sad == 0
    }
}

/// A place where `plan --split` cuts deeper: items at least `depth` moves from the start
/// below the node that the pieces `moves` pushed reach.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Split {
    moves: Vec<u8>,
    depth: u32,
}

/// What a worker found below one item.
#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ShardResult {
    pub format: String,
    pub plan: String,
    pub item: usize,
    pub nodes: u64,
    /// The solutions (every one with the plan's `all`, else the first), as moves from the start.
    pub solutions: Vec<Vec<u8>>,
    /// MTM: the least `g + h` cut off below the item (absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<u32>,
}

fn is_stm(metric: &Metric) -> bool {
    *metric == Metric::Stm
}

fn is_walk(order: &Order) -> bool {
    *order == Order::Walk
}

pub fn run(args: &ShardArgs) -> Result<(), Failure> {
    match &args.command {
        ShardCommand::Plan(args) => plan(args),
        ShardCommand::Run(args) => run_item(args),
        ShardCommand::Merge(args) => merge(args),
    }
}

fn bad(message: impl Into<String>) -> Failure {
    Failure::BadInput(message.into())
}

/// The bound `text` as `solve` prints it in `metric` (H+S; MTM: N) of `start` with estimate
/// `h`, as the engine's happy and sad moves (MTM: the bound and 0).
fn parse_bound(
    metric: Metric,
    text: &str,
    start: &Position,
    h: u32,
) -> Result<(u32, u32), Failure> {
    if metric == Metric::Mtm {
        return match text.trim().parse::<u32>() {
            Ok(bound) if bound >= h => Ok((bound, 0)),
            _ => Err(bad(format!(
                "--bound {text} is not a bound of this position: MTM bounds are N moves, from {h} up"
            ))),
        };
    }
    let manhattan = start.manhattan() as u32;
    let first = ((h + manhattan) / 2, (h - manhattan.min(h)) / 2);
    let wrong = || {
        bad(format!(
            "--bound {text} is not a bound of this position: bounds are H+S with H - S = {manhattan} \
             (the Manhattan distance), from {}+{} up in steps of 1+1",
            first.0, first.1
        ))
    };
    let (happy, sad) = text.split_once('+').ok_or_else(wrong)?;
    let parse = |n: &str| n.trim().parse::<u32>().map_err(|_| wrong());
    let (happy, sad) = (parse(happy)?, parse(sad)?);
    let length = happy.checked_add(sad).ok_or_else(wrong)?;
    if happy.checked_sub(sad) != Some(manhattan) || sad < first.1 {
        return Err(wrong());
    }
    // The engine's: h + k happy and k sad moves, with 2k = H + S - h.
    let k = (length - h) / 2;
    Ok((h + k, k))
}

/// The bound with the engine's `happy` and `sad` moves, as `solve` prints it.
fn knuth_bound(start: &Position, happy: u32, sad: u32) -> (u32, u32) {
    let (length, manhattan) = (happy + sad, start.manhattan() as u32);
    ((length + manhattan) / 2, (length - manhattan) / 2)
}

fn name<T: ValueEnum>(value: &T) -> String {
    value
        .to_possible_value()
        .map_or_else(String::new, |v| v.get_name().to_string())
}

fn plan(args: &PlanArgs) -> Result<(), Failure> {
    let plan = make_plan(args)?;
    save(&args.out, &plan)?;
    let subtrees = plan.items.iter().filter(|i| !i.is_solution()).count();
    let depth = plan.items.iter().map(|i| i.moves.len()).max().unwrap_or(0);
    writeln!(
        super::out(),
        "bound {}: {} at depth {depth} ({subtrees} subtrees, {} solutions above the cut), {} nodes above the cut{}; plan {} in {}",
        plan.bound,
        match plan.items.len() {
            1 => "1 item".to_string(),
            n => format!("{n} items"),
        },
        plan.items.len() - subtrees,
        plan.above,
        match plan.order {
            Order::Walk => "",
            Order::BestFirst => ", best first",
        },
        plan.id,
        args.out.display()
    )?;
    Ok(())
}

/// The plan of `args` (its `out` is not written): the bound's cut and what a worker must
/// match, its id the checksum of the rest.
pub fn make_plan(args: &PlanArgs) -> Result<Plan, Failure> {
    let mut splits = shard::Splits::default();
    if let Some(path) = &args.split {
        let wanted: Vec<Split> = load(path, "list of splits")?;
        for split in wanted {
            splits.add(&split.moves, split.depth);
        }
    }
    let text = args.position.join(" ");
    let convention = args.board.convention;
    let start = Position::parse(&text, args.board.size, convention).map_err(Failure::bad_input)?;
    let goal = args.goal.read(Some(start.board()), convention)?;
    let problem = Problem::new(start, convention, goal)?;
    let engine = problem.engine(args.metric, args.engine)?;
    if !problem.searched.is_solvable() {
        return Err(Failure::NoSolution(
            crate::engine::EngineError::Unsolvable.to_string(),
        ));
    }
    let searched = &problem.searched;
    let searcher = Searcher::new(args.metric, &args.heuristic, args.all, searched.board())?;
    let h = searcher.estimate(searched);
    let (happy, sad) = match &args.bound {
        Some(text) => parse_bound(args.metric, text, searched, h)?,
        None => (h, 0),
    };
    // The automaton's stack holds no longer paths; the reference engine would not end.
    if happy.saturating_add(sad) > automaton::MAX_LENGTH {
        return Err(bad(format!(
            "shard plans bounds of at most {} moves",
            automaton::MAX_LENGTH
        )));
    }
    let wanted = args.items as usize;
    let bound = ((happy, sad), args.all);
    let tables = (searcher.has_tables(), args.all);
    let order = Order::of(args.order, args.metric, tables, searched.board())?;
    let best_first = order == Order::BestFirst;
    let (above, next, items) =
        searcher.cut(engine, searched, bound, (wanted, best_first), &splits)?;
    if let Some(damage) = searcher.damage() {
        return Err(bad(damage));
    }
    let (bound, estimate) = match args.metric {
        Metric::Stm => {
            let (knuth_happy, knuth_sad) = knuth_bound(searched, happy, sad);
            (format!("{knuth_happy}+{knuth_sad}"), None)
        }
        Metric::Mtm => (happy.to_string(), Some(h)),
    };
    let mut plan = Plan {
        format: PLAN_FORMAT.into(),
        id: String::new(),
        version: crate::VERSION.into(),
        board: start.board().to_string(),
        position: start.notation(convention),
        convention: name(&convention),
        metric: args.metric,
        goal: problem
            .goal
            .as_ref()
            .map(|goal| goal.position().notation(convention)),
        engine: name(&engine),
        heuristic: searcher.name(),
        prune: searcher.prune().name().into(),
        tables: searcher.checksums(),
        bound,
        happy,
        sad,
        estimate,
        next,
        all: args.all,
        order,
        above,
        items,
    };
    let body = serde_json::to_vec(&plan).map_err(Failure::bad_input)?;
    plan.id = format!("{:08x}-{}", crc32fast::hash(&body), body.len());
    Ok(plan)
}

/// Writes `value` as one line of JSON to `path`, atomically.
fn save(path: &Path, value: &impl Serialize) -> Result<(), Failure> {
    let mut text = serde_json::to_string(value).map_err(Failure::bad_input)?;
    text.push('\n');
    crate::plot::save(path, &text)
        .map_err(|error| bad(format!("cannot write {}: {error}", path.display())))
}

/// Reads the JSON file `path` as a `what`.
fn load<T: serde::de::DeserializeOwned>(path: &Path, what: &str) -> Result<T, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| bad(format!("cannot read {}: {error}", path.display())))?;
    serde_json::from_str(&text).map_err(|error| {
        bad(format!(
            "{} is not a {what} of fifteen shard: {error}",
            path.display()
        ))
    })
}

/// Reads the plan `path`, checking its format.
fn load_plan(path: &Path) -> Result<Plan, Failure> {
    let plan: Plan = load(path, "plan")?;
    check_format(plan, &path.display().to_string())
}

/// `plan`, named `name` in messages, if it is of this binary's format.
fn check_format(plan: Plan, name: &str) -> Result<Plan, Failure> {
    if plan.format != PLAN_FORMAT {
        return Err(bad(format!(
            "{name} is a plan of another format ({:?}, not {PLAN_FORMAT:?})",
            plan.format
        )));
    }
    Ok(plan)
}

/// The plan in the JSON `text`, named `name` in messages (as a file's path is).
pub fn read_plan(text: &str, name: &str) -> Result<Plan, Failure> {
    let plan: Plan = serde_json::from_str(text)
        .map_err(|error| bad(format!("{name} is not a plan of fifteen shard: {error}")))?;
    check_format(plan, name)
}

/// The problem of `plan` (named `name`): its start, convention and goal.
fn plan_problem(plan: &Plan, name: &str) -> Result<Problem, Failure> {
    let damaged = |what: &str| bad(format!("{name}: the plan's {what} cannot be read"));
    let board: Board = plan.board.parse().map_err(|_| damaged("board"))?;
    let convention =
        Convention::from_str(&plan.convention, false).map_err(|_| damaged("convention"))?;
    let start = Position::parse(&plan.position, Some(board), convention)
        .map_err(|_| damaged("position"))?;
    let goal = match &plan.goal {
        Some(goal) => {
            Some(crate::goal::parse(goal, Some(board), convention).map_err(|_| damaged("goal"))?)
        }
        None => None,
    };
    Problem::new(start, convention, goal).map_err(|_| damaged("goal"))
}

fn run_item(args: &RunArgs) -> Result<(), Failure> {
    let path = &args.plan;
    let plan = load_plan(path)?;
    let out = |i: usize| match (&args.out, &args.out_dir) {
        (Some(out), _) if args.item.len() == 1 => Ok(out.clone()),
        (_, Some(dir)) => Ok(dir.join(format!("{i}.json"))),
        _ => Err(bad(
            "--out takes the result of one item: give --out-dir DIR for several",
        )),
    };
    // Said before any search.
    out(args.item[0])?;
    let name = path.display().to_string();
    let tables = args.tables.as_deref();
    run_items(&plan, &name, &args.item, (tables, None), &mut |result| {
        save(&out(result.item)?, &result)
    })
}

/// A worker searches only the plans of its own version.
fn check_version(plan: &Plan, name: &str) -> Result<(), Failure> {
    let version = crate::VERSION;
    if plan.version != version {
        return Err(bad(format!(
            "{name} was planned by fifteen {}; this worker is fifteen {version}",
            plan.version
        )));
    }
    Ok(())
}

/// What `plan` (named `name`) was cut with: its metric's searcher, from the tables in `tables`
/// (default: `$FIFTEEN_TABLES`, else the cache), if they are the plan's.
pub fn plan_heuristic(plan: &Plan, name: &str, tables: Option<&Path>) -> Result<Searcher, Failure> {
    check_version(plan, name)?;
    let problem = plan_problem(plan, name)?;
    let choice: Choice = plan.heuristic.parse().map_err(bad)?;
    let prune = Prune::from_str(&plan.prune, false)
        .map_err(|_| bad(format!("{name}: unknown pruning {:?}", plan.prune)))?;
    let args = HeuristicArgs {
        heuristic: Some(choice),
        tables: tables.map(Path::to_path_buf),
        prune: Some(prune),
    };
    let searched = problem.searched.board();
    let searcher = Searcher::new(plan.metric, &args, plan.all, searched)?;
    let ours = searcher.checksums();
    if searcher.name() != plan.heuristic || ours != plan.tables {
        return Err(bad(format!(
            "{name}: this worker's {} tables (checksums {}) are not the plan's ({} {}): build them from the same binary, or share the planner's",
            searcher.name(),
            ours.join(","),
            plan.heuristic,
            plan.tables.join(",")
        )));
    }
    Ok(searcher)
}

/// Searches the items `items` of `plan` (named `name` in messages) in this order, with the
/// tables in `tables`, handing each result to `each` as soon as it is found; without the plan's
/// `all`, an item after one that holds a solution is not searched (no items: nothing to do).
/// With a `stop`, looked at every few million nodes ([`shard::search_stopping`]), the search
/// ends when it says so (`Failure::Stopped`, the results found before it handed over).
pub fn run_items(
    plan: &Plan,
    name: &str,
    items: &[usize],
    (tables, stop): (Option<&Path>, Option<&crate::engine::Stop>),
    each: &mut dyn FnMut(ShardResult) -> Result<(), Failure>,
) -> Result<(), Failure> {
    check_version(plan, name)?;
    let problem = plan_problem(plan, name)?;
    let engine = EngineKind::from_str(&plan.engine, false)
        .map_err(|_| bad(format!("{name}: unknown engine {:?}", plan.engine)))?;
    for &i in items {
        if i >= plan.items.len() {
            return Err(bad(match plan.items.len() {
                0 => format!("{name} has no items (merge needs no result)"),
                n => format!("{name} has items 0 to {}, not {i}", n - 1),
            }));
        }
    }
    let searcher = plan_heuristic(plan, name, tables)?;
    let bound = ((plan.happy, plan.sad), plan.all);
    // The earliest item seen to hold a solution: one thread searches nothing after it.
    let mut first = usize::MAX;
    for &i in items {
        if i > first && !plan.all {
            continue;
        }
        let item = &plan.items[i];
        let found = if item.is_solution() {
            ItemFound {
                found: Found {
                    nodes: 0,
                    solutions: vec![item.moves.clone()],
                },
                next: None,
            }
        } else {
            let searched = searcher
                .search(engine, &problem.searched, item, bound, stop)
                .map_err(|failure| match failure {
                    Failure::BadInput(why) => bad(format!("{name}: item {i} {why}")),
                    other => other,
                })?;
            match searched {
                Some(found) => found,
                None => {
                    let bound = &plan.bound;
                    let stopped = stop.map(|stop| stop.stopped(bound.clone(), true));
                    return Err(match stopped {
                        Some(crate::engine::EngineError::Stopped(stopped)) => {
                            let mut failure = Failure::from(stopped);
                            if let Failure::Stopped { message, .. } = &mut failure {
                                *message = format!("{name}, item {i}: {message}");
                            }
                            failure
                        }
                        _ => bad(format!("{name}, item {i}: stopped")),
                    });
                }
            }
        };
        if let Some(damage) = searcher.damage() {
            return Err(bad(damage));
        }
        let ItemFound { found, next } = found;
        if !found.solutions.is_empty() {
            first = first.min(i);
        }
        each(ShardResult {
            format: RESULT_FORMAT.into(),
            plan: plan.id.clone(),
            item: i,
            nodes: found.nodes,
            solutions: found.solutions,
            next,
        })?;
    }
    Ok(())
}

fn merge(args: &MergeArgs) -> Result<(), Failure> {
    let path = &args.plan;
    let plan = load_plan(path)?;
    let mut results = Vec::new();
    for file in &args.results {
        let result: ShardResult = load(file, "result")?;
        results.push((file.display().to_string(), result));
    }
    let lines = merge_lines(&plan, &path.display().to_string(), results)?;
    let mut out = super::out();
    for line in lines {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// The lines of `fifteen shard merge` for `plan` (named `name`) and its `results`, each named
/// in messages by the name beside it: the bound's solutions or its failure line, its nodes, and
/// the next bound after a failure.
pub fn merge_lines(
    plan: &Plan,
    name: &str,
    results: Vec<(String, ShardResult)>,
) -> Result<Vec<String>, Failure> {
    let problem = plan_problem(plan, name)?;
    let mut slots: Vec<Option<Found>> = vec![None; plan.items.len()];
    // MTM: the least g + h cut off, above the cut and below each item with a result.
    let mut next = plan.next;
    for (file, result) in results {
        if result.format != RESULT_FORMAT || result.plan != plan.id {
            return Err(bad(format!(
                "{file} is a result of another plan ({}, not {})",
                result.plan, plan.id
            )));
        }
        next = match (next, result.next) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let found = Found {
            nodes: result.nodes,
            solutions: result.solutions,
        };
        match slots.get_mut(result.item) {
            None => {
                return Err(bad(format!(
                    "{file} is for item {}, but the plan has {} items",
                    result.item,
                    plan.items.len()
                )))
            }
            Some(Some(earlier)) if *earlier != found => {
                return Err(bad(format!(
                    "{file} disagrees with another result for item {}",
                    result.item
                )))
            }
            Some(slot) => *slot = Some(found),
        }
    }
    // A solution above the cut needs no worker.
    for (item, slot) in plan.items.iter().zip(&mut slots) {
        if item.is_solution() {
            *slot = Some(Found {
                nodes: 0,
                solutions: vec![item.moves.clone()],
            });
        }
    }
    let befores = plan.items.iter().map(|item| item.before);
    let found = parallel::merge(plan.above, befores.zip(slots), plan.all).map_err(|i| {
        bad(format!(
            "{name}: no result for item {i} (fifteen shard run {name} --item {i} --out FILE)"
        ))
    })?;
    // The root counts once for the whole search, in the first bound.
    let first = match plan.metric {
        Metric::Stm => plan.sad == 0,
        Metric::Mtm => plan.estimate == Some(plan.happy),
    };
    let nodes = found.nodes + u64::from(first);
    let searched = &problem.searched;
    let manhattan = searched.manhattan() as u32;
    for moves in &found.solutions {
        if searched.replay(moves).map_or(true, |end| !end.is_goal()) {
            return Err(bad(format!(
                "{name}: a solution of the results does not solve {}",
                plan.position
            )));
        }
    }
    let count = found.solutions.len();
    let (start, convention) = (&problem.start, problem.convention);
    let mut lines = Vec::new();
    for moves in found.solutions {
        let solution = Solution::with_length(problem.back(&moves), manhattan);
        let head = plan.metric.head(start, &solution);
        let tiles = MoveNotation::Tiles;
        let moves = plan.metric.moves(start, &solution.moves, tiles, convention);
        lines.push(format!("{head}: {moves}"));
    }
    if count == 0 {
        lines.push(format!(" ... no solution with {} moves", plan.bound));
    } else if plan.all {
        let plural = if count == 1 { "" } else { "s" };
        lines.push(format!("{count} optimal solution{plural}"));
    }
    lines.push(format!("{nodes} nodes generated in bound {}", plan.bound));
    if count == 0 {
        match plan.metric {
            Metric::Stm => {
                let (happy, sad) = knuth_bound(searched, plan.happy + 1, plan.sad + 1);
                lines.push(format!("next bound: {happy}+{sad}"));
            }
            Metric::Mtm => lines.extend(next.map(|next| format!("next bound: {next}"))),
        }
    }
    Ok(lines)
}
