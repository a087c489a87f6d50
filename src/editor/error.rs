//! Why an edit was refused.

use thiserror::Error;

use crate::ids::Id;

/// Why an edit was refused. The scene is unchanged.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum EditError {
    #[error("no {what} {id}{}", suggest.as_ref().map(|s| format!(" (did you mean {s}?)")).unwrap_or_default())]
    Unknown {
        id: Id,
        what: &'static str,
        suggest: Option<Id>,
    },
    #[error("{id} is {found}, not {expected}")]
    WrongKind {
        id: Id,
        found: &'static str,
        expected: &'static str,
    },
    #[error("the id {id} is already taken")]
    IdTaken { id: Id },
    #[error("{id} at ({}, {}) does not fit inside {}", pos.0, pos.1, room.as_ref().map_or("any room".to_string(), |r| r.to_string()))]
    OutsideRoom {
        id: Id,
        pos: (f32, f32),
        room: Option<Id>,
    },
    #[error("rooms {a} and {b} share no wall long enough for a door")]
    NoSharedWall { a: Id, b: Id },
    #[error("{id} has no {surface} surface")]
    NoSurface { id: Id, surface: &'static str },
    /// `surface` is "on", "in" or "hands".
    #[error("{}", full(id, surface, *capacity))]
    Full {
        id: Id,
        surface: &'static str,
        capacity: u32,
    },
    #[error("{id} is {found}, which has no {prop}")]
    NoSuchProperty {
        id: Id,
        found: &'static str,
        prop: &'static str,
    },
    #[error("{id}: {why}")]
    BadGeometry { id: Id, why: String },
    #[error(
        "{id} is referred to by {}; choose a policy (Cascade or MoveTo)",
        join(by)
    )]
    Referenced { id: Id, by: Vec<Id> },
    #[error("{device}: field {name:?}: {why}")]
    BadField {
        device: Id,
        name: String,
        why: String,
    },
    /// `what` is "furniture or device kind", "room type" or "object category".
    #[error("no {what} {kind:?} in the catalogue")]
    UnknownCatalogueKind { what: &'static str, kind: String },
    #[error("{id}: {why}")]
    BadPolicy { id: Id, why: String },
    #[error("index {index} is past the end of the list ({len} long)")]
    BadIndex { index: usize, len: usize },
    #[error("step {index}: {source}")]
    InBatch {
        index: usize,
        #[source]
        source: Box<EditError>,
    },
}

fn full(id: &Id, surface: &str, capacity: u32) -> String {
    let n = if capacity == 1 {
        "1 object".to_string()
    } else {
        format!("{capacity} objects")
    };
    match surface {
        "hands" => format!("{id}'s hands are full ({n})"),
        s => format!("{id} is full: {n} {s} it already"),
    }
}

fn join(ids: &[Id]) -> String {
    ids.iter().map(Id::as_str).collect::<Vec<_>>().join(", ")
}
