//! Why the executor refused a request, and an event's outcome.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Declares [`RejectionCode`] from one list, so a variant and its code on
/// the wire cannot drift apart.
macro_rules! rejection_codes {
    ($($(#[$doc:meta])* $variant:ident => $code:literal,)*) => {
        /// The stable reason of a [`Rejection`], written as its [`code`]
        /// (`container_closed`, `unknown_entity`, ...).
        ///
        /// [`code`]: RejectionCode::code
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum RejectionCode {
            $($(#[$doc])* $variant,)*
        }

        impl RejectionCode {
            /// Every code, in the order the executor checks them.
            pub const ALL: &[RejectionCode] = &[$(RejectionCode::$variant,)*];

            /// The stable snake_case code.
            pub fn code(self) -> &'static str {
                match self {
                    $(RejectionCode::$variant => $code,)*
                }
            }
        }
    };
}

rejection_codes! {
    /// No actor has the request's actor id.
    UnknownActor => "unknown_actor",
    /// The requested start is before the current time.
    TimeInPast => "time_in_past",
    /// The requested start is before the actor's last action ends.
    ActorBusy => "actor_busy",
    /// An id names nothing in the scene.
    UnknownEntity => "unknown_entity",
    /// The target exists but is not the kind of thing the skill acts on.
    BadTarget => "bad_target",
    /// The actor already stands where it asked to walk.
    AlreadyThere => "already_there",
    /// Closed doors leave no way to the destination.
    DoorClosed => "door_closed",
    /// The actor is not at, or in the room of, what it acts on.
    NotColocated => "not_colocated",
    /// What the actor would inspect is shut in a closed container.
    NotVisible => "not_visible",
    /// Only objects can be picked up.
    NotPickable => "not_pickable",
    /// The actor already holds the object.
    AlreadyHolding => "already_holding",
    /// Someone else holds the object.
    HeldByOther => "held_by_other",
    /// The object is inside a closed container.
    InsideClosedContainer => "inside_closed_container",
    /// The actor's hands are full.
    HandsFull => "hands_full",
    /// The actor does not hold the object it would put down or hand over.
    NotHolding => "not_holding",
    /// The target has no surface or inside.
    NotAReceptacle => "not_a_receptacle",
    /// The target has no surface for the relation asked (on or in).
    NoSuchSurface => "no_such_surface",
    /// The container to put something in is closed.
    ContainerClosed => "container_closed",
    /// The surface or inside is full.
    CapacityFull => "capacity_full",
    /// The target does not open or close.
    NotOpenable => "not_openable",
    /// The target is open already.
    AlreadyOpen => "already_open",
    /// The target is closed already.
    AlreadyClosed => "already_closed",
    /// The target has no state to set.
    NotADevice => "not_a_device",
    /// The device has no such field.
    UnknownField => "unknown_field",
    /// The value is outside the field's schema.
    ValueOutOfSchema => "value_out_of_schema",
    /// The field already has the value.
    NoChange => "no_change",
    /// `set_device_state` of `broken`, which only `find_broken` and
    /// `repair` change.
    NotSettable => "not_settable",
    /// The device is broken: it does nothing until it is repaired.
    DeviceBroken => "device_broken",
    /// `use` of an object that is not used up (the catalogue gives its
    /// kind no servings).
    NotConsumable => "not_consumable",
    /// `use` of a thing with nothing left in it.
    Empty => "empty",
    /// `write` on an object nothing is written on (only a list is).
    NotWritable => "not_writable",
    /// Objects are handed, and words addressed, to actors only.
    NotAnActor => "not_an_actor",
    /// An actor cannot hand something to itself.
    SelfHandoff => "self_handoff",
    /// The one to hand the object to is in another room.
    PartnerNotColocated => "partner_not_colocated",
    /// The one to hand the object to has full hands.
    PartnerHandsFull => "partner_hands_full",
    /// An utterance without words.
    EmptyUtterance => "empty_utterance",
    /// An addressee cannot hear the speaker.
    NotInEarshot => "not_in_earshot",
    /// A claim about an attribute its entity does not have.
    BadClaim => "bad_claim",
    /// A wait of no time or of more than a day.
    BadWait => "bad_wait",
    /// The actor is out of the house: it can only `arrive` or `wait`.
    ActorOutside => "actor_outside",
    /// What the actor would act on or walk to is out of the house.
    TargetOutside => "target_outside",
    /// `leave` or `arrive` through a door that does not lead outside.
    NotExteriorDoor => "not_exterior_door",
    /// `leave` by someone who is out already.
    AlreadyOutside => "already_outside",
    /// `arrive` by someone who is home.
    AlreadyHome => "already_home",
    /// The robot never leaves the house.
    RobotStaysHome => "robot_stays_home",
    /// `arrive` bringing an object that is not outside.
    NotOutside => "not_outside",
}

impl RejectionCode {
    /// The variant written as `code`, if any.
    pub fn from_code(code: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|c| c.code() == code)
    }
}

impl fmt::Display for RejectionCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl Serialize for RejectionCode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

impl<'de> Deserialize<'de> for RejectionCode {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let code = String::deserialize(d)?;
        Self::from_code(&code)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown rejection code {code:?}")))
    }
}

/// Why the executor refused a request. Nothing changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rejection {
    /// Stable and machine-readable, for code that reacts to it.
    pub code: RejectionCode,
    /// For a person reading the trace.
    pub message: String,
    /// For an LLM actor: what to do instead.
    pub hint: String,
}

