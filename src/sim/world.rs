//! The household as ECS data: affordance components and the spawning of a
//! scene into a `World`.

use std::collections::BTreeMap;
use std::sync::Arc;

// Bevy's map hashes with a fixed foldhash, several times cheaper than
// std's SipHash on the per-request id lookups; nothing reaches output in
// its iteration order.
use bevy::platform::collections::HashMap;

use bevy::prelude::*;

use crate::ids::Id;
use crate::scene::{
    self, ActorKind, FieldDef, Openable as OpenDef, Placement, Rect, Scene, SceneIndex, Surface,
};
use crate::trace::{Location, Position, Value};

use super::nav::RoomGraph;

/// The scene id of an entity. Every spawned entity has one.
#[derive(Component, Debug, Clone)]
pub struct Key(pub Id);

#[derive(Component, Debug, Clone)]
pub struct Room {
    pub name: String,
    pub rect: Rect,
    pub height: f32,
}

/// A doorway; doors that can be opened also carry [`Openable`].
#[derive(Component, Debug, Clone)]
pub struct Door {
    pub rooms: [Entity; 2],
    pub at: (f32, f32),
}

/// Furniture or a device: something placed in a room.
#[derive(Component, Debug, Clone)]
pub struct Fixture {
    pub kind: String,
    pub room: Entity,
    pub pos: (f32, f32),
    pub size: (f32, f32, f32),
    pub description: String,
}

/// Placement surfaces with their capacity and current contents (in the
/// order things were put there).
#[derive(Component, Debug, Clone, Default)]
pub struct Receptacle {
    pub on: Option<Slot>,
    pub inside: Option<Slot>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Slot {
    pub capacity: u32,
    pub items: Vec<Entity>,
}

impl Receptacle {
    pub fn slot(&self, inside: bool) -> Option<&Slot> {
        if inside {
            self.inside.as_ref()
        } else {
            self.on.as_ref()
        }
    }

    pub fn slot_mut(&mut self, inside: bool) -> Option<&mut Slot> {
        if inside {
            self.inside.as_mut()
        } else {
            self.on.as_mut()
        }
    }
}

/// Can be opened and closed: fixtures, devices and doors.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Openable {
    pub open: bool,
}

/// An appliance with typed state fields (schema and value together).
#[derive(Component, Debug, Clone)]
pub struct Device {
    pub kind: String,
    pub remote: bool,
    pub fields: BTreeMap<Id, FieldDef>,
}

/// A movable object.
#[derive(Component, Debug, Clone)]
pub struct Item {
    pub category: String,
    pub description: String,
    pub owner: Option<Id>,
}

/// A thing used up a serving at a time (the catalogue gives its kind
/// `servings`): how many it holds when new and, once first `use`d, how
/// many are left (the `level` attribute; absent until then, read as full).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Servings {
    pub of: u32,
    pub left: Option<u32>,
}

impl Servings {
    /// The servings left now.
    pub fn now(&self) -> u32 {
        self.left.unwrap_or(self.of)
    }
}

/// A thing written on (the catalogue calls its kind `writable`): what is
/// written on it (the `text` attribute; absent until first written).
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct Note(pub Option<String>);

/// Where an object is, in entity terms: on or in a fixture, in an actor's
/// hands or bag (`CarriedBy`: what goes out of the house with them and
/// comes in), or outside with no one.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placed {
    On(Entity),
    In(Entity),
    HeldBy(Entity),
    CarriedBy(Entity),
    Outside,
}

#[derive(Component, Debug, Clone)]
pub struct Actor {
    pub name: String,
    pub kind: ActorKind,
    pub role: String,
    pub speed: f32,
    pub hands: u32,
}

/// Where an actor is: a room and optionally the fixture it stands at.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct At {
    pub room: Entity,
    pub near: Option<Entity>,
}

/// What an actor holds, in the order it was picked up.
#[derive(Component, Debug, Clone, Default)]
pub struct Hands(pub Vec<Entity>);

