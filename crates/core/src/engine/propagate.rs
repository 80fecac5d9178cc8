//! Pencil marks and propagation, recording why each digit left each cell.
//!
//! One `Board` type does the work for both callers: `pencil_marks` and `propagate` want every
//! reason, `search` wants none and runs through the same code with a `Journal` that records
//! nothing, which the compiler removes.

use super::{Digits, Forced, Reason};
use crate::grid::Geometry;

/// Candidates of every cell and, for each removed (cell, digit), why it went.
#[derive(Clone, Debug)]
pub struct Marks {
    pub side: usize,
    pub candidates: Vec<Digits>,
    /// Indexed `cell * side + digit - 1`; `None` for digits still there.
    pub why: Vec<Option<Reason>>,
}

impl Marks {
    pub fn reason(&self, cell: usize, digit: u8) -> Option<Reason> {
        self.why[cell * self.side + digit as usize - 1]
    }
}

/// A digit propagation placed in an empty cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    pub cell: usize,
    pub digit: u8,
    pub how: Forced,
}

/// Why propagation proved the puzzle has no solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contradiction {
    /// A cell lost its last candidate.
    EmptyCell { cell: usize },
    /// A digit has no place left in a unit.
    NoPlace { unit: usize, digit: u8 },
    /// Two cells of a unit ended with the same digit.
    Clash { unit: usize, digit: u8 },
}

#[derive(Clone, Debug)]
pub struct Propagation {
    pub marks: Marks,
    /// In the order they were placed.
    pub placed: Vec<Placement>,
    pub contradiction: Option<Contradiction>,
}

/// Pencil marks of every cell: digits no filled peer holds, then naked twins to a fixpoint.
/// Nothing is placed: a cell left with one candidate does not eliminate it from its peers.
/// Filled cells keep just their digit.
pub fn pencil_marks(geometry: &Geometry, givens: &[u8]) -> Marks {
    let mut board = Board::new(geometry, Reasons::new(geometry.side(), givens.len()));
    for (cell, &digit) in givens.iter().enumerate() {
        if digit != 0 {
            board.candidates[cell] = Digits::single(digit);
        }
    }
    for (cell, &digit) in givens.iter().enumerate() {
        if digit == 0 {
            board.exclude_filled_peers(cell, givens);
        }
    }
    // A contradiction here only means some cell or unit is already empty; the marks still stand.
    while let Ok(true) = board.naked_twins() {}
    board.journal.into_marks(board.candidates)
}

/// Naked twins to a fixpoint on `candidates` as they are (a solver's own pencil marks, say),
/// nothing else: the seeds' rule on marks as written. Nothing is placed.
pub fn naked_twins(geometry: &Geometry, candidates: &[Digits]) -> Marks {
    let mut board = Board::new(geometry, Reasons::new(geometry.side(), candidates.len()));
    board.candidates = candidates.to_vec();
    // A contradiction only means some cell or unit is already empty; the marks still stand.
    while let Ok(true) = board.naked_twins() {}
    board.journal.into_marks(board.candidates)
}

/// The classic `reduce_puzzle`: elimination, only choice and naked twins until nothing changes,
/// placing digits as they become forced.
pub fn propagate(geometry: &Geometry, givens: &[u8]) -> Propagation {
    let mut board = Board::new(geometry, Reasons::new(geometry.side(), givens.len()));
    let contradiction = board.start(givens).and_then(|()| board.reduce()).err();
    let placed = std::mem::take(&mut board.journal.placed);
    Propagation {
        marks: board.journal.into_marks(board.candidates),
        placed,
        contradiction,
    }
}

/// Where the board reports each removal and placement.
pub(crate) trait Journal {
    /// False for a journal that keeps nothing: reasons are then not even worked out.
    const RECORDS: bool;
    fn removed(&mut self, cell: usize, digit: u8, reason: Reason);
    fn placed(&mut self, cell: usize, digit: u8, how: Forced);
    /// Told each cell's given (0 for empty) before propagation starts.
    fn given(&mut self, _cell: usize, _digit: u8) {}
}

/// The journal of `search`: keeps nothing.
pub(crate) struct Silent;

impl Journal for Silent {
    const RECORDS: bool = false;
    fn removed(&mut self, _: usize, _: u8, _: Reason) {}
    fn placed(&mut self, _: usize, _: u8, _: Forced) {}
}

