//! The parts of a constraint line after its keyword: the value before the `:`, then the cells,
//! arrows, groups, directions or sides after it, each checked as it is read.

use super::*;

/// Reads the parts of one constraint line.
pub(super) struct Reader<'a> {
    text: &'a str,
    /// The file offset of `text`'s first byte.
    start: usize,
}

/// One blank-separated token of a rule and where it is.
#[derive(Clone, Copy)]
struct Token<'a> {
    text: &'a str,
    span: Span,
}

impl<'a> Reader<'a> {
    pub(super) fn new(text: &'a str, start: usize) -> Reader<'a> {
        Reader { text, start }
    }

    fn span(&self, from: usize, to: usize) -> Span {
        Span::new(self.start + from, self.start + to)
    }

    /// The tokens of `text[from..to]`: split at blanks, and `>`, `<` and `=` tokens of their
    /// own even without blanks around them (`arrow: E5>D4`).
    fn tokens(&self, from: usize, to: usize) -> Vec<Token<'a>> {
        let mut tokens = Vec::new();
        let mut token_start = None;
        for (i, c) in self.text[from..to].char_indices() {
            let at = from + i;
            let operator = matches!(c, '>' | '<' | '=');
            if c.is_whitespace() || operator {
                if let Some(begin) = token_start.take() {
                    tokens.push(self.token(begin, at));
                }
                if operator {
                    tokens.push(self.token(at, at + 1));
                }
            } else if token_start.is_none() {
                token_start = Some(at);
            }
        }
        if let Some(begin) = token_start {
            tokens.push(self.token(begin, to));
        }
        tokens
    }

