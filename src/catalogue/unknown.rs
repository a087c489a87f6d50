//! Fixture kinds the catalogue does not know. A scene may name its
//! furniture and devices freely, but a kind that is neither a catalogue
//! kind nor an alias, and carries no `roles`, plays no role: the offline
//! household never finds its fridge in an "icebox". These are warnings,
//! not validation errors; each names the nearest catalogue kind and the
//! roles to add.

use std::fmt;

use serde::Serialize;

use super::model::Catalogue;
use crate::ids::{Id, edit_distance};
use crate::scene::{Role, Scene};

/// A fixture whose kind plays no role.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnknownKind {
    pub fixture: Id,
    /// `furniture` or `device`.
    pub what: &'static str,
    pub kind: String,
    /// The nearest catalogue kind (by its name or an alias), with its roles.
    pub nearest: String,
    pub roles: Vec<Role>,
}

impl fmt::Display for UnknownKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}: kind {:?} is not in the catalogue and has no roles, so it plays none; nearest kind {:?}",
            self.what, self.fixture, self.kind, self.nearest
        )?;
        if self.roles.is_empty() {
            write!(f, " (which plays no role either)")
        } else {
            let roles: Vec<String> = self.roles.iter().map(|r| r.name()).collect();
            write!(
                f,
                ": call it {:?} or add `roles: [{}]`",
                self.nearest,
                roles.join(", ")
            )
        }
    }
}

/// Every furniture and device of `scene` whose kind the catalogue does not
/// know and that has no roles of its own, in scene order.
pub fn unknown_kinds(scene: &Scene, cat: &Catalogue) -> Vec<UnknownKind> {
    let furniture = scene
        .furniture
        .iter()
        .filter(|f| f.roles.is_empty() && cat.furniture_kind(&f.kind).is_none())
        .filter(|f| cat.device_kind(&f.kind).is_none())
        .map(|f| ("furniture", &f.id, &f.kind, context(&f.id, &f.description)));
    let devices = scene
        .devices
        .iter()
        .filter(|d| d.roles.is_empty() && cat.device_kind(&d.kind).is_none())
        .filter(|d| cat.furniture_kind(&d.kind).is_none())
        .map(|d| ("device", &d.id, &d.kind, context(&d.id, &d.description)));
    furniture
        .chain(devices)
        .map(|(what, id, kind, about)| {
            let nearest = nearest_kind_given(kind, &about, cat);
            UnknownKind {
                fixture: id.clone(),
                what,
                kind: kind.clone(),
                roles: cat.fixture_roles(&nearest).to_vec(),
                nearest,
            }
        })
        .collect()
}

/// A fixture's id and description as words (`fridge_1`, "steel fridge":
/// "fridge 1 steel fridge"): they often name what the kind does not.
fn context(id: &Id, description: &str) -> String {
    format!(
        " {} {} ",
        id.as_str().replace('_', " "),
        description.to_lowercase()
    )
}

/// `nearest_kind`, but a kind whose name or alias appears as words in
/// `context` (the fixture's id and description) comes first.
pub fn nearest_kind_given(name: &str, context: &str, cat: &Catalogue) -> String {
    let said = |n: &str| context.contains(&format!(" {} ", n.to_lowercase()));
    cat.furniture
        .iter()
        .map(|f| (&f.kind, &f.aliases))
        .chain(cat.devices.iter().map(|d| (&d.kind, &d.aliases)))
        .filter(|(k, aliases)| said(k) || aliases.iter().any(|a| said(a)))
        .max_by_key(|(k, _)| k.len())
        .map(|(k, _)| k.clone())
        .unwrap_or_else(|| nearest_kind(name, cat))
}

/// The furniture or device kind whose name or alias is nearest to `name`:
/// fewest edits relative to the longer name, less a half for a word of
/// three letters or more that one name contains from the other ("bench
/// top" and "countertop" share "top"). Ties go to the catalogue's order.
pub fn nearest_kind(name: &str, cat: &Catalogue) -> String {
    let name = name.to_lowercase();
    let words = |s: &str| -> Vec<String> {
        s.split(|c: char| !c.is_alphanumeric())
            .filter(|w| w.len() >= 3)
            .map(str::to_string)
            .collect()
    };
    let mine = words(&name);
    let score = |other: &str| {
        let other = other.to_lowercase();
        let edits = edit_distance(&name, &other) as f32 / name.len().max(other.len()).max(1) as f32;
        let shared = mine.iter().any(|w| other.contains(w.as_str()))
            || words(&other).iter().any(|w| name.contains(w.as_str()));
        edits - if shared { 0.5 } else { 0.0 }
    };
    let kinds = cat
        .furniture
        .iter()
        .map(|f| (&f.kind, &f.aliases))
        .chain(cat.devices.iter().map(|d| (&d.kind, &d.aliases)));
    kinds
        .map(|(kind, aliases)| {
            let best = std::iter::once(kind)
                .chain(aliases)
                .map(|n| score(n))
                .fold(f32::INFINITY, f32::min);
            (best, kind)
        })
        .fold((f32::INFINITY, String::new()), |acc, (s, k)| {
            if s < acc.0 { (s, k.clone()) } else { acc }
        })
        .1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_kinds_by_edits_and_shared_words() {
        let cat = crate::catalogue::builtin();
        assert_eq!(nearest_kind("fridge box", cat), "fridge");
        assert_eq!(nearest_kind("Dinner Table", cat), "dining table");
        assert_eq!(nearest_kind("basin", cat), "sink counter");
    }
}
