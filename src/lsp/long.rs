//! Long work: commands that may search for many seconds (the generator behind
//! `sudoku.newPuzzle`) run here, on threads of their own, at most [`running`] at once and
//! [`WAITING`] more queued; past that a command is refused at once, saying why. The ratings
//! (minutes for a large collection, in slices) run here too, on threads of their own
//! ([`background`]), never refused.
//!
//! Not on tokio's blocking pool, which the diagnostics runs, queries and ratings share: four
//! 25×25 generations once held every worker while a hover waited 20 s. With one long job at a time
//! on a two-core machine the other core stays free, and the threads run at a lower priority
//! (Linux), so hover and diagnostics are never behind them. Each job gets a cancel flag, raised
//! when its request is cancelled (`$/cancelRequest` drops the handler's future): a job still
//! queued then never starts, and a running one stops at its search's next look at the flag.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, OnceLock};

/// Jobs queued behind the running ones before a new one is refused.
pub const WAITING: usize = 3;

/// How many long jobs run at once: half the cores (at least one), the rest left to requests.
pub fn running() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (cores / 2).max(1)
}

type Job = Box<dyn FnOnce() + Send>;

/// Threads of long work: their queue, and how many jobs it has taken that have not ended.
struct Pool {
    queue: Sender<Job>,
    taken: AtomicUsize,
}

impl Pool {
    /// A pool of `threads` threads named `name-N`, at a lower priority.
    fn new(name: &str, threads: usize) -> Pool {
        let (sender, receiver) = mpsc::channel::<Job>();
        let receiver = Arc::new(Mutex::new(receiver));
        for n in 0..threads {
            let receiver = receiver.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("{name}-{n}"))
                .spawn(move || work_through(&receiver));
            if let Err(error) = spawned {
                eprintln!("sudoku-lsp: cannot start a thread for long work: {error}");
            }
        }
        Pool {
            queue: sender,
            taken: AtomicUsize::new(0),
        }
    }
}

/// The commands' pool, its threads started on first use.
fn pool() -> &'static Pool {
    static POOL: OnceLock<Pool> = OnceLock::new();
    POOL.get_or_init(|| Pool::new("sudoku-lsp-long", running()))
}

/// Run `work` on a background thread (the ratings'): one per core (two at least), at the same
/// lower priority, so a diagnostics run or a hover takes a core from them at once. Wait for it
/// with the returned receiver (`Err` on it: `work` panicked).
pub fn background<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> tokio::sync::oneshot::Receiver<T> {
    static POOL: OnceLock<Pool> = OnceLock::new();
    let pool = POOL.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Pool::new("sudoku-lsp-rating", cores.max(2))
    });
    let (sender, receiver) = tokio::sync::oneshot::channel();
    let job: Job = Box::new(move || {
        let _ = sender.send(work());
    });
    // The threads hold the receiving end for good; if they are gone, the receiver says so.
    let _ = pool.queue.send(job);
    receiver
}

/// Gives a job's place back when the job ends, however it ends.
struct Place(&'static AtomicUsize);

impl Drop for Place {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A long-work thread: take jobs one at a time until the queue is gone.
fn work_through(receiver: &Mutex<Receiver<Job>>) {
    lower_priority();
    loop {
        let job = {
            let receiver = receiver.lock().unwrap_or_else(|e| e.into_inner());
            receiver.recv()
        };
        let Ok(job) = job else {
            return;
        };
        // A job catches its own panics (`jobs::guarded`); this keeps the thread if one does not.
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
    }
}

/// Let the scheduler put requests first: a nice of 10 for this thread (Linux threads are
/// scheduled one by one), nothing elsewhere.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: gettid has no arguments; setpriority on our own thread id only changes its nice.
    unsafe {
        let thread = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::setpriority(libc::PRIO_PROCESS, thread, 10);
    }
}

/// Why a long job was not taken.
#[derive(Debug)]
pub struct Busy;

/// Queue `work` to run on a long-work thread with `cancel` as its flag; wait for it with the
/// returned receiver (`Err` on it: the job was cancelled before it ran, or panicked). `Busy`
/// when [`running`] jobs run and [`WAITING`] more wait.
pub fn start<T: Send + 'static>(
    cancel: Arc<AtomicBool>,
    work: impl FnOnce(&AtomicBool) -> T + Send + 'static,
) -> Result<tokio::sync::oneshot::Receiver<T>, Busy> {
    let pool = pool();
    if pool.taken.fetch_add(1, Ordering::SeqCst) >= running() + WAITING {
        pool.taken.fetch_sub(1, Ordering::SeqCst);
        return Err(Busy);
    }
    let place = Place(&pool.taken);
    let (sender, receiver) = tokio::sync::oneshot::channel();
    let job: Job = Box::new(move || {
        let _place = place;
        if cancel.load(Ordering::Relaxed) {
            return; // cancelled while it waited
        }
        let _ = sender.send(work(&cancel));
    });
    // The threads hold the receiving end for good, so sending cannot fail while they live.
    pool.queue.send(job).map_err(|_| Busy)?;
    Ok(receiver)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn jobs_run_cancelled_ones_stop_and_a_full_queue_refuses() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        // Jobs that spin until cancelled fill every place, running and waiting.
        let flags: Vec<Arc<AtomicBool>> = (0..running() + WAITING)
            .map(|_| Arc::new(AtomicBool::new(false)))
            .collect();
        let spinning: Vec<_> = flags
            .iter()
            .map(|flag| {
                start(flag.clone(), |cancel| {
                    let give_up = Instant::now() + Duration::from_secs(30);
                    while !cancel.load(Ordering::Relaxed) && Instant::now() < give_up {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    "stopped"
                })
                .expect("a place")
            })
            .collect();
        let refused = start(Arc::new(AtomicBool::new(false)), |_| ());
        assert!(refused.is_err(), "every place taken");
        for flag in &flags {
            flag.store(true, Ordering::Relaxed);
        }
        runtime.block_on(async {
            for job in spinning {
                // Running ones answer; those cancelled while waiting never run.
                let _ = tokio::time::timeout(Duration::from_secs(5), job)
                    .await
                    .expect("ended");
            }
            let done = start(Arc::new(AtomicBool::new(false)), |_| 42).expect("a place again");
            let answer = tokio::time::timeout(Duration::from_secs(5), done).await;
            assert_eq!(answer.expect("in time").expect("ran"), 42);
        });
    }
}
