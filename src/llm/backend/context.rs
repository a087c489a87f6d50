//! What the prompts tell the model of the simulation: an actor's view of
//! its room, and events as lines.

use std::fmt::Write as _;

use crate::ids::Id;
use crate::sim::Simulation;
use crate::trace::{Event, Location, Value, clock_time};

/// What `actor` knows of the room it is in, from its own beliefs.
pub fn view(sim: &Simulation, actor: &Id) -> String {
    let mut out = String::new();
    let Some(here) = sim.position(actor) else {
        return out;
    };
    let _ = writeln!(
        out,
        "You are in {} near {}.",
        here.room,
        here.near
            .as_ref()
            .map_or("nothing in particular", |n| n.as_str())
    );
    let held = sim.held_by(actor);
    if !held.is_empty() {
        let held: Vec<&str> = held.iter().map(|h| h.as_str()).collect();
        let _ = writeln!(out, "You hold: {}.", held.join(", "));
    }
    for ((entity, attr), b) in sim.beliefs(actor).into_iter().flatten() {
        let room = match &b.value {
            Value::Location(Location::On(r) | Location::In(r) | Location::HeldBy(r)) => {
                sim.room_of(r)
            }
            _ => sim.room_of(entity),
        };
        if room.as_ref() == Some(&here.room) && attr.as_str() != "position" {
            let _ = writeln!(out, "- {entity} {attr}: {}", b.value);
        }
    }
    out
}

/// One line per event, for the notes prompt.
pub fn event_line(e: &Event) -> String {
    let outcome = e
        .outcome
        .rejection()
        .map_or("ok".to_string(), |r| format!("rejected: {}", r.code));
    format!(
        "{} {} {} {} ({outcome})",
        clock_time(e.t),
        e.actor,
        e.action.skill_name(),
        serde_json::to_string(&e.action).unwrap_or_default()
    )
}
