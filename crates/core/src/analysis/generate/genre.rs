//! Variant puzzles from the generator: constraints drawn from a random solved grid (cages with
//! their sums, every kropki or XV dot, thermometers along rising digits), then as few givens as
//! keep the solution the only one: a given added where two solutions differ until one is left,
//! then each taken away again when the rest still decide the puzzle. A killer usually needs
//! none.
//!
//! The constraints are written as the `.sudoku` lines a setter would type and read back by the
//! parser, so the puzzle solved and rated here is the one the file says.

use std::sync::atomic::AtomicBool;
use web_time::Instant;

use super::{judge, making_budget, random_solution, Failure, Generated, Request};
use crate::analysis::setter::{redundant_givens_under, Symmetry};
use crate::engine::fast9::XorShift;
use crate::engine::{self, Budget};
use crate::grid::{geometry, Geometry};
use crate::logic;
use crate::rules::Rules;

/// The kinds of variant puzzle `new` makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Genre {
    /// Cages covering the grid, each with its sum; digits do not repeat in a cage.
    Killer,
    /// Every white (consecutive) and black (double) dot between neighbours.
    Kropki,
    /// Every X (sum 10) and V (sum 5) between neighbours.
    Xv,
    /// Thermometers along digits that rise from the bulb.
    Thermo,
}

impl Genre {
    pub const ALL: [Genre; 4] = [Genre::Killer, Genre::Kropki, Genre::Xv, Genre::Thermo];

    /// The name `--variant` takes and the source line writes.
    pub fn name(self) -> &'static str {
        match self {
            Genre::Killer => "killer",
            Genre::Kropki => "kropki",
            Genre::Xv => "xv",
            Genre::Thermo => "thermo",
        }
    }

    pub fn parse(name: &str) -> Option<Genre> {
        let name = name.trim().to_ascii_lowercase();
        Genre::ALL.into_iter().find(|g| g.name() == name)
    }

    /// The largest side this genre is made on: the variant engine's checks (a few hundred a
    /// puzzle) stay within a second there.
    pub const MAX_SIDE: usize = 9;

    /// The constraint lines of this genre true of `solution`, drawn at random.
    fn draw(self, geo: &Geometry, solution: &[u8], rng: &mut XorShift) -> Vec<String> {
        match self {
            Genre::Killer => killer_cages(geo, solution, rng),
            Genre::Kropki => dots(geo, solution, rng, Genre::Kropki),
            Genre::Xv => dots(geo, solution, rng, Genre::Xv),
            Genre::Thermo => thermometers(geo, solution, rng),
        }
    }
}

/// Nodes one uniqueness check may spend: a 9×9 killer decides in a few hundred; one that
/// takes more is treated as undecided (a given is added there instead).
const CHECK_NODES: u64 = 50_000;

/// Make one puzzle of `genre` that meets `request`, trying until `deadline` (or `cancel`).
pub(super) fn generate(
    request: &Request,
    genre: Genre,
    rng: &mut XorShift,
    deadline: Instant,
    cancel: Option<&AtomicBool>,
) -> Result<Generated, Failure> {
    let geo = geometry(request.size, request.variant);
    let mut tried = 0;
    loop {
        let Some(budget) = making_budget(request, deadline, cancel) else {
            return Err(Failure::OutOfTime { tried });
        };
        tried += 1;
        let Some(solution) = random_solution(geo, rng, &budget) else {
            continue;
        };
        let check = Budget {
            max_nodes: Some(CHECK_NODES),
            ..budget
        };
        let Some(drawn) = fewest_givens(genre, geo, &solution, request, rng, &check) else {
            continue;
        };
        // Once, for the draw kept: with a symmetry it is a search a given.
        let minimal = minimality(&drawn, geo, request, &check);
        let Drawn {
            lines,
            rules,
            givens,
            ..
        } = drawn;
        if request.minimal && minimal != Some(true) {
            continue;
        }
        let judged = judge(request, deadline, cancel, |budget| {
            logic::solve_path_with_rules(geo, &rules, &givens, budget)
        });
        let Some(judged) = judged else {
            continue;
        };
        return Ok(judged.made(geo, givens, solution, minimal, lines));
    }
}

