//! The beliefs family's question templates, each said five ways or more.

use crate::samples::phrasing::Phrasings;

/// Its question templates.
pub const PHRASINGS: Phrasings = &[
    (
        "thinks_where",
        &[
            "Where does {who} think {thing} is?",
            "Where would {who} expect to find {thing}?",
            "If {who} went looking for {thing} now, where would {who} look first?",
            "Where does {who} believe {thing} is right now?",
            "Where does {who} suppose {thing} is?",
        ],
    ),
    (
        "who_saw",
        &[
            "Who saw {who} {act} ({when})?",
            "When {who} {acted} ({when}), who of the household saw it?",
            "Did anyone see {who} {act} ({when})? Who?",
            "{done} ({when}). Who saw that happen?",
            "Who watched {who} {act} ({when})?",
        ],
    ),
];
