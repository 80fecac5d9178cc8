//! f-puzzles and SudokuPad links: which puzzle a link (or a bare payload, or JSON) holds, and
//! the links of a puzzle's f-puzzles JSON.
//!
//! Read: `https://www.f-puzzles.com/?load=<payload>` (any host spelling ending in
//! `f-puzzles.com`), SudokuPad's `https://sudokupad.app/fpuzzles<payload>` and `…/fpuz<payload>`
//! (also under `sudokupad.app/sudoku/?puzzleid=`, the legacy `app.crackingthecryptic.com/sudoku/`,
//! the app's `sudokupad://puzzle/` and sudocle's `…/sudocle/fpuzzles`), a bare payload, and
//! f-puzzles JSON; SudokuPad's own format (`scl…`, `ctc…`) goes to [`super::sudokupad`]. Links
//! that are ids on a server (f-puzzles' `?id=`, SudokuPad's short ids) and SudokuPad's compact
//! classic codes (`scf`, `classic`) are errors that say what to do instead: nothing here asks
//! the network. A payload whose `//` a URL normaliser collapsed is mended as SudokuPad mends
//! it. sigh's Interactive Sudoku Solver links (`…/Interactive-Sudoku-Solver/?q=…`, any host:
//! the solver is also run from copies) hold their puzzle as text in `q`, percent-encoded: a
//! constraint string goes to [`super::sigh`], one of the classic formats its solver also reads
//! (a killer line, a jigsaw line) to [`super::classic`], a grid to the `.sudoku` reader.

use serde_json::Value;

use super::fpuzzles::{self, Imported};
use super::{classic, lzstring, sigh, sudokupad};

/// Where f-puzzles opens a payload.
pub const FPUZZLES_PREFIX: &str = "https://www.f-puzzles.com/?load=";
/// Where SudokuPad opens an f-puzzles payload.
pub const SUDOKUPAD_PREFIX: &str = "https://sudokupad.app/fpuzzles";

/// The f-puzzles link of a puzzle's JSON.
pub fn fpuzzles_link(json: &Value) -> String {
    format!("{FPUZZLES_PREFIX}{}", payload(json))
}

/// The SudokuPad link of a puzzle's f-puzzles JSON (SudokuPad converts it itself), with
/// drawings of what SudokuPad reads without drawing ([`fpuzzles::for_sudokupad`]).
pub fn sudokupad_link(json: &Value) -> String {
    format!(
        "{SUDOKUPAD_PREFIX}{}",
        payload(&fpuzzles::for_sudokupad(json))
    )
}

fn payload(json: &Value) -> String {
    lzstring::compress_to_base64(&json.to_string())
}

/// Whether a line of an input file is meant as a puzzle (not blank, not a `#` comment).
pub fn is_puzzle_line(line: &str) -> bool {
    let line = line.trim();
    !line.is_empty() && !line.starts_with('#')
}

/// Import one link, payload or f-puzzles JSON: the `.sudoku` text, or what is wrong with it.
pub fn import(input: &str) -> Result<Imported, String> {
    if let Some(payload) = sudokupad_own(input) {
        return sudokupad::import_payload(payload);
    }
    if let Some(puzzle) = sigh_puzzle(input) {
        return import_sigh_text(&puzzle);
    }
    let json = fpuzzles_json(input)?;
    let what = if input.trim_start().starts_with('{') {
        "the JSON"
    } else {
        "the link's puzzle"
    };
    fpuzzles::import_json(&json).map_err(|e| format!("{what}: {e}"))
}

/// The puzzle text of a sigh link (`?q=…`, decoded): a link to no host f-puzzles or SudokuPad
/// uses, with a `q` parameter.
fn sigh_puzzle(input: &str) -> Option<String> {
    let input = input.trim();
    if find_host(input).is_some() || !input.contains("://") && !is_sigh_host(input) {
        return None;
    }
    query_parameter(input, "q")
}

/// sigh's own host, written without `https://`.
fn is_sigh_host(input: &str) -> bool {
    input.to_ascii_lowercase().starts_with("sigh.github.io/")
}

/// The text in a sigh link: a constraint string, another of the formats sigh's solver reads,
/// or a grid `.sudoku` reads as it is.
fn import_sigh_text(text: &str) -> Result<Imported, String> {
    if sigh::is_constraint_string(text) {
        return sigh::import(text);
    }
    if let Some(format) = classic::detect(text) {
        let first = classic::import(text, format).into_iter().next();
        return first.map_or_else(|| Err("the sigh link holds no puzzle".into()), |p| p.result);
    }
    let document = crate::format::parse(text);
    if document.puzzles.len() == 1 && document.problems.is_empty() {
        return Ok(Imported {
            text: format!("{}\n", text.trim_end()),
            ..Imported::default()
        });
    }
    let shown: String = text.chars().take(40).collect();
    Err(format!(
        "the sigh link's q= holds '{shown}', which is no sigh constraint string (.Type~arg~…), killer, jigsaw or grid"
    ))
}

