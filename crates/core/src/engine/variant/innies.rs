//! The killer solver's "45 rule", as propagators the model adds once per puzzle: a house (or a
//! band of neighbouring rows or columns) sums to 45 per house on a 9×9, so the cells of it that
//! the cages wholly inside leave over (the innies) sum to what those cages leave of it; and the
//! cells of the cages reaching out of it (the outies) sum to what those cages hold beyond it.
//! A house's innies are a cage of their own (digits differing, exact combinations); a band's,
//! and outies, a sum when they are few. Sound for any set of disjoint cages with sums; with
//! overlapping cages nothing is added.

use super::props::Prop;
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
                let coeffs = vec![1; cells.len()].into();
                Prop::Linear {
                    cells: cells.into(),
                    coeffs,
                    total: sum as i32,
                }
            }
        })
        .collect();
    props.extend(sweeps(geometry, cages, &owner));
    props
}

/// Innies and outies together, over growing sweeps of houses (rows from the top and from the
/// bottom, columns from each side, boxes in order): the cages mostly inside the houses swept
/// so far sum to what those houses hold, less the cells of the houses no such cage covers
/// (innies), plus the cells of those cages beyond the houses (outies). So
/// `Σ outies − Σ innies` is known; a constraint is added when both sides are small (as sigh's
/// solver does: two cells or fewer on one side).
fn sweeps(geometry: &Geometry, cages: &[(&[u16], u32)], owner: &[usize]) -> Vec<Prop> {
    let side = geometry.size.side();
    let house_sum = (side * (side + 1) / 2) as i64;
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
    let orders = [rows, rows_up, columns, columns_back, boxes];
    let mut props = Vec::new();
    let mut seen = Vec::new();
    let cells = geometry.size.cells();
    for order in orders.iter().filter(|o| o.len() == side) {
        let mut inside = vec![false; cells];
        let mut covered = vec![false; cells];
        let mut used = vec![false; cages.len()];
        let mut pieces_sum = 0i64;
        for (i, house) in order[..side - 1].iter().enumerate() {
            for &c in house.iter() {
                inside[c as usize] = true;
            }
            for (k, (members, sum)) in cages.iter().enumerate() {
                let within = members.iter().filter(|&&c| inside[c as usize]).count();
                if !used[k] && within * 2 > members.len() {
                    used[k] = true;
                    pieces_sum += *sum as i64;
                    for &c in members.iter() {
                        covered[c as usize] = true;
                    }
                }
            }
            if i == 0 {
                continue; // one house: its innies are above
            }
            let innies: Vec<u16> = (0..cells as u16)
                .filter(|&c| inside[c as usize] && !covered[c as usize])
                .collect();
            let outies: Vec<u16> = (0..cells as u16)
                .filter(|&c| covered[c as usize] && !inside[c as usize])
                .collect();
            let (a, b) = (innies.len(), outies.len());
            let all_caged = innies
                .iter()
                .chain(&outies)
                .all(|&c| owner[c as usize] != usize::MAX);
            if a + b == 0 || a + b > side || (a > 2 && b > 2) || (all_caged && a + b > FEW_MIXED) {
                continue;
            }
            let total = pieces_sum - house_sum * (i as i64 + 1);
            let key = (outies.clone(), innies.clone());
            if seen.contains(&key) {
                continue;
            }
            seen.push(key);
            let coeffs = outies.iter().map(|_| 1).chain(innies.iter().map(|_| -1));
            props.push(Prop::Linear {
                cells: outies.iter().chain(&innies).copied().collect(),
                coeffs: coeffs.collect(),
                total: total as i32,
            });
        }
    }
    props
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
