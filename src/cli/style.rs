//! Colour on the command line: the `--color` choice and the styles of what is coloured.
//!
//! The choice is anstream's global one, so clap's help and usage errors follow it too, and whether
//! a stream gets colour is decided the way anstream decides it: `always` and `never` are what they
//! say; `auto` (the default) colours a stream that is a terminal, unless `NO_COLOR` is set
//! (`CLICOLOR=0`, `TERM=dumb` too; `CLICOLOR_FORCE` forces it), as ripgrep, cargo and ruff do.
//! An explicit `--color always` wins over `NO_COLOR`.
//!
//! Output is written with the escapes only when its stream gets colour (`Paint`), never written
//! and then stripped: a piped run's bytes are exactly what they were before colour, at no cost.
//! Machine formats (JSON, GitHub annotations, SARIF) never get a `Paint` that is on.

use std::borrow::Cow;
use std::fmt;

use anstream::ColorChoice;
use anstyle::{AnsiColor, Style};

use crate::finding::Severity;
use crate::logic::Level;

/// The `--color` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ColorArg {
    /// Colour on a terminal, unless `NO_COLOR` is set.
    #[default]
    Auto,
    Always,
    Never,
}

impl ColorArg {
    /// Make this the choice of every stream, clap's included.
    pub fn apply(self) {
        let choice = match self {
            ColorArg::Auto => ColorChoice::Auto,
            ColorArg::Always => ColorChoice::Always,
            ColorArg::Never => ColorChoice::Never,
        };
        choice.write_global();
    }

    /// The `--color` of the command line, read before clap parses it, so that clap's own help
    /// and errors (printed while parsing) follow it. The last one before `--` counts, as clap
    /// takes it; a value that is not one of the three is left for clap to refuse.
    pub fn from_raw_args(args: impl IntoIterator<Item = std::ffi::OsString>) -> ColorArg {
        let mut choice = ColorArg::Auto;
        let mut args = args.into_iter().skip(1);
        while let Some(arg) = args.next() {
            let Some(arg) = arg.to_str() else { continue };
            let value = match arg {
                "--" => break,
                "--color" => args.next().and_then(|v| v.into_string().ok()),
                _ => arg.strip_prefix("--color=").map(str::to_string),
            };
            if let Some(value) = value {
                choice = match value.as_str() {
                    "always" => ColorArg::Always,
                    "never" => ColorArg::Never,
                    _ => ColorArg::Auto,
                };
            }
        }
        choice
    }
}

/// Whether one stream's text gets colour: painted text carries its escapes, or is written as is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Paint(bool);

impl Paint {
    /// For what goes to standard output.
    pub fn stdout() -> Paint {
        Paint(anstream::AutoStream::choice(&std::io::stdout()) != ColorChoice::Never)
    }

    /// For what goes to standard error.
    pub fn stderr() -> Paint {
        Paint(anstream::AutoStream::choice(&std::io::stderr()) != ColorChoice::Never)
    }

    /// No colour (machine formats).
    pub fn off() -> Paint {
        Paint(false)
    }

    pub fn is_on(self) -> bool {
        self.0
    }

    /// `text` in `style`, when this stream gets colour.
    pub fn paint<T: fmt::Display>(self, style: Style, text: T) -> Painted<T> {
        Painted {
            style: self.0.then_some(style),
            text,
        }
    }

    /// `PATH:LINE:COLUMN`, coloured as ripgrep colours its paths and line numbers (the path's
    /// control characters escaped).
    pub fn place(self, path: &str, line: usize, column: usize) -> Place<'_> {
        Place {
            paint: self,
            path,
            line,
            column,
        }
    }
}

/// `PATH:LINE:COLUMN` as [`Paint::place`] writes it, written where it is formatted (a line of
/// output is written once, not built in pieces: `solve` over a collection where every puzzle
/// has several solutions says 10,000 of them).
pub struct Place<'a> {
    paint: Paint,
    path: &'a str,
    line: usize,
    column: usize,
}

impl fmt::Display for Place<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let paint = self.paint;
        write!(
            f,
            "{}:{}:{}",
            paint.paint(PATH, printable(self.path)),
            paint.paint(NUMBER, self.line),
            paint.paint(NUMBER, self.column)
        )
    }
}

/// Text with the escapes of its style around it (or none).
pub struct Painted<T> {
    style: Option<Style>,
    text: T,
}

