//! The puzzle generator: a random solved grid, then givens taken away (an orbit of the chosen
//! symmetry at a time, in random order) as long as the solution stays unique, and the result
//! rated by the human-style solver, retried until it is minimal or in a rating window when asked.
//!
//! Everything random comes from one seeded generator, so a seed gives the same puzzles again.
//!
//! Variant puzzles (`genre`) draw their constraints from the solved grid first, then take
//! givens as `genre` says.

mod genre;

pub use genre::Genre;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use web_time::Instant;

use super::setter::{redundant_givens, symmetry, unique_without, Symmetry};
use crate::engine::fast9::{self, XorShift};
use crate::engine::{self, Budget};
use crate::grid::{geometry, Geometry, Size, Variant};
use crate::logic::{self, Difficulty, Rating};

/// What to make.
#[derive(Clone, Debug)]
pub struct Request {
    pub size: Size,
    pub variant: Variant,
    /// The constraints to draw, for a variant puzzle (`None`: classic or diagonal alone).
    pub genre: Option<Genre>,
    /// The symmetry of the givens' places.
    pub symmetry: Symmetry,
    /// Keep only puzzles rated within this window (both ends included).
    pub rating: Option<(Difficulty, Difficulty)>,
    /// Keep only puzzles where every given is needed.
    pub minimal: bool,
    /// The time one rating may take; past it the rating is a lower bound (and a puzzle whose
    /// window it cannot confirm is passed over).
    pub rating_time: Duration,
}

impl Request {
    /// The command line that makes puzzle `number` (from 1) of a run with `seed` again: `sudoku-lsp
    /// new` with the seed and every option of the request that is not its default.
    pub fn command_line(&self, seed: u64, number: usize) -> String {
        let mut line = format!("sudoku-lsp new --seed {seed}");
        if self.size != Size::NINE {
            line.push_str(&format!(" --size {}", self.size.side()));
        }
        if let Some(genre) = self.genre {
            line.push_str(&format!(" --variant {}", genre.name()));
        } else if self.variant != Variant::Classic {
            line.push_str(&format!(" --variant {}", self.variant.name()));
        }
        if self.symmetry != Symmetry::None {
            line.push_str(&format!(" --symmetry {}", self.symmetry.arg()));
        }
        if let Some((lo, hi)) = self.rating {
            line.push_str(&format!(" --rating {lo}..{hi}"));
        }
        if self.minimal {
            line.push_str(" --minimal");
        }
        if number > 1 {
            line.push_str(&format!(" --number {number}"));
        }
        line
    }

    /// The rating time a size gets by default: a 9×9 rates in milliseconds (the hardest known
    /// in a second or two), a 16×16 with dynamic chains can take minutes.
    pub fn default_rating_time(size: Size) -> Duration {
        match size.side() {
            ..=9 => Duration::from_secs(10),
            _ => Duration::from_secs(2),
        }
    }
}

/// A unique puzzle and what the generator knows of it.
#[derive(Clone, Debug)]
pub struct Generated {
    pub givens: Vec<u8>,
    pub solution: Vec<u8>,
    /// The rating of its path of simplest steps.
    pub rating: Rating,
    /// Why the rating is only a lower bound (`analysis::incomplete_reason`'s words), if it is.
    pub lower_bound: Option<&'static str>,
    /// The time the rating had, when it stopped for want of more.
    pub rating_ran_out: Option<Duration>,
    /// The symmetry its givens have (at least the one asked for; it may happen to have more).
    pub symmetry: Symmetry,
    /// Whether every given is needed; `None` when the check ran out of budget.
    pub minimal: Option<bool>,
    /// The constraint lines of a variant puzzle (`cage 15: A1 A2 B1`…), in the order the file
    /// writes them; empty for a classic one.
    pub lines: Vec<String>,
}

impl Generated {
    /// Whether it is rated on the variant scale (it has constraints) rather than Sudoku
    /// Explainer's.
    fn variant_scale(&self) -> bool {
        !self.lines.is_empty()
    }
}

/// Why no puzzle came.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The time ran out (or, for `generate_cancellable`, the flag was raised) before a puzzle
    /// met the request; `tried` puzzles were made.
    OutOfTime { tried: u64 },
}

