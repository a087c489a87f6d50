//! The executor: validates a request against the world and plans its
//! effects (`plan_request`), then applies them (`apply_step`). A rejected
//! request plans nothing, so it changes nothing.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use crate::ids::{Id, nearest};
use crate::scene::FieldDef;
use crate::trace::{DAY, Rejection};

use super::nav::RoomGraph;
use super::world::*;
use crate::trace::request::{Action, Relation, Request};

/// One state change, in entity terms.
#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    Move {
        object: Entity,
        from: Placed,
        to: Placed,
    },
    Walk {
        actor: Entity,
        from: At,
        to: At,
    },
    SetOpen {
        target: Entity,
        open: bool,
    },
    SetField {
        device: Entity,
        field: Id,
        old: FieldDef,
        new: FieldDef,
    },
}

/// What a successful request lets its perceivers see beyond its changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Reveal {
    #[default]
    Nothing,
    /// The whole destination room, to the actor who walked in.
    Room(Entity),
    /// A container's contents, to everyone who saw it opened.
    Contents(Entity),
    /// A fixture, device, object or actor looked at closely.
    Target(Entity),
}

/// The request being executed and everything the systems of
/// [`super::SimSystems`] work out about it, in order.
#[derive(Resource, Debug, Default)]
pub struct Step {
    pub request: Option<Request>,
    pub actor: Option<Entity>,
    pub t: u64,
    pub dur: u64,
    pub rejection: Option<Rejection>,
    pub ops: Vec<Op>,
    pub via: Vec<Entity>,
    pub reveal: Reveal,
    /// Filled by perception.
    pub observers: Vec<Entity>,
    pub revealed_to: Vec<Entity>,
    pub reveals: Vec<crate::trace::Fact>,
    pub changes: Vec<crate::trace::Change>,
    /// Filled by recording.
    pub event: Option<crate::trace::Event>,
}

/// Read access to the whole world, for validation and perception.
#[derive(SystemParam)]
pub struct WorldView<'w, 's> {
    pub registry: Res<'w, Registry>,
    pub graph: Res<'w, RoomGraph>,
    pub clock: Res<'w, Clock>,
    pub keys: Query<'w, 's, &'static Key>,
    pub rooms: Query<'w, 's, &'static Room>,
    pub doors: Query<'w, 's, &'static Door>,
    pub fixtures: Query<'w, 's, &'static Fixture>,
    pub receptacles: Query<'w, 's, &'static Receptacle>,
    pub openables: Query<'w, 's, &'static Openable>,
    pub devices: Query<'w, 's, &'static Device>,
    pub items: Query<'w, 's, (&'static Item, &'static Placed)>,
    pub actors: Query<'w, 's, (&'static Actor, &'static At, &'static Hands, &'static Busy)>,
}

fn reject(code: &str, message: String, hint: String) -> Rejection {
    Rejection {
        code: code.into(),
        message,
        hint,
    }
}

/// What a planned request does, before it is applied.
pub(crate) struct Plan {
    dur: u64,
    ops: Vec<Op>,
    via: Vec<Entity>,
    reveal: Reveal,
}

impl Plan {
    fn new(dur: u64, ops: Vec<Op>) -> Self {
        Plan {
            dur,
            ops,
            via: vec![],
            reveal: Reveal::Nothing,
        }
    }
}

const PICK_SECS: u64 = 4;
const OPEN_SECS: u64 = 2;
const INSPECT_SECS: u64 = 3;
const LOOK_AROUND_SECS: u64 = 5;
const DEVICE_SECS: u64 = 2;
const HANDOFF_SECS: u64 = 3;
/// Speech rate for utterance durations: 150 words a minute.
const WORDS_PER_SEC: f64 = 2.5;

impl WorldView<'_, '_> {
    pub fn id(&self, e: Entity) -> &Id {
        &self.keys.get(e).expect("every spawned entity has a Key").0
    }

    pub fn is_actor(&self, e: Entity) -> bool {
        self.actors.contains(e)
    }

    /// Ids of entities matching `pred`, nearest to `wanted` first.
    fn suggest(&self, wanted: &str, pred: impl Fn(Entity) -> bool) -> String {
        let ids: Vec<&Id> = self
            .registry
            .ids()
            .filter(|(_, e)| pred(**e))
            .map(|(id, _)| id)
            .collect();
        let near = nearest(wanted, ids, 3);
        near.iter().map(Id::as_str).collect::<Vec<_>>().join(", ")
    }

