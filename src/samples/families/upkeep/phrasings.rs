//! The upkeep family's question templates, each said five ways or more.

use crate::samples::phrasing::Phrasings;

/// Its question templates.
pub const PHRASINGS: Phrasings = &[(
    "broken_since",
    &[
        "Since when has {thing} been out of order?",
        "When did {thing} break down?",
        "How long has {thing} been broken: since when?",
        "When did {thing} stop working?",
        "Since what time has {thing} not been working?",
    ],
)];