    fn token(&self, from: usize, to: usize) -> Token<'a> {
        Token {
            text: &self.text[from..to],
            span: self.span(from, to),
        }
    }

    pub(super) fn rule(&self, spec: &Spec, word_len: usize, colon: usize) -> Result<Rule, Finding> {
        let keyword_span = self.span(0, word_len);
        let head = self.tokens(word_len, colon);
        if self.text[word_len..colon]
            .chars()
            .next()
            .is_some_and(|c| !c.is_whitespace())
        {
            return Err(Finding::error(
                Code::Syntax,
                self.span(0, colon),
                format!(
                    "'{}' is no constraint: a value goes after a blank, as in '{} 15:'",
                    &self.text[..colon],
                    spec.name
                ),
            ));
        }
        let value = self.value(spec, head.first().copied(), keyword_span)?;
        if let Some(extra) = head.get(1) {
            return Err(Finding::error(
                Code::Syntax,
                extra.span,
                format!(
                    "one value goes before the ':', as in '{}'",
                    example(spec.keyword)
                ),
            ));
        }
        let body = self.body(spec, colon)?;
        Ok(Rule {
            keyword: spec.keyword,
            keyword_span,
            value,
            body,
            span: self.span(0, self.text.len()),
        })
    }

    fn value(
        &self,
        spec: &Spec,
        token: Option<Token>,
        keyword: Span,
    ) -> Result<Option<Value>, Finding> {
        match (spec.param, token) {
            (Param::None, None) | (Param::OptionalNumber, None) => Ok(None),
            (Param::None, Some(token)) => Err(Finding::error(
                Code::Syntax,
                token.span,
                format!("'{}' takes no value: write '{}: …'", spec.name, spec.name),
            )),
            (Param::Number | Param::Digits, None) => Err(Finding::error(
                Code::Syntax,
                keyword,
                format!(
                    "'{}' needs its {} before the ':', as in '{}'",
                    spec.name,
                    if spec.param == Param::Digits {
                        "digits"
                    } else {
                        "value"
                    },
                    example(spec.keyword)
                ),
            )),
            (Param::Number | Param::OptionalNumber, Some(token)) => match token.text.parse::<u32>()
            {
                Ok(number) if token.text.bytes().all(|b| b.is_ascii_digit()) => {
                    Ok(Some(Value::Number(number, token.span)))
                }
                _ => Err(Finding::error(
                    Code::Syntax,
                    token.span,
                    format!(
                        "'{}' is not a number: '{}' takes a whole number, as in '{}'",
                        token.text,
                        spec.name,
                        example(spec.keyword)
                    ),
                )),
            },
            (Param::Digits, Some(token)) => {
                let digits: Option<Vec<u8>> = token
                    .text
                    .chars()
                    .map(|c| char_digit(c.to_ascii_uppercase()))
                    .collect();
                match digits {
                    Some(digits) if !digits.is_empty() => {
                        Ok(Some(Value::Digits(digits, token.span)))
                    }
                    _ => Err(Finding::error(
                        Code::Syntax,
                        token.span,
                        format!(
                            "'{}' is not a set of digits: write them together, as in '{}'",
                            token.text,
                            example(spec.keyword)
                        ),
                    )),
                }
            }
        }
    }

    fn body(&self, spec: &Spec, colon: usize) -> Result<Body, Finding> {
        let tokens = self.tokens(colon + 1, self.text.len());
        // Where a missing part is reported: the colon it should follow.
        let end = self.span(colon, colon + 1);
        match spec.shape {
            Shape::Flag => Ok(Body::Whole),
            Shape::Regions => match tokens.as_slice() {
                [] => Ok(Body::Regions {
                    none: false,
                    rows: Vec::new(),
                }),
                [t] if t.text.eq_ignore_ascii_case("none") => Ok(Body::Regions {
                    none: true,
                    rows: Vec::new(),
                }),
                [t, ..] => Err(Finding::error(
                    Code::Syntax,
                    t.span,
                    "write 'regions:' alone, its rows on the lines below, or 'regions: none'",
                )),
            },
            Shape::Kinds => kinds(&tokens, end),
            Shape::Cells(least) => {
                let cells = cells(spec, &tokens)?;
                at_least(spec, &cells, least, end)?;
                no_cell_twice(spec, &cells)?;
                Ok(Body::Cells(cells))
            }
            Shape::Pair => {
                let cells = cells(spec, &tokens)?;
                exactly(spec, &cells, 2, end)?;
                if !orthogonal(cells[0], cells[1]) {
                    return Err(Finding::error(
                        Code::Syntax,
                        cells[1].span,
                        format!(
                            "a {} joins two side-by-side cells; {} and {} are not",
                            what(spec.keyword),
                            name(cells[0]),
                            name(cells[1])
                        ),
                    ));
                }
                Ok(Body::Cells(cells))
            }
            Shape::Line(least) => {
                let cells = cells(spec, &tokens)?;
                at_least(spec, &cells, least, end)?;
                no_cell_twice(spec, &cells)?;
                touching(&cells)?;
                Ok(Body::Cells(cells))
            }
            Shape::Square => {
                let cells = cells(spec, &tokens)?;
                exactly(spec, &cells, 4, end)?;
                no_cell_twice(spec, &cells)?;
                let top = cells.iter().map(|c| c.row).min().unwrap_or(0);
                let left = cells.iter().map(|c| c.col).min().unwrap_or(0);
                if let Some(out) = cells.iter().find(|c| c.row > top + 1 || c.col > left + 1) {
                    return Err(Finding::error(
                        Code::Syntax,
                        out.span,
                        "a quad's four cells make a 2×2 block, as in 'quad 1259: A4 A5 B4 B5'",
                    ));
                }
                Ok(Body::Cells(cells))
            }
            Shape::Arrow => self.arrow(spec, &tokens, end),
            Shape::Clone => clone(spec, &tokens, end),
            Shape::Less => less(spec, &tokens, end),
            Shape::Diagonal => diagonal(spec, &tokens, end),
            Shape::Outside => outside(spec, &tokens, end),
        }
    }

    fn arrow(&self, spec: &Spec, tokens: &[Token], end: Span) -> Result<Body, Finding> {
        let Some(split) = tokens.iter().position(|t| t.text == ">") else {
            return Err(Finding::error(
                Code::Syntax,
                tokens.last().map_or(end, |t| t.span),
                "an arrow is its circle, '>', then its shaft: 'arrow: E5 > D4 C3'",
            ));
        };
        let circle = cells(spec, &tokens[..split])?;
        let shaft = cells(spec, &tokens[split + 1..])?;
        if circle.is_empty() || circle.len() > 3 {
            return Err(Finding::error(
                Code::Syntax,
                tokens[split].span,
                "an arrow's circle is one cell, or a pill of two or three, before the '>'",
            ));
        }
        if shaft.is_empty() {
            return Err(Finding::error(
                Code::Syntax,
                tokens[split].span,
                "an arrow needs its shaft's cells after the '>'",
            ));
        }
        let all: Vec<CellRef> = circle.iter().chain(&shaft).copied().collect();
        no_cell_twice(spec, &all)?;
        touching(&circle)?;
        // The shaft leaves the circle (any cell of a pill) and goes from cell to touching cell.
        let start = shaft[0];
        if !circle
            .iter()
            .any(|c| c.row.abs_diff(start.row) <= 1 && c.col.abs_diff(start.col) <= 1)
        {
            return Err(Finding::error(
                Code::Syntax,
                start.span,
                format!(
                    "{} does not touch the arrow's circle: the shaft starts next to it",
                    name(start)
                ),
            ));
        }
        touching(&shaft)?;
        Ok(Body::Arrow { circle, shaft })
    }
}

