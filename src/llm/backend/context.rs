//! What the prompts tell the model of the simulation: the home in the
//! order the schemas list its names, an actor's view of its room, events
//! as lines; and how a prompt is fitted into the model's context: what
//! matters most is kept whole, the rest trimmed line by line, never cut
//! mid-line.

use std::fmt::Write as _;

use crate::ids::Id;
use crate::scene::{FieldDef, ObjectDef, Openable, Placement, Scene, Surface};
use crate::sim::Simulation;
use crate::trace::{Event, Location, Value, clock_time};

/// Characters per token assumed when fitting a prompt: fewer than the
/// usual four, as ids, digits and JSON split into short tokens (3.1 with
/// SmolLM2's tokenizer on hearth's prompts).
pub const CHARS_PER_TOKEN: usize = 3;

/// Tokens a `text` of this length takes at most, about.
pub fn tokens(chars: usize) -> usize {
    chars.div_ceil(CHARS_PER_TOKEN)
}

/// The scene as the model is told of it: the objects in the house now,
/// each where it is now (`sim`), or, before the first session, where the
/// scene puts them. Not what waits beyond the front door (the shop's stock
/// for the months ahead, the courier's parcels) nor what has left for good
/// (rubbish taken out): none of it can be named in a step, and months of
/// stock would crowd every prompt and schema.
pub fn in_house(s: &Scene, sim: Option<&Simulation>) -> Scene {
    let mut out = s.clone();
    out.objects = (s.objects.iter())
        .filter_map(|o| {
            let at = match sim.map(|sim| sim.location(&o.id)) {
                None => o.at.clone(),
                Some(Some(Location::On(t))) => Placement::On(t),
                Some(Some(Location::In(t))) => Placement::In(t),
                Some(Some(Location::HeldBy(a) | Location::CarriedBy(a))) => Placement::HeldBy(a),
                Some(Some(Location::Outside) | None) => Placement::Outside,
            };
            (at != Placement::Outside).then(|| ObjectDef { at, ..o.clone() })
        })
        .collect();
    out
}

/// The home, short, its names in the order the reply schemas list them:
/// people (and the robot), rooms, doors, furniture, devices, objects.
pub fn home(s: &Scene) -> String {
    let mut out = format!("{}: {}\n", s.name, s.description);
    let list = |out: &mut String, label: &str, items: Vec<String>| {
        if !items.is_empty() {
            let _ = writeln!(out, "{label}: {}.", items.join("; "));
        }
    };
    list(
        &mut out,
        "People and the robot",
        s.actors
            .iter()
            .map(|a| format!("{} ({}, {})", a.id, a.name, a.role))
            .collect(),
    );
    list(
        &mut out,
        "Rooms",
        s.rooms.iter().map(|r| r.id.to_string()).collect(),
    );
    list(
        &mut out,
        "Doors",
        s.doors
            .iter()
            .map(|d| {
                let opens = if d.openable { ", opens" } else { "" };
                format!("{} ({} to {}{opens})", d.id, d.rooms.0, d.rooms.1)
            })
            .collect(),
    );
    let holds = |surfaces: &[Surface], openable: Openable| {
        let mut h: Vec<&str> = surfaces
            .iter()
            .map(|x| match x {
                Surface::On(_) => "things on",
                Surface::In(_) => "things in",
            })
            .collect();
        h.dedup();
        if openable != Openable::No {
            h.push("opens");
        }
        h.iter().map(|x| format!(", {x}")).collect::<String>()
    };
    list(
        &mut out,
        "Furniture",
        s.furniture
            .iter()
            .map(|f| {
                format!(
                    "{} ({} in {}{})",
                    f.id,
                    f.kind,
                    f.room,
                    holds(&f.surfaces, f.openable)
                )
            })
            .collect(),
    );
    list(
        &mut out,
        "Devices",
        s.devices
            .iter()
            .map(|d| {
                let fields: Vec<String> = d
                    .fields
                    .iter()
                    .map(|(n, f)| match f {
                        FieldDef::Bool(_) => format!("{n} true/false"),
                        FieldDef::Int { min, max, .. } => format!("{n} {min}..{max}"),
                        FieldDef::Float { min, max, .. } => format!("{n} {min}..{max}"),
                        FieldDef::Enum { options, .. } => format!("{n} {}", options.join("/")),
                        FieldDef::Timer { max, .. } => format!("{n} 0..{max} s"),
                    })
                    .collect();
                format!("{} ({} in {}: {})", d.id, d.kind, d.room, fields.join(", "))
            })
            .collect(),
    );
    list(
        &mut out,
        "Objects",
        s.objects
            .iter()
            .map(|o| {
                let owner = o
                    .owner
                    .as_ref()
                    .map(|w| format!("{w}'s "))
                    .unwrap_or_default();
                let at = match &o.at {
                    Placement::On(t) => format!("on {t}"),
                    Placement::In(t) => format!("in {t}"),
                    Placement::HeldBy(a) => format!("held by {a}"),
                    Placement::Outside => "outside the house".to_string(),
                };
                format!("{} ({owner}{}, {at})", o.id, o.category)
            })
            .collect(),
    );
    out
}

/// The last of `lines` that fit in `room` characters, in order, after a
/// line saying how many earlier ones were left out.
pub fn recent(lines: &[String], room: usize) -> String {
    let mut used = 0;
    let kept = lines
        .iter()
        .rev()
        .take_while(|l| {
            used += l.len() + 1;
            used <= room
        })
        .count();
    let mut out = Vec::with_capacity(kept + 1);
    if kept < lines.len() {
        out.push(format!("({} earlier lines left out)", lines.len() - kept));
    }
    out.extend(lines[lines.len() - kept..].iter().cloned());
    out.join("\n")
}

/// The first of `lines` (most important first) that fit in `room`
/// characters, and how many were left out.
pub fn first(lines: &[String], room: usize) -> String {
    let mut used = 0;
    let kept = lines
        .iter()
        .take_while(|l| {
            used += l.len() + 1;
            used <= room
        })
        .count();
    let mut out = lines[..kept].to_vec();
    if kept < lines.len() {
        out.push(format!("({} more left out)", lines.len() - kept));
    }
    out.join("\n")
}

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

/// One short line per event: time, actor, skill, its arguments, outcome.
pub fn event_line(e: &Event) -> String {
    let outcome = e
        .outcome
        .rejection()
        .map_or(String::new(), |r| format!(" (rejected: {})", r.code));
    let action = serde_json::to_value(&e.action).unwrap_or_default();
    let args: Vec<String> = action["args"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, v)| match v {
            serde_json::Value::String(s) => format!("{k}={s}"),
            v => format!("{k}={v}"),
        })
        .collect();
    format!(
        "{} {} {} {}{outcome}",
        &clock_time(e.t)[..5],
        e.actor,
        e.action.skill_name(),
        args.join(" ")
    )
}
