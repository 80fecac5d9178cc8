//! `rate`, `explain` and `hint`: the path of simplest steps through each puzzle, told as much as
//! each command asks — its rating, every step, or the next step only.
//!
//! Inputs are read in pieces as `check` reads them; each piece's puzzles are graded on every
//! core, then printed in order. Exit status as `check`: 0 when every puzzle was rated, 1 when any
//! has no single solution (or the file has errors), 2 for a usage or I/O problem.

use std::collections::BTreeMap;
use std::io::Write;
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use super::progress::Progress;
use super::style::{self, Paint};

use serde_json::{json, Value};

use super::inputs::{self, Input};
use super::lines::LineIndex;
use super::read;
use super::report;
use crate::analysis::{grade_puzzle, hint, incomplete_reason, NextHint, NotRated, Rated, Scale};
use crate::engine::Budget;
use crate::finding::Severity;
use crate::format::Puzzle;
use crate::grid::Geometry;
use crate::logic::{Candidate, Step};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    Text,
    Json,
}

/// What to say about each puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Rate,
    Explain,
    /// The next step, at hint level 1 (where to look), 2 (which technique) or 3 (the step).
    Hint(u8),
}

pub struct Options {
    pub mode: Mode,
    pub format: OutputFormat,
    /// Time allowed per puzzle before its rating is given as a lower bound.
    pub time_limit: Duration,
    pub max_file: u64,
}

pub fn run(args: &[String], options: &Options) -> i32 {
    let collected = inputs::collect(args);
    let progress = Progress::new("puzzles graded", options.format == OutputFormat::Text);
    let mut out = Output::new(options.format, &progress);
    let mut code = if collected.problems > 0 { 2 } else { 0 };
    for input in &collected.inputs {
        match grade_input(input, options, &mut out) {
            Ok(unrated) if unrated => code = code.max(1),
            Ok(_) => {}
            Err(message) => code = super::fail(&message),
        }
        if out.broken {
            return 2;
        }
    }
    out.progress.finish();
    out.finish();
    if out.broken {
        2
    } else {
        code
    }
}

/// The most problems of one input said on stderr; the others are counted (a text where every
/// line is an error would otherwise be said, and held, line by line).
const PROBLEMS_SHOWN: usize = 1000;

/// Grades one input, piece by piece; true when some puzzle could not be rated.
fn grade_input(input: &Input, options: &Options, out: &mut Output<'_>) -> Result<bool, String> {
    // Unescaped: JSON wants the name as it is; the text format escapes it.
    let name = input.raw_name();
    let reader = input.open_text()?;
    let mut unrated = false;
    let mut problems_shown = 0;
    let mut not_shown = 0;
    let read = read::pieces_keeping(reader, options.max_file, PROBLEMS_SHOWN, false, |piece| {
        let index = LineIndex::piece(&piece.text, piece.base, piece.first_line);
        unrated |= piece.document.unkept.errors > 0;
        not_shown += piece.document.unkept.errors + piece.document.unkept.warnings;
        for problem in &piece.document.problems {
            if problem.severity <= Severity::Warning {
                unrated |= problem.severity == Severity::Error;
                if problems_shown == PROBLEMS_SHOWN {
                    not_shown += 1;
                    continue;
                }
                problems_shown += 1;
                let line = report::line(&name, &index, problem, Paint::stderr());
                out.progress.suspend(|| eprintln!("{line}"));
            }
        }
        let puzzles = &piece.document.puzzles;
        // Placed here: the index is built on its first question, by one thread.
        let places: Vec<(usize, usize)> = puzzles
            .iter()
            .map(|puzzle| index.line_column(puzzle.anchor().start))
            .collect();
        let (format, paint) = (out.format, out.paint);
        let progress = out.progress;
        let said = |i: usize| {
            let puzzle = &puzzles[i];
            let answer = grade_one(puzzle, options);
            progress.add(1);
            let (line, column) = places[i];
            let place = Place {
                name: &name,
                line,
                column,
            };
            let unrated = matches!(answer, Answer::NotRated(_));
            let said = say(&place, puzzle, &answer, options.mode, format, paint);
            (said, unrated)
        };
        in_order(puzzles.len(), said, |(said, not_rated)| {
            unrated |= not_rated;
            out.puzzle(&said).is_ok()
        });
        out.flush();
    });
    if not_shown > 0 {
        let more = crate::finding::plural(not_shown, "more problem");
        let shown = style::printable(&name);
        out.progress
            .suspend(|| eprintln!("{shown}: {more} not shown (at most {PROBLEMS_SHOWN} a file)"));
    }
    read.map_err(|stop| format!("{name}: {}", stop.message()))?;
    Ok(unrated)
}

