//! The hint ladder: Sudoku Explainer's ladder with the patterns HoDoKu and SudokuWiki name where
//! Sudoku Explainer has none, each put in at its difficulty, so that a hint takes a named
//! pattern before a forcing chain. Only hints use it: the path and the rating keep to
//! `ladder::LADDER`, and the extras' difficulties never enter a rating.
//!
//! Where the extras go (difficulty in brackets):
//!
//! | after Sudoku Explainer's             | extra                                  |
//! |--------------------------------------|----------------------------------------|
//! | hidden pair (3.4)                    | finned / sashimi X-wing (3.4–3.5)      |
//! | hidden triple (4.0)                  | finned / sashimi swordfish (4.0–4.1)   |
//! | XYZ-wing (4.4)                       | W-wing (4.4)                           |
//! | unique rectangles and loops (4.5+)   | simple colouring (4.5–6.5)             |
//! | naked quad (5.0)                     | Sue de Coq (5.0)                       |
//! | hidden quad (5.4)                    | finned / sashimi jellyfish (5.4–5.5)   |
//! | WXYZ-wing (5.5)                      | ALS-XZ (5.5–5.6)                       |
//! | aligned pair exclusion (6.2)         | X-/XY-chains, cycles, AICs (6.5+)      |
//!
//! Sudoku Explainer's chaining rungs (cycles, forcing chains, Nishio, multiple, dynamic and
//! nested chains) follow the AICs, before aligned triple exclusion, as in its own ladder.

use std::ops::ControlFlow;

use super::board::Board;
use super::chains::Chaining;
use super::ladder::Rung;
use super::solver::stopped;
use super::step::Step;
use super::{aic, als, colouring, fish, wings, Sink};
use crate::engine::{Budget, Digits};
use crate::grid::Geometry;

/// A finder of the hint ladder that Sudoku Explainer's ladder lacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extra {
    /// Finned and sashimi fish of this many lines.
    FinnedFish(u8),
    WWing,
    SimpleColouring,
    SueDeCoq,
    AlsXz,
    /// X-chains, XY-chains, their cycles and AICs on bivalue cells and bilocal units.
    Aic,
}

impl Extra {
    pub fn find<const W: usize>(self, b: &Board<'_, W>, sink: &mut Sink) -> ControlFlow<()> {
        match self {
            Extra::FinnedFish(k) => fish::finned_fish(b, k as usize, sink),
            Extra::WWing => wings::w_wings(b, sink),
            Extra::SimpleColouring => colouring::simple_colouring(b, sink),
            Extra::SueDeCoq => als::sue_de_coq(b, sink),
            Extra::AlsXz => als::als_xz(b, sink),
            Extra::Aic => aic::aics(b, sink),
        }
    }
}

/// Every extra, in the order of the hint ladder.
pub const EXTRAS: &[Extra] = &[
    Extra::FinnedFish(2),
    Extra::FinnedFish(3),
    Extra::WWing,
    Extra::SimpleColouring,
    Extra::SueDeCoq,
    Extra::FinnedFish(4),
    Extra::AlsXz,
    Extra::Aic,
];

/// A rung of the hint ladder: one of Sudoku Explainer's, or an extra.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HintRung {
    Se(Rung),
    Extra(Extra),
}

impl HintRung {
    pub fn find<const W: usize>(
        self,
        b: &Board<'_, W>,
        budget: &Budget,
        sink: &mut Sink,
    ) -> ControlFlow<()> {
        match self {
            HintRung::Se(rung) => rung.find(b, budget, sink),
            HintRung::Extra(extra) => extra.find(b, sink),
        }
    }
}

use HintRung::{Extra as X, Se};

/// Sudoku Explainer's ladder (`LADDER`, in its order) with the extras at their difficulty.
pub const HINT_LADDER: &[HintRung] = &[
    Se(Rung::FullHouse),
    Se(Rung::HiddenSingle),
    Se(Rung::DirectLocking),
    Se(Rung::DirectHiddenSet(2)),
    Se(Rung::NakedSingle),
    Se(Rung::DirectHiddenSet(3)),
    Se(Rung::LockedCandidates),
    Se(Rung::NakedSet(2)),
    Se(Rung::Fish(2)),
    Se(Rung::HiddenSet(2)),
    X(Extra::FinnedFish(2)),
    Se(Rung::NakedSet(3)),
    Se(Rung::Fish(3)),
    Se(Rung::HiddenSet(3)),
    X(Extra::FinnedFish(3)),
    Se(Rung::TurbotFish),
    Se(Rung::XyWing),
    Se(Rung::XyzWing),
    X(Extra::WWing),
    Se(Rung::UniqueLoops),
    X(Extra::SimpleColouring),
    Se(Rung::NakedSet(4)),
    X(Extra::SueDeCoq),
    Se(Rung::Fish(4)),
    Se(Rung::HiddenSet(4)),
    X(Extra::FinnedFish(4)),
    Se(Rung::StrongLinks(3)),
    Se(Rung::WxyzWing),
    X(Extra::AlsXz),
    Se(Rung::Bug),
    Se(Rung::VwxyzWing),
    Se(Rung::AlignedExclusion(2)),
    X(Extra::Aic),
    Se(Rung::Chains(Chaining::Cycles)),
    Se(Rung::AlignedExclusion(3)),
    Se(Rung::Chains(Chaining::Nishio)),
    Se(Rung::Chains(Chaining::Multiple)),
    Se(Rung::Chains(Chaining::Dynamic)),
    Se(Rung::Chains(Chaining::DynamicPlus)),
    Se(Rung::Chains(Chaining::Nested(2, 0))),
    Se(Rung::Chains(Chaining::Nested(3, 0))),
    Se(Rung::Chains(Chaining::Nested(4, 0))),
    Se(Rung::Chains(Chaining::Nested(4, 1))),
    Se(Rung::Chains(Chaining::Nested(4, 2))),
    Se(Rung::Chains(Chaining::Nested(4, 3))),
];

