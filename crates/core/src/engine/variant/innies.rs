//! The killer solver's "45 rule", as propagators the model adds once per puzzle: a house (or a
//! band of neighbouring rows or columns) sums to 45 per house on a 9×9, so the cells of it that
//! the cages wholly inside leave over (the innies) sum to what those cages leave of it; and the
//! cells of the cages reaching out of it (the outies) sum to what those cages hold beyond it.
//! A house's innies are a cage of their own (digits differing, exact combinations); a band's,
//! and outies, a sum when they are few. Sound for any set of disjoint cages with sums; with
//! overlapping cages nothing is added.

use super::props::Prop;
use super::sum::Sum;
use crate::grid::{Geometry, UnitKind};

/// At most this many cells make an innie or outie sum over a band (more is a weak bound).
const FEW: usize = 4;

/// At most this many innies and outies together, all in cages, make a sweep's constraint.
const FEW_MIXED: usize = 6;

/// Propagators for every house and band of `geometry` against `cages` (cells, sum).
pub(super) fn props(geometry: &Geometry, cages: &[(&[u16], u32)]) -> Vec<Prop> {
    let cells = geometry.size.cells();
    let mut owner = vec![usize::MAX; cells];
    for (k, (members, _)) in cages.iter().enumerate() {
        for &c in members.iter() {
            if owner[c as usize] != usize::MAX {
                return Vec::new(); // overlapping cages: the rule does not apply
            }
            owner[c as usize] = k;
        }
    }
    let side = geometry.size.side() as u32;
    let house_sum = side * (side + 1) / 2;
    let mut found: Vec<(Vec<u16>, u32, bool)> = Vec::new();
    for (region, houses) in regions(geometry) {
        let mut inside = vec![false; cells];
        for &c in &region {
            inside[c as usize] = true;
        }
        let touched: Vec<usize> = {
            let mut t: Vec<usize> = region
                .iter()
                .map(|&c| owner[c as usize])
                .filter(|&k| k != usize::MAX)
                .collect();
            t.sort_unstable();
            t.dedup();
            t
        };
        let whole = |k: usize| cages[k].0.iter().all(|&c| inside[c as usize]);
        let full_sum: u32 = touched
            .iter()
            .filter(|&&k| whole(k))
            .map(|&k| cages[k].1)
            .sum();
        let Some(innie_sum) = (house_sum * houses).checked_sub(full_sum) else {
            continue;
        };
        let innies: Vec<u16> = region
            .iter()
            .copied()
            .filter(|&c| owner[c as usize] == usize::MAX || !whole(owner[c as usize]))
            .collect();
        let one_house = houses == 1;
        if !innies.is_empty() && (innies.len() <= FEW || one_house) && innies.len() < side as usize
        {
            found.push((innies.clone(), innie_sum, one_house));
        }
        // Outies: every innie in a cage reaching out, so those cages hold the innies and the
        // outies together.
        if innies.iter().any(|&c| owner[c as usize] == usize::MAX) {
            continue;
        }
        let partial: Vec<usize> = touched.iter().copied().filter(|&k| !whole(k)).collect();
        let outies: Vec<u16> = partial
            .iter()
            .flat_map(|&k| cages[k].0.iter().copied())
            .filter(|&c| !inside[c as usize])
            .collect();
        let held: u32 = partial.iter().map(|&k| cages[k].1).sum();
        if let Some(outie_sum) = held.checked_sub(innie_sum) {
            if !outies.is_empty() && outies.len() <= FEW {
                found.push((outies, outie_sum, false));
            }
        }
    }
    found.sort();
    found.dedup();
    let mut props: Vec<Prop> = found
        .into_iter()
        .map(|(cells, sum, distinct)| {
            if distinct {
                Prop::cage(cells.into(), sum)
            } else {
                Prop::Sum(Sum::new(&cells, &vec![1; cells.len()], sum as i32))
            }
        })
        .collect();
    props.extend(sweeps(geometry, cages, &owner));
    props
}

/// Innies and outies together, over each house alone and over growing sweeps of houses (rows
/// from the top and from the bottom, columns from each side, boxes in order; more orders
/// searched more on TAREK's killers): the cages mostly inside the houses swept
/// so far sum to what those houses hold, less the cells of the houses no such cage covers
/// (innies), plus the cells of those cages beyond the houses (outies). So
/// `Σ outies − Σ innies` is known; a constraint is added when both sides are small (as sigh's
/// solver does: two cells or fewer on one side).
fn sweeps(geometry: &Geometry, cages: &[(&[u16], u32)], owner: &[usize]) -> Vec<Prop> {
    let side = geometry.size.side();
    let of_kind = |pick: fn(&UnitKind) -> bool| -> Vec<&[u16]> {
        geometry
            .units
            .iter()
            .filter(|u| pick(&u.kind))
            .map(|u| &u.cells[..])
            .collect()
    };
    let rows = of_kind(|k| matches!(k, UnitKind::Row(_)));
    let columns = of_kind(|k| matches!(k, UnitKind::Column(_)));
    let boxes = of_kind(|k| matches!(k, UnitKind::Box(_) | UnitKind::Region(_)));
    let mut rows_up = rows.clone();
    rows_up.reverse();
    let mut columns_back = columns.clone();
    columns_back.reverse();
    let mut found = Found::default();
    // Each house alone, then the sweeps.
    for house in rows.iter().chain(&columns).chain(&boxes) {
        let mut sweep = Sweep::new(geometry, cages);
        sweep.add(house);
        found.add(sweep.constraint(owner));
    }
    let orders = [rows, rows_up, columns, columns_back, boxes];
    for order in orders.iter().filter(|o| o.len() == side) {
        let mut sweep = Sweep::new(geometry, cages);
        for house in &order[..side - 1] {
            sweep.add(house);
            found.add(sweep.constraint(owner));
        }
    }
    found.props
}

