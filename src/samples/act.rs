//! The acts worth asking about: an action as an [`Act`] (walking, looking,
//! talking and waiting are none), where a place put its object, and what
//! an action was done to.

use crate::ids::Id;
use crate::trace::request::{Action, Relation};
use crate::trace::{Location, Value};

use super::model::Act;

/// The [`Act`] of an action worth asking about; `None` for walking,
/// looking, talking, waiting and using a serving (asked of by what is
/// left, a state).
pub fn act_of(a: &Action) -> Option<Act> {
    let act = |object: Option<&Id>, target: Option<&Id>| Act {
        skill: a.skill_name().into(),
        object: object.cloned(),
        target: target.cloned(),
        field: None,
        value: None,
    };
    Some(match a {
        Action::Open { target } | Action::Close { target } => act(None, Some(target)),
        Action::Pick { object } => act(Some(object), None),
        Action::Place { object, target, .. } => Act {
            value: placed_at(a).map(Value::Location),
            ..act(Some(object), Some(target))
        },
        Action::Handoff { object, to } => act(Some(object), Some(to)),
        Action::SetDeviceState {
            device,
            field,
            value,
        } => Act {
            field: Some(Id::new(field)),
            value: Some(value.clone()),
            ..act(None, Some(device))
        },
        // Who went out where, and who came home: the door is the target,
        // the destination the value ("went out to work").
        Action::Leave { door, to, .. } => Act {
            value: Some(Value::Text(to.name().into())),
            ..act(None, Some(door))
        },
        Action::Arrive { door, .. } => act(None, Some(door)),
        Action::FindBroken { device } | Action::Repair { device } => act(None, Some(device)),
        _ => return None,
    })
}

/// Where a place action put its object.
pub fn placed_at(a: &Action) -> Option<Location> {
    match a {
        Action::Place {
            target, relation, ..
        } => Some(match relation {
            Relation::On => Location::On(target.clone()),
            Relation::In => Location::In(target.clone()),
        }),
        _ => None,
    }
}

/// The main argument of an action (what it was done to).
pub fn main_target(a: &Action) -> Option<Id> {
    match a {
        Action::NavigateTo { target }
        | Action::Inspect { target }
        | Action::Open { target }
        | Action::Close { target } => Some(target.clone()),
        Action::Pick { object }
        | Action::Place { object, .. }
        | Action::Handoff { object, .. }
        | Action::Use { object }
        | Action::Write { object, .. } => Some(object.clone()),
        Action::SetDeviceState { device, .. }
        | Action::FindBroken { device }
        | Action::Repair { device } => Some(device.clone()),
        Action::Leave { door, .. } | Action::Arrive { door, .. } => Some(door.clone()),
        Action::Say { .. } | Action::Wait { .. } => None,
    }
}
