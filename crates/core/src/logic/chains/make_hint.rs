//! How a chain found becomes a `Hint`: its difficulty from the engine's mode and the chain's
//! length (nested chains included), its paths, and for a nested producer the eliminations of
//! the enclosing chain it relies on.

use super::hint::{length_difficulty, sort_key, Hint, Kind};
use super::potential::{Cause, Ctx};

impl<const W: usize> Ctx<'_, W> {
    /// A hint whose chains end in `targets` (for a cycle, its closing node only).
    pub(crate) fn make_hint(
        &mut self,
        kind: Kind,
        targets: &[u32],
        source: u32,
        removable: Vec<(u16, u8)>,
        placement: Option<(u16, u8)>,
    ) -> Hint {
        let mut nested = Vec::new();
        let mut flat = 0;
        for &t in targets {
            flat += self.ancestors(t, &mut nested);
        }
        let nested_complexity: u32 = nested
            .iter()
            .map(|&i| self.nested[i as usize].complexity)
            .sum();
        let complexity = flat + nested_complexity;
        let (base, sort_key) = match kind {
            Kind::Cycle { x, y, .. } => (if x && y { 7.0 } else { 6.5 }, sort_key(x, y)),
            Kind::Forcing { x, y } => (if x && y { 7.0 } else { 6.6 }, sort_key(x, y)),
            Kind::Binary { absurd } => (self.mode.base(), if absurd { 7 } else { 1 }),
            Kind::Cell => (self.mode.base(), 5),
            Kind::Region { .. } => (self.mode.base(), 6),
        };
        let paths = if self.rule_src.is_some() {
            Vec::new() // a nested hint is never shown
        } else {
            targets.iter().map(|&t| self.path(t)).collect()
        };
        let (rule_parents, key) = if self.rule_src.is_some() {
            self.rule_parents(kind, targets)
        } else {
            (Vec::new(), 0)
        };
        Hint {
            kind,
            mode: self.mode,
            difficulty: base + length_difficulty(complexity),
            complexity,
            flat,
            sort_key,
            placement,
            removable,
            source,
            paths,
            rule_parents,
            key,
        }
    }

    /// The eliminations of the enclosing chain (`rule_src` against this grid) that the chains of a
    /// nested hint rely on; and the hint's identity.
    fn rule_parents(&mut self, kind: Kind, targets: &[u32]) -> (Vec<u32>, u64) {
        use std::hash::{Hash, Hasher};
        let outer = self.rule_src.expect("a nested producer");
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        let mut result: Vec<u32> = Vec::new();
        for &t in targets {
            self.pot_of(t).hash(&mut hasher);
        }
        for &t in targets {
            let chain = self.chain(t);
            for &x in &chain {
                let node = self.nodes[x as usize];
                node.pot.hash(&mut hasher);
                let cycle = matches!(kind, Kind::Cycle { .. });
                let cause = match (node.cause, kind) {
                    (Cause::Start, Kind::Cell) => Cause::Cell,
                    (Cause::Start, Kind::Region { unit }) => Cause::House(unit),
                    (cause, _) => cause,
                };
                // A cycle's reversed chain has an "on" for each "off" of this one.
                if !(Ctx::<W>::is_on(node.pot) || cycle) {
                    continue;
                }
                let (cell, digit) = (self.cell(node.pot), self.digit(node.pot));
                match cause {
                    Cause::Cell => {
                        let gone = outer.candidates(cell) & !self.src.candidates(cell);
                        for v in gone.iter() {
                            let p = self.pot(cell, v, false);
                            if !result.contains(&p) {
                                result.push(p);
                            }
                        }
                    }
                    Cause::House(u) => {
                        let gone = outer.places_in(digit, u as usize)
                            - self.src.places_in(digit, u as usize);
                        for c in gone.iter() {
                            let p = self.pot(c, digit, false);
                            if !result.contains(&p) {
                                result.push(p);
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        (result, hasher.finish())
    }
}
