// The external scanner of the .sudoku grammar: it sorts each line into the kind the project's
// parser (crates/core/src/format/lines.rs and parse.rs) would read it as, which needs counting that a
// context-free grammar cannot do (a one-line puzzle is exactly N² cells, a line of places N³,
// for N = 4 to 16 or 25; a pencil-mark row has as many
// groups as the grid's side). At the start of a line it looks the whole line over without
// consuming it and returns a zero-width marker saying which kind it is; the grammar then reads
// the line with the tokens of that kind. It also ends lines (a line break, or the end of the
// file) and reads the free text after a one-line puzzle. A constraint line of a variant puzzle
// (`cage 15: A1 A2`, `antiknight`) is told by its keyword, as rules.rs tells it. Its state is the grid block being
// read: its side (the first row's width) and how many rows it has had, so that a row past the
// side starts a new block, as in parse.rs (two grids written back to back are two puzzles).

#include "tree_sitter/parser.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum TokenType {
  LINE_END,
  BLANK_LINE,
  METADATA_START,
  ONE_LINE_START,
  PLACES_START,
  ROW_START,
  MARKS_ROW_START,
  FIRST_ROW_START,
  FIRST_MARKS_ROW_START,
  COMMENT_START,
  BORDER_START,
  TEXT_START,
  RULE_START,
  FREE_TEXT,
  ERROR_SENTINEL,
};

// The grid block being read.
typedef struct {
  // The side the first row gave (its cells, or a pencil-mark row's groups); 0 outside a block,
  // UNBOUNDED when the first row's width is no side (such a block goes on until a break).
  uint8_t side;
  // The rows read so far (borders are not rows).
  uint8_t rows;
} Block;

#define UNBOUNDED 255

void *tree_sitter_sudoku_external_scanner_create(void) {
  return calloc(1, sizeof(Block));
}
void tree_sitter_sudoku_external_scanner_destroy(void *payload) { free(payload); }
unsigned tree_sitter_sudoku_external_scanner_serialize(void *payload, char *buffer) {
  Block *block = payload;
  buffer[0] = (char)block->side;
  buffer[1] = (char)block->rows;
  return 2;
}
void tree_sitter_sudoku_external_scanner_deserialize(void *payload, const char *buffer,
                                                     unsigned length) {
  Block *block = payload;
  block->side = length >= 2 ? (uint8_t)buffer[0] : 0;
  block->rows = length >= 2 ? (uint8_t)buffer[1] : 0;
}

static bool is_newline(int32_t c) { return c == '\n' || c == '\r'; }

