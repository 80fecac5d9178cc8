//! Grid geometry: sizes, variants, units and peers, cell and unit names.
//!
//! A geometry depends only on (size, variant) and is computed once per pair, then shared as a
//! `&'static Geometry` — except a jigsaw's, whose regions replace the boxes: that one is built
//! for its puzzle ([`puzzle_geometry`]). Cells are indexed row-major from 0 (`A1`) to `n*n - 1`. Tables a
//! higher layer derives from a geometry alone live in it too (`Derived`), each filled on first
//! use by a `OnceLock`, so there is no cache keyed by a geometry's address and no lock that one
//! panic could poison for every later rating of a long-lived server.

use std::any::Any;
use std::fmt;
use std::panic::{RefUnwindSafe, UnwindSafe};
use std::sync::OnceLock;

use crate::cells::CellSet;

/// The side of a grid and the shape of its boxes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Size {
    side: u8,
    box_rows: u8,
    box_cols: u8,
}

impl Size {
    /// Every supported size, smallest first. A box is as f-puzzles and SudokuPad draw it: the
    /// largest divisor of the side that is at most its square root tall, the rest wide (so
    /// 2 rows × 4 columns on an 8×8, 3 × 5 on a 15×15). A prime side (5, 7, 11, 13) has no
    /// boxes: f-puzzles' rule gives it boxes one row tall, the rows themselves, so such a grid's
    /// puzzle needs regions of its own ([`Size::has_boxes`]).
    pub const ALL: [Size; 14] = [
        Size::new(4, 2, 2),
        Size::new(5, 1, 5),
        Size::new(6, 2, 3),
        Size::new(7, 1, 7),
        Size::new(8, 2, 4),
        Size::new(9, 3, 3),
        Size::new(10, 2, 5),
        Size::new(11, 1, 11),
        Size::new(12, 3, 4),
        Size::new(13, 1, 13),
        Size::new(14, 2, 7),
        Size::new(15, 3, 5),
        Size::new(16, 4, 4),
        Size::new(25, 5, 5),
    ];
    pub const NINE: Size = Size::new(9, 3, 3);

    const fn new(side: u8, box_rows: u8, box_cols: u8) -> Size {
        Size {
            side,
            box_rows,
            box_cols,
        }
    }

    /// The supported size with this many cells per row, if any.
    pub fn from_side(side: usize) -> Option<Size> {
        Size::ALL.into_iter().find(|s| s.side() == side)
    }

    /// Cells per row (and per unit, and the largest digit).
    pub fn side(self) -> usize {
        self.side as usize
    }
    pub fn box_rows(self) -> usize {
        self.box_rows as usize
    }
    pub fn box_cols(self) -> usize {
        self.box_cols as usize
    }
    /// Cells in the whole grid.
    pub fn cells(self) -> usize {
        self.side() * self.side()
    }
    /// "9×9"
    pub fn label(self) -> String {
        format!("{0}×{0}", self.side)
    }
    /// Whether the grid has boxes: every side but the primes (5, 7, 11, 13), whose puzzles
    /// need regions of their own (a `regions:` block, or `regions: none`).
    pub fn has_boxes(self) -> bool {
        self.box_rows > 1
    }
    /// "a 7×7", "an 11×11": the size with its article, to open a sentence.
    pub fn a_label(self) -> String {
        let article = if matches!(self.side, 8 | 11) {
            "an"
        } else {
            "a"
        };
        format!("{article} {}", self.label())
    }
    /// This size drawn as one box: what grids with regions of their own are written as (no
    /// box separators). For writing only; its geometry is the size's own.
    pub fn unboxed(self) -> Size {
        Size::new(self.side, self.side, self.side)
    }
    /// Human list of the one-line puzzles' lengths: "16, 25, 36, …, 256 or 625".
    pub fn one_line_lengths() -> &'static str {
        "16, 25, 36, 49, 64, 81, 100, 121, 144, 169, 196, 225, 256 or 625"
    }
    /// Human list of the supported sides: "4 to 16 or 25".
    pub fn supported_sides() -> &'static str {
        "4 to 16 or 25"
    }
    /// Human list of the sides with boxes (what `new` makes): "4, 6, 8, …, 16 or 25".
    pub fn boxed_sides() -> &'static str {
        "4, 6, 8, 9, 10, 12, 14, 15, 16 or 25"
    }
}

