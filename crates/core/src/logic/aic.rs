//! Alternating inference chains (HoDoKu's and SudokuWiki's AIC and nice loops), on bivalue
//! cells and bilocal units only: candidates joined by *strong* links (a cell with two
//! candidates, a unit with two places for a digit: one of the two is true) and *weak* links (two
//! candidates of a cell, or a digit in two cells that see each other: one of the two is false),
//! strong and weak in turn, starting and ending with a strong link.
//!
//! - Discontinuous: one end or the other is true, so a candidate weakly linked to both ends is
//!   false (a nice loop whose two weak links meet there); when the chain comes back to its
//!   start, the start is true (a nice loop whose two strong links meet there).
//! - Continuous loop: the last candidate is weakly linked to the first. Every weak link of the
//!   loop is then strong as well: a digit leaves the other cells that see both its cells, a
//!   cell keeps only the loop's two candidates.
//!
//! Chains of one digit are X-chains and X-cycles, chains whose strong links are all in cells
//! XY-chains and Y-cycles; the rest are AICs. Chains have at most `MAX_NODES` candidates.
//! Units of every kind count, diagonals too.
//!
//! On a variant puzzle the rules' weak links join the houses' ([`RuleLinks`]): two candidates
//! one constraint says cannot both be true are weakly linked too, and the step's text names the
//! constraint behind each such link it uses.

use std::collections::HashSet;
use std::ops::ControlFlow;

use super::board::Board;
use super::links::{self, plain, RuleLinks};
use super::solver::stopped;
use super::step::{length_steps, say, Candidate, Difficulty, Step, Technique};
use super::Sink;
use crate::engine::{Budget, Digits};
use crate::grid::digit_char;

/// The longest chain looked for, in candidates.
const MAX_NODES: usize = 16;

/// A loop 6.5 and an open chain 6.6 (Sudoku Explainer's bidirectional cycles and forcing
/// X-chains), plus a tenth for each of its length thresholds the chain's candidates exceed
/// (4, 6, 8, 12, 16).
fn difficulty(nodes: usize, looped: bool) -> Difficulty {
    Difficulty(if looped { 65 } else { 66 } + length_steps(nodes))
}

