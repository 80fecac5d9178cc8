//! `Board`: the candidate grid the technique finders read — placed digits, each empty cell's
//! candidates, and for each digit the cells where it may still go, kept in step.
//!
//! Placing a digit removes it from the cell's peers, as a solver pencils marks; nothing else
//! happens by itself, so every further deduction is a step someone can name.

use super::step::{Candidate, Step};
use crate::cells::CellSet;
use crate::engine::Digits;
use crate::grid::{Geometry, UnitKind};

/// Cell sets of a geometry's units and peers, built once per (geometry, width) and kept in the
/// geometry (`grid::Derived`).
pub struct Layout<const W: usize> {
    pub units: Vec<CellSet<W>>,
    pub peers: Vec<CellSet<W>>,
    pub all: CellSet<W>,
    /// Units in the order Sudoku Explainer scans them for singles and subsets: boxes, columns,
    /// rows, then diagonals.
    pub scan_order: Vec<usize>,
    pub boxes: Vec<usize>,
    pub rows: Vec<usize>,
    pub columns: Vec<usize>,
    pub diagonals: Vec<usize>,
    /// Units by Sudoku Explainer's region types: boxes, rows, columns, then each diagonal.
    pub types: Vec<Vec<usize>>,
    /// For each cell, its unit of each type (`NONE` off a diagonal).
    pub cell_types: Vec<[u16; 7]>,
}

/// No unit of that type holds the cell.
pub(crate) const NONE: u16 = u16::MAX;

impl<const W: usize> Layout<W> {
    /// The layout of `geo` at this width, kept in the geometry (one per width it is used at).
    pub fn of(geo: &Geometry) -> &Layout<W> {
        let slot = const {
            match W {
                2 => 0,
                10 => 1,
                _ => panic!("a layout width without a slot in grid::Derived"),
            }
        };
        let layout = geo
            .derived
            .get_or_init(slot, || Box::new(Layout::<W>::build(geo)));
        layout
            .downcast_ref()
            .expect("the slot of a width holds that width's layout")
    }

    fn build(geo: &Geometry) -> Layout<W> {
        assert!(
            geo.cells() <= 64 * W,
            "a {} grid needs a wider set",
            geo.size.label()
        );
        let set_of = |cells: &[u16]| cells.iter().map(|&c| c as usize).collect();
        let mut types = vec![
            of_kind(geo, |k| matches!(k, UnitKind::Box(_))),
            of_kind(geo, |k| matches!(k, UnitKind::Row(_))),
            of_kind(geo, |k| matches!(k, UnitKind::Column(_))),
        ];
        for diagonal in of_kind(geo, |k| {
            matches!(k, UnitKind::Diagonal | UnitKind::AntiDiagonal)
        }) {
            types.push(vec![diagonal]);
        }
        // Windows and disjoint groups each a type of their own (a cell is in one of each at most).
        for extra in [
            of_kind(geo, |k| matches!(k, UnitKind::Window(_))),
            of_kind(geo, |k| matches!(k, UnitKind::Disjoint(_))),
        ] {
            if !extra.is_empty() {
                types.push(extra);
            }
        }
        let mut cell_types = vec![[NONE; 7]; geo.cells()];
        for (t, units) in types.iter().enumerate() {
            for &u in units {
                for &c in geo.units[u].cells.iter() {
                    cell_types[c as usize][t] = u as u16;
                }
            }
        }
        Layout {
            types,
            cell_types,
            units: geo.units.iter().map(|u| set_of(&u.cells)).collect(),
            peers: geo.peers.iter().map(|p| set_of(p)).collect(),
            all: (0..geo.cells()).collect(),
            scan_order: scan_order(geo),
            boxes: of_kind(geo, |k| matches!(k, UnitKind::Box(_))),
            rows: of_kind(geo, |k| matches!(k, UnitKind::Row(_))),
            columns: of_kind(geo, |k| matches!(k, UnitKind::Column(_))),
            diagonals: of_kind(geo, |k| {
                matches!(k, UnitKind::Diagonal | UnitKind::AntiDiagonal)
            }),
        }
    }
}

fn of_kind(geo: &Geometry, kind: impl Fn(UnitKind) -> bool) -> Vec<usize> {
    (0..geo.units.len())
        .filter(|&u| kind(geo.units[u].kind))
        .collect()
}

fn scan_order(geo: &Geometry) -> Vec<usize> {
    let rank = |kind: UnitKind| match kind {
        UnitKind::Box(_) | UnitKind::Region(_) => 0,
        UnitKind::Column(_) => 1,
        UnitKind::Row(_) => 2,
        UnitKind::Diagonal | UnitKind::AntiDiagonal => 3,
        UnitKind::Window(_) => 4,
        UnitKind::Disjoint(_) => 5,
        UnitKind::Extra(_) => 6,
    };
    let mut order: Vec<usize> = (0..geo.units.len()).collect();
    order.sort_by_key(|&u| rank(geo.units[u].kind)); // stable: keeps each kind's own order
    order
}

