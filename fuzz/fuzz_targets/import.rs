//! `import` on any bytes (a link, a payload or f-puzzles JSON, read as UTF-8 with invalid
//! sequences replaced): no panic, and bounded work (the LZ-String decoder's output is capped).
//! The text an import writes reads without a panic, every span inside it, and each of its
//! puzzles exports again without a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_lsp::convert::{fpuzzles, links};
use sudoku_lsp::format::parse;
use sudoku_lsp_fuzz::check_invariants;

fuzz_target!(|data: &[u8]| {
    let input = String::from_utf8_lossy(data);
    let Ok(imported) = links::import(&input) else {
        return;
    };
    let doc = parse(&imported.text);
    check_invariants(&imported.text, &doc);
    for puzzle in &doc.puzzles {
        let _ = fpuzzles::export(&imported.text, &doc, puzzle);
    }
});
