//! Single-digit patterns of strong links: two strong links joined by a weak one (skyscraper,
//! two-string kite, turbot crane, with grouped links and empty rectangles), and chains of three
//! strong links, as Sukaku Explainer rates them.

use std::ops::ControlFlow;

use super::board::Board;
use super::Sink;

/// Skyscraper 4.0, two-string kite 4.1, turbot crane 4.2, grouped 4.3.
pub fn turbot_fish<const W: usize>(_b: &Board<W>, _sink: &mut Sink) -> ControlFlow<()> {
    ControlFlow::Continue(())
}

/// Three strong links (5.4–5.7).
pub fn strong_links<const W: usize>(
    _b: &Board<W>,
    _links: usize,
    _sink: &mut Sink,
) -> ControlFlow<()> {
    ControlFlow::Continue(())
}