/// Which houses a puzzle has beyond its rows, columns and boxes: both main diagonals (diagonal
/// Sudoku), one of them, windoku's windows, the disjoint groups, or any of these together.
/// `Classic` and `Diagonal` are the two `fast9` solves and `# variant:` names; the others come
/// from constraint lines (`diagonal \`, `windoku`, `disjoint`) and go to the general engine.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Variant(u8);

/// `Variant`'s bits, one a family of houses.
const MAIN: u8 = 1;
const ANTI: u8 = 2;
const WINDOWS: u8 = 4;
const DISJOINT: u8 = 8;

/// Each variant's name, by its bits.
const VARIANT_NAMES: [&str; Variant::COUNT] = [
    "classic",
    "main diagonal",
    "anti-diagonal",
    "diagonal",
    "windoku",
    "main diagonal windoku",
    "anti-diagonal windoku",
    "diagonal windoku",
    "disjoint groups",
    "main diagonal, disjoint groups",
    "anti-diagonal, disjoint groups",
    "diagonal, disjoint groups",
    "windoku, disjoint groups",
    "main diagonal windoku, disjoint groups",
    "anti-diagonal windoku, disjoint groups",
    "diagonal windoku, disjoint groups",
];

// The two variants of old keep their enum-like names, so `Variant::Diagonal` reads as before.
#[allow(non_upper_case_globals)]
impl Variant {
    pub const Classic: Variant = Variant(0);
    /// Diagonal (X) Sudoku: both main diagonals are units too.
    pub const Diagonal: Variant = Variant(MAIN | ANTI);
    /// The diagonal from A1 to the bottom right corner alone (`diagonal \`).
    pub const MAIN_DIAGONAL: Variant = Variant(MAIN);
    /// The diagonal from the bottom left corner to the top right alone (`diagonal /`).
    pub const ANTI_DIAGONAL: Variant = Variant(ANTI);
    /// Windoku: windows the size of a box, one cell in from the edges and one apart (on a 9×9,
    /// the four 3×3 at B2, B6, F2 and F6), are houses too.
    pub const WINDOKU: Variant = Variant(WINDOWS);
    /// Disjoint groups: the cells in the same place of each box are a house (N of them).
    pub const DISJOINT: Variant = Variant(DISJOINT);
    /// How many variants there are (every set of the four families).
    pub(crate) const COUNT: usize = 16;

    /// This variant's houses and `other`'s.
    pub fn with(self, other: Variant) -> Variant {
        Variant(self.0 | other.0)
    }
    pub fn has_main_diagonal(self) -> bool {
        self.0 & MAIN != 0
    }
    pub fn has_anti_diagonal(self) -> bool {
        self.0 & ANTI != 0
    }
    pub fn has_windows(self) -> bool {
        self.0 & WINDOWS != 0
    }
    pub fn has_disjoint_groups(self) -> bool {
        self.0 & DISJOINT != 0
    }
    /// For the dedicated 9×9 solver: `Some(false)` classic, `Some(true)` diagonal, `None` for
    /// a variant it does not solve.
    pub fn fast9_diagonal(self) -> Option<bool> {
        match self {
            Variant::Classic => Some(false),
            Variant::Diagonal => Some(true),
            _ => None,
        }
    }
    fn index(self) -> usize {
        self.0 as usize
    }