/// On the variant scale a chain is rated as a trial of as many steps ([`Technique::RuleContradiction`]'s
/// 6.0 plus the same length increments): each strong link is one inference, as each step of
/// a trial is, and a chain as short as a trial is the simpler to follow.
fn variant_difficulty(nodes: usize, _looped: bool) -> Difficulty {
    Difficulty(Technique::RuleContradiction.variant_difficulty().0 + length_steps(nodes))
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Node {
    cell: usize,
    digit: u8,
}

struct Graph {
    side: usize,
    /// Strong partners of each candidate (index `cell * side + digit - 1`).
    strong: Vec<Vec<Node>>,
}

impl Graph {
    fn index(&self, n: Node) -> usize {
        n.cell * self.side + n.digit as usize - 1
    }
}

fn graph<const W: usize>(b: &Board<'_, W>) -> Graph {
    let side = b.side();
    let mut g = Graph {
        side,
        strong: vec![Vec::new(); b.geo.cells() * side],
    };
    let add = |g: &mut Graph, x: Node, y: Node| {
        let i = g.index(x);
        if !g.strong[i].contains(&y) {
            g.strong[i].push(y);
        }
        let j = g.index(y);
        if !g.strong[j].contains(&x) {
            g.strong[j].push(x);
        }
    };
    for cell in b.empty_cells().iter() {
        let ds = b.candidates(cell);
        if ds.len() == 2 {
            let mut it = ds.iter();
            if let (Some(x), Some(y)) = (it.next(), it.next()) {
                add(&mut g, Node { cell, digit: x }, Node { cell, digit: y });
            }
        }
    }
    for digit in 1..=side as u8 {
        for unit in 0..b.unit_count() {
            let places = b.places_in(digit, unit);
            if places.len() == 2 {
                let mut it = places.iter();
                if let (Some(x), Some(y)) = (it.next(), it.next()) {
                    add(&mut g, Node { cell: x, digit }, Node { cell: y, digit });
                }
            }
        }
    }
    g
}

impl Node {
    fn candidate(self) -> Candidate {
        Candidate::new(self.cell, self.digit)
    }
}

/// Whether one of `x` and `y` must be false: the houses say so, or a rule does.
fn weak<const W: usize>(b: &Board<'_, W>, rules: Option<&RuleLinks>, x: Node, y: Node) -> bool {
    links::weak(b, rules, x.candidate(), y.candidate())
}

/// Candidates weakly linked to `x` (but `x`'s own), by the houses, then by the rules.
fn weak_partners<const W: usize>(
    b: &Board<'_, W>,
    rules: Option<&RuleLinks>,
    x: Node,
) -> Vec<Node> {
    let mut out: Vec<Node> = b
        .candidates(x.cell)
        .iter()
        .filter(|&d| d != x.digit)
        .map(|digit| Node {
            cell: x.cell,
            digit,
        })
        .collect();
    out.extend(
        (b.peers(x.cell) & b.places(x.digit))
            .iter()
            .map(|cell| Node {
                cell,
                digit: x.digit,
            }),
    );
    if let Some(rules) = rules {
        let by_rules = rules.partners(x.candidate()).iter().map(|&(c, _)| Node {
            cell: c.cell as usize,
            digit: c.digit,
        });
        out.extend(by_rules.filter(|n| b.has(n.cell, n.digit)));
    }
    out
}

/// Candidates weakly linked to both ends.
fn seen_by_both<const W: usize>(
    b: &Board<'_, W>,
    rules: Option<&RuleLinks>,
    s: Node,
    e: Node,
) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = weak_partners(b, rules, s)
        .into_iter()
        .filter(|&n| n != e && weak(b, rules, n, e))
        .map(|n| Candidate::new(n.cell, n.digit))
        .collect();
    out.sort_unstable();
    out
}

