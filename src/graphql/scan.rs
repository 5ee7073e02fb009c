//! The read-only check of caller documents (`request`): only documents whose every
//! operation is a query are retried.

/// Whether a document only reads: every operation in it is a `query` (or a shorthand
/// `{ … }` query), and there is at least one. Fragments are skipped. Anything the scanner
/// does not understand counts as not read-only (so it is never retried).
pub fn is_read_only(document: &str) -> bool {
    let b = document.as_bytes();
    let mut i = 0;
    let mut operations = 0;
    loop {
        i = skip_ignored(b, i);
        if i >= b.len() {
            return operations > 0;
        }
        if b[i] == b'{' {
            operations += 1;
        } else if b[i] == b'_' || b[i].is_ascii_alphabetic() {
            let start = i;
            while i < b.len() && (b[i] == b'_' || b[i].is_ascii_alphanumeric()) {
                i += 1;
            }
            match document.get(start..i) {
                Some("query") => operations += 1,
                Some("fragment") => {}
                _ => return false, // mutation, subscription, type-system definitions
            }
        } else {
            return false;
        }
        // Skip the rest of the definition: up to and past its top-level selection set.
        match skip_definition(b, i) {
            Some(next) => i = next,
            None => return false,
        }
    }
}

/// Skips spaces, commas, line breaks, a BOM and `#` comments.
#[inline(never)] // shared with the limits' pass: one copy in the wasm
pub(crate) fn skip_ignored(b: &[u8], mut i: usize) -> usize {
    while i < b.len() {
        match b[i] {
            b' ' | b'\t' | b'\n' | b'\r' | b',' => i += 1,
            0xEF if b.get(i + 1..i + 3) == Some(&[0xBB, 0xBF][..]) => i += 3,
            b'#' => {
                while i < b.len() && b[i] != b'\n' && b[i] != b'\r' {
                    i += 1;
                }
            }
            _ => break,
        }
    }
    i
}

/// From inside a definition's header, finds its selection set (the first `{` outside
/// parentheses) and returns the index just past the matching `}`.
fn skip_definition(b: &[u8], mut i: usize) -> Option<usize> {
    let mut parens = 0usize;
    let mut braces = 0usize;
    let mut in_selection = false;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i = skip_string(b, i)?;
                continue;
            }
            b'#' => {
                i = skip_ignored(b, i);
                continue;
            }
            b'(' => parens += 1,
            b')' => parens = parens.checked_sub(1)?,
            b'{' => {
                if parens == 0 {
                    in_selection = true;
                }
                braces += 1;
            }
            b'}' => {
                braces = braces.checked_sub(1)?;
                if in_selection && braces == 0 && parens == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Skips a string or block string starting at `b[i] == '"'`; returns the index after it.
#[inline(never)] // shared with the limits' pass: one copy in the wasm
pub(crate) fn skip_string(b: &[u8], i: usize) -> Option<usize> {
    if b.get(i..i + 3) == Some(&b"\"\"\""[..]) {
        let mut j = i + 3;
        while j < b.len() {
            if b[j] == b'\\' && b.get(j + 1..j + 4) == Some(&b"\"\"\""[..]) {
                j += 4;
            } else if b.get(j..j + 3) == Some(&b"\"\"\""[..]) {
                return Some(j + 3);
            } else {
                j += 1;
            }
        }
        return None;
    }
    let mut j = i + 1;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            b'"' => return Some(j + 1),
            b'\n' | b'\r' => return None,
            _ => j += 1,
        }
    }
    None
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn read_only_scanner() {
        for q in [
            "{ profile { id } }",
            "query { profile { id } }",
            "  query Q($a: Int = 1) @dir(x: \"{\") { a(b: $a) { c } }",
            "# mutation in a comment\nquery Q { a }",
            "fragment F on X { a } query Q { ...F }",
            "query A { a } query B { b }",
            "\u{feff}query { a(s: \"\"\"block } mutation\"\"\") }",
            "query Q($f: In = {a: {b: 1}}) { a }",
            ",,query{a}",
        ] {
            assert!(is_read_only(q), "{q}");
        }
        for q in [
            "mutation { pay }",
            "subscription { updates }",
            "query A { a } mutation B { b }",
            "fragment F on X { a }",
            "",
            "   # only a comment",
            "type Query { a: Int }",
            "query { a ",
            "query Q { a(s: \"unterminated) }",
            "Query { a }",
            "} query { a }",
            "[1]",
        ] {
            assert!(!is_read_only(q), "{q}");
        }
    }

    proptest::proptest! {

        #[test]
        fn structured_documents_classify(
            name in "[A-Za-z_][A-Za-z0-9_]{0,8}",
            kind in proptest::sample::select(vec!["query", "mutation", "subscription"]),
            arg in "[a-zA-Z0-9 {}()#,:$]{0,10}",
        ) {
            let doc = format!("{kind} {name}($a: String = \"{arg}\") {{ f(a: $a) {{ g }} }}");
            proptest::prop_assert_eq!(is_read_only(&doc), kind == "query", "{}", doc);
        }
    }
}
