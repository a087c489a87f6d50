//! Semantic checks of a scene. Every rule has a stable `code`; all problems
//! are collected, never just the first.

// Comparisons are written `!(x > 0.0)` on purpose: NaN must fail them.
#![allow(clippy::nonminimal_bool, clippy::neg_cmp_op_on_partial_ord)]

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use petgraph::graph::UnGraph;
use petgraph::visit::Bfs;

use super::index::{Indexed, SceneIndex, entries};
use super::model::*;
use super::walls::{on_outer_wall, on_shared_wall};
use crate::ids::Id;

pub use super::index::Kind;

/// One thing wrong with a scene.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// Stable, machine-readable rule name (`duplicate_id`, `capacity_exceeded`, ...).
    pub code: &'static str,
    /// The entity at fault.
    pub id: Option<Id>,
    pub message: String,
    /// 1-based line and column in the source, when it could be found.
    pub at: Option<(usize, usize)>,
}

impl Problem {
    fn new(code: &'static str, id: &Id, message: String) -> Self {
        Problem {
            code,
            id: Some(id.clone()),
            message,
            at: None,
        }
    }

    /// Finds where the offending id is defined (`id: "x"`), or else first
    /// mentioned, in the RON source.
    pub fn locate(&mut self, src: &str) {
        let Some(id) = &self.id else { return };
        let quoted = format!("\"{id}\"");
        let def = src
            .match_indices(&quoted)
            .find(|(i, _)| src[..*i].trim_end().ends_with("id:"));
        let first = def.or_else(|| src.match_indices(&quoted).next());
        if let Some((offset, _)) = first {
            let before = &src[..offset];
            let line = before.matches('\n').count() + 1;
            let col = before.len() - before.rfind('\n').map_or(0, |n| n + 1) + 1;
            self.at = Some((line, col));
        }
    }

    pub fn display<'a>(&'a self, origin: &'a str) -> impl fmt::Display + 'a {
        struct D<'a>(&'a Problem, &'a str);
        impl fmt::Display for D<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let p = self.0;
                if let Some((l, c)) = p.at {
                    write!(f, "{}:{l}:{c}: ", self.1)?;
                }
                write!(f, "[{}] ", p.code)?;
                if let Some(id) = &p.id {
                    write!(f, "{id}: ")?;
                }
                f.write_str(&p.message)
            }
        }
        D(self, origin)
    }
}

/// Checks every rule; an empty list means the scene is valid.
pub fn validate(scene: &Scene) -> Vec<Problem> {
    let index = SceneIndex::new(scene);
    let mut v = Validator {
        scene,
        ix: index.over(scene),
        problems: Vec::new(),
    };
    v.check_ids();
    v.check_rooms();
    v.check_doors();
    v.check_fixtures();
    v.check_objects();
    v.check_actors();
    v.problems
}

struct Validator<'a> {
    scene: &'a Scene,
    /// The first definition of each id stands, so references to it are
    /// judged against it rather than cascading into more problems.
    ix: Indexed<'a>,
    problems: Vec<Problem>,
}

impl<'a> Validator<'a> {
    fn report(&mut self, code: &'static str, id: &Id, message: String) {
        self.problems.push(Problem::new(code, id, message));
    }

    fn check_ids(&mut self) {
        let s = self.scene;
        if !Id::is_well_formed(s.id.as_str()) {
            self.report(
                "bad_id",
                &s.id,
                "scene ids use lower-case letters, digits and _".into(),
            );
        }
        for (id, kind, i) in entries(s) {
            if !Id::is_well_formed(id.as_str()) {
                self.report(
                    "bad_id",
                    id,
                    "ids use lower-case letters, digits and _, starting with a letter".into(),
                );
            }
            if id.as_str() == OUTSIDE {
                self.report(
                    "reserved_id",
                    id,
                    format!("{OUTSIDE} is the place beyond the front door; choose another id"),
                );
            }
            match self.ix.index().get(id) {
                Some(first) if first != (kind, i) => self.report(
                    "duplicate_id",
                    id,
                    format!(
                        "defined twice (as {} and as {}); ids are unique across the scene",
                        first.0.noun(),
                        kind.noun()
                    ),
                ),
                _ => {}
            }
        }
        if s.rooms.is_empty() {
            self.report("no_rooms", &s.id, "a scene needs at least one room".into());
        }
    }

