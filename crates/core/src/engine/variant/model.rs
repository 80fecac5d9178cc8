//! From a puzzle's houses and rules to the variant engine's model: the houses (each digit once),
//! each cell's peers (its houses' cells and every cell a rule says differs from it: a knight's
//! or king's move, a cage mate, a thermometer's other cells, a dot's or whisper's neighbour…), each cell's first candidates (even, odd, given pencil marks)
//! and the propagators of the other rules, with the cells each one watches.

use super::props::{Mask, PeerSet, Prop};
use super::sum::Sum;
use super::{combined, innies, outside};
use crate::grid::{overlap, Geometry, Overlap, Size};
use crate::rules::{indexed_cells, orthogonal_neighbours, Constraint, Dot, Index, Kind, Rules};

pub(super) struct Model<'r> {
    geometry: &'r Geometry,
    pub(super) size: Size,
    pub(super) houses: Vec<Box<[u16]>>,
    /// For each cell, the houses it is in (indices into `houses`).
    pub(super) houses_of: Vec<Box<[u16]>>,
    /// Every two houses sharing two cells or more (a box and a row, a region and a column…):
    /// a digit whose places in one are all shared leaves the other's other cells. Locked
    /// candidates, as sigh's solver adds them for every box: on Cold Sauerkraut (thermometers
    /// and non-consecutive sets, one given) 425 k nodes become 8 k; TAREK's killers 0.62 s
    /// become 0.53 s. The geometry's own, then those of the houses rules add.
    extra_overlaps: Vec<Overlap>,
    pub(super) peers: Vec<Box<[u16]>>,
    /// The same peers as sets, for "which cells see all of these".
    pub(super) peer_sets: Vec<PeerSet>,
    pub(super) start: Vec<Mask>,
    pub(super) props: Vec<Prop>,
    /// Each propagator's cells (those it watches): what wakes it, what a contradiction it finds
    /// is blamed on, and where the search's first scores go.
    pub(super) prop_cells: Vec<Box<[u16]>>,
    /// For each propagator, the index of the constraint it comes from in `rules.constraints`
    /// ([`DERIVED`] for the 45 rule's innies and outies, [`COMBINED`] for sums bounded
    /// together).
    pub(super) origins: Vec<u32>,
    /// The digits each constraint takes from a cell's first candidates (even, odd, listed
    /// candidates): (cell, digits taken, constraint index).
    pub(super) start_taken: Vec<(u16, Mask, u32)>,
    /// For each cell, the propagators it wakes.
    pub(super) watchers: Vec<Watchers>,
    pub(super) rules: &'r Rules,
}

/// The origin of a propagator no single constraint gives: the 45 rule's innies and outies.
pub(super) const DERIVED: u32 = u32::MAX;

/// The origin of a sum bounded together from several ([`combined`]): the search's, not one the
/// explained steps name (they have no words for it yet).
pub(super) const COMBINED: u32 = u32::MAX - 1;

/// The propagators a cell wakes: those that read any change first, then those that read only
/// a new lowest or highest digit.
pub(super) struct Watchers {
    pub(super) all: Box<[u32]>,
    pub(super) any_change: usize,
}

/// The model while it is built.
struct Builder {
    size: Size,
    side: u32,
    peers: Vec<PeerSet>,
    houses: Vec<Box<[u16]>>,
    start: Vec<Mask>,
    props: Vec<Prop>,
    /// The constraint being built, and what the built ones took from first candidates.
    current: u32,
    start_taken: Vec<(u16, Mask, u32)>,
}

impl<'r> Model<'r> {
    /// Every two houses sharing two cells or more.
    pub(super) fn overlaps(&self) -> impl Iterator<Item = &Overlap> {
        self.geometry.overlaps.iter().chain(&self.extra_overlaps)
    }

