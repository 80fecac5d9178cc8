//! Uniqueness: patterns that would allow two solutions if they were left as they are — unique
//! rectangles and loops, and the bivalue universal grave (BUG) — so a puzzle with one solution
//! must break them.

use std::ops::ControlFlow;

use super::board::Board;
use super::Sink;

/// Unique rectangles and loops, types 1 to 4 (4.5 and up).
pub fn unique_loops<const W: usize>(_b: &Board<W>, _sink: &mut Sink) -> ControlFlow<()> {
    ControlFlow::Continue(())
}

/// BUG types 1 to 4 (5.6 and up).
pub fn bug<const W: usize>(_b: &Board<W>, _sink: &mut Sink) -> ControlFlow<()> {
    ControlFlow::Continue(())
}
