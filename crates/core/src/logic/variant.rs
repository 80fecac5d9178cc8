//! The path of simplest steps on a variant puzzle, and its next step.
//!
//! The grid the techniques read is the puzzle's geometry with the houses and peers its rules
//! add (an extra region is a house; cage mates, a knight's move apart, a thermometer's cells and
//! whatever else a rule keeps apart for every digit are peers: [`Deducer::geometry`]), so every house technique — singles, locked candidates, subsets, fish,
//! wings, chains — sees them as it sees rows and boxes. The rules' own deductions come in as
//! steps of their own (`constraints.rs`), and so do their weak links (`links.rs`): a candidate
//! whose links empty a cell or a house goes (`rule_forcing.rs`), and chains run over them as
//! over the houses' (`aic.rs`). Techniques that rest on the solution being unique
//! by the houses alone (unique rectangles and loops, BUG) are left out: a constraint can tell
//! apart the two solutions they assume interchangeable.
//!
//! The scale is the project's own (Sudoku Explainer's has no variants): each house technique
//! keeps Sudoku Explainer's difficulty, each constraint family has one
//! ([`RuleFamily::difficulty`](super::RuleFamily::difficulty)), the 45 rule is 2.8, forcing by
//! weak links 2.9, a chain or a trial 6.0 and up by length, and a puzzle rates as its hardest
//! step.

use super::aic::aics_with_rules;
use super::board::Board;
use super::chains::Chaining;
use super::constraints::{constraint_steps, masks_of, Broke};
use super::ladder::Rung;
use super::links::RuleLinks;
use super::rule_forcing::rule_forcing;
use super::solver::{stopped, Outcome, Path};
use super::step::{length_steps, Candidate, Difficulty, RuleFamily, Step, Technique};
use super::Sink;
use crate::engine::variant::{Deducer, Origin};
use crate::engine::{Budget, Digits};
use crate::grid::{digit_char, Geometry};
use crate::rules::Rules;

/// One rung of the variant ladder.
#[derive(Clone, Copy, Debug)]
enum VariantRung {
    /// A house technique, as on a classic puzzle.
    Houses(Rung),
    /// The constraints of the families up to this difficulty.
    Rules(u16),
    /// The 45 rule's innies and outies.
    FortyFive,
    /// A candidate whose weak links, a rule's among them, empty a cell or a house of a digit.
    Forcing,
    /// The simplest of: a digit whose placing leads to a contradiction by singles and the
    /// rules' deductions; an alternating inference chain over the rules' weak links as well as
    /// the houses'; Sudoku Explainer's cycles and forcing X-chains on the houses.
    Contradiction,
}

use VariantRung::{Contradiction, Forcing, FortyFive, Houses, Rules as ByRules};

/// Singles first, then what one rule says, locked candidates, the 45 rule, and the house
/// techniques in Sudoku Explainer's order.
const VARIANT_LADDER: &[VariantRung] = &[
    Houses(Rung::FullHouse),
    Houses(Rung::HiddenSingle),
    Houses(Rung::NakedSingle),
    ByRules(15),
    Houses(Rung::LockedCandidates),
    ByRules(25),
    FortyFive,
    Forcing,
    Houses(Rung::NakedSet(2)),
    Houses(Rung::Fish(2)),
    Houses(Rung::HiddenSet(2)),
    Houses(Rung::NakedSet(3)),
    Houses(Rung::Fish(3)),
    Houses(Rung::HiddenSet(3)),
    Houses(Rung::TurbotFish),
    Houses(Rung::XyWing),
    Houses(Rung::XyzWing),
    Houses(Rung::NakedSet(4)),
    Houses(Rung::Fish(4)),
    Houses(Rung::HiddenSet(4)),
    Houses(Rung::StrongLinks(3)),
    Houses(Rung::WxyzWing),
    Houses(Rung::VwxyzWing),
    Houses(Rung::AlignedExclusion(2)),
    Contradiction,
    Houses(Rung::AlignedExclusion(3)),
    Houses(Rung::Chains(Chaining::Multiple)),
    Houses(Rung::Chains(Chaining::Dynamic)),
    Houses(Rung::Chains(Chaining::DynamicPlus)),
];

