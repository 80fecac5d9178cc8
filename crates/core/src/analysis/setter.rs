//! Setter checks: what a puzzle's author asks beyond "is it unique". Which givens the puzzle
//! does not need, what symmetry its givens have, which digits each cell takes across the
//! solutions of a puzzle that has several, which extra given narrows them most, and which
//! givens together leave no solution.
//!
//! Each check answers from solution counts (`solutions`), through the 9×9 solver where it
//! applies, and says when the budget cut it short rather than guessing.

use super::solutions::{found_any, solvable_counting, verdict_counting, verdict_of, TwoSolutions};
use super::verdict::{Core, Verdict};
use crate::engine::{self, Budget, Digits, SearchOutcome, Stop};
use crate::grid::Geometry;
use crate::rules::Rules;
use web_time::Instant;

/// The searches of one check share the budget's nodes: `max_nodes` bounds them all together,
/// not each (a 25×25 has hundreds of givens to try).
struct Pool<'b, 'c> {
    budget: &'b Budget<'c>,
    left: Option<u64>,
    /// A variant puzzle's rules: its searches go to the variant engine.
    rules: Option<&'b Rules>,
}

impl<'b, 'c> Pool<'b, 'c> {
    fn new(budget: &'b Budget<'c>) -> Self {
        Pool {
            budget,
            left: budget.max_nodes,
            rules: None,
        }
    }

    /// The same pool searching under `rules` when there are any.
    fn under(self, rules: Option<&'b Rules>) -> Self {
        Pool { rules, ..self }
    }

    /// A pool of at most `most` nodes (and no more than the budget's).
    fn at_most(budget: &'b Budget<'c>, most: u64) -> Self {
        Pool {
            budget,
            left: Some(budget.max_nodes.map_or(most, |max| max.min(most))),
            rules: None,
        }
    }

    /// The verdict on `givens` with the nodes left; `Undecided` once they are spent.
    fn verdict(&mut self, geometry: &Geometry, givens: &[u8]) -> Verdict {
        if let Some(stop) = self.stopped() {
            return Verdict::Undecided { stop, found: None };
        }
        let budget = Budget {
            max_nodes: self.left,
            ..*self.budget
        };
        let (verdict, nodes) = match self.rules {
            Some(rules) => verdict_of(TwoSolutions::from(engine::variant::solve(
                geometry, rules, givens, 2, &budget,
            ))),
            None => verdict_counting(geometry, givens, &budget),
        };
        if let Some(left) = &mut self.left {
            *left = left.saturating_sub(nodes.max(1));
        }
        verdict
    }

    /// Whether `givens` has a solution, by the general engine with the nodes left; `Err` once
    /// they are spent.
    fn has_solution(&mut self, geometry: &Geometry, givens: &[u8]) -> Result<bool, Stop> {
        self.has_solution_by(deep_search, geometry, givens, u64::MAX)
    }

    /// Whether `givens` has a solution, by `search` with at most `most` of the nodes left;
    /// `Err` when they ran out first.
    fn has_solution_by(
        &mut self,
        search: Search,
        geometry: &Geometry,
        givens: &[u8],
        most: u64,
    ) -> Result<bool, Stop> {
        if let Some(stop) = self.stopped() {
            return Err(stop);
        }
        let budget = Budget {
            max_nodes: Some(self.left.map_or(most, |left| left.min(most))),
            ..*self.budget
        };
        let (found, nodes) = search(geometry, givens, &budget);
        if let Some(left) = &mut self.left {
            *left = left.saturating_sub(nodes.max(1));
        }
        found
    }

    /// Whether every node is spent. A search stopped for want of nodes is then over, where one
    /// stopped at its own, smaller cap may be tried again with a larger one.
    fn spent(&self) -> bool {
        self.left == Some(0)
    }

    /// Why no further search may start: every node spent, or the deadline passed. A search
    /// reads the clock every 64 nodes, and most searches of a check end sooner (on a large
    /// grid each costs a millisecond before its first node), so the pool looks before each.
    fn stopped(&self) -> Option<Stop> {
        if self.spent() {
            Some(Stop::Nodes)
        } else if self.budget.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Stop::Deadline)
        } else {
            None
        }
    }
}

/// A search for one solution of `givens` within the budget: whether it found one (`Err` when
/// the budget ran out first), and the nodes it visited.
type Search = fn(&Geometry, &[u8], &Budget) -> (Result<bool, Stop>, u64);