/// The simplest step of the hint ladder on `board`: the first step of the lowest rung that
/// has one. `None` when nothing applies or the budget ran out.
pub fn next_hint<const W: usize>(board: &Board<'_, W>, budget: &Budget) -> Option<Step> {
    for rung in HINT_LADDER {
        if stopped(budget).is_some() {
            return None;
        }
        let mut sink = Sink::first();
        let _ = rung.find(board, budget, &mut sink);
        if let Some(step) = sink.steps.pop() {
            return Some(step);
        }
    }
    None
}

/// The steps of the hint ladder from `givens` up to and including the first that places a
/// digit (what the editor's *Apply next step* writes), at most `max` of them: the first within
/// `first`, the others within `rest`. The classic twin of [`super::lead_with_rules`].
pub fn lead(
    geo: &'static Geometry,
    givens: &[u8],
    max: usize,
    first: &Budget,
    rest: &Budget,
) -> Vec<Step> {
    if geo.cells() <= 128 {
        lead_from(Board::<2>::new(geo, givens), max, first, rest, next_hint)
    } else {
        lead_from(Board::<10>::new(geo, givens), max, first, rest, next_hint)
    }
}

/// The steps `next` finds on `board`, each applied, up to and including the first that places a
/// digit, at most `max`: the first within `first`, the others within `rest`. The walk of
/// [`lead`] and of the variant solver's lead alike.
pub(crate) fn lead_from<const W: usize>(
    mut board: Board<'_, W>,
    max: usize,
    first: &Budget,
    rest: &Budget,
    mut next: impl FnMut(&Board<'_, W>, &Budget) -> Option<Step>,
) -> Vec<Step> {
    let mut steps = Vec::new();
    while !board.is_solved() && !board.is_broken() && steps.len() < max {
        let budget = if steps.is_empty() { first } else { rest };
        let Some(step) = next(&board, budget) else {
            break;
        };
        let places = !step.placements.is_empty();
        board.apply(&step);
        steps.push(step);
        if places {
            break;
        }
    }
    steps
}

/// The hint for a grid of `values` (0 for empty), with the candidates a player has pencilled
/// in (one set per cell, those of filled cells ignored) or, without them, every candidate the
/// placed digits leave.
pub fn hint(
    geo: &'static Geometry,
    values: &[u8],
    candidates: Option<&[Digits]>,
    budget: &Budget,
) -> Option<Step> {
    if geo.cells() <= 128 {
        next_hint(&board::<2>(geo, values, candidates), budget)
    } else {
        next_hint(&board::<10>(geo, values, candidates), budget)
    }
}

fn board<'g, const W: usize>(
    geo: &'g Geometry,
    values: &[u8],
    candidates: Option<&[Digits]>,
) -> Board<'g, W> {
    let mut b = Board::<W>::new(geo, values);
    if let Some(marks) = candidates {
        b.keep_marks(marks);
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{geometry, Size, Variant};
    use crate::logic::fixtures::{at, keep, only_in};
    use crate::logic::ladder::LADDER;
    use crate::logic::{next_step, Technique};

    #[test]
    fn a_hint_names_a_pattern_the_rating_ladder_lacks() {
        // The W-wing board of `wings`: Sukaku Explainer's ladder has nothing short of chains
        // (there are none here), the hint ladder has the W-wing; `hint` reads the same pencil
        // marks.
        let geo = geometry(Size::NINE, Variant::Classic);
        let mut b = Board::<2>::new(geo, &[0; 81]);
        let [a5, e1, c1, c5] = ["A5", "E1", "C1", "C5"].map(|n| at(&b, n));
        keep(&mut b, a5, &[3, 9]);
        keep(&mut b, e1, &[3, 9]);
        only_in(&mut b, 9, 2, &[c1, c5]);
        // A nearly empty grid: the chains would search it for long, so they get two seconds.
        let budget = Budget {
            deadline: Some(std::time::Instant::now() + std::time::Duration::from_secs(2)),
            ..Budget::default()
        };
        let step = next_hint(&b, &budget).expect("a hint");
        assert_eq!(step.technique, Technique::WWing, "{}", step.text);
        let se = crate::logic::next_step_within(&b, &budget);
        assert!(se.is_none_or(|s| s.technique != Technique::WWing));
        let marks: Vec<Digits> = (0..81).map(|c| b.candidates(c)).collect();
        assert_eq!(hint(geo, b.values(), Some(&marks), &budget), Some(step));
        // Without the marks, the empty grid has nothing to say (within the budget).
        let budget = Budget {
            deadline: Some(std::time::Instant::now() + std::time::Duration::from_secs(2)),
            ..Budget::default()
        };
        assert_eq!(hint(geo, b.values(), None, &budget), None);
    }

    #[test]
    fn a_hint_is_the_simplest_step_when_sukaku_explainer_has_one() {
        let geo = geometry(Size::NINE, Variant::Classic);
        let givens: Vec<u8> =
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
                .bytes()
                .map(|c| if c.is_ascii_digit() { c - b'0' } else { 0 })
                .collect();
        let b = Board::<2>::new(geo, &givens);
        let budget = Budget::unlimited();
        assert_eq!(next_hint(&b, &budget), next_step(&b));
    }

    #[test]
    fn the_hint_ladder_is_sukaku_explainers_with_the_extras() {
        let se: Vec<Rung> = HINT_LADDER
            .iter()
            .filter_map(|r| match r {
                Se(rung) => Some(*rung),
                X(_) => None,
            })
            .collect();
        assert_eq!(se, LADDER);
        let extras: Vec<Extra> = HINT_LADDER
            .iter()
            .filter_map(|r| match r {
                X(extra) => Some(*extra),
                Se(_) => None,
            })
            .collect();
        assert_eq!(extras, EXTRAS);
    }
}