    fn resolve(
        &self,
        id: &Id,
        what: &str,
        pred: impl Fn(Entity) -> bool,
    ) -> Result<Entity, Rejection> {
        self.registry.get(id).ok_or_else(|| {
            let near = self.suggest(id.as_str(), pred);
            reject(
                "unknown_entity",
                format!("there is no {what} {id}"),
                format!("use a real id; closest: {near}"),
            )
        })
    }

    /// Where an entity can be walked to: the position an actor takes there
    /// and its point on the floor plan.
    pub fn anchor(&self, e: Entity) -> Option<(At, (f32, f32))> {
        if let Ok(room) = self.rooms.get(e) {
            return Some((
                At {
                    room: e,
                    near: None,
                },
                room.rect.center(),
            ));
        }
        if let Ok(f) = self.fixtures.get(e) {
            return Some((
                At {
                    room: f.room,
                    near: Some(e),
                },
                f.pos,
            ));
        }
        if let Ok((_, placed)) = self.items.get(e) {
            return match *placed {
                Placed::On(r) | Placed::In(r) | Placed::HeldBy(r) => self.anchor(r),
            };
        }
        if let Ok((_, at, _, _)) = self.actors.get(e) {
            return Some((*at, self.point(*at)));
        }
        None
    }

    /// The floor-plan point of a position: the fixture's, else the room centre.
    pub fn point(&self, at: At) -> (f32, f32) {
        match at.near.and_then(|n| self.fixtures.get(n).ok()) {
            Some(f) => f.pos,
            None => self
                .rooms
                .get(at.room)
                .map(|r| r.rect.center())
                .unwrap_or_default(),
        }
    }

    /// The room an entity is in (an object: where its holder or container is).
    pub fn room_of(&self, e: Entity) -> Option<Entity> {
        self.anchor(e).map(|(at, _)| at.room)
    }

    pub fn is_open(&self, e: Entity) -> bool {
        self.openables.get(e).map_or(true, |o| o.open)
    }

    /// The closed container an object is shut inside, if any.
    pub fn closed_container(&self, object: Entity) -> Option<Entity> {
        match self.items.get(object).ok()?.1 {
            Placed::In(r) if !self.is_open(*r) => Some(*r),
            _ => None,
        }
    }

    /// Rooms whose occupants hear someone speaking in `room`: the room and
    /// its neighbours through open doors and archways.
    pub fn earshot(&self, room: Entity) -> Vec<Entity> {
        let mut rooms = vec![room];
        for (other, door) in self.graph.neighbours(room) {
            if self.is_open(door) && !rooms.contains(&other) {
                rooms.push(other);
            }
        }
        rooms
    }

    /// Actors in any of `rooms`, in scene order.
    pub fn actors_in(&self, rooms: &[Entity]) -> Vec<Entity> {
        self.registry
            .actors
            .iter()
            .copied()
            .filter(|a| {
                self.actors
                    .get(*a)
                    .is_ok_and(|(_, at, _, _)| rooms.contains(&at.room))
            })
            .collect()
    }

    fn not_near(&self, actor: Entity, target: Entity, verb: &str) -> Rejection {
        let (who, what) = (self.id(actor), self.id(target));
        let anchor = self
            .anchor(target)
            .and_then(|(at, _)| at.near)
            .unwrap_or(target);
        reject(
            "not_colocated",
            format!("{who} is not at {what}"),
            format!("navigate_to {} first, then {verb}", self.id(anchor)),
        )
    }

