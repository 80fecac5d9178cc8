//! The search's own reasoning, beyond `propagate`'s rules: every naked and hidden subset of every
//! unit at once, and box-line interaction between any two units that share cells.
//!
//! Subsets come from a matching of each unit's open cells to its missing digits (Hall's
//! theorem). No matching is the pigeonhole contradiction: k cells that together take fewer than
//! k digits, or k digits that together fit in fewer than k cells, of any k. A candidate no
//! matching uses goes (Régin's filtering of "all different"): that is every naked and hidden
//! subset of every size, in time polynomial in the side where listing subsets is exponential.
//!
//! Only the search uses these rules, through the `Silent` journal, so they record no reason:
//! pencil marks and `propagate`, which hover explains, keep their simpler rules.

use super::propagate::{Board, Contradiction, Silent};
use super::Digits;
use crate::grid::Overlap;

/// The most cells a unit has (25×25).
const MAX_SIDE: usize = 25;
/// No cell: a digit not matched yet.
const UNMATCHED: u8 = u8::MAX;

impl Board<'_, Silent> {
    /// `reduce`, then subsets, then box-line, until none of them changes anything.
    pub(crate) fn reduce_deeply(&mut self) -> Result<(), Contradiction> {
        let mut fewest_places = vec![0u8; self.geometry.units.len()];
        loop {
            self.reduce()?;
            if self.subsets(&mut fewest_places)? {
                continue;
            }
            if !self.box_line(&fewest_places)? {
                return Ok(());
            }
        }
    }

    /// Naked and hidden subsets in every unit. True if any candidate went. Notes in
    /// `fewest_places` how few open cells hold some missing digit of each unit.
    fn subsets(&mut self, fewest_places: &mut [u8]) -> Result<bool, Contradiction> {
        let mut changed = false;
        for (unit, places) in fewest_places.iter_mut().enumerate() {
            changed |= self.subsets_of(unit, places)?;
        }
        Ok(changed)
    }

    /// Keep in each open cell of `unit` only the digits some matching of the unit gives it.
    fn subsets_of(&mut self, unit: usize, fewest_places: &mut u8) -> Result<bool, Contradiction> {
        let cells = &self.geometry.units[unit].cells;
        let mut open = Open::of(unit, cells, &self.candidates)?;
        *fewest_places = open.fewest_places.min(u8::MAX as u32) as u8;
        if open.len == 0 {
            return Ok(false);
        }
        // A subset of k cells (naked) leaves the other m - k digits to the other m - k cells
        // (hidden), so some cell has at most k candidates and some digit at most m - k places;
        // a contradiction (k cells, fewer digits) too. Most units of a wide-open grid have
        // neither, and the matching would only confirm it.
        if open.fewest_candidates.saturating_add(open.fewest_places) > open.len as u32 {
            return Ok(false);
        }
        if let Err(digit) = open.match_every_cell() {
            // Hall's condition fails: some set of cells has too few digits between them.
            return Err(Contradiction::NoPlace { unit, digit });
        }
        let keep = open.usable_digits();
        let mut changed = false;
        for (&cell, &kept) in open.cells.iter().zip(keep.iter()).take(open.len) {
            let cell = cell as usize;
            for digit in (self.candidates[cell] & !Digits(kept)).iter() {
                self.strike(cell, digit)?;
                changed = true;
            }
        }
        Ok(changed)
    }

    /// Box-line interaction, for every two units sharing cells: a digit whose places in one unit
    /// are all shared leaves the rest of the other. True if any candidate went. Only a unit with
    /// a digit in no more places than the overlap has cells (`fewest_places`) can confine one.
    fn box_line(&mut self, fewest_places: &[u8]) -> Result<bool, Contradiction> {
        let geometry = self.geometry;
        let mut changed = false;
        for overlap in geometry.overlaps.iter() {
            let shared = overlap.shared.len();
            if overlap
                .units
                .iter()
                .all(|&u| fewest_places[u as usize] as usize > shared)
            {
                continue;
            }
            changed |= self.confine(overlap)?;
        }
        Ok(changed)
    }

    /// Box-line interaction on one overlap, both ways. True if any candidate went.
    fn confine(&mut self, overlap: &Overlap) -> Result<bool, Contradiction> {
        let shared = self.union_of(&overlap.shared);
        let outside = [
            self.union_of(&overlap.rest[0]),
            self.union_of(&overlap.rest[1]),
        ];
        let mut changed = false;
        for (side, rest) in overlap.rest.iter().enumerate() {
            // Digits of the *other* unit that only its shared cells hold: this unit's shared
            // cells must hold them, so the rest of this unit may not.
            let confined = shared & !outside[1 - side];
            if (confined & outside[side]).is_empty() {
                continue;
            }
            for &cell in rest.iter() {
                let cell = cell as usize;
                for digit in (self.candidates[cell] & confined).iter() {
                    self.strike(cell, digit)?;
                    changed = true;
                }
            }
        }
        Ok(changed)
    }

    /// Every candidate of these cells.
    fn union_of(&self, cells: &[u16]) -> Digits {
        cells
            .iter()
            .fold(Digits::EMPTY, |all, &c| all | self.candidates[c as usize])
    }
}

