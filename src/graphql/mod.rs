//! GraphQL on the wire: selection sets built from validated names ([`mod@selection`]), request
//! bodies through serde ([`body`]), the bounds of a caller's document ([`limits`]), the read-only check of caller documents ([`scan`]), and
//! decoding of the response envelope ([`response`]). The documents themselves come from the
//! declarations in [`crate::operations`].
//!
//! No user input is ever pasted into a document: arguments travel in `variables`, and
//! selection sets are built only from names that passed [`crate::inputs::fields`].

pub mod body;
pub mod limits;
pub mod response;
pub mod scan;
pub mod selection;

pub use body::{Body, Text, Variables};
pub use response::{decode_response, Expect};
pub use scan::is_read_only;
pub use selection::selection;