    /// Validates a request and plans its effects; the time is checked first.
    pub(crate) fn plan(&self, req: &Request) -> (Option<Entity>, u64, Result<Plan, Rejection>) {
        let now = self.clock.now;
        let Some(actor) = self.registry.get(&req.actor).filter(|e| self.is_actor(*e)) else {
            let all: Vec<&str> = self
                .registry
                .actors
                .iter()
                .map(|a| self.id(*a).as_str())
                .collect();
            let r = reject(
                "unknown_actor",
                format!("there is no actor {}", req.actor),
                format!("actors are: {}", all.join(", ")),
            );
            return (None, req.at.unwrap_or(now).max(now), Err(r));
        };
        let busy = self.actors.get(actor).map(|a| a.3.0).unwrap_or(0);
        let t = match req.at {
            Some(at) if at < now => {
                let r = reject(
                    "time_in_past",
                    format!("requested start {at} is before the current time {now}"),
                    format!("give \"at\" of {now} or later, or leave it out"),
                );
                return (Some(actor), now, Err(r));
            }
            Some(at) if at < busy => {
                let r = reject(
                    "actor_busy",
                    format!("{} is busy until {busy}", req.actor),
                    format!("wait, or give \"at\" of {busy} or later"),
                );
                return (Some(actor), at, Err(r));
            }
            Some(at) => at,
            None => now.max(busy),
        };
        (Some(actor), t, self.plan_action(actor, &req.action))
    }

