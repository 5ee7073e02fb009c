//! Selection sets built from validated field paths.
//!
//! No user input is ever pasted into a document: selection sets are built only from names
//! that passed [`crate::inputs::fields`].

use crate::error::Error;
use crate::inputs;

/// Builds a selection set (without braces) from `fields`, or returns `default` when `fields`
/// is `None`. Dotted paths select nested fields and shared prefixes merge:
/// `["id", "totp.enabled", "totp.secret"]` → `id totp { enabled secret }`. Duplicates are
/// dropped; a name selected both bare and with sub-fields keeps its sub-fields.
pub fn selection(fields: Option<&[String]>, default: &str) -> Result<String, Error> {
    let Some(list) = fields else {
        return Ok(default.to_owned());
    };
    inputs::fields(list)?;
    let mut root: Vec<Node> = Vec::new();
    for path in list {
        let mut level = &mut root;
        let mut parts = inputs::split_ascii(path, inputs::is_dot).peekable();
        while let Some(name) = parts.next() {
            let last = parts.peek().is_none();
            if !level.iter().any(|n| n.name == name) {
                level.push(Node {
                    name: name.to_owned(),
                    children: Vec::new(),
                });
            }
            if last {
                break;
            }
            // Found, or just pushed: the loop always goes on.
            let Some(node) = level.iter_mut().find(|n| n.name == name) else {
                break;
            };
            level = &mut node.children;
        }
    }
    let mut out = String::with_capacity(list.len() * 16);
    write_nodes(&mut out, &root);
    Ok(out)
}

struct Node {
    name: String,
    children: Vec<Node>,
}

fn write_nodes(out: &mut String, nodes: &[Node]) {
    for (i, n) in nodes.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&n.name);
        if !n.children.is_empty() {
            out.push_str(" { ");
            write_nodes(out, &n.children);
            out.push_str(" }");
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::error::Code;
    use crate::operations::ORDER_HISTORY;
    use crate::operations::PROFILE;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn selections_merge_nested_paths() {
        let s = selection(
            Some(&strings(&[
                "id",
                "totp.enabled",
                "email",
                "totp.secret",
                "id",
            ])),
            "x",
        )
        .unwrap();
        assert_eq!(s, "id totp { enabled secret } email");
        let s = selection(Some(&strings(&["a.b.c", "a.b.d", "a.e", "f"])), "x").unwrap();
        assert_eq!(s, "a { b { c d } e } f");
        // Bare and nested: the sub-fields win (either order).
        assert_eq!(
            selection(Some(&strings(&["totp", "totp.enabled"])), "x").unwrap(),
            "totp { enabled }"
        );
        assert_eq!(
            selection(Some(&strings(&["totp.enabled", "totp"])), "x").unwrap(),
            "totp { enabled }"
        );
        assert_eq!(selection(None, "dflt").unwrap(), "dflt");
        assert_eq!(
            PROFILE.document(&selection(Some(&strings(&["id", "totp.enabled"])), "").unwrap()),
            "query Profile { profile { id totp { enabled } } }"
        );
        assert_eq!(
            ORDER_HISTORY.document(&selection(Some(&strings(&["id", "status"])), "").unwrap()),
            "query OrderHistory($page: Int!, $perPage: Int, $filter: OrderHistoryFilter) { orderHistory(page: \
$page, perPage: $perPage, filter: $filter) { data { id status } pagination { page perPage total } } }"
        );
    }

    #[test]
    fn invalid_names_refused() {
        for bad in [
            vec![],
            vec!["id } mutation { x"],
            vec!["id", "a b"],
            vec!["__schema { types }"],
            vec!["a..b"],
            vec!["a.", ""],
            vec!["1id"],
        ] {
            let e = selection(Some(&strings(&bad)), "x").unwrap_err();
            assert_eq!(
                (e.code, e.field.as_deref()),
                (Code::InvalidInput, Some("fields")),
                "{bad:?}"
            );
        }
    }
}
