//! parse → canonical → parse: the same puzzles (size, variant, givens, layout, metadata), the
//! same kinds of problems, and writing the canonical form again changes nothing.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_lsp::finding::{Code, Severity};
use sudoku_lsp::format::{canonical, parse, Document, Layout};
use sudoku_lsp::grid::{Size, Variant};
use sudoku_lsp_fuzz::check_invariants;

type Essence = (Size, Variant, Vec<u8>, Layout, Vec<Option<String>>);

fn essence(doc: &Document) -> Vec<Essence> {
    doc.puzzles
        .iter()
        .map(|p| {
            let meta = p
                .meta
                .fields()
                .into_iter()
                .map(|e| e.as_ref().map(|e| e.value.clone()));
            (
                p.size,
                p.variant,
                p.givens.clone(),
                p.layout,
                meta.collect(),
            )
        })
        .collect()
}

fn problem_codes(doc: &Document) -> Vec<(Code, Severity)> {
    doc.problems.iter().map(|f| (f.code, f.severity)).collect()
}

fn check(text: &str) {
    let doc = parse(text);
    check_invariants(text, &doc);
    let once = canonical(text, &doc);
    let again = parse(&once);
    check_invariants(&once, &again);
    assert!(
        essence(&doc) == essence(&again),
        "puzzles differ after the canonical form\ninput:     {text:?}\ncanonical: {once:?}"
    );
    assert!(
        problem_codes(&doc) == problem_codes(&again),
        "problems differ after the canonical form: {:?} then {:?}\ninput:     {text:?}\ncanonical: {once:?}",
        problem_codes(&doc),
        problem_codes(&again)
    );
    let twice = canonical(&once, &again);
    assert!(
        twice == once,
        "not idempotent\ninput: {text:?}\nonce:  {once:?}\ntwice: {twice:?}"
    );
}

fuzz_target!(|data: &[u8]| {
    // The first byte picks how to read the rest: as text, or as pieces of puzzle-like text.
    let Some((&how, rest)) = data.split_first() else {
        return;
    };
    if how % 2 == 0 {
        check(&String::from_utf8_lossy(rest));
    } else {
        let mut u = arbitrary::Unstructured::new(rest);
        if let Ok(text) = sudoku_lsp_fuzz::text(&mut u, 40) {
            check(&text);
        }
    }
});
