//! The parser on any bytes (read as UTF-8, invalid sequences replaced): no panic, and every
//! span it reports lies inside the text, on character boundaries.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_lsp::format::parse;
use sudoku_lsp_fuzz::check_invariants;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let doc = parse(&text);
    check_invariants(&text, &doc);
});
