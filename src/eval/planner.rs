//! How built-in agents turn goals into requests for the robot, from what
//! they believe: where objects are and whether containers are open.

use crate::ids::Id;
use crate::samples::model::Prop;
use crate::scene::{Openable, Scene, SceneIndex};
use crate::trace::Location;
use crate::trace::request::{Action, Relation, Request};

/// Requests for `robot` reaching `goals`, given beliefs; an object whose
/// place is unknown (or in someone's hands) is skipped.
pub fn plan(
    scene: &Scene,
    robot: &Id,
    goals: &[Prop],
    where_is: impl Fn(&Id) -> Option<Location>,
    is_open: impl Fn(&Id) -> Option<bool>,
) -> Vec<Request> {
    let mut out = Vec::new();
    let step = |out: &mut Vec<Request>, action| {
        out.push(Request {
            actor: robot.clone(),
            action,
            at: None,
        })
    };
    let index = SceneIndex::new(scene);
    let scene = index.over(scene);
    let openable = |r: &Id| {
        let o = scene.fixture(r).map(|f| f.openable);
        match o {
            None | Some(Openable::No) => None,
            Some(o) => Some(is_open(r).unwrap_or(o == Openable::Open)),
        }
    };
    let remote = |d: &Id| scene.device(d).is_some_and(|x| x.remote);
    for g in goals {
        if let Prop::Field {
            device,
            field,
            value,
        } = g
        {
            if !remote(device) {
                step(
                    &mut out,
                    Action::NavigateTo {
                        target: device.clone(),
                    },
                );
            }
            step(
                &mut out,
                Action::SetDeviceState {
                    device: device.clone(),
                    field: field.to_string(),
                    value: value.clone(),
                },
            );
            continue;
        }
        let object = match g {
            Prop::IsOn { object, .. } | Prop::IsIn { object, .. } | Prop::HeldBy { object, .. } => {
                object
            }
            Prop::Field { .. } => unreachable!("handled above"),
        };
        let from = match where_is(object) {
            Some(Location::On(r)) => (r, false),
            Some(Location::In(r)) => (r, true),
            _ => continue,
        };
        step(
            &mut out,
            Action::NavigateTo {
                target: from.0.clone(),
            },
        );
        let closed_from = from.1 && openable(&from.0) == Some(false);
        if closed_from {
            step(
                &mut out,
                Action::Open {
                    target: from.0.clone(),
                },
            );
        }
        step(
            &mut out,
            Action::Pick {
                object: object.clone(),
            },
        );
        if closed_from {
            step(
                &mut out,
                Action::Close {
                    target: from.0.clone(),
                },
            );
        }
        match g {
            Prop::HeldBy { actor, .. } => {
                step(
                    &mut out,
                    Action::NavigateTo {
                        target: actor.clone(),
                    },
                );
                step(
                    &mut out,
                    Action::Handoff {
                        object: object.clone(),
                        to: actor.clone(),
                    },
                );
            }
            Prop::IsOn { target, .. } | Prop::IsIn { target, .. } => {
                let inside = matches!(g, Prop::IsIn { .. });
                step(
                    &mut out,
                    Action::NavigateTo {
                        target: target.clone(),
                    },
                );
                // A closed receptacle is opened to put a thing in, and shut
                // again after.
                let closed = inside && openable(target) == Some(false);
                if closed {
                    step(
                        &mut out,
                        Action::Open {
                            target: target.clone(),
                        },
                    );
                }
                let relation = if inside { Relation::In } else { Relation::On };
                step(
                    &mut out,
                    Action::Place {
                        object: object.clone(),
                        target: target.clone(),
                        relation,
                    },
                );
                if closed {
                    step(
                        &mut out,
                        Action::Close {
                            target: target.clone(),
                        },
                    );
                }
            }
            Prop::Field { .. } => {}
        }
    }
    out
}