/// A seed when none is asked for: the clock's nanoseconds. Callers write it beside the puzzles
/// (the command line and the editor alike), so the same ones can be made again.
pub fn clock_seed() -> u64 {
    web_time::SystemTime::now()
        .duration_since(web_time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
}

/// The random stream of puzzle `number` (from 1) of a run with `seed`: the seed and the number
/// mixed (SplitMix64's finaliser), so neighbouring seeds and numbers give unrelated streams, and
/// each puzzle of a run can be made alone (on its own core, or again from its source line).
pub fn puzzle_rng(seed: u64, number: usize) -> XorShift {
    let mut z = seed ^ (number as u64 - 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    XorShift::new(z ^ (z >> 31))
}

/// Nodes the search for a random solved grid may spend before other random digits are tried.
const SOLUTION_NODES: u64 = 20_000;

/// Make one puzzle that meets `request`, trying until `deadline`.
pub fn generate(
    request: &Request,
    rng: &mut XorShift,
    deadline: Instant,
) -> Result<Generated, Failure> {
    generate_cancellable(request, rng, deadline, None)
}

/// `generate`, stopping within a moment once `cancel` is raised (every search it makes reads
/// the flag, as the rating's do): the language server's new-puzzle command, when the editor
/// cancels it.
pub fn generate_cancellable(
    request: &Request,
    rng: &mut XorShift,
    deadline: Instant,
    cancel: Option<&AtomicBool>,
) -> Result<Generated, Failure> {
    if let Some(genre) = request.genre {
        return genre::generate(request, genre, rng, deadline, cancel);
    }
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
        // Unique by construction: each removal was proved to keep the solution the only one.
        let (givens, decided) = take_away(geo, &solution, request.symmetry, rng, &budget);
        let making = budget.deadline.unwrap_or(deadline);
        let minimal = minimality(geo, &givens, request, making, decided, cancel);
        if request.minimal && minimal != Some(true) {
            continue;
        }
        let judged = judge(request, deadline, cancel, |budget| {
            logic::solve_path(geo, &givens, budget)
        });
        let Some(judged) = judged else {
            continue;
        };
        return Ok(judged.made(geo, givens, solution, minimal, Vec::new()));
    }
}

/// The budget of one try's making (its solved grid and givens), or `None` when the time is up
/// or the try is cancelled. The rating gets its time (half of what is left, when less): the
/// stages before it stop early enough to leave it.
fn making_budget<'a>(
    request: &Request,
    deadline: Instant,
    cancel: Option<&'a AtomicBool>,
) -> Option<Budget<'a>> {
    let now = Instant::now();
    if now >= deadline || cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
        return None;
    }
    let rating_share = request
        .rating_time
        .min(deadline.saturating_duration_since(now) / 2);
    Some(Budget {
        max_nodes: Some(SOLUTION_NODES),
        deadline: Some(deadline - rating_share),
        cancel,
    })
}

/// What the rating says of a made puzzle.
struct Judged {
    rating: Rating,
    /// Why the rating is only a lower bound, if it is.
    lower_bound: Option<&'static str>,
    /// The time the rating had, when it stopped for want of more.
    rating_ran_out: Option<Duration>,
}

impl Judged {
    /// The made puzzle, with what is known of it.
    fn made(
        self,
        geo: &Geometry,
        givens: Vec<u8>,
        solution: Vec<u8>,
        minimal: Option<bool>,
        lines: Vec<String>,
    ) -> Generated {
        Generated {
            symmetry: symmetry(geo, &givens),
            givens,
            solution,
            rating: self.rating,
            lower_bound: self.lower_bound,
            rating_ran_out: self.rating_ran_out,
            minimal,
            lines,
        }
    }
}