impl Rejection {
    pub fn new(code: RejectionCode, message: String, hint: String) -> Self {
        Rejection {
            code,
            message,
            hint,
        }
    }
}

/// `"ok"`, or the rejection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Ok,
    Rejected(Rejection),
}

impl Outcome {
    pub fn is_ok(&self) -> bool {
        matches!(self, Outcome::Ok)
    }

    pub fn rejection(&self) -> Option<&Rejection> {
        match self {
            Outcome::Ok => None,
            Outcome::Rejected(r) => Some(r),
        }
    }
}

impl Serialize for Outcome {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Outcome::Ok => s.serialize_str("ok"),
            Outcome::Rejected(r) => r.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for Outcome {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Tag(String),
            Rejected(Rejection),
        }
        match Raw::deserialize(d)? {
            Raw::Tag(t) if t == "ok" => Ok(Outcome::Ok),
            Raw::Tag(t) => Err(serde::de::Error::custom(format!(
                "outcome must be \"ok\" or a rejection object, not {t:?}"
            ))),
            Raw::Rejected(r) => Ok(Outcome::Rejected(r)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_round_trips() {
        let ok: Outcome = serde_json::from_str("\"ok\"").unwrap();
        assert_eq!(ok, Outcome::Ok);
        let rej = Outcome::Rejected(Rejection {
            code: RejectionCode::ContainerClosed,
            message: "m".into(),
            hint: "h".into(),
        });
        let text = serde_json::to_string(&rej).unwrap();
        assert_eq!(serde_json::from_str::<Outcome>(&text).unwrap(), rej);
        assert!(serde_json::from_str::<Outcome>("\"fine\"").is_err());
    }

    #[test]
    fn codes_are_written_as_ever() {
        let rej = Rejection::new(RejectionCode::NotInEarshot, "m".into(), "h".into());
        let text = serde_json::to_string(&rej).unwrap();
        assert_eq!(
            text,
            r#"{"code":"not_in_earshot","message":"m","hint":"h"}"#
        );
        assert_eq!(serde_json::from_str::<Rejection>(&text).unwrap(), rej);
        for &c in RejectionCode::ALL {
            assert_eq!(RejectionCode::from_code(c.code()), Some(c));
        }
        let unknown = r#"{"code":"made_up","message":"m","hint":"h"}"#;
        assert!(serde_json::from_str::<Rejection>(unknown).is_err());
    }
}