/// The general engine's search: on a 9×9 slower per node than the 9×9 solver, but each node is
/// reduced further (`deduce`: every naked and hidden subset, box-line interaction), so a sparse
/// set of givens with no solution is often refuted at its root where the 9×9 solver branches
/// thousands of times.
fn deep_search(geometry: &Geometry, givens: &[u8], budget: &Budget) -> (Result<bool, Stop>, u64) {
    let outcome = engine::search(geometry, givens, 1, budget);
    let found = found_any(!outcome.solutions.is_empty(), outcome.stop);
    (found, outcome.nodes)
}

/// Whether `solution` is still the only solution once the cells `removed` of a puzzle it was
/// the only solution of are emptied (`givens` is the puzzle without them). Another solution
/// would satisfy the old puzzle unless it differs in a removed cell, so it is enough to try
/// each other digit in each removed cell: on a large grid these searches mostly end at once
/// in a contradiction, where a search for two solutions of the whole would walk its tree.
fn stays_unique(
    geometry: &Geometry,
    givens: &[u8],
    solution: &[u8],
    removed: &[usize],
    pool: &mut Pool,
) -> Result<bool, Stop> {
    let mut trial = givens.to_vec();
    for &cell in removed {
        let mut held = Digits::EMPTY;
        for &peer in geometry.peers[cell].iter() {
            if trial[peer as usize] != 0 {
                held.insert(trial[peer as usize]);
            }
        }
        for digit in 1..=geometry.side() as u8 {
            if digit == solution[cell] || held.contains(digit) {
                continue;
            }
            trial[cell] = digit;
            let other = pool.has_solution(geometry, &trial)?;
            trial[cell] = 0;
            if other {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// Whether the puzzle stays unique without the cells `removed` (their digits in `solution`,
/// the puzzle's only solution), spending at most `most` nodes (and no more than the budget
/// allows); also the nodes it spent. Decided as `still_unique` decides.
pub(super) fn unique_without(
    geometry: &Geometry,
    givens: &[u8],
    solution: &[u8],
    removed: &[usize],
    budget: &Budget,
    most: u64,
) -> (Result<bool, Stop>, u64) {
    let mut pool = Pool::at_most(budget, most);
    let start = pool.left.unwrap_or(most);
    let unique = still_unique(geometry, givens, Some(solution), removed, &mut pool);
    (unique, start - pool.left.unwrap_or(0))
}

/// Whether a unique puzzle stays unique without the cells `removed` (`givens` is the puzzle
/// without them), with the pool's nodes: the one test the generator and the setter checks share.
/// The fast 9×9 search decides a 9×9 whole; other sizes try the other digits of the removed
/// cells against `solution`, the puzzle's only one (see `stays_unique`). Only they need it, so a
/// 9×9 caller may pass `None` and spare the search that would find it.
fn still_unique(
    geometry: &Geometry,
    givens: &[u8],
    solution: Option<&[u8]>,
    removed: &[usize],
    pool: &mut Pool,
) -> Result<bool, Stop> {
    match solution {
        Some(solution) if givens.len() != 81 => {
            stays_unique(geometry, givens, solution, removed, pool)
        }
        _ => match pool.verdict(geometry, givens) {
            Verdict::Unique(_) => Ok(true),
            Verdict::Undecided { stop, .. } => Err(stop),
            _ => Ok(false),
        },
    }
}

/// The symmetry of a puzzle's givens: the transformations of the square that map every given's
/// place to a given's place (digits are not compared), named as Sudoku Explainer's generator
/// names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symmetry {
    /// All eight: both rotations and all four mirrors.
    Full,
    /// A quarter turn (and so a half turn).
    Rotational90,
    /// Both mirrors across the middle row and column (and so a half turn).
    Orthogonal,
    /// Both mirrors across the diagonals (and so a half turn).
    BiDiagonal,
    /// A half turn.
    Rotational180,
    /// The mirror across the middle row: top and bottom swap.
    Horizontal,
    /// The mirror across the middle column: left and right swap.
    Vertical,
    /// The mirror across the diagonal from A1.
    Diagonal,
    /// The mirror across the other diagonal.
    AntiDiagonal,
    None,
}

impl Symmetry {
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::Full => "full (every rotation and mirror)",
            Symmetry::Rotational90 => "90° rotation",
            Symmetry::Orthogonal => "mirrors across the middle row and column",
            Symmetry::BiDiagonal => "mirrors across both diagonals",
            Symmetry::Rotational180 => "180° rotation",
            Symmetry::Horizontal => "mirror across the middle row",
            Symmetry::Vertical => "mirror across the middle column",
            Symmetry::Diagonal => "mirror across the main diagonal",
            Symmetry::AntiDiagonal => "mirror across the anti-diagonal",
            Symmetry::None => "none",
        }
    }

    /// The name `new --symmetry` takes for it (`parse` reads it back).
    pub fn arg(self) -> &'static str {
        match self {
            Symmetry::Full => "full",
            Symmetry::Rotational90 => "rotational90",
            Symmetry::Orthogonal => "orthogonal",
            Symmetry::BiDiagonal => "bi-diagonal",
            Symmetry::Rotational180 => "rotational180",
            Symmetry::Horizontal => "horizontal",
            Symmetry::Vertical => "vertical",
            Symmetry::Diagonal => "diagonal",
            Symmetry::AntiDiagonal => "anti-diagonal",
            Symmetry::None => "none",
        }
    }

    /// The kind by the name `new --symmetry` takes (`rotational180`, `anti-diagonal`…).
    pub fn parse(name: &str) -> Option<Symmetry> {
        let name = name
            .trim()
            .to_ascii_lowercase()
            .replace(['-', '_', ' '], "");
        Some(match name.as_str() {
            "none" => Symmetry::None,
            "rotational180" | "180" => Symmetry::Rotational180,
            "rotational90" | "90" => Symmetry::Rotational90,
            "horizontal" => Symmetry::Horizontal,
            "vertical" => Symmetry::Vertical,
            "diagonal" => Symmetry::Diagonal,
            "antidiagonal" => Symmetry::AntiDiagonal,
            "orthogonal" => Symmetry::Orthogonal,
            "bidiagonal" => Symmetry::BiDiagonal,
            "full" => Symmetry::Full,
            _ => return None,
        })
    }

    /// The transformations (indices into `transform`, the identity left out) that map the
    /// givens' places onto themselves under this symmetry: a group, so orbits are closed.
    fn transforms(self) -> &'static [usize] {
        match self {
            Symmetry::Full => &[1, 2, 3, 4, 5, 6, 7],
            Symmetry::Rotational90 => &[1, 2, 3],
            Symmetry::Orthogonal => &[2, 4, 5],
            Symmetry::BiDiagonal => &[2, 6, 7],
            Symmetry::Rotational180 => &[2],
            Symmetry::Horizontal => &[4],
            Symmetry::Vertical => &[5],
            Symmetry::Diagonal => &[6],
            Symmetry::AntiDiagonal => &[7],
            Symmetry::None => &[],
        }
    }

    /// The cells of an `n`×`n` grid in orbits: each cell with every cell this symmetry maps it
    /// to. A puzzle with the symmetry has all of an orbit's cells given or none.
    pub(crate) fn orbits(self, n: usize) -> Vec<Vec<usize>> {
        let mut seen = vec![false; n * n];
        let mut orbits = Vec::new();
        for cell in 0..n * n {
            if seen[cell] {
                continue;
            }
            let mut orbit = vec![cell];
            seen[cell] = true;
            for &kind in self.transforms() {
                let (r, c) = transform(kind, n, (cell / n, cell % n));
                let image = r * n + c;
                if !seen[image] {
                    seen[image] = true;
                    orbit.push(image);
                }
            }
            orbits.push(orbit);
        }
        orbits
    }
}

