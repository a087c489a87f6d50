//! The source aware family's question templates, each said five ways or more.

use crate::samples::phrasing::Phrasings;

/// Its question templates.
pub const PHRASINGS: Phrasings = &[
    (
        "who_said",
        &[
            "Who told the robot that {thing} is {told}?",
            "Who said {thing} was {told}?",
            "From whom did the robot hear that {thing} is {told}?",
            "Someone mentioned that {thing} is {told}. Who was it?",
            "Whose word is it that {thing} is {told}?",
        ],
    ),
    (
        "seen_or_told",
        &[
            "{who} said {thing} was {told}. Has the robot seen that itself since, seen otherwise, or only been told?",
            "According to {who}, {thing} was {told}. Has the robot since confirmed it, seen the opposite, or only heard it?",
            "{who} reported {thing} {told}. Did the robot see that for itself afterwards, see something different, or only hear it?",
            "{who} mentioned that {thing} was {told}. Has the robot checked with its own eyes since, seen otherwise, or only been told?",
            "The robot heard from {who} that {thing} was {told}. Seen since, seen otherwise, or only told?",
        ],
    ),
    (
        "according_to",
        &[
            "According to what {who} last said, where is {thing}?",
            "Where did {who} last say {thing} is?",
            "Going by {who}'s latest word, where is {thing}?",
            "If what {who} said most recently is right, where is {thing}?",
            "What did {who} most recently tell the robot about where {thing} is?",
        ],
    ),
];
