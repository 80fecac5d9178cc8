//! `import` on any bytes (a link, a payload, f-puzzles JSON, or a classic format's text: the
//! one its shape names, and, chosen by the first byte, any of them as `--from` would force),
//! read as UTF-8 with invalid sequences replaced: no panic, and bounded work (the LZ-String
//! decoder's output is capped). The text an import writes reads without a panic, every span
//! inside it, and each of its puzzles exports again (to f-puzzles and `.sdk`) without a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_lsp::convert::classic::{self, FORMATS};
use sudoku_lsp::convert::{fpuzzles, links};
use sudoku_lsp::format::parse;
use sudoku_lsp_fuzz::check_invariants;

fn check_written(text: &str) {
    let doc = parse(text);
    check_invariants(text, &doc);
    for puzzle in &doc.puzzles {
        let _ = fpuzzles::export(text, &doc, puzzle);
        let _ = classic::export_sdk(puzzle);
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let input = String::from_utf8_lossy(rest);
    if let Ok(imported) = links::import(&input) {
        check_written(&imported.text);
    }
    let forced = FORMATS[first as usize % FORMATS.len()].1;
    let shaped = classic::detect(&input);
    for format in [Some(forced), shaped].into_iter().flatten() {
        for piece in classic::import(&input, format) {
            if let Ok(imported) = piece.result {
                check_written(&imported.text);
            }
        }
    }
});