/// Constraints drawn from a solution, and the givens that make them a puzzle.
struct Drawn {
    lines: Vec<String>,
    rules: Rules,
    givens: Vec<u8>,
    /// Whether every uniqueness check that settled the givens was decided.
    decided: bool,
}

/// Draws of a genre's constraints tried on one solution, the one needing the fewest givens
/// kept: setters prize a puzzle with none, and a draw costs milliseconds.
const DRAWS: usize = 24;

/// Of up to [`DRAWS`] draws of `genre`'s constraints from `solution`, the one whose givens are
/// fewest (the first with none ends the search).
fn fewest_givens(
    genre: Genre,
    geo: &Geometry,
    solution: &[u8],
    request: &Request,
    rng: &mut XorShift,
    budget: &Budget,
) -> Option<Drawn> {
    let mut best: Option<Drawn> = None;
    let count = |d: &Drawn| d.givens.iter().filter(|&&g| g != 0).count();
    for _ in 0..DRAWS {
        let lines = genre.draw(geo, solution, rng);
        let rules = read_rules(request, &lines);
        let Some((givens, decided)) = settle_givens(geo, &rules, solution, request, rng, budget)
        else {
            continue;
        };
        let drawn = Drawn {
            lines,
            rules,
            givens,
            decided,
        };
        if best.as_ref().is_none_or(|b| count(&drawn) < count(b)) {
            best = Some(drawn);
        }
        if best.as_ref().is_some_and(|b| count(b) == 0) {
            break;
        }
    }
    best
}

/// The rules `lines` say, read as the file will be: the lines above an empty grid of the
/// request's size and variant.
fn read_rules(request: &Request, lines: &[String]) -> Rules {
    let mut text = String::new();
    if request.size != crate::grid::Size::NINE {
        text.push_str(&format!("# size: {0}x{0}\n", request.size.side()));
    }
    text.push_str(&format!("# variant: {}\n", request.variant.name()));
    for line in lines {
        text.push_str(line);
        text.push('\n');
    }
    let empty = vec![0u8; request.size.cells()];
    text.push_str(&crate::format::grid_block(request.size, &empty));
    let document = crate::format::parse(&text);
    debug_assert!(
        document.problems.is_empty(),
        "a drawn constraint did not read back: {:?}\n{text}",
        document.problems
    );
    document
        .puzzles
        .into_iter()
        .next()
        .and_then(|p| p.rules)
        .map(|r| (*r).clone())
        .unwrap_or_default()
}

/// As few givens of `solution` as leave it the only solution under `rules`, in orbits of the
/// request's symmetry, and whether every check was decided. `None` when the checks cannot
/// settle the givens within the budget.
fn settle_givens(
    geo: &Geometry,
    rules: &Rules,
    solution: &[u8],
    request: &Request,
    rng: &mut XorShift,
    budget: &Budget,
) -> Option<(Vec<u8>, bool)> {
    let n = geo.side();
    let orbits = request.symmetry.orbits(n);
    let mut orbit_of = vec![0; n * n];
    for (i, orbit) in orbits.iter().enumerate() {
        for &cell in orbit {
            orbit_of[cell] = i;
        }
    }
    let mut givens = vec![0u8; n * n];
    let place = |givens: &mut Vec<u8>, orbit: usize| {
        for &cell in &orbits[orbit] {
            givens[cell] = solution[cell];
        }
    };
    // Add: where another solution differs, give the cell (its orbit) its digit.
    loop {
        if budget.stop(0).is_some() {
            return None;
        }
        let outcome = engine::variant::solve(geo, rules, &givens, 2, budget);
        let empty: Vec<usize> = (0..n * n).filter(|&c| givens[c] == 0).collect();
        let differing: Vec<usize> = match outcome.solutions.iter().find(|s| s[..] != *solution) {
            Some(other) => empty
                .iter()
                .copied()
                .filter(|&c| other[c] != solution[c])
                .collect(),
            None if outcome.stop.is_none() => break,
            // Undecided: any empty cell narrows the search.
            None => empty,
        };
        if differing.is_empty() {
            return None;
        }
        let cell = differing[rng.below(differing.len())];
        place(&mut givens, orbit_of[cell]);
    }
    // Take away: each orbit of givens whose removal keeps one solution goes.
    let mut decided = true;
    let mut placed: Vec<usize> = (0..orbits.len())
        .filter(|&i| givens[orbits[i][0]] != 0)
        .collect();
    rng.shuffle(&mut placed);
    for orbit in placed {
        for &cell in &orbits[orbit] {
            givens[cell] = 0;
        }
        let outcome = engine::variant::solve(geo, rules, &givens, 2, budget);
        let unique = outcome.solutions.len() == 1 && outcome.stop.is_none();
        decided &= outcome.stop.is_none() || outcome.solutions.len() > 1;
        if !unique {
            place(&mut givens, orbit);
        }
    }
    Some((givens, decided))
}