/// The journal of pencil marks and propagation: every reason, every placement.
struct Reasons {
    side: usize,
    why: Vec<Option<Reason>>,
    placed: Vec<Placement>,
    /// Cells that were empty in the givens: only those count as placed.
    was_empty: Vec<bool>,
}

impl Reasons {
    fn new(side: usize, cells: usize) -> Reasons {
        Reasons {
            side,
            why: vec![None; cells * side],
            placed: Vec::new(),
            was_empty: vec![false; cells],
        }
    }
    fn into_marks(self, candidates: Vec<Digits>) -> Marks {
        Marks {
            side: self.side,
            candidates,
            why: self.why,
        }
    }
}

impl Journal for Reasons {
    const RECORDS: bool = true;
    fn removed(&mut self, cell: usize, digit: u8, reason: Reason) {
        let slot = &mut self.why[cell * self.side + digit as usize - 1];
        slot.get_or_insert(reason);
    }
    fn placed(&mut self, cell: usize, digit: u8, how: Forced) {
        if self.was_empty[cell] {
            self.placed.push(Placement { cell, digit, how });
        }
    }
    fn given(&mut self, cell: usize, digit: u8) {
        self.was_empty[cell] = digit == 0;
    }
}

/// Candidates of every cell, and the cells solved but not yet eliminated from their peers.
pub(crate) struct Board<'g, J: Journal> {
    pub(crate) geometry: &'g Geometry,
    pub(crate) candidates: Vec<Digits>,
    /// Cells down to one candidate whose digit has not yet left their peers.
    pub(super) pending: Vec<u16>,
    pub(crate) journal: J,
}

impl<'g, J: Journal> Board<'g, J> {
    pub(crate) fn new(geometry: &'g Geometry, journal: J) -> Self {
        Board {
            geometry,
            candidates: vec![Digits::all(geometry.side()); geometry.cells()],
            pending: Vec::new(),
            journal,
        }
    }

