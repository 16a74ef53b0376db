//! The progress line of a long search, on a terminal: once a bound split into subtrees (see
//! [`crate::engine::Live`]) has been searched for a second, one line on stderr tells the
//! bound, its time, the nodes of the subtrees searched so far (where the engine counts them)
//! and how many they are, redrawn a few times a second by a thread of its own, and from then
//! on each bound from its start. The bound lines on stdout are printed around it
//! ([`Ticker::suspend`]); when stderr is not a terminal there is no line (and no ticker: see
//! [`Ticker::start`]).
//!
//! Ctrl-C in the binary ([`catch_interrupts`]) stops the search that runs
//! ([`interruptible`]), on any engine, at its next look at its [`Stop`]: the command leaves the
//! line as it was, ends it, says where the search stopped, and exits with status 130. A second
//! Ctrl-C, or one while no search runs, ends the line and the process at once (status 130).

use crate::engine::{Cause, Live, Stop};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Once};
use std::thread::JoinHandle;
use std::time::Duration;

/// The thread that draws a search's progress line until it is dropped.
pub struct Ticker {
    bar: ProgressBar,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Ticker {
    /// A ticker for a search that reports to a new [`Live`], or `None` when stderr is not a
    /// terminal (nobody would see the line; and the search then has no reason to split a
    /// bound on one thread).
    pub fn start() -> Option<(Ticker, Arc<Live>)> {
        if !std::io::stderr().is_terminal() {
            return None;
        }
        let live = Arc::new(Live::default());
        // Hidden until a bound has run for a second: a bound line printed around a bar that
        // was never shown would draw it (empty) after the line.
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden());
        let style = ProgressStyle::with_template("{msg} [{bar:24}] {pos}/{len} subtrees")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
        bar.set_style(style);
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (bar, live, stop) = (bar.clone(), live.clone(), stop.clone());
            std::thread::spawn(move || {
                let mut shown = false;
                while !stop.load(Ordering::SeqCst) {
                    // The line shows once a split bound has run for a second (no flicker of
                    // quick ones); from then on it follows each bound from its start, so that
                    // it never shows a bound that is over.
                    let bound = live
                        .read()
                        .filter(|b| shown || (b.subtrees > 0 && b.seconds >= 1.0));
                    if let Some(bound) = bound {
                        // A search that counts no nodes (the automaton with Manhattan
                        // distance, unless asked) tells its subtrees alone, not "0 nodes".
                        let nodes = match bound.counted {
                            true => format!(", {} nodes in the subtrees done", bound.nodes),
                            false => String::new(),
                        };
                        bar.set_message(format!(
                            "searching {}: {:.0} s{nodes}",
                            bound.label, bound.seconds
                        ));
                        bar.set_length(bound.subtrees as u64);
                        bar.set_position(bound.searched as u64);
                        // Shown once all of it is set (each call may draw the line).
                        if !shown {
                            bar.set_draw_target(ProgressDrawTarget::stderr());
                            // Drawn now: a new target draws only at the next change, which
                            // may be the next bound's first tick, at 0 s.
                            bar.force_draw();
                            interrupted_at(Some(&bar));
                            shown = true;
                        }
                    }
                    // Woken at once when the ticker is dropped.
                    std::thread::park_timeout(Duration::from_millis(200));
                }
            })
        };
        let ticker = Ticker {
            bar,
            stop,
            thread: Some(thread),
        };
        Some((ticker, live))
    }

    /// The progress line, for a thread that prints around it.
    pub fn bar(&self) -> ProgressBar {
        self.bar.clone()
    }

    /// Runs `print` with the progress line out of the way.
    pub fn suspend<R>(&self, print: impl FnOnce() -> R) -> R {
        self.bar.suspend(print)
    }
}

impl Ticker {
    /// Ends the line's thread; leaves the line as it was last drawn, and ends it, when `keep`
    /// and it is shown (else clears it).
    fn end(&mut self, keep: bool) {
        // Once: the line's thread is taken when it ends.
        let Some(thread) = self.thread.take() else {
            return;
        };
        interrupted_at(None);
        self.stop.store(true, Ordering::SeqCst);
        thread.thread().unpark();
        let _ = thread.join();
        if keep && !self.bar.is_hidden() {
            self.bar.abandon();
            eprintln!();
        } else {
            self.bar.finish_and_clear();
        }
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        self.end(false);
    }
}