/// The open (unsolved) cells of one unit, their candidates without the unit's solved digits,
/// and a matching of cells to digits. Digits are bit indices here (digit − 1).
struct Open {
    cells: [u16; MAX_SIDE],
    candidates: [u32; MAX_SIDE],
    len: usize,
    /// The digit matched to each open cell.
    digit_of: [u8; MAX_SIDE],
    /// The open cell matched to each digit, `UNMATCHED` if none.
    cell_of: [u8; MAX_SIDE],
    /// The digits matched so far.
    matched: u32,
    /// The fewest candidates of an open cell.
    fewest_candidates: u32,
    /// The fewest open cells holding a missing digit (0 for a digit with no place).
    fewest_places: u32,
}

impl Open {
    /// The open cells of a unit; an error if two solved cells hold the same digit or an open
    /// cell has nothing left once the solved digits are out.
    fn of(unit: usize, cells: &[u16], candidates: &[Digits]) -> Result<Open, Contradiction> {
        let mut open = Open {
            cells: [0; MAX_SIDE],
            candidates: [0; MAX_SIDE],
            len: 0,
            digit_of: [UNMATCHED; MAX_SIDE],
            cell_of: [UNMATCHED; MAX_SIDE],
            matched: 0,
            fewest_candidates: u32::MAX,
            fewest_places: u32::MAX,
        };
        let mut solved = Digits::EMPTY;
        for &cell in cells.iter() {
            let c = candidates[cell as usize];
            if let Some(digit) = c.only() {
                if solved.contains(digit) {
                    return Err(Contradiction::Clash { unit, digit });
                }
                solved.insert(digit);
            } else if open.len < MAX_SIDE {
                open.cells[open.len] = cell;
                open.candidates[open.len] = c.0;
                open.len += 1;
            }
        }
        for i in 0..open.len {
            // A digit solved in the unit but not yet eliminated from its peers.
            open.candidates[i] &= !solved.0;
            if open.candidates[i] == 0 {
                let cell = open.cells[i] as usize;
                return Err(Contradiction::EmptyCell { cell });
            }
            open.fewest_candidates = open.fewest_candidates.min(open.candidates[i].count_ones());
        }
        let places = PlaceCounts::of(open.candidates[..open.len].iter().map(|&c| Digits(c)));
        let missing = Digits::all(cells.len()) & !solved;
        open.fewest_places = missing
            .iter()
            .map(|d| places.count(d))
            .min()
            .unwrap_or(u32::MAX);
        Ok(open)
    }

    /// Match every open cell to its own digit (Kuhn's augmenting paths); as many open cells as
    /// missing digits, so a full matching is a perfect one. Else a digit left unmatched.
    fn match_every_cell(&mut self) -> Result<(), u8> {
        for i in 0..self.len {
            // Most cells find a free digit straight away; the others take one from a cell that
            // can change to another.
            let free = self.candidates[i] & !self.matched;
            let found = if free != 0 {
                self.pair(i, free.trailing_zeros() as u8);
                true
            } else {
                self.augment(i, &mut 0)
            };
            if !found {
                let missing = self.candidates[..self.len].iter().fold(0, |a, &c| a | c);
                return Err(Digits(missing & !self.matched).first().unwrap_or(1));
            }
        }
        Ok(())
    }

    fn pair(&mut self, cell: usize, digit: u8) {
        self.digit_of[cell] = digit;
        self.cell_of[digit as usize] = cell as u8;
        self.matched |= 1 << digit;
    }

    /// An augmenting path from open cell `i`: a digit that is free, or whose cell can move on.
    /// `tried` holds the digits already on the path or found to lead nowhere.
    fn augment(&mut self, i: usize, tried: &mut u32) -> bool {
        let mut options = self.candidates[i] & !*tried;
        while options != 0 {
            let digit = options.trailing_zeros() as u8;
            options &= options - 1;
            *tried |= 1 << digit;
            let holder = self.cell_of[digit as usize];
            if holder == UNMATCHED || self.augment(holder as usize, tried) {
                self.pair(i, digit);
                return true;
            }
        }
        false
    }

