//! The progress line of a long search, on a terminal: once a bound split into subtrees (see
//! [`crate::engine::Live`]) has been searched for a second, one line on stderr tells the
//! bound, its time, the nodes of the subtrees searched so far (where the engine counts them)
//! and how many they are, redrawn a few times a second by a thread of its own, and from then
//! on each bound from its start. Ctrl-C leaves the line as it was and ends it before the
//! process ends. The bound lines on stdout are printed around it ([`Ticker::suspend`]); when
//! stderr is not a terminal there is no line (and no ticker: see [`Ticker::start`]).

use crate::engine::Live;
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

impl Drop for Ticker {
    fn drop(&mut self) {
        interrupted_at(None);
        self.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            thread.thread().unpark();
            let _ = thread.join();
        }
        self.bar.finish_and_clear();
    }
}

/// The progress line on the screen, if any: where an interrupt (Ctrl-C) ends it.
static SHOWN: Mutex<Option<ProgressBar>> = Mutex::new(None);

/// Says which progress line is on the screen (`None`: none); the first time, installs the
/// handler of Ctrl-C that ends the line before the process ends, so that the shell's prompt
/// does not follow it on the same line.
fn interrupted_at(bar: Option<&ProgressBar>) {
    static HANDLER: Once = Once::new();
    if let Ok(mut shown) = SHOWN.lock() {
        *shown = bar.cloned();
    }
    if bar.is_some() {
        HANDLER.call_once(|| {
            let _ = ctrlc::set_handler(|| {
                if let Ok(Some(bar)) = SHOWN.lock().as_deref() {
                    // The line as it was, then a line end.
                    bar.abandon();
                    eprintln!();
                }
                std::process::exit(130);
            });
        });
    }
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
}