    /// Reads a `variant:` metadata value (case-insensitive), accepting the common aliases.
    pub fn parse(value: &str) -> Option<Variant> {
        match value.trim().to_ascii_lowercase().as_str() {
            "classic" | "standard" | "normal" => Some(Variant::Classic),
            "diagonal" | "x" | "sudoku-x" => Some(Variant::Diagonal),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        VARIANT_NAMES[self.index()]
    }
}

impl fmt::Debug for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a unit is; rows, columns and boxes count from 0 here, from 1 (or `A`) in names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnitKind {
    Row(u8),
    Column(u8),
    Box(u8),
    /// Top left to bottom right.
    Diagonal,
    /// Top right to bottom left.
    AntiDiagonal,
    /// A windoku window, counted row by row from 0.
    Window(u8),
    /// The cells in place `i` (from 0, row by row) of every box.
    Disjoint(u8),
    /// A region of a jigsaw puzzle's own (`regions:`), in place of the boxes; counted from 0
    /// in the order their first cells come, row by row.
    Region(u8),
    /// A house a puzzle's rules add (an extra region, a cage of every cell's count), counted
    /// from 0 in the order of its rules ([`Geometry::with_rules`]).
    Extra(u8),
}

/// A set of cells that must hold every digit exactly once.
#[derive(Clone, Debug)]
pub struct Unit {
    pub kind: UnitKind,
    pub cells: Box<[u16]>,
}

/// Units and peers of one (size, variant), shared by every puzzle of that shape.
#[derive(Debug)]
pub struct Geometry {
    pub size: Size,
    pub variant: Variant,
    /// Whether the puzzle's regions are its own (a jigsaw, or no boxes at all) instead of the
    /// size's boxes.
    pub own_regions: bool,
    pub units: Vec<Unit>,
    /// For each cell, the indices into `units` of the units it belongs to.
    pub units_of: Vec<Box<[u16]>>,
    /// For each cell, every other cell sharing a unit with it, ascending, without repeats.
    pub peers: Vec<Box<[u16]>>,
    /// Every pair of units sharing two cells or more: a box and a row or column, and with the
    /// diagonals, a diagonal and a box it crosses.
    pub overlaps: Vec<Overlap>,
    /// For each cell, its units in Sudoku Explainer's order: box, row, column, diagonal,
    /// anti-diagonal (the order the chaining engine draws a cell's houses in).
    pub units_of_ranked: Vec<Box<[u16]>>,
    /// For each candidate index `cell * side + digit - 1`, `cell << 8 | digit`.
    pub candidate_codes: Box<[u32]>,
    /// What higher layers derive from this geometry, kept with it.
    pub derived: Derived,
}

/// Slots for tables a higher layer derives from a geometry alone, typed there (the logic
/// layer's cell-set layouts, whose type `grid` does not know), one slot per table kind. A
/// `OnceLock` whose builder panics stays empty for the next caller instead of being poisoned.
#[derive(Default)]
pub struct Derived {
    slots: [OnceLock<Box<DerivedTable>>; Derived::SLOTS],
}

/// A table kept in `Derived`: shared between threads, and unwind-safe as the rest of the
/// geometry is (a caller may hold a geometry across `catch_unwind`).
pub(crate) type DerivedTable = dyn Any + Send + Sync + UnwindSafe + RefUnwindSafe;

impl Derived {
    /// Table kinds a geometry can hold: the logic layer's layouts of its two set widths.
    pub(crate) const SLOTS: usize = 2;

    /// The table of kind `slot` (below `SLOTS`; each caller owns its own), built by `build`
    /// on first use.
    pub fn get_or_init(
        &self,
        slot: usize,
        build: impl FnOnce() -> Box<DerivedTable>,
    ) -> &(dyn Any + Send + Sync) {
        self.slots[slot].get_or_init(build).as_ref()
    }
}

impl fmt::Debug for Derived {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let built = self.slots.iter().filter(|s| s.get().is_some()).count();
        f.debug_struct("Derived").field("built", &built).finish()
    }
}

/// Two units that share two cells or more, split into the shared cells and each unit's rest.
/// A digit whose every place in one unit is shared must be in the other's shared cells too.
#[derive(Debug)]
pub struct Overlap {
    /// Indices into `Geometry::units`.
    pub units: [u16; 2],
    pub shared: Box<[u16]>,
    /// The cells of each unit outside `shared`, in the order of `Geometry::units`.
    pub rest: [Box<[u16]>; 2],
}

