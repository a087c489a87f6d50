//! World grounding: a compact text "semantic view" of a scene for prompts
//! and for people reading a plan.

use std::fmt::Write;

use crate::catalogue::Roles;
use crate::scene::{FieldDef, Fixture, Openable, Scene, Surface};

/// The scene in words: rooms and how they connect, each fixture with its
/// surfaces, whether it opens, its device fields and the roles it plays in
/// household life (so a prompt can find "cold storage" whatever the kind
/// is called), the objects on and in it, and the actors.
pub fn semantic_view(scene: &Scene) -> String {
    let roles = Roles::builtin(scene);
    let mut out = String::new();
    let _ = writeln!(out, "{} ({}): {}", scene.name, scene.id, scene.description);
    for room in &scene.rooms {
        let _ = writeln!(out, "room {} \"{}\"", room.id, room.name);
        let doors: Vec<String> = scene
            .doors
            .iter()
            .filter_map(|d| {
                let other = if d.rooms.0 == room.id {
                    &d.rooms.1
                } else if d.rooms.1 == room.id {
                    &d.rooms.0
                } else {
                    return None;
                };
                Some(format!(
                    "{other} via {}{}",
                    d.id,
                    if d.openable { " (door)" } else { "" }
                ))
            })
            .collect();
        let _ = writeln!(out, "  connects to: {}", doors.join(", "));
        let fixtures = (scene.furniture.iter().map(|f| (Fixture::from(f), None)))
            .chain(scene.devices.iter().map(|d| (Fixture::from(d), Some(d))));
        for (f, device) in fixtures.filter(|(f, _)| f.room == &room.id) {
            let (id, kind, surfaces, openable) = (f.id, f.kind, f.surfaces, f.openable);
            let mut tags: Vec<String> = surfaces
                .iter()
                .map(|s| match s {
                    Surface::On(c) => format!("on:{c}"),
                    Surface::In(c) => format!("in:{c}"),
                })
                .collect();
            if openable != Openable::No {
                tags.push("openable".into());
            }
            let played: Vec<String> = roles.of(id).iter().map(|r| r.name()).collect();
            if !played.is_empty() {
                tags.push(format!("roles[{}]", played.join(",")));
            }
            if let Some(d) = device {
                let fields: Vec<String> = d
                    .fields
                    .iter()
                    .map(|(n, f)| format!("{n}={}", field_text(f)))
                    .collect();
                tags.push(format!(
                    "device[{}]{}",
                    fields.join(" "),
                    if d.remote { " remote" } else { "" }
                ));
            }
            let _ = writeln!(out, "  {id} ({kind}) {}", tags.join(" "));
            for o in scene.objects.iter().filter(|o| matches!(&o.at, crate::scene::Placement::On(t) | crate::scene::Placement::In(t) if t == id)) {
                let owner = o.owner.as_ref().map(|w| format!(", {w}'s")).unwrap_or_default();
                let _ = writeln!(out, "    {} ({}{}): {}", o.id, o.category, owner, o.description);
            }
        }
    }
    for a in &scene.actors {
        let _ = writeln!(
            out,
            "actor {} \"{}\" {:?}: {}",
            a.id, a.name, a.kind, a.role
        );
    }
    out
}

fn field_text(f: &FieldDef) -> String {
    match f {
        FieldDef::Bool(b) => b.to_string(),
        FieldDef::Int { value, min, max } => format!("{value}[{min}..{max}]"),
        FieldDef::Float { value, min, max } => format!("{value}[{min}..{max}]"),
        FieldDef::Enum { value, options } => format!("{value}[{}]", options.join("|")),
        FieldDef::Timer { value, max } => format!("{value}s[0..{max}]"),
    }
}