/// What a trial follows after placing its digit: singles and what each rule says alone.
const TRIAL_LADDER: &[VariantRung] = &[
    Houses(Rung::FullHouse),
    Houses(Rung::HiddenSingle),
    Houses(Rung::NakedSingle),
    ByRules(25),
    FortyFive,
];

/// The most steps a trial follows before it gives up on a digit: a contradiction further
/// away is no step a person takes.
const TRIAL_STEPS: usize = 40;

/// A trial this short ends the search for a shorter one.
const SHORT_TRIAL: usize = 2;

/// A variant puzzle ready to walk: its rules, the deducer of their steps, and the grid with
/// the houses and peers they add.
struct Walker<'r> {
    rules: &'r Rules,
    deducer: Deducer<'r>,
    geo: Geometry,
}

impl<'r> Walker<'r> {
    fn new(geometry: &'r Geometry, rules: &'r Rules) -> Walker<'r> {
        let deducer = Deducer::new(geometry, rules);
        let geo = deducer.geometry(geometry);
        Walker {
            rules,
            deducer,
            geo,
        }
    }

    /// The simplest step on `board`; `Err` names the constraint that cannot hold there.
    fn next<const W: usize>(
        &self,
        board: &Board<'_, W>,
        budget: &Budget,
    ) -> Result<Option<Step>, Broke> {
        self.first_of(VARIANT_LADDER, board, budget)
    }

    /// The first step of the first rung of `ladder` that has one.
    fn first_of<const W: usize>(
        &self,
        ladder: &[VariantRung],
        board: &Board<'_, W>,
        budget: &Budget,
    ) -> Result<Option<Step>, Broke> {
        // The rules' weak links, worked out once for the rungs that read them.
        let mut links: Option<RuleLinks> = None;
        for &rung in ladder {
            let mut sink = Sink::first();
            match rung {
                Houses(rung) => {
                    let _ = rung.find(board, budget, &mut sink);
                }
                ByRules(upto) => {
                    let wanted = |f: Option<RuleFamily>| {
                        f.is_some_and(|f| f.difficulty() <= Difficulty::tenths(upto))
                    };
                    let _ = constraint_steps(board, self.rules, &self.deducer, wanted, &mut sink)?;
                }
                FortyFive => {
                    let only_45 = |f: Option<RuleFamily>| f.is_none();
                    let _ = constraint_steps(board, self.rules, &self.deducer, only_45, &mut sink)?;
                }
                Forcing => {
                    let links = self.links(&mut links, board, budget);
                    let _ = rule_forcing(board, links, budget, &mut sink);
                }
                Contradiction => {
                    let links = self.links(&mut links, board, budget);
                    let simplest = self.simplest_of_trial_and_chain(board, links, budget);
                    sink.steps.extend(simplest);
                }
            }
            if let Some(step) = sink.steps.pop() {
                return Ok(Some(step));
            }
            if stopped(budget).is_some() {
                return Ok(None);
            }
        }
        Ok(None)
    }

    /// `board`'s rule links, worked out on first use.
    fn links<'l, const W: usize>(
        &self,
        links: &'l mut Option<RuleLinks>,
        board: &Board<'_, W>,
        budget: &Budget,
    ) -> &'l RuleLinks {
        links.get_or_insert_with(|| RuleLinks::of(board, self.rules, &self.deducer, budget))
    }

    /// The simplest of the shortest trial's contradiction, the simplest chain over the rules'
    /// weak links, and the first of Sudoku Explainer's cycles on the houses, all three rated
    /// near 6.0–7.0 but found in no order of difficulty; a chain before a trial when they tie
    /// (a pattern says more than a trial).
    fn simplest_of_trial_and_chain<const W: usize>(
        &self,
        board: &Board<'_, W>,
        links: &RuleLinks,
        budget: &Budget,
    ) -> Option<Step> {
        let mut chains = Sink::first();
        let _ = aics_with_rules(board, links, budget, &mut chains);
        let mut cycles = Sink::first();
        let _ = Rung::Chains(Chaining::Cycles).find(board, budget, &mut cycles);
        let trial = self.contradiction(board, budget);
        let found = chains.steps.into_iter().chain(cycles.steps).chain(trial);
        // `min_by_key` keeps the first of equals.
        found.min_by_key(|step| step.difficulty)
    }

    /// The candidate whose placing reaches a contradiction in the fewest steps of the trial
    /// ladder, as a step that takes it out (cells with fewest candidates tried first).
    fn contradiction<const W: usize>(&self, board: &Board<'_, W>, budget: &Budget) -> Option<Step> {
        let mut cells: Vec<usize> = board.empty_cells().iter().collect();
        cells.sort_by_key(|&c| board.candidates(c).len());
        // The shortest found so far bounds the trials after it, and one of a couple of steps
        // is short enough to stop looking (a person would not look further either).
        let mut best: Option<(Vec<Step>, usize, u8, String)> = None;
        let masks = masks_of(board);
        'cells: for &cell in &cells {
            for digit in board.candidates(cell).iter() {
                if stopped(budget).is_some() {
                    return None;
                }
                if !self.deducer.contradicts(&masks, cell, digit) {
                    continue;
                }
                let limit = best
                    .as_ref()
                    .map_or(TRIAL_STEPS, |b| b.0.len().saturating_sub(1));
                let mut trial = board.clone();
                trial.place(cell, digit);
                if let Some((steps, end)) = self.follow(&mut trial, budget, limit) {
                    let short_enough = steps.len() <= SHORT_TRIAL;
                    best = Some((steps, cell, digit, end));
                    if short_enough {
                        break 'cells;
                    }
                }
            }
        }
        let (steps, cell, digit, end) = best?;
        let name = board.geo.cell_name(cell);
        let chain: Vec<String> = steps.iter().map(|s| short(board, s)).collect();
        let chain = match chain.is_empty() {
            true => String::new(),
            false => format!(" {} →", chain.join(" → ")),
        };
        Some(Step {
            technique: Technique::RuleContradiction,
            difficulty: Difficulty::tenths(
                Technique::RuleContradiction.variant_difficulty().0 + length_steps(steps.len()),
            ),
            placements: Vec::new(),
            eliminations: vec![Candidate::new(cell, digit)],
            cells: vec![cell as u16],
            units: Vec::new(),
            digits: Digits::single(digit),
            text: format!(
                "If {name} were {d}:{chain} {end}, a contradiction, so {d} leaves {name}",
                d = digit_char(digit)
            ),
        })
    }

    /// Follows the trial ladder on `trial` for up to `limit` steps; the steps and what broke
    /// when it reaches a contradiction.
    fn follow<const W: usize>(
        &self,
        trial: &mut Board<'_, W>,
        budget: &Budget,
        limit: usize,
    ) -> Option<(Vec<Step>, String)> {
        let mut steps = Vec::new();
        loop {
            if let Some(end) = self.what_broke(trial) {
                return Some((steps, end));
            }
            if steps.len() >= limit {
                return None;
            }
            match self.first_of(TRIAL_LADDER, trial, budget) {
                Err(Broke(origin, emptied)) => {
                    let rule = match origin {
                        Origin::Constraint(i) => {
                            self.rules.constraints[i as usize].label(trial.geo)
                        }
                        Origin::FortyFive => "the 45 rule".to_string(),
                    };
                    let end = match emptied {
                        Some(cell) => {
                            format!("{rule} leaves {} no digit", trial.geo.cell_name(cell))
                        }
                        None => format!("{rule} cannot hold"),
                    };
                    return Some((steps, end));
                }
                Ok(None) => return None,
                Ok(Some(step)) => {
                    trial.apply(&step);
                    steps.push(step);
                }
            }
        }
    }

    /// "D4 has no digit left", "row B has no place for 7", "cage 10 at A1 A2 is broken":
    /// why `board` cannot be completed, if it cannot.
    fn what_broke<const W: usize>(&self, board: &Board<'_, W>) -> Option<String> {
        let geo = board.geo;
        if let Some(cell) = board
            .empty_cells()
            .iter()
            .find(|&c| board.candidates(c).is_empty())
        {
            return Some(format!("{} has no digit left", geo.cell_name(cell)));
        }
        for unit in 0..geo.units.len() {
            for digit in 1..=board.side() as u8 {
                if !board.unit_has_value(unit, digit) && board.places_in(digit, unit).is_empty() {
                    let (unit, d) = (geo.unit_name(unit), digit_char(digit));
                    return Some(format!("{unit} has no place for {d}"));
                }
            }
        }
        if board.is_solved() && !self.keeps_the_rules(board.values()) {
            return Some("the full grid breaks a rule".to_string());
        }
        None
    }

    /// Whether a full grid keeps every rule (the steps are sound, so it does whenever the
    /// puzzle has a solution; one without reaches a full grid that breaks a rule).
    fn keeps_the_rules(&self, values: &[u8]) -> bool {
        let size = self.geo.size;
        self.rules
            .constraints
            .iter()
            .all(|c| c.satisfied(size, values))
            && self.rules.broken_pairs(size, values).is_empty()
    }

    fn walk<const W: usize>(&self, givens: &[u8], budget: &Budget) -> Path {
        let mut board = Board::<W>::new(&self.geo, givens);
        let mut steps = Vec::new();
        let outcome = loop {
            if board.is_solved() {
                break match self.keeps_the_rules(board.values()) {
                    true => Outcome::Solved,
                    false => Outcome::Broken,
                };
            }
            if board.is_broken() {
                break Outcome::Broken;
            }
            if let Some(stop) = stopped(budget) {
                break Outcome::Stopped(stop);
            }
            match self.next(&board, budget) {
                Err(_) => break Outcome::Broken,
                Ok(None) => {
                    break match stopped(budget) {
                        Some(stop) => Outcome::Stopped(stop),
                        None => Outcome::Stuck,
                    }
                }
                Ok(Some(step)) => {
                    board.apply(&step);
                    steps.push(step);
                }
            }
        };
        Path {
            steps,
            outcome,
            values: board.values().to_vec(),
        }
    }

    /// The steps from `givens` up to and including the first that places a digit, at most
    /// `max`: the first whatever it takes (within `first`), the others within `rest`.
    fn lead<const W: usize>(
        &self,
        givens: &[u8],
        max: usize,
        first: &Budget,
        rest: &Budget,
    ) -> Vec<Step> {
        let board = Board::<W>::new(&self.geo, givens);
        let next = |board: &Board<'_, W>, budget: &Budget| self.next(board, budget).ok().flatten();
        super::hints::lead_from(board, max, first, rest, next)
    }

    fn step<const W: usize>(
        &self,
        values: &[u8],
        marks: Option<&[Digits]>,
        budget: &Budget,
    ) -> Option<Step> {
        let mut board = Board::<W>::new(&self.geo, values);
        if let Some(marks) = marks {
            board.keep_marks(marks);
        }
        self.next(&board, budget).ok().flatten()
    }
}