/// The eight transformations of an `n`×`n` square, as where (row, column) goes.
const TURNS: usize = 8;
fn transform(kind: usize, n: usize, (r, c): (usize, usize)) -> (usize, usize) {
    let last = n - 1;
    match kind {
        0 => (r, c),
        1 => (c, last - r),        // quarter turn clockwise
        2 => (last - r, last - c), // half turn
        3 => (last - c, r),        // quarter turn anticlockwise
        4 => (last - r, c),        // mirror across the middle row
        5 => (r, last - c),        // mirror across the middle column
        6 => (c, r),               // mirror across the main diagonal
        _ => (last - c, last - r), // mirror across the anti-diagonal
    }
}

/// The symmetry of the places of `givens` (0 for empty).
pub fn symmetry(geometry: &Geometry, givens: &[u8]) -> Symmetry {
    let n = geometry.side();
    let keeps = |kind: usize| {
        (0..givens.len()).filter(|&c| givens[c] != 0).all(|c| {
            let (r, col) = transform(kind, n, (c / n, c % n));
            givens[r * n + col] != 0
        })
    };
    let kept: Vec<bool> = (0..TURNS).map(keeps).collect();
    match kept[..] {
        [_, true, _, _, true, ..] => Symmetry::Full,
        [_, true, ..] => Symmetry::Rotational90,
        [_, _, _, _, true, true, _, _] => Symmetry::Orthogonal,
        [_, _, _, _, _, _, true, true] => Symmetry::BiDiagonal,
        [_, _, true, ..] => Symmetry::Rotational180,
        [_, _, _, _, true, ..] => Symmetry::Horizontal,
        [_, _, _, _, _, true, ..] => Symmetry::Vertical,
        [_, _, _, _, _, _, true, _] => Symmetry::Diagonal,
        [_, _, _, _, _, _, _, true] => Symmetry::AntiDiagonal,
        _ => Symmetry::None,
    }
}

