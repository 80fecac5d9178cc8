//! How far a long run over a big collection is, on stderr: `check`, `solve` and the graders share
//! it. Shown only when stderr is a terminal, the output is for people (no machine format), and
//! the run has taken more than a second (a short run prints nothing more); cleared at the end,
//! so what is left on the terminal is the output alone.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A run shorter than this shows nothing.
const DELAY: Duration = Duration::from_secs(1);

pub struct Progress {
    bar: ProgressBar,
    start: Instant,
    /// Whether the line may be shown at all (stderr a terminal, text output).
    allowed: bool,
    shown: AtomicBool,
}

impl Progress {
    /// A counter of `what` (`puzzles checked`), shown when `for_people` and stderr is a terminal.
    pub fn new(what: &str, for_people: bool) -> Progress {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        let template = format!("{{spinner}} {{pos}} {what} ({{per_sec}}, {{elapsed}})");
        let style = ProgressStyle::with_template(&template)
            .unwrap_or_else(|_| ProgressStyle::default_spinner());
        bar.set_style(style);
        Progress {
            bar,
            start: Instant::now(),
            allowed: for_people && std::io::IsTerminal::is_terminal(&std::io::stderr()),
            shown: AtomicBool::new(false),
        }
    }

    /// `n` more done (from any thread); the line appears once the run is past the delay.
    pub fn add(&self, n: usize) {
        self.bar.inc(n as u64);
        if self.allowed && self.start.elapsed() > DELAY && !self.shown.swap(true, Ordering::Relaxed)
        {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.bar.enable_steady_tick(Duration::from_millis(200));
        }
    }

    /// Run `f` (writing to stdout or stderr) with the line out of the way, so the two never mix
    /// on a terminal.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    /// Clear the line: the terminal is left with the output alone.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        // An early return (stdout closed) must not leave the line behind either.
        self.bar.finish_and_clear();
    }
}
