/**
 * @file A tree-sitter grammar for `.sudoku` puzzle files, read as sudoku-lsp reads them
 * (see puzzles/README.md and crates/core/src/format/ in the sudoku-lsp repository).
 *
 * Line by line: the external scanner (src/scanner.c) sorts each line into the kind the
 * project's parser reads it as (one-line puzzle, line of pencil-mark places, grid row,
 * pencil-mark row, border, metadata, constraint, free text), which takes counting a grammar cannot do,
 * and the rules below read each kind. Like the project's parser it is lenient: any text
 * parses, a character that is no cell being a `stray` rather than an error.
 */

/// <reference types="tree-sitter-cli/dsl" />
// @ts-check

const DIGIT = /[1-9A-Pa-p]/;

module.exports = grammar({
  name: 'sudoku',

  // Whitespace separates cells (the same characters as the scanner's is_space, and a
  // byte-order mark); line breaks are the scanner's, as they end lines.
  extras: _ => [/[ \t\f\v\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/],

  externals: $ => [
    $._line_end,
    $._blank_line,
    $._metadata_start,
    $._one_line_start,
    $._places_start,
    $._row_start,
    $._marks_row_start,
    $._first_row_start,
    $._first_marks_row_start,
    $._comment_start,
    $._border_start,
    $._text_start,
    $._rule_start,
    $.free_text,
    $._error_sentinel,
  ],

  rules: {
    source_file: $ => repeat(choice(
      $._blank_line,
      $.header,
      $.puzzle,
      $.text,
    )),

    // Comment, metadata and constraint lines together: the file's metadata block, or a
    // puzzle's own lines right above it.
    header: $ => prec.right(repeat1(choice(
      $.metadata,
      $.constraint,
      seq($._comment_start, $.comment, $._line_end),
    ))),

    // A constraint line of a variant puzzle (crates/core/src/format/rules.rs): its keyword, a
    // value (`cage 15:`), then after a `:` its cells and words (`arrow: E5 > D4`,
    // `little-killer 17: A3 down-left`, `sandwich 12: top 3`).
    constraint: $ => seq(
      $._rule_start,
      field('keyword', $.keyword),
      optional(field('value', $.rule_value)),
      optional(seq(':', repeat(choice($.cell, $.operator, alias($.keyword, $.word), $.number, $.stray)))),
      optional($.comment),
      $._line_end,
    ),
    keyword: _ => /[A-Za-z][A-Za-z-]*/,
    rule_value: _ => token(choice(/[0-9A-Za-z]+/, '/', '\\')),
    cell: _ => token(prec(1, /[A-Ya-y][0-9][0-9]?/)),
    number: _ => /[0-9]+/,
    operator: _ => choice('>', '<', '='),

    // A puzzle: its header, then a block of grid rows (the scanner tells the first row of a
    // block from the next ones, counting them against the first row's width) and border lines,
    // a one-line puzzle or a line of places.
    puzzle: $ => prec.right(1, seq(
      optional($.header),
      choice(
        seq(
          repeat($.border),
          alias($._first_row, $.row),
          prec.right(repeat(choice($.row, $.border))),
        ),
        prec.right(repeat1($.border)),
        $.one_line,
        $.places_line,
      ),
    )),

    metadata: $ => seq(
      $._metadata_start,
      '#',
      field('key', $.key),
      ':',
      optional(field('value', $.value)),
      $._line_end,
    ),
    key: _ => /[A-Za-z][A-Za-z0-9_-]*/,
    value: _ => /[^\s]([^\r\n]*[^\s])?/,

    comment: _ => token(seq('#', /[^\r\n]*/)),

    // A grid row: its cells, `|` separators, stray characters, a trailing comment; or a
    // pencil-mark row, where a group of several digits is one cell's candidates.
    row: $ => choice(
      seq($._row_start, $._row_rest),
      seq($._marks_row_start, $._marks_row_rest),
    ),
    _first_row: $ => choice(
      seq($._first_row_start, $._row_rest),
      seq($._first_marks_row_start, $._marks_row_rest),
    ),
    _row_rest: $ => seq(repeat1($._row_item), optional($.comment), $._line_end),
    _marks_row_rest: $ => seq(repeat1(choice($._row_item, $.marks)), optional($.comment), $._line_end),
    _row_item: $ => choice($._cell, $.separator, $.stray),
    _cell: $ => choice($.given, $.empty, $.entry),

    given: _ => DIGIT,
    empty: _ => /[._0]/,
    // A solver's entry, `+8`: the `+` then the digit.
    entry: _ => token(seq('+', DIGIT)),
    marks: _ => token(seq(DIGIT, repeat1(DIGIT))),
    separator: _ => '|',
    stray: _ => token(prec(-1, /[^\s|#]/)),

    // A border line such as `------+-------+------` or HoDoKu's `.---.`.
    border: $ => seq(
      $._border_start,
      // (only border characters and whitespace, as the scanner found)
      optional(/[^\s#]([^\r\n#]*[^\s#])?/),
      optional($.comment),
      $._line_end,
    ),

    // N² cells with nothing between them (81 for a 9×9), then free text.
    one_line: $ => seq(
      $._one_line_start,
      repeat1($._cell),
      optional($.free_text),
      optional($.comment),
      $._line_end,
    ),

    // N³ places (729 for a 9×9): each cell's candidates, then free text.
    places_line: $ => seq(
      $._places_start,
      $.places,
      optional($.free_text),
      optional($.comment),
      $._line_end,
    ),
    places: _ => /[1-9A-Pa-p._0]+/,

    // A line that is no row at all (a title that lacks its `#`, say).
    text: $ => seq(
      $._text_start,
      optional(alias(/[^\s#][^\r\n#]*/, $.content)),
      optional($.comment),
      $._line_end,
    ),
  },
});