/// Whether every given of the drawn puzzle is needed (`None`: a check ran out of budget).
/// Without a symmetry, with every check of `settle_givens` decided, each given left was tried
/// alone and kept. With one, an orbit kept for one of its cells may hold others that are not
/// needed: each is tried alone.
fn minimality(drawn: &Drawn, geo: &Geometry, request: &Request, budget: &Budget) -> Option<bool> {
    match request.symmetry {
        Symmetry::None => drawn.decided.then_some(true),
        _ => redundant_givens_under(geo, Some(&drawn.rules), &drawn.givens, budget)
            .ok()
            .map(|cells| cells.is_empty()),
    }
}

/// `A1` … as the constraint lines write cells.
fn names(geo: &Geometry, cells: &[usize]) -> String {
    let names: Vec<String> = cells.iter().map(|&c| geo.cell_name(c)).collect();
    names.join(" ")
}

/// The orthogonal neighbours of `cell`.
fn neighbours(n: usize, cell: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (cell / n, cell % n);
    [
        (r > 0).then(|| cell - n),
        (r + 1 < n).then(|| cell + n),
        (c > 0).then(|| cell - 1),
        (c + 1 < n).then(|| cell + 1),
    ]
    .into_iter()
    .flatten()
}

/// Cages covering the grid, grown from random cells to random sizes (mostly 2 to 4) through
/// orthogonal neighbours whose digit the cage does not hold yet; a cell left alone joins a
/// neighbouring cage that can take it. Written in reading order of each cage's first cell.
fn killer_cages(geo: &Geometry, solution: &[u8], rng: &mut XorShift) -> Vec<String> {
    let n = geo.side();
    const FREE: usize = usize::MAX;
    let mut cage_of = vec![FREE; n * n];
    let mut cages: Vec<Vec<usize>> = Vec::new();
    let mut starts: Vec<usize> = (0..n * n).collect();
    rng.shuffle(&mut starts);
    let biggest = n.min(5);
    for start in starts {
        if cage_of[start] != FREE {
            continue;
        }
        // Sizes 2, 3, 3, 4, 4, 5… weighted to the middle, as hand-set killers are.
        let target = [2, 2, 3, 3, 3, 4, 4, 5][rng.below(8)].min(biggest);
        let id = cages.len();
        let mut cage = vec![start];
        cage_of[start] = id;
        while cage.len() < target {
            let frontier: Vec<usize> = cage
                .iter()
                .flat_map(|&c| neighbours(n, c))
                .filter(|&c| cage_of[c] == FREE)
                .filter(|&c| !cage.iter().any(|&m| solution[m] == solution[c]))
                .collect();
            if frontier.is_empty() {
                break;
            }
            let next = frontier[rng.below(frontier.len())];
            cage_of[next] = id;
            cage.push(next);
        }
        cages.push(cage);
    }
    // A cage of one cell says its digit: let it join a neighbour's cage where it fits.
    for id in 0..cages.len() {
        if cages[id].len() != 1 {
            continue;
        }
        let cell = cages[id][0];
        let hosts: Vec<usize> = neighbours(n, cell)
            .map(|c| cage_of[c])
            .filter(|&h| h != id && cages[h].len() < 6)
            .filter(|&h| !cages[h].iter().any(|&m| solution[m] == solution[cell]))
            .collect();
        if hosts.is_empty() {
            continue;
        }
        let host = hosts[rng.below(hosts.len())];
        cages[id].clear();
        cages[host].push(cell);
        cage_of[cell] = host;
    }
    let mut cages: Vec<Vec<usize>> = cages.into_iter().filter(|c| !c.is_empty()).collect();
    for cage in &mut cages {
        cage.sort_unstable();
    }
    cages.sort_unstable();
    cages
        .iter()
        .map(|cage| {
            let sum: u32 = cage.iter().map(|&c| solution[c] as u32).sum();
            format!("cage {sum}: {}", names(geo, cage))
        })
        .collect()
}

