//! Looking for one string inside another (a key's marker, a key inside a URL or a message):
//! [`find`], [`contains`] and [`replace`], comparing bytes; and the numbers in messages,
//! [`push_unsigned`] and [`push_signed`].
//!
//! They answer exactly as `str::find`, `str::contains` and `str::replace` do with a `&str`
//! pattern, which use core's two-way searcher instead: its char-boundary check has a panic
//! path that formats a `char` with `Debug`, which links the Unicode tables and most of
//! `core::fmt` into every wasm build (about 5 KB gzip of each browser entry, measured with
//! `make size`). A non-empty `needle` that is valid UTF-8 can only match `haystack` (valid
//! UTF-8 too) on character boundaries, so comparing bytes finds the same occurrences.
//!
//! Messages are built with `push_str` and `[..].concat()` rather than `format!`, and their
//! numbers written by [`push_unsigned`]: the browser builds then link no integer formatting of
//! `core::fmt` (its `Display` of each integer type and the padding code): 345 B gzip of the
//! root browser entry, measured with `make size`. The `itoa` crate, tried in its place for the
//! log lines' numbers, made the root entry 58 B bigger (58,158 against 58,100 B gzip).

/// The byte index where `needle` first occurs in `haystack`, as `haystack.find(needle)`
/// (`Some(0)` for an empty `needle`).
pub fn find(haystack: &str, needle: &str) -> Option<usize> {
    let (h, n) = (haystack.as_bytes(), needle.as_bytes());
    if n.is_empty() {
        return Some(0);
    }
    h.windows(n.len()).position(|window| window == n)
}

/// Whether `needle` occurs in `haystack`, as `haystack.contains(needle)`.
pub fn contains(haystack: &str, needle: &str) -> bool {
    find(haystack, needle).is_some()
}

/// `haystack` with every occurrence of `needle` (leftmost first, not overlapping) replaced by
/// `with`, as `haystack.replace(needle, with)` for a non-empty `needle`. An empty `needle`
/// replaces nothing (every caller has a key to look for, never an empty one).
pub fn replace(haystack: &str, needle: &str, with: &str) -> String {
    let mut out = String::with_capacity(haystack.len());
    let mut rest = haystack;
    while let Some(i) = find(rest, needle).filter(|_| !needle.is_empty()) {
        out.push_str(rest.get(..i).unwrap_or_default());
        out.push_str(with);
        rest = rest.get(i + needle.len()..).unwrap_or_default();
    }
    out.push_str(rest);
    out
}

/// Appends `n` in decimal to `out`, as `write!(out, "{n}")` does.
pub fn push_unsigned(out: &mut String, n: u64) {
    // The largest power of ten not above `n` (1 for 0), then one digit per power.
    let mut power = 1u64;
    while n / power >= 10 {
        power *= 10;
    }
    loop {
        let digit = (n / power % 10) as u8;
        out.push(char::from(b'0' + digit));
        if power == 1 {
            return;
        }
        power /= 10;
    }
}

/// Appends `n` in decimal to `out` (with a `-` when negative), as `write!(out, "{n}")` does.
pub fn push_signed(out: &mut String, n: i64) {
    if n < 0 {
        out.push('-');
    }
    push_unsigned(out, n.unsigned_abs());
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn finds_replaces_and_misses_as_str_does() {
        assert_eq!(find("XYZ-SECK_abc", "SECK_"), Some(4));
        assert_eq!(find("SECK", "SECK_"), None);
        assert_eq!(find("", "a"), None);
        assert_eq!(find("abc", ""), Some(0));
        assert!(contains("https://h/k=PUBK_x", "PUBK_x"));
        assert_eq!(
            replace("a KEY b KEYKEY", "KEY", "[redacted]"),
            "a [redacted] b [redacted][redacted]"
        );
        assert_eq!(replace("aaaa", "aa", "b"), "bb");
        assert_eq!(replace("é€ KEY ü", "KEY", "-"), "é€ - ü");
        assert_eq!(replace("unchanged", "", "x"), "unchanged");
    }

    #[test]
    fn writes_numbers_as_display_does() {
        for n in [
            0,
            1,
            9,
            10,
            99,
            100,
            2147483647,
            u64::from(u32::MAX),
            u64::MAX - 1,
            u64::MAX,
        ] {
            let mut s = String::from("x");
            push_unsigned(&mut s, n);
            assert_eq!(s, format!("x{n}"));
        }
        for n in [0, -1, 7, -10, i64::MIN, i64::MAX] {
            let mut s = String::new();
            push_signed(&mut s, n);
            assert_eq!(s, n.to_string());
        }
    }

    proptest! {
        #[test]
        fn numbers_agree_with_display(n in any::<u64>(), m in any::<i64>()) {
            let (mut a, mut b) = (String::new(), String::new());
            push_unsigned(&mut a, n);
            push_signed(&mut b, m);
            prop_assert_eq!(a, n.to_string());
            prop_assert_eq!(b, m.to_string());
        }


        /// Any text and needle, small alphabets so that matches are common, non-ASCII
        /// characters included.
        #[test]
        fn agrees_with_str(haystack in "[abé€]{0,24}", needle in "[abé€]{1,4}", with in "[xy]{0,3}") {
            prop_assert_eq!(find(&haystack, &needle), haystack.find(needle.as_str()));
            prop_assert_eq!(contains(&haystack, &needle), haystack.contains(needle.as_str()));
            prop_assert_eq!(replace(&haystack, &needle, &with), haystack.replace(needle.as_str(), &with));
        }
    }
}
