//! Findings about puzzles: conflicts, impossible cells, digits with no place, and the verdict.
//!
//! `analyze` looks at one grid and knows no text positions, so its result can be cached by
//! content (`check`); `findings` places it in the source through the puzzle's spans; `explain`
//! gives the faces ready-made sentences for hover and the like (`prose` puts them in Markdown or
//! plain text); `navigate` answers the editor's navigation (the digits that fit a cell, the
//! cells of its units holding a digit); `completion` what may be typed at a cursor, and `tokens`
//! what each stretch of a text is, for highlighting by meaning (both shared by the language
//! server and the playground).
//!
//! The model is [`Analysis`] with its [`Verdict`] (`verdict`); `solutions` holds the searches
//! behind the verdict, `analyze` the function. This file only declares the modules and
//! re-exports their API.

mod analyze;
mod break_words;
mod broken;
mod check;
pub mod completion;
mod constraint_help;
mod explain;
mod findings;
mod generate;
mod grade;
mod marks;
mod navigate;
pub mod prose;
mod rule_reasons;
mod setter;
mod solutions;
pub mod tokens;
mod verdict;
mod wording;

pub use crate::rules::cage_combinations;
pub use analyze::{
    analyze, analyze_puzzle, analyze_rules, analyze_searched, analyze_with, broken_rules,
    conflicts, AnalyzeOptions,
};
pub use check::{
    against_solution, check_document, check_text, check_text_with, document_findings,
    document_findings_analysed, recheck, Asked, Cache, Checked,
};
pub use constraint_help::{explain_constraint, spaced_digits, ConstraintHelp};
pub use explain::{
    cell_marks, explain_cell, explain_cell_with, puzzle_kind, status_text, summarize,
    CellExplanation, CellState, Propagated,
};
pub use findings::{findings, givens_finding, redundant_finding};
pub use generate::{
    block_text, clock_seed, generate, generate_cancellable, line_text, parse_variant, parse_window,
    puzzle_rng, Failure, Generated, Genre, Request,
};
pub use grade::{
    grade, grade_analyzed, grade_puzzle, hint, incomplete_reason, next_step, NextHint, NotRated,
    Rated, Scale,
};
pub use marks::{
    entry_findings, fill_marks, mark_findings, marks_edits, marks_of, marks_unwritable,
    remove_naked_twins, ruled_out, solution_findings, without_ruled_out, RuledOut,
};
pub use navigate::{
    digit_cells, fits, holders, place_edit, row_candidate_counts, status_word, unit_places,
    CellFits, Fit, Place,
};
pub use setter::{
    best_extra_given, differences, no_solution_core, no_solution_core_under, redundant_givens,
    redundant_givens_under, symmetry, true_candidate_counts, true_candidates, true_candidates_at,
    Counts, Differences, ExtraGiven, Spread, Symmetry, SAMPLE,
};
pub use solutions::{NineSearch, DEFAULT_MAX_NODES};
pub use verdict::{Analysis, BrokenRule, Conflict, Core, NoPlace, Verdict};
pub use wording::reason_text;