/// What an actor carries on them out of the hands (pocket, bag): taken
/// out of the house or brought in, in that order. Not counted against the
/// hands.
#[derive(Component, Debug, Clone, Default)]
pub struct Bag(pub Vec<Entity>);

/// The place beyond the front door: the `room` of an actor who is out,
/// and the far side of exterior doors. One entity, not a room.
#[derive(Component, Debug, Clone, Copy)]
pub struct OutsidePlace;

/// The simulated time at which an actor finishes its current action.
#[derive(Component, Debug, Clone, Copy, Default)]
pub struct Busy(pub u64);

/// An actor's standby (a robot docked with its sensors off): until `until`
/// it perceives nothing of what others do, and until it next looks around
/// its room (`looked`) its view of it may be out of date.
#[derive(Component, Debug, Clone, Copy)]
pub struct Standby {
    pub until: u64,
    pub looked: bool,
}

impl Default for Standby {
    fn default() -> Self {
        Standby {
            until: 0,
            looked: true,
        }
    }
}

impl Standby {
    /// Whether the actor perceives what happens at `t`.
    pub fn perceives(&self, t: u64) -> bool {
        t >= self.until
    }
}

/// Every (entity, attribute) an actor can perceive, fixed when the scene
/// is spawned: objects' `location`, actors' `position`, `open` of what
/// opens and devices' fields. Ordered by (entity id, attribute), the order
/// in which [`Beliefs`] lists them. Perception writes a belief by its slot
/// here instead of searching a map keyed by two strings on every fact.
#[derive(Debug)]
pub struct BeliefKeys {
    keys: Vec<(Id, Id)>,
    /// Per entity index: the range of its keys in `keys` (contiguous, as
    /// they sort by entity first).
    spans: Vec<(u32, u32)>,
}

impl BeliefKeys {
    fn new(mut keyed: Vec<(Id, Id, Entity)>) -> Self {
        keyed.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
        // A device field called `open` on something that opens is one key.
        keyed.dedup_by(|a, b| (&a.0, &a.1) == (&b.0, &b.1));
        let mut spans = Vec::new();
        for (i, (_, _, e)) in keyed.iter().enumerate() {
            let at = e.index_u32() as usize;
            if spans.len() <= at {
                spans.resize(at + 1, (0, 0));
            }
            let span: &mut (u32, u32) = &mut spans[at];
            if span.0 == span.1 {
                span.0 = i as u32;
            }
            span.1 = i as u32 + 1;
        }
        let keys = keyed.into_iter().map(|(e, a, _)| (e, a)).collect();
        BeliefKeys { keys, spans }
    }

    /// The slot of `entity`'s `attr`, if an actor can perceive it.
    pub fn slot(&self, entity: Entity, attr: &Id) -> Option<usize> {
        let &(from, to) = self.spans.get(entity.index_u32() as usize)?;
        (from as usize..to as usize).find(|&i| self.keys[i].1 == *attr)
    }

    /// The slot of an (entity id, attribute) key.
    fn find(&self, key: &(Id, Id)) -> Option<usize> {
        self.keys.binary_search(key).ok()
    }
}

/// An actor's last-seen view of the world, kept incrementally by
/// perception: for each (entity, attribute), the value it last perceived.
/// Reads like a map ordered by (entity, attribute): `get`, indexing, `iter`.
#[derive(Component, Clone)]
pub struct Beliefs {
    keys: Arc<BeliefKeys>,
    /// One per key of `keys`; `None` until first perceived.
    slots: Vec<Option<Held>>,
}

#[derive(Debug, Clone)]
struct Held {
    belief: Belief,
    /// The fixture (and whether inside) that a believed location is on or
    /// in, so that a look at its surface can contradict the belief without
    /// comparing ids.
    holder: Option<(Entity, bool)>,
}

impl Beliefs {
    pub fn new(keys: Arc<BeliefKeys>) -> Self {
        let slots = vec![None; keys.keys.len()];
        Beliefs { keys, slots }
    }