    /// A copy of the candidates to explore one branch of a search.
    pub(crate) fn branch(&self) -> Board<'g, Silent> {
        Board {
            geometry: self.geometry,
            candidates: self.candidates.clone(),
            pending: Vec::new(),
            journal: Silent,
        }
    }

    /// Sets the givens; each will be eliminated from its peers by `reduce`.
    pub(crate) fn start(&mut self, givens: &[u8]) -> Result<(), Contradiction> {
        for (cell, &digit) in givens.iter().enumerate() {
            self.journal.given(cell, digit);
            if digit != 0 {
                self.candidates[cell] = Digits::single(digit);
                self.pending.push(cell as u16);
            }
        }
        Ok(())
    }

    /// Leave only `digit` in `cell` (a guess in search, or an only choice).
    pub(crate) fn assign(&mut self, cell: usize, digit: u8, why: Option<(u16, Forced)>) {
        let others = self.candidates[cell] & !Digits::single(digit);
        if J::RECORDS {
            if let Some((unit, how)) = why {
                for other in others.iter() {
                    self.journal
                        .removed(cell, other, Reason::OnlyChoice { unit, digit });
                }
                self.journal.placed(cell, digit, how);
            }
        }
        self.candidates[cell] = Digits::single(digit);
        self.pending.push(cell as u16);
    }

    /// Propagate to a fixpoint: elimination, then only choice, then naked twins, again and
    /// again while any of them changes something.
    pub(crate) fn reduce(&mut self) -> Result<(), Contradiction> {
        loop {
            self.eliminate_pending()?;
            if self.only_choice()? {
                continue;
            }
            if !self.naked_twins()? {
                return Ok(());
            }
        }
    }

    /// Remove `digit` from `cell`; a cell left with one candidate joins `pending`.
    fn remove(
        &mut self,
        cell: usize,
        digit: u8,
        reason: impl FnOnce() -> Reason,
    ) -> Result<(), Contradiction> {
        if !self.candidates[cell].contains(digit) {
            return Ok(());
        }
        if J::RECORDS {
            self.journal.removed(cell, digit, reason());
        }
        self.strike(cell, digit)
    }

    /// Take `digit` out of `cell` without saying why: `remove` has recorded the reason, or the
    /// caller is the search, which keeps none.
    pub(super) fn strike(&mut self, cell: usize, digit: u8) -> Result<(), Contradiction> {
        if !self.candidates[cell].contains(digit) {
            return Ok(());
        }
        let after = self.candidates[cell] & !Digits::single(digit);
        self.candidates[cell] = after;
        match after.only() {
            _ if after.is_empty() => return Err(Contradiction::EmptyCell { cell }),
            Some(last) => {
                self.journal.placed(cell, last, Forced::LastCandidate);
                self.pending.push(cell as u16);
            }
            None => {}
        }
        Ok(())
    }

    /// Elimination: each solved cell's digit leaves all its peers.
    fn eliminate_pending(&mut self) -> Result<(), Contradiction> {
        let geometry = self.geometry;
        while let Some(cell) = self.pending.pop() {
            let cell = cell as usize;
            let Some(digit) = self.candidates[cell].only() else {
                return Err(Contradiction::EmptyCell { cell });
            };
            for &peer in geometry.peers[cell].iter() {
                let peer = peer as usize;
                if self.candidates[peer] == Digits::single(digit) {
                    let unit = geometry.shared_unit(cell, peer).unwrap_or(0);
                    return Err(Contradiction::Clash { unit, digit });
                }
                self.remove(peer, digit, || Reason::Peer {
                    unit: geometry.shared_unit(peer, cell).unwrap_or(0) as u16,
                    peer: cell as u16,
                })?;
            }
        }
        Ok(())
    }

    /// Only choice: a digit with one place left in a unit goes there. True if anything changed.
    fn only_choice(&mut self) -> Result<bool, Contradiction> {
        let geometry = self.geometry;
        let all = Digits::all(geometry.side());
        let mut changed = false;
        for (u, unit) in geometry.units.iter().enumerate() {
            // Fold the unit's candidates into "seen at least once" and "seen twice or more":
            // a digit in `once` but not `twice` has exactly one place.
            let (mut once, mut twice) = (0u32, 0u32);
            for &cell in unit.cells.iter() {
                let c = self.candidates[cell as usize].0;
                twice |= once & c;
                once |= c;
            }
            if once != all.0 {
                let digit = Digits(all.0 & !once).first().unwrap_or(1);
                return Err(Contradiction::NoPlace { unit: u, digit });
            }
            for digit in Digits(once & !twice).iter() {
                // Placing an earlier digit of this unit may have taken this one's only place.
                let Some(&cell) = unit
                    .cells
                    .iter()
                    .find(|&&c| self.candidates[c as usize].contains(digit))
                else {
                    return Err(Contradiction::NoPlace { unit: u, digit });
                };
                let cell = cell as usize;
                if self.candidates[cell].only().is_none() {
                    let how = Forced::OnlyPlace { unit: u as u16 };
                    self.assign(cell, digit, Some((u as u16, how)));
                    changed = true;
                }
            }
        }
        Ok(changed)
    }

    /// Naked twins: two cells of a unit holding the same two candidates take those digits from
    /// the rest of the unit. True if anything changed.
    pub(crate) fn naked_twins(&mut self) -> Result<bool, Contradiction> {
        let geometry = self.geometry;
        let mut changed = false;
        for (u, unit) in geometry.units.iter().enumerate() {
            for (i, &a) in unit.cells.iter().enumerate() {
                let pair = self.candidates[a as usize];
                if pair.len() != 2 {
                    continue;
                }
                let Some(&b) = unit.cells[i + 1..]
                    .iter()
                    .find(|&&b| self.candidates[b as usize] == pair)
                else {
                    continue;
                };
                for &other in unit.cells.iter() {
                    if other == a
                        || other == b
                        || (self.candidates[other as usize] & pair).is_empty()
                    {
                        continue;
                    }
                    for digit in pair.iter() {
                        self.remove(other as usize, digit, || Reason::NakedTwins {
                            unit: u as u16,
                            pair: [a, b],
                            digits: pair,
                        })?;
                    }
                    changed = true;
                }
            }
        }
        Ok(changed)
    }

    /// Pencil marking: remove from an empty cell every digit a filled peer holds.
    fn exclude_filled_peers(&mut self, cell: usize, givens: &[u8]) {
        let geometry = self.geometry;
        for &u in geometry.units_of[cell].iter() {
            for &peer in geometry.units[u as usize].cells.iter() {
                let digit = givens[peer as usize];
                if digit != 0 && peer as usize != cell && self.candidates[cell].contains(digit) {
                    self.candidates[cell].remove(digit);
                    if J::RECORDS {
                        self.journal
                            .removed(cell, digit, Reason::Peer { unit: u, peer });
                    }
                }
            }
        }
    }
}