    /// The model of `rules` on `geometry`; with `derived`, also the propagators the rules
    /// imply (the 45 rule's innies and outies, sums bounded together).
    pub(super) fn new(geometry: &'r Geometry, rules: &'r Rules, derived: bool) -> Model<'r> {
        let size = geometry.size;
        let side = size.side() as u32;
        let all = ((1u32 << side) - 1) as Mask;
        let mut b = Builder {
            size,
            side,
            peers: vec![[0; 4]; size.cells()],
            houses: Vec::new(),
            start: vec![all; size.cells()],
            props: Vec::new(),
            current: DERIVED,
            start_taken: Vec::new(),
        };
        for unit in &geometry.units {
            b.house(&unit.cells);
        }
        let mut origins = Vec::new();
        for (index, constraint) in rules.constraints.iter().enumerate() {
            b.current = index as u32;
            b.constraint(constraint, rules);
            origins.resize(b.props.len(), index as u32);
        }
        let cages = unit_sums(rules, false);
        if derived && !cages.is_empty() {
            b.props.extend(innies::props(geometry, &cages));
        }
        origins.resize(b.props.len(), DERIVED);
        let peer_sets = std::mem::take(&mut b.peers);
        let sees = |a: u16, c: u16| peer_sets[a as usize][c as usize / 64] >> (c % 64) & 1 == 1;
        for prop in &mut b.props {
            if let Prop::Sum(sum) = prop {
                sum.group(sees);
            }
        }
        if derived {
            let sums: Vec<(&[u16], i32)> = unit_sums(rules, true)
                .into_iter()
                .map(|(cells, sum)| (cells, sum as i32))
                .collect();
            for sum in combined::sums(side, &sums, sees) {
                b.props.push(Prop::Sum(sum));
                origins.push(COMBINED);
            }
        }
        // A rule's sum bounded a second way too, its cells grouped across the first groups.
        // Not the 45 rule's sums: on killers that changed the nodes little either way (sigh's
        // Wecoc killers 12.0 -> 9.5 and 13.0 -> 20.2 thousand) for more work at each.
        let mut regrouped = Vec::new();
        for (prop, &origin) in b.props.iter().zip(&origins) {
            if let (Prop::Sum(sum), false) = (prop, origin == DERIVED || origin == COMBINED) {
                regrouped.extend(sum.regrouped(sees).map(|other| (Prop::Sum(other), origin)));
            }
        }
        for (prop, origin) in regrouped {
            b.props.push(prop);
            origins.push(origin);
        }
        let prop_cells: Vec<Box<[u16]>> = b.props.iter().map(|p| p.watches().into()).collect();
        let mut watchers = vec![Vec::new(); size.cells()];
        for bounds in [false, true] {
            for (p, prop) in b.props.iter().enumerate() {
                if prop.bounds_only() == bounds {
                    for &cell in prop_cells[p].iter() {
                        watchers[cell as usize].push(p as u32);
                    }
                }
            }
        }
        let watchers = watchers
            .into_iter()
            .map(|all| Watchers {
                any_change: all
                    .iter()
                    .take_while(|&&p| !b.props[p as usize].bounds_only())
                    .count(),
                all: all.into_boxed_slice(),
            })
            .collect();
        let peers = peer_sets
            .iter()
            .map(|set| {
                let mut list = Vec::new();
                for (w, &word) in set.iter().enumerate() {
                    let mut bits = word;
                    while bits != 0 {
                        list.push((w * 64 + bits.trailing_zeros() as usize) as u16);
                        bits &= bits - 1;
                    }
                }
                list.into_boxed_slice()
            })
            .collect();
        let extra_overlaps = overlaps_with(&b.houses, geometry.units.len());
        let mut houses_of = vec![Vec::new(); size.cells()];
        for (h, house) in b.houses.iter().enumerate() {
            for &c in house.iter() {
                houses_of[c as usize].push(h as u16);
            }
        }
        Model {
            geometry,
            size,
            extra_overlaps,
            houses: b.houses,
            houses_of: houses_of.into_iter().map(Vec::into_boxed_slice).collect(),
            peer_sets,
            peers,
            start: b.start,
            prop_cells,
            props: b.props,
            origins,
            start_taken: b.start_taken,
            watchers,
            rules,
        }
    }
}

/// The rules' sums of digits with every coefficient 1 (cells, total): killer cages with a sum,
/// and with `little_killers` the little killers too.
fn unit_sums(rules: &Rules, little_killers: bool) -> Vec<(&[u16], u32)> {
    rules
        .constraints
        .iter()
        .filter_map(|c| match &c.kind {
            Kind::Cage {
                sum: Some(sum),
                cells,
            } => Some((&cells[..], *sum)),
            Kind::LittleKiller { sum, cells } if little_killers => Some((&cells[..], *sum)),
            _ => None,
        })
        .collect()
}

