; A fold per puzzle (its header and its rows) and per block of comment and metadata lines.
(puzzle) @fold
(header) @fold