/// Each cell's units sorted box, row, column, diagonal, anti-diagonal.
fn ranked(units: &[Unit], units_of: &[Box<[u16]>]) -> Vec<Box<[u16]>> {
    let rank = |u: u16| match units[u as usize].kind {
        UnitKind::Box(_) => 0,
        UnitKind::Row(_) => 1,
        UnitKind::Column(_) => 2,
        UnitKind::Diagonal => 3,
        UnitKind::AntiDiagonal => 4,
        UnitKind::Window(_) => 5,
        UnitKind::Disjoint(_) => 6,
        UnitKind::Region(_) => 0,
        UnitKind::Extra(_) => 7,
    };
    let sorted = |of: &[u16]| {
        let mut of: Box<[u16]> = of.into();
        of.sort_by_key(|&u| rank(u)); // stable, as the table it replaces
        of
    };
    units_of.iter().map(|of| sorted(of)).collect()
}

/// The shared geometry of a (size, variant), built on first use.
pub fn geometry(size: Size, variant: Variant) -> &'static Geometry {
    static TABLE: [[OnceLock<Geometry>; Variant::COUNT]; Size::ALL.len()] =
        [const { [const { OnceLock::new() }; Variant::COUNT] }; Size::ALL.len()];
    // By side, so that a size drawn without boxes (`unboxed`) still finds its geometry.
    let size_index = Size::ALL
        .iter()
        .position(|s| s.side == size.side)
        .expect("supported size");
    let variant_index = variant.index();
    TABLE[size_index][variant_index].get_or_init(|| Geometry::build(size, variant, None))
}

/// A puzzle's geometry: the shared one of its (size, variant), or one of its own when it has
/// regions of its own (a jigsaw), which no other puzzle shares.
pub enum PuzzleGeometry {
    Shared(&'static Geometry),
    Own(Box<Geometry>),
}

impl std::ops::Deref for PuzzleGeometry {
    type Target = Geometry;
    fn deref(&self) -> &Geometry {
        match self {
            PuzzleGeometry::Shared(shared) => shared,
            PuzzleGeometry::Own(own) => own,
        }
    }
}

/// The geometry of a puzzle of `size` and `variant` whose boxes are `regions` when it has its
/// own: each cell's region (from 0; [`NO_REGION`] for a cell in none; all of them when the
/// puzzle has no boxes at all).
pub fn puzzle_geometry(size: Size, variant: Variant, regions: Option<&[u8]>) -> PuzzleGeometry {
    match regions {
        None => PuzzleGeometry::Shared(geometry(size, variant)),
        Some(regions) => {
            PuzzleGeometry::Own(Box::new(Geometry::build(size, variant, Some(regions))))
        }
    }
}

/// The region of a cell in no region (`.` in a `regions:` block).
pub const NO_REGION: u8 = u8::MAX;

impl Geometry {
    fn build(size: Size, variant: Variant, regions: Option<&[u8]>) -> Geometry {
        let n = size.side();
        let cell = |r: usize, c: usize| (r * n + c) as u16;
        let mut units = Vec::new();
        for r in 0..n {
            let cells = (0..n).map(|c| cell(r, c)).collect();
            units.push(Unit {
                kind: UnitKind::Row(r as u8),
                cells,
            });
        }
        for c in 0..n {
            let cells = (0..n).map(|r| cell(r, c)).collect();
            units.push(Unit {
                kind: UnitKind::Column(c as u8),
                cells,
            });
        }
        let (br, bc) = (size.box_rows(), size.box_cols());
        if let Some(regions) = regions {
            units.extend(regions_of(regions));
        }
        for b in (0..n).filter(|_| regions.is_none()) {
            // Boxes are numbered row-major; there are n/bc boxes across.
            let top = (b / (n / bc)) * br;
            let left = (b % (n / bc)) * bc;
            let cells = (0..n).map(|i| cell(top + i / bc, left + i % bc)).collect();
            units.push(Unit {
                kind: UnitKind::Box(b as u8),
                cells,
            });
        }
        if variant.has_main_diagonal() {
            let cells = (0..n).map(|i| cell(i, i)).collect();
            units.push(Unit {
                kind: UnitKind::Diagonal,
                cells,
            });
        }
        if variant.has_anti_diagonal() {
            let cells = (0..n).map(|i| cell(i, n - 1 - i)).collect();
            units.push(Unit {
                kind: UnitKind::AntiDiagonal,
                cells,
            });
        }
        if variant.has_windows() {
            // A box's shape, starting one cell in and one cell after the last window.
            let starts = |len: usize| (1..n).step_by(len + 1).filter(move |s| s + len < n + 1);
            let mut window = 0;
            for top in starts(br) {
                for left in starts(bc) {
                    let cells = (0..n).map(|i| cell(top + i / bc, left + i % bc)).collect();
                    units.push(Unit {
                        kind: UnitKind::Window(window),
                        cells,
                    });
                    window += 1;
                }
            }
        }
        if variant.has_disjoint_groups() {
            for place in 0..n {
                let cells = (0..n)
                    .map(|b| {
                        let (top, left) = ((b / (n / bc)) * br, (b % (n / bc)) * bc);
                        cell(top + place / bc, left + place % bc)
                    })
                    .collect();
                units.push(Unit {
                    kind: UnitKind::Disjoint(place as u8),
                    cells,
                });
            }
        }
        Geometry::assemble(size, variant, regions.is_some(), units, &[])
    }

