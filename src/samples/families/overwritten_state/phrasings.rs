//! The overwritten state family's question templates, each said five ways or more.

use crate::samples::phrasing::Phrasings;

/// Its question templates.
pub const PHRASINGS: Phrasings = &[
    (
        "before_moved_by",
        &[
            "Where was {thing} before {who} put it {place}?",
            "Before {who} put {thing} {place}, where had it been?",
            "{who} put {thing} {place}. Where was it before that?",
            "Where did {thing} sit before {who} put it {place}?",
            "Where had {thing} been kept until {who} put it {place}?",
        ],
    ),
    (
        "before_picked",
        &[
            "Where was {thing} before {who} picked it up?",
            "Before {who} picked up {thing}, where had it been?",
            "{who} picked up {thing}. Where was it before that?",
            "Where did {thing} sit before {who} took it?",
            "Where had {thing} been kept until {who} took it?",
        ],
    ),
    (
        "before_carried_out",
        &[
            "Where was {thing} before {who} took it out of the house?",
            "Before {who} left with {thing}, where had it been?",
            "{who} took {thing} out of the house. Where was it before that?",
            "Where did {thing} sit before {who} took it along?",
            "Where had {thing} been kept until {who} left with it?",
        ],
    ),
    (
        "before_moved",
        &[
            "Where was {thing} before it was {place}?",
            "Before {thing} ended up {place}, where was it?",
            "Where was {thing} prior to being {place}?",
            "Where had {thing} been until it was {place}?",
            "{thing} was moved {place} at some point. Where was it before?",
        ],
    ),
    (
        "before_changed",
        &[
            "What was {what} before it was changed to {value}?",
            "Before it changed to {value}, what was {what}?",
            "{what} was changed to {value}. What was it before?",
            "What had {what} been before it became {value}?",
            "What was {what} previously, prior to the change to {value}?",
        ],
    ),
];
