//! Exact decimal amounts. The service sends money as decimal text (`"1520.00"`); the client
//! never turns it into a float. [`parse_amount`] reads such text as an integer count of
//! minor units and a scale, for exact arithmetic: `"1520.00"` → `152000` at scale `2`.

use crate::error::Error;

/// The most digits (integer and fraction together) an amount may have: every such amount
/// fits an `i128`.
pub const MAX_DIGITS: usize = 38;

/// Decimal text as an exact integer and a scale: `"1520.00"` → `{ minorUnits: 152000n, scale: 2 }`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[cfg_attr(feature = "typescript", serde(rename_all = "camelCase"))]
pub struct ParsedAmount {
    /// The amount with the decimal point removed, e.g. `152000` for `"1520.00"`.
    pub minor_units: i128,
    /// Digits after the decimal point, e.g. `2` for `"1520.00"`.
    pub scale: u32,
}

/// The message of every refusal: what a valid amount looks like.
const MESSAGE: &str =
    "amount must be decimal text such as \"1520.00\" (digits, optional - and .digits; at most 38 digits)";

/// Parses decimal text: an optional `-`, one or more ASCII digits, optionally `.` and one or
/// more digits; at most [`MAX_DIGITS`] digits. Anything else (spaces, `+`, exponents,
/// thousands separators, `.5`, `5.`, non-ASCII digits) is refused (`invalid_input`, field
/// `amount`).
pub fn parse_amount(text: &str) -> Result<ParsedAmount, Error> {
    parse(text).ok_or_else(|| Error::invalid("amount", MESSAGE))
}

fn parse(text: &str) -> Option<ParsedAmount> {
    let (negative, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (int, frac) = match body.bytes().position(|b| b == b'.') {
        Some(i) => (body.get(..i)?, body.get(i + 1..)?),
        None => (body, ""),
    };
    if int.is_empty() || (frac.is_empty() && int.len() < body.len()) {
        return None;
    }
    if int.len() + frac.len() > MAX_DIGITS {
        return None;
    }
    let mut n: i128 = 0;
    for b in int.bytes().chain(frac.bytes()) {
        if !b.is_ascii_digit() {
            return None;
        }
        n = n * 10 + i128::from(b - b'0');
    }
    Some(ParsedAmount {
        minor_units: if negative { -n } else { n },
        scale: frac.len() as u32,
    })
}

/// Whether `text` is a decimal amount greater than zero.
pub fn is_positive(text: &str) -> bool {
    parse(text).is_some_and(|a| a.minor_units > 0)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn ok(text: &str) -> (i128, u32) {
        let a = parse_amount(text).unwrap_or_else(|e| panic!("{text:?}: {}", e.message));
        (a.minor_units, a.scale)
    }

    #[test]
    fn valid_amounts() {
        assert_eq!(ok("1520.00"), (152_000, 2));
        assert_eq!(ok("0"), (0, 0));
        assert_eq!(ok("0.5"), (5, 1));
        assert_eq!(ok("-12.50"), (-1250, 2));
        assert_eq!(ok("-0.00"), (0, 2));
        assert_eq!(ok("007"), (7, 0));
        assert_eq!(ok("25000.00"), (2_500_000, 2));
        assert_eq!(ok("0.000000000000000001"), (1, 18));
        let max = "9".repeat(38);
        assert_eq!(ok(&max), (max.parse::<i128>().unwrap(), 0));
        let max_frac = format!("{}.{}", "9".repeat(20), "9".repeat(18));
        assert_eq!(ok(&max_frac).1, 18);
        assert_eq!(ok(&format!("-{max}")).0, -max.parse::<i128>().unwrap());
    }

    #[test]
    fn malformed_amounts_are_refused() {
        for bad in [
            "", "-", ".", ".5", "5.", "-.5", "+5", "1e3", "1E3", " 1", "1 ", "1,000.00", "1_000",
            "1.2.3", "--1", "0x10", "NaN", "Infinity", "١٢", "１２", "1.-2", "12-", "\u{0}1",
            "1.5\n",
        ] {
            let e = parse_amount(bad).expect_err(bad);
            assert_eq!(e.code, crate::error::Code::InvalidInput, "{bad:?}");
            assert_eq!(e.field.as_deref(), Some("amount"), "{bad:?}");
        }
        assert!(parse_amount(&"1".repeat(39)).is_err(), "39 digits");
        assert!(parse_amount(&format!("{}.{}", "1".repeat(20), "1".repeat(19))).is_err());
    }

    #[test]
    fn positivity() {
        for yes in ["1", "0.01", "25.00", "0000.1"] {
            assert!(is_positive(yes), "{yes}");
        }
        for no in ["0", "0.00", "-1", "-0.01", "", "abc", "1e2", " 5"] {
            assert!(!is_positive(no), "{no}");
        }
    }

    /// The reference rendering of (minor units, scale) as decimal text.
    fn render(minor: i128, scale: u32) -> String {
        let digits = minor.unsigned_abs().to_string();
        let scale = scale as usize;
        let padded = format!("{digits:0>width$}", width = scale + 1);
        let (int, frac) = padded.split_at(padded.len() - scale);
        let sign = if minor < 0 { "-" } else { "" };
        if scale == 0 {
            format!("{sign}{int}")
        } else {
            format!("{sign}{int}.{frac}")
        }
    }

    proptest! {
        #[test]
        fn rendered_amounts_round_trip(minor in any::<i64>(), scale in 0u32..12) {
            let text = render(i128::from(minor), scale);
            let a = parse_amount(&text).unwrap();
            prop_assert_eq!((a.minor_units, a.scale), (i128::from(minor), scale), "{}", text);
        }

        #[test]
        fn matches_a_reference_grammar(s in "-?[0-9.,e +a١]{0,8}") {
            let body = s.strip_prefix('-').unwrap_or(&s);
            let parts: Vec<&str> = body.split('.').collect();
            let digits = |p: &str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
            let valid = match parts.as_slice() {
                [i] => digits(i),
                [i, f] => digits(i) && digits(f),
                _ => false,
            };
            prop_assert_eq!(parse_amount(&s).is_ok(), valid, "{:?}", s);
            if valid {
                // Same value as the reference parse of the digits without the point.
                let joined: String = parts.concat();
                let n: i128 = joined.parse().unwrap();
                let a = parse_amount(&s).unwrap();
                prop_assert_eq!(a.minor_units, if s.starts_with('-') { -n } else { n });
                prop_assert_eq!(a.scale as usize, parts.get(1).map_or(0, |f| f.len()));
            }
        }
    }
}
