//! What a finder returns: a `Step` — the technique, its difficulty on Sudoku Explainer's scale,
//! what it places and eliminates, the pattern behind it, and how to say it.

use std::fmt;

use crate::engine::Digits;
use crate::grid::{digit_char, Geometry};

/// A digit in a cell: a placement or an elimination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Candidate {
    pub cell: u16,
    pub digit: u8,
}

impl Candidate {
    pub fn new(cell: usize, digit: u8) -> Candidate {
        Candidate {
            cell: cell as u16,
            digit,
        }
    }
}

/// A difficulty on Sudoku Explainer's scale (1.0 to 11+), kept in tenths so it compares exactly.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Difficulty(pub u16);

impl Difficulty {
    pub fn tenths(tenths: u16) -> Difficulty {
        Difficulty(tenths)
    }
    pub fn as_f64(self) -> f64 {
        f64::from(self.0) / 10.0
    }
}

impl fmt::Display for Difficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.0 / 10, self.0 % 10)
    }
}

/// Every technique the solver knows, simplest first within each family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Technique {
    FullHouse,
    HiddenSingle,
    NakedSingle,
    DirectPointing,
    DirectClaiming,
    DirectHiddenPair,
    DirectHiddenTriple,
    Pointing,
    Claiming,
    NakedPair,
    NakedTriple,
    NakedQuad,
    HiddenPair,
    HiddenTriple,
    HiddenQuad,
    XWing,
    Swordfish,
    Jellyfish,
    FinnedXWing,
    FinnedSwordfish,
    FinnedJellyfish,
    SashimiXWing,
    SashimiSwordfish,
    SashimiJellyfish,
    Skyscraper,
    TwoStringKite,
    TurbotCrane,
    GroupedSkyscraper,
    GroupedTwoStringKite,
    GroupedTurbotCrane,
    TurbotFish,
    EmptyRectangle,
    XyWing,
    XyzWing,
    WxyzWing,
    ThreeSkyscrapers,
    StrongLinksWithBoxes,
    ThreeStringKite,
    GroupedStrongLinks,
    VwxyzWing,
    WWing,
    UniqueRectangle,
    UniqueLoop,
    Bug,
    AlignedPairExclusion,
    AlignedTripleExclusion,
    SimpleColouring,
    XChain,
    XCycle,
    YCycle,
    XyChain,
    Aic,
    SueDeCoq,
    AlsXz,
    // Sudoku Explainer's chaining hints, by the names its rater prints (`%R`); the number is the
    // nesting level (0 plain dynamic, 1 "(+)", 2 "(+ Forcing Chains)", 3 "(+ Multiple Forcing
    // Chains)", 4 "(+ Dynamic Forcing Chains)").
    BidirectionalXCycle,
    GeneralizedXWing,
    BidirectionalYCycle,
    BidirectionalCycle,
    ForcingXChain,
    TurbotFishChain,
    ForcingXyChain,
    NishioForcingChains,
    CellForcingChains,
    RegionForcingChains,
    DynamicContradiction(u8),
    DynamicDouble(u8),
    DynamicCell(u8),
    DynamicRegion(u8),
    // A variant puzzle's own deductions (`constraints.rs`), on the project's variant scale.
    /// What one constraint by itself rules out of its cells.
    Rule(RuleFamily),
    /// Innies and outies: whole houses against the cages inside them.
    FortyFiveRule,
    /// A digit whose weak links, a rule's among them, leave another cell no digit or a house
    /// no place for a digit.
    RuleForcing,
    /// A digit that, placed, leads by singles and the rules' own deductions to a contradiction.
    RuleContradiction,
}

/// The families of variant constraints, as their deductions are named and rated: one family
/// per way of thinking a solver uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RuleFamily {
    /// A rule of a cell alone: even, odd, listed candidates, a minimum or maximum.
    Cell,
    /// Two cells related by a dot (kropki, X, V), or the negative rule of absent dots.
    Dot,
    /// Digits increasing along a thermometer or across an inequality sign.
    Order,
    /// A cage's sum and its different digits: the killer combinations.
    Cage,
    /// An arrow's circle summing its shaft.
    Arrow,
    /// A line's rule: whispers, renban, palindrome, between, lockout, region sums and the rest.
    Line,
    /// A clue outside the grid: little killer, sandwich, X-sum, skyscraper.
    Outside,
}