    /// This geometry with the houses and peers a puzzle's rules add: `houses` (each holding
    /// every digit once: an extra region, a cage of every cell's count) after its own units,
    /// and `peers` (each cell's cells it must differ from: a cage mate, a knight's move…) on
    /// top of those the houses give. What the logic solver walks a variant puzzle on, so that
    /// every technique sees the rules' houses and peers.
    pub fn with_rules(&self, houses: &[Box<[u16]>], peers: &[Box<[u16]>]) -> Geometry {
        let mut units = self.units.clone();
        for (i, cells) in houses.iter().enumerate() {
            units.push(Unit {
                kind: UnitKind::Extra(i as u8),
                cells: cells.clone(),
            });
        }
        Geometry::assemble(self.size, self.variant, self.own_regions, units, peers)
    }

    /// A geometry from its units: each cell's units, its peers (those the units give, and
    /// `more_peers` besides when given), the overlaps and the tables derived from them.
    fn assemble(
        size: Size,
        variant: Variant,
        own_regions: bool,
        units: Vec<Unit>,
        more_peers: &[Box<[u16]>],
    ) -> Geometry {
        let n = size.side();
        let mut units_of = vec![Vec::new(); n * n];
        for (u, unit) in units.iter().enumerate() {
            for &c in unit.cells.iter() {
                units_of[c as usize].push(u as u16);
            }
        }
        // Sets of two words hold a 9×9's cells; the width is fixed at compile time so that
        // their loops unroll (ten words for every grid took a 9×9 twice as long).
        let (peers, overlaps) = match n * n {
            0..=128 => peers_and_overlaps::<2>(&units, &units_of, more_peers),
            129..=256 => peers_and_overlaps::<4>(&units, &units_of, more_peers),
            _ => peers_and_overlaps::<10>(&units, &units_of, more_peers),
        };
        let units_of: Vec<Box<[u16]>> = units_of.into_iter().map(Vec::into_boxed_slice).collect();
        Geometry {
            size,
            variant,
            own_regions,
            units_of_ranked: ranked(&units, &units_of),
            candidate_codes: (0..n * n * n)
                .map(|i| ((i / n) as u32) << 8 | (i % n + 1) as u32)
                .collect(),
            units,
            units_of,
            peers,
            overlaps,
            derived: Derived::default(),
        }
    }