/// What a continuous loop removes: across each weak link, the candidates weakly linked to
/// both of its ends.
fn loop_eliminations<const W: usize>(
    b: &Board<'_, W>,
    rules: Option<&RuleLinks>,
    chain: &[Node],
) -> Vec<Candidate> {
    let on_loop: HashSet<Node> = chain.iter().copied().collect();
    let mut out = Vec::new();
    let m = chain.len();
    for i in (1..m).step_by(2) {
        let (x, y) = (chain[i], chain[(i + 1) % m]);
        for n in weak_partners(b, rules, x) {
            if !on_loop.contains(&n) && weak(b, rules, n, y) {
                out.push(Candidate::new(n.cell, n.digit));
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

fn name(n: Node, geo: &crate::grid::Geometry) -> String {
    format!("({}){}", digit_char(n.digit), geo.cell_name(n.cell))
}

/// Every chain from every start, the shortest to each end found breadth first; the steps
/// sorted by difficulty and length, each set of eliminations told once.
pub(crate) fn aics<const W: usize>(b: &Board<'_, W>, sink: &mut Sink) -> ControlFlow<()> {
    chains_over(b, None, difficulty, &Budget::unlimited(), sink)
}

/// The same chains on a variant puzzle, over the rules' weak links as well as the houses',
/// rated on the variant scale; those found before `budget` stops.
pub(crate) fn aics_with_rules<const W: usize>(
    b: &Board<'_, W>,
    rules: &RuleLinks,
    budget: &Budget,
    sink: &mut Sink,
) -> ControlFlow<()> {
    chains_over(b, Some(rules), variant_difficulty, budget, sink)
}

fn chains_over<const W: usize>(
    b: &Board<'_, W>,
    rules: Option<&RuleLinks>,
    rate: fn(usize, bool) -> Difficulty,
    budget: &Budget,
    sink: &mut Sink,
) -> ControlFlow<()> {
    let g = graph(b);
    let mut found: Vec<(Vec<Node>, Step)> = Vec::new();
    let mut told: HashSet<(Vec<Candidate>, Vec<Candidate>)> = HashSet::new();
    let total = g.strong.len();
    for start in 0..total {
        if g.strong[start].is_empty() {
            continue;
        }
        if stopped(budget).is_some() {
            break;
        }
        // State: a candidate and how it was reached (0 weak or the start: false; 1 strong:
        // true). Parent pointers into `visits`.
        let mut parent: Vec<[Option<usize>; 2]> = vec![[None, None]; total];
        let mut seen = vec![[false; 2]; total];
        seen[start][0] = true;
        let mut frontier = vec![start];
        let mut parity = 0;
        for _depth in 1..MAX_NODES {
            let mut next = Vec::new();
            for &i in &frontier {
                let x = Node {
                    cell: i / g.side,
                    digit: (i % g.side) as u8 + 1,
                };
                let targets: Vec<Node> = if parity == 0 {
                    g.strong[i].clone()
                } else {
                    weak_partners(b, rules, x)
                        .into_iter()
                        .filter(|&n| !g.strong[g.index(n)].is_empty())
                        .collect()
                };
                for t in targets {
                    let j = g.index(t);
                    let p = 1 - parity;
                    if seen[j][p] {
                        continue;
                    }
                    seen[j][p] = true;
                    parent[j][p] = Some(i);
                    next.push(j);
                }
            }
            parity = 1 - parity;
            if parity == 1 {
                for &j in &next {
                    let chain = rebuild(&g, &parent, start, j);
                    if let Some(step) = chain_step(b, rules, rate, &chain) {
                        found.push((chain, step));
                    }
                }
            }
            frontier = next;
            if frontier.is_empty() {
                break;
            }
        }
    }
    // The simplest chain for each set of eliminations; its sentence written when taken.
    found.sort_by_key(|(chain, s)| (s.difficulty, chain.len()));
    for (chain, mut step) in found {
        if told.insert((step.placements.clone(), step.eliminations.clone())) {
            step.text = tell(b, rules, &chain, &step);
            sink.push(step)?;
        }
    }
    ControlFlow::Continue(())
}

fn rebuild(g: &Graph, parent: &[[Option<usize>; 2]], start: usize, end: usize) -> Vec<Node> {
    let mut chain = Vec::new();
    let (mut i, mut p) = (end, 1);
    loop {
        chain.push(Node {
            cell: i / g.side,
            digit: (i % g.side) as u8 + 1,
        });
        if i == start && p == 0 {
            break;
        }
        match parent[i][p] {
            Some(j) => {
                i = j;
                p = 1 - p;
            }
            None => break,
        }
    }
    chain.reverse();
    chain
}

fn chain_step<const W: usize>(
    b: &Board<'_, W>,
    rules: Option<&RuleLinks>,
    rate: fn(usize, bool) -> Difficulty,
    chain: &[Node],
) -> Option<Step> {
    let (s, e) = (*chain.first()?, *chain.last()?);
    let looped = is_loop(b, rules, chain);
    // Back at the start: were it false, it would be true.
    let placements = if s == e {
        vec![Candidate::new(s.cell, s.digit)]
    } else {
        Vec::new()
    };
    let eliminations = if looped {
        loop_eliminations(b, rules, chain)
    } else if s == e {
        Vec::new()
    } else {
        seen_by_both(b, rules, s, e)
    };
    if eliminations.is_empty() && placements.is_empty() {
        return None;
    }
    let one_digit = chain.iter().all(|n| n.digit == s.digit);
    let in_cells = chain
        .chunks(2)
        .all(|p| p.len() == 2 && p[0].cell == p[1].cell);
    let technique = match (one_digit, in_cells, looped) {
        (true, _, false) => Technique::XChain,
        (true, _, true) => Technique::XCycle,
        (_, true, false) => Technique::XyChain,
        (_, true, true) => Technique::YCycle,
        _ => Technique::Aic,
    };
    let mut cells: Vec<u16> = chain.iter().map(|n| n.cell as u16).collect();
    cells.dedup();
    let digits = chain.iter().fold(Digits::EMPTY, |mut d, n| {
        d.insert(n.digit);
        d
    });
    Some(Step {
        technique,
        difficulty: rate(chain.len(), looped),
        placements,
        eliminations,
        cells,
        units: Vec::new(),
        digits,
        text: String::new(),
    })
}

/// Whether the chain closes into a continuous loop: distinct candidates, the last weakly
/// linked to the first.
fn is_loop<const W: usize>(b: &Board<'_, W>, rules: Option<&RuleLinks>, chain: &[Node]) -> bool {
    let distinct = chain.iter().collect::<HashSet<_>>().len() == chain.len();
    distinct && chain.len() >= 4 && weak(b, rules, chain[chain.len() - 1], chain[0])
}

/// The chain in HoDoKu's notation (`=` strong, `-` weak) and what it shows.
fn tell<const W: usize>(
    b: &Board<'_, W>,
    rules: Option<&RuleLinks>,
    chain: &[Node],
    step: &Step,
) -> String {
    let technique = step.technique;
    let eliminations = &step.eliminations;
    let (s, e) = (chain[0], chain[chain.len() - 1]);
    let looped = is_loop(b, rules, chain);
    let mut links = String::new();
    for (i, n) in chain.iter().enumerate() {
        if i > 0 {
            links.push_str(if i % 2 == 1 { " = " } else { " - " });
        }
        links.push_str(&name(*n, b.geo));
    }
    let cell_is = |n: Node| format!("{} is {}", b.geo.cell_name(n.cell), digit_char(n.digit));
    let text = if s == e {
        format!(
            "{technique}: {links}: were {} not {d}, it would be {d}, so {}",
            b.geo.cell_name(s.cell),
            cell_is(s),
            d = digit_char(s.digit),
        )
    } else if looped {
        format!(
            "{technique}: {links} - {} is a loop, strong and weak links in turn, so every weak \
             link is strong too: {}",
            name(s, b.geo),
            say::eliminations(b.geo, eliminations)
        )
    } else {
        format!(
            "{technique}: {links}, so {} or {}: {}",
            cell_is(s),
            cell_is(e),
            say::eliminations(b.geo, eliminations)
        )
    };
    match rules.map(|r| by_rules(b, r, chain, step, looped)) {
        Some(said) if !said.is_empty() => format!("{text} (by the rules: {})", said.join("; ")),
        _ => text,
    }
}

/// The rule links the step rests on, each as "(4)A1 - (6)A2: cage 10 at A1 A2": the chain's
/// weak links, its closing link when it loops, and each elimination's links to the candidates
/// that rule it out, where a rule (not a house) makes the link.
fn by_rules<const W: usize>(
    b: &Board<'_, W>,
    rules: &RuleLinks,
    chain: &[Node],
    step: &Step,
    looped: bool,
) -> Vec<String> {
    let mut pairs: Vec<(Node, Node)> = (2..chain.len())
        .step_by(2)
        .map(|i| (chain[i - 1], chain[i]))
        .collect();
    let weak_ends: Vec<(Node, Node)> = if looped {
        pairs.push((chain[chain.len() - 1], chain[0]));
        (1..chain.len())
            .step_by(2)
            .map(|i| (chain[i], chain[(i + 1) % chain.len()]))
            .collect()
    } else {
        vec![(chain[0], chain[chain.len() - 1])]
    };
    for gone in &step.eliminations {
        let n = Node {
            cell: gone.cell as usize,
            digit: gone.digit,
        };
        if let Some(&(x, y)) = weak_ends
            .iter()
            .find(|&&(x, y)| weak(b, Some(rules), n, x) && weak(b, Some(rules), n, y))
        {
            pairs.extend([(x, n), (y, n)]);
        }
    }
    // Grouped by the constraint and the two cells: "(4)F2 - (1/2/6)E2: white dot at E2 F2".
    let mut links: Vec<(Node, usize, u32, Vec<u8>)> = Vec::new();
    for (x, y) in pairs {
        if plain(b, x.candidate(), y.candidate()) {
            continue;
        }
        let Some(constraint) = rules.between(x.candidate(), y.candidate()) else {
            continue;
        };
        match links
            .iter_mut()
            .find(|(a, cell, c, _)| *a == x && *cell == y.cell && *c == constraint)
        {
            Some((_, _, _, digits)) if digits.contains(&y.digit) => {}
            Some((_, _, _, digits)) => digits.push(y.digit),
            None => links.push((x, y.cell, constraint, vec![y.digit])),
        }
    }
    let said = links
        .into_iter()
        .map(|(x, cell, constraint, digits)| {
            let digits: Vec<String> = digits.iter().map(|&d| digit_char(d).to_string()).collect();
            format!(
                "{} - ({}){}: {}",
                name(x, b.geo),
                digits.join("/"),
                b.geo.cell_name(cell),
                rules.label(constraint)
            )
        })
        .collect();
    said
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{geometry, Size, Variant};
    use crate::logic::fixtures::{at, keep, only_in, removed};

    fn all<const W: usize>(b: &Board<'_, W>) -> Vec<Step> {
        let mut sink = Sink::all();
        let _ = aics(b, &mut sink);
        sink.steps
    }

    #[test]
    fn an_xy_chain() {
        let geo = geometry(Size::NINE, Variant::Classic);
        let mut b = Board::<2>::new(geo, &[0; 81]);
        let [a1, a5, e5] = ["A1", "A5", "E5"].map(|n| at(&b, n));
        keep(&mut b, a1, &[1, 2]);
        keep(&mut b, a5, &[2, 3]);
        keep(&mut b, e5, &[1, 3]);
        let steps = all(&b);
        assert_eq!(steps.len(), 1);
        assert_eq!(removed(&b, &steps[0]), ["E1-1"]);
        assert_eq!(
            steps[0].text,
            "XY-chain: (1)A1 = (2)A1 - (2)A5 = (3)A5 - (3)E5 = (1)E5, so A1 is 1 or E5 is 1: \
             1 leaves E1"
        );
        assert_eq!(steps[0].difficulty, Difficulty(67));
    }

    #[test]
    fn a_chain_back_to_its_start_places_it() {
        // The XY-chain's cells, and 1 only in A1 and E1 in column 1: were A1 not 1, it would
        // be 2, A5 3, E5 1, and column 1 would have its 1 in A1 after all.
        let geo = geometry(Size::NINE, Variant::Classic);
        let mut b = Board::<2>::new(geo, &[0; 81]);
        let [a1, a5, e5, e1] = ["A1", "A5", "E5", "E1"].map(|n| at(&b, n));
        keep(&mut b, a1, &[1, 2]);
        keep(&mut b, a5, &[2, 3]);
        keep(&mut b, e5, &[1, 3]);
        only_in(&mut b, 1, 9, &[a1, e1]);
        let steps = all(&b);
        let placing = steps
            .iter()
            .find(|s| !s.placements.is_empty())
            .expect("a placement");
        assert_eq!(placing.placements, [Candidate::new(a1, 1)]);
        assert!(placing.eliminations.is_empty());
        assert!(
            placing
                .text
                .ends_with("were A1 not 1, it would be 1, so A1 is 1"),
            "{}",
            placing.text
        );
    }

    #[test]
    fn an_x_cycle() {
        // 7 only in A1, A5 in row A and in E1, E5 in row E: the loop A1 = A5 - E5 = E1 - A1
        // takes 7 out of the rest of columns 1 and 5.
        let geo = geometry(Size::NINE, Variant::Classic);
        let mut b = Board::<2>::new(geo, &[0; 81]);
        let [a1, a5, e1, e5] = ["A1", "A5", "E1", "E5"].map(|n| at(&b, n));
        only_in(&mut b, 7, 0, &[a1, a5]);
        only_in(&mut b, 7, 4, &[e1, e5]);
        let steps = all(&b);
        assert_eq!(steps[0].technique, Technique::XCycle);
        assert_eq!(steps[0].difficulty, Difficulty(65));
        let mut expected: Vec<String> = "BCDFGHI"
            .chars()
            .flat_map(|r| [format!("{r}1-7"), format!("{r}5-7")])
            .collect();
        expected.sort_by_key(|n| at(&b, &n[..2]));
        assert_eq!(removed(&b, &steps[0]), expected);
    }

    #[test]
    fn an_aic_through_a_diagonal() {
        // A1 {1, 2}; 2 only in A1 and E5 on the diagonal, only in A5 and E5 in column 5:
        // (1)A1 = (2)A1 - (2)E5 = (2)A5, so A1 is 1 or A5 is 2 — 2 leaves A1 (it sees A5).
        for variant in [Variant::Diagonal, Variant::Classic] {
            let geo = geometry(Size::NINE, variant);
            let mut b = Board::<2>::new(geo, &[0; 81]);
            let [a1, a5, e5] = ["A1", "A5", "E5"].map(|n| at(&b, n));
            keep(&mut b, a1, &[1, 2]);
            for i in 1..9 {
                if i * 10 != e5 {
                    b.eliminate(i * 10, 2);
                }
            }
            only_in(&mut b, 2, 9 + 4, &[a5, e5]);
            let steps = all(&b);
            let removes_a1 = steps
                .iter()
                .any(|s| removed(&b, s).contains(&"A1-2".to_string()));
            assert_eq!(removes_a1, variant == Variant::Diagonal, "{variant:?}");
            if variant == Variant::Classic {
                assert!(steps.is_empty(), "{:?}", steps[0].text);
            }
        }
    }

    #[test]
    fn a_chain_runs_over_a_rules_weak_link_and_names_it() {
        // 7 only in A1 and A5 in row A, A6 holds 1 or 3, and the white dot says A5=7 leaves A6
        // 6 or 8: (7)A1 = (7)A5 - (3)A6 = (1)A6, so A1 is 7 or A6 is 1, and 1 leaves A1.
        // Without the dot's link there is no chain.
        use crate::engine::variant::Deducer;
        use crate::logic::links::tests::empty_with;
        let (geo, rules) = empty_with("white: A5 A6");
        let deducer = Deducer::new(&geo, &rules);
        let mut b = Board::<2>::new(&geo, &[0; 81]);
        let [a1, a5, a6] = ["A1", "A5", "A6"].map(|n| at(&b, n));
        only_in(&mut b, 7, 0, &[a1, a5]);
        keep(&mut b, a6, &[1, 3]);
        let links = RuleLinks::of(&b, &rules, &deducer, &Budget::unlimited());
        let mut sink = Sink::all();
        let _ = aics_with_rules(&b, &links, &Budget::unlimited(), &mut sink);
        let step = sink
            .steps
            .iter()
            .find(|s| s.eliminations.contains(&Candidate::new(a1, 1)))
            .expect("1 leaves A1");
        assert!(
            step.text.contains("(by the rules: ") && step.text.contains(": white dot at A5 A6)"),
            "{}",
            step.text
        );
        assert_eq!(step.difficulty, Difficulty(60), "the variant scale");
        let without = all(&b);
        assert!(
            without
                .iter()
                .all(|s| !s.eliminations.contains(&Candidate::new(a1, 1))),
            "{:?}",
            without.first().map(|s| &s.text)
        );
    }

    #[test]
    fn an_xy_chain_on_a_16x16() {
        let geo = geometry(Size::from_side(16).expect("16×16"), Variant::Classic);
        let mut b = Board::<10>::new(geo, &[0; 256]);
        let [a1, a9, i9] = ["A1", "A9", "I9"].map(|n| at(&b, n));
        keep(&mut b, a1, &[1, 16]);
        keep(&mut b, a9, &[16, 3]);
        keep(&mut b, i9, &[3, 1]);
        let steps = all(&b);
        assert_eq!(removed(&b, &steps[0]), ["I1-1"]);
        assert!(steps[0].text.contains("(G)A1"), "{}", steps[0].text);
    }
}