fn example(keyword: Keyword) -> &'static str {
    match keyword {
        Keyword::Cage => "cage 15: A1 A2 B1",
        Keyword::LittleKiller => "little-killer 17: A3 down-left",
        Keyword::Sandwich => "sandwich 12: top 3",
        Keyword::XSum => "x-sum 15: left A",
        Keyword::Skyscraper => "skyscraper 4: bottom 7",
        Keyword::White => "white 3: A1 A2",
        Keyword::Black => "black 3: A1 A2",
        Keyword::Whisper => "whisper 4: A1 A2 A3",
        Keyword::Lockout => "lockout 4: A1 B2 C3 D4",
        Keyword::Candidates => "candidates 137: A1 B2",
        Keyword::Quad => "quad 1259: A4 A5 B4 B5",
        _ => "",
    }
}

/// What a keyword's constraint is called in messages.
fn what(keyword: Keyword) -> &'static str {
    match keyword {
        Keyword::White => "white dot",
        Keyword::Black => "black dot",
        Keyword::X => "X",
        Keyword::V => "V",
        _ => "constraint",
    }
}

/// A cell name: a row letter `A`–`Y` and a column number 1–25 (either case).
fn cell(token: Token) -> Option<CellRef> {
    let (row, col) = cell_name(token.text)?;
    Some(CellRef {
        row,
        col,
        span: token.span,
    })
}

/// The row and column (from 0) a cell name gives: a row letter `A`–`Y` (either case) and a
/// column number 1–25, written without a leading zero or sign. The one reading of a cell's
/// name, the parser's and completion's.
pub(crate) fn cell_name(text: &str) -> Option<(u8, u8)> {
    let bytes = text.as_bytes();
    let row = bytes.first()?.to_ascii_uppercase();
    if !(b'A'..=b'Y').contains(&row) || bytes.len() < 2 || bytes.len() > 3 {
        return None;
    }
    if !bytes[1..].iter().all(u8::is_ascii_digit) || bytes[1] == b'0' {
        return None;
    }
    let col: u8 = text[1..].parse().ok()?;
    (1..=25).contains(&col).then_some((row - b'A', col - 1))
}

fn cells(spec: &Spec, tokens: &[Token]) -> Result<Vec<CellRef>, Finding> {
    tokens
        .iter()
        .map(|&token| cell(token).ok_or_else(|| not_a_cell(spec, token)))
        .collect()
}

fn not_a_cell(spec: &Spec, token: Token) -> Finding {
    let hint = if token.text.contains(',') {
        ": cells are separated by blanks, not commas".to_string()
    } else {
        format!(
            ": a cell is a row letter and a column number, such as A1 (after '{}:')",
            spec.name
        )
    };
    Finding::error(
        Code::Syntax,
        token.span,
        format!("'{}' is not a cell{hint}", token.text),
    )
}