/// The value of the query parameter `name` in a link (`?q=…&…`, up to a `#`), percent-escapes
/// and `+` (a blank) decoded as a browser's `URLSearchParams` does.
pub fn query_parameter(link: &str, name: &str) -> Option<String> {
    let (_, query) = link.trim().split_once('?')?;
    let query = query.split('#').next().unwrap_or("");
    query.split('&').find_map(|parameter| {
        let (key, value) = parameter.split_once('=').unwrap_or((parameter, ""));
        (percent_decode(key) == name).then(|| percent_decode(value))
    })
}

/// `%7E` as `~`, `+` as a blank; a `%` not followed by two hex digits is kept as it is.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = bytes
            .get(i + 1..i + 3)
            .filter(|hex| hex.iter().all(u8::is_ascii_hexdigit))
            .and_then(|hex| u8::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok());
        match (bytes[i], escaped) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
                continue;
            }
            (b'+', _) => out.push(b' '),
            (byte, _) => out.push(byte),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The f-puzzles JSON text a link, payload or JSON holds.
pub fn fpuzzles_json(input: &str) -> Result<String, String> {
    let input = input.trim();
    if input.starts_with('{') {
        return Ok(input.to_string());
    }
    let payload = match find_host(input) {
        Some(Host::FPuzzles(after)) => fpuzzles_payload(after)?,
        Some(Host::SudokuPad(after)) => sudokupad_payload(after)?,
        None if is_bare_payload(input) => input,
        None => return Err(not_a_link(input)),
    };
    match lzstring::decompress_from_base64(payload) {
        Ok(json) if is_json_object(&json) => Ok(json),
        first => slashes_restored(payload).ok_or_else(|| match first {
            Ok(_) => "the link is damaged: its payload does not decompress to a puzzle".into(),
            Err(e) => format!("the link is damaged: {e}"),
        }),
    }
}

fn is_json_object(text: &str) -> bool {
    text.trim_start().starts_with('{') && serde_json::from_str::<Value>(text).is_ok()
}

/// How many of a payload's slashes may have lost their twin, and how many payloads are tried:
/// SudokuPad's own loader (`fixFPuzzleSlashes`) gives up at the same bounds.
const SLASHES_TRIED: usize = 16;
const TRIES: usize = 3000;

/// The puzzle of a payload whose `//` a URL normaliser collapsed to `/`: each way of doubling
/// one, two, three … of its first single slashes is tried, up to `TRIES` payloads.
fn slashes_restored(payload: &str) -> Option<String> {
    let slashes: Vec<usize> = payload
        .match_indices('/')
        .map(|(at, _)| at)
        .filter(|&at| !payload[at + 1..].starts_with('/') && !payload[..at].ends_with('/'))
        .take(SLASHES_TRIED)
        .collect();
    let mut tries = 0;
    for count in 1..=slashes.len() {
        let mut chosen: Vec<usize> = (0..count).collect();
        loop {
            tries += 1;
            if tries > TRIES {
                return None;
            }
            let mut fixed = payload.to_string();
            for &i in chosen.iter().rev() {
                fixed.insert(slashes[i], '/');
            }
            if let Ok(json) = lzstring::decompress_from_base64(&fixed) {
                if is_json_object(&json) {
                    return Some(json);
                }
            }
            if !next_combination(&mut chosen, slashes.len()) {
                break;
            }
        }
    }
    None
}

/// The next `chosen.len()`-subset of `0..n` in lexicographic order; false after the last.
fn next_combination(chosen: &mut [usize], n: usize) -> bool {
    let k = chosen.len();
    for i in (0..k).rev() {
        if chosen[i] < n - k + i {
            chosen[i] += 1;
            for j in i + 1..k {
                chosen[j] = chosen[j - 1] + 1;
            }
            return true;
        }
    }
    false
}

enum Host<'a> {
    /// What follows `f-puzzles.com/`.
    FPuzzles(&'a str),
    /// What follows SudokuPad's host (and `sudoku/`, `puzzle/`).
    SudokuPad(&'a str),
}

/// The host a link names, and the rest of the link after it.
fn find_host(input: &str) -> Option<Host<'_>> {
    const SUDOKUPAD: [&str; 5] = [
        "sudokupad.app/",
        "crackingthecryptic.com/sudoku/",
        "sudokupad://puzzle/",
        "/sudocle/",
        "sudokupad.svencodes.com/",
    ];
    let lower = input.to_ascii_lowercase();
    if let Some(at) = lower.find("f-puzzles.com") {
        return Some(Host::FPuzzles(&input[at + "f-puzzles.com".len()..]));
    }
    SUDOKUPAD.iter().find_map(|host| {
        lower
            .find(host)
            .map(|at| Host::SudokuPad(&input[at + host.len()..]))
    })
}

