//! The temporal family's question templates, each said five ways or more.

use crate::samples::phrasing::Phrasings;

/// Its question templates.
pub const PHRASINGS: Phrasings = &[
    (
        "when_last",
        &[
            "When did {who} last {act}?",
            "When was the last time {who} {acted}?",
            "At what time did {who} most recently {act}?",
            "Tell me when {who} last {acted}.",
            "{who} {acted} at some point. When was the latest time?",
        ],
    ),
    (
        "which_first",
        &[
            "Which happened first: (A) {a}, or (B) {b}?",
            "Which came earlier: (A) {a}, or (B) {b}?",
            "Of these two, which happened before the other: (A) {a}, or (B) {b}?",
            "(A) {a}; (B) {b}. Which of these was first?",
            "Think back: was it (A) {a} that happened first, or (B) {b}?",
        ],
    ),
    (
        "what_next",
        &[
            "Right after {who} {acted}, what did they do next?",
            "{who} {acted}. What did they do straight after that?",
            "What did {who} do next, after they {acted}?",
            "After {who} {acted}, what did they go on to do?",
            "What was the next thing {who} did once they {acted}?",
        ],
    ),
];