impl RuleFamily {
    /// Its place on the variant scale: the rule of a single cell first, clues read from
    /// outside the grid last. Singles keep Sudoku Explainer's 1.0 to 2.3 and the house
    /// techniques theirs, so that a step reading one rule sits with the singles and locked
    /// candidates a person would look for beside it.
    pub fn difficulty(self) -> Difficulty {
        Difficulty::tenths(match self {
            RuleFamily::Cell => 10,
            RuleFamily::Dot | RuleFamily::Order => 15,
            RuleFamily::Cage | RuleFamily::Arrow | RuleFamily::Line => 20,
            RuleFamily::Outside => 25,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            RuleFamily::Cell => "Cell rule",
            RuleFamily::Dot => "Dot pairs",
            RuleFamily::Order => "Thermometer order",
            RuleFamily::Cage => "Cage combinations",
            RuleFamily::Arrow => "Arrow sum",
            RuleFamily::Line => "Line rule",
            RuleFamily::Outside => "Outside clue",
        }
    }
}

/// Sudoku Explainer's names of dynamic chains, by kind then level.
const DYNAMIC_NAMES: [[&str; 5]; 4] = [
    [
        "Dynamic Contradiction Forcing Chains",
        "Dynamic Contradiction Forcing Chains (+)",
        "Dynamic Contradiction Forcing Chains (+ Forcing Chains)",
        "Dynamic Contradiction Forcing Chains (+ Multiple Forcing Chains)",
        "Dynamic Contradiction Forcing Chains (+ Dynamic Forcing Chains)",
    ],
    [
        "Dynamic Double Forcing Chains",
        "Dynamic Double Forcing Chains (+)",
        "Dynamic Double Forcing Chains (+ Forcing Chains)",
        "Dynamic Double Forcing Chains (+ Multiple Forcing Chains)",
        "Dynamic Double Forcing Chains (+ Dynamic Forcing Chains)",
    ],
    [
        "Dynamic Cell Forcing Chains",
        "Dynamic Cell Forcing Chains (+)",
        "Dynamic Cell Forcing Chains (+ Forcing Chains)",
        "Dynamic Cell Forcing Chains (+ Multiple Forcing Chains)",
        "Dynamic Cell Forcing Chains (+ Dynamic Forcing Chains)",
    ],
    [
        "Dynamic Region Forcing Chains",
        "Dynamic Region Forcing Chains (+)",
        "Dynamic Region Forcing Chains (+ Forcing Chains)",
        "Dynamic Region Forcing Chains (+ Multiple Forcing Chains)",
        "Dynamic Region Forcing Chains (+ Dynamic Forcing Chains)",
    ],
];

impl Technique {
    /// The name solvers use, as Sudoku Explainer and HoDoKu print it.
    pub fn name(self) -> &'static str {
        use Technique::*;
        match self {
            Rule(family) => family.name(),
            FortyFiveRule => "45 rule",
            RuleForcing => "Forcing by the rules",
            RuleContradiction => "Contradiction by the rules",
            FullHouse => "Full house",
            HiddenSingle => "Hidden single",
            NakedSingle => "Naked single",
            DirectPointing => "Direct pointing",
            DirectClaiming => "Direct claiming",
            DirectHiddenPair => "Direct hidden pair",
            DirectHiddenTriple => "Direct hidden triple",
            Pointing => "Pointing",
            Claiming => "Claiming",
            NakedPair => "Naked pair",
            NakedTriple => "Naked triple",
            NakedQuad => "Naked quad",
            HiddenPair => "Hidden pair",
            HiddenTriple => "Hidden triple",
            HiddenQuad => "Hidden quad",
            XWing => "X-wing",
            Swordfish => "Swordfish",
            Jellyfish => "Jellyfish",
            FinnedXWing => "Finned X-wing",
            FinnedSwordfish => "Finned swordfish",
            FinnedJellyfish => "Finned jellyfish",
            SashimiXWing => "Sashimi X-wing",
            SashimiSwordfish => "Sashimi swordfish",
            SashimiJellyfish => "Sashimi jellyfish",
            Skyscraper => "Skyscraper",
            TwoStringKite => "Two-string kite",
            TurbotCrane => "Turbot crane",
            GroupedSkyscraper => "Grouped skyscraper",
            GroupedTwoStringKite => "Grouped two-string kite",
            GroupedTurbotCrane => "Grouped turbot crane",
            TurbotFish => "Turbot fish",
            EmptyRectangle => "Empty rectangle",
            XyWing => "XY-wing",
            XyzWing => "XYZ-wing",
            WxyzWing => "WXYZ-wing",
            ThreeSkyscrapers => "3 skyscrapers",
            StrongLinksWithBoxes => "3 strong links with boxes",
            ThreeStringKite => "3-string kite",
            GroupedStrongLinks => "Grouped 3 strong links",
            VwxyzWing => "VWXYZ-wing",
            WWing => "W-wing",
            UniqueRectangle => "Unique rectangle",
            UniqueLoop => "Unique loop",
            Bug => "BUG",
            AlignedPairExclusion => "Aligned pair exclusion",
            AlignedTripleExclusion => "Aligned triple exclusion",
            SimpleColouring => "Simple colouring",
            XChain => "X-chain",
            XCycle => "X-cycle",
            YCycle => "Y-cycle",
            XyChain => "XY-chain",
            Aic => "AIC",
            SueDeCoq => "Sue de Coq",
            AlsXz => "ALS-XZ",
            BidirectionalXCycle => "Bidirectional X-Cycle",
            GeneralizedXWing => "Generalized X-Wing",
            BidirectionalYCycle => "Bidirectional Y-Cycle",
            BidirectionalCycle => "Bidirectional Cycle",
            ForcingXChain => "Forcing X-Chain",
            TurbotFishChain => "Turbot Fish",
            ForcingXyChain => "Forcing Chain",
            NishioForcingChains => "Nishio Forcing Chains",
            CellForcingChains => "Cell Forcing Chains",
            RegionForcingChains => "Region Forcing Chains",
            DynamicContradiction(l) => DYNAMIC_NAMES[0][(l as usize).min(4)],
            DynamicDouble(l) => DYNAMIC_NAMES[1][(l as usize).min(4)],
            DynamicCell(l) => DYNAMIC_NAMES[2][(l as usize).min(4)],
            DynamicRegion(l) => DYNAMIC_NAMES[3][(l as usize).min(4)],
        }
    }