/// Houses swept so far, and the cages mostly inside them.
struct Sweep<'c> {
    side: usize,
    cages: &'c [(&'c [u16], u32)],
    houses: i64,
    inside: Vec<bool>,
    covered: Vec<bool>,
    used: Vec<bool>,
    pieces_sum: i64,
}

impl<'c> Sweep<'c> {
    fn new(geometry: &Geometry, cages: &'c [(&'c [u16], u32)]) -> Sweep<'c> {
        let cells = geometry.size.cells();
        Sweep {
            side: geometry.size.side(),
            cages,
            houses: 0,
            inside: vec![false; cells],
            covered: vec![false; cells],
            used: vec![false; cages.len()],
            pieces_sum: 0,
        }
    }

    /// One more house, and the cages now mostly inside.
    fn add(&mut self, house: &[u16]) {
        self.houses += 1;
        for &c in house {
            self.inside[c as usize] = true;
        }
        for (k, (members, sum)) in self.cages.iter().enumerate() {
            let within = members.iter().filter(|&&c| self.inside[c as usize]).count();
            if !self.used[k] && within * 2 > members.len() {
                self.used[k] = true;
                self.pieces_sum += *sum as i64;
                for &c in members.iter() {
                    self.covered[c as usize] = true;
                }
            }
        }
    }

    /// `Σ outies − Σ innies = total`, as (outies, innies, total), when both sides are small.
    fn constraint(&self, owner: &[usize]) -> Option<(Vec<u16>, Vec<u16>, i64)> {
        let cells = self.inside.len() as u16;
        let innies: Vec<u16> = (0..cells)
            .filter(|&c| self.inside[c as usize] && !self.covered[c as usize])
            .collect();
        let outies: Vec<u16> = (0..cells)
            .filter(|&c| self.covered[c as usize] && !self.inside[c as usize])
            .collect();
        let (a, b) = (innies.len(), outies.len());
        let all_caged = innies
            .iter()
            .chain(&outies)
            .all(|&c| owner[c as usize] != usize::MAX);
        if a + b == 0 || a + b > self.side || (a > 2 && b > 2) || (all_caged && a + b > FEW_MIXED) {
            return None;
        }
        let house_sum = (self.side * (self.side + 1) / 2) as i64;
        Some((outies, innies, self.pieces_sum - house_sum * self.houses))
    }
}

/// The sweeps' constraints, each once.
#[derive(Default)]
struct Found {
    seen: Vec<(Vec<u16>, Vec<u16>)>,
    props: Vec<Prop>,
}

impl Found {
    fn add(&mut self, constraint: Option<(Vec<u16>, Vec<u16>, i64)>) {
        let Some((outies, innies, total)) = constraint else {
            return;
        };
        let key = (outies, innies);
        if self.seen.contains(&key) {
            return;
        }
        let (outies, innies) = &key;
        let coeffs: Vec<i32> = outies
            .iter()
            .map(|_| 1)
            .chain(innies.iter().map(|_| -1))
            .collect();
        let cells: Vec<u16> = outies.iter().chain(innies).copied().collect();
        self.props
            .push(Prop::Sum(Sum::new(&cells, &coeffs, total as i32)));
        self.seen.push(key);
    }
}

/// Each house of the grid's rows, columns and boxes (or regions), and each band of two or more neighbouring
/// rows or columns: its cells and how many houses it is.
fn regions(geometry: &Geometry) -> Vec<(Vec<u16>, u32)> {
    let mut out = Vec::new();
    for unit in &geometry.units {
        if matches!(
            unit.kind,
            UnitKind::Row(_) | UnitKind::Column(_) | UnitKind::Box(_) | UnitKind::Region(_)
        ) {
            out.push((unit.cells.to_vec(), 1));
        }
    }
    let n = geometry.size.side();
    for rows in [true, false] {
        for first in 0..n {
            for last in first + 1..n {
                // The whole grid less a band is the band on the other side: both ways are here.
                let cells = (first..=last)
                    .flat_map(|a| (0..n).map(move |b| if rows { a * n + b } else { b * n + a }))
                    .map(|c| c as u16)
                    .collect();
                out.push((cells, (last - first + 1) as u32));
            }
        }
    }
    out
}