// Whitespace other than line breaks, as Rust's char::is_whitespace sees it.
static bool is_space(int32_t c) {
  return c == ' ' || c == '\t' || c == 0x0b || c == 0x0c || c == 0x85 || c == 0xa0 ||
         c == 0x1680 || (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 ||
         c == 0x202f || c == 0x205f || c == 0x3000 || c == 0xfeff; // and a byte-order mark
}

// The value of a cell character: 0 for an empty mark, the digit (letters from 10), -1 if none.
static int cell_value(int32_t c) {
  if (c >= '1' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'P') return c - 'A' + 10;
  if (c >= 'a' && c <= 'p') return c - 'a' + 10;
  if (c == '.' || c == '0' || c == '_') return 0;
  return -1;
}

static bool is_border_char(int32_t c) {
  return c == '-' || c == '+' || c == '|' || c == '=' || c == '*' || c == ':' || c == '.' ||
         c == '\'';
}

static bool is_one_line_count(unsigned n) {
  return n == 16 || n == 25 || n == 36 || n == 49 || n == 64 || n == 81 || n == 100 ||
         n == 121 || n == 144 || n == 169 || n == 196 || n == 225 || n == 256 || n == 625;
}

static bool is_places_count(unsigned n) {
  return n == 64 || n == 125 || n == 216 || n == 343 || n == 512 || n == 729 || n == 1000 ||
         n == 1331 || n == 1728 || n == 2197 || n == 2744 || n == 3375 || n == 4096 ||
         n == 15625;
}

static bool is_side(unsigned n) {
  return (n >= 4 && n <= 16) || n == 25;
}

// What one look over a line found; the fields mirror CellLine in crates/core/src/format/lines.rs.
typedef struct {
  bool blank;
  bool comment;
  bool border;
  unsigned slots;
  unsigned strays;
  // The leading run of cells with nothing between them, when it is a one-line puzzle's or a
  // line of places' count and is followed by the end of the line, whitespace or `#`; else 0.
  unsigned run;
  unsigned run_max;
  unsigned all_max;
  unsigned groups;
  bool marks_ok;
  bool prose;
  // A constraint line's form (crates/core/src/format/rules.rs): the leading word (letters and
  // `-`, lower case, empty if too long to be a keyword), whether a `:` follows it (after at most
  // one value), and whether it stands alone (or, for `diagonal`, with a lone `/` or `\`).
  char word[16];
  bool word_colon;
  bool word_alone;
} Line;

// The constraint keywords (rules.rs's SPECS); the first six are rules of the whole grid,
// written alone on their line.
static const char *const KEYWORDS[] = {
    "antiknight", "antiking", "nonconsecutive", "disjoint", "windoku", "diagonal", "negative",
    "regions", "extra-region", "cage", "arrow", "double-arrow", "little-killer", "region-sum",
    "zipper", "sandwich", "x-sum", "skyscraper", "white", "black", "x", "v", "inequality",
    "thermo", "slow-thermo", "whisper", "renban", "palindrome", "between", "lockout", "entropic",
    "modular", "nabner", "even", "odd", "minimum", "maximum", "candidates", "quad", "clone",
    "row-index", "column-index", "box-index",
};
#define FLAGS 6

// Where the watch for a constraint line's form is, character by character.
enum WordStep { WORD_START, IN_WORD, AFTER_WORD, IN_VALUE, AFTER_VALUE, AFTER_SLASH, WORD_DONE };
typedef struct {
  enum WordStep step;
  unsigned len;
  // Blanks came between the word and what follows it.
  bool spaced;
} Word;

static bool is_letter(int32_t c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

// Watches one more character of the line (`\n` at its end, or `#`) for the constraint form:
// the word, then blanks, then either a `:`, the end, a lone `/` or `\`, or one value and a `:`.
static void watch_word(Word *w, Line *line, int32_t c) {
  bool space = c == ' ' || c == '\t' || c == '\f' || c == '\v';
  bool end = c == '\n' || c == '#';
  switch (w->step) {
  case WORD_START:
  case IN_WORD:
    if (is_letter(c) || (w->step == IN_WORD && c == '-')) {
      if (w->len + 1 < sizeof line->word) line->word[w->len] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
      w->len++;
      w->step = IN_WORD;
      return;
    }
    if (w->step == WORD_START || w->len + 1 >= sizeof line->word) {
      line->word[0] = 0;
      w->step = WORD_DONE;
      return;
    }
    line->word[w->len] = 0;
    w->step = AFTER_WORD;
    // fall through
  case AFTER_WORD:
    if (space) {
      w->spaced = true;
    } else if (c == ':') {
      line->word_colon = true;
      w->step = WORD_DONE;
    } else if (end) {
      line->word_alone = true;
      w->step = WORD_DONE;
    } else if (!w->spaced) {
      w->step = WORD_DONE;
    } else if ((c == '/' || c == '\\') && strcmp(line->word, "diagonal") == 0) {
      w->step = AFTER_SLASH;
    } else {
      w->step = IN_VALUE;
    }
    return;
  case IN_VALUE:
    if (c == ':') {
      line->word_colon = true;
      w->step = WORD_DONE;
    } else if (space) {
      w->step = AFTER_VALUE;
    } else if (end) {
      w->step = WORD_DONE;
    }
    return;
  case AFTER_VALUE:
    if (!space) {
      line->word_colon = c == ':';
      w->step = WORD_DONE;
    }
    return;
  case AFTER_SLASH:
    if (!space) {
      line->word_alone = end;
      w->step = WORD_DONE;
    }
    return;
  case WORD_DONE:
    return;
  }
}

// Whether the line is a constraint line as rules.rs reads one: a keyword then `:`, or a flag
// alone.
static bool is_rule(const Line *line) {
  if (line->word[0] == 0) return false;
  for (unsigned k = 0; k < sizeof KEYWORDS / sizeof KEYWORDS[0]; k++) {
    if (strcmp(line->word, KEYWORDS[k]) == 0) return line->word_colon || (k < FLAGS && line->word_alone);
  }
  return false;
}

static void advance(TSLexer *lexer) { lexer->advance(lexer, false); }

// Reads the rest of the line (up to, not over, its line break), starting at its first
// non-blank character.
static Line scan_line(TSLexer *lexer) {
  Line line = {0};
  line.marks_ok = true;
  int32_t c = lexer->lookahead;
  if (lexer->eof(lexer) || is_newline(c)) {
    line.blank = true;
    return line;
  }
  if (c == '#') {
    line.comment = true;
    while (!lexer->eof(lexer) && !is_newline(lexer->lookahead)) advance(lexer);
    return line;
  }
  // The constraint form is watched for as the line goes by (the scan cannot go back).
  Word word = {WORD_START, 0, false};
  // Border: only border characters and whitespace before any comment, three `-` or `=`.
  bool border_ok = true;
  unsigned rules = 0;
  // The leading run of cells, for one-line puzzles; it ends at the first non-cell.
  bool in_run = true;
  unsigned run = 0;
  // The current group of side-by-side cells, and the current run of stray characters.
  unsigned group_len = 0, group_empties = 0;
  bool in_group = false, in_stray = false;
  // Letters in a row, for prose.
  unsigned letters = 0;
  bool beyond_p = false;
  while (!lexer->eof(lexer) && !is_newline(lexer->lookahead)) {
    c = lexer->lookahead;
    watch_word(&word, &line, c);
    if (c == '#') break; // nothing after a comment counts
    if (border_ok) {
      if (c == '-' || c == '=') rules++;
      else if (!is_border_char(c) && !is_space(c)) border_ok = false;
    }
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) {
      letters++;
      if (cell_value(c) < 0) beyond_p = true;
      if (letters >= 3 && beyond_p) line.prose = true;
    } else {
      letters = 0;
      beyond_p = false;
    }
    int value = cell_value(c);
    bool entry = false;
    advance(lexer);
    if (c == '+') {
      // A `+` right before a digit makes it an entry, one cell; before anything else it is a
      // stray character.
      int next = cell_value(lexer->lookahead);
      if (next > 0) {
        value = next;
        entry = true;
        letters = 0; // (a letter digit after `+` is counted in no word)
        advance(lexer);
      }
    }
    if (value >= 0) {
      if (in_run) {
        run++;
        if ((unsigned)value > line.run_max) line.run_max = (unsigned)value;
      }
      line.slots++;
      if ((unsigned)value > line.all_max) line.all_max = (unsigned)value;
      if (!in_group) {
        line.groups++;
        group_len = 0;
        group_empties = 0;
      }
      in_group = true;
      in_stray = false;
      group_len++;
      if (value == 0) group_empties++;
      if (entry && !in_run) line.marks_ok = false; // an entry is no pencil mark
      continue;
    }
    if (in_run) {
      if (!is_space(c)) run = 0; // the run does not end well: no one-line puzzle
      in_run = false;
    }
    if (in_group && group_empties > 0 && group_len > 1) line.marks_ok = false;
    in_group = false;
    if (is_space(c) || c == '|') {
      in_stray = false;
    } else if (!in_stray) {
      in_stray = true;
      line.slots++;
      line.strays++;
      line.marks_ok = false;
    }
  }
  while (!lexer->eof(lexer) && !is_newline(lexer->lookahead)) advance(lexer);
  watch_word(&word, &line, '\n');
  if (in_group && group_empties > 0 && group_len > 1) line.marks_ok = false;
  line.border = border_ok && rules >= 3;
  if (!is_one_line_count(run) && !is_places_count(run)) run = 0;
  line.run = run;
  if (run > 0) line.prose = false; // a one-line puzzle's free text may say anything
  return line;
}

static bool is_marks_row(const Line *line) {
  return line->marks_ok && is_side(line->groups) && line->slots > line->groups &&
         line->all_max <= line->groups;
}

// Moves over one line break, if the lexer is at one.
static void skip_newline(TSLexer *lexer) {
  if (lexer->lookahead == '\r') advance(lexer);
  if (lexer->lookahead == '\n') advance(lexer);
}

static void skip_spaces(TSLexer *lexer) {
  while (!lexer->eof(lexer) && is_space(lexer->lookahead)) advance(lexer);
}

// A 16-cell run is a 4×4 one-line puzzle unless it or one of the 16-cell lines right after it
// (up to 16, borders between skipped) holds a digit above 4: then they are a 16×16 grid's rows.
// So is a 25-cell run a 5×5's, unless a digit above 5 makes them a 25×25's.
static bool square_is_one_liner(TSLexer *lexer, const Line *first) {
  unsigned side = first->run, limit = side == 16 ? 4 : 5;
  if (first->run_max > limit) return false;
  for (unsigned k = 1; k < side;) {
    if (lexer->eof(lexer)) return true;
    skip_newline(lexer);
    skip_spaces(lexer);
    Line next = scan_line(lexer);
    if (next.border) continue;
    unsigned width = next.run > 0 ? next.run : next.slots;
    if (next.blank || next.comment || width != side) return true;
    unsigned max = next.run > 0 ? next.run_max : next.all_max;
    if (max > limit) return false;
    k++;
  }
  return true;
}

// Whether a comment line is `# key: value` metadata (crates/core/src/format/meta.rs): `#`, a key
// `[A-Za-z][A-Za-z0-9_-]*`, a colon followed by whitespace or the end of the line.
static bool is_metadata(TSLexer *lexer) {
  advance(lexer); // '#'
  skip_spaces(lexer);
  int32_t c = lexer->lookahead;
  if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) return false;
  while (true) {
    c = lexer->lookahead;
    bool key = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '-';
    if (!key) break;
    advance(lexer);
  }
  skip_spaces(lexer);
  if (lexer->lookahead != ':') return false;
  advance(lexer);
  return lexer->eof(lexer) || is_newline(lexer->lookahead) || is_space(lexer->lookahead);
}

