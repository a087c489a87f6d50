//! Requests to the executor: the JSON shape that scripts, the scripted
//! generator and LLM actors all emit, one per line:
//! `{"actor":"robot","skill":"pick","args":{"object":"mug_2"},"at":3600}`.
//!
//! Parsing checks shape only (known skill, required arguments, types);
//! whether the request makes sense in the world is the executor's call.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::claim::Claim;
use super::value::Value;
use crate::ids::Id;

/// `on` a surface or `in` a container.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Relation {
    On,
    In,
}

/// Where someone going out is headed (`leave`'s `to`): one type with the
/// schedules that send people there.
pub use crate::catalogue::schedules::Destination;

/// A skill and its arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "skill",
    content = "args",
    rename_all = "snake_case",
    deny_unknown_fields
)]
pub enum Action {
    /// Walk to a room, furniture, device, object or actor.
    NavigateTo {
        target: Id,
    },
    /// Look closely at a fixture, device, object or actor, or look around
    /// the room the actor is in.
    Inspect {
        target: Id,
    },
    Pick {
        object: Id,
    },
    Place {
        object: Id,
        target: Id,
        relation: Relation,
    },
    Open {
        target: Id,
    },
    Close {
        target: Id,
    },
    SetDeviceState {
        device: Id,
        field: String,
        value: Value,
    },
    /// Give a held object to a co-located actor with a free hand.
    Handoff {
        object: Id,
        to: Id,
    },
    /// An utterance; `to` are the addressees (empty: whoever hears it).
    /// `claims` are the facts it asserts, in structured form.
    Say {
        text: String,
        #[serde(default)]
        to: Vec<Id>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        claims: Vec<Claim>,
    },
    /// Let time pass. In `standby` (a robot charging with its sensors off)
    /// the actor perceives nothing of what others do until the wait ends.
    Wait {
        seconds: u64,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        standby: bool,
    },
    /// Go out through an exterior `door`, headed `to`. Everything the
    /// person holds or carries goes with them, and so do the objects in
    /// `take` (within reach on the way out).
    Leave {
        door: Id,
        to: Destination,
        #[serde(default)]
        take: Vec<Id>,
    },
    /// Come in through an exterior `door` with the objects in `bring`
    /// (carried by them outside, or outside with no one); what else they
    /// carried stays outside.
    Arrive {
        door: Id,
        #[serde(default)]
        bring: Vec<Id>,
    },
    /// The actor, at `device`, finds it broken: it stops working (its
    /// `broken` state becomes true) and refuses `set_device_state` until
    /// a `repair`. Breakdowns come from the household's calendar.
    FindBroken {
        device: Id,
    },
    /// The actor, at `device`, repairs it: `broken` becomes false.
    Repair {
        device: Id,
    },
    /// A serving of `object` used (milk poured, a tablet into the
    /// dishwasher): its `level`, the servings left, one down. Held, or
    /// within reach where it lies; refused once it is empty.
    Use {
        object: Id,
    },
    /// The actor writes on `object` (the shopping list on the fridge): its
    /// `text` becomes `text`, the whole of what is written on it now.
    /// Held, or within reach where it lies.
    Write {
        object: Id,
        text: String,
    },
}

/// Every skill name, in the order docs/requests.md lists them.
pub const SKILLS: &[&str] = &[
    "navigate_to",
    "inspect",
    "pick",
    "place",
    "open",
    "close",
    "set_device_state",
    "handoff",
    "say",
    "wait",
    "leave",
    "arrive",
    "find_broken",
    "repair",
    "use",
    "write",
];

impl Action {
    pub fn skill_name(&self) -> &'static str {
        match self {
            Action::NavigateTo { .. } => "navigate_to",
            Action::Inspect { .. } => "inspect",
            Action::Pick { .. } => "pick",
            Action::Place { .. } => "place",
            Action::Open { .. } => "open",
            Action::Close { .. } => "close",
            Action::SetDeviceState { .. } => "set_device_state",
            Action::Handoff { .. } => "handoff",
            Action::Say { .. } => "say",
            Action::Wait { .. } => "wait",
            Action::Leave { .. } => "leave",
            Action::Arrive { .. } => "arrive",
            Action::FindBroken { .. } => "find_broken",
            Action::Repair { .. } => "repair",
            Action::Use { .. } => "use",
            Action::Write { .. } => "write",
        }
    }

    /// Entity ids among the arguments, in argument order.
    pub fn entity_args(&self) -> Vec<&Id> {
        match self {
            Action::NavigateTo { target }
            | Action::Inspect { target }
            | Action::Open { target }
            | Action::Close { target } => vec![target],
            Action::Pick { object } | Action::Use { object } | Action::Write { object, .. } => {
                vec![object]
            }
            Action::Place { object, target, .. } => vec![object, target],
            Action::SetDeviceState { device, .. }
            | Action::FindBroken { device }
            | Action::Repair { device } => vec![device],
            Action::Handoff { object, to } => vec![object, to],
            Action::Say { to, claims, .. } => {
                to.iter().chain(claims.iter().map(|c| &c.entity)).collect()
            }
            Action::Wait { .. } => vec![],
            Action::Leave { door, take, .. } => std::iter::once(door).chain(take).collect(),
            Action::Arrive { door, bring } => std::iter::once(door).chain(bring).collect(),
        }
    }
}

/// One request: who does what, optionally at a given simulated time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Request {
    pub actor: Id,
    #[serde(flatten)]
    pub action: Action,
    /// Simulated start time in seconds since midnight of day 1; default:
    /// as soon as the actor is free.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<u64>,
}

