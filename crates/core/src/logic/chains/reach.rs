//! Which starts can give a static chain at all: a cycle through a potential exists only if it lies
//! on a cycle of the links (and runs within the potential's strongly connected component), a
//! forcing chain from it only if the links lead to its opposite. The searches of `cycles` skip the
//! other starts (for forcing chains, on a typical grid, nearly all) and the links that leave the
//! component.
//!
//! Worked out for every start at once, in time linear in the links: the links' strongly
//! connected components (Tarjan); for forcing chains, each component's reachable set built from
//! those of the components it points to, which Tarjan finishes first.

use super::potential::{Ctx, StaticLinks, NONE};

/// The starts worth a search on one pass, for each potential index of the grid.
pub(super) struct Starts {
    /// The potential's strongly connected component of the pass's links, where it has more than
    /// one potential (`NONE` elsewhere): a cycle through a start exists only if it has one, and
    /// runs through that component alone.
    pub component: Vec<u32>,
    /// With digit links (`x`): the potential leads to its opposite, so a forcing chain from it
    /// exists. Forcing chains follow every link from an "off", so with `x` the links a cycle
    /// search follows are theirs too.
    pub forcing: Option<Vec<bool>>,
    /// With digit links: what each potential leads to.
    leads: Option<Leads>,
}

/// For each potential, every potential the links lead to from it: the set of its strongly
/// connected component (each component's set holds the sets of those it points to).
struct Leads {
    /// Potential to dense number (`NONE` where absent).
    index: Vec<u32>,
    /// Each dense potential's component.
    of: Vec<u32>,
    /// `words` words a component: the dense potentials it leads to, its own included.
    reach: Vec<u64>,
    words: usize,
}

impl Starts {
    /// Whether a forcing chain may start from `pot` (always, on a pass without digit links, which
    /// looks for none).
    pub(crate) fn may_force(&self, pot: u32) -> bool {
        self.forcing.as_ref().is_none_or(|from| from[pot as usize])
    }

    /// Whether the links may lead from `from` to `to` (itself included); always, where not known.
    pub(crate) fn may_lead(&self, from: u32, to: u32) -> bool {
        let Some(leads) = &self.leads else {
            return true;
        };
        let (v, w) = (leads.index[from as usize], leads.index[to as usize]);
        if v == NONE || w == NONE {
            return true;
        }
        let component = leads.of[v as usize] as usize;
        let bits = &leads.reach[component * leads.words..(component + 1) * leads.words];
        bits[w as usize / 64] >> (w % 64) & 1 == 1
    }
}

/// The starts of a pass that follows the links (from an "on" everything; from an "off" the cell's
/// part with `y`, the units' part with `x`) of `links`. Potentials of solved cells and missing
/// candidates are false.
pub(super) fn starts<const W: usize>(
    ctx: &Ctx<W>,
    links: &StaticLinks,
    y: bool,
    x: bool,
) -> Starts {
    let graph = Dense::new(ctx, links, y, x);
    let components = Components::of(&graph);
    let mut component = vec![NONE; ctx.map.len()];
    for (id, members) in components.members().enumerate() {
        if members.len() > 1 {
            for &v in members {
                component[graph.pots[v as usize] as usize] = id as u32;
            }
        }
    }
    if !x {
        return Starts {
            component,
            forcing: None,
            leads: None,
        };
    }
    let reach = reachable(&graph, &components);
    let forcing = reaching_opposite(ctx.map.len(), &graph, &components, &reach);
    let words = graph.pots.len().div_ceil(64);
    let Dense { index, .. } = graph;
    let leads = Leads {
        index,
        of: components.of,
        reach,
        words,
    };
    Starts {
        component,
        forcing: Some(forcing),
        leads: Some(leads),
    }
}