    pub fn get(&self, key: &(Id, Id)) -> Option<&Belief> {
        self.slots[self.keys.find(key)?].as_ref().map(|h| &h.belief)
    }

    /// Every belief, ordered by (entity, attribute).
    pub fn iter(&self) -> impl Iterator<Item = (&(Id, Id), &Belief)> {
        self.keys
            .keys
            .iter()
            .zip(&self.slots)
            .filter_map(|(k, h)| Some((k, &h.as_ref()?.belief)))
    }

    pub fn len(&self) -> usize {
        self.slots.iter().flatten().count()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.iter().all(Option::is_none)
    }

    /// Records that `value` of the key in `slot` was perceived at `t` in
    /// `event`; `holder` is the fixture a location value names.
    pub(crate) fn believe(
        &mut self,
        slot: usize,
        value: &Value,
        holder: Option<(Entity, bool)>,
        t: u64,
        event: u64,
    ) {
        match &mut self.slots[slot] {
            Some(h) => {
                h.belief.value.clone_from(value);
                h.belief.seen_at = t;
                h.belief.event = event;
                h.belief.contradicted_at = None;
                h.holder = holder;
            }
            empty => {
                *empty = Some(Held {
                    belief: Belief {
                        value: value.clone(),
                        seen_at: t,
                        event,
                        contradicted_at: None,
                    },
                    holder,
                })
            }
        }
    }

    /// Marks beliefs that an object is on or in one of the `scanned`
    /// surfaces as contradicted at `t`, unless perceived in `event` itself.
    pub(crate) fn notice_absences(&mut self, scanned: &[(Entity, bool)], event: u64, t: u64) {
        for h in self.slots.iter_mut().flatten() {
            if h.belief.event == event || h.belief.contradicted_at.is_some() {
                continue;
            }
            if h.holder.is_some_and(|s| scanned.contains(&s)) {
                h.belief.contradicted_at = Some(t);
            }
        }
    }
}

impl<'a> IntoIterator for &'a Beliefs {
    type Item = (&'a (Id, Id), &'a Belief);
    type IntoIter = Box<dyn Iterator<Item = Self::Item> + 'a>;
    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

impl std::ops::Index<&(Id, Id)> for Beliefs {
    type Output = Belief;
    fn index(&self, key: &(Id, Id)) -> &Belief {
        self.get(key).expect("no belief about this key")
    }
}

impl PartialEq for Beliefs {
    fn eq(&self, other: &Self) -> bool {
        self.iter().eq(other.iter())
    }
}

impl std::fmt::Debug for Beliefs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Belief {
    pub value: Value,
    /// When it was last perceived, and in which event.
    pub seen_at: u64,
    pub event: u64,
    /// Set when the actor later saw that the value no longer holds (the
    /// object was not where it believed) without learning the new one.
    pub contradicted_at: Option<u64>,
}

/// Lookups from scene ids and the scene as loaded. Inserted by [`spawn_scene`].
#[derive(Resource, Debug)]
pub struct Registry {
    pub scene: Scene,
    /// The scene's ids, for [`crate::sim::Simulation::lookup`].
    pub index: SceneIndex,
    ids: HashMap<Id, Entity>,
    /// Actors in scene order.
    pub actors: Vec<Entity>,
    pub robots: Vec<Entity>,
    /// The [`OutsidePlace`] entity (id `outside`, not among `ids`).
    pub outside: Entity,
    /// Fixtures (furniture, then devices) and doors of each room, in scene order.
    pub room_fixtures: HashMap<Entity, Vec<Entity>>,
    pub room_doors: HashMap<Entity, Vec<Entity>>,
    /// Attribute names, interned once.
    pub attrs: Attrs,
    /// What actors can perceive, shared by every actor's [`Beliefs`].
    pub belief_keys: Arc<BeliefKeys>,
}

#[derive(Debug, Clone)]
pub struct Attrs {
    pub location: Id,
    pub position: Id,
    pub open: Id,
    /// A device's health: a field only once it first breaks (so that a
    /// device that never does reads as before), true until repaired.
    pub broken: Id,
    /// A used-up thing's servings left, once first used ([`Servings`]).
    pub level: Id,
    /// What is written on a thing, once first written ([`Note`]).
    pub text: Id,
}

pub use crate::trace::{BROKEN, LEVEL, TEXT};

impl Registry {
    pub fn get(&self, id: &str) -> Option<Entity> {
        self.ids.get(id).copied()
    }

