//! The goals and turns the scripted household's sessions are made of,
//! and a goal in words for the director's notes.

use super::lookup::{describe, place_words};
use crate::generation::{Dest, Goal, Turn};
use crate::ids::Id;
use crate::scene::Indexed;
use crate::trace::{Claim, ClaimMode, Location, Value};

pub(super) fn say(to: &[&Id], text: String) -> Goal {
    say_claims(to, text, vec![])
}

pub(super) fn say_claims(to: &[&Id], text: String, claims: Vec<Claim>) -> Goal {
    Goal::Say {
        to: to.iter().map(|i| (*i).clone()).collect(),
        text,
        claims,
    }
}

/// "`holder` likes `device.field` at `value`", as a structured claim.
pub(super) fn preference(holder: &Id, device: &Id, field: &str, value: Value) -> Claim {
    Claim {
        mode: ClaimMode::Preference,
        holder: Some(holder.clone()),
        ..Claim::fact(device.clone(), Id::new(field), value)
    }
}

/// A commitment's goal as the request claim said with it.
pub(super) fn request_claim(goal: &Goal, due: u64) -> Option<Claim> {
    let (entity, attr, value) = match goal {
        Goal::Fetch { object, to } => (
            object.clone(),
            Id::new("location"),
            Value::Location(match to {
                Dest::On(r) => Location::On(r.clone()),
                Dest::In(r) => Location::In(r.clone()),
                Dest::Actor(a) => Location::HeldBy(a.clone()),
            }),
        ),
        Goal::Operate {
            device,
            field,
            value,
        } => (device.clone(), field.clone(), value.clone()),
        _ => return None,
    };
    Some(Claim {
        mode: ClaimMode::Request,
        due: Some(due),
        ..Claim::fact(entity, attr, value)
    })
}

pub(super) fn turn(actor: &Id, goal: Goal) -> Turn {
    Turn {
        actor: actor.clone(),
        goal,
        not_before: None,
        otherwise: None,
    }
}

/// Let `seconds` pass, perceiving as usual.
pub(super) fn wait(seconds: u64) -> Goal {
    Goal::Wait { seconds }
}

/// Set `device`'s `field` to `value`.
pub(super) fn operate(device: Id, field: &str, value: Value) -> Goal {
    Goal::Operate {
        device,
        field: Id::new(field),
        value,
    }
}

/// A goal as a task ("put the white shirt in the wardrobe") or, `done`, as
/// reached ("the white shirt is in the wardrobe").
pub(super) fn goal_text(s: Indexed<'_>, g: &Goal, done: bool) -> String {
    match g {
        Goal::Fetch {
            object,
            to: Dest::Actor(a),
        } => {
            let o = describe(s, object);
            if done {
                format!("{a} has the {o}")
            } else {
                format!("bring the {o} to {a}")
            }
        }
        Goal::Fetch { object, to } => {
            let (rel, r) = match to {
                Dest::On(r) => ("on", r),
                Dest::In(r) | Dest::Actor(r) => ("in", r),
            };
            let (o, k) = (describe(s, object), place_words(s, r, None));
            if done {
                let be = if crate::catalogue::plural(&o) {
                    "are"
                } else {
                    "is"
                };
                format!("the {o} {be} {rel} {k}")
            } else {
                format!("put the {o} {rel} {k}")
            }
        }
        Goal::Operate {
            device,
            field,
            value,
        } => {
            let d = place_words(s, device, None);
            match (value, done) {
                (Value::Bool(on), _) if field.as_str() == "power" => {
                    let v = if *on { "on" } else { "off" };
                    if done {
                        format!("{d} is {v}")
                    } else {
                        format!("switch {d} {v}")
                    }
                }
                (v, true) => format!("the {field} of {d} is {v}"),
                (v, false) => format!("set the {field} of {d} to {v}"),
            }
        }
        _ if done => "it is done".into(),
        _ => "do it".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::SceneIndex;

    #[test]
    fn what_is_done_agrees_with_the_thing() {
        let scene = crate::scene::default_scene();
        let index = SceneIndex::new(&scene);
        let s = index.over(&scene);
        let put = |object: &str| Goal::Fetch {
            object: Id::new(object),
            to: Dest::On(Id::new("sofa_1")),
        };
        assert_eq!(
            goal_text(s, &put("glasses_2"), true),
            "the black sunglasses are on the sofa"
        );
        let mug = goal_text(s, &put("mug_1"), true);
        assert!(
            mug.starts_with("the ") && mug.ends_with(" is on the sofa"),
            "{mug}"
        );
        assert_eq!(
            goal_text(s, &put("glasses_2"), false),
            "put the black sunglasses on the sofa"
        );
    }
}