/// The givens a unique puzzle does not need: each one whose removal alone keeps the solution
/// unique, ascending (an empty list: the puzzle is minimal). `Err` when the budget ran out
/// before every given was tried. Removing two of them together may not keep it unique.
pub fn redundant_givens(
    geometry: &Geometry,
    givens: &[u8],
    budget: &Budget,
) -> Result<Vec<usize>, Stop> {
    redundant_givens_under(geometry, None, givens, budget)
}

/// `redundant_givens` under a variant puzzle's `rules` (the variant engine's searches) when
/// there are any.
pub fn redundant_givens_under(
    geometry: &Geometry,
    rules: Option<&Rules>,
    givens: &[u8],
    budget: &Budget,
) -> Result<Vec<usize>, Stop> {
    let mut grid = givens.to_vec();
    let mut redundant = Vec::new();
    let mut pool = Pool::new(budget).under(rules);
    // Beyond 9×9, each given is tried against the solution (see `stays_unique`, whose
    // searches know houses only); under rules, every try is a whole verdict.
    let solution = match givens.len() {
        _ if rules.is_some() => None,
        81 => None,
        _ => match pool.verdict(geometry, givens) {
            Verdict::Unique(solution) => Some(solution),
            Verdict::Undecided { stop, .. } => return Err(stop),
            _ => return Ok(Vec::new()), // not unique: no given is "redundant"
        },
    };
    for cell in (0..givens.len()).filter(|&c| givens[c] != 0) {
        grid[cell] = 0;
        let unique = still_unique(geometry, &grid, solution.as_deref(), &[cell], &mut pool)?;
        grid[cell] = givens[cell];
        if unique {
            redundant.push(cell);
        }
    }
    Ok(redundant)
}

/// The nodes the search for a core may spend on grids other than 9×9: each search there costs
/// hundreds of times a 9×9 node, and a grid of 625 cells has hundreds of givens to try.
const LARGE_CORE_NODES: u64 = 5_000;

/// The nodes the first try at dropping givens may spend. Most tries are decided in a few dozen;
/// a proof that a sparse set has no solution can take the 9×9 solver 175,000 (a sudoku17 made
/// wrong: 13 givens), where the general engine refutes the same set at its root, or the solver
/// in 3 nodes once five more givens are gone. A try cut short waits for the next pass.
const FIRST_TRY_NODES: u64 = 256;

/// How many times more nodes each pass over the givens still undecided may spend per try.
const TRY_GROWTH: u64 = 8;

/// About how many of the 9×9 solver's nodes one of the general engine's costs: a try the solver
/// did not decide gets the engine with this many times fewer nodes (at least its root).
const DEEP_NODE_COST: u64 = 64;