/// For each component, the dense potentials the links lead to from it (its own included),
/// `words` words a component.
fn reachable(graph: &Dense, components: &Components) -> Vec<u64> {
    let words = graph.pots.len().div_ceil(64);
    // Components come out sinks first, so every component a link leads to is done before the
    // component the link leaves.
    let mut reach = vec![0u64; components.count * words];
    for (component, members) in components.members().enumerate() {
        let (done, rest) = reach.split_at_mut(component * words);
        let own = &mut rest[..words];
        for &v in members {
            own[v as usize / 64] |= 1 << (v % 64);
            for &w in graph.next(v) {
                let target = components.of[w as usize] as usize;
                if target != component {
                    let theirs = &done[target * words..(target + 1) * words];
                    own.iter_mut().zip(theirs).for_each(|(a, b)| *a |= b);
                }
            }
        }
    }
    reach
}

/// For each potential index, whether the links lead from it to its opposite.
fn reaching_opposite(
    pots: usize,
    graph: &Dense,
    components: &Components,
    reach: &[u64],
) -> Vec<bool> {
    let words = graph.pots.len().div_ceil(64);
    let mut result = vec![false; pots];
    for (v, &pot) in graph.pots.iter().enumerate() {
        let opposite = graph.index[(pot ^ 1) as usize];
        let component = components.of[v] as usize;
        let bits = &reach[component * words..(component + 1) * words];
        result[pot as usize] = bits[opposite as usize / 64] >> (opposite % 64) & 1 == 1;
    }
    result
}

/// The links between the grid's potentials, numbered densely.
struct Dense {
    /// Dense number to potential.
    pots: Vec<u32>,
    /// Potential to dense number (`NONE` where absent).
    index: Vec<u32>,
    /// Each dense potential's links: `targets[starts[v]..starts[v + 1]]`.
    starts: Vec<u32>,
    targets: Vec<u32>,
}

impl Dense {
    fn new<const W: usize>(ctx: &Ctx<W>, links: &StaticLinks, y: bool, x: bool) -> Dense {
        // Sized for every potential at once: these are built for every static chain search.
        let mut pots = Vec::with_capacity(ctx.map.len());
        let mut index = vec![NONE; ctx.map.len()];
        for cell in 0..ctx.src.geo.cells() {
            if ctx.src.value(cell) != 0 {
                continue;
            }
            for digit in ctx.src.candidates(cell).iter() {
                for on in [false, true] {
                    let pot = ctx.pot(cell, digit, on);
                    index[pot as usize] = pots.len() as u32;
                    pots.push(pot);
                }
            }
        }
        let mut starts = Vec::with_capacity(pots.len() + 1);
        let mut targets = Vec::with_capacity(links.count());
        for &pot in &pots {
            starts.push(targets.len() as u32);
            for &(q, _) in links.implied(pot, y, x) {
                let w = index[q as usize];
                if w != NONE {
                    targets.push(w);
                }
            }
        }
        starts.push(targets.len() as u32);
        Dense {
            pots,
            index,
            starts,
            targets,
        }
    }

    fn next(&self, v: u32) -> &[u32] {
        &self.targets[self.starts[v as usize] as usize..self.starts[v as usize + 1] as usize]
    }
}

/// Strongly connected components, numbered in the order Tarjan's algorithm finishes them (a
/// component's successors before it).
struct Components {
    /// Each dense potential's component.
    of: Vec<u32>,
    /// The potentials in finishing order, and where each component's run of them ends.
    order: Vec<u32>,
    ends: Vec<u32>,
    count: usize,
}

