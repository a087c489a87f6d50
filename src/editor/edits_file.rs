//! EDITS.ron files (`hearth scene apply`): a list of edits in RON.

use ron::extensions::Extensions;

use crate::located::{self, SyntaxError};

use super::command::Edit;

/// An EDITS.ron file could not be read as a list of edits.
pub type EditsSyntaxError = SyntaxError;

/// Reads a list of edits (`[MoveRoom(id: "hall", to: (4.0, 0.0)), ...]`).
/// Commands that take a whole entity drop its parentheses:
/// `AddRoom(id: "attic", name: "Attic", rect: (...))`. Optional values
/// may drop their `Some`: `pos: (1.0, 2.0)` is `pos: Some((1.0, 2.0))`.
pub fn parse_edits(origin: &str, src: &str) -> Result<Vec<Edit>, EditsSyntaxError> {
    let options = ron::Options::default()
        .with_default_extension(Extensions::UNWRAP_VARIANT_NEWTYPES | Extensions::IMPLICIT_SOME);
    located::parse_ron(options, origin, src)
}