/// The rating of the path `solve` walks within the request's rating time (and `deadline`), or
/// `None` when it is outside the request's window (a lower bound is never inside).
fn judge(
    request: &Request,
    deadline: Instant,
    cancel: Option<&AtomicBool>,
    solve: impl FnOnce(&Budget) -> logic::Path,
) -> Option<Judged> {
    let start = Instant::now();
    let until = deadline.min(start + request.rating_time);
    let budget = Budget {
        max_nodes: None,
        deadline: Some(until),
        cancel,
    };
    let path = solve(&budget);
    let rating = logic::rate(&path);
    let lower_bound = super::grade::incomplete_reason(&path);
    let rating_ran_out = (lower_bound.is_some() && Instant::now() >= until)
        .then(|| until.saturating_duration_since(start));
    if let Some((lo, hi)) = request.rating {
        let inside = lower_bound.is_none() && lo <= rating.difficulty && rating.difficulty <= hi;
        if !inside {
            return None;
        }
    }
    Some(Judged {
        rating,
        lower_bound,
        rating_ran_out,
    })
}

/// Whether every given of a made puzzle is needed; `None` when the check ran out of budget.
/// Without symmetry, and with every check of `take_away` `decided`, it is so by construction:
/// each given left was tried alone and kept because the puzzle then had several solutions, and
/// taking other givens away after that only adds solutions. Otherwise each given is tried again.
fn minimality(
    geo: &Geometry,
    givens: &[u8],
    request: &Request,
    deadline: Instant,
    decided: bool,
    cancel: Option<&AtomicBool>,
) -> Option<bool> {
    if decided && request.symmetry == Symmetry::None {
        return Some(true);
    }
    // A 25×25's check takes minutes (a search a given, each costing tens of milliseconds):
    // only when asked for.
    if geo.side() > 16 && !request.minimal {
        return None;
    }
    match redundant_givens(geo, givens, &whole_check(request.size, deadline, cancel)) {
        Ok(cells) => Some(cells.is_empty()),
        Err(_) => None,
    }
}

/// The budget of the minimality check, over every given (each a search): the usual node
/// budget in all on a 9×9, a thirtieth of it beyond (where one node costs tens of times more).
/// Counted, not timed, as `take_away`'s.
fn whole_check(size: Size, deadline: Instant, cancel: Option<&AtomicBool>) -> Budget<'_> {
    let nodes = if size.side() <= 9 {
        super::solutions::DEFAULT_MAX_NODES
    } else {
        super::solutions::DEFAULT_MAX_NODES / 30
    };
    Budget {
        max_nodes: Some(nodes),
        deadline: Some(deadline),
        cancel,
    }
}

/// A random solved grid: a few random digits where they fit, solved by search (retried with
/// others when they leave no solution), its digits then relabelled at random.
fn random_solution(geo: &Geometry, rng: &mut XorShift, budget: &Budget) -> Option<Vec<u8>> {
    let side = geo.side();
    if let (9, Some(diagonal)) = (side, geo.variant.fast9_diagonal()) {
        return Some(fast9::random_solution(rng, diagonal).to_vec());
    }
    let mut seeds = vec![0u8; side * side];
    for _ in 0..side {
        let cell = rng.below(seeds.len());
        let digit = rng.below(side) as u8 + 1;
        let clash = geo.peers[cell].iter().any(|&p| seeds[p as usize] == digit);
        if !clash {
            seeds[cell] = digit;
        }
    }
    let mut found = engine::search(geo, &seeds, 1, budget).solutions;
    let mut solution = found.pop()?;
    // Relabelling keeps every unit whole (and the diagonals), and spreads the digits the
    // search's fixed order would favour.
    let mut labels: Vec<u8> = (1..=side as u8).collect();
    rng.shuffle(&mut labels);
    for digit in &mut solution {
        *digit = labels[*digit as usize - 1];
    }
    Some(solution)
}

/// Take away the givens of `solution` an orbit of `symmetry` at a time, in random order, keeping
/// each orbit whose removal leaves more than one solution, or that a check could not decide
/// within its nodes. The nodes are counted, not timed, so a seed makes the same puzzle on any
/// machine. Also whether every check was decided (see `minimality`).
fn take_away(
    geo: &Geometry,
    solution: &[u8],
    symmetry: Symmetry,
    rng: &mut XorShift,
    budget: &Budget,
) -> (Vec<u8>, bool) {
    let (per_check, mut left) = take_away_nodes(geo.side());
    let mut givens = solution.to_vec();
    let mut decided = true;
    let mut orbits = symmetry.orbits(geo.side());
    rng.shuffle(&mut orbits);
    for orbit in orbits {
        for &cell in &orbit {
            givens[cell] = 0;
        }
        let most = per_check.min(left);
        let (unique, spent) = unique_without(geo, &givens, solution, &orbit, budget, most);
        left -= spent.min(left);
        decided &= unique.is_ok();
        if unique != Ok(true) {
            for &cell in &orbit {
                givens[cell] = solution[cell];
            }
        }
    }
    (givens, decided)
}