/// The payload of `?load=…` (up to the next parameter).
fn fpuzzles_payload(after_host: &str) -> Result<&str, String> {
    let query = after_host.split_once('?').map_or("", |(_, q)| q);
    for parameter in query.split('&') {
        let (name, value) = parameter.split_once('=').unwrap_or((parameter, ""));
        match name {
            "load" if !value.is_empty() => return Ok(value),
            "id" => {
                return Err(format!(
                    "this f-puzzles link is an id on f-puzzles' server ({value}), which sudoku-lsp does not ask: \
                     open it in f-puzzles and copy the link its Export button gives (?load=…), then import that"
                ))
            }
            _ => {}
        }
    }
    Err("this f-puzzles link holds no puzzle: its puzzle is after '?load='".into())
}

/// The payload of a SudokuPad link to a puzzle in SudokuPad's own format (`scl…`, `ctc…`).
fn sudokupad_own(input: &str) -> Option<&str> {
    let Some(Host::SudokuPad(after)) = find_host(input.trim()) else {
        return None;
    };
    let id = puzzle_id(after);
    id.strip_prefix("scl").or_else(|| id.strip_prefix("ctc"))
}

/// What names the puzzle in what follows SudokuPad's host: past `sudoku/?puzzleid=` and the
/// like, up to the settings.
fn puzzle_id(after_host: &str) -> &str {
    let mut id = after_host;
    for lead in [
        "sudoku/?puzzleid=",
        "sudoku.html?puzzleid=",
        "?puzzleid=",
        "sudoku/",
    ] {
        if let Some(rest) = id.strip_prefix(lead) {
            id = rest;
            break;
        }
    }
    // Settings follow a `?` (no base64 character is one); `&` ends a parameter.
    id.split(['?', '&', '#']).next().unwrap_or("")
}

/// The f-puzzles payload of a SudokuPad link, or what to do for the other kinds.
fn sudokupad_payload(after_host: &str) -> Result<&str, String> {
    let id = puzzle_id(after_host);
    if let Some(payload) = id
        .strip_prefix("fpuzzles")
        .or_else(|| id.strip_prefix("fpuz"))
    {
        return Ok(payload);
    }
    for own in ["scl", "ctc"] {
        if id.starts_with(own) {
            return Err(format!(
                "this SudokuPad link holds a puzzle in SudokuPad's own format ('{own}'), not f-puzzles JSON: \
                 `sudoku-lsp import` reads it"
            ));
        }
    }
    for own in ["scf", "classic"] {
        if id.starts_with(own) {
            return Err(format!(
                "this SudokuPad link holds a puzzle in SudokuPad's compact classic format ('{own}'), which \
                 sudoku-lsp does not read yet: import the puzzle's f-puzzles link instead \
                 (sudokupad.app/fpuzzles… or f-puzzles.com/?load=…), or its grid as text"
            ));
        }
    }
    if id.is_empty() {
        return Err("this SudokuPad link names no puzzle".into());
    }
    Err(format!(
        "this SudokuPad link is a short id ('{id}') on SudokuPad's server, which sudoku-lsp does not ask: \
         open it in SudokuPad, and import the puzzle's long link (sudokupad.app/fpuzzles…) or f-puzzles link instead"
    ))
}

/// A payload pasted alone: base64 only, long enough to be no word.
fn is_bare_payload(input: &str) -> bool {
    input.len() >= 16
        && input
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
}