    pub fn side(&self) -> usize {
        self.size.side()
    }
    /// Whether the dedicated 9×9 solver (`fast9`) solves this geometry, and with the
    /// diagonals or not: a 9×9 classic or diagonal grid with the size's own boxes.
    pub fn fast9_diagonal(&self) -> Option<bool> {
        let nine = self.size == Size::NINE && !self.own_regions;
        self.variant.fast9_diagonal().filter(|_| nine)
    }
    pub fn cells(&self) -> usize {
        self.size.cells()
    }
    pub(crate) fn row_of(&self, cell: usize) -> usize {
        cell / self.side()
    }
    pub fn column_of(&self, cell: usize) -> usize {
        cell % self.side()
    }

    /// The classic name of a cell: row letter then column number, `A1` top left.
    pub fn cell_name(&self, cell: usize) -> String {
        format!(
            "{}{}",
            row_letter(self.row_of(cell)),
            self.column_of(cell) + 1
        )
    }

    /// "row E", "column 5", "box 5", "diagonal A1–I9", "anti-diagonal A9–I1".
    pub fn unit_name(&self, unit: usize) -> String {
        let n = self.side();
        let last = row_letter(n - 1);
        match self.units[unit].kind {
            UnitKind::Row(r) => format!("row {}", row_letter(r as usize)),
            UnitKind::Column(c) => format!("column {}", c + 1),
            UnitKind::Box(b) => format!("box {}", b + 1),
            UnitKind::Diagonal => format!("diagonal A1–{last}{n}"),
            UnitKind::AntiDiagonal => format!("anti-diagonal A{n}–{last}1"),
            UnitKind::Window(w) => {
                let first = self.units[unit].cells[0] as usize;
                format!("window {} (at {})", w + 1, self.cell_name(first))
            }
            UnitKind::Disjoint(place) => format!("disjoint group {}", place + 1),
            UnitKind::Region(r) => {
                let first = self.units[unit].cells[0] as usize;
                format!("region {} (at {})", r + 1, self.cell_name(first))
            }
            UnitKind::Extra(_) => {
                let cells = &self.units[unit].cells;
                let (first, last) = (cells[0] as usize, cells[cells.len() - 1] as usize);
                let (first, last) = (self.cell_name(first), self.cell_name(last));
                format!("extra region {first}–{last}")
            }
        }
    }

    /// The first unit holding both cells, if they are peers.
    pub(crate) fn shared_unit(&self, a: usize, b: usize) -> Option<usize> {
        self.units_of[a]
            .iter()
            .map(|&u| u as usize)
            .find(|&u| self.units[u].cells.contains(&(b as u16)))
    }
}

/// The units of a jigsaw's regions (`regions[cell]`, from 0, or [`NO_REGION`]), numbered in the
/// order their first cells come.
fn regions_of(regions: &[u8]) -> Vec<Unit> {
    let mut order: Vec<u8> = Vec::new();
    for &r in regions.iter().filter(|&&r| r != NO_REGION) {
        if !order.contains(&r) {
            order.push(r);
        }
    }
    order
        .iter()
        .enumerate()
        .map(|(i, &r)| Unit {
            kind: UnitKind::Region(i as u8),
            cells: (0..regions.len())
                .filter(|&c| regions[c] == r)
                .map(|c| c as u16)
                .collect(),
        })
        .collect()
}

/// Each cell's peers (the cells of its units, and `more_peers` besides), and every pair of
/// units sharing two cells or more (one shared cell is a peer, no more): with the units as
/// sets of `W` words, rather than sorting each cell's peers and comparing every pair of units
/// cell by cell.
fn peers_and_overlaps<const W: usize>(
    units: &[Unit],
    units_of: &[Vec<u16>],
    more_peers: &[Box<[u16]>],
) -> (Vec<Box<[u16]>>, Vec<Overlap>) {
    let sets: Vec<CellSet<W>> = units
        .iter()
        .map(|u| u.cells.iter().map(|&c| c as usize).collect())
        .collect();
    let peers = units_of
        .iter()
        .enumerate()
        .map(|(c, units)| {
            let mut seen = CellSet::<W>::EMPTY;
            for &u in units {
                seen |= sets[u as usize];
            }
            for &o in more_peers.get(c).into_iter().flat_map(|m| m.iter()) {
                seen.insert(o as usize);
            }
            seen.remove(c);
            let mut peers = Vec::with_capacity(seen.len() as usize);
            peers.extend(seen.iter().map(|p| p as u16));
            peers.into_boxed_slice()
        })
        .collect();
    let mut overlaps = Vec::new();
    for (i, first) in units.iter().enumerate() {
        for (j, second) in units.iter().enumerate().skip(i + 1) {
            if sets[i].shared(&sets[j]) >= 2 {
                overlaps.extend(overlap([i as u16, j as u16], &first.cells, &second.cells));
            }
        }
    }
    (peers, overlaps)
}

/// The overlap of two houses (`units`: their indices) when they share two cells or more.
pub(crate) fn overlap(units: [u16; 2], first: &[u16], second: &[u16]) -> Option<Overlap> {
    let shared: Box<[u16]> = first
        .iter()
        .copied()
        .filter(|c| second.contains(c))
        .collect();
    if shared.len() < 2 {
        return None;
    }
    let rest_of = |house: &[u16]| -> Box<[u16]> {
        let outside = house.iter().filter(|c| !shared.contains(c));
        outside.copied().collect()
    };
    let rest = [rest_of(first), rest_of(second)];
    Some(Overlap {
        units,
        shared,
        rest,
    })
}

/// `A`, `B`, … for rows counted from 0.
pub fn row_letter(row: usize) -> char {
    (b'A' + row as u8) as char
}

/// The character of a digit: `1`–`9`, then `A`, `B`, … for sizes above 9.
pub fn digit_char(digit: u8) -> char {
    match digit {
        1..=9 => (b'0' + digit) as char,
        _ => (b'A' + digit - 10) as char,
    }
}

/// The digit a character stands for (`1`–`9`, `A`–`P` either case), before any size check.
pub fn char_digit(c: char) -> Option<u8> {
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        'A'..='P' => Some(c as u8 - b'A' + 10),
        'a'..='p' => Some(c as u8 - b'a' + 10),
        _ => None,
    }
}