fn at_least(spec: &Spec, cells: &[CellRef], least: usize, end: Span) -> Result<(), Finding> {
    if cells.len() >= least {
        return Ok(());
    }
    Err(Finding::error(
        Code::Syntax,
        cells.last().map_or(end, |c| c.span),
        format!(
            "'{}' needs at least {least} cell{} after its ':'",
            spec.name,
            if least == 1 { "" } else { "s" }
        ),
    ))
}

fn exactly(spec: &Spec, cells: &[CellRef], count: usize, end: Span) -> Result<(), Finding> {
    if cells.len() == count {
        return Ok(());
    }
    let at = cells.get(count).or(cells.last()).map_or(end, |c| c.span);
    Err(Finding::error(
        Code::Syntax,
        at,
        format!(
            "'{}' takes exactly {count} cells, not {}",
            spec.name,
            cells.len()
        ),
    ))
}

fn no_cell_twice(spec: &Spec, cells: &[CellRef]) -> Result<(), Finding> {
    for (i, cell) in cells.iter().enumerate() {
        if cells[..i]
            .iter()
            .any(|c| (c.row, c.col) == (cell.row, cell.col))
        {
            return Err(Finding::error(
                Code::Syntax,
                cell.span,
                format!("{} is in this {} twice", name(*cell), spec.name),
            ));
        }
    }
    Ok(())
}

fn orthogonal(a: CellRef, b: CellRef) -> bool {
    a.row.abs_diff(b.row) + a.col.abs_diff(b.col) == 1
}

/// Each cell touches the one before it (a king's move: lines may go diagonally).
fn touching(cells: &[CellRef]) -> Result<(), Finding> {
    for pair in cells.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        if a.row.abs_diff(b.row) > 1 || a.col.abs_diff(b.col) > 1 {
            return Err(Finding::error(
                Code::Syntax,
                b.span,
                format!(
                    "{} and {} are not next to each other: a line goes from cell to touching cell",
                    name(a),
                    name(b)
                ),
            ));
        }
    }
    Ok(())
}

fn kinds(tokens: &[Token], end: Span) -> Result<Body, Finding> {
    if tokens.is_empty() {
        return Err(Finding::error(
            Code::Syntax,
            end,
            "'negative' names the kinds of dot that are all given: white, black, x or v",
        ));
    }
    let mut kinds: Vec<(Dot, Span)> = Vec::new();
    for token in tokens {
        let kind = match from_word(&Dot::WORDS, token.text) {
            Some(kind) => kind,
            None => {
                return Err(Finding::error(
                    Code::Syntax,
                    token.span,
                    format!(
                        "'{}' is not a kind of dot: write white, black, x or v",
                        token.text
                    ),
                ))
            }
        };
        if kinds.iter().any(|(k, _)| *k == kind) {
            return Err(Finding::error(
                Code::Syntax,
                token.span,
                format!("'{}' is named twice", token.text),
            ));
        }
        kinds.push((kind, token.span));
    }
    Ok(Body::Kinds(kinds))
}

fn clone(spec: &Spec, tokens: &[Token], end: Span) -> Result<Body, Finding> {
    let mut groups = Vec::new();
    for group in tokens.split(|t| t.text == "=") {
        let group = cells(spec, group)?;
        if group.is_empty() {
            return Err(Finding::error(
                Code::Syntax,
                tokens
                    .iter()
                    .find(|t| t.text == "=")
                    .map_or(end, |t| t.span),
                "each side of '=' names cells: 'clone: A1 A2 = F5 F6'",
            ));
        }
        groups.push(group);
    }
    if groups.len() < 2 {
        return Err(Finding::error(
            Code::Syntax,
            tokens.last().map_or(end, |t| t.span),
            "a clone is two groups of cells or more, with '=' between: 'clone: A1 A2 = F5 F6'",
        ));
    }
    let length = groups[0].len();
    if let Some(other) = groups.iter().find(|g| g.len() != length) {
        return Err(Finding::error(
            Code::Syntax,
            other[0].span,
            format!(
                "the groups of a clone have as many cells each: {length} then {}",
                other.len()
            ),
        ));
    }
    let all: Vec<CellRef> = groups.iter().flatten().copied().collect();
    no_cell_twice(spec, &all)?;
    Ok(Body::Clone(groups))
}