/// Walks the path of simplest steps of a puzzle with `rules` on `geometry` (the puzzle's own,
/// with its regions) from `givens` (0 for empty).
pub fn solve_path_with_rules(
    geometry: &Geometry,
    rules: &Rules,
    givens: &[u8],
    budget: &Budget,
) -> Path {
    let walker = Walker::new(geometry, rules);
    if geometry.cells() <= 128 {
        walker.walk::<2>(givens, budget)
    } else {
        walker.walk::<10>(givens, budget)
    }
}

/// The steps of a puzzle with `rules` from `givens` up to and including the first that places
/// a digit (what the editor's *Apply next step* writes), at most `max` of them: the first
/// within `first`, the others within `rest`.
pub fn lead_with_rules(
    geometry: &Geometry,
    rules: &Rules,
    givens: &[u8],
    max: usize,
    first: &Budget,
    rest: &Budget,
) -> Vec<Step> {
    let walker = Walker::new(geometry, rules);
    if geometry.cells() <= 128 {
        walker.lead::<2>(givens, max, first, rest)
    } else {
        walker.lead::<10>(givens, max, first, rest)
    }
}

/// The simplest step of a puzzle with `rules` from `values` (the givens and the solver's
/// entries), keeping to the pencil marks `marks` when given (a digit left out is out).
pub fn next_step_with_rules(
    geometry: &Geometry,
    rules: &Rules,
    values: &[u8],
    marks: Option<&[Digits]>,
    budget: &Budget,
) -> Option<Step> {
    let walker = Walker::new(geometry, rules);
    if geometry.cells() <= 128 {
        walker.step::<2>(values, marks, budget)
    } else {
        walker.step::<10>(values, marks, budget)
    }
}