/// Every kropki dot (white: consecutive, black: one double the other; a 1 and 2 get either) or
/// every X and V between orthogonal neighbours, with the `negative:` line that says so.
fn dots(geo: &Geometry, solution: &[u8], rng: &mut XorShift, genre: Genre) -> Vec<String> {
    let n = geo.side();
    let mut lines = vec![match genre {
        Genre::Xv => "negative: x v".to_string(),
        _ => "negative: white black".to_string(),
    }];
    for cell in 0..n * n {
        for other in neighbours(n, cell).filter(|&o| o > cell) {
            let (a, b) = (solution[cell], solution[other]);
            let kind = match genre {
                Genre::Xv if a + b == 10 => "x",
                Genre::Xv if a + b == 5 => "v",
                Genre::Xv => continue,
                _ => {
                    let white = a.abs_diff(b) == 1;
                    let black = a == 2 * b || b == 2 * a;
                    match (white, black) {
                        (true, true) if rng.below(2) == 0 => "white",
                        (true, true) => "black",
                        (true, false) => "white",
                        (false, true) => "black",
                        (false, false) => continue,
                    }
                }
            };
            lines.push(format!("{kind}: {}", names(geo, &[cell, other])));
        }
    }
    lines
}

/// Thermometers: from random bulbs, each a walk to a random touching cell (diagonals too) with
/// a higher digit, no two sharing a cell; walks shorter than three cells are dropped. About
/// one and a half per row, as hand-set ones have.
fn thermometers(geo: &Geometry, solution: &[u8], rng: &mut XorShift) -> Vec<String> {
    let n = geo.side();
    let mut used = vec![false; n * n];
    let mut lines = Vec::new();
    let mut bulbs: Vec<usize> = (0..n * n).collect();
    rng.shuffle(&mut bulbs);
    // Low digits first: their thermometers have room to be long.
    bulbs.sort_by_key(|&c| solution[c]);
    for bulb in bulbs {
        if lines.len() >= n + n / 2 || used[bulb] {
            continue;
        }
        let mut thermo = vec![bulb];
        let longest = 3 + rng.below(n.saturating_sub(4).max(1));
        while thermo.len() < longest {
            let last = *thermo.last().expect("a bulb");
            let next: Vec<usize> = touching(n, last)
                .filter(|&c| !used[c] && !thermo.contains(&c) && solution[c] > solution[last])
                .collect();
            if next.is_empty() {
                break;
            }
            thermo.push(next[rng.below(next.len())]);
        }
        if thermo.len() < 3 {
            continue;
        }
        for &cell in &thermo {
            used[cell] = true;
        }
        lines.push(format!("thermo: {}", names(geo, &thermo)));
    }
    lines
}

