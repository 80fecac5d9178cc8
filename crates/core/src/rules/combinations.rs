//! A cage's combinations: the sets of different digits its cells can hold together, summing to
//! its total. Shared by the logic solver's cage steps and the editor's hover and completion.

/// Every set of different digits (bit `d - 1` for digit `d`), one digit per cell, that cells
/// with candidates `options` can hold together, summing to `sum` when there is one: a cage's
/// combinations. In increasing order of their digits read as a list ("1 5 9" before "1 6 8").
pub fn cage_combinations(side: usize, sum: Option<u32>, options: &[u16]) -> Vec<u16> {
    let mut found = Vec::new();
    choose(side, options.len(), 1, 0, 0, &mut |set, total| {
        if sum.is_none_or(|s| s == total) && assignable(options, set) {
            found.push(set);
        }
    });
    found
}

/// Calls `each` with every set of `left` more digits from `from` up added to `set` (whose
/// digits sum to `total`).
fn choose(
    side: usize,
    left: usize,
    from: usize,
    set: u16,
    total: u32,
    each: &mut impl FnMut(u16, u32),
) {
    if left == 0 {
        each(set, total);
        return;
    }
    for d in from..=side + 1 - left {
        choose(
            side,
            left - 1,
            d + 1,
            set | 1 << (d - 1),
            total + d as u32,
            each,
        );
    }
}

/// Whether each cell can take one digit of `set` among its candidates, all different (a
/// matching; cages are small, so plain backtracking).
fn assignable(options: &[u16], set: u16) -> bool {
    match options.split_first() {
        None => true,
        Some((&first, rest)) => {
            let mut choices = first & set;
            while choices != 0 {
                let bit = choices & choices.wrapping_neg();
                if assignable(rest, set & !bit) {
                    return true;
                }
                choices &= !bit;
            }
            false
        }
    }
}