/// A trial's step in a few words: "B2=1" for a placement, "cage 10 at B1 B2: B2≠9" for a
/// rule's eliminations, "row A: C1≠5, C2≠5" for a house technique's.
fn short<const W: usize>(board: &Board<'_, W>, step: &Step) -> String {
    let geo = board.geo;
    if !step.placements.is_empty() {
        let placed: Vec<String> = step
            .placements
            .iter()
            .map(|p| format!("{}={}", geo.cell_name(p.cell as usize), digit_char(p.digit)))
            .collect();
        return placed.join(", ");
    }
    let about = step.text.split([':']).next().unwrap_or_default();
    let about = about.split(" can hold").next().unwrap_or_default();
    let about = about.split(" allows").next().unwrap_or_default();
    let mut chars = about.chars();
    let about: String = match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    };
    let mut gone: Vec<(u16, Digits)> = Vec::new();
    for e in &step.eliminations {
        match gone.iter_mut().find(|(c, _)| *c == e.cell) {
            Some((_, digits)) => digits.insert(e.digit),
            None => gone.push((e.cell, Digits::single(e.digit))),
        }
    }
    let gone: Vec<String> = gone
        .into_iter()
        .map(|(cell, digits)| {
            let digits: Vec<String> = digits.iter().map(|d| digit_char(d).to_string()).collect();
            format!("{}≠{}", geo.cell_name(cell as usize), digits.join("/"))
        })
        .collect();
    format!("{about}: {}", gone.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::variant;
    use crate::format::parse;
    use crate::logic::rate;
    use crate::logic::step::Technique;
    use crate::rules::Rules;
    use std::time::{Duration, Instant};

    /// The example puzzles of `puzzles/variants/`, each read: (file name, text).
    fn examples() -> Vec<(String, String)> {
        let folder =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../puzzles/variants");
        let mut found: Vec<(String, String)> = std::fs::read_dir(&folder)
            .expect("puzzles/variants")
            .map(|entry| entry.expect("an entry").path())
            .filter(|path| path.extension().is_some_and(|e| e == "sudoku"))
            .map(|path| {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                (name, std::fs::read_to_string(&path).expect("readable"))
            })
            .collect();
        found.sort();
        found
    }

    /// The path of `text`'s first puzzle, its one solution (by the engine's search, which the
    /// path does not use) and the steps that do not hold in it.
    fn walked(text: &str, budget: &Budget) -> (Path, Vec<String>) {
        let document = parse(text);
        let puzzle = &document.puzzles[0];
        let geometry = puzzle.geometry();
        let rules: Rules = puzzle.rules.as_deref().cloned().unwrap_or_default();
        let found = variant::solve(&geometry, &rules, &puzzle.givens, 2, &Budget::unlimited());
        assert_eq!(found.solutions.len(), 1, "{text}");
        let solution = &found.solutions[0];
        let path = solve_path_with_rules(&geometry, &rules, &puzzle.givens, budget);
        let wrong = path
            .steps
            .iter()
            .filter(|step| {
                step.placements
                    .iter()
                    .any(|c| solution[c.cell as usize] != c.digit)
                    || step
                        .eliminations
                        .iter()
                        .any(|c| solution[c.cell as usize] == c.digit)
            })
            .map(|step| step.text.clone())
            .collect();
        (path, wrong)
    }

    #[test]
    fn every_variant_example_is_solved_by_steps_that_hold_in_its_solution() {
        let examples = examples();
        assert!(examples.len() >= 7, "{examples:?}");
        for (name, text) in examples {
            let (path, wrong) = walked(&text, &Budget::unlimited());
            assert!(
                wrong.is_empty(),
                "{name}: steps that break the solution: {wrong:#?}"
            );
            assert_eq!(path.outcome, Outcome::Solved, "{name}");
            assert!(path.values.iter().all(|&d| d != 0), "{name}");
        }
    }

    #[test]
    fn a_cage_step_names_the_combinations_left_and_the_hints_go_from_where_to_what() {
        let text = include_str!("../../../../puzzles/variants/killer.sudoku");
        let (path, _) = walked(text, &Budget::unlimited());
        let first = &path.steps[0];
        assert_eq!(first.technique, Technique::Rule(RuleFamily::Cage));
        assert_eq!(
            first.text,
            "Cage 24 at A1 A2 B1 B2 can hold only 3 4 8 9, 3 5 7 9 or 3 6 7 8: 1 and 2 leave A1, B1, B2"
        );
        let geo = parse(text).puzzles[0].geometry();
        assert_eq!(first.hint(&geo, 1), "look at cage 24 at A1 A2 B1 B2");
        assert_eq!(
            first.hint(&geo, 2),
            "look at which digits cage 24 at A1 A2 B1 B2 allows"
        );
        assert_eq!(first.hint(&geo, 3), first.text);
        // The variant scale: the rules' steps rate with the singles and locked candidates.
        let rating = rate(&path);
        assert_eq!(
            rating.difficulty,
            Difficulty::tenths(28),
            "{:?}",
            rating.hardest
        );
    }

    #[test]
    fn a_contradiction_names_the_digit_it_tries_and_what_breaks() {
        let text = include_str!("../../../../puzzles/variants/xv.sudoku");
        let (path, wrong) = walked(text, &Budget::unlimited());
        assert!(wrong.is_empty(), "{wrong:#?}");
        let trial = path
            .steps
            .iter()
            .find(|s| s.technique == Technique::RuleContradiction)
            .expect("the XV example needs a contradiction");
        let [taken] = trial.eliminations[..] else {
            panic!("one candidate taken: {trial:?}");
        };
        let geo = parse(text).puzzles[0].geometry();
        let (cell, digit) = (geo.cell_name(taken.cell as usize), taken.digit);
        assert!(
            trial.text.starts_with(&format!("If {cell} were {digit}: "))
                && trial
                    .text
                    .ends_with(&format!(", a contradiction, so {digit} leaves {cell}")),
            "{}",
            trial.text
        );
        assert!(trial.difficulty >= Difficulty::tenths(60), "{trial:?}");
    }

    #[test]
    fn a_next_step_keeps_to_the_pencil_marks_and_a_broken_grid_has_none() {
        // A killer cage of 3 over two cells: 1 and 2 only.
        let text = "cage 3: A1 A2\n".to_string() + &".".repeat(81);
        let puzzle = &parse(&text).puzzles[0];
        let (geometry, rules) = (puzzle.geometry(), puzzle.rules.as_deref().unwrap());
        let budget = Budget::unlimited();
        let step = next_step_with_rules(&geometry, rules, &puzzle.givens, None, &budget)
            .expect("the cage rules out 3 to 9");
        assert_eq!(
            step.text,
            "Cage 3 at A1 A2 can hold only 1 2: 3, 4, 5, 6, 7, 8 and 9 leave A1, A2; what it must \
             hold leaves the cells that see all its places for it: 1 and 2 leave A3, A4, A5, A6, \
             A7, A8, A9, B1, B2, B3, C1, C2, C3"
        );
        // With A1's marks already {1, 2}, the cage takes 3–9 from A2 and nothing from A1.
        let mut marks = vec![Digits::all(9); 81];
        marks[0] = [1, 2].into_iter().collect();
        let step = next_step_with_rules(&geometry, rules, &puzzle.givens, Some(&marks), &budget)
            .expect("A2 still has 3 to 9");
        assert!(step.eliminations.iter().all(|c| c.cell != 0), "{step:?}");
        let from_a2: Digits = step
            .eliminations
            .iter()
            .filter(|c| c.cell == 1)
            .map(|c| c.digit)
            .collect();
        assert_eq!(from_a2, (3..=9).collect(), "{step:?}");
        // 3 and 4 in a cage of 3: the cage cannot hold.
        let mut givens = puzzle.givens.clone();
        givens[0] = 3;
        let path = solve_path_with_rules(&geometry, rules, &givens, &budget);
        assert_eq!(path.outcome, Outcome::Broken, "{:?}", path.steps.first());
    }

    #[test]
    fn a_walk_stops_when_its_budget_runs_out() {
        let text = include_str!("../../../../puzzles/variants/kropki.sudoku");
        let puzzle = &parse(text).puzzles[0];
        let (geometry, rules) = (puzzle.geometry(), puzzle.rules.as_deref().unwrap());
        let budget = Budget {
            deadline: Some(Instant::now() + Duration::from_millis(1)),
            ..Budget::default()
        };
        std::thread::sleep(Duration::from_millis(2));
        let path = solve_path_with_rules(&geometry, rules, &puzzle.givens, &budget);
        assert!(
            matches!(path.outcome, Outcome::Stopped(_)),
            "{:?}",
            path.outcome
        );
    }
}
