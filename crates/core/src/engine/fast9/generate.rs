//! Puzzles made by the fast solver itself, for benchmarks and tests that need no data files.

/// A tiny xorshift64 generator: deterministic from its seed, no dependency.
pub struct XorShift(u64);

impl XorShift {
    pub fn new(seed: u64) -> XorShift {
        // Zero is a fixed point of xorshift; mix the seed so every seed works.
        XorShift(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    // Not an `Iterator`: it never ends, and callers want one number at a time.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// Uniform enough in 0..n for shuffling (n small).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// A random solved grid: a few random givens, solved, retried until it has a solution.
pub fn random_solution(rng: &mut XorShift, diagonal: bool) -> [u8; 81] {
    loop {
        let mut givens = [0u8; 81];
        for _ in 0..11 {
            givens[rng.below(81)] = rng.below(9) as u8 + 1;
        }
        let outcome = super::solve(&givens, diagonal, 1, 100_000, None);
        if outcome.count == 1 {
            return outcome.solutions[0];
        }
    }
}

/// Remove clues of `solution` in random order as long as the puzzle stays unique.
pub fn minimal_puzzle(rng: &mut XorShift, solution: &[u8; 81], diagonal: bool) -> [u8; 81] {
    let mut puzzle = *solution;
    let mut order: Vec<usize> = (0..81).collect();
    rng.shuffle(&mut order);
    for cell in order {
        let digit = puzzle[cell];
        puzzle[cell] = 0;
        if super::solve(&puzzle, diagonal, 2, 1_000_000, None).count != 1 {
            puzzle[cell] = digit;
        }
    }
    puzzle
}

/// `count` classic puzzles with a unique solution, minimal (no clue can go), from `seed`.
pub fn generate(count: usize, seed: u64) -> Vec<[u8; 81]> {
    let mut rng = XorShift::new(seed);
    (0..count)
        .map(|_| {
            let solution = random_solution(&mut rng, false);
            minimal_puzzle(&mut rng, &solution, false)
        })
        .collect()
}
