//! The extra implications of dynamic chains (+) and nested chains: when plain propagation stops,
//! other techniques are tried on the reduced grid — pointing/claiming, hidden pairs, naked pairs,
//! X-wings, then (nested levels) forcing chains and cycles, multiple forcing chains or dynamic
//! chains. The first of them that finds something the chain made possible gives new "offs",
//! whose parents are the chain's eliminations the pattern relies on.

use std::ops::ControlFlow;

use super::hint::{sort, Mode};
use super::potential::{Cause, Ctx, Nested, Run, NONE};
use super::{collect, cycles, forcing};
use crate::cells::CellSet;
use crate::logic::{fish, intersections, subsets};

/// One implication found: the candidate that goes, the eliminations it relies on, and the nested
/// chain it comes from.
struct Found {
    removable: Vec<(usize, u8)>,
    parents: Vec<u32>,
    nested: Option<Nested>,
}

impl Found {
    /// Keeps a pattern's eliminations if it has any (the pattern finders also report patterns
    /// that remove nothing, and one of those must not stop the rules that come after it) and the
    /// pattern relies on something the chain removed.
    fn keep_if_caused(found: &mut Vec<Found>, removable: Vec<(usize, u8)>, parents: Vec<u32>) {
        if !removable.is_empty() && !parents.is_empty() {
            found.push(Found {
                removable,
                parents,
                nested: None,
            });
        }
    }
}

