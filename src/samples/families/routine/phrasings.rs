//! The routine family's question templates, each said five ways or more.

use crate::samples::phrasing::Phrasings;

/// Its question templates.
pub const PHRASINGS: Phrasings = &[
    (
        "usual_value",
        &[
            "What does {who} usually set the {field} of {thing} to?",
            "What {field} does {who} normally put {thing} on?",
            "When {who} adjusts {thing}, what {field} do they usually pick?",
            "What's {who}'s usual {field} setting on {thing}?",
            "Typically, what {field} does {who} choose for {thing}?",
        ],
    ),
    (
        "usual_drink",
        &[
            "What drink does {who} usually make with {thing}?",
            "Which drink does {who} normally have from {thing}?",
            "When {who} uses {thing}, what drink do they usually pick?",
            "What's {who}'s usual drink from {thing}?",
            "Typically, what drink does {who} choose on {thing}?",
        ],
    ),
    (
        "who_usually",
        &[
            "Who usually {does}?",
            "Who is the one who normally {does}?",
            "In this household, who typically {does}?",
            "Who is it that most often {does}?",
            "Who tends to be the one that {does}?",
        ],
    ),
    (
        "usual_place",
        &[
            "Where does {thing} usually go?",
            "Where is {thing} usually put down?",
            "Where do people usually put {thing}?",
            "When someone sets {thing} down, where does it usually end up?",
            "What is the usual place {thing} gets put?",
        ],
    ),
    (
        "usual_hour",
        &[
            "At about what time of day does {who} usually {act}?",
            "Around what time does {who} normally {act}?",
            "When in the day does {who} tend to {act}?",
            "At what time does {who} typically {act}?",
            "Roughly what time of day does {who} {act}, as a rule?",
        ],
    ),
    (
        "out_days",
        &[
            "On which days of the week does {who} usually go {going}?",
            "Which days does {who} normally go {going}?",
            "What days of the week is {who} usually out {away}?",
            "{who} goes {going} on some days. Which ones, usually?",
            "On a normal week, which days does {who} go {going}?",
        ],
    ),
];
