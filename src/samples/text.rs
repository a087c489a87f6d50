//! Names and phrases for questions and answers: every entity is named so
//! that a reader of the scene can tell which one is meant.

use std::borrow::Cow;
use std::collections::BTreeMap;

use crate::ids::Id;
use crate::scene::{Fixture, Kind, Scene, SceneIndex, fixtures};
use crate::trace::{Location, Value, clock_time, day_of};

pub struct Namer<'a> {
    scene: &'a Scene,
    names: Cow<'a, Names>,
}

/// What naming needs besides the scene, worked out once per scene: kept
/// by a reader that names things again and again (an agent answering).
#[derive(Debug, Clone)]
pub struct Names {
    index: SceneIndex,
    /// For each furniture, then each device (scene order): how many
    /// fixtures there are of its kind, and of its kind in its room. A
    /// fixture is named by its kind alone when it is the only one.
    same: Vec<(usize, usize)>,
}

impl Names {
    pub fn new(scene: &Scene) -> Self {
        let mut kinds: BTreeMap<(&str, Option<&Id>), usize> = BTreeMap::new();
        for f in fixtures(scene) {
            *kinds.entry((f.kind, None)).or_default() += 1;
            *kinds.entry((f.kind, Some(f.room))).or_default() += 1;
        }
        let same = fixtures(scene)
            .map(|f| (kinds[&(f.kind, None)], kinds[&(f.kind, Some(f.room))]))
            .collect();
        Names {
            index: SceneIndex::new(scene),
            same,
        }
    }
}

impl<'a> Namer<'a> {
    pub fn new(scene: &'a Scene) -> Self {
        Namer {
            scene,
            names: Cow::Owned(Names::new(scene)),
        }
    }

    /// A namer of `scene` from its `names`, made by the caller once.
    pub fn with(scene: &'a Scene, names: &'a Names) -> Self {
        Namer {
            scene,
            names: Cow::Borrowed(names),
        }
    }

    /// Whether `id` is a room.
    pub fn is_room(&self, id: &Id) -> bool {
        matches!(self.names.index.get(id), Some((Kind::Room, _)))
    }

    /// "Alice", "the robot", "the blue mug", "the fridge", "the nightstand in
    /// the master bedroom".
    pub fn name(&self, id: &Id) -> String {
        let s = self.scene;
        // One lookup: names are asked for every event narrated.
        let (f, nth): (Fixture, usize) = match self.names.index.get(id) {
            Some((Kind::Actor, i)) => {
                let a = &s.actors[i];
                return if a.kind == crate::scene::ActorKind::Robot {
                    "the robot".into()
                } else {
                    a.name.clone()
                };
            }
            Some((Kind::Object, i)) => return format!("the {}", s.objects[i].description),
            Some((Kind::Room, i)) => {
                let r = &s.rooms[i];
                return article(&r.name.to_lowercase(), &r.name);
            }
            Some((Kind::Door, i)) => {
                let d = &s.doors[i];
                return format!(
                    "the door between {} and {}",
                    self.name(&d.rooms.0),
                    self.name(&d.rooms.1)
                );
            }
            Some((Kind::Furniture, i)) => ((&s.furniture[i]).into(), i),
            Some((Kind::Device, i)) => ((&s.devices[i]).into(), s.furniture.len() + i),
            None => return id.to_string(),
        };
        let (kind, room, description) = (f.kind, f.room, f.description);
        let (same_kind, same_room) = self.names.same[nth];
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
            Location::CarriedBy(a) => format!("with {}", self.name(a)),
            Location::Outside => "out of the house".into(),
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