impl Builder {
    /// Cells holding every digit once.
    fn house(&mut self, cells: &[u16]) {
        self.differ(cells);
        self.houses.push(cells.into());
    }

    /// Cells that all differ.
    fn differ(&mut self, cells: &[u16]) {
        for &a in cells {
            for &b in cells {
                if a != b {
                    self.peers[a as usize][b as usize / 64] |= 1 << (b % 64);
                }
            }
        }
    }

    /// Two cells whose digits are `related`. When no digit is related to itself (a kropki dot,
    /// a whisper's neighbours, `<`), the two always differ: peers as well, so that a digit
    /// placed in one leaves the other at once, and whatever asks which cells see which (locked
    /// candidates here; wings, chains and every "sees" of the explained steps, through
    /// [`super::Deducer::geometry`]) counts them.
    fn pair(&mut self, a: u16, b: u16, related: impl Fn(u32, u32) -> bool) {
        if (1..=self.side).all(|d| !related(d, d)) {
            self.differ(&[a, b]);
        }
        self.props.push(Prop::pair(a, b, self.side, related));
    }

    fn only(&mut self, cells: &[u16], keep: impl Fn(u32) -> bool) {
        let mask = (1..=self.side)
            .filter(|&d| keep(d))
            .fold(0, |acc, d| acc | 1 << (d - 1));
        for &c in cells {
            let taken = self.start[c as usize] & !mask;
            if taken != 0 {
                self.start[c as usize] &= mask;
                self.start_taken.push((c, taken, self.current));
            }
        }
    }

    /// Every pair of cells a move from `moves` apart.
    fn moves(&mut self, moves: &[(i32, i32)]) {
        for (a, b) in crate::rules::satisfied_pairs(self.size, moves) {
            self.differ(&[a, b]);
        }
    }