    pub fn ids(&self) -> impl Iterator<Item = (&Id, &Entity)> {
        self.ids.iter()
    }

    /// Whether `room` (an actor's `At::room`) is the outside.
    pub fn is_outside(&self, room: Entity) -> bool {
        room == self.outside
    }
}

/// The simulated clock and event counter.
#[derive(Resource, Debug, Clone, Default)]
pub struct Clock {
    /// Start time of the latest event; requests cannot start earlier.
    pub now: u64,
    /// Id of the latest event (0 before the first).
    pub last_event: u64,
}

/// Spawns every entity of a (validated) scene and inserts the [`Registry`]
/// and [`RoomGraph`] resources.
pub fn spawn_scene(world: &mut World, scene: &Scene) {
    let mut ids = HashMap::new();
    let key = |id: &Id| Key(id.clone());
    let outside = world
        .spawn((Key(Id::new(scene::OUTSIDE)), OutsidePlace))
        .id();
    // Exterior doors name the outside as a room; nothing else looks it up by id.
    let place = |ids: &HashMap<Id, Entity>, id: &Id| {
        if id.as_str() == scene::OUTSIDE {
            outside
        } else {
            ids[id]
        }
    };
    for r in &scene.rooms {
        let e = world
            .spawn((
                key(&r.id),
                Room {
                    name: r.name.clone(),
                    rect: r.rect,
                    height: r.height,
                },
            ))
            .id();
        ids.insert(r.id.clone(), e);
    }
    let mut room_doors: HashMap<Entity, Vec<Entity>> = HashMap::new();
    for d in &scene.doors {
        let rooms = [place(&ids, &d.rooms.0), place(&ids, &d.rooms.1)];
        let mut ec = world.spawn((key(&d.id), Door { rooms, at: d.at }));
        if d.openable {
            ec.insert(Openable { open: d.open });
        }
        let e = ec.id();
        ids.insert(d.id.clone(), e);
        for r in rooms.into_iter().filter(|r| *r != outside) {
            room_doors.entry(r).or_default().push(e);
        }
    }
    let mut room_fixtures: HashMap<Entity, Vec<Entity>> = HashMap::new();
    let fixtures = scene
        .furniture
        .iter()
        .map(|f| {
            (
                &f.id,
                &f.kind,
                &f.room,
                f.pos,
                f.size,
                &f.surfaces,
                f.openable,
                &f.description,
                None,
            )
        })
        .chain(scene.devices.iter().map(|d| {
            (
                &d.id,
                &d.kind,
                &d.room,
                d.pos,
                d.size,
                &d.surfaces,
                d.openable,
                &d.description,
                Some(d),
            )
        }));
    for (id, kind, room, pos, size, surfaces, openable, description, device) in fixtures {
        let room = ids[room];
        let fixture = Fixture {
            kind: kind.clone(),
            room,
            pos,
            size,
            description: description.clone(),
        };
        let mut ec = world.spawn((key(id), fixture));
        if !surfaces.is_empty() {
            let mut rec = Receptacle::default();
            for s in surfaces {
                match *s {
                    Surface::On(c) => {
                        rec.on = Some(Slot {
                            capacity: c,
                            items: vec![],
                        })
                    }
                    Surface::In(c) => {
                        rec.inside = Some(Slot {
                            capacity: c,
                            items: vec![],
                        })
                    }
                }
            }
            ec.insert(rec);
        }
        match openable {
            OpenDef::No => {}
            OpenDef::Open => {
                ec.insert(Openable { open: true });
            }
            OpenDef::Closed => {
                ec.insert(Openable { open: false });
            }
        }
        if let Some(d) = device {
            let fields = d
                .fields
                .iter()
                .map(|(k, v)| (Id::new(k), v.clone()))
                .collect();
            ec.insert(Device {
                kind: d.kind.clone(),
                remote: d.remote,
                fields,
            });
        }
        let e = ec.id();
        ids.insert(id.clone(), e);
        room_fixtures.entry(room).or_default().push(e);
    }
    let mut actors = Vec::new();
    let mut robots = Vec::new();
    for a in &scene.actors {
        let at = At {
            room: place(&ids, &a.room),
            near: a.near.as_ref().map(|n| ids[n]),
        };
        let actor = Actor {
            name: a.name.clone(),
            kind: a.kind,
            role: a.role.clone(),
            speed: a.speed,
            hands: a.hands,
        };
        let e = world
            .spawn((
                key(&a.id),
                actor,
                at,
                Hands::default(),
                Bag::default(),
                Busy::default(),
                Standby::default(),
            ))
            .id();
        ids.insert(a.id.clone(), e);
        actors.push(e);
        if a.kind == ActorKind::Robot {
            robots.push(e);
        }
    }
    for o in &scene.objects {
        let placed = match &o.at {
            Placement::On(t) => Placed::On(ids[t]),
            Placement::In(t) => Placed::In(ids[t]),
            Placement::HeldBy(a) => Placed::HeldBy(ids[a]),
            Placement::Outside => Placed::Outside,
        };
        let item = Item {
            category: o.category.clone(),
            description: o.description.clone(),
            owner: o.owner.clone(),
        };
        let mut ec = world.spawn((key(&o.id), item, placed));
        let kind = crate::catalogue::builtin().category(&o.category);
        if let Some(of) = kind.and_then(|c| c.servings) {
            ec.insert(Servings {
                of: of.max(1),
                left: None,
            });
        }
        if kind.is_some_and(|c| c.writable) {
            ec.insert(Note::default());
        }
        let e = ec.id();
        ids.insert(o.id.clone(), e);
        match placed {
            Placed::On(r) | Placed::In(r) => {
                let inside = matches!(placed, Placed::In(_));
                let mut rec = world
                    .get_mut::<Receptacle>(r)
                    .expect("validated: target is a receptacle");
                rec.slot_mut(inside)
                    .expect("validated: surface exists")
                    .items
                    .push(e);
            }
            Placed::HeldBy(a) => world
                .get_mut::<Hands>(a)
                .expect("validated: holder is an actor")
                .0
                .push(e),
            Placed::CarriedBy(_) | Placed::Outside => {}
        }
    }
    let graph = RoomGraph::build(scene, &ids);
    let attrs = Attrs {
        location: Id::new("location"),
        position: Id::new("position"),
        open: Id::new("open"),
        broken: Id::new(BROKEN),
        level: Id::new(LEVEL),
        text: Id::new(TEXT),
    };
    let mut keyed = Vec::new();
    let mut q = world.query::<(
        Entity,
        &Key,
        Has<Item>,
        Has<Actor>,
        Has<Openable>,
        Option<&Device>,
        Has<Servings>,
        Has<Note>,
    )>();
    for (e, key, item, actor, openable, device, servings, note) in q.iter(world) {
        let id = &key.0;
        for (has, attr) in [
            (item, &attrs.location),
            (actor, &attrs.position),
            (openable, &attrs.open),
            (servings, &attrs.level),
            (note, &attrs.text),
        ] {
            if has {
                keyed.push((id.clone(), attr.clone(), e));
            }
        }
        for field in device.into_iter().flat_map(|d| d.fields.keys()) {
            keyed.push((id.clone(), field.clone(), e));
        }
        if device.is_some_and(|d| !d.fields.contains_key(BROKEN)) {
            keyed.push((id.clone(), attrs.broken.clone(), e));
        }
    }
    let belief_keys = Arc::new(BeliefKeys::new(keyed));
    for &a in &actors {
        world
            .entity_mut(a)
            .insert(Beliefs::new(belief_keys.clone()));
    }
    world.insert_resource(graph);
    world.insert_resource(Registry {
        scene: scene.clone(),
        index: SceneIndex::new(scene),
        ids,
        actors,
        robots,
        outside,
        room_fixtures,
        room_doors,
        attrs,
        belief_keys,
    });
    world.insert_resource(Clock::default());
}

/// The value a device field holds, as trace data.
pub fn field_value(f: &FieldDef) -> Value {
    match f {
        FieldDef::Bool(b) => Value::Bool(*b),
        FieldDef::Int { value, .. } => Value::Int(*value),
        FieldDef::Float { value, .. } => Value::Float(*value),
        FieldDef::Enum { value, .. } => Value::Text(value.clone()),
        FieldDef::Timer { value, .. } => Value::Int(i64::from(*value)),
    }
}

/// Checks `v` against a field's schema; on success returns the field with
/// the new value.
pub fn with_value(f: &FieldDef, v: &Value) -> Result<FieldDef, String> {
    let out = match (f, v) {
        (FieldDef::Bool(_), Value::Bool(b)) => FieldDef::Bool(*b),
        (FieldDef::Int { min, max, .. }, Value::Int(i)) => FieldDef::Int {
            value: *i,
            min: *min,
            max: *max,
        },
        (FieldDef::Float { min, max, .. }, Value::Float(x)) => FieldDef::Float {
            value: *x,
            min: *min,
            max: *max,
        },
        (FieldDef::Float { min, max, .. }, Value::Int(i)) => FieldDef::Float {
            value: *i as f64,
            min: *min,
            max: *max,
        },
        (FieldDef::Enum { options, .. }, Value::Text(s)) => FieldDef::Enum {
            value: s.clone(),
            options: options.clone(),
        },
        (FieldDef::Timer { max, .. }, Value::Int(i)) => {
            let value = u32::try_from(*i)
                .map_err(|_| format!("{i} is not a number of seconds between 0 and {max}"))?;
            FieldDef::Timer { value, max: *max }
        }
        _ => return Err(format!("expects {}, got {v}", schema_text(f))),
    };
    scene::validate::check_field(&out).map(|()| out)
}

/// A field's schema in words, for hints.
pub fn schema_text(f: &FieldDef) -> String {
    match f {
        FieldDef::Bool(_) => "true or false".into(),
        FieldDef::Int { min, max, .. } => format!("an integer in {min}..={max}"),
        FieldDef::Float { min, max, .. } => format!("a number in {min}..={max}"),
        FieldDef::Enum { options, .. } => format!("one of {}", options.join(", ")),
        FieldDef::Timer { max, .. } => format!("seconds in 0..={max}"),
    }
}

/// Turns entity-level locations into trace values.
pub fn location_value(keys: &Query<&Key>, p: Placed) -> Value {
    Value::Location(location(p, |e| {
        keys.get(e).expect("placed on a spawned entity").0.clone()
    }))
}

/// A placement as a trace location, with `id` naming entities.
pub fn location(p: Placed, id: impl Fn(Entity) -> Id) -> Location {
    match p {
        Placed::On(r) => Location::On(id(r)),
        Placed::In(r) => Location::In(id(r)),
        Placed::HeldBy(a) => Location::HeldBy(id(a)),
        Placed::CarriedBy(a) => Location::CarriedBy(id(a)),
        Placed::Outside => Location::Outside,
    }
}

pub fn position_value(keys: &Query<&Key>, at: At) -> Value {
    let id = |e: Entity| {
        keys.get(e)
            .expect("positions name spawned entities")
            .0
            .clone()
    };
    Value::Position(Position {
        room: id(at.room),
        near: at.near.map(id),
    })
}