/// The nodes one uniqueness check may spend while givens are taken away, and all of them
/// together. A 9×9 check needs a few hundred at most. On a large sparse grid a few checks would
/// walk millions, each node costing microseconds; stopping them costs a given or two, not the
/// puzzle, and the whole stays within a second or two.
fn take_away_nodes(side: usize) -> (u64, u64) {
    match side {
        ..=9 => (200_000, u64::MAX),
        10..=16 => (2_000, 60_000),
        _ => (500, 5_000),
    }
}

/// What `new`'s `--variant` names on a grid of `size`: a geometry (`classic`, `diagonal`, and
/// the aliases the metadata takes) or a genre of constraints (`killer`, `kropki`, `xv`,
/// `thermo`) on the classic one.
pub fn parse_variant(name: &str, size: Size) -> Result<(Variant, Option<Genre>), String> {
    if let Some(variant) = Variant::parse(name) {
        return Ok((variant, None));
    }
    let Some(genre) = Genre::parse(name) else {
        return Err(format!(
            "'{name}' is not a variant new makes: classic, diagonal, killer, kropki, xv or thermo"
        ));
    };
    if size.side() > Genre::MAX_SIDE {
        return Err(format!(
            "{} puzzles are made up to {max}×{max}, not {side}×{side}",
            genre.name(),
            max = Genre::MAX_SIDE,
            side = size.side()
        ));
    }
    Ok((Variant::Classic, Some(genre)))
}

/// A made puzzle as a block: metadata lines (`title`, `source`, `difficulty`, `size` and
/// `variant` where not 9×9 classic), a comment with its givens, minimality and symmetry, then
/// the grid in the display style and a blank line.
pub fn block_text(
    made: &Generated,
    size: Size,
    variant: Variant,
    title: &str,
    source: &str,
) -> String {
    let mut text = format!("# title: {title}\n# source: {source}\n");
    text.push_str(&format!("# difficulty: {}\n", rating_words(made)));
    if size != Size::NINE {
        text.push_str(&format!("# size: {0}x{0}\n", size.side()));
    }
    if variant != Variant::Classic {
        text.push_str(&format!("# variant: {}\n", variant.name()));
    }
    text.push_str(&format!("# {}\n", facts(made)));
    for line in &made.lines {
        text.push_str(line);
        text.push('\n');
    }
    text.push_str(&crate::format::grid_block(size, &made.givens));
    text.push('\n');
    text
}

/// A made puzzle as one line of cells, what is known of it after a `#`. A variant puzzle's
/// constraints have no place on it: it is for classic ones (`block_text` writes both).
pub fn line_text(made: &Generated, source: &str) -> String {
    format!(
        "{}  # {}; {}; {source}\n",
        crate::format::grid_line(&made.givens),
        rating_words(made),
        facts(made)
    )
}

/// `SE 3.4 Hard (Naked pair)` (`Variant 2.8 Hard (45 rule)` on the variant scale), or `SE ≥ 9.1 Extreme (…), a lower bound: the rating ran out of
/// its budget`.
fn rating_words(made: &Generated) -> String {
    let rating = &made.rating;
    let technique = rating
        .hardest
        .map(|t| format!(" ({})", t.name()))
        .unwrap_or_default();
    let (bound, tail) = match (made.lower_bound, made.rating_ran_out) {
        (None, _) => ("", String::new()),
        (Some(_), Some(time)) => (
            "≥ ",
            format!(
                ", a lower bound: the rating stopped after its {} s",
                seconds(time)
            ),
        ),
        (Some(why), None) => ("≥ ", format!(", a lower bound: the rating {why}")),
    };
    let scale = if made.variant_scale() {
        "Variant"
    } else {
        "SE"
    };
    format!(
        "{scale} {bound}{} {}{technique}{tail}",
        rating.difficulty,
        rating.level.name()
    )
}