#[cfg(test)]
mod soundness {
    use super::*;
    use crate::grid::{geometry, Size, Variant};
    use crate::logic::fixtures::{
        assert_sound, givens_of, puzzles_to_walk, thinned_boards, unique_solution, OnBoard,
    };
    use crate::logic::Technique;
    use std::collections::BTreeMap;

    /// Checks every step of every extra on a board against the solution; counts them by
    /// technique.
    #[derive(Default)]
    struct Extras(BTreeMap<Technique, usize>);

    impl OnBoard for Extras {
        fn board<const W: usize>(&mut self, b: &Board<'_, W>, solution: &[u8], what: &str) {
            for extra in EXTRAS {
                let mut sink = Sink::all();
                let t = std::time::Instant::now();
                let _ = extra.find(b, &mut sink);
                if std::env::var("HINT_TIMES").is_ok() {
                    eprintln!("{extra:?} {:?}", t.elapsed());
                }
                assert_sound(&sink.steps, solution, what);
                for step in &sink.steps {
                    *self.0.entry(step.technique).or_default() += 1;
                }
            }
        }
    }

    /// Along the hint ladder's path through hard puzzles, every step of every extra finder
    /// removes only wrong candidates, checked against each puzzle's unique solution.
    #[test]
    fn extras_are_sound_along_hint_paths() {
        let count: usize = std::env::var("HINT_PUZZLES")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(40); // tests/integration/logic.rs walks thousands more (SE's ladder)
        let geo = geometry(Size::NINE, Variant::Classic);
        let budget = Budget::unlimited();
        let mut extras = Extras::default();
        let mut hints = BTreeMap::<Technique, usize>::new();
        for line in puzzles_to_walk("top1465.txt", count) {
            let givens = givens_of(&line);
            let Some(solution) = unique_solution(geo, &givens) else {
                continue;
            };
            let mut b = Board::<2>::new(geo, &givens);
            while !b.is_solved() {
                extras.board(&b, &solution, &line);
                let Some(step) = next_hint(&b, &budget) else {
                    break;
                };
                *hints.entry(step.technique).or_default() += 1;
                assert_sound(std::slice::from_ref(&step), &solution, &line);
                b.apply(&step);
            }
        }
        println!("extras found: {:?}", extras.0);
        println!("hints taken: {hints:?}");
    }

    /// Boards cut from a solved grid of every size up to 16×16, both variants, with random
    /// wrong candidates removed: whatever an extra removes, the solution's digit stays.
    #[test]
    fn extras_keep_the_solution_on_every_size() {
        let mut extras = Extras::default();
        let boards = |side| match side {
            16 => 1,
            12 => 2,
            _ => 8,
        };
        thinned_boards(0x2545_f491_4f6c_dd1d, boards, &mut extras);
        println!("{:?}", extras.0);
        assert!(
            extras.0.len() >= 5,
            "too few kinds of pattern: {:?}",
            extras.0
        );
    }
}