fn not_a_link(input: &str) -> String {
    let shown: String = input.chars().take(40).collect();
    let more = if input.chars().count() > 40 {
        "…"
    } else {
        ""
    };
    format!(
        "'{shown}{more}' is no f-puzzles, SudokuPad or sigh link, payload or f-puzzles JSON \
         (f-puzzles.com/?load=…, sudokupad.app/fpuzzles…, …/Interactive-Sudoku-Solver/?q=…, \
         or a JSON object)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sample() -> Value {
        let grid = vec![vec![json!({}); 4]; 4];
        json!({ "size": 4, "title": "Tiny", "grid": grid, "killercage": [{"cells": ["R1C1", "R1C2"], "value": "3"}] })
    }

    #[test]
    fn every_link_form_reads_the_same_puzzle() {
        let json = sample();
        let payload = lzstring::compress_to_base64(&json.to_string());
        let forms = [
            fpuzzles_link(&json),
            sudokupad_link(&json),
            format!("f-puzzles.com/?load={payload}&other=1"),
            format!(
                "http://F-Puzzles.com/?load={}",
                payload.replace('+', "%2B").replace('/', "%2F")
            ),
            format!("https://sudokupad.app/fpuz{payload}?setting-nogrid=1"),
            format!("https://sudokupad.app/sudoku/?puzzleid=fpuzzles{payload}"),
            format!("https://app.crackingthecryptic.com/sudoku/fpuzzles{payload}"),
            format!("sudokupad://puzzle/fpuzzles{payload}"),
            format!("https://example.com/sudocle/fpuzzles{payload}"),
            payload.clone(),
            json.to_string(),
        ];
        for form in forms {
            let text = fpuzzles_json(&form).unwrap_or_else(|e| panic!("{form}: {e}"));
            assert_eq!(
                serde_json::from_str::<Value>(&text).unwrap(),
                json,
                "{form}"
            );
        }
        assert!(import(&fpuzzles_link(&json))
            .unwrap()
            .text
            .starts_with("# title: Tiny\ncage 3: A1 A2\n"));
    }

    #[test]
    fn a_collapsed_double_slash_is_mended() {
        // Titles until the payload holds a `//`: characters from U+F000 up, whose 16-bit
        // literals are mostly ones (`/` is six of them).
        let mut json = sample();
        let mut rng = crate::engine::fast9::XorShift::new(5);
        let payload = (0..10_000)
            .find_map(|_| {
                let title: String = (0..8)
                    .filter_map(|_| char::from_u32(0xF000 + rng.below(0xFFD) as u32))
                    .collect();
                json["title"] = json!(title);
                let p = lzstring::compress_to_base64(&json.to_string());
                p.contains("//").then_some(p)
            })
            .unwrap();
        let collapsed = payload.replacen("//", "/", 1);
        let text = fpuzzles_json(&format!("https://sudokupad.app/fpuzzles{collapsed}")).unwrap();
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), json);
    }

    #[test]
    fn a_sigh_link_holds_its_puzzle_text_in_q() {
        let link = "https://sigh.github.io/Interactive-Sudoku-Solver/?mode=all&q=.%7ER1C1_5+.Cage%7E3%7ER1C2%7ER1C3#top";
        assert_eq!(
            query_parameter(link, "q").as_deref(),
            Some(".~R1C1_5 .Cage~3~R1C2~R1C3")
        );
        assert_eq!(
            query_parameter("https://x/?q=%zz%4", "q").as_deref(),
            Some("%zz%4")
        );
        assert_eq!(query_parameter("https://x/?p=1", "q"), None);
        let text = import(link).unwrap().text;
        assert!(text.starts_with("cage 3: A2 A3\n5 . . |"), "{text}");
        // sigh's solver also reads killer lines and grids in `q`; anything else is an error.
        let killer =
            "G<<L<K<L<^G>^>^E^^>^IJ<G^<G^>^^I^<>^HC<C^<B^N^^G^<>^>^^E^<DF<^PG^<>^^J<^^<H<<>^>^";
        let text = import(&format!(
            "sigh.github.io/Interactive-Sudoku-Solver/?q={killer}"
        ))
        .unwrap()
        .text;
        assert!(text.starts_with("cage 16: A1 A2 A3 B1\n"), "{text}");
        let grid = format!("5{}", ".".repeat(80));
        let text = import(&format!("http://localhost:8080/?q={grid}"))
            .unwrap()
            .text;
        assert_eq!(text, format!("{grid}\n"));
        let error =
            import("https://sigh.github.io/Interactive-Sudoku-Solver/?q=hello").unwrap_err();
        assert!(error.contains("no sigh constraint string"), "{error}");
    }

    #[test]
    fn links_that_hold_no_puzzle_say_what_to_do() {
        let cases = [
            (
                "https://f-puzzles.com/?id=abc123",
                "an id on f-puzzles' server",
            ),
            (
                "https://sudokupad.app/TtTmqGMBDR",
                "a short id ('TtTmqGMBDR')",
            ),
            (
                "https://sudokupad.app/sclN4IgzglgXg",
                "SudokuPad's own format ('scl')",
            ),
            (
                "https://sudokupad.app/ctcN4IgzglgXg",
                "SudokuPad's own format ('ctc')",
            ),
            ("https://www.f-puzzles.com/", "holds no puzzle"),
            (
                "https://sudokupad.app/fpuzzlesN4Ig!!",
                "the link is damaged: character 5",
            ),
            (
                "https://www.f-puzzles.com/?load=N4IgzglgXgpiBcBOANCALhN",
                "the link is damaged: the payload is cut short",
            ),
            ("hello world", "is no f-puzzles, SudokuPad or sigh link"),
        ];
        for (input, says) in cases {
            let error = fpuzzles_json(input).unwrap_err();
            assert!(error.contains(says), "{input}: {error}");
        }
        let wrong_shape = import("{\"size\": 9, \"grid\": 3}").unwrap_err();
        assert_eq!(
            wrong_shape,
            "the JSON: grid: expected an array, found a number"
        );
    }
}
