//! sigh's showcase puzzles (`crates/core/src/convert/sigh/showcase.txt`) as `.sudoku` text, for
//! the benches that time variant puzzles (`variants`, `latency -- variants`).

use sudoku_lsp::convert::sigh;

/// The showcase file, from the repository.
pub const SHOWCASE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/crates/core/src/convert/sigh/showcase.txt"
);

/// The showcase's puzzles that import with no warning and no error, each as `.sudoku` text
/// titled by its name, and how many were left out.
pub fn showcase_as_sudoku(text: &str) -> (Vec<String>, usize) {
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    let (mut puzzles, mut left_out) = (Vec::new(), 0);
    while let Some(line) = lines.next() {
        let Some(name) = line.strip_prefix("name: ") else {
            continue;
        };
        let Some(input) = lines.next().and_then(|l| l.strip_prefix("input: ")) else {
            continue;
        };
        match sigh::import(input) {
            Ok(imported) if imported.warnings.is_empty() && imported.errors.is_empty() => {
                puzzles.push(format!("# title: {name}\n{}\n", imported.text));
            }
            _ => left_out += 1,
        }
    }
    (puzzles, left_out)
}