fn less(spec: &Spec, tokens: &[Token], end: Span) -> Result<Body, Finding> {
    match tokens {
        [a, op, b] if op.text == "<" => {
            let (a, b) = (
                cell(*a).ok_or_else(|| not_a_cell(spec, *a))?,
                cell(*b).ok_or_else(|| not_a_cell(spec, *b))?,
            );
            if !orthogonal(a, b) {
                return Err(Finding::error(
                    Code::Syntax,
                    b.span,
                    format!(
                        "an inequality joins two side-by-side cells; {} and {} are not",
                        name(a),
                        name(b)
                    ),
                ));
            }
            Ok(Body::Less(a, b))
        }
        [a, op, b] if op.text == ">" => Err(Finding::error(
            Code::Syntax,
            op.span,
            format!(
                "write the smaller cell first: 'inequality: {} < {}'",
                b.text, a.text
            ),
        )),
        _ => Err(Finding::error(
            Code::Syntax,
            tokens.first().map_or(end, |t| t.span),
            "an inequality is two cells with '<' between: 'inequality: A1 < A2'",
        )),
    }
}

fn diagonal(spec: &Spec, tokens: &[Token], end: Span) -> Result<Body, Finding> {
    let [first, way] = tokens else {
        return Err(Finding::error(
            Code::Syntax,
            tokens.first().map_or(end, |t| t.span),
            "a little killer is its diagonal's first cell and the way it goes: 'little-killer 17: A3 down-left'",
        ));
    };
    let first = cell(*first).ok_or_else(|| not_a_cell(spec, *first))?;
    let direction = match from_word(&Direction::WORDS, way.text) {
        Some(direction) => direction,
        None => {
            return Err(Finding::error(
                Code::Syntax,
                way.span,
                format!(
                    "'{}' is not a way: up-left, up-right, down-left or down-right",
                    way.text
                ),
            ))
        }
    };
    Ok(Body::Diagonal(first, direction, way.span))
}

fn outside(spec: &Spec, tokens: &[Token], end: Span) -> Result<Body, Finding> {
    let usage = || {
        format!(
            "'{}' is a side and a row or column: left or right and a row letter, top or bottom and a column number, as in '{}'",
            spec.name,
            example(spec.keyword)
        )
    };
    let [side, line] = tokens else {
        return Err(Finding::error(
            Code::Syntax,
            tokens.first().map_or(end, |t| t.span),
            usage(),
        ));
    };
    let Some(side_is) = from_word(&Side::WORDS, side.text) else {
        return Err(Finding::error(Code::Syntax, side.span, usage()));
    };
    let index = match side_is {
        Side::Left | Side::Right => match line.text.as_bytes() {
            [letter] if letter.is_ascii_alphabetic() && letter.to_ascii_uppercase() <= b'Y' => {
                Some(letter.to_ascii_uppercase() - b'A')
            }
            _ => None,
        },
        Side::Top | Side::Bottom => line
            .text
            .parse::<u8>()
            .ok()
            .filter(|c| (1..=25).contains(c) && !line.text.starts_with('0'))
            .map(|c| c - 1),
    };
    let index = index.ok_or_else(|| {
        let wanted = match side_is {
            Side::Left | Side::Right => "a row letter",
            Side::Top | Side::Bottom => "a column number",
        };
        Finding::error(
            Code::Syntax,
            line.span,
            format!(
                "'{}' is not {wanted}: {} names {wanted}",
                line.text, side.text
            ),
        )
    })?;
    Ok(Body::Outside(side_is, index, line.span))
}