    fn plan_action(&self, actor: Entity, action: &Action) -> Result<Plan, Rejection> {
        let (me, at, hands, _) = self.actors.get(actor).expect("resolved actor");
        let who = self.id(actor);
        match action {
            Action::NavigateTo { target } => {
                let goal =
                    self.resolve(target, "room, furniture, device, object or actor", |e| {
                        self.anchor(e).is_some()
                    })?;
                let Some((dest, point)) = self.anchor(goal).filter(|_| goal != actor) else {
                    return Err(reject(
                        "bad_target",
                        format!("{who} cannot walk to {target}"),
                        "navigate to a room, furniture, device, object or another actor".into(),
                    ));
                };
                if dest == *at {
                    return Err(reject(
                        "already_there",
                        format!("{who} is already at {target}"),
                        format!("act on {target} directly"),
                    ));
                }
                let route = self
                    .graph
                    .open_route(at.room, self.point(*at), dest.room, point, |d| {
                        self.is_open(d)
                    })
                    .map_err(|b| {
                        let (door, side) = (self.id(b.door), self.id(b.near_side));
                        reject(
                            "door_closed",
                            format!("{door} is closed and there is no open way to {target}"),
                            if side == self.id(at.room) {
                                format!("open {door} first")
                            } else {
                                format!(
                                    "navigate_to {side}, open {door}, then navigate_to {target}"
                                )
                            },
                        )
                    })?;
                let secs = (f64::from(route.metres) / f64::from(me.speed))
                    .ceil()
                    .max(1.0) as u64;
                let mut plan = Plan::new(
                    secs,
                    vec![Op::Walk {
                        actor,
                        from: *at,
                        to: dest,
                    }],
                );
                plan.via = route.rooms;
                plan.reveal = Reveal::Room(dest.room);
                Ok(plan)
            }
            Action::Inspect { target } => {
                let e = self.resolve(target, "thing", |e| {
                    self.fixtures.contains(e)
                        || self.items.contains(e)
                        || self.is_actor(e)
                        || self.rooms.contains(e)
                })?;
                // Looking around the room one is in shows all of it.
                if self.rooms.contains(e) {
                    if e != at.room {
                        return Err(reject(
                            "not_colocated",
                            format!("{who} is not in {target}"),
                            format!("navigate_to {target} first"),
                        ));
                    }
                    let mut plan = Plan::new(LOOK_AROUND_SECS, vec![]);
                    plan.reveal = Reveal::Room(e);
                    return Ok(plan);
                }
                if !(self.fixtures.contains(e) || self.items.contains(e) || self.is_actor(e))
                    || e == actor
                {
                    return Err(reject(
                        "bad_target",
                        format!("{target} cannot be inspected"),
                        "inspect furniture, a device, an object, another actor or the room you are in".into(),
                    ));
                }
                if self.room_of(e) != Some(at.room) {
                    return Err(reject(
                        "not_colocated",
                        format!("{target} is not in the room {who} is in"),
                        format!("navigate_to {target} first"),
                    ));
                }
                if let Some(c) = self.closed_container(e) {
                    return Err(reject(
                        "not_visible",
                        format!("{target} is inside the closed {}", self.id(c)),
                        format!("open {} first", self.id(c)),
                    ));
                }
                let mut plan = Plan::new(INSPECT_SECS, vec![]);
                plan.reveal = Reveal::Target(e);
                Ok(plan)
            }
            Action::Pick { object } => {
                let e = self.resolve(object, "object", |e| self.items.contains(e))?;
                let Ok((_, placed)) = self.items.get(e) else {
                    return Err(reject(
                        "not_pickable",
                        format!("{object} is not a movable object"),
                        "pick up objects, not furniture, devices or people".into(),
                    ));
                };
                let from = match *placed {
                    Placed::HeldBy(h) if h == actor => {
                        return Err(reject(
                            "already_holding",
                            format!("{who} already holds {object}"),
                            "place it or hand it off".into(),
                        ));
                    }
                    Placed::HeldBy(h) => {
                        return Err(reject(
                            "held_by_other",
                            format!("{} is holding {object}", self.id(h)),
                            format!("ask {} to hand it over", self.id(h)),
                        ));
                    }
                    p @ (Placed::On(r) | Placed::In(r)) => {
                        if at.near != Some(r) {
                            return Err(self.not_near(actor, e, &format!("pick {object}")));
                        }
                        if matches!(p, Placed::In(_)) && !self.is_open(r) {
                            return Err(reject(
                                "inside_closed_container",
                                format!("{object} is inside {}, which is closed", self.id(r)),
                                format!("open {} first", self.id(r)),
                            ));
                        }
                        p
                    }
                };
                if hands.0.len() as u32 >= me.hands {
                    let held: Vec<&str> = hands.0.iter().map(|h| self.id(*h).as_str()).collect();
                    return Err(reject(
                        "hands_full",
                        format!("{who}'s hands are full ({})", held.join(", ")),
                        format!("place {} somewhere first", held[0]),
                    ));
                }
                Ok(Plan::new(
                    PICK_SECS,
                    vec![Op::Move {
                        object: e,
                        from,
                        to: Placed::HeldBy(actor),
                    }],
                ))
            }
            Action::Place {
                object,
                target,
                relation,
            } => {
                let e = self.resolve(object, "object", |e| self.items.contains(e))?;
                if !hands.0.contains(&e) {
                    let where_ = self
                        .items
                        .get(e)
                        .map(|(_, p)| self.describe_placed(*p))
                        .unwrap_or_else(|_| "not an object".into());
                    return Err(reject(
                        "not_holding",
                        format!("{who} is not holding {object} ({where_})"),
                        format!("pick {object} first"),
                    ));
                }
                let r = self.resolve(target, "receptacle", |e| self.receptacles.contains(e))?;
                let inside = *relation == Relation::In;
                let Ok(rec) = self.receptacles.get(r) else {
                    return Err(reject(
                        "not_a_receptacle",
                        format!("{target} has no surface to put things on or in"),
                        format!(
                            "place it on or in furniture; in this room: {}",
                            self.suggest(target.as_str(), |e| self.receptacles.contains(e)
                                && self.room_of(e) == Some(at.room))
                        ),
                    ));
                };
                let Some(slot) = rec.slot(inside) else {
                    let other = if inside { "on" } else { "in" };
                    let rel = if inside { "in" } else { "on" };
                    return Err(reject(
                        "no_such_surface",
                        format!("nothing can go {rel} {target}"),
                        format!("use relation \"{other}\""),
                    ));
                };
                if at.near != Some(r) {
                    return Err(self.not_near(actor, r, &format!("place {object}")));
                }
                if inside && !self.is_open(r) {
                    return Err(reject(
                        "container_closed",
                        format!("{target} is closed"),
                        format!("open {target} first"),
                    ));
                }
                if slot.items.len() as u32 >= slot.capacity {
                    return Err(reject(
                        "capacity_full",
                        format!(
                            "{target} is full ({} of {})",
                            slot.items.len(),
                            slot.capacity
                        ),
                        "place it somewhere else or take something out first".into(),
                    ));
                }
                let to = if inside { Placed::In(r) } else { Placed::On(r) };
                Ok(Plan::new(
                    PICK_SECS,
                    vec![Op::Move {
                        object: e,
                        from: Placed::HeldBy(actor),
                        to,
                    }],
                ))
            }
            Action::Open { target } | Action::Close { target } => {
                let open = matches!(action, Action::Open { .. });
                let e = self.resolve(target, "openable thing", |e| self.openables.contains(e))?;
                let Ok(state) = self.openables.get(e) else {
                    return Err(reject(
                        "not_openable",
                        format!("{target} does not open or close"),
                        format!(
                            "openable things in this room: {}",
                            self.suggest(target.as_str(), |e| self.openables.contains(e)
                                && self.room_of(e).is_none_or(|r| r == at.room))
                        ),
                    ));
                };
                if let Ok(door) = self.doors.get(e) {
                    if !door.rooms.contains(&at.room) {
                        return Err(reject(
                            "not_colocated",
                            format!("{target} is not a door of the room {who} is in"),
                            format!("navigate_to {} first", self.id(door.rooms[0])),
                        ));
                    }
                } else if at.near != Some(e) {
                    return Err(self.not_near(actor, e, if open { "open it" } else { "close it" }));
                }
                if state.open == open {
                    let code = if open {
                        "already_open"
                    } else {
                        "already_closed"
                    };
                    return Err(reject(
                        code,
                        format!(
                            "{target} is already {}",
                            if open { "open" } else { "closed" }
                        ),
                        "no need to do it again".into(),
                    ));
                }
                let mut plan = Plan::new(OPEN_SECS, vec![Op::SetOpen { target: e, open }]);
                if open && self.receptacles.contains(e) {
                    plan.reveal = Reveal::Contents(e);
                }
                Ok(plan)
            }
            Action::SetDeviceState {
                device,
                field,
                value,
            } => {
                let e = self.resolve(device, "device", |e| self.devices.contains(e))?;
                let Ok(dev) = self.devices.get(e) else {
                    return Err(reject(
                        "not_a_device",
                        format!("{device} has no state to set"),
                        format!(
                            "devices: {}",
                            self.suggest(device.as_str(), |e| self.devices.contains(e))
                        ),
                    ));
                };
                let Some((name, old)) = dev.fields.get_key_value(field.as_str()) else {
                    let names: Vec<&str> = dev.fields.keys().map(Id::as_str).collect();
                    return Err(reject(
                        "unknown_field",
                        format!("{device} has no field {field}"),
                        format!("fields of {device}: {}", names.join(", ")),
                    ));
                };
                let new = with_value(old, value).map_err(|why| {
                    reject(
                        "value_out_of_schema",
                        format!("{device}.{field} cannot be {value}: {why}"),
                        format!("{field} takes {}", schema_text(old)),
                    )
                })?;
                if !dev.remote && at.near != Some(e) {
                    return Err(self.not_near(actor, e, &format!("set {field}")));
                }
                if &new == old {
                    return Err(reject(
                        "no_change",
                        format!("{device}.{field} is already {value}"),
                        "nothing to do".into(),
                    ));
                }
                Ok(Plan::new(
                    DEVICE_SECS,
                    vec![Op::SetField {
                        device: e,
                        field: name.clone(),
                        old: old.clone(),
                        new,
                    }],
                ))
            }
            Action::Handoff { object, to } => {
                let e = self.resolve(object, "object", |e| self.items.contains(e))?;
                if !hands.0.contains(&e) {
                    return Err(reject(
                        "not_holding",
                        format!("{who} is not holding {object}"),
                        format!("pick {object} first"),
                    ));
                }
                let other = self.resolve(to, "actor", |e| self.is_actor(e))?;
                let Ok((them, their_at, their_hands, _)) = self.actors.get(other) else {
                    return Err(reject(
                        "not_an_actor",
                        format!("{to} is not an actor"),
                        "hand objects to people or robots; use place for furniture".into(),
                    ));
                };
                if other == actor {
                    return Err(reject(
                        "self_handoff",
                        format!("{who} cannot hand {object} to itself"),
                        "name another actor".into(),
                    ));
                }
                if their_at.room != at.room {
                    return Err(reject(
                        "partner_not_colocated",
                        format!("{to} is in {}, not with {who}", self.id(their_at.room)),
                        format!("navigate_to {to} first"),
                    ));
                }
                if their_hands.0.len() as u32 >= them.hands {
                    return Err(reject(
                        "partner_hands_full",
                        format!("{to}'s hands are full"),
                        format!("ask {to} to put something down first"),
                    ));
                }
                Ok(Plan::new(
                    HANDOFF_SECS,
                    vec![Op::Move {
                        object: e,
                        from: Placed::HeldBy(actor),
                        to: Placed::HeldBy(other),
                    }],
                ))
            }
            Action::Say { text, to, claims } => {
                if text.trim().is_empty() {
                    return Err(reject(
                        "empty_utterance",
                        format!("{who} said nothing"),
                        "give the words in text".into(),
                    ));
                }
                let hearers = self.earshot(at.room);
                for addressee in to {
                    let a = self.resolve(addressee, "actor", |e| self.is_actor(e))?;
                    let Ok((_, their_at, _, _)) = self.actors.get(a) else {
                        return Err(reject(
                            "not_an_actor",
                            format!("{addressee} is not an actor"),
                            "address people or robots".into(),
                        ));
                    };
                    if !hearers.contains(&their_at.room) {
                        return Err(reject(
                            "not_in_earshot",
                            format!(
                                "{addressee} is in {} and cannot hear {who}",
                                self.id(their_at.room)
                            ),
                            format!("navigate_to {addressee} first, or leave them out of to"),
                        ));
                    }
                }
                for c in claims {
                    let e = self.resolve(&c.entity, "entity", |_| true)?;
                    if !self.has_attr(e, &c.attr) {
                        return Err(reject("bad_claim", format!("{} has no attribute {}", c.entity, c.attr), "claim location of objects, position of actors, open of openables, or a device field".into()));
                    }
                }
                let words = text.split_whitespace().count() as f64;
                Ok(Plan::new(
                    (words / WORDS_PER_SEC).ceil().max(1.0) as u64,
                    vec![],
                ))
            }
            Action::Wait { seconds, .. } => {
                if *seconds == 0 || *seconds > DAY {
                    return Err(reject(
                        "bad_wait",
                        format!("cannot wait {seconds} s"),
                        format!("wait between 1 and {DAY} seconds"),
                    ));
                }
                Ok(Plan::new(*seconds, vec![]))
            }
        }
    }