    /// For each open cell, the digits some perfect matching gives it: its own, and those of the
    /// cells in its strongly connected component of "i could take j's digit" (Régin): an edge
    /// off the matching is in another perfect matching exactly when it lies on a cycle.
    fn usable_digits(&self) -> [u32; MAX_SIDE] {
        let mut takes = [0u32; MAX_SIDE];
        for (i, take) in takes.iter_mut().enumerate().take(self.len) {
            let mut digits = self.candidates[i];
            while digits != 0 {
                let digit = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                *take |= 1 << self.cell_of[digit];
            }
        }
        let component = Components::of(&takes[..self.len]);
        let mut keep = [0u32; MAX_SIDE];
        for (i, kept) in keep.iter_mut().enumerate().take(self.len) {
            let mut mates = takes[i] & component.members_with(i);
            *kept = 1 << self.digit_of[i];
            while mates != 0 {
                let j = mates.trailing_zeros() as usize;
                mates &= mates - 1;
                *kept |= 1 << self.digit_of[j];
            }
            *kept &= self.candidates[i];
        }
        keep
    }
}

/// Strongly connected components of a graph of up to 25 nodes given as successor bitsets
/// (Tarjan's algorithm; recursion at most 25 deep).
struct Components<'a> {
    successors: &'a [u32],
    /// Visit order of each node, 0 while unvisited.
    order: [u8; MAX_SIDE],
    low: [u8; MAX_SIDE],
    visited: u8,
    stack: [u8; MAX_SIDE],
    depth: usize,
    on_stack: u32,
    /// For each node, the bitset of its component.
    members: [u32; MAX_SIDE],
}

impl<'a> Components<'a> {
    fn of(successors: &'a [u32]) -> Components<'a> {
        let mut graph = Components {
            successors,
            order: [0; MAX_SIDE],
            low: [0; MAX_SIDE],
            visited: 0,
            stack: [0; MAX_SIDE],
            depth: 0,
            on_stack: 0,
            members: [0; MAX_SIDE],
        };
        for node in 0..successors.len() {
            if graph.order[node] == 0 {
                graph.visit(node);
            }
        }
        graph
    }

    fn members_with(&self, node: usize) -> u32 {
        self.members[node]
    }

    fn visit(&mut self, node: usize) {
        self.visited += 1;
        self.order[node] = self.visited;
        self.low[node] = self.visited;
        self.stack[self.depth] = node as u8;
        self.depth += 1;
        self.on_stack |= 1 << node;
        let mut next = self.successors[node];
        while next != 0 {
            let to = next.trailing_zeros() as usize;
            next &= next - 1;
            if self.order[to] == 0 {
                self.visit(to);
                self.low[node] = self.low[node].min(self.low[to]);
            } else if self.on_stack & (1 << to) != 0 {
                self.low[node] = self.low[node].min(self.order[to]);
            }
        }
        if self.low[node] == self.order[node] {
            self.pop_component(node);
        }
    }

    /// Pop `root`'s component off the stack and record it for each member.
    fn pop_component(&mut self, root: usize) {
        let mut component = 0u32;
        while self.depth > 0 {
            self.depth -= 1;
            let member = self.stack[self.depth] as usize;
            component |= 1 << member;
            if member == root {
                break;
            }
        }
        self.on_stack &= !component;
        let mut members = component;
        while members != 0 {
            let member = members.trailing_zeros() as usize;
            members &= members - 1;
            self.members[member] = component;
        }
    }
}

/// How many unsolved cells of a unit hold each digit, as a binary number per digit kept in
/// five bitsets (bit-sliced: `bits[k]` holds bit k of every digit's count), so adding a cell is
/// a handful of word operations whatever its candidates.
pub(super) struct PlaceCounts {
    bits: [u32; 5],
}

impl PlaceCounts {
    pub(super) fn of(cells: impl Iterator<Item = Digits>) -> PlaceCounts {
        let mut bits = [0u32; 5];
        for c in cells.filter(|c| c.len() > 1) {
            // Add one to the count of every digit of `c`: a ripple-carry adder on bitsets.
            let mut carry = c.0;
            for plane in bits.iter_mut() {
                let sum = *plane ^ carry;
                carry &= *plane;
                *plane = sum;
                if carry == 0 {
                    break;
                }
            }
        }
        PlaceCounts { bits }
    }

    pub(super) fn count(&self, digit: u8) -> u32 {
        let bit = digit - 1;
        (0..5).map(|k| ((self.bits[k] >> bit) & 1) << k).sum()
    }

    /// The digit with the fewest places, fewer than `bound` and at least one, and its count.
    pub(super) fn fewest_below(&self, bound: u32) -> Option<(u8, u32)> {
        let present = Digits(self.bits.iter().fold(0, |a, &b| a | b));
        present
            .iter()
            .map(|digit| (digit, self.count(digit)))
            .filter(|&(_, places)| places < bound)
            .min_by_key(|&(_, places)| places)
    }
}