/// A request line that is not a well-formed request.
#[derive(Debug, Error, PartialEq)]
pub enum RequestError {
    #[error("not JSON: {0}")]
    Json(String),
    #[error("{0}")]
    Shape(String),
    #[error("unknown skill {got:?}; skills are {}", SKILLS.join(", "))]
    UnknownSkill { got: String },
    #[error("bad arguments for {skill}: {why}")]
    Args { skill: String, why: String },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRequest {
    actor: Id,
    skill: String,
    #[serde(default)]
    args: Option<serde_json::Value>,
    #[serde(default)]
    at: Option<u64>,
}

impl Request {
    pub fn new(actor: &str, action: Action) -> Self {
        Request {
            actor: Id::new(actor),
            action,
            at: None,
        }
    }

    pub fn at(mut self, t: u64) -> Self {
        self.at = Some(t);
        self
    }

    /// Parses one JSON request, with errors that say which part is wrong.
    pub fn from_json(text: &str) -> Result<Request, RequestError> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| RequestError::Json(e.to_string()))?;
        let raw: RawRequest =
            serde_json::from_value(value).map_err(|e| RequestError::Shape(e.to_string()))?;
        if !SKILLS.contains(&raw.skill.as_str()) {
            return Err(RequestError::UnknownSkill { got: raw.skill });
        }
        let args = raw.args.unwrap_or_else(|| serde_json::json!({}));
        let tagged = serde_json::json!({ "skill": raw.skill, "args": args });
        let action: Action = serde_json::from_value(tagged).map_err(|e| RequestError::Args {
            skill: raw.skill.clone(),
            why: e.to_string(),
        })?;
        Ok(Request {
            actor: raw.actor,
            action,
            at: raw.at,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_documented_shape() {
        let r = Request::from_json(r#"{"actor":"robot","skill":"pick","args":{"object":"mug_2"}}"#)
            .unwrap();
        assert_eq!(
            r,
            Request::new(
                "robot",
                Action::Pick {
                    object: Id::new("mug_2")
                }
            )
        );
        let r = Request::from_json(r#"{"actor":"alice","skill":"place","args":{"object":"mug_1","target":"fridge_1","relation":"in"},"at":100}"#).unwrap();
        assert_eq!(r.at, Some(100));
        let r =
            Request::from_json(r#"{"actor":"bob","skill":"say","args":{"text":"hi"}}"#).unwrap();
        assert!(matches!(r.action, Action::Say { ref to, .. } if to.is_empty()));
        let r = Request::from_json(r#"{"actor":"bob","skill":"set_device_state","args":{"device":"tv_1","field":"volume","value":20}}"#).unwrap();
        assert!(matches!(
            r.action,
            Action::SetDeviceState {
                value: Value::Int(20),
                ..
            }
        ));
    }

    #[test]
    fn leave_and_arrive_parse_with_defaults() {
        let r = Request::from_json(
            r#"{"actor":"bob","skill":"leave","args":{"door":"front_door","to":"work","take":["laptop"]}}"#,
        )
        .unwrap();
        assert_eq!(
            r.action,
            Action::Leave {
                door: Id::new("front_door"),
                to: Destination::Work,
                take: vec![Id::new("laptop")]
            }
        );
        let r =
            Request::from_json(r#"{"actor":"bob","skill":"arrive","args":{"door":"front_door"}}"#)
                .unwrap();
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            r#"{"actor":"bob","skill":"arrive","args":{"door":"front_door","bring":[]}}"#
        );
        let err = Request::from_json(
            r#"{"actor":"bob","skill":"leave","args":{"door":"d","to":"moon"}}"#,
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("unknown variant `moon`"), "{err}");
        for d in Destination::ALL {
            assert_eq!(
                serde_json::to_string(&d).unwrap(),
                format!("\"{}\"", d.name())
            );
        }
    }

    #[test]
    fn round_trips_through_json() {
        let r = Request::new(
            "robot",
            Action::Place {
                object: Id::new("a"),
                target: Id::new("b"),
                relation: Relation::In,
            },
        )
        .at(5);
        let text = serde_json::to_string(&r).unwrap();
        assert_eq!(
            text,
            r#"{"actor":"robot","skill":"place","args":{"object":"a","target":"b","relation":"in"},"at":5}"#
        );
        assert_eq!(Request::from_json(&text).unwrap(), r);
    }

    #[test]
    fn rejects_malformed_requests() {
        let bad = [
            ("not json", "not JSON"),
            (
                r#"{"skill":"pick","args":{"object":"x"}}"#,
                "missing field `actor`",
            ),
            (
                r#"{"actor":"robot","skill":"grab","args":{}}"#,
                "unknown skill \"grab\"",
            ),
            (
                r#"{"actor":"robot","skill":"pick","args":{}}"#,
                "missing field `object`",
            ),
            (
                r#"{"actor":"robot","skill":"pick","args":{"object":"x","extra":1}}"#,
                "unknown field `extra`",
            ),
            (
                r#"{"actor":"robot","skill":"place","args":{"object":"x","target":"y","relation":"under"}}"#,
                "unknown variant `under`",
            ),
            (
                r#"{"actor":"robot","skill":"wait","args":{"seconds":-3}}"#,
                "bad arguments for wait",
            ),
            (
                r#"{"actor":"robot","skill":"wait","args":{"seconds":3},"when":1}"#,
                "unknown field `when`",
            ),
            (r#"[1,2]"#, "invalid type"),
        ];
        for (text, want) in bad {
            let err = Request::from_json(text).unwrap_err().to_string();
            assert!(err.contains(want), "{text}: {err} should mention {want}");
        }
    }
}
