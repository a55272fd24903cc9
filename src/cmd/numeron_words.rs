//! The words the code-breaking commands (`numeron`, `mastermind`, their `optimum`) share:
//! a variant in the game's own words and an exact mean.

use num_rational::Ratio;
use tabula::exact;
use tabula::numeron::report::Variant;

/// An exact mean as its fraction and its decimal: `26274/5040 = 5.213095`.
pub fn mean_text(r: &Ratio<u64>) -> String {
    format!("{} = {:.6}", exact::fraction(r), exact::float(r))
}

/// The variant in the game's words: `3 digits`, `4 digits (repeats), 6 symbols`, `4 pegs,
/// 6 colours`.
pub fn describe(variant: &Variant) -> String {
    match *variant {
        Variant::Numeron {
            digits,
            repeats,
            symbols,
        } => format!(
            "{digits} digits{}{}",
            if repeats { " (repeats)" } else { "" },
            if symbols == 10 {
                String::new()
            } else {
                format!(", {symbols} symbols")
            }
        ),
        Variant::Mastermind {
            pegs,
            colours,
            repeats,
        } => format!(
            "{pegs} pegs, {colours} colours{}",
            if repeats { "" } else { " (no repeats)" }
        ),
    }
}