impl Components {
    /// Tarjan's algorithm, with an explicit stack (chains can be hundreds of links deep).
    fn of(graph: &Dense) -> Components {
        let n = graph.pots.len();
        let mut number = vec![NONE; n];
        let mut low = vec![0u32; n];
        let mut on_stack = vec![false; n];
        // Each vector sized for the most it can hold (every potential), so none grows.
        let mut stack: Vec<u32> = Vec::with_capacity(n);
        // (vertex, how many of its links are done)
        let mut calls: Vec<(u32, u32)> = Vec::with_capacity(n);
        let mut of = vec![NONE; n];
        let mut order = Vec::with_capacity(n);
        let mut ends = Vec::with_capacity(n);
        let mut next_number = 0;
        for root in 0..n as u32 {
            if number[root as usize] != NONE {
                continue;
            }
            calls.push((root, 0));
            number[root as usize] = next_number;
            low[root as usize] = next_number;
            next_number += 1;
            stack.push(root);
            on_stack[root as usize] = true;
            while let Some(&(v, done)) = calls.last() {
                if let Some(&w) = graph.next(v).get(done as usize) {
                    if let Some(top) = calls.last_mut() {
                        top.1 += 1;
                    }
                    if number[w as usize] == NONE {
                        number[w as usize] = next_number;
                        low[w as usize] = next_number;
                        next_number += 1;
                        stack.push(w);
                        on_stack[w as usize] = true;
                        calls.push((w, 0));
                    } else if on_stack[w as usize] {
                        low[v as usize] = low[v as usize].min(number[w as usize]);
                    }
                    continue;
                }
                calls.pop();
                if let Some(&(parent, _)) = calls.last() {
                    low[parent as usize] = low[parent as usize].min(low[v as usize]);
                }
                if low[v as usize] == number[v as usize] {
                    let component = ends.len() as u32;
                    while let Some(w) = stack.pop() {
                        on_stack[w as usize] = false;
                        of[w as usize] = component;
                        order.push(w);
                        if w == v {
                            break;
                        }
                    }
                    ends.push(order.len() as u32);
                }
            }
        }
        let count = ends.len();
        Components {
            of,
            order,
            ends,
            count,
        }
    }

    /// Each component's potentials, in finishing order.
    fn members(&self) -> impl Iterator<Item = &[u32]> {
        let mut start = 0;
        self.ends.iter().map(move |&end| {
            let run = &self.order[start as usize..end as usize];
            start = end;
            run
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Budget;
    use crate::logic::board::Board;
    use crate::logic::chains::Chaining;
    use crate::logic::fixtures::{thinned_boards, OnBoard};

    /// Whether each potential is reached from `from` by following one link or more.
    fn reachable(links: &StaticLinks, pots: usize, from: u32, y: bool, x: bool) -> Vec<bool> {
        let mut seen = vec![false; pots];
        let mut queue = vec![from];
        while let Some(p) = queue.pop() {
            for &(q, _) in links.implied(p, y, x) {
                if !seen[q as usize] {
                    seen[q as usize] = true;
                    queue.push(q);
                }
            }
        }
        seen
    }

    struct Compare {
        cycles: usize,
        forcing: usize,
    }

    impl OnBoard for Compare {
        fn board<const W: usize>(&mut self, b: &Board<'_, W>, _: &[u8], what: &str) {
            let budget = Budget::unlimited();
            let mut ctx = Ctx::new(b, None, Chaining::Cycles.mode(), &budget);
            let links = StaticLinks::new(&mut ctx);
            let pots = ctx.map.len();
            for (y, x) in [(false, true), (true, false), (true, true)] {
                let starts = starts(&ctx, &links, y, x);
                for cell in b.empty_cells().iter() {
                    for digit in b.candidates(cell).iter() {
                        for on in [false, true] {
                            let p = ctx.pot(cell, digit, on);
                            let from_p = reachable(&links, pots, p, y, x);
                            let cycle = starts.component[p as usize] != NONE;
                            assert_eq!(cycle, from_p[p as usize], "{what} cycle {p} {y} {x}");
                            self.cycles += usize::from(cycle);
                            for q in (0..pots as u32).filter(|&q| from_p[q as usize]) {
                                let same =
                                    starts.component[q as usize] == starts.component[p as usize];
                                let back = reachable(&links, pots, q, y, x)[p as usize];
                                assert_eq!(cycle && same, back, "{what} component {p} {q}");
                            }
                            if let Some(forcing) = &starts.forcing {
                                let leads = reachable(&links, pots, p, y, true)[p as usize ^ 1];
                                assert_eq!(forcing[p as usize], leads, "{what} forcing {p}");
                                self.forcing += usize::from(leads);
                            }
                        }
                    }
                }
            }
        }
    }

    /// The starts worked out from components agree with following every link from each start.
    #[test]
    fn starts_agree_with_following_every_link() {
        let mut compare = Compare {
            cycles: 0,
            forcing: 0,
        };
        thinned_boards(
            0x2545_f491_4f6c_dd1d,
            |side| usize::from(side <= 9) * 3,
            &mut compare,
        );
        assert!(
            compare.cycles > 0 && compare.forcing > 0,
            "nothing to compare"
        );
    }
}
