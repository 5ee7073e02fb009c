//! The bounds of a caller's GraphQL document, checked by one flat pass over its text before
//! anything recursive reads it: the read-only scan behind `request()` and the server proxy's
//! parser (async-graphql-parser recurses once per level of nesting, so a document of
//! thousands of `{` would exhaust the stack of a wasm instance and trap it).
//!
//! The pass ([`measure`]) is a loop with no recursion and no allocation: it counts tokens and
//! the deepest nesting of `{`, `(` and `[` outside strings and comments. Each bound is far
//! above what any operation of the package needs (its deepest document, a `fields` path of
//! [`crate::inputs::MAX_FIELD_DEPTH`] names, nests under 20 deep; its longest default
//! document has a few hundred tokens) and far below what exhausts a stack.

use super::scan;
use crate::error::Error;

/// The deepest nesting of `{`, `(` and `[` (together) a document may have. The package's own
/// documents nest at most [`crate::inputs::MAX_FIELD_DEPTH`] + 3 deep (operation, root field,
/// its arguments or a list type, then a `fields` path of at most 16 names).
pub const MAX_DEPTH: usize = 32;

/// The most tokens (names, punctuators, numbers, strings) a document may have. The package's
/// longest document (a full default selection, or a `fields` list of
/// [`crate::inputs::MAX_FIELDS`] paths) has well under 4,000.
pub const MAX_TOKENS: usize = 10_000;

/// What [`measure`] found, as far as it read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Measure {
    /// The deepest nesting of `{`, `(` and `[` seen.
    pub depth: usize,
    /// The tokens counted.
    pub tokens: usize,
}

/// Counts `document`'s tokens and its deepest nesting, stopping as soon as either passes its
/// bound (so the work is at most [`MAX_TOKENS`] tokens). Strings (with their escapes), block
/// strings and `#` comments are skipped as one token or none (the read-only scan's own
/// skipping); one left open runs to the end (the parser stops there). A run of name, number and `.` characters counts as one token. Closing
/// brackets that match nothing are the parser's business: they never make the depth negative.
pub fn measure(document: &str) -> Measure {
    let b = document.as_bytes();
    let (mut i, mut depth) = (0, 0usize);
    let mut m = Measure {
        depth: 0,
        tokens: 0,
    };
    let word = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-' | b'+');
    while i < b.len() && m.depth <= MAX_DEPTH && m.tokens <= MAX_TOKENS {
        let next = scan::skip_ignored(b, i);
        if next > i {
            i = next;
            continue;
        }
        match b[i] {
            // A string left open: no token can start with `"`, so the parser stops there and
            // reads nothing after it.
            b'"' => i = scan::skip_string(b, i).unwrap_or(b.len()),
            b'{' | b'(' | b'[' => {
                depth += 1;
                m.depth = m.depth.max(depth);
                i += 1;
            }
            b'}' | b')' | b']' => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            c if word(c) => {
                while i < b.len() && word(b[i]) {
                    i += 1;
                }
            }
            _ => i += 1,
        }
        m.tokens += 1;
    }
    m
}

/// Refuses `document` (`invalid_input` naming `field`) when it nests deeper than
/// [`MAX_DEPTH`] or has more than [`MAX_TOKENS`] tokens; its length is its caller's bound.
pub fn check(field: &str, document: &str) -> Result<(), Error> {
    let m = measure(document);
    if m.depth > MAX_DEPTH || m.tokens > MAX_TOKENS {
        // One message for both bounds, built without `format!` (the browser build carries it).
        let mut msg = String::from(field);
        msg.push_str(" nests deeper than 32 levels or has more than 10000 tokens (the limits)");
        return Err(Error::invalid(field, msg));
    }
    Ok(())
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    fn nested(levels: usize) -> String {
        format!("{}a{}", "{".repeat(levels), "}".repeat(levels))
    }

    #[test]
    fn depth_at_the_bound_passes_and_one_past_it_is_refused() {
        assert_eq!(
            (MAX_DEPTH, MAX_TOKENS),
            (32, 10_000),
            "the message names them"
        );
        assert_eq!(measure(&nested(MAX_DEPTH)).depth, MAX_DEPTH);
        assert!(check("document", &nested(MAX_DEPTH)).is_ok());
        let e = check("document", &nested(MAX_DEPTH + 1)).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("document"));
        assert!(e.message.contains("deeper than 32"), "{}", e.message);
        // Every bracket kind counts, together.
        let mixed = format!("{}{}", "([".repeat(MAX_DEPTH / 2), "{");
        assert!(check("document", &mixed).is_err());
        // 5,000 braces stop the pass at the bound.
        let m = measure(&"{".repeat(5_000));
        assert_eq!(m.depth, MAX_DEPTH + 1);
    }

    #[test]
    fn tokens_at_the_bound_pass_and_one_past_it_is_refused() {
        let names = |n: usize| format!("{{{}}}", vec!["a"; n - 2].join(" "));
        assert_eq!(measure(&names(MAX_TOKENS)).tokens, MAX_TOKENS);
        assert!(check("document", &names(MAX_TOKENS)).is_ok());
        let e = check("document", &names(MAX_TOKENS + 1)).unwrap_err();
        assert!(e.message.contains("more than 10000"), "{}", e.message);
    }

    #[test]
    fn strings_and_comments_hide_their_brackets() {
        let deep = "{".repeat(100);
        for doc in [
            format!("query Q {{ a(s: \"{deep}\") }}"),
            format!("query Q {{ a(s: \"\"\"{deep}\\\"\"\"{deep}\"\"\") }}"),
            format!("# {deep}\nquery Q {{ a }}"),
            format!("query Q {{ a(s: \"\\\"{deep}\") }}"),
        ] {
            assert!(check("document", &doc).is_ok(), "{doc}");
        }
        assert_eq!(measure("query Q($a: [Int!]!) { a(b: $a) { c } }").depth, 2);
        assert_eq!(measure("{ a(x: 1.5e-3, y: ...F) }").tokens, 11);
        // A string or block string left open runs to the end (the parser stops at it); stray
        // closers never go below zero.
        assert_eq!(measure("\"{{{{").depth, 0);
        assert_eq!(measure("\"{{{{\n{{").depth, 0);
        assert_eq!(measure("\"\"\"{{{{\n{{").depth, 0);
        assert_eq!(measure("}}}}{").depth, 1);
    }

    #[test]
    fn every_declared_document_is_well_within_the_bounds() {
        for op in crate::operations::ALL {
            let doc = op.document(op.fields);
            let m = measure(&doc);
            assert!(
                m.depth <= 8 && m.tokens <= MAX_TOKENS / 4,
                "{}: {m:?}",
                op.name
            );
        }
    }

    proptest::proptest! {
        #[test]
        fn measure_never_panics_and_stops_early(s in "\\PC{0,300}") {
            let m = measure(&s);
            proptest::prop_assert!(m.depth <= MAX_DEPTH + 1 && m.tokens <= MAX_TOKENS + 1);
        }
    }
}
