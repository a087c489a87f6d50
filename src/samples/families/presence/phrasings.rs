//! The presence family's question templates, each said five ways or more.

use crate::samples::phrasing::Phrasings;

/// Its question templates.
pub const PHRASINGS: Phrasings = &[
    (
        "who_home",
        &[
            "Who was home when {done} ({when})?",
            "When {done} ({when}), who was in the house?",
            "{done} ({when}). Who was at home then?",
            "Which of the household were home at the moment {done} ({when})?",
            "Think of when {done} ({when}): who was in?",
        ],
    ),
    (
        "while_out",
        &[
            "Who {changed} {thing} while {who} was {away} {day}?",
            "While {who} was {away} {day}, who {changed} {thing}?",
            "{who} was {away} {day}. Who {changed} {thing} in the meantime?",
            "Someone {changed} {thing} while {who} was {away} {day}. Who was it?",
            "Think of {who} {away} {day}: who {changed} {thing} then?",
        ],
    ),
];