    fn describe_placed(&self, p: Placed) -> String {
        match p {
            Placed::On(r) => format!("it is on {}", self.id(r)),
            Placed::In(r) => format!("it is in {}", self.id(r)),
            Placed::HeldBy(a) => format!("{} holds it", self.id(a)),
        }
    }

    /// Whether `attr` names an attribute of entity `e` that claims and
    /// beliefs can be about.
    pub fn has_attr(&self, e: Entity, attr: &str) -> bool {
        match attr {
            "location" => self.items.contains(e),
            "position" => self.is_actor(e),
            "open" => self.openables.contains(e),
            field => self
                .devices
                .get(e)
                .is_ok_and(|d| d.fields.contains_key(field)),
        }
    }
}

/// System: validate the pending request and plan its effects.
pub fn plan_request(view: WorldView, mut step: ResMut<Step>) {
    let Some(req) = step.request.as_ref() else {
        return;
    };
    let (actor, t, result) = view.plan(req);
    step.actor = actor;
    step.t = t;
    match result {
        Ok(plan) => {
            step.dur = plan.dur;
            step.ops = plan.ops;
            step.via = plan.via;
            step.reveal = plan.reveal;
            step.rejection = None;
        }
        Err(r) => {
            // A rejection takes no time and must not move the clock (a
            // far-future "at" would otherwise push everyone's next request).
            step.t = view.clock.now;
            step.dur = 0;
            step.ops.clear();
            step.via.clear();
            step.reveal = Reveal::Nothing;
            step.rejection = Some(r);
        }
    }
}

/// System: apply the planned changes, advance the clock and occupy the actor.
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
pub fn apply_step(
    step: Res<Step>,
    mut clock: ResMut<Clock>,
    mut placed: Query<&mut Placed>,
    mut receptacles: Query<&mut Receptacle>,
    mut hands: Query<&mut Hands>,
    mut openables: Query<&mut Openable>,
    mut devices: Query<&mut Device>,
    mut positions: Query<(&mut At, &mut Busy)>,
    mut standby: Query<&mut Standby>,
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
                *devices
                    .get_mut(*device)
                    .expect("planned device")
                    .fields
                    .get_mut(field)
                    .expect("planned field") = new.clone();
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
