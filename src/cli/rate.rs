//! `rate`, `explain` and `hint`: the path of simplest steps through each puzzle, told as much as
//! each command asks — its rating, every step, or the next step only.
//!
//! Inputs are read in pieces as `check` reads them; each piece's puzzles are graded on every
//! core, then printed in order. Exit status as `check`: 0 when every puzzle was rated, 1 when any
//! has no single solution (or the file has errors), 2 for a usage or I/O problem.

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::progress::Progress;
use super::style::{self, Paint};

use serde_json::{json, Value};

use super::inputs::{self, Input};
use super::lines::LineIndex;
use super::read;
use super::report;
use crate::analysis::{grade, hint, incomplete_reason, Graded};
use crate::engine::Budget;
use crate::finding::Severity;
use crate::format::Puzzle;
use crate::grid::{geometry, Geometry};
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
    let mut out = Output::new(options.format);
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

/// Grades one input, piece by piece; true when some puzzle could not be rated.
fn grade_input(input: &Input, options: &Options, out: &mut Output) -> Result<bool, String> {
    let name = input.name();
    let reader = input.open()?;
    let mut unrated = false;
    let read = read::pieces(reader, options.max_file, |piece| {
        let index = LineIndex::piece(&piece.text, piece.base, piece.first_line);
        for problem in &piece.document.problems {
            if problem.severity <= Severity::Warning {
                unrated |= problem.severity == Severity::Error;
                eprintln!("{}", report::line(&name, &index, problem, Paint::stderr()));
            }
        }
        let puzzles = &piece.document.puzzles;
        let progress = &out.progress;
        let graded = in_parallel(puzzles, |puzzle| {
            let graded = grade_one(puzzle, options);
            progress.add(1);
            graded
        });
        for (puzzle, graded) in puzzles.iter().zip(&graded) {
            unrated |= matches!(graded, Graded::NotRated(_));
            let (line, column) = index.line_column(puzzle.anchor().start);
            let place = Place {
                name: &name,
                line,
                column,
            };
            out.puzzle(&place, puzzle, graded, options.mode);
        }
        out.flush();
    });
    read.map_err(|stop| format!("{name}: {}", stop.message()))?;
    Ok(unrated)
}

fn grade_one(puzzle: &Puzzle, options: &Options) -> Graded {
    let budget = Budget {
        max_nodes: Some(crate::analysis::DEFAULT_MAX_NODES),
        deadline: Some(Instant::now() + options.time_limit),
        cancel: None,
    };
    match options.mode {
        Mode::Hint(_) => hint(puzzle, &budget),
        _ => grade(puzzle.size, puzzle.variant, &puzzle.clues(), &budget),
    }
}

/// `f` of every item, in order, computed on every core (items taken one at a time, since one
/// hard puzzle can take a thousand times longer than an easy one).
fn in_parallel<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    if threads < 2 || items.len() < 2 {
        return items.iter().map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let mut results: Vec<(usize, R)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.min(items.len()))
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break done };
                        done.push((i, f(item)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a grading thread panicked"))
            .collect()
    });
    results.sort_unstable_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

struct Place<'n> {
    name: &'n str,
    line: usize,
    column: usize,
}

/// Prints as puzzles come: text lines, or one JSON array written as it goes.
struct Output {
    progress: Progress,
    format: OutputFormat,
    /// Colour for the text output on stdout (off for JSON).
    paint: Paint,
    stdout: std::io::BufWriter<std::io::Stdout>,
    written: usize,
    broken: bool,
}

impl Output {
    fn new(format: OutputFormat) -> Output {
        let mut out = Output {
            progress: Progress::new("puzzles graded", format == OutputFormat::Text),
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

    fn puzzle(&mut self, place: &Place, puzzle: &Puzzle, graded: &Graded, mode: Mode) {
        let geo = geometry(puzzle.size, puzzle.variant);
        match self.format {
            OutputFormat::Text => {
                let text = text(place, geo, puzzle, graded, mode, self.paint);
                self.write(&text);
            }
            OutputFormat::Json => {
                let value = json_of(place, geo, graded, mode);
                let comma = if self.written > 0 { "," } else { "" };
                self.write(&format!("{comma}\n{value}"));
                self.written += 1;
            }
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
    }

    fn write(&mut self, text: &str) {
        if !self.broken && self.stdout.write_all(text.as_bytes()).is_err() {
            self.broken = true;
        }
    }
}

/// `7.2 Fiendish (Forcing chain)`, with `>=` and the reason when it is only a lower bound; the
/// level and the technique coloured when `paint` is on.
fn rating_words(graded: &Graded, paint: Paint) -> String {
    match graded {
        Graded::NotRated(why) => format!("not rated: {why}"),
        Graded::Hinted { .. } => "not rated (hint only)".to_string(),
        Graded::Rated { rating, path, .. } => {
            // No step at all: solved as given, or no technique moves the first grid.
            let none = if incomplete_reason(path).is_none() {
                "already solved"
            } else {
                "no step found"
            };
            let technique =
                paint.paint(style::TECHNIQUE, rating.hardest.map_or(none, |t| t.name()));
            let level = paint.paint(style::level(rating.level), rating.level);
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
    graded: &Graded,
    mode: Mode,
    paint: Paint,
) -> String {
    let head = paint.place(place.name, place.line, place.column);
    match (mode, graded) {
        (Mode::Rate, _) | (_, Graded::NotRated(_)) => {
            format!("{head}: {}\n", rating_words(graded, paint))
        }
        (Mode::Explain, Graded::Rated { path, .. }) => {
            let mut text = format!(
                "{head}: {}, {}\n",
                rating_words(graded, paint),
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
        (Mode::Hint(level), Graded::Hinted { step, stopped }) => match step {
            None if puzzle.givens.iter().all(|&d| d != 0) => {
                format!("{head}: hint: already solved\n")
            }
            None if *stopped => format!("{head}: hint: none found within --time-limit\n"),
            None => format!("{head}: hint: no technique the solver knows applies\n"),
            Some(step) => format!("{head}: hint: {}\n", hint_text(geo, step, level)),
        },
        (_, Graded::Rated { .. } | Graded::Hinted { .. }) => {
            format!("{head}: {}\n", rating_words(graded, paint))
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

fn json_of(place: &Place, geo: &Geometry, graded: &Graded, mode: Mode) -> Value {
    let mut value = json!({ "path": place.name, "line": place.line, "column": place.column });
    match graded {
        Graded::NotRated(why) => {
            value["rating"] = Value::Null;
            value["not_rated"] = json!(why);
        }
        Graded::Hinted { step, .. } => {
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
        Graded::Rated { rating, path, .. } => {
            value["rating"] = json!(rating.difficulty.as_f64());
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