    fn expect(&mut self, owner: &Id, what: &str, target: &Id, kinds: &[Kind]) -> bool {
        match self.ix.kind_of(target) {
            Some(k) if kinds.contains(&k) => true,
            Some(k) => {
                let want: Vec<_> = kinds.iter().map(|k| k.noun()).collect();
                self.report(
                    "wrong_kind",
                    owner,
                    format!("{what} {target} is {}, not {}", k.noun(), want.join(" or ")),
                );
                false
            }
            None => {
                let code = match kinds {
                    [Kind::Room] => "unknown_room",
                    [Kind::Actor] => "unknown_actor",
                    _ => "unknown_id",
                };
                self.report(code, owner, format!("{what} {target} does not exist"));
                false
            }
        }
    }

    fn room(&self, id: &Id) -> Option<&'a RoomDef> {
        self.ix.room(id)
    }

    fn check_rooms(&mut self) {
        let rooms = &self.scene.rooms;
        for (i, r) in rooms.iter().enumerate() {
            if !(r.rect.w > 0.0 && r.rect.h > 0.0 && r.height > 0.0)
                || !finite(&[r.rect.x, r.rect.y, r.rect.w, r.rect.h, r.height])
            {
                self.report(
                    "bad_geometry",
                    &r.id,
                    "a room needs positive, finite width, depth and height".into(),
                );
            }
            for o in &rooms[i + 1..] {
                if r.rect.overlaps(&o.rect) {
                    self.report(
                        "rooms_overlap",
                        &o.id,
                        format!("overlaps room {} on the floor plan", r.id),
                    );
                }
            }
        }
    }

    fn check_doors(&mut self) {
        let mut graph = UnGraph::<&Id, ()>::new_undirected();
        let nodes: BTreeMap<&Id, _> = self
            .scene
            .rooms
            .iter()
            .map(|r| (&r.id, graph.add_node(&r.id)))
            .collect();
        let rects: Vec<Rect> = self.scene.rooms.iter().map(|r| r.rect).collect();
        for d in &self.scene.doors {
            let (a, b) = &d.rooms;
            if a == b {
                self.report("door_same_room", &d.id, format!("joins {a} to itself"));
                continue;
            }
            if !d.openable && !d.open {
                self.report(
                    "door_state",
                    &d.id,
                    "only an openable door can start closed; set openable: true".into(),
                );
            }
            if let Some(room) = d.inside_room() {
                // An exterior door: on its room's outer wall, joining no rooms.
                if self.expect(&d.id, "room", room, &[Kind::Room]) {
                    let rect = self.room(room).unwrap().rect;
                    if !on_outer_wall(&rect, &rects, d.at) {
                        self.report(
                            "door_not_on_wall",
                            &d.id,
                            format!(
                                "({}, {}) is not on an outer wall of {room} (one no other room shares)",
                                d.at.0, d.at.1
                            ),
                        );
                    }
                }
                continue;
            }
            let ok_a = self.expect(&d.id, "room", a, &[Kind::Room]);
            let ok_b = self.expect(&d.id, "room", b, &[Kind::Room]);
            if !(ok_a && ok_b) {
                continue;
            }
            let (ra, rb) = (self.room(a).unwrap().rect, self.room(b).unwrap().rect);
            if !on_shared_wall(&ra, &rb, d.at) {
                self.report(
                    "door_not_on_wall",
                    &d.id,
                    format!(
                        "({}, {}) is not on the wall shared by {a} and {b}",
                        d.at.0, d.at.1
                    ),
                );
            }
            graph.add_edge(nodes[a], nodes[b], ());
        }
        let Some(first) = self.scene.rooms.first() else {
            return;
        };
        let mut seen = BTreeSet::new();
        let mut bfs = Bfs::new(&graph, nodes[&first.id]);
        while let Some(n) = bfs.next(&graph) {
            seen.insert(graph[n]);
        }
        for r in &self.scene.rooms {
            if !seen.contains(&r.id) {
                self.report(
                    "unreachable_room",
                    &r.id,
                    format!("no door path leads here from {}; add a door", first.id),
                );
            }
        }
    }

    fn check_fixtures(&mut self) {
        let s = self.scene;
        let placed = s
            .furniture
            .iter()
            .map(|f| (&f.id, &f.room, f.pos, f.size, &f.surfaces, &f.kind))
            .chain(
                s.devices
                    .iter()
                    .map(|d| (&d.id, &d.room, d.pos, d.size, &d.surfaces, &d.kind)),
            );
        for (id, room, pos, size, surfaces, kind) in placed {
            if kind.trim().is_empty() {
                self.report("empty_kind", id, "say what it is (kind: \"fridge\")".into());
            }
            if !(size.0 > 0.0 && size.1 > 0.0 && size.2 > 0.0)
                || !finite(&[pos.0, pos.1, size.0, size.1, size.2])
            {
                self.report(
                    "bad_geometry",
                    id,
                    "size needs positive, finite width, depth and height".into(),
                );
            }
            if self.expect(id, "room", room, &[Kind::Room]) {
                let rect = self.room(room).unwrap().rect;
                let corners = [
                    (pos.0 - size.0 / 2.0, pos.1 - size.1 / 2.0),
                    (pos.0 + size.0 / 2.0, pos.1 + size.1 / 2.0),
                ];
                if !corners.iter().all(|c| rect.contains(*c)) {
                    self.report(
                        "outside_room",
                        id,
                        format!(
                            "footprint at ({}, {}) size {}x{} does not fit inside {room}",
                            pos.0, pos.1, size.0, size.1
                        ),
                    );
                }
            }
            let mut rel = BTreeSet::new();
            for surface in surfaces {
                let (name, cap) = match *surface {
                    Surface::On(c) => ("On", c),
                    Surface::In(c) => ("In", c),
                };
                if cap == 0 {
                    self.report(
                        "bad_surface",
                        id,
                        format!("{name} surface with capacity 0; remove it instead"),
                    );
                }
                if !rel.insert(name) {
                    self.report(
                        "bad_surface",
                        id,
                        format!("two {name} surfaces; give one with the total capacity"),
                    );
                }
            }
        }
        for d in &s.devices {
            if d.fields.is_empty() {
                self.report(
                    "no_fields",
                    &d.id,
                    "a device needs at least one state field (power: Bool(false))".into(),
                );
            }
            for (name, field) in &d.fields {
                if !Id::is_well_formed(name) {
                    self.report(
                        "bad_field",
                        &d.id,
                        format!("field name {name:?} must be lower-case letters, digits and _"),
                    );
                }
                if let Err(why) = check_field(field) {
                    self.report("bad_field", &d.id, format!("field {name}: {why}"));
                }
            }
        }
    }

    fn capacity(&self, target: &Id, inside: bool) -> Option<u32> {
        self.ix.fixture(target)?.capacity(inside)
    }

    fn check_objects(&mut self) {
        let s = self.scene;
        let mut load: BTreeMap<&Placement, u32> = BTreeMap::new();
        let mut looks: BTreeMap<(&str, &str, Option<&Id>), &Id> = BTreeMap::new();
        for o in &s.objects {
            if o.category.trim().is_empty() || o.description.trim().is_empty() {
                self.report(
                    "empty_description",
                    &o.id,
                    "objects need a category and a description that tells look-alikes apart".into(),
                );
            }
            if let Some(first) =
                looks.insert((&o.category, &o.description, o.owner.as_ref()), &o.id)
            {
                self.report(
                    "look_alike",
                    &o.id,
                    format!(
                        "same category, description and owner as {first}; describe how they differ"
                    ),
                );
            }
            if let Some(owner) = &o.owner {
                self.expect(&o.id, "owner", owner, &[Kind::Actor]);
            }
            let (target, inside) = match &o.at {
                Placement::On(t) => (t, false),
                Placement::In(t) => (t, true),
                Placement::HeldBy(a) => {
                    if self.expect(&o.id, "holder", a, &[Kind::Actor])
                        && self.ix.actor(a).is_some_and(|x| x.room.as_str() == OUTSIDE)
                    {
                        self.report(
                            "held_outside",
                            &o.id,
                            format!(
                                "{a} starts outside and holds nothing; start it at: Outside and let {a} bring it"
                            ),
                        );
                    }
                    *load.entry(&o.at).or_default() += 1;
                    continue;
                }
                Placement::Outside => continue,
            };
            if !self.expect(
                &o.id,
                "receptacle",
                target,
                &[Kind::Furniture, Kind::Device],
            ) {
                continue;
            }
            let rel = if inside { "In" } else { "On" };
            if self.capacity(target, inside).is_none() {
                let code = if self.capacity(target, !inside).is_some() {
                    "no_such_surface"
                } else {
                    "not_a_receptacle"
                };
                self.report(code, &o.id, format!("{target} has no {rel} surface"));
                continue;
            }
            *load.entry(&o.at).or_default() += 1;
        }
        for (placement, n) in load {
            let (target, cap, what) = match placement {
                Placement::On(t) => (t, self.capacity(t, false), "On"),
                Placement::In(t) => (t, self.capacity(t, true), "In"),
                Placement::HeldBy(a) => (a, self.ix.actor(a).map(|x| x.hands), "hands"),
                Placement::Outside => continue,
            };
            if let Some(cap) = cap.filter(|c| n > *c) {
                self.report(
                    "capacity_exceeded",
                    target,
                    format!("{n} objects placed {what} but capacity is {cap}"),
                );
            }
        }
    }

    fn check_actors(&mut self) {
        let s = self.scene;
        for a in &s.actors {
            if a.room.as_str() == OUTSIDE {
                // A visitor who arrives later; the robot never leaves home.
                if a.kind == ActorKind::Robot {
                    self.report(
                        "robot_outside",
                        &a.id,
                        "the robot stays home; start it in a room".into(),
                    );
                }
                if let Some(near) = &a.near {
                    self.report(
                        "actor_outside_house",
                        &a.id,
                        format!("starts outside, so it cannot be near {near}; leave out near"),
                    );
                }
            } else if self.ix.kind_of(&a.room) != Some(Kind::Room) {
                self.report(
                    "actor_outside_house",
                    &a.id,
                    format!("starts in {}, which is not a room of this scene", a.room),
                );
            } else if let Some(near) = &a.near {
                let fixture_room = self.ix.fixture(near).map(|f| f.room);
                match fixture_room {
                    None => self.report(
                        "unknown_id",
                        &a.id,
                        format!("near {near}, which is no furniture or device"),
                    ),
                    Some(r) if r != &a.room => self.report(
                        "actor_outside_house",
                        &a.id,
                        format!("near {near}, which is in {r}, not in {}", a.room),
                    ),
                    Some(_) => {}
                }
            }
            if a.hands == 0 {
                self.report(
                    "bad_hands",
                    &a.id,
                    "an actor needs at least one hand".into(),
                );
            }
            if !(a.speed.is_finite() && a.speed > 0.0) {
                self.report(
                    "bad_speed",
                    &a.id,
                    "speed must be a positive number of metres per second".into(),
                );
            }
        }
        if !s.actors.iter().any(|a| a.kind == ActorKind::Robot) {
            self.report(
                "no_robot",
                &s.id,
                "a household needs at least one actor with kind: robot".into(),
            );
        }
    }
}