    /// The difficulty of a technique only variant puzzles have, on the variant scale (the
    /// other techniques carry Sudoku Explainer's in each step).
    pub fn variant_difficulty(self) -> Difficulty {
        match self {
            Technique::Rule(family) => family.difficulty(),
            Technique::FortyFiveRule => Difficulty::tenths(28),
            Technique::RuleForcing => Difficulty::tenths(29),
            Technique::RuleContradiction => Difficulty::tenths(60),
            _ => Difficulty::default(),
        }
    }

    /// A stable identifier for JSON and settings: the name in kebab case.
    pub fn id(self) -> String {
        let mut id = String::new();
        for c in self.name().chars() {
            match c {
                'A'..='Z' | 'a'..='z' | '0'..='9' => id.push(c.to_ascii_lowercase()),
                ' ' | '-' if !id.ends_with('-') => id.push('-'),
                '+' => id.push_str("plus"),
                _ => {}
            }
        }
        id.trim_end_matches('-').to_string()
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Sudoku Explainer's length increment: one for each threshold 4, 6, 8, 12, 16, 24, 32, … that
/// `length` exceeds.
pub(crate) fn length_steps(length: usize) -> u16 {
    let mut steps = 0;
    let mut ceil = 4;
    let mut odd = false;
    while length > ceil {
        steps += 1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    steps
}

/// One deduction, with what a person needs to follow it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub technique: Technique,
    pub difficulty: Difficulty,
    pub placements: Vec<Candidate>,
    pub eliminations: Vec<Candidate>,
    /// The cells of the pattern (not those it changes), for highlighting and for the first hint.
    pub cells: Vec<u16>,
    /// The units the pattern lives in, most telling first.
    pub units: Vec<u16>,
    /// The digits the pattern is about.
    pub digits: Digits,
    /// The sentence that says it, e.g. `Naked pair {3, 7} in row E (E2, E8): 3 and 7 leave E1, E5`.
    pub text: String,
}

impl Step {
    /// Whether the step changes anything (a finder never returns one that does not).
    pub fn is_productive(&self) -> bool {
        !(self.placements.is_empty() && self.eliminations.is_empty())
    }

    /// The hint at a level: 1 where to look, 2 which technique, 3 the whole step.
    pub fn hint(&self, geo: &Geometry, level: u8) -> String {
        let place = match (self.units.first(), self.cells.first()) {
            (Some(&unit), _) => geo.unit_name(unit as usize),
            (None, Some(&cell)) => geo.cell_name(cell as usize),
            (None, None) => "the whole grid".to_string(),
        };
        if matches!(self.technique, Technique::Rule(_)) {
            // A constraint step's text opens with the constraint's label ("Cage 10 at B1 B2").
            let label = self.text.split(" can ").next().unwrap_or_default();
            let label = label.split(" allows ").next().unwrap_or_default();
            let mut chars = label.chars();
            let label: String = match chars.next() {
                Some(first) => first.to_lowercase().chain(chars).collect(),
                None => String::new(),
            };
            return match level {
                1 => format!("look at {label}"),
                2 => format!("look at which digits {label} allows"),
                _ => self.text.clone(),
            };
        }
        match level {
            1 => format!("look at {place}"),
            2 => format!(
                "look for a {} in {place}",
                self.technique.name().to_lowercase()
            ),
            _ => self.text.clone(),
        }
    }

    /// Whether the step places or eliminates in `cell`, or has it in its pattern.
    pub fn touches(&self, cell: usize) -> bool {
        let cell = cell as u16;
        self.placements.iter().any(|c| c.cell == cell)
            || self.eliminations.iter().any(|c| c.cell == cell)
            || self.cells.contains(&cell)
    }
}

/// Sentence pieces shared by the finders.
pub(super) mod say {
    use super::*;

    /// "E2, E8"
    pub(crate) fn cells(geo: &Geometry, cells: impl IntoIterator<Item = usize>) -> String {
        let names: Vec<String> = cells.into_iter().map(|c| geo.cell_name(c)).collect();
        names.join(", ")
    }

    /// "3 and 7", "1, 4 and 9"
    pub(crate) fn digits(digits: Digits) -> String {
        let list: Vec<String> = digits.iter().map(|d| digit_char(d).to_string()).collect();
        match list.split_last() {
            None => String::new(),
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        }
    }

    /// ": 3 and 7 leave E1, E5; 4 leaves C2" — eliminations grouped by digit, in digit order.
    pub(crate) fn eliminations(geo: &Geometry, eliminations: &[Candidate]) -> String {
        let mut by_cells: Vec<(Digits, Vec<u16>)> = Vec::new();
        let mut digits: Vec<u8> = eliminations.iter().map(|e| e.digit).collect();
        digits.sort_unstable();
        digits.dedup();
        for d in digits {
            let mut cells: Vec<u16> = eliminations
                .iter()
                .filter(|e| e.digit == d)
                .map(|e| e.cell)
                .collect();
            cells.sort_unstable();
            match by_cells.iter_mut().find(|(_, c)| *c == cells) {
                Some((ds, _)) => ds.insert(d),
                None => by_cells.push((Digits::single(d), cells)),
            }
        }
        let parts: Vec<String> = by_cells
            .iter()
            .map(|(ds, cells)| {
                let verb = if ds.len() == 1 { "leaves" } else { "leave" };
                let cells = cells.iter().map(|&c| c as usize);
                format!(
                    "{} {verb} {}",
                    digits_word(*ds),
                    super::say::cells(geo, cells)
                )
            })
            .collect();
        parts.join("; ")
    }

    fn digits_word(ds: Digits) -> String {
        digits(ds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{geometry, Size, Variant};

    #[test]
    fn length_steps_follow_sukaku_explainer() {
        let steps: Vec<u16> = [4, 5, 6, 7, 8, 9, 12, 13, 16, 17, 24, 25]
            .map(length_steps)
            .to_vec();
        assert_eq!(steps, [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6]);
    }

    #[test]
    fn difficulties_print_in_tenths() {
        assert_eq!(Difficulty(72).to_string(), "7.2");
        assert_eq!(Difficulty(110).to_string(), "11.0");
    }

    #[test]
    fn ids_are_kebab_case() {
        assert_eq!(Technique::XyzWing.id(), "xyz-wing");
        assert_eq!(
            Technique::DynamicDouble(1).id(),
            "dynamic-double-forcing-chains-plus"
        );
        assert_eq!(Technique::AlsXz.id(), "als-xz");
    }

    #[test]
    fn eliminations_are_grouped_by_digit() {
        let geo = geometry(Size::NINE, Variant::Classic);
        let e = [
            Candidate::new(36, 3),
            Candidate::new(40, 3),
            Candidate::new(36, 7),
            Candidate::new(40, 7),
            Candidate::new(19, 4),
        ];
        assert_eq!(
            say::eliminations(geo, &e),
            "3 and 7 leave E1, E5; 4 leaves C2"
        );
    }
}