/// The cells a king's move from `cell`.
fn touching(n: usize, cell: usize) -> impl Iterator<Item = usize> {
    let (r, c) = ((cell / n) as isize, (cell % n) as isize);
    (-1..=1)
        .flat_map(move |dr| (-1..=1).map(move |dc| (r + dr, c + dc)))
        .filter(move |&(rr, cc)| (rr, cc) != (r, c))
        .filter(move |&(rr, cc)| (0..n as isize).contains(&rr) && (0..n as isize).contains(&cc))
        .map(move |(rr, cc)| rr as usize * n + cc as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::generate::puzzle_rng;
    use crate::grid::{Size, Variant};
    use std::time::Duration;

    fn request(side: usize, genre: Genre) -> Request {
        Request {
            size: Size::from_side(side).unwrap(),
            variant: Variant::Classic,
            genre: Some(genre),
            symmetry: Symmetry::None,
            rating: None,
            minimal: false,
            rating_time: Duration::from_secs(2),
        }
    }

    fn make(request: &Request, number: usize) -> Generated {
        let mut rng = puzzle_rng(7, number);
        let deadline = Instant::now() + Duration::from_secs(60);
        super::super::generate(request, &mut rng, deadline).expect("a puzzle in a minute")
    }

    /// Every genre on 9×9 and 6×6: the lines read back with no problem, the solution keeps
    /// every constraint, the givens are the solution's and have it as their only solution, and
    /// each given is needed.
    #[test]
    fn each_genre_makes_unique_minimal_puzzles_whose_rules_the_solution_keeps() {
        for genre in Genre::ALL {
            for side in [6, 9] {
                let asked = request(side, genre);
                let made = make(&asked, 1);
                let geo = geometry(asked.size, asked.variant);
                let rules = read_rules(&asked, &made.lines);
                assert!(!rules.constraints.is_empty(), "{genre:?} {side}");
                for constraint in &rules.constraints {
                    assert!(
                        constraint.satisfied(asked.size, &made.solution),
                        "{genre:?} {side}: {}",
                        constraint.name()
                    );
                }
                for (cell, &digit) in made.givens.iter().enumerate() {
                    assert!(digit == 0 || digit == made.solution[cell]);
                }
                let found =
                    engine::variant::solve(geo, &rules, &made.givens, 2, &Budget::unlimited());
                assert_eq!(found.solutions, vec![made.solution.clone()], "{genre:?}");
                assert_eq!(made.minimal, Some(true), "{genre:?} {side}");
                for cell in (0..made.givens.len()).filter(|&c| made.givens[c] != 0) {
                    let mut fewer = made.givens.clone();
                    fewer[cell] = 0;
                    let found =
                        engine::variant::solve(geo, &rules, &fewer, 2, &Budget::unlimited());
                    assert_eq!(
                        found.solutions.len(),
                        2,
                        "{genre:?}: given at {cell} needed"
                    );
                }
            }
        }
    }

    /// With a symmetry the givens come in its orbits, and minimality is checked given by given.
    #[test]
    fn a_symmetric_thermo_has_its_symmetry_and_says_whether_each_given_is_needed() {
        let asked = Request {
            symmetry: Symmetry::Rotational180,
            ..request(9, Genre::Thermo)
        };
        let made = make(&asked, 2);
        let geo = geometry(asked.size, asked.variant);
        assert!(made.givens.iter().any(|&g| g != 0), "thermos need givens");
        for cell in 0..81 {
            assert_eq!(
                made.givens[cell] == 0,
                made.givens[80 - cell] == 0,
                "{cell}"
            );
        }
        let rules = read_rules(&asked, &made.lines);
        let redundant =
            redundant_givens_under(geo, Some(&rules), &made.givens, &Budget::unlimited()).unwrap();
        assert_eq!(made.minimal, Some(redundant.is_empty()));
    }

    #[test]
    fn the_same_seed_makes_the_same_killer_and_another_number_another() {
        let asked = request(9, Genre::Killer);
        let one = make(&asked, 1);
        assert_eq!(make(&asked, 1).lines, one.lines);
        assert_ne!(make(&asked, 2).lines, one.lines);
    }

    #[test]
    fn a_killer_covers_the_grid_with_cages_of_distinct_digits() {
        let asked = request(9, Genre::Killer);
        let made = make(&asked, 3);
        let rules = read_rules(&asked, &made.lines);
        let mut covered = vec![0; 81];
        for constraint in &rules.constraints {
            let cells = constraint.named_cells();
            assert!(cells.len() <= 6, "{}", constraint.name());
            for &cell in &cells {
                covered[cell as usize] += 1;
            }
        }
        assert!(covered.iter().all(|&k| k == 1), "{covered:?}");
    }

    #[test]
    fn every_dot_is_drawn_and_the_negative_line_says_so() {
        let asked = request(9, Genre::Xv);
        let made = make(&asked, 1);
        assert_eq!(made.lines[0], "negative: x v");
        let n = 9;
        let pairs = (0..81)
            .flat_map(|c| {
                neighbours(n, c)
                    .filter(move |&o| o > c)
                    .map(move |o| (c, o))
            })
            .filter(|&(a, b)| {
                let s = made.solution[a] + made.solution[b];
                s == 10 || s == 5
            })
            .count();
        assert_eq!(made.lines.len(), pairs + 1);
    }
}