    fn constraint(&mut self, constraint: &Constraint, rules: &Rules) {
        let side = self.side;
        match &constraint.kind {
            Kind::AntiKnight => self.moves(&[(1, 2), (2, 1), (1, -2), (2, -1)]),
            Kind::AntiKing => self.moves(&[(1, 1), (1, -1)]),
            Kind::NonConsecutive => {
                for (a, b) in crate::rules::satisfied_pairs(self.size, &[(0, 1), (1, 0)]) {
                    if !rules.dot_between(a, b, |dot, value| dot == Dot::White && value == 1) {
                        self.pair(a, b, |x, y| x.abs_diff(y) != 1);
                    }
                }
            }
            Kind::Negative { kinds } => {
                let listed = |dot: Dot| kinds & dot.bit() != 0;
                for (a, b) in crate::rules::satisfied_pairs(self.size, &[(0, 1), (1, 0)]) {
                    if !rules.dot_between(a, b, |dot, _| listed(dot)) {
                        self.pair(a, b, |x, y| {
                            Dot::ALL
                                .into_iter()
                                .filter(|&d| listed(d))
                                .all(|d| !d.holds(d.default_value(), x as u8, y as u8))
                        });
                    }
                }
            }
            Kind::ExtraRegion(cells) if cells.len() == side as usize => self.house(cells),
            Kind::ExtraRegion(cells) | Kind::Cage { sum: None, cells } => self.differ(cells),
            Kind::Cage {
                sum: Some(sum),
                cells,
            } => {
                self.differ(cells);
                self.props.push(Prop::cage(cells.clone(), *sum));
            }
            Kind::Arrow { circle, shaft } => {
                if let ([circle], 2..) = (&circle[..], shaft.len()) {
                    // A sum of two digits or more is above each of them.
                    for &cell in shaft.iter() {
                        self.differ(&[*circle, cell]);
                    }
                }
                let places = circle.len() as u32;
                let coeffs = circle
                    .iter()
                    .enumerate()
                    .map(|(i, _)| -(10i32.pow(places - 1 - i as u32)))
                    .chain(shaft.iter().map(|_| 1));
                let cells = circle.iter().chain(shaft.iter()).copied();
                self.linear(cells.collect(), coeffs.collect(), 0);
            }
            Kind::DoubleArrow(cells) => {
                let last = cells.len() - 1;
                let coeffs = (0..cells.len()).map(|i| if i == 0 || i == last { 1 } else { -1 });
                self.linear(cells.to_vec(), coeffs.collect(), 0);
            }
            Kind::LittleKiller { sum, cells } => {
                self.linear(cells.to_vec(), vec![1; cells.len()], *sum as i32);
            }
            Kind::RegionSum(runs) => {
                for pair in runs.windows(2) {
                    let cells = pair[0].iter().chain(pair[1].iter()).copied().collect();
                    let coeffs = pair[0].iter().map(|_| 1).chain(pair[1].iter().map(|_| -1));
                    self.linear(cells, coeffs.collect(), 0);
                }
            }
            Kind::Zipper(cells) => {
                self.zipper(cells);
            }
            Kind::Dot { dot, value, cells } => {
                let (dot, value) = (*dot, *value);
                self.pair(cells[0], cells[1], |x, y| {
                    dot.holds(value, x as u8, y as u8)
                });
            }
            Kind::Less([a, b]) => self.pair(*a, *b, |x, y| x < y),
            Kind::Thermo { slow, cells } => {
                if !slow {
                    self.differ(cells); // each digit above the one before: all differ
                }
                self.props.push(Prop::Order {
                    cells: cells.clone(),
                    step: if *slow { 0 } else { 1 },
                });
            }
            Kind::Whisper { gap, cells } => {
                for w in cells.windows(2) {
                    self.pair(w[0], w[1], |x, y| x.abs_diff(y) >= *gap);
                }
            }
            Kind::Renban(cells) => {
                self.differ(cells);
                self.props.push(Prop::Renban {
                    cells: cells.clone(),
                    side,
                });
            }
            Kind::Palindrome(cells) => {
                for i in 0..cells.len() / 2 {
                    self.pair(cells[i], cells[cells.len() - 1 - i], |x, y| x == y);
                }
            }
            Kind::Entropic(cells) => self.near(cells, |d| (d - 1) * 3 / side),
            Kind::Modular(cells) => self.near(cells, |d| d % 3),
            Kind::Nabner(cells) => {
                for (i, &a) in cells.iter().enumerate() {
                    for &b in &cells[i + 1..] {
                        self.pair(a, b, |x, y| x.abs_diff(y) >= 2);
                    }
                }
                // The pairs see two cells at a time; the line's digits together are one of few
                // sets (five cells of 1-9 can only be 1, 3, 5, 7 and 9), which only the whole
                // line sees (sigh's "Nabner": 595 thousand nodes with the pairs alone).
                if cells.len() > 2 {
                    self.props.push(Prop::Sets {
                        sets: spread_sets(cells.len() as u32, self.side).into(),
                        cells: cells.clone(),
                    });
                }
            }
            Kind::Parity { even, cells } => self.only(cells, |d| (d % 2 == 0) == *even),
            Kind::Candidates { digits, cells } => self.only(cells, |d| digits >> (d - 1) & 1 == 1),
            Kind::Extreme { maximum, cells } => {
                for &cell in cells.iter() {
                    for other in orthogonal_neighbours(self.size, cell) {
                        if !cells.contains(&other) {
                            let maximum = *maximum;
                            self.pair(cell, other, move |x, y| if maximum { x > y } else { x < y });
                        }
                    }
                }
            }
            Kind::Clone(groups) => {
                for group in &groups[1..] {
                    for (&a, &b) in groups[0].iter().zip(group.iter()) {
                        self.pair(a, b, |x, y| x == y);
                    }
                }
            }
            Kind::Indexer { index, cells } => {
                for &cell in cells.iter() {
                    self.indexer(*index, cell);
                }
            }
            Kind::Sandwich { sum, cells } => {
                let middle = range_mask(2, side - 1);
                self.props.push(Prop::Sandwich {
                    cells: cells.clone(),
                    sets: outside::sets_summing_to(*sum, middle, side),
                    side,
                });
            }
            Kind::XSum { sum, cells } => self.props.push(Prop::XSum {
                cells: cells.clone(),
                sets: outside::sets_summing_to(*sum, range_mask(1, side), side),
            }),
            Kind::Skyscraper { count, cells } => self.props.push(Prop::Skyscraper {
                cells: cells.clone(),
                count: *count,
                side,
            }),
            Kind::Between(cells) => {
                // Each middle digit lies strictly between the ends: it is neither, and with a
                // middle at all the ends differ too.
                if let [first, middle @ .., last] = &cells[..] {
                    if !middle.is_empty() {
                        self.differ(&[*first, *last]);
                    }
                    for &cell in middle {
                        self.differ(&[*first, cell]);
                        self.differ(&[*last, cell]);
                    }
                }
                self.props.push(Prop::Between {
                    cells: cells.clone(),
                });
            }
            Kind::Lockout { gap, cells } => self.props.push(Prop::Lockout {
                cells: cells.clone(),
                gap: *gap,
            }),
            Kind::Quad { digits, cells } => self.props.push(Prop::Quad {
                cells: cells.clone(),
                digits: digits.clone(),
            }),
        }
    }