impl<T: fmt::Display> fmt::Display for Painted<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.style {
            Some(style) => write!(f, "{style}{}{style:#}", self.text),
            None => write!(f, "{}", self.text),
        }
    }
}

/// File names (ripgrep's colour for paths).
pub const PATH: Style = AnsiColor::Magenta.on_default();
/// Line and column numbers (ripgrep's colour for line numbers).
pub const NUMBER: Style = AnsiColor::Green.on_default();
/// A technique's name, in ratings and steps.
pub const TECHNIQUE: Style = Style::new().bold();
/// A digit `solve` filled in, set apart from the givens.
pub const FILLED: Style = AnsiColor::Green.on_default().bold();

/// A finding's severity word: errors red, warnings yellow, notes cyan (as cargo and ruff).
pub fn severity(severity: Severity) -> Style {
    let color = match severity {
        Severity::Error => AnsiColor::Red,
        Severity::Warning => AnsiColor::Yellow,
        Severity::Info | Severity::Hint => AnsiColor::Cyan,
    };
    color.on_default().bold()
}

/// A rating's level, from green (easy) to magenta (extreme).
pub fn level(level: Level) -> Style {
    let color = match level {
        Level::Easy | Level::Medium => AnsiColor::Green,
        Level::Hard => AnsiColor::Cyan,
        Level::Diabolical => AnsiColor::Yellow,
        Level::Fiendish => AnsiColor::Red,
        Level::Extreme => AnsiColor::Magenta,
    };
    color.on_default().bold()
}

/// Say a usage or I/O problem on stderr: `sudoku-lsp: error: MESSAGE`, the `error:` in red as
/// clap's own usage errors have it (the message's control characters escaped).
pub fn say_error(message: &str) {
    let paint = Paint::stderr();
    eprintln!(
        "sudoku-lsp: {} {}",
        paint.paint(severity(Severity::Error), "error:"),
        printable(message)
    );
}

/// Text from a file (its content or its name) made safe to print on a terminal: each control
/// character written as Rust writes it in a string (`\u{1b}`, `\t`), so that a file cannot move
/// the cursor, set the window's title or clear the screen (`ESC]0;…BEL`, `ESC[2J`) of whoever
/// checks it. C0 and C1 controls, DEL, and the bidirectional overrides and isolates that can
/// make a line read otherwise than it is (as rustc warns of them). Idempotent; borrowed when
/// there is nothing to escape, as nearly always.
pub fn printable(text: &str) -> Cow<'_, str> {
    // Printable ASCII alone, as nearly every message and path is, needs no look at its chars.
    let plain = |byte: &u8| (b' '..=b'~').contains(byte);
    if text.as_bytes().iter().all(plain) || !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if needs_escape(c) {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

fn needs_escape(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(args: &[&str]) -> ColorArg {
        ColorArg::from_raw_args(args.iter().map(std::ffi::OsString::from))
    }

    #[test]
    fn the_last_color_before_a_double_dash_counts() {
        assert_eq!(raw(&["sudoku-lsp", "check"]), ColorArg::Auto);
        assert_eq!(
            raw(&["sudoku-lsp", "--color", "never", "x"]),
            ColorArg::Never
        );
        assert_eq!(
            raw(&["sudoku-lsp", "--color=never", "check", "--color=always"]),
            ColorArg::Always
        );
        assert_eq!(
            raw(&["sudoku-lsp", "check", "--", "--color=always"]),
            ColorArg::Auto
        );
    }

    #[test]
    fn control_characters_are_escaped_and_nothing_else() {
        let hostile = "ESC]0;PWNED\x07 \x1b[2J tab\t \u{9b}2J \u{202e}abc \x7f";
        let shown = printable(hostile);
        assert_eq!(
            shown,
            "ESC]0;PWNED\\u{7} \\u{1b}[2J tab\\t \\u{9b}2J \\u{202e}abc \\u{7f}"
        );
        assert!(!shown.chars().any(needs_escape));
        assert_eq!(printable(&shown), shown, "idempotent");
        assert!(matches!(printable("é 7 ⁉ 😀"), Cow::Borrowed(_)));
    }

    #[test]
    fn painted_text_is_the_text_with_escapes_or_the_text_alone() {
        let on = Paint(true).paint(PATH, "a.sudoku").to_string();
        assert!(on.starts_with("\x1b[") && on.contains("a.sudoku") && on.ends_with("\x1b[0m"));
        assert_eq!(Paint::off().paint(PATH, "a.sudoku").to_string(), "a.sudoku");
    }
}