impl<const W: usize> Ctx<'_, W> {
    /// Adds the advanced implications to `run`; true when something new came.
    pub(super) fn advanced(&mut self, run: &mut Run) -> bool {
        let mut found: Vec<Found> = Vec::new();
        for rule in 0..6 {
            match rule {
                0 => self.locking(&mut found),
                1 => self.hidden_pairs(&mut found),
                2 => self.naked_pairs(&mut found),
                3 => self.x_wings(&mut found),
                4 if (2..4).contains(&self.mode.level) => {
                    let mode = Mode {
                        multiple: false,
                        dynamic: false,
                        nishio: false,
                        level: 0,
                        nesting: 0,
                    };
                    self.nested_chains(mode, &mut found);
                }
                4 if self.mode.level >= 4 => {
                    let mode = Mode {
                        multiple: true,
                        dynamic: true,
                        nishio: false,
                        level: self.mode.nesting,
                        nesting: 0,
                    };
                    self.nested_chains(mode, &mut found);
                }
                5 if self.mode.level == 3 => {
                    let mode = Mode {
                        multiple: true,
                        dynamic: false,
                        nishio: false,
                        level: 0,
                        nesting: 0,
                    };
                    self.nested_chains(mode, &mut found);
                }
                _ => {}
            }
            if !found.is_empty() || self.stopped {
                break;
            }
        }
        let mut progress = false;
        let mut parents = Vec::new();
        for f in found {
            parents.clear();
            for &p in &f.parents {
                let node = self.map[p as usize];
                if node != NONE {
                    parents.push(node);
                }
            }
            let nested = match f.nested {
                Some(n) => {
                    self.nested.push(n);
                    (self.nested.len() - 1) as u32
                }
                None => NONE,
            };
            for (cell, digit) in f.removable {
                let pot = self.pot(cell, digit, false);
                if self.map[pot as usize] == NONE {
                    let node = self.add_node(pot, Cause::Advanced, &parents, nested);
                    self.map[pot as usize] = node;
                    run.off.push(node);
                    progress = true;
                }
            }
        }
        progress
    }

    /// The eliminations (present in the source grid, gone from the working grid) of `digit` in
    /// `cells`, as off potentials.
    fn gone(&self, cells: CellSet<W>, digit: u8, out: &mut Vec<u32>) {
        let gone = (cells & self.src.places(digit)) - self.work.places(digit);
        for c in gone.iter() {
            out.push(self.pot(c, digit, false));
        }
    }

    fn locking(&mut self, found: &mut Vec<Found>) {
        let _ = intersections::locks(&self.work, crate::engine::Digits::EMPTY, |lock| {
            let mut parents = Vec::new();
            let base = self.work.unit(lock.from) - self.work.unit(lock.to);
            self.gone(base, lock.digit, &mut parents);
            let removable = lock.targets.iter().map(|c| (c, lock.digit)).collect();
            Found::keep_if_caused(found, removable, parents);
            ControlFlow::Continue(())
        });
    }

    fn hidden_pairs(&mut self, found: &mut Vec<Found>) {
        let _ = subsets::hidden_sets(&self.work, 2, |s| {
            let mut parents = Vec::new();
            let outside = self.work.unit(s.unit) - s.cells;
            for d in s.digits.iter() {
                for c in (outside & self.src.places(d)).iter() {
                    parents.push(self.pot(c, d, false));
                }
            }
            let removable = s.eliminations.iter().map(|e| (e.cell as usize, e.digit));
            let removable = removable.collect();
            Found::keep_if_caused(found, removable, parents);
            ControlFlow::Continue(())
        });
    }

    fn naked_pairs(&mut self, found: &mut Vec<Found>) {
        let _ = subsets::naked_sets(&self.work, 2, |s| {
            let mut parents = Vec::new();
            for c in s.cells.iter() {
                for v in (self.src.candidates(c) & !s.digits).iter() {
                    parents.push(self.pot(c, v, false));
                }
            }
            let removable = s.eliminations.iter().map(|e| (e.cell as usize, e.digit));
            let removable = removable.collect();
            Found::keep_if_caused(found, removable, parents);
            ControlFlow::Continue(())
        });
    }

    fn x_wings(&mut self, found: &mut Vec<Found>) {
        let n = self.n;
        let _ = fish::fishes(&self.work, 2, crate::engine::Digits::EMPTY, |f| {
            let (base_units, cover_units) = if f.rows { (0, n) } else { (n, 0) };
            let base = f
                .base
                .iter()
                .fold(CellSet::EMPTY, |s, &i| s | self.work.unit(base_units + i));
            let cover = f
                .cover
                .iter()
                .fold(CellSet::EMPTY, |s, &j| s | self.work.unit(cover_units + j));
            let mut parents = Vec::new();
            self.gone(base - cover, f.digit, &mut parents);
            let removable = f.targets.iter().map(|c| (c, f.digit)).collect();
            Found::keep_if_caused(found, removable, parents);
            ControlFlow::Continue(())
        });
    }

    /// A chaining producer run on the reduced grid; each of its hints (the same eliminations
    /// once) that relies on the chain's eliminations.
    fn nested_chains(&mut self, mode: Mode, found: &mut Vec<Found>) {
        // Static producers reuse what their search on the outer grid found wherever it read
        // none of the candidates the chain removed.
        let cycles_mode = !mode.multiple && !mode.dynamic;
        let multiple_mode = mode.multiple && !mode.dynamic;
        if cycles_mode && self.cycle_cache.is_none() {
            let budget = self.budget();
            let mut builder = Ctx::new(self.src, Some(self.src), mode, &budget);
            let cache = cycles::build_cache(&mut builder);
            if builder.stopped {
                self.stopped = true;
                return;
            }
            self.cycle_cache = Some(Box::new(cache));
        }
        if multiple_mode && self.multiple_cache.is_none() {
            let budget = self.budget();
            let mut builder = Ctx::new(self.src, Some(self.src), mode, &budget);
            let cache = forcing::build_cache(&mut builder);
            if builder.stopped {
                self.stopped = true;
                return;
            }
            self.multiple_cache = Some(Box::new(cache));
        }
        let grid = self.work.clone();
        let (hints, stopped, calls) = {
            let mut child = self.child(&grid, mode);
            let hints = match (self.cycle_cache.as_deref(), self.multiple_cache.as_deref()) {
                (Some(cache), _) if cycles_mode => {
                    let mut hints = cycles::hints_using(&mut child, cache);
                    sort(&mut hints);
                    hints
                }
                (_, Some(cache)) if multiple_mode => {
                    let mut hints = forcing::hints_using(&mut child, cache);
                    sort(&mut hints);
                    hints
                }
                _ => collect(&mut child),
            };
            (hints, child.stopped, child.calls())
        };
        self.set_calls(calls);
        if stopped {
            self.stopped = true;
            return;
        }
        let mut seen: Vec<Vec<(u16, u8)>> = Vec::new();
        for hint in hints {
            if seen.contains(&hint.removable) {
                continue;
            }
            seen.push(hint.removable.clone());
            if hint.rule_parents.is_empty() {
                continue;
            }
            found.push(Found {
                removable: hint
                    .removable
                    .iter()
                    .map(|&(c, d)| (c as usize, d))
                    .collect(),
                parents: hint.rule_parents,
                nested: Some(Nested {
                    complexity: hint.complexity,
                    key: hint.key,
                }),
            });
        }
    }
}
