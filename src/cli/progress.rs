//! How far a long run over a big collection is, on stderr: `check`, `solve` and the graders share
//! it. Shown only when stderr is a terminal, the output is for people (no machine format), and
//! the run has taken more than a second (a short run prints nothing more); cleared at the end,
//! so what is left on the terminal is the output alone.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A run shorter than this shows nothing.
const DELAY: Duration = Duration::from_secs(1);

/// The delay, or `SUDOKU_LSP_PROGRESS_AFTER_MS` milliseconds when set: the tests show the line
/// at once rather than depend on how fast this machine checks their collection.
fn delay() -> Duration {
    std::env::var("SUDOKU_LSP_PROGRESS_AFTER_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
        .map_or(DELAY, Duration::from_millis)
}

pub struct Progress {
    bar: ProgressBar,
    /// Set once the run is over, under the lock the delayed showing takes, so the line is never
    /// shown after it was cleared.
    over: Arc<Mutex<bool>>,
}

impl Progress {
    /// A counter of `what` (`puzzles checked`), shown when `for_people` and stderr is a terminal.
    pub fn new(what: &str, for_people: bool) -> Progress {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        // Not `{per_sec}`: indicatif writes it with four decimals.
        let template = format!("{{spinner}} {{human_pos}} {what} ({{elapsed}})");
        let style = ProgressStyle::with_template(&template)
            .unwrap_or_else(|_| ProgressStyle::default_spinner());
        bar.set_style(style);
        let over = Arc::new(Mutex::new(false));
        if for_people && std::io::IsTerminal::is_terminal(&std::io::stderr()) {
            // Shown after the delay even while one slow piece holds the run: a timer of its own.
            let (bar, over) = (bar.clone(), over.clone());
            std::thread::spawn(move || {
                std::thread::sleep(delay());
                let over = over.lock().unwrap_or_else(|e| e.into_inner());
                if !*over {
                    bar.set_draw_target(ProgressDrawTarget::stderr());
                    bar.tick(); // drawn now, not at the first tick
                    bar.enable_steady_tick(Duration::from_millis(200));
                }
            });
        }
        Progress { bar, over }
    }

    /// `n` more done (from any thread).
    pub fn add(&self, n: usize) {
        self.bar.inc(n as u64);
    }

    /// Run `f` (writing to stdout or stderr) with the line out of the way, so the two never mix
    /// on a terminal.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    /// Clear the line: the terminal is left with the output alone.
    pub fn finish(&self) {
        let mut over = self.over.lock().unwrap_or_else(|e| e.into_inner());
        *over = true;
        self.bar.finish_and_clear();
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        // An early return (stdout closed) must not leave the line behind either.
        self.finish();
    }
}
