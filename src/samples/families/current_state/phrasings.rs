//! The current state family's question templates, each said five ways or more.

use crate::samples::phrasing::Phrasings;

/// Its question templates.
pub const PHRASINGS: Phrasings = &[
    (
        "where_is",
        &[
            "Where is {thing}?",
            "Where can {thing} be found now?",
            "Do you know where {thing} is right now?",
            "I am looking for {thing}. Where is it?",
            "Where has {thing} ended up?",
        ],
    ),
    (
        "is_open",
        &[
            "Is {thing} open or closed?",
            "Has {thing} been left open, or is it shut?",
            "Right now, would I find {thing} open or closed?",
            "Is {thing} standing open at the moment, or is it closed?",
            "Open or shut: how is {thing} now?",
        ],
    ),
    (
        "is_on",
        &[
            "Is {thing} on or off?",
            "Is {thing} on right now, or is it off?",
            "Has {thing} been left on, or is it switched off?",
            "Would I find {thing} switched on or off?",
            "On or off: what state is {thing} in now?",
        ],
    ),
    (
        "is_working",
        &[
            "Is {thing} working, or is it out of order?",
            "Does {thing} work at the moment, or is it broken?",
            "Is {thing} fixed, or still broken?",
            "Would {thing} work if I used it now, or is it out of order?",
            "Working or broken: how is {thing} now?",
        ],
    ),
    (
        "how_much_left",
        &[
            "How much is left of {thing}?",
            "How many servings are left in {thing}?",
            "How much have we got left of {thing}?",
            "How much remains of {thing}?",
            "How much would I find left of {thing}?",
        ],
    ),
    (
        "whats_written",
        &[
            "What's written on {thing}?",
            "What is written on {thing} right now?",
            "What have we written on {thing} so far?",
            "If I read {thing} now, what would it say is written on it?",
            "Is anything written on {thing}, and what?",
        ],
    ),
    (
        // A field named by a verb: what a speaker is playing.
        "is_playing",
        &[
            "What is {thing} playing right now?",
            "What's playing on {thing} at the moment?",
            "What is {thing} playing at the moment?",
            "What would I hear playing on {thing} now?",
            "If I walked up to {thing} now, what would be playing on it?",
        ],
    ),
    (
        "device_field",
        &[
            "What is the {field} of {thing} set to?",
            "What {field} is {thing} set to right now?",
            "Which {field} does {thing} have at the moment?",
            "What's the current {field} setting on {thing}?",
            "If I checked {thing} now, what {field} would it show?",
        ],
    ),
];
