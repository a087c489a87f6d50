//! The stock family's question templates, each said five ways or more
//! (`{was}`, `{is}` and `{much}` agree with the kind: "were eggs", "Are
//! there any eggs", "how many").

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
    (
        "still_have",
        &[
            "Do we still have {kind}? How {much}?",
            "{is} there any {kind} left in the house? How {much}?",
            "Have we got any {kind} left, and how {much}?",
            "How {much} {kind} do we have left, if any?",
            "Are we out of {kind}? If not, how {much}?",
        ],
    ),
];
