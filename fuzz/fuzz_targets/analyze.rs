//! Analysis of any grid of any size and variant, on a small node budget (so 25×25 grids stay
//! bounded): no panic, solutions that are solutions of the givens, findings inside the text.
#![no_main]

use arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use sudoku_lsp::analysis::{analyze, check_text, findings, Verdict};
use sudoku_lsp::engine::Budget;
use sudoku_lsp::format::parse;
use sudoku_lsp::grid::{digit_char, geometry, Size, Variant};
use sudoku_lsp_fuzz::check_invariants;

/// Search nodes per puzzle: fewer for larger grids, whose nodes cost more (2,500 for a 4×4,
/// 493 for a 9×9, 64 for a 25×25).
fn max_nodes(size: Size) -> u64 {
    (40_000 / size.cells() as u64).max(20)
}

fn budget(size: Size) -> Budget<'static> {
    Budget {
        max_nodes: Some(max_nodes(size)),
        deadline: None,
        cancel: None,
    }
}

fn check_solution(size: Size, variant: Variant, givens: &[u8], solution: &[u8]) {
    let n = size.side();
    assert_eq!(solution.len(), n * n);
    for (&g, &s) in givens.iter().zip(solution) {
        assert!(s >= 1 && s as usize <= n, "digit {s} in a {n}×{n} solution");
        assert!(g == 0 || g == s, "a solution changes a given");
    }
    for unit in &geometry(size, variant).units {
        let mut seen = vec![false; n + 1];
        for &c in unit.cells.iter() {
            let d = solution[c as usize] as usize;
            assert!(!seen[d], "a solution repeats {d} in a unit");
            seen[d] = true;
        }
    }
}

fn run(u: &mut Unstructured) -> Result<()> {
    // Sizes with boxes: a grid without them (7×7) needs regions, which this target has none of.
    let boxed: Vec<Size> = Size::ALL.into_iter().filter(|s| s.has_boxes()).collect();
    let size = boxed[u.choose_index(boxed.len())?];
    let variant = if u.arbitrary()? {
        Variant::Diagonal
    } else {
        Variant::Classic
    };
    let n = size.side();
    // Mostly empty cells (as puzzles are), the rest any digit.
    let density = u.int_in_range(1u8..=8)?;
    let mut givens = Vec::with_capacity(n * n);
    for _ in 0..n * n {
        let d = if u.is_empty() || u.int_in_range(0u8..=9)? >= density {
            0
        } else {
            u.int_in_range(1..=n as u8)?
        };
        givens.push(d);
    }
    let analysis = analyze(size, variant, &givens, &budget(size));
    assert_eq!(analysis.size, size);
    match &analysis.verdict {
        Verdict::Unique(s) => check_solution(size, variant, &givens, s),
        Verdict::Several {
            first,
            second,
            differ,
        } => {
            check_solution(size, variant, &givens, first);
            check_solution(size, variant, &givens, second);
            assert_ne!(first, second);
            assert_ne!(first[*differ], second[*differ]);
        }
        Verdict::Undecided { found: Some(s), .. } => check_solution(size, variant, &givens, s),
        _ => {}
    }
    // The same grid as text (one line, with its size and variant declared), analysed through
    // the document path, findings placed in the source.
    let mut text = format!("# size: {n}\n# variant: {}\n\n", variant.name());
    text.extend(
        givens
            .iter()
            .map(|&d| if d == 0 { '.' } else { digit_char(d) }),
    );
    text.push('\n');
    let doc = parse(&text);
    check_invariants(&text, &doc);
    assert_eq!(
        doc.puzzles.len(),
        1,
        "{text:?} reads as {} puzzles",
        doc.puzzles.len()
    );
    assert_eq!(doc.puzzles[0].givens, givens);
    let placed = findings(&doc.puzzles[0], &analysis);
    let checked = check_text(&text, &budget(size));
    assert_eq!(checked.analyses.len(), 1);
    assert_eq!(*checked.analyses[0], analysis);
    for f in placed.iter().chain(&checked.findings) {
        assert!(
            text.get(f.span.start..f.span.end).is_some(),
            "finding span {:?}",
            f.span
        );
    }
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let _ = run(&mut Unstructured::new(data));
});
