//! The rules, each with a stable code, and what they find.

use std::collections::BTreeMap;

use serde::Serialize;
use thiserror::Error;

use crate::ids::Id;

/// The rules, in report order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    ClosedDoorCrossed,
    TwoPlacesAtOnce,
    MovedFromOtherHands,
    ChangeMismatch,
    RobotLeftOpen,
    TakenWhileInUse,
    FoodBackTooSoon,
    PerishableOutOvernight,
    MealAtNight,
    RanEmpty,
    SetWhileOff,
    CycleCutShort,
    SpokeOutOfEarshot,
    WordsOffTime,
    PingPongWalk,
    DoorWithoutPassing,
    CrossedBedroom,
    LeftOutOfPlace,
    AimlessWalking,
    ActedWhileOut,
    SeenWhileOut,
    UsedWhileOutside,
    VisitorNeverLeft,
    OutOvernight,
    StraightBackOut,
    OpenCloseLoop,
    SwitchLoop,
    RefusedAgain,
    BrokenDeviceUsed,
    FoodPastBestBefore,
    RubbishReused,
    EmptyUsed,
    ImpossiblePlaceSaid,
    SaidTwoWays,
}

impl Rule {
    pub const ALL: [Rule; 34] = [
        Rule::ClosedDoorCrossed,
        Rule::TwoPlacesAtOnce,
        Rule::MovedFromOtherHands,
        Rule::ChangeMismatch,
        Rule::RobotLeftOpen,
        Rule::TakenWhileInUse,
        Rule::FoodBackTooSoon,
        Rule::PerishableOutOvernight,
        Rule::MealAtNight,
        Rule::RanEmpty,
        Rule::SetWhileOff,
        Rule::CycleCutShort,
        Rule::SpokeOutOfEarshot,
        Rule::WordsOffTime,
        Rule::PingPongWalk,
        Rule::DoorWithoutPassing,
        Rule::CrossedBedroom,
        Rule::LeftOutOfPlace,
        Rule::AimlessWalking,
        Rule::ActedWhileOut,
        Rule::SeenWhileOut,
        Rule::UsedWhileOutside,
        Rule::VisitorNeverLeft,
        Rule::OutOvernight,
        Rule::StraightBackOut,
        Rule::OpenCloseLoop,
        Rule::SwitchLoop,
        Rule::RefusedAgain,
        Rule::BrokenDeviceUsed,
        Rule::FoodPastBestBefore,
        Rule::RubbishReused,
        Rule::EmptyUsed,
        Rule::ImpossiblePlaceSaid,
        Rule::SaidTwoWays,
    ];