/// Whether a character marks an empty cell.
pub fn is_empty_mark(c: char) -> bool {
    matches!(c, '.' | '0' | '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_nine_has_27_units_and_20_peers() {
        let g = geometry(Size::NINE, Variant::Classic);
        assert_eq!(g.units.len(), 27);
        assert!(g.peers.iter().all(|p| p.len() == 20));
        assert!(g.units_of.iter().all(|u| u.len() == 3));
    }

    #[test]
    fn diagonal_adds_two_units() {
        let g = geometry(Size::NINE, Variant::Diagonal);
        assert_eq!(g.units.len(), 29);
        assert_eq!(g.peers[0].len(), 20 + 6); // A1 sees the rest of the diagonal
        assert_eq!(g.peers[40].len(), 20 + 12); // E5 sits on both
    }

    #[test]
    fn boxes_follow_their_shape() {
        for size in Size::ALL {
            let g = geometry(size, Variant::Classic);
            for unit in &g.units {
                assert_eq!(unit.cells.len(), size.side());
            }
            // Box 2 of a 6×6 (2 rows × 3 columns) starts at A4.
            if size.side() == 6 {
                assert_eq!(g.cell_name(g.units[13].cells[0] as usize), "A4");
            }
        }
    }

    #[test]
    fn overlaps_are_box_lines_and_diagonal_boxes() {
        let g = geometry(Size::NINE, Variant::Classic);
        // Each of 9 boxes meets 3 rows and 3 columns; rows and columns share one cell only.
        assert_eq!(g.overlaps.len(), 54);
        assert!(g.overlaps.iter().all(|o| o.shared.len() == 3));
        assert!(g
            .overlaps
            .iter()
            .all(|o| o.rest.iter().all(|r| r.len() == 6)));
        // Each diagonal crosses three boxes in three cells.
        assert_eq!(
            geometry(Size::NINE, Variant::Diagonal).overlaps.len(),
            54 + 6
        );
    }

    #[test]
    fn names_are_classic() {
        let g = geometry(Size::NINE, Variant::Diagonal);
        assert_eq!(g.cell_name(0), "A1");
        assert_eq!(g.cell_name(40), "E5");
        assert_eq!(g.unit_name(4), "row E");
        assert_eq!(g.unit_name(13), "column 5");
        assert_eq!(g.unit_name(22), "box 5");
        assert_eq!(g.unit_name(27), "diagonal A1–I9");
        assert_eq!(g.unit_name(28), "anti-diagonal A9–I1");
    }

    #[test]
    fn boxes_are_as_tall_as_the_largest_divisor_up_to_the_square_root() {
        for size in Size::ALL {
            let n = size.side();
            let tall = (1..=n).filter(|d| n % d == 0 && d * d <= n).max().unwrap();
            assert_eq!((size.box_rows(), size.box_cols()), (tall, n / tall), "{n}");
        }
    }

    #[test]
    fn the_lists_in_messages_are_the_sizes() {
        let list = |items: Vec<usize>| {
            let (last, rest) = items.split_last().unwrap();
            let rest: Vec<String> = rest.iter().map(usize::to_string).collect();
            format!("{} or {last}", rest.join(", "))
        };
        assert_eq!(Size::supported_sides(), "4 to 16 or 25");
        let sides: Vec<usize> = Size::ALL.iter().map(|s| s.side()).collect();
        assert_eq!(sides, (4..=16).chain([25]).collect::<Vec<_>>());
        let boxed = Size::ALL.into_iter().filter(|s| s.has_boxes());
        assert_eq!(Size::boxed_sides(), list(boxed.map(|s| s.side()).collect()));
        assert_eq!(
            Size::one_line_lengths(),
            list(Size::ALL.iter().map(|s| s.cells()).collect())
        );
    }

    #[test]
    fn windows_disjoint_groups_and_single_diagonals_are_houses() {
        let windoku = geometry(Size::NINE, Variant::WINDOKU);
        let windows: Vec<usize> = (0..windoku.units.len())
            .filter(|&u| matches!(windoku.units[u].kind, UnitKind::Window(_)))
            .collect();
        let corners: Vec<String> = windows
            .iter()
            .map(|&u| windoku.cell_name(windoku.units[u].cells[0] as usize))
            .collect();
        assert_eq!(corners, ["B2", "B6", "F2", "F6"]);
        assert_eq!(windoku.unit_name(windows[3]), "window 4 (at F6)");
        assert_eq!(windoku.units[windows[0]].cells.len(), 9);
        // A 16×16 has nine windows; a 4×4 one.
        for (side, count) in [(16, 9), (4, 1)] {
            let geo = geometry(Size::from_side(side).unwrap(), Variant::WINDOKU);
            assert_eq!(geo.units.len(), 3 * side + count, "{side}");
        }
        // Disjoint groups: a cell from each box, in the same place.
        let disjoint = geometry(Size::NINE, Variant::DISJOINT);
        let group = &disjoint.units[27 + 4].cells;
        let names: Vec<String> = group
            .iter()
            .map(|&c| disjoint.cell_name(c as usize))
            .collect();
        assert_eq!(
            names,
            ["B2", "B5", "B8", "E2", "E5", "E8", "H2", "H5", "H8"]
        );
        assert_eq!(disjoint.unit_name(27 + 4), "disjoint group 5");
        // One diagonal alone, and everything together.
        let main = geometry(Size::NINE, Variant::MAIN_DIAGONAL);
        assert_eq!(main.units.len(), 28);
        assert_eq!(main.units[27].kind, UnitKind::Diagonal);
        let all = Variant::Diagonal
            .with(Variant::WINDOKU)
            .with(Variant::DISJOINT);
        assert_eq!(geometry(Size::NINE, all).units.len(), 27 + 2 + 4 + 9);
        assert_eq!(all.name(), "diagonal windoku, disjoint groups");
        assert_eq!(all.fast9_diagonal(), None);
        assert_eq!(Variant::Diagonal.fast9_diagonal(), Some(true));
    }

    #[test]
    fn digits_round_trip() {
        for d in 1..=25 {
            assert_eq!(char_digit(digit_char(d)), Some(d));
        }
    }
}