bool tree_sitter_sudoku_external_scanner_scan(void *payload, TSLexer *lexer,
                                              const bool *valid_symbols) {
  Block *block = payload;
  bool recovering = valid_symbols[ERROR_SENTINEL];
  bool had_space = false;
  while (!lexer->eof(lexer) && is_space(lexer->lookahead)) {
    lexer->advance(lexer, true);
    had_space = true;
  }
  bool at_end = lexer->eof(lexer) || is_newline(lexer->lookahead);

  if (valid_symbols[LINE_END] && at_end) {
    skip_newline(lexer);
    lexer->result_symbol = LINE_END;
    return true;
  }
  if (recovering) return false;

  if (valid_symbols[FREE_TEXT] && had_space && !at_end && lexer->lookahead != '#') {
    while (!lexer->eof(lexer) && !is_newline(lexer->lookahead)) {
      bool space = is_space(lexer->lookahead);
      advance(lexer);
      if (!space) lexer->mark_end(lexer);
    }
    lexer->result_symbol = FREE_TEXT;
    return true;
  }

  if (!valid_symbols[FIRST_ROW_START]) return false;
  // The start of a line.
  if (lexer->eof(lexer)) return false;
  if (is_newline(lexer->lookahead)) {
    if (!valid_symbols[BLANK_LINE]) return false;
    skip_newline(lexer);
    block->side = 0; // a blank line ends a block
    lexer->result_symbol = BLANK_LINE;
    return true;
  }
  lexer->mark_end(lexer); // every marker below is zero-width
  if (lexer->lookahead == '#') {
    // A comment line, metadata or not, ends a block.
    block->side = 0;
    lexer->result_symbol = is_metadata(lexer) ? METADATA_START : COMMENT_START;
    return true;
  }
  Line line = scan_line(lexer);
  if (is_rule(&line)) {
    block->side = 0; // a constraint line ends a block, as a comment does
    lexer->result_symbol = RULE_START;
    return true;
  }
  bool in_block = block->side != 0 && (block->side == UNBOUNDED || block->rows < block->side);
  if (line.border || line.slots == 0) {
    lexer->result_symbol = BORDER_START; // borders neither count nor end a block
    return true;
  }
  if (line.slots == line.strays || (line.run == 0 && (line.strays > 3 || line.prose))) {
    block->side = 0;
    lexer->result_symbol = TEXT_START;
    return true;
  }
  // 64 cells are a 4×4's line of places, or an 8×8 one-line puzzle when a digit is above 4.
  if (is_places_count(line.run) && !(line.run == 64 && line.run_max > 4)) {
    block->side = 0;
    lexer->result_symbol = PLACES_START;
    return true;
  }
  // Inside a 16×16 or 25×25 block a 16- or 25-cell line is its next row.
  bool square = line.run == 16 || line.run == 25;
  bool row_of_block = in_block && square && block->side == line.run;
  if (is_one_line_count(line.run) && !row_of_block &&
      (!square || (!is_marks_row(&line) && square_is_one_liner(lexer, &line)))) {
    block->side = 0;
    lexer->result_symbol = ONE_LINE_START;
    return true;
  }
  bool marks = is_marks_row(&line);
  if (in_block) {
    block->rows++;
    lexer->result_symbol = marks ? MARKS_ROW_START : ROW_START;
    return true;
  }
  unsigned width = marks ? line.groups : (line.run > 0 ? line.run : line.slots);
  block->side = is_side(width) ? (uint8_t)width : UNBOUNDED;
  block->rows = 1;
  lexer->result_symbol = marks ? FIRST_MARKS_ROW_START : FIRST_ROW_START;
  return true;
}
