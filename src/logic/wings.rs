//! Wings: a pivot cell and pincer cells whose candidates force a digit into one of the pincers
//! (XY-wing, XYZ-wing), and their larger kin built from an almost locked set and a bivalue cell
//! (WXYZ-wing, VWXYZ-wing), as Sukaku Explainer rates them.

use std::ops::ControlFlow;

use super::board::Board;
use super::Sink;

/// XY-wing (`with_z` false, 4.2) or XYZ-wing (true, 4.4).
pub fn xy_wings<const W: usize>(_b: &Board<W>, _with_z: bool, _sink: &mut Sink) -> ControlFlow<()> {
    ControlFlow::Continue(())
}

/// WXYZ-wing (5.5–5.6).
pub fn wxyz_wings<const W: usize>(_b: &Board<W>, _sink: &mut Sink) -> ControlFlow<()> {
    ControlFlow::Continue(())
}

/// VWXYZ-wing (6.2–6.4).
pub fn vwxyz_wings<const W: usize>(_b: &Board<W>, _sink: &mut Sink) -> ControlFlow<()> {
    ControlFlow::Continue(())
}
