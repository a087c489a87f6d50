//! The preference family's question templates, each said five ways or more.

use crate::samples::phrasing::Phrasings;

/// Its question templates.
pub const PHRASINGS: Phrasings = &[
    (
        "who_prefers",
        &[
            "Who in the household likes the {attr} of {thing} to be {value}?",
            "Which member of the household prefers {thing} with its {attr} at {value}?",
            "Who wants the {attr} of {thing} set to {value}?",
            "Someone likes the {attr} of {thing} at {value}. Who is it?",
            "Whose preference is a {attr} of {value} for {thing}?",
        ],
    ),
    (
        "who_prefers_drink",
        &[
            "Who in the household likes to drink a {value} from {thing}?",
            "Which member of the household prefers a {value} as their drink from {thing}?",
            "Who wants a {value} to drink when they use {thing}?",
            "Someone's favourite drink from {thing} is a {value}. Who is it?",
            "Whose drink of choice from {thing} is a {value}?",
        ],
    ),
    (
        "likes_drink",
        &[
            "What does {who} like to drink from {thing}?",
            "Which drink does {who} prefer from {thing}?",
            "When {who} uses {thing}, what drink do they want?",
            "What should {thing} make for {who}?",
            "What is {who}'s favourite drink from {thing}?",
        ],
    ),
    (
        "likes_volume",
        &[
            "At what volume does {who} like {thing}?",
            "How loud does {who} like {thing} to be?",
            "What volume does {who} prefer on {thing}?",
            "Which volume suits {who} on {thing}?",
            "What is {who}'s preferred volume for {thing}?",
        ],
    ),
    (
        "likes_night",
        &[
            "What temperature does {who} want {thing} set to at night?",
            "At night, what temperature does {who} like on {thing}?",
            "What is {who}'s preferred night-time temperature on {thing}?",
            "How warm does {who} want {thing} set overnight?",
            "Which temperature should {thing} be at night, for {who}?",
        ],
    ),
    (
        "likes_field",
        &[
            "What {field} does {who} prefer for {thing}?",
            "What {field} does {who} like {thing} to have?",
            "Which {field} would {who} choose for {thing}?",
            "What is {who}'s preferred {field} on {thing}?",
            "How does {who} like the {field} of {thing} set?",
        ],
    ),
];
