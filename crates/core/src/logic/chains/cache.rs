//! What a static search read of the grid and what it found there, start by start, so that a
//! nested producer on a reduced grid reuses every search that read nothing the reduction took.

use super::hint::Hint;
use crate::cells::CellSet;

/// What a static search read of the grid: cells whose candidates it looked at, and for each
/// digit the units whose places of it it looked at. A search whose footprint misses every
/// candidate a reduced grid lacks finds the same there.
#[derive(Clone)]
pub(super) struct Footprint<const W: usize> {
    pub cells: CellSet<W>,
    pub units: Vec<u128>,
}

impl<const W: usize> Footprint<W> {
    pub(super) fn new(n: usize) -> Footprint<W> {
        Footprint {
            cells: CellSet::EMPTY,
            units: vec![0; n],
        }
    }
    pub(super) fn clear(&mut self) {
        self.cells = CellSet::EMPTY;
        self.units.iter_mut().for_each(|u| *u = 0);
    }
    /// Whether it touches a candidate in `gone_cells`, or in `gone_units[d - 1]` for digit d.
    pub(super) fn touches(&self, gone_cells: &CellSet<W>, gone_units: &[u128]) -> bool {
        self.cells.intersects(gone_cells)
            || self.units.iter().zip(gone_units).any(|(a, b)| a & b != 0)
    }
}

/// The hints of each start (pass, cell, digit) on a grid, with what finding them read.
pub(super) struct Cache<const W: usize> {
    entries: Vec<Option<(Vec<Hint>, Footprint<W>)>>,
}

impl<const W: usize> Cache<W> {
    pub(super) fn with_starts(starts: usize) -> Self {
        Cache {
            entries: (0..starts).map(|_| None).collect(),
        }
    }

    /// Keeps what start `index` found and what its search read.
    pub(super) fn record(&mut self, index: usize, hints: &[Hint], footprint: Footprint<W>) {
        self.entries[index] = Some((hints.to_vec(), footprint));
    }

    /// What start `index` found, if its search read none of the candidates that went.
    pub(super) fn reusable(
        &self,
        index: usize,
        (gone_cells, gone_units): Gone<W>,
    ) -> Option<&[Hint]> {
        let (hints, footprint) = self.entries[index].as_ref()?;
        (!footprint.touches(gone_cells, gone_units)).then_some(hints.as_slice())
    }
}

/// The cells that lost candidates, and for each digit the units where it lost places.
pub(super) type Gone<'g, const W: usize> = (&'g CellSet<W>, &'g [u128]);

/// A cache built on the enclosing grid, and what that grid lost since.
pub(super) type Reuse<'c, const W: usize> = (&'c Cache<W>, Gone<'c, W>);