/// The smallest set of givens that leaves no solution by itself, for a puzzle with none: givens
/// are dropped, many at a time while that works and one at a time where it does not, as long
/// as what is left still has no solution. What remains is minimal: a given kept was needed
/// then, and a subset of a set with a solution has one too. Each try has a cap on its nodes
/// that grows from pass to pass (see `FIRST_TRY_NODES`), so a costly proof waits until other
/// givens are gone. On grids other than 9×9 the search has a small pool of nodes, and past it
/// the set is smaller but maybe not minimal.
pub fn no_solution_core(geometry: &Geometry, givens: &[u8], budget: &Budget) -> Core {
    let mut pool = if givens.len() == 81 {
        Pool::new(budget)
    } else {
        Pool::at_most(budget, LARGE_CORE_NODES)
    };
    let mut shrink = Shrink {
        givens,
        grid: givens.to_vec(),
        needed: Vec::new(),
        open: (0..givens.len()).filter(|&c| givens[c] != 0).collect(),
    };
    let mut most = FIRST_TRY_NODES;
    let cut = loop {
        if let Err(stop) = shrink.pass(geometry, &mut pool, most) {
            break Some(stop); // the givens still open are kept unproven
        }
        if shrink.open.is_empty() {
            break None;
        }
        most = most.saturating_mul(TRY_GROWTH);
    };
    let mut cells = shrink.needed;
    cells.extend(shrink.open);
    cells.sort_unstable();
    Core {
        cells,
        constraints: Vec::new(),
        cut,
    }
}

/// The most nodes one try of [`no_solution_core_under`] spends: a try that needs more is
/// undecided, and its given or constraint is kept.
const RULE_CORE_TRY_NODES: u64 = 20_000;

/// A variant puzzle without a solution: a set of its givens and constraints that leaves none
/// by itself, made smaller one at a time (each constraint, then each given, dropped when the
/// rest still has no solution). Minimal when each one kept was shown needed within its try's
/// nodes; the budget's deadline or cancel flag ends the shrinking early, keeping the rest.
pub fn no_solution_core_under(
    geometry: &Geometry,
    rules: &Rules,
    givens: &[u8],
    budget: &Budget,
) -> Core {
    let mut kept: Vec<bool> = vec![true; rules.constraints.len()];
    let mut grid = givens.to_vec();
    let mut cut = None;
    let items = (0..rules.constraints.len()).map(Item::Constraint).chain(
        (0..givens.len())
            .filter(|&c| givens[c] != 0)
            .map(Item::Given),
    );
    for item in items {
        match item {
            Item::Constraint(i) => kept[i] = false,
            Item::Given(cell) => grid[cell] = 0,
        }
        let subset = Rules {
            constraints: (0..kept.len())
                .filter(|&i| kept[i])
                .map(|i| rules.constraints[i].clone())
                .collect(),
            regions: rules.regions.clone(),
        };
        let try_budget = Budget {
            max_nodes: Some(RULE_CORE_TRY_NODES),
            ..*budget
        };
        let outcome = engine::variant::solve(geometry, &subset, &grid, 1, &try_budget);
        let dropped = outcome.solutions.is_empty() && outcome.stop.is_none();
        if !dropped {
            if outcome.solutions.is_empty() {
                cut = cut.or(outcome.stop); // undecided within the try's nodes
            }
            match item {
                Item::Constraint(i) => kept[i] = true,
                Item::Given(cell) => grid[cell] = givens[cell],
            }
        }
        if let Some(stop @ (Stop::Deadline | Stop::Cancelled)) = budget.stop(0) {
            cut = Some(stop);
            break;
        }
    }
    Core {
        cells: (0..givens.len()).filter(|&c| grid[c] != 0).collect(),
        constraints: (0..kept.len()).filter(|&i| kept[i]).collect(),
        cut,
    }
}

/// One thing a variant puzzle's core may hold.
#[derive(Clone, Copy)]
enum Item {
    Constraint(usize),
    Given(usize),
}

/// A no-solution core on its way: the givens proven needed, those not decided yet, and the
/// grid of both (the givens dropped are empty).
struct Shrink<'g> {
    givens: &'g [u8],
    grid: Vec<u8>,
    needed: Vec<usize>,
    open: Vec<usize>,
}

