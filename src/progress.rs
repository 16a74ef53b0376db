//! The spinner of a long step (a comparison's current run, a machine's build): one line on
//! stderr with the time and what runs, drawn by indicatif, which hides it when stderr is not a
//! terminal. Below the CLI and the library's builds alike, so neither reaches into the other.

use indicatif::{ProgressBar, ProgressStyle};

/// A spinner that ticks twice a second until it is finished or dropped.
pub fn spinner() -> ProgressBar {
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} {elapsed} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar.enable_steady_tick(std::time::Duration::from_millis(500));
    bar
}