/// What was found of one puzzle: its rating (`rate`, `explain`), its next hint (`hint`), or
/// why it has neither.
enum Answer {
    Rated(Rated),
    Hinted(NextHint),
    NotRated(&'static str),
}

fn grade_one(puzzle: &Puzzle, options: &Options) -> Answer {
    let budget = Budget {
        max_nodes: Some(crate::analysis::DEFAULT_MAX_NODES),
        deadline: Some(Instant::now() + options.time_limit),
        cancel: None,
    };
    let answer = match options.mode {
        Mode::Hint(_) => hint(puzzle, &budget).map(Answer::Hinted),
        _ => grade_puzzle(puzzle, &budget).map(Answer::Rated),
    };
    answer.unwrap_or_else(|NotRated(why)| Answer::NotRated(why))
}

/// `f` of `0..n` computed on every core (items taken one at a time, since one hard puzzle can
/// take a thousand times longer than an easy one) and handed to `each` in order, each as soon
/// as it and all before it are done, until `each` says stop (false). At most a few results per
/// core wait for one before them, so memory stays flat however many items there are, and
/// what is done is said at once.
fn in_order<R: Send>(n: usize, f: impl Fn(usize) -> R + Sync, mut each: impl FnMut(R) -> bool) {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    if threads < 2 || n < 2 {
        for i in 0..n {
            if !each(f(i)) {
                return;
            }
        }
        return;
    }
    let window = threads * WINDOW_PER_THREAD;
    let state = Mutex::new(Window {
        next: 0,
        handed: 0,
        done: BTreeMap::new(),
        stop: false,
    });
    let changed = Condvar::new();
    let lock = || state.lock().unwrap_or_else(|e| e.into_inner());
    std::thread::scope(|scope| {
        for _ in 0..threads.min(n) {
            scope.spawn(|| {
                while let Some(i) = take_next(&state, &changed, n, window) {
                    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(i)));
                    lock().done.insert(i, result);
                    changed.notify_all();
                }
            });
        }
        for i in 0..n {
            let mut window = lock();
            let result = loop {
                if let Some(result) = window.done.remove(&i) {
                    break result;
                }
                window = changed.wait(window).unwrap_or_else(|e| e.into_inner());
            };
            window.handed = i + 1;
            drop(window);
            changed.notify_all();
            let go_on = match result {
                Ok(result) => each(result),
                Err(panic) => {
                    stop(&state, &changed);
                    std::panic::resume_unwind(panic);
                }
            };
            if !go_on {
                stop(&state, &changed);
                return;
            }
        }
    });
}

/// How long what is said may wait in the buffer.
const FLUSH_EVERY: Duration = Duration::from_millis(100);

/// Results each thread may be ahead of the first one not yet handed on.
const WINDOW_PER_THREAD: usize = 4;

/// The work of `in_order` in flight.
struct Window<R> {
    /// The next item to take.
    next: usize,
    /// How many results were handed on.
    handed: usize,
    /// Results done but not handed on (a panic's payload in place of one that panicked).
    done: BTreeMap<usize, std::thread::Result<R>>,
    /// Take no more items.
    stop: bool,
}

/// The next item for a thread to work on, once the window has room for it; `None` when there
/// is none left (or the work stopped).
fn take_next<R>(
    state: &Mutex<Window<R>>,
    changed: &Condvar,
    n: usize,
    window: usize,
) -> Option<usize> {
    let mut state = state.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        if state.stop || state.next >= n {
            return None;
        }
        if state.next < state.handed + window {
            state.next += 1;
            return Some(state.next - 1);
        }
        state = changed.wait(state).unwrap_or_else(|e| e.into_inner());
    }
}

fn stop<R>(state: &Mutex<Window<R>>, changed: &Condvar) {
    state.lock().unwrap_or_else(|e| e.into_inner()).stop = true;
    changed.notify_all();
}

struct Place<'n> {
    name: &'n str,
    line: usize,
    column: usize,
}