/// The progress line on the screen, if any: where an interrupt (Ctrl-C) ends it.
static SHOWN: Mutex<Option<ProgressBar>> = Mutex::new(None);

/// The stop of the search that runs now, which Ctrl-C raises.
static RUNNING: Mutex<Option<Arc<Stop>>> = Mutex::new(None);

/// Whether this process is the binary, whose Ctrl-C stops its searches (the Python package
/// leaves SIGINT to Python).
static BINARY: AtomicBool = AtomicBool::new(false);

/// In the binary: Ctrl-C stops the search that runs (see [`interruptible`]).
pub fn catch_interrupts() {
    BINARY.store(true, Ordering::SeqCst);
}

/// Whether a Ctrl-C can stop a search in this process: the binary's, or one whose progress
/// line has been shown (the handler is then installed).
pub fn interrupts_caught() -> bool {
    BINARY.load(Ordering::SeqCst)
}

/// Until the guard is dropped, Ctrl-C raises `stop` (the search then ends at its next look
/// at it); in the binary, installs the handler of Ctrl-C the first time.
pub fn interruptible(stop: &Arc<Stop>) -> Interruptible {
    if let Ok(mut running) = RUNNING.lock() {
        *running = Some(stop.clone());
    }
    if interrupts_caught() {
        install();
    }
    Interruptible
}

/// While it lives, Ctrl-C stops the search of [`interruptible`].
pub struct Interruptible;

impl Drop for Interruptible {
    fn drop(&mut self) {
        if let Ok(mut running) = RUNNING.lock() {
            *running = None;
        }
    }
}

/// Says which progress line is on the screen (`None`: none); the first time, installs the
/// handler of Ctrl-C.
fn interrupted_at(bar: Option<&ProgressBar>) {
    if let Ok(mut shown) = SHOWN.lock() {
        *shown = bar.cloned();
    }
    if bar.is_some() {
        install();
    }
}

/// Installs, once, the handler of Ctrl-C: it stops the search that runs; with none (or a
/// second time) it ends the progress line, if any, so that the shell's prompt does not follow
/// it on the same line, and the process (status 130).
fn install() {
    static HANDLER: Once = Once::new();
    HANDLER.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            let running = RUNNING.lock().ok().and_then(|running| running.clone());
            match running {
                Some(stop) if !stop.raised() => stop.raise(Cause::Interrupt),
                _ => {
                    if let Ok(Some(bar)) = SHOWN.lock().as_deref() {
                        // The line as it was, then a line end.
                        bar.abandon();
                        eprintln!();
                    }
                    std::process::exit(i32::from(super::INTERRUPTED));
                }
            }
        });
    });
}

/// Runs `print` with the progress line of `ticker`, if any, out of the way.
pub fn around<R>(ticker: Option<&Ticker>, print: impl FnOnce() -> R) -> R {
    match ticker {
        Some(ticker) => ticker.suspend(print),
        None => print(),
    }
}

/// The bound lines of one search, printed as the engine reports them: on stdout, or on stderr
/// with `--json` (stdout holds the report), around the progress line when there is one. The
/// first failed write (a closed pipe, a full disk) is kept for [`BoundLines::finish`].
pub struct BoundLines {
    json: bool,
    ticker: Option<Ticker>,
    written: std::io::Result<()>,
}

impl BoundLines {
    pub fn new(json: bool, ticker: Option<Ticker>) -> BoundLines {
        BoundLines {
            json,
            ticker,
            written: Ok(()),
        }
    }

    /// Prints one bound line.
    pub fn print(&mut self, line: &str) {
        let (json, written) = (self.json, &mut self.written);
        let print = || {
            if json {
                eprintln!("{line}");
            } else if written.is_ok() {
                let mut out = super::out();
                *written = writeln!(out, "{line}").and_then(|()| out.flush());
            }
        };
        around(self.ticker.as_ref(), print);
    }

    /// The search is over: the progress line goes; the first failed write, if any.
    pub fn finish(self) -> std::io::Result<()> {
        drop(self.ticker);
        self.written
    }

    /// The search was stopped by Ctrl-C: the progress line stays as it was, ended; the first
    /// failed write, if any.
    pub fn interrupted(mut self) -> std::io::Result<()> {
        if let Some(ticker) = &mut self.ticker {
            ticker.end(true);
        }
        self.finish()
    }
}
