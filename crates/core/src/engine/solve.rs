//! The one door into the engine's searches: `solve` finds up to `limit` solutions of a grid
//! through the dedicated 9×9 solver (`fast9`) where it applies and the general search
//! (`search`) otherwise, and answers in `SearchOutcome` either way. Callers outside the engine
//! ask here, so the choice of path is made once; `cli::bench` alone calls `fast9` itself, as it
//! measures that solver.

use super::fast9::{self, Fast9Stop};
use super::search::{search, Budget, SearchOutcome, Stop};
use crate::grid::Geometry;

/// Up to `limit` solutions of `givens` (0 for empty) on `geometry`, as far as `budget` lets
/// the search go. A 9×9 searched for one or two solutions goes to `fast9`, which reads the
/// node budget and the cancel flag but not the deadline: the hardest known 9×9 needs well
/// under a millisecond.
pub fn solve(geometry: &Geometry, givens: &[u8], limit: usize, budget: &Budget) -> SearchOutcome {
    match (<&[u8; 81]>::try_from(givens), geometry.fast9_diagonal()) {
        (Ok(grid), Some(diagonal)) if (1..=2).contains(&limit) => {
            solve_nine(diagonal, grid, limit, budget)
        }
        _ => search(geometry, givens, limit, budget),
    }
}

/// The dedicated 9×9 solver's answer in the general search's terms.
fn solve_nine(diagonal: bool, grid: &[u8; 81], limit: usize, budget: &Budget) -> SearchOutcome {
    let max_nodes = budget.max_nodes.unwrap_or(u64::MAX);
    let outcome = fast9::solve(grid, diagonal, limit, max_nodes, budget.cancel);
    SearchOutcome {
        solutions: outcome.solutions[..outcome.count]
            .iter()
            .map(|solution| solution.to_vec())
            .collect(),
        stop: outcome.stop.map(|stop| match stop {
            Fast9Stop::Nodes => Stop::Nodes,
            Fast9Stop::Cancelled => Stop::Cancelled,
        }),
        nodes: outcome.nodes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{geometry, Size, Variant};

    const HARD: &str =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

    fn givens(line: &str) -> Vec<u8> {
        line.bytes()
            .map(|b| if b == b'.' { 0 } else { b - b'0' })
            .collect()
    }

    /// A 9×9 goes the fast path (its node count is `fast9`'s) and finds what the general
    /// search finds; other sizes and limits go the general search.
    #[test]
    fn the_door_takes_the_fast_path_for_a_nine_only() {
        let budget = Budget::unlimited();
        for variant in [Variant::Classic, Variant::Diagonal] {
            let geo = geometry(Size::NINE, variant);
            let grid: [u8; 81] = givens(HARD).try_into().unwrap();
            let diagonal = variant == Variant::Diagonal;
            let fast = fast9::solve(&grid, diagonal, 2, u64::MAX, None);
            let door = solve(geo, &grid, 2, &budget);
            assert_eq!(door.nodes, fast.nodes);
            let general = search(geo, &grid, 2, &budget);
            assert_eq!(door.solutions, general.solutions);
            assert_eq!(door.stop, None);
        }
        let geo = geometry(Size::NINE, Variant::Classic);
        let many = solve(geo, &[0; 81], 3, &budget);
        assert_eq!(many.solutions.len(), 3);
        // A variant `fast9` does not know goes the general search.
        let windoku = geometry(Size::NINE, Variant::WINDOKU);
        let door = solve(windoku, &givens(HARD), 2, &budget);
        let general = search(windoku, &givens(HARD), 2, &budget);
        assert_eq!(
            (door.solutions, door.nodes),
            (general.solutions, general.nodes)
        );
        let four = geometry(Size::from_side(4).unwrap(), Variant::Classic);
        let door = solve(four, &[0; 16], 2, &budget);
        assert_eq!(door.nodes, search(four, &[0; 16], 2, &budget).nodes);
    }

    #[test]
    fn the_fast_path_stops_on_the_node_budget_as_the_general_one_does() {
        let geo = geometry(Size::NINE, Variant::Classic);
        let budget = Budget {
            max_nodes: Some(1),
            ..Budget::default()
        };
        let door = solve(geo, &givens(HARD), 2, &budget);
        assert_eq!(door.stop, Some(Stop::Nodes));
    }
}