    fn linear(&mut self, cells: Vec<u16>, coeffs: Vec<i32>, total: i32) {
        self.props.push(Prop::Sum(Sum::new(&cells, &coeffs, total)));
    }

    /// Cells equally far from the centre sum alike: each pair against the centre cell, or
    /// against the outermost pair.
    fn zipper(&mut self, cells: &[u16]) {
        let len = cells.len();
        let pair = |i: usize| [cells[i], cells[len - 1 - i]];
        let (anchor, from): (Vec<u16>, usize) = if len % 2 == 1 {
            (vec![cells[len / 2]], 0)
        } else {
            (pair(0).to_vec(), 1)
        };
        for i in from..len / 2 {
            let mut members = pair(i).to_vec();
            let mut coeffs = vec![1, 1];
            members.extend(&anchor);
            coeffs.extend(anchor.iter().map(|_| -1));
            self.linear(members, coeffs, 0);
        }
    }

    /// Cells at most two apart along the line fall in different classes (of three), and so
    /// hold different digits.
    fn near(&mut self, cells: &[u16], class: impl Fn(u32) -> u32) {
        for (i, &a) in cells.iter().enumerate() {
            for &b in cells.iter().skip(i + 1).take(2) {
                self.differ(&[a, b]);
            }
        }
        let mut class_digits = [0 as Mask; 3];
        for d in 1..=self.side {
            class_digits[class(d) as usize] |= 1 << (d - 1);
        }
        self.props.push(Prop::Classes {
            cells: cells.into(),
            class_digits,
        });
    }

    /// An indexer cell holding v says place v of its line holds the cell's own place, and so
    /// (each digit once in the line) place v holds it only if the cell holds v.
    fn indexer(&mut self, index: Index, cell: u16) {
        let line: Vec<u16> = indexed_cells(self.size, index, cell).collect();
        let own = line.iter().position(|&c| c == cell).unwrap_or(0) as u32 + 1;
        for (place, &target) in line.iter().enumerate() {
            let v = place as u32 + 1;
            if target == cell {
                // The cell indexes itself when it holds its own place.
                continue;
            }
            self.pair(cell, target, move |x, y| (x == v) == (y == own));
        }
        // Holding its own place, the cell says it holds its own place: always true; any
        // other digit v points at another cell, which the pairs above settle.
    }
}

/// Every two of `houses` sharing two cells or more where the second is one of those from
/// `first_extra` on (the geometry has the overlaps among its own units).
fn overlaps_with(houses: &[Box<[u16]>], first_extra: usize) -> Vec<Overlap> {
    let mut overlaps = Vec::new();
    for (j, second) in houses.iter().enumerate().skip(first_extra) {
        for (i, first) in houses[..j].iter().enumerate() {
            overlaps.extend(overlap([i as u16, j as u16], first, second));
        }
    }
    overlaps
}

/// The digits from `lo` to `hi`.
fn range_mask(lo: u32, hi: u32) -> Mask {
    (lo..=hi).fold(0, |acc, d| acc | 1 << (d - 1))
}

/// The sets of `len` digits from 1 to `side` no two of which are consecutive.
fn spread_sets(len: u32, side: u32) -> Vec<Mask> {
    let mut sets = Vec::new();
    // Each set grown from its lowest digits: the next digit at least two above the last.
    fn grow(sets: &mut Vec<Mask>, set: Mask, next: u32, left: u32, side: u32) {
        if left == 0 {
            sets.push(set);
            return;
        }
        // The digits left need 2 × (left - 1) more above this one.
        for d in next..=side.saturating_sub(2 * (left - 1)) {
            grow(sets, set | 1 << (d - 1), d + 2, left - 1, side);
        }
    }
    grow(&mut sets, 0, 1, len, side);
    sets
}
