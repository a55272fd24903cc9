//! Exact fractions as the command-line contract writes them: `"num/den"`, reduced, beside
//! a float (`docs/cli.md`). One writer and one converter for every game.

use num_bigint::BigInt;
use num_rational::{BigRational, Ratio};
use num_traits::ToPrimitive;
use std::fmt::Display;

/// A reduced fraction written `"num/den"`, the denominator always shown (`"1/1"`, `"0/1"`).
pub fn fraction<T>(r: &Ratio<T>) -> String
where
    T: Display + Clone + num_integer::Integer,
{
    format!("{}/{}", r.numer(), r.denom())
}

/// The nearest float to a fraction of machine integers.
pub fn float<T>(r: &Ratio<T>) -> f64
where
    T: ToPrimitive + Clone + num_integer::Integer,
{
    let n = r.numer().to_f64().unwrap_or(f64::NAN);
    let d = r.denom().to_f64().unwrap_or(f64::NAN);
    n / d
}

/// The nearest float to a big fraction, even when its numerator and denominator overflow
/// `f64` on their own.
pub fn big_float(q: &BigRational) -> f64 {
    if let Some(x) = q.to_f64() {
        if x.is_finite() {
            return x;
        }
    }
    let (n, d): (&BigInt, &BigInt) = (q.numer(), q.denom());
    let shift = n.bits().max(d.bits()).saturating_sub(900);
    let n = (n >> shift).to_f64().unwrap_or(f64::NAN);
    let d = (d >> shift).to_f64().unwrap_or(f64::NAN);
    n / d
}

/// `serde` writers for fractions, for `#[serde(serialize_with = "...")]`.
pub mod serde_fraction {
    use num_rational::Ratio;
    use serde::Serializer;
    use std::fmt::Display;

    /// Writes a fraction as the string `"num/den"`.
    pub fn serialize<T, S>(r: &Ratio<T>, s: S) -> Result<S::Ok, S::Error>
    where
        T: Display + Clone + num_integer::Integer,
        S: Serializer,
    {
        s.serialize_str(&super::fraction(r))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;

    #[test]
    fn a_fraction_is_written_reduced_with_its_denominator() {
        assert_eq!(fraction(&Ratio::new(4u64, 8)), "1/2");
        assert_eq!(fraction(&Ratio::new(3u64, 3)), "1/1");
        assert_eq!(fraction(&Ratio::new(0i64, 5)), "0/1");
    }

    #[test]
    fn a_big_fraction_beyond_f64_still_converts() {
        let huge = BigInt::from(10).pow(400);
        let q = BigRational::new(huge.clone(), huge * 4);
        assert_eq!(big_float(&q), 0.25);
        assert_eq!(float(&Ratio::new(1u64, 3)), 1.0 / 3.0);
    }
}
