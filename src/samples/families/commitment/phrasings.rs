//! The commitment family's question templates, each said five ways or more.

use crate::samples::phrasing::Phrasings;

/// Its question templates.
pub const PHRASINGS: Phrasings = &[
    (
        "what_asked",
        &[
            "On {when}, what did {who} ask the robot to do with {thing}?",
            "What did {who} want done with {thing} when they asked on {when}?",
            "{who} made a request about {thing} on {when}. What was it?",
            "What was {who}'s request about {thing} on {when}?",
            "On {when}, {who} asked the robot for something involving {thing}. What?",
        ],
    ),
    (
        "when_due",
        &[
            "By when did {who} want the robot to {task}?",
            "What deadline did {who} give the robot to {task}?",
            "{who} asked the robot to {task}. By what time?",
            "When should the robot {task}, going by {who}'s request?",
            "How soon did {who} need the robot to {task}?",
        ],
    ),
    (
        "is_done",
        &[
            "{who} asked the robot to {task}. Is it done, still to do, or overdue?",
            "Has the robot done what {who} asked (to {task}), or is it still pending or overdue?",
            "{who}'s request to {task}: done, pending, or overdue?",
            "Where does {who}'s request to {task} stand: done, still to do, or late?",
            "Did the robot {task} as {who} asked, or is that still pending or overdue?",
        ],
    ),
];