/// `2` or `0.5`: seconds to a tenth, without a needless `.0`.
fn seconds(time: Duration) -> String {
    let tenths = (time.as_secs_f64() * 10.0).round() as u64;
    match tenths % 10 {
        0 => format!("{}", tenths / 10),
        t => format!("{}.{t}", tenths / 10),
    }
}

/// `24 givens, minimal, symmetry: 180° rotation`
fn facts(made: &Generated) -> String {
    let givens = made.givens.iter().filter(|&&d| d != 0).count();
    let minimal = match made.minimal {
        Some(true) => "minimal",
        Some(false) => "not minimal",
        // See `minimality`.
        None if made.givens.len() > 256 => {
            "minimality not checked (minutes on a 25×25: ask --minimal)"
        }
        None => "minimality not decided (its check ran out of time)",
    };
    if givens == 0 {
        return format!("no givens, {minimal}");
    }
    format!(
        "{}, {minimal}, symmetry: {}",
        crate::finding::plural(givens, "given"),
        made.symmetry.name()
    )
}

/// A rating window as setters write it: `6.0..7.5`, `..3.0`, `9.0..`, or one rating `7.2`.
pub fn parse_window(text: &str) -> Result<(Difficulty, Difficulty), String> {
    let one = |part: &str, default: u16| -> Result<Difficulty, String> {
        let part = part.trim();
        if part.is_empty() {
            return Ok(Difficulty::tenths(default));
        }
        let value: f64 = part
            .parse()
            .map_err(|_| format!("'{part}' is not a rating: write one like 7.2"))?;
        if !(0.0..=20.0).contains(&value) {
            return Err(format!(
                "'{part}' is off Sudoku Explainer's scale (1.0 to about 12)"
            ));
        }
        Ok(Difficulty::tenths((value * 10.0).round() as u16))
    };
    let (lo, hi) = match text.split_once("..") {
        Some((lo, hi)) => (one(lo, 0)?, one(hi, 200)?),
        None => {
            let only = one(text, 0)?;
            (only, only)
        }
    };
    if lo > hi {
        return Err(format!("'{text}': the low end is above the high end"));
    }
    Ok((lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn soon() -> Instant {
        Instant::now() + Duration::from_secs(60)
    }

    fn request(side: usize, variant: Variant, symmetry: Symmetry) -> Request {
        Request {
            size: Size::from_side(side).unwrap(),
            variant,
            genre: None,
            symmetry,
            rating: None,
            minimal: false,
            rating_time: Duration::from_millis(200),
        }
    }

    /// Every solution of `givens`, up to `limit`.
    fn solutions(geo: &Geometry, givens: &[u8], limit: usize) -> Vec<Vec<u8>> {
        engine::search(geo, givens, limit, &Budget::unlimited()).solutions
    }

    const ALL_SYMMETRIES: [Symmetry; 3] =
        [Symmetry::None, Symmetry::Rotational180, Symmetry::Diagonal];

    #[test]
    fn every_size_and_variant_gives_unique_puzzles_with_the_symmetry_asked() {
        let mut rng = XorShift::new(7);
        // Every symmetry on the sizes made most; one on the others (the test's time).
        let sizes = [4, 6, 9, 12, 16].map(|side| (side, &ALL_SYMMETRIES[..]));
        let others = [8, 10, 14].map(|side| (side, &ALL_SYMMETRIES[1..2]));
        for (side, kinds) in sizes.into_iter().chain(others) {
            for variant in [Variant::Classic, Variant::Diagonal] {
                for &kind in kinds {
                    let asked = request(side, variant, kind);
                    let made = generate(&asked, &mut rng, soon()).expect("a puzzle");
                    let geo = geometry(asked.size, variant);
                    let what = format!("{side}×{side} {variant:?} {kind:?}");
                    assert_eq!(
                        solutions(geo, &made.givens, 2),
                        vec![made.solution.clone()],
                        "{what}"
                    );
                    for cell in (0..made.givens.len()).filter(|&c| made.givens[c] != 0) {
                        assert_eq!(made.givens[cell], made.solution[cell], "{what}");
                    }
                    // Every cell of an orbit is given, or none is.
                    for orbit in kind.orbits(side) {
                        let given = orbit.iter().filter(|&&c| made.givens[c] != 0).count();
                        assert!(given == 0 || given == orbit.len(), "{what}: {orbit:?}");
                    }
                    assert_eq!(made.symmetry, symmetry(geo, &made.givens), "{what}");
                }
            }
        }
    }

    #[test]
    fn minimal_puzzles_need_every_given() {
        let mut rng = XorShift::new(11);
        for (side, kind) in [
            (9, Symmetry::None),
            (9, Symmetry::Rotational180),
            (6, Symmetry::None),
        ] {
            let asked = Request {
                minimal: true,
                ..request(side, Variant::Classic, kind)
            };
            let made = generate(&asked, &mut rng, soon()).expect("a puzzle");
            assert_eq!(made.minimal, Some(true));
            let geo = geometry(asked.size, Variant::Classic);
            for cell in (0..made.givens.len()).filter(|&c| made.givens[c] != 0) {
                let mut fewer = made.givens.clone();
                fewer[cell] = 0;
                assert!(solutions(geo, &fewer, 2).len() > 1, "{side}: cell {cell}");
            }
        }
    }

    #[test]
    fn a_rating_window_is_kept_and_a_seed_gives_the_same_puzzles() {
        let window = (Difficulty::tenths(20), Difficulty::tenths(45));
        let asked = Request {
            rating: Some(window),
            ..request(9, Variant::Classic, Symmetry::Rotational180)
        };
        let make = |seed| {
            let mut rng = XorShift::new(seed);
            (0..3)
                .map(|_| generate(&asked, &mut rng, soon()).expect("a puzzle"))
                .collect::<Vec<_>>()
        };
        let first = make(3);
        for made in &first {
            assert_eq!(made.lower_bound, None);
            let rating = &made.rating;
            assert!(window.0 <= rating.difficulty && rating.difficulty <= window.1);
        }
        let again = make(3);
        let givens = |made: &[Generated]| made.iter().map(|m| m.givens.clone()).collect::<Vec<_>>();
        assert_eq!(givens(&first), givens(&again));
        assert_ne!(givens(&first), givens(&make(4)));
    }

    #[test]
    fn a_seed_gives_the_same_givens_on_a_large_grid_where_checks_stop_short() {
        let asked = request(16, Variant::Diagonal, Symmetry::Rotational180);
        let make = || {
            let mut rng = XorShift::new(21);
            generate(&asked, &mut rng, soon()).expect("a puzzle").givens
        };
        assert_eq!(make(), make());
    }

    #[test]
    fn rating_windows_read_as_setters_write_them() {
        let d = Difficulty::tenths;
        assert_eq!(parse_window("6.0..7.5"), Ok((d(60), d(75))));
        assert_eq!(parse_window("..3"), Ok((d(0), d(30))));
        assert_eq!(parse_window("9.0.."), Ok((d(90), d(200))));
        assert_eq!(parse_window("7.2"), Ok((d(72), d(72))));
        assert!(parse_window("8..7").unwrap_err().contains("above"));
        assert!(parse_window("hard").unwrap_err().contains("not a rating"));
        assert!(parse_window("99").unwrap_err().contains("scale"));
    }

    #[test]
    fn an_impossible_window_runs_out_of_time_and_says_how_many_were_tried() {
        let asked = Request {
            rating: Some((Difficulty::tenths(1), Difficulty::tenths(1))),
            ..request(4, Variant::Classic, Symmetry::None)
        };
        let mut rng = XorShift::new(1);
        let deadline = Instant::now() + Duration::from_millis(200);
        match generate(&asked, &mut rng, deadline) {
            Err(Failure::OutOfTime { tried }) => assert!(tried > 0),
            Ok(made) => panic!("rated 0.1? {made:?}"),
        }
    }
}