    /// The stable snake_case code.
    pub fn code(self) -> &'static str {
        match self {
            Rule::ClosedDoorCrossed => "closed_door_crossed",
            Rule::TwoPlacesAtOnce => "two_places_at_once",
            Rule::MovedFromOtherHands => "moved_from_other_hands",
            Rule::ChangeMismatch => "change_mismatch",
            Rule::RobotLeftOpen => "robot_left_open",
            Rule::TakenWhileInUse => "taken_while_in_use",
            Rule::FoodBackTooSoon => "food_back_too_soon",
            Rule::PerishableOutOvernight => "perishable_out_overnight",
            Rule::MealAtNight => "meal_at_night",
            Rule::RanEmpty => "ran_empty",
            Rule::SetWhileOff => "set_while_off",
            Rule::CycleCutShort => "cycle_cut_short",
            Rule::SpokeOutOfEarshot => "spoke_out_of_earshot",
            Rule::WordsOffTime => "words_off_time",
            Rule::PingPongWalk => "ping_pong_walk",
            Rule::DoorWithoutPassing => "door_without_passing",
            Rule::CrossedBedroom => "crossed_bedroom",
            Rule::LeftOutOfPlace => "left_out_of_place",
            Rule::AimlessWalking => "aimless_walking",
            Rule::ActedWhileOut => "acted_while_out",
            Rule::SeenWhileOut => "seen_while_out",
            Rule::UsedWhileOutside => "used_while_outside",
            Rule::VisitorNeverLeft => "visitor_never_left",
            Rule::OutOvernight => "out_overnight",
            Rule::StraightBackOut => "straight_back_out",
            Rule::OpenCloseLoop => "open_close_loop",
            Rule::SwitchLoop => "switch_loop",
            Rule::RefusedAgain => "refused_again",
            Rule::BrokenDeviceUsed => "broken_device_used",
            Rule::FoodPastBestBefore => "food_past_best_before",
            Rule::RubbishReused => "rubbish_reused",
            Rule::EmptyUsed => "empty_used",
            Rule::ImpossiblePlaceSaid => "impossible_place_said",
            Rule::SaidTwoWays => "said_two_ways",
        }
    }

    /// What the rule catches, for `--help` and docs/lint.md.
    pub fn about(self) -> &'static str {
        match self {
            Rule::ClosedDoorCrossed => "a walk passes a door that is closed",
            Rule::TwoPlacesAtOnce => "an actor starts an action before its previous one ended",
            Rule::MovedFromOtherHands => "an object leaves the hands of someone who did not act",
            Rule::ChangeMismatch => "a change's old value is not the state it changes",
            Rule::RobotLeftOpen => "the robot walks out of a room leaving open what it opened",
            Rule::TakenWhileInUse => "the robot takes an object from a person busy beside it",
            Rule::FoodBackTooSoon => {
                "food goes back into cold storage under 10 minutes after it came out"
            }
            Rule::PerishableOutOvernight => "a perishable is out of cold storage at 03:00",
            Rule::MealAtNight => "food is taken out or moved between 00:00 and 05:00",
            Rule::RanEmpty => "an oven, dishwasher or washer ran with nothing inside",
            Rule::SetWhileOff => "a program or timer is set on a device that is off",
            Rule::CycleCutShort => "a machine is stopped or opened before its program is over",
            Rule::SpokeOutOfEarshot => "an utterance to someone out of earshot (rejected)",
            Rule::WordsOffTime => "morning words said after noon, or night words before noon",
            Rule::PingPongWalk => {
                "an actor walks back and forth between the same two spots three or more times with nothing done"
            }
            Rule::DoorWithoutPassing => {
                "a door is opened or closed with nobody walking through it within 5 minutes (nor the actor on the way in or out)"
            }
            Rule::CrossedBedroom => "a walk crosses someone else's bedroom on the way elsewhere",
            Rule::LeftOutOfPlace => {
                "an object is left 4 hours or overnight where its category does not belong (unless planned)"
            }
            Rule::AimlessWalking => "six or more walks in a row that change nothing",
            Rule::ActedWhileOut => {
                "someone out of the house does something there (anything but arrive or wait)"
            }
            Rule::SeenWhileOut => "someone out of the house perceives an event in it",
            Rule::UsedWhileOutside => {
                "an object outside the house (or carried by someone out) is acted on"
            }
            Rule::VisitorNeverLeft => {
                "someone who started outside came in and is still in at the end of the trace"
            }
            Rule::OutOvernight => {
                "someone is out at 03:00, gone for other than a trip, work or home"
            }
            Rule::StraightBackOut => {
                "someone of the household comes in and goes out again within 10 minutes"
            }
            Rule::OpenCloseLoop => {
                "an actor opens and shuts the same thing three times or more in a row with nothing else done"
            }
            Rule::SwitchLoop => {
                "an actor sets the same device field three times or more in a row with nothing else done (a lamp on, off, on)"
            }
            Rule::RefusedAgain => {
                "an actor asks for the same thing three times or more in a row and is refused each time for the same reason"
            }
            Rule::BrokenDeviceUsed => {
                "someone who saw a device broken (break, or broken since) tries to use it before it is repaired"
            }
            Rule::EmptyUsed => {
                "someone pours from (uses) a thing with nothing left in it: its last serving was used and it was never replaced"
            }
            Rule::FoodPastBestBefore => {
                "food is put out to eat (anywhere but a bin or cold storage) after the best-before day its description gives"
            }
            Rule::RubbishReused => {
                "a thing thrown in the bin is put somewhere in the house again instead of being taken out"
            }
            Rule::ImpossiblePlaceSaid => {
                "someone says a thing is on a place that holds things only inside it (on the drawer), or in one that holds them only on top"
            }
            Rule::SaidTwoWays => {
                "one utterance states the same fact two ways (the umbrella on the coat rack, then in the nightstand)"
            }
        }
    }
}

/// One implausible thing in a trace.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    pub rule: &'static str,
    /// The event it is about (None: the state at a time, e.g. 03:00).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<u64>,
    pub t: u64,
    pub time: String,
    pub entities: Vec<Id>,
    pub message: String,
    /// Walks in a back-and-forth (`ping_pong_walk`), else 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub walks: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

#[derive(Debug, Error, PartialEq)]
pub enum LintError {
    #[error("the scene has {0} problems; lint needs a valid scene")]
    Scene(usize),
}

/// Findings per rule code, every rule listed (zeros included).
pub fn counts(findings: &[Finding]) -> BTreeMap<&'static str, usize> {
    let mut c: BTreeMap<&'static str, usize> = Rule::ALL.iter().map(|r| (r.code(), 0)).collect();
    for f in findings {
        *c.entry(f.rule).or_default() += 1;
    }
    c
}
