//! The counting family's question templates, each said five ways or more.

use crate::samples::phrasing::Phrasings;

/// Its question templates.
pub const PHRASINGS: Phrasings = &[
    (
        "how_many_robot",
        &[
            "How many times did the robot {act} {day}?",
            "How often did the robot {act} {day}?",
            "{day}, how many times did the robot {act}?",
            "What is the number of times the robot had to {act} {day}?",
            "How many times {day} did the robot {act}?",
        ],
    ),
    (
        "how_many",
        &[
            "How many times did the robot see {who} {act} {day}?",
            "How often did {who} {act} {day}, as far as the robot saw?",
            "{day}, how many times did the robot watch {who} {act}?",
            "As the robot saw it, how many times did {who} {act} {day}?",
            "What number of times did the robot see {who} {act} {day}?",
        ],
    ),
];