fn finite(xs: &[f32]) -> bool {
    xs.iter().all(|x| x.is_finite())
}

/// A field's schema is coherent and its value fits it.
pub fn check_field(f: &FieldDef) -> Result<(), String> {
    match f {
        FieldDef::Bool(_) => Ok(()),
        FieldDef::Int { value, min, max } => {
            if min > max {
                Err(format!("min {min} is above max {max}"))
            } else if value < min || value > max {
                Err(format!("value {value} is outside {min}..={max}"))
            } else {
                Ok(())
            }
        }
        FieldDef::Float { value, min, max } => {
            if !(value.is_finite() && min.is_finite() && max.is_finite()) {
                Err("values must be finite".into())
            } else if min > max {
                Err(format!("min {min} is above max {max}"))
            } else if value < min || value > max {
                Err(format!("value {value} is outside {min}..={max}"))
            } else {
                Ok(())
            }
        }
        FieldDef::Enum { value, options } => {
            let distinct: BTreeSet<_> = options.iter().collect();
            if options.is_empty() {
                Err("an enum needs options".into())
            } else if distinct.len() != options.len() {
                Err("options repeat".into())
            } else if !options.contains(value) {
                Err(format!("value {value:?} is not one of {options:?}"))
            } else {
                Ok(())
            }
        }
        FieldDef::Timer { value, max } => {
            if value > max {
                Err(format!("timer {value}s is above its max {max}s"))
            } else {
                Ok(())
            }
        }
    }
}