impl Shrink<'_> {
    /// One pass over the open givens, each try spending at most `most` nodes: drop those the
    /// grid has no solution without, keep as needed those it has one without, and leave open
    /// those not decided within `most`. `Err` when the pool, the deadline or the cancel flag
    /// stopped it.
    fn pass(&mut self, geometry: &Geometry, pool: &mut Pool, most: u64) -> Result<(), Stop> {
        // How many givens to try dropping at once: doubled after a drop that works, halved
        // after one that does not (a given that cannot go alone is needed).
        let mut chunk = (self.open.len() / 4).max(1);
        let mut at = 0;
        while at < self.open.len() {
            let take = chunk.min(self.open.len() - at);
            let tried = at..at + take;
            self.set(tried.clone(), false);
            let found = solution_within(geometry, &self.grid, pool, most);
            if found == Ok(false) {
                self.open.drain(tried); // not needed: leave them out
                chunk = take * 2;
                continue;
            }
            self.set(tried, true);
            match found {
                Err(stop) if stop != Stop::Nodes || pool.spent() => return Err(stop),
                _ if take > 1 => chunk = take / 2,
                Ok(_) => self.needed.push(self.open.remove(at)), // a solution without it
                Err(_) => at += 1, // not decided within `most`: the next pass tries again
            }
        }
        Ok(())
    }

    /// Put back (`given`) or empty the open givens `range`.
    fn set(&mut self, range: std::ops::Range<usize>, given: bool) {
        for &cell in &self.open[range] {
            self.grid[cell] = if given { self.givens[cell] } else { 0 };
        }
    }
}

/// Whether `grid` has a solution, spending at most `most` nodes: the 9×9 solver first, then on
/// a 9×9 the general engine, whose deeper deduction refutes at once sets the solver needs
/// thousands of nodes for (see `deep_search`). `Err` when neither decided.
fn solution_within(
    geometry: &Geometry,
    grid: &[u8],
    pool: &mut Pool,
    most: u64,
) -> Result<bool, Stop> {
    let found = pool.has_solution_by(solvable_counting, geometry, grid, most);
    match found {
        Err(Stop::Nodes) if grid.len() == 81 && !pool.spent() => {
            let deep = (most / DEEP_NODE_COST).max(1);
            pool.has_solution_by(deep_search, geometry, grid, deep)
        }
        _ => found,
    }
}

/// The digits each cell takes across a puzzle's solutions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spread {
    /// Per cell: the digits it holds in some solution (a given: its own digit).
    pub digits: Vec<Digits>,
    /// False when the budget ran out: `digits` then holds only those seen so far.
    pub complete: bool,
}

/// Every cell's true candidates: for each digit pencil marks leave in a cell and no solution
/// found so far puts there, one search for a solution with it placed; each solution found
/// shows a digit for every cell at once, so few searches are needed. Under a variant puzzle's
/// `rules` the searches are the variant engine's.
pub fn true_candidates(
    geometry: &Geometry,
    rules: Option<&Rules>,
    givens: &[u8],
    budget: &Budget,
) -> Spread {
    spread_over(geometry, rules, givens, 0..givens.len(), budget)
}

/// The true candidates of one cell (its digit for a given), and whether the search was complete.
pub fn true_candidates_at(
    geometry: &Geometry,
    rules: Option<&Rules>,
    givens: &[u8],
    cell: usize,
    budget: &Budget,
) -> (Digits, bool) {
    let spread = spread_over(geometry, rules, givens, cell..cell + 1, budget);
    (spread.digits[cell], spread.complete)
}

/// `true_candidates` for `cells` only (the others hold what the solutions found put there).
fn spread_over(
    geometry: &Geometry,
    rules: Option<&Rules>,
    givens: &[u8],
    cells: std::ops::Range<usize>,
    budget: &Budget,
) -> Spread {
    let mut spread = Spread {
        digits: vec![Digits::EMPTY; givens.len()],
        complete: true,
    };
    // The houses' pencil marks: a superset under rules, each digit then tried by a search.
    let marks = engine::pencil_marks(geometry, givens);
    let mut grid = givens.to_vec();
    let mut pool = Pool::new(budget).under(rules);
    for cell in cells {
        if givens[cell] != 0 {
            spread.digits[cell].insert(givens[cell]);
            continue;
        }
        for digit in marks.candidates[cell].iter() {
            if spread.digits[cell].contains(digit) {
                continue;
            }
            grid[cell] = digit;
            match first_solution(geometry, &grid, &mut pool) {
                Ok(Some(solution)) => {
                    for (digits, &d) in spread.digits.iter_mut().zip(&solution) {
                        digits.insert(d);
                    }
                }
                Ok(None) => {}
                Err(_) => spread.complete = false,
            }
            grid[cell] = 0;
        }
    }
    spread
}