/// Prints as puzzles come: text lines, or one JSON array written as it goes.
struct Output<'p> {
    progress: &'p Progress,
    /// When the output was last written out.
    flushed: Instant,
    format: OutputFormat,
    /// Colour for the text output on stdout (off for JSON).
    paint: Paint,
    stdout: std::io::BufWriter<std::io::Stdout>,
    written: usize,
    broken: bool,
}

impl<'p> Output<'p> {
    fn new(format: OutputFormat, progress: &'p Progress) -> Output<'p> {
        let mut out = Output {
            progress,
            flushed: Instant::now(),
            paint: match format {
                OutputFormat::Text => Paint::stdout(),
                OutputFormat::Json => Paint::off(),
            },
            format,
            stdout: std::io::BufWriter::new(std::io::stdout()),
            written: 0,
            broken: false,
        };
        if format == OutputFormat::Json {
            out.write("[");
        }
        out
    }

    /// Write one puzzle's text (a JSON object after a comma but for the first); whether
    /// standard output still takes it.
    fn puzzle(&mut self, said: &str) -> Result<(), ()> {
        match self.format {
            OutputFormat::Text => self.write(said),
            OutputFormat::Json => {
                let comma = if self.written > 0 { "," } else { "" };
                self.write(&format!("{comma}\n{said}"));
                self.written += 1;
            }
        }
        // Out soon after it is known (a hard puzzle can take seconds), not once per piece.
        if self.flushed.elapsed() >= FLUSH_EVERY {
            self.flush();
        }
        if self.broken {
            Err(())
        } else {
            Ok(())
        }
    }

    fn finish(&mut self) {
        if self.format == OutputFormat::Json {
            self.write("\n]\n");
        }
        if !self.broken && self.stdout.flush().is_err() {
            self.broken = true;
        }
    }

    /// Writes out what is buffered, with the progress line out of the way.
    fn flush(&mut self) {
        let Output {
            progress,
            stdout,
            broken,
            ..
        } = self;
        if !*broken && progress.suspend(|| stdout.flush()).is_err() {
            *broken = true;
        }
        self.flushed = Instant::now();
    }

    fn write(&mut self, text: &str) {
        if !self.broken && self.stdout.write_all(text.as_bytes()).is_err() {
            self.broken = true;
        }
    }
}

/// What is said of one puzzle: its lines of text, or its JSON object.
fn say(
    place: &Place,
    puzzle: &Puzzle,
    answer: &Answer,
    mode: Mode,
    format: OutputFormat,
    paint: Paint,
) -> String {
    let geo = &puzzle.geometry();
    match format {
        OutputFormat::Text => text(place, geo, puzzle, answer, mode, paint),
        OutputFormat::Json => json_of(place, geo, answer, mode).to_string(),
    }
}

/// `7.2 Fiendish (Forcing chain)`, with `>=` and the reason when it is only a lower bound; the
/// level and the technique coloured when `paint` is on.
fn rating_words(answer: &Answer, paint: Paint) -> String {
    match answer {
        Answer::NotRated(why) => format!("not rated: {why}"),
        Answer::Hinted(_) => "not rated (hint only)".to_string(),
        Answer::Rated(Rated {
            rating,
            path,
            scale,
            ..
        }) => {
            // No step at all: solved as given, or no technique moves the first grid.
            let none = if incomplete_reason(path).is_none() {
                "already solved"
            } else {
                "no step found"
            };
            let technique =
                paint.paint(style::TECHNIQUE, rating.hardest.map_or(none, |t| t.name()));
            let level = paint.paint(style::level(rating.level), rating.level);
            let technique = match scale {
                Scale::SudokuExplainer => technique.to_string(),
                Scale::Variant => format!("{technique}, variant scale"),
            };
            match incomplete_reason(path) {
                None => format!("{} {level} ({technique})", rating.difficulty),
                Some(why) => format!(
                    ">= {} {level} ({technique}); a lower bound: the solver {why}",
                    rating.difficulty
                ),
            }
        }
    }
}

/// A step's sentence, its technique's name (which it opens with) coloured.
fn step_words(step: &Step, paint: Paint) -> String {
    let name = step.technique.name();
    match step.text.strip_prefix(name) {
        Some(rest) if paint.is_on() => format!("{}{rest}", paint.paint(style::TECHNIQUE, name)),
        _ => step.text.to_string(),
    }
}

fn text(
    place: &Place,
    geo: &Geometry,
    puzzle: &Puzzle,
    answer: &Answer,
    mode: Mode,
    paint: Paint,
) -> String {
    let head = paint.place(place.name, place.line, place.column);
    match (mode, answer) {
        (Mode::Rate, _) | (_, Answer::NotRated(_)) => {
            format!("{head}: {}\n", rating_words(answer, paint))
        }
        (Mode::Explain, Answer::Rated(Rated { path, .. })) => {
            let mut text = format!(
                "{head}: {}, {}\n",
                rating_words(answer, paint),
                steps_word(path.steps.len())
            );
            for (i, step) in path.steps.iter().enumerate() {
                text.push_str(&format!(
                    "{:>4}. [{}] {}\n",
                    i + 1,
                    step.difficulty,
                    step_words(step, paint)
                ));
            }
            text
        }
        (Mode::Hint(level), Answer::Hinted(NextHint { step, stopped })) => match step {
            None if puzzle.givens.iter().all(|&d| d != 0) => {
                format!("{head}: hint: already solved\n")
            }
            None if *stopped => format!("{head}: hint: none found within --time-limit\n"),
            None => format!("{head}: hint: no technique the solver knows applies\n"),
            Some(step) => format!("{head}: hint: {}\n", hint_text(geo, step, level)),
        },
        (_, Answer::Rated(_) | Answer::Hinted(_)) => {
            format!("{head}: {}\n", rating_words(answer, paint))
        }
    }
}

fn steps_word(n: usize) -> String {
    crate::finding::plural(n, "step")
}

/// The hint at a level: 1 where to look, 2 which technique, 3 the whole step.
pub fn hint_text(geo: &Geometry, step: &Step, level: u8) -> String {
    step.hint(geo, level)
}

fn json_of(place: &Place, geo: &Geometry, answer: &Answer, mode: Mode) -> Value {
    let mut value = json!({ "path": place.name, "line": place.line, "column": place.column });
    match answer {
        Answer::NotRated(why) => {
            value["rating"] = Value::Null;
            value["not_rated"] = json!(why);
        }
        Answer::Hinted(NextHint { step, .. }) => {
            let level = match mode {
                Mode::Hint(level) => level,
                _ => 3,
            };
            value["hint"] = match step {
                Some(step) => {
                    let mut hint = step_json(geo, step);
                    hint["hint"] = json!(hint_text(geo, step, level));
                    hint["level"] = json!(level);
                    hint
                }
                None => Value::Null,
            }
        }
        Answer::Rated(Rated {
            rating,
            path,
            scale,
            ..
        }) => {
            value["rating"] = json!(rating.difficulty.as_f64());
            value["scale"] = json!(scale.id());
            value["level"] = json!(rating.level.name());
            value["technique"] = json!(rating.hardest.map(|t| t.name()));
            value["complete"] = json!(incomplete_reason(path).is_none());
            if let Some(why) = incomplete_reason(path) {
                value["incomplete"] = json!(why);
            }
            match mode {
                Mode::Rate => value["steps"] = json!(path.steps.len()),
                Mode::Explain => {
                    let steps: Vec<Value> = path.steps.iter().map(|s| step_json(geo, s)).collect();
                    value["steps"] = Value::Array(steps);
                }
                Mode::Hint(_) => {}
            }
        }
    }
    value
}

/// One step as scripts replay it.
pub fn step_json(geo: &Geometry, step: &Step) -> Value {
    let candidates = |list: &[Candidate]| -> Vec<Value> {
        list.iter()
            .map(|c| json!({ "cell": geo.cell_name(c.cell as usize), "digit": c.digit }))
            .collect()
    };
    json!({
        "technique": step.technique.name(),
        "rating": step.difficulty.as_f64(),
        "placements": candidates(&step.placements),
        "eliminations": candidates(&step.eliminations),
        "cells": step.cells.iter().map(|&c| geo.cell_name(c as usize)).collect::<Vec<_>>(),
        "units": step.units.iter().map(|&u| geo.unit_name(u as usize)).collect::<Vec<_>>(),
        "digits": step.digits.iter().collect::<Vec<_>>(),
        "text": step.text,
    })
}
