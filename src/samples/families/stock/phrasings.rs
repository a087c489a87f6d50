//! The stock family's question templates, each said five ways or more
//! (`{was}` agrees with the kind: "were eggs").

use crate::samples::phrasing::Phrasings;

/// Its question templates.
pub const PHRASINGS: Phrasings = &[
    (
        "last_bought",
        &[
            "When did we last buy {kind}?",
            "When {was} {kind} last bought?",
            "When did someone last bring {kind} home from the shops?",
            "When did fresh {kind} last come into the house?",
            "When was the last time {kind} {was} bought?",
        ],
    ),
    (
        "last_thrown_out",
        &[
            "When did we last throw out {kind}?",
            "When {was} {kind} last thrown out?",
            "When did {kind} last go in the bin?",
            "When was the last time {kind} {was} put in the bin?",
            "When did someone last throw {kind} away?",
        ],
    ),
];
