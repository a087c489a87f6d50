//! Names and phrases for questions and answers: every entity is named so
//! that a reader of the scene can tell which one is meant.

use crate::ids::Id;
use crate::scene::{Scene, SceneIndex};
use crate::trace::{Location, Value, clock_time, day_of};

pub struct Namer<'a> {
    scene: &'a Scene,
    index: SceneIndex,
}

impl<'a> Namer<'a> {
    pub fn new(scene: &'a Scene) -> Self {
        Namer {
            scene,
            index: SceneIndex::new(scene),
        }
    }

    /// "Alice", "the robot", "the blue mug", "the fridge", "the nightstand in
    /// the master bedroom".
    pub fn name(&self, id: &Id) -> String {
        let s = self.index.over(self.scene);
        if let Some(a) = s.actor(id) {
            return if a.kind == crate::scene::ActorKind::Robot {
                "the robot".into()
            } else {
                a.name.clone()
            };
        }
        if let Some(o) = s.object(id) {
            return format!("the {}", o.description);
        }
        if let Some(r) = s.room(id) {
            return article(&r.name.to_lowercase(), &r.name);
        }
        if let Some(d) = s.door(id) {
            return format!(
                "the door between {} and {}",
                self.name(&d.rooms.0),
                self.name(&d.rooms.1)
            );
        }
        let fixtures = || {
            s.furniture
                .iter()
                .map(|f| (&f.id, &f.kind, &f.room, &f.description))
                .chain(
                    s.devices
                        .iter()
                        .map(|d| (&d.id, &d.kind, &d.room, &d.description)),
                )
        };
        let Some((_, kind, room, description)) = fixtures().find(|f| f.0 == id) else {
            return id.to_string();
        };
        let same_kind = fixtures().filter(|f| f.1 == kind).count();
        let same_room = fixtures().filter(|f| f.1 == kind && f.2 == room).count();
        if same_kind == 1 {
            format!("the {kind}")
        } else if same_room == 1 {
            format!("the {kind} in {}", self.name(room))
        } else {
            article(description, description)
        }
    }

    /// "on the dining table", "in the wardrobe", "in Alice's hands".
    pub fn location(&self, l: &Location) -> String {
        match l {
            Location::On(r) => format!("on {}", self.name(r)),
            Location::In(r) => format!("in {}", self.name(r)),
            Location::HeldBy(a) => format!("in {}'s hands", self.name(a)),
        }
    }

    /// A value of `attr` in words: "on", "closed", "in the drawer", "25".
    pub fn value(&self, attr: &str, v: &Value) -> String {
        match (attr, v) {
            (_, Value::Location(l)) => self.location(l),
            ("open", Value::Bool(b)) => (if *b { "open" } else { "closed" }).into(),
            (_, Value::Bool(b)) => (if *b { "on" } else { "off" }).into(),
            (_, v) => v.to_string(),
        }
    }

    /// "day 2 at 14:05".
    pub fn when(&self, t: u64) -> String {
        format!("day {} at {}", day_of(t), &clock_time(t)[..5])
    }

    /// "the tv volume", "the fridge door" ("open"), a device field.
    pub fn attribute(&self, entity: &Id, attr: &str) -> String {
        match attr {
            "open" => format!("{} (open or closed)", self.name(entity)),
            "power" => format!("{} (on or off)", self.name(entity)),
            field => format!("{} {}", self.name(entity), field.replace('_', " ")),
        }
    }
}

/// Upper-cases the first letter.
pub fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// "the kitchen", but "Lily's room" and "Alice's nightstand" as written.
fn article(common: &str, proper: &str) -> String {
    if proper.contains("'s ") {
        proper.to_string()
    } else {
        format!("the {common}")
    }
}