/// A grid with candidates. `W` is the width of its cell sets: 2 up to 11×11, 10 above.
#[derive(Clone)]
pub struct Board<'g, const W: usize> {
    pub geo: &'g Geometry,
    layout: &'g Layout<W>,
    values: Box<[u8]>,
    candidates: Box<[Digits]>,
    /// Index `d - 1`: the empty cells where `d` is still a candidate.
    places: Box<[CellSet<W>]>,
    empty: CellSet<W>,
}

impl<'g, const W: usize> Board<'g, W> {
    /// The board of `givens` (0 for empty) with every candidate a peer's given does not rule out.
    /// Givens that clash leave a board where some cell or digit has no candidate.
    pub fn new(geo: &'g Geometry, givens: &[u8]) -> Board<'g, W> {
        let n = geo.side();
        let layout = Layout::of(geo);
        let mut board = Board {
            geo,
            layout,
            values: vec![0; geo.cells()].into_boxed_slice(),
            candidates: vec![Digits::all(n); geo.cells()].into_boxed_slice(),
            places: vec![layout.all; n].into_boxed_slice(),
            empty: layout.all,
        };
        for (cell, &digit) in givens.iter().enumerate() {
            if digit != 0 {
                board.place(cell, digit);
            }
        }
        board
    }

    pub fn side(&self) -> usize {
        self.geo.side()
    }
    pub fn layout(&self) -> &'g Layout<W> {
        self.layout
    }
    /// The digit in `cell`, 0 when empty.
    pub fn value(&self, cell: usize) -> u8 {
        self.values[cell]
    }
    pub fn values(&self) -> &[u8] {
        &self.values
    }
    /// The candidates of an empty cell (none for a filled one).
    pub fn candidates(&self, cell: usize) -> Digits {
        self.candidates[cell]
    }
    pub fn has(&self, cell: usize, digit: u8) -> bool {
        self.candidates[cell].contains(digit)
    }
    /// The empty cells where `digit` may still go.
    pub fn places(&self, digit: u8) -> CellSet<W> {
        self.places[digit as usize - 1]
    }
    /// The places of `digit` within `unit`.
    pub(crate) fn places_in(&self, digit: u8, unit: usize) -> CellSet<W> {
        self.places(digit) & self.layout.units[unit]
    }
    pub(crate) fn empty_cells(&self) -> CellSet<W> {
        self.empty
    }
    pub fn unit(&self, unit: usize) -> CellSet<W> {
        self.layout.units[unit]
    }
    pub fn peers(&self, cell: usize) -> CellSet<W> {
        self.layout.peers[cell]
    }
    /// Cells that see every cell of `cells` (none of `cells` themselves).
    pub(crate) fn common_peers(&self, cells: CellSet<W>) -> CellSet<W> {
        let mut seen = self.layout.all;
        for c in cells.iter() {
            seen &= self.layout.peers[c];
        }
        seen - cells
    }
    pub fn is_solved(&self) -> bool {
        self.empty.is_empty()
    }
    /// Units boxes first, then columns, rows and diagonals.
    pub(crate) fn scan_order(&self) -> &'g [usize] {
        &self.layout.scan_order
    }
    /// How many region types the grid has: 3, and one for each diagonal, the windows and the
    /// disjoint groups it has.
    pub(crate) fn region_types(&self) -> usize {
        self.layout.types.len()
    }
    /// The cell's unit of region type `t` (0 box, 1 row, 2 column, then the diagonals, the
    /// windows and the disjoint groups the grid has).
    pub(crate) fn region_of(&self, cell: usize, t: usize) -> Option<usize> {
        let u = self.layout.cell_types[cell][t];
        (u != NONE).then_some(u as usize)
    }
    /// The cells of a unit in their order (a box row by row).
    pub(crate) fn unit_cells(&self, unit: usize) -> &'g [u16] {
        &self.geo.units[unit].cells
    }
    pub(crate) fn unit_count(&self) -> usize {
        self.geo.units.len()
    }
    pub(crate) fn is_box(&self, unit: usize) -> bool {
        matches!(self.geo.units[unit].kind, UnitKind::Box(_))
    }
    /// Whether `digit` is already placed in `unit`.
    pub fn unit_has_value(&self, unit: usize, digit: u8) -> bool {
        self.geo.units[unit]
            .cells
            .iter()
            .any(|&c| self.values[c as usize] == digit)
    }

    /// Writes `digit` in `cell` and removes it from the cell's peers.
    pub fn place(&mut self, cell: usize, digit: u8) {
        for d in self.candidates[cell].iter() {
            self.places[d as usize - 1].remove(cell);
        }
        self.candidates[cell] = Digits::EMPTY;
        self.values[cell] = digit;
        self.empty.remove(cell);
        let seen = self.layout.peers[cell] & self.places[digit as usize - 1];
        for peer in seen.iter() {
            self.candidates[peer].remove(digit);
        }
        self.places[digit as usize - 1] -= seen;
    }

    /// Removes a candidate; true when it was there.
    pub fn eliminate(&mut self, cell: usize, digit: u8) -> bool {
        if !self.candidates[cell].contains(digit) {
            return false;
        }
        self.candidates[cell].remove(digit);
        self.places[digit as usize - 1].remove(cell);
        true
    }

    /// Puts back a candidate that `eliminate` removed (the chaining engine's working grid undoes its
    /// trial eliminations this way). Only for an empty cell.
    /// Keeps each empty cell's candidates to its pencil marks in `marks` (a digit left out is
    /// out); a cell past the end of `marks` keeps its own.
    pub fn keep_marks(&mut self, marks: &[Digits]) {
        for cell in self.empty_cells().iter() {
            let Some(&kept) = marks.get(cell) else {
                continue;
            };
            for d in self.candidates(cell).iter() {
                if !kept.contains(d) {
                    self.eliminate(cell, d);
                }
            }
        }
    }

    pub fn restore(&mut self, cell: usize, digit: u8) {
        debug_assert_eq!(self.values[cell], 0);
        self.candidates[cell].insert(digit);
        self.places[digit as usize - 1].insert(cell);
    }

    /// Carries out a step: its placements, then its eliminations.
    pub fn apply(&mut self, step: &Step) {
        for &Candidate { cell, digit } in &step.placements {
            if self.values[cell as usize] == 0 {
                self.place(cell as usize, digit);
            }
        }
        for &Candidate { cell, digit } in &step.eliminations {
            self.eliminate(cell as usize, digit);
        }
    }

    /// Whether some empty cell has no candidate left, or some unit lacks a digit with no place
    /// for it: the board cannot be completed.
    pub fn is_broken(&self) -> bool {
        if self.empty.iter().any(|c| self.candidates[c].is_empty()) {
            return true;
        }
        // Where each digit is or may go: a unit that misses one of these misses its digit.
        let mut covered = self.places.clone();
        for (cell, &value) in self.values.iter().enumerate() {
            if value != 0 {
                covered[value as usize - 1].insert(cell);
            }
        }
        (0..self.unit_count()).any(|u| {
            let unit = self.unit(u);
            covered.iter().any(|&cells| (cells & unit).is_empty())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{geometry, Size, Variant};

    #[test]
    fn placing_a_digit_removes_it_from_peers_only() {
        let geo = geometry(Size::NINE, Variant::Classic);
        let mut board = Board::<2>::new(geo, &[0; 81]);
        board.place(40, 5);
        assert_eq!(board.value(40), 5);
        assert!(!board.has(41, 5) && !board.has(4, 5) && !board.has(30, 5));
        assert!(board.has(0, 5));
        assert_eq!(board.places(5).len(), 81 - 1 - 20);
        assert!(!board.places(7).contains(40));
    }

    /// A 16×16 grid does not fit a two-word set, so building its layout at that width panics.
    /// When layouts sat in one process-wide cache behind a `Mutex`, that panic poisoned it and
    /// every later board of any grid panicked too: a long-lived server lost every rating.
    #[test]
    fn a_panic_building_a_layout_leaves_later_boards_working() {
        let sixteen = geometry(Size::from_side(16).unwrap(), Variant::Classic);
        let built = std::panic::catch_unwind(|| Board::<2>::new(sixteen, &[0; 256]));
        assert!(built.is_err());
        let nine = geometry(Size::NINE, Variant::Diagonal);
        let mut board = Board::<2>::new(nine, &[0; 81]);
        board.place(0, 1);
        assert!(!board.has(80, 1) && board.has(79, 1));
        let at_ten = Board::<10>::new(sixteen, &[0; 256]);
        assert_eq!(at_ten.places(1).len(), 256);
    }

    #[test]
    fn each_geometry_keeps_one_layout_per_width() {
        let nine = geometry(Size::NINE, Variant::Classic);
        let diagonal = geometry(Size::NINE, Variant::Diagonal);
        assert!(std::ptr::eq(Layout::<2>::of(nine), Layout::<2>::of(nine)));
        assert!(!std::ptr::eq(
            Layout::<2>::of(nine),
            Layout::<2>::of(diagonal)
        ));
        assert_eq!(Layout::<2>::of(diagonal).diagonals.len(), 2);
        assert_eq!(Layout::<10>::of(nine).units.len(), 27);
    }
}