/// How many solutions put each digit in each cell, each count capped: Rangsk's true
/// candidates with counts, which tell a setter which cells are nearly settled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counts {
    pub side: usize,
    /// Indexed `cell * side + digit - 1`: the solutions with that digit there, at most `cap`
    /// (a given's own digit: every solution).
    pub counts: Vec<u32>,
    pub cap: u32,
    /// False when the budget ran out: each count is then only a lower bound.
    pub complete: bool,
}

impl Counts {
    /// The solutions (up to the cap) with `digit` in `cell`.
    pub fn count(&self, cell: usize, digit: u8) -> u32 {
        self.counts[cell * self.side + digit as usize - 1]
    }
}

/// Each candidate's solutions, counted up to `cap`: one search for up to `cap` solutions per
/// candidate, after a first search for all of them, which settles every count at once when a
/// puzzle has few solutions (fewer than `cap` times its side).
pub fn true_candidate_counts(
    geometry: &Geometry,
    rules: Option<&Rules>,
    givens: &[u8],
    cap: u32,
    budget: &Budget,
) -> Counts {
    let side = geometry.side();
    let cap = cap.max(1);
    let mut counts = Counts {
        side,
        counts: vec![0; givens.len() * side],
        cap,
        complete: true,
    };
    let mut left = budget.max_nodes;
    // Up to `limit` solutions of `grid`, and whether the search ended on its own.
    let mut search = |grid: &[u8], limit: usize| -> (Vec<Vec<u8>>, bool) {
        let budget = Budget {
            max_nodes: left,
            ..*budget
        };
        let outcome = match rules {
            Some(rules) => engine::variant::solve(geometry, rules, grid, limit, &budget),
            None => engine::search(geometry, grid, limit, &budget),
        };
        left = left.map(|l| l.saturating_sub(outcome.nodes));
        (outcome.solutions, outcome.stop.is_none())
    };
    let every = cap as usize * side;
    let (all, ended) = search(givens, every);
    if ended && all.len() < every {
        for solution in &all {
            for (cell, &digit) in solution.iter().enumerate() {
                let count = &mut counts.counts[cell * side + digit as usize - 1];
                *count = (*count + 1).min(cap);
            }
        }
        return counts;
    }
    let marks = engine::pencil_marks(geometry, givens);
    let mut grid = givens.to_vec();
    for cell in 0..givens.len() {
        if givens[cell] != 0 {
            // As many solutions as the first search found hold each given.
            let held = (all.len() as u32).min(cap);
            counts.counts[cell * side + givens[cell] as usize - 1] = held;
            continue;
        }
        for digit in marks.candidates[cell].iter() {
            grid[cell] = digit;
            let (found, ended) = search(&grid, cap as usize);
            counts.counts[cell * side + digit as usize - 1] = found.len() as u32;
            counts.complete &= ended;
        }
        grid[cell] = 0;
    }
    counts
}

/// A solution of `givens`, if there is one (`Err` when the nodes ran out first).
fn first_solution(
    geometry: &Geometry,
    givens: &[u8],
    pool: &mut Pool,
) -> Result<Option<Vec<u8>>, Stop> {
    match pool.verdict(geometry, givens) {
        Verdict::Unique(s) | Verdict::Several { first: s, .. } => Ok(Some(s)),
        Verdict::Undecided { found: Some(s), .. } => Ok(Some(s)),
        Verdict::Undecided { stop, .. } => Err(stop),
        _ => Ok(None),
    }
}

/// How many solutions a sample holds at most: enough to tell a good extra given from a poor
/// one, few enough to find in milliseconds.
pub const SAMPLE: usize = 256;

/// Up to [`SAMPLE`] solutions of `givens` (under `rules` when there are any).
fn sample(
    geometry: &Geometry,
    rules: Option<&Rules>,
    givens: &[u8],
    budget: &Budget,
) -> SearchOutcome {
    match rules {
        Some(rules) => engine::variant::solve(geometry, rules, givens, SAMPLE, budget),
        None => engine::search(geometry, givens, SAMPLE, budget),
    }
}

/// How many of `solutions` put each digit in each cell, indexed `cell * side + digit - 1`.
fn digit_counts(side: usize, cells: usize, solutions: &[Vec<u8>]) -> Vec<usize> {
    let mut counts = vec![0usize; cells * side];
    for solution in solutions {
        for (cell, &digit) in solution.iter().enumerate() {
            counts[cell * side + digit as usize - 1] += 1;
        }
    }
    counts
}

