//! Applying a planned request to the world.

use bevy::prelude::*;

use super::step::{Op, Step};
use crate::sim::world::{
    At, Bag, Busy, Clock, Device, Hands, Note, Openable, Placed, Receptacle, Servings, Standby,
};
use crate::trace::request::{Action, Request};

/// System: apply the planned changes, advance the clock and occupy the actor.
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
pub fn apply_step(
    step: Res<Step>,
    mut clock: ResMut<Clock>,
    mut placed: Query<&mut Placed>,
    mut receptacles: Query<&mut Receptacle>,
    mut hands: Query<&mut Hands>,
    mut bags: Query<&mut Bag>,
    mut openables: Query<&mut Openable>,
    mut devices: Query<&mut Device>,
    mut positions: Query<(&mut At, &mut Busy)>,
    mut standby: Query<&mut Standby>,
    mut servings: Query<&mut Servings>,
    mut notes: Query<&mut Note>,
) {
    if step.request.is_none() {
        return;
    }
    clock.now = step.t;
    clock.last_event += 1;
    if step.rejection.is_some() {
        return;
    }
    for op in &step.ops {
        match op {
            Op::Move { object, from, to } => {
                match *from {
                    Placed::On(r) | Placed::In(r) => {
                        let mut rec = receptacles.get_mut(r).expect("planned from a receptacle");
                        let slot = rec
                            .slot_mut(matches!(from, Placed::In(_)))
                            .expect("planned from a surface");
                        slot.items.retain(|i| i != object);
                    }
                    Placed::HeldBy(a) => hands
                        .get_mut(a)
                        .expect("planned from an actor")
                        .0
                        .retain(|i| i != object),
                    Placed::CarriedBy(a) => bags
                        .get_mut(a)
                        .expect("planned from an actor")
                        .0
                        .retain(|i| i != object),
                    Placed::Outside => {}
                }
                match *to {
                    Placed::On(r) | Placed::In(r) => {
                        let mut rec = receptacles.get_mut(r).expect("planned onto a receptacle");
                        rec.slot_mut(matches!(to, Placed::In(_)))
                            .expect("planned onto a surface")
                            .items
                            .push(*object);
                    }
                    Placed::HeldBy(a) => hands
                        .get_mut(a)
                        .expect("planned into hands")
                        .0
                        .push(*object),
                    Placed::CarriedBy(a) => {
                        bags.get_mut(a).expect("planned into a bag").0.push(*object)
                    }
                    Placed::Outside => {}
                }
                *placed.get_mut(*object).expect("planned object") = *to;
            }
            Op::Walk { actor, to, .. } => {
                *positions.get_mut(*actor).expect("planned actor").0 = *to
            }
            Op::SetOpen { target, open } => {
                openables.get_mut(*target).expect("planned openable").open = *open
            }
            Op::SetField {
                device, field, new, ..
            } => {
                // `broken` is added the first time a device breaks.
                devices
                    .get_mut(*device)
                    .expect("planned device")
                    .fields
                    .insert(field.clone(), new.clone());
            }
            Op::SetLevel { object, new, .. } => {
                servings.get_mut(*object).expect("planned consumable").left = Some(*new)
            }
            Op::SetText { object, new, .. } => {
                notes.get_mut(*object).expect("planned note").0 = Some(new.clone())
            }
        }
    }
    if let Some(actor) = step.actor {
        positions.get_mut(actor).expect("resolved actor").1.0 = step.t + step.dur;
        if let Some(Request {
            action: Action::Wait { standby: true, .. },
            ..
        }) = &step.request
        {
            *standby.get_mut(actor).expect("resolved actor") = Standby {
                until: step.t + step.dur,
                looked: false,
            };
        }
    }
}