/// The extra given that leaves the fewest solutions of a puzzle with several.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtraGiven {
    pub cell: usize,
    pub digit: u8,
    /// Solutions of the sample that keep it (at least one).
    pub left: usize,
    /// Solutions in the sample: all of them when fewer than [`SAMPLE`] and `complete`.
    pub sample: usize,
    /// Whether the sample holds every solution.
    pub complete: bool,
    /// Whether the puzzle with it added has one solution (`None`: the budget ran out).
    pub unique_after: Option<bool>,
}

/// The (cell, digit) held by the fewest solutions of a sample of up to [`SAMPLE`] (and by at
/// least one): added as a given, it removes the most of them. `None` when the puzzle has fewer
/// than two solutions in the sample.
pub fn best_extra_given(
    geometry: &Geometry,
    rules: Option<&Rules>,
    givens: &[u8],
    budget: &Budget,
) -> Option<ExtraGiven> {
    let outcome = sample(geometry, rules, givens, budget);
    let solutions = outcome.solutions;
    if solutions.len() < 2 {
        return None;
    }
    let n = geometry.side();
    let counts = digit_counts(n, givens.len(), &solutions);
    let (best, left) = (0..counts.len())
        .filter(|&i| givens[i / n] == 0 && counts[i] > 0)
        .map(|i| (i, counts[i]))
        .min_by_key(|&(i, count)| (count, i))?;
    let (cell, digit) = (best / n, (best % n) as u8 + 1);
    let mut grid = givens.to_vec();
    grid[cell] = digit;
    let mut pool = Pool::new(budget).under(rules);
    if let (Some(left), Some(max)) = (&mut pool.left, budget.max_nodes) {
        *left = max.saturating_sub(outcome.nodes);
    }
    let unique_after = match pool.verdict(geometry, &grid) {
        Verdict::Unique(_) => Some(true),
        Verdict::Several { .. } => Some(false),
        _ => None,
    };
    Some(ExtraGiven {
        cell,
        digit,
        left,
        sample: solutions.len(),
        complete: outcome.stop.is_none() && solutions.len() < SAMPLE,
        unique_after,
    })
}

/// Where the solutions of a puzzle with several differ, from a sample of up to [`SAMPLE`]: each
/// cell they do not agree on with the digits they put there, and the extra givens any one of
/// which leaves a single solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Differences {
    /// Each empty cell the sampled solutions disagree on, with their digits there.
    pub cells: Vec<(usize, Digits)>,
    /// The (cell, digit) pairs exactly one sampled solution holds: with the sample complete,
    /// each added as a given leaves that solution alone. Empty when the sample is not complete
    /// (a pair rare in the sample may not be rare among all solutions).
    pub unique_makers: Vec<(usize, u8)>,
    /// Solutions in the sample.
    pub sample: usize,
    /// Whether the sample holds every solution.
    pub complete: bool,
}

/// Where the solutions of `givens` differ (under `rules` when there are any); `None` when the
/// sample holds fewer than two.
pub fn differences(
    geometry: &Geometry,
    rules: Option<&Rules>,
    givens: &[u8],
    budget: &Budget,
) -> Option<Differences> {
    let outcome = sample(geometry, rules, givens, budget);
    let solutions = outcome.solutions;
    if solutions.len() < 2 {
        return None;
    }
    let complete = outcome.stop.is_none() && solutions.len() < SAMPLE;
    let n = geometry.side();
    let counts = digit_counts(n, givens.len(), &solutions);
    let seen = |cell: usize| -> Digits {
        (1..=n as u8)
            .filter(|&d| counts[cell * n + d as usize - 1] > 0)
            .collect()
    };
    let cells = (0..givens.len())
        .filter(|&c| givens[c] == 0 && seen(c).len() > 1)
        .map(|c| (c, seen(c)))
        .collect();
    let unique_makers = match complete {
        false => Vec::new(),
        true => (0..counts.len())
            .filter(|&i| givens[i / n] == 0 && counts[i] == 1)
            .map(|i| (i / n, (i % n) as u8 + 1))
            .collect(),
    };
    Some(Differences {
        cells,
        unique_makers,
        sample: solutions.len(),
        complete,
    })
}

#[cfg(test)]
mod tests;
