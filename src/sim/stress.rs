//! Random request streams for property tests and benchmarks: seeded, and
//! biased towards requests that make sense where the actor stands, with a
//! steady share of invalid ones (unknown ids, wrong affordances, bad
//! values, times in the past).

use bevy::prelude::*;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::ids::Id;
use crate::scene::FieldDef;
use crate::trace::{Claim, Value};

use super::simulation::Simulation;
use super::world::*;
use crate::trace::request::{Action, Relation, Request};

/// Makes random requests against a simulation's current state.
pub struct RandomRequests {
    rng: ChaCha8Rng,
    actors: Vec<Id>,
    all: Vec<Id>,
}

impl RandomRequests {
    pub fn new(sim: &Simulation, seed: u64) -> Self {
        let mut all: Vec<Id> = sim.registry().ids().map(|(id, _)| id.clone()).collect();
        all.sort();
        let actors = sim.scene().actors.iter().map(|a| a.id.clone()).collect();
        RandomRequests {
            rng: ChaCha8Rng::seed_from_u64(seed),
            actors,
            all,
        }
    }

    fn any_id(&mut self) -> Id {
        if self.rng.random_bool(0.05) {
            return Id::new(&format!("ghost_{}", self.rng.random_range(0..9)));
        }
        self.all
            .choose(&mut self.rng)
            .expect("scenes have entities")
            .clone()
    }

    /// The next request, given the world as it is now.
    pub fn next(&mut self, sim: &Simulation) -> Request {
        let world = sim.world();
        let reg = sim.registry();
        let actor = self
            .actors
            .choose(&mut self.rng)
            .expect("scenes have actors")
            .clone();
        let me = reg.get(&actor).expect("actor exists");
        let at = *world.get::<At>(me).expect("actor");
        let held = world.get::<Hands>(me).expect("actor").0.clone();
        let key = |e: Entity| world.get::<Key>(e).expect("spawned").0.clone();
        // Things at hand: the fixture the actor stands at and what is on or in it.
        let near_items: Vec<Entity> = at
            .near
            .and_then(|n| world.get::<Receptacle>(n))
            .map(|r| {
                r.on.iter()
                    .chain(r.inside.iter())
                    .flat_map(|s| s.items.clone())
                    .collect()
            })
            .unwrap_or_default();
        let room_fixtures = reg.room_fixtures.get(&at.room).cloned().unwrap_or_default();
        let plausible = self.rng.random_bool(0.75);
        let out = reg.is_outside(at.room);
        let front = sim
            .scene()
            .doors
            .iter()
            .find(|d| d.is_exterior())
            .map(|d| d.id.clone());
        let door = match &front {
            Some(d) if plausible => d.clone(),
            _ => self.any_id(),
        };
        // Out of the house, coming back is the likely next thing.
        let pick = if out && self.rng.random_bool(0.5) {
            10
        } else {
            self.rng.random_range(0..11)
        };
        let action = match pick {
            0 | 1 => {
                let target = if plausible && !room_fixtures.is_empty() && self.rng.random_bool(0.5)
                {
                    key(*room_fixtures.choose(&mut self.rng).unwrap())
                } else {
                    self.any_id()
                };
                Action::NavigateTo { target }
            }
            2 => {
                let object = match near_items.choose(&mut self.rng) {
                    Some(e) if plausible => key(*e),
                    _ => self.any_id(),
                };
                Action::Pick { object }
            }
            3 => {
                let object = match held.choose(&mut self.rng) {
                    Some(e) if plausible => key(*e),
                    _ => self.any_id(),
                };
                let target = match at.near {
                    Some(n) if plausible => key(n),
                    _ => self.any_id(),
                };
                let relation = if self.rng.random_bool(0.5) {
                    Relation::On
                } else {
                    Relation::In
                };
                Action::Place {
                    object,
                    target,
                    relation,
                }
            }
            4 => {
                let target = match at.near {
                    Some(n) if plausible => key(n),
                    _ => self.any_id(),
                };
                if self.rng.random_bool(0.5) {
                    Action::Open { target }
                } else {
                    Action::Close { target }
                }
            }
            5 => {
                let dev = room_fixtures
                    .iter()
                    .copied()
                    .filter(|f| world.get::<Device>(*f).is_some())
                    .collect::<Vec<_>>();
                let device = match dev.choose(&mut self.rng) {
                    Some(d) if plausible => *d,
                    _ => match reg.get(&self.any_id()) {
                        Some(e) => e,
                        None => {
                            return Request::new(
                                &actor,
                                Action::SetDeviceState {
                                    device: Id::new("ghost"),
                                    field: "power".into(),
                                    value: Value::Bool(true),
                                },
                            );
                        }
                    },
                };
                let (field, value) = match world.get::<Device>(device) {
                    Some(d) => {
                        let (name, f) = d
                            .fields
                            .iter()
                            .nth(self.rng.random_range(0..d.fields.len()))
                            .expect("devices have fields");
                        (name.to_string(), self.field_value(f, plausible))
                    }
                    None => ("power".to_string(), Value::Bool(true)),
                };
                Action::SetDeviceState {
                    device: key(device),
                    field,
                    value,
                }
            }
            6 => {
                let object = match held.choose(&mut self.rng) {
                    Some(e) if plausible => key(*e),
                    _ => self.any_id(),
                };
                Action::Handoff {
                    object,
                    to: self.actors.choose(&mut self.rng).unwrap().clone(),
                }
            }
            7 => {
                let to = if self.rng.random_bool(0.5) {
                    vec![self.actors.choose(&mut self.rng).unwrap().clone()]
                } else {
                    vec![]
                };
                let claims = if self.rng.random_bool(0.3) {
                    vec![Claim::fact(
                        self.any_id(),
                        Id::new("location"),
                        Value::Text("somewhere".into()),
                    )]
                } else {
                    vec![]
                };
                let text = if self.rng.random_bool(0.05) {
                    " ".into()
                } else {
                    format!("message {}", self.rng.random_range(0..100))
                };
                Action::Say { text, to, claims }
            }
            10 if out => {
                let carried = world.get::<Bag>(me).expect("actor").0.clone();
                let mut bring: Vec<Id> = Vec::new();
                for e in carried {
                    if self.rng.random_bool(0.7) {
                        bring.push(key(e));
                    }
                }
                if self.rng.random_bool(0.2) {
                    bring.push(self.any_id());
                }
                Action::Arrive { door, bring }
            }
            10 => {
                let mut take: Vec<Id> = Vec::new();
                for &e in &near_items {
                    if self.rng.random_bool(0.3) {
                        take.push(key(e));
                    }
                }
                if self.rng.random_bool(0.2) {
                    take.push(self.any_id());
                }
                let to = *crate::trace::request::Destination::ALL
                    .choose(&mut self.rng)
                    .expect("destinations");
                Action::Leave { door, to, take }
            }
            8 => Action::Inspect {
                target: if plausible && !room_fixtures.is_empty() {
                    key(*room_fixtures.choose(&mut self.rng).unwrap())
                } else {
                    self.any_id()
                },
            },
            _ => Action::Wait {
                seconds: if plausible {
                    self.rng.random_range(1..600)
                } else {
                    self.rng.random_range(0..2) * 100_000
                },
                standby: self.rng.random_bool(0.25),
            },
        };
        let mut req = Request::new(&actor, action);
        if self.rng.random_bool(0.05) {
            req.at = Some(sim.now().saturating_sub(self.rng.random_range(0..100)));
        } else if self.rng.random_bool(0.05) {
            req.actor = Id::new("nobody");
        }
        req
    }

    fn field_value(&mut self, f: &FieldDef, plausible: bool) -> Value {
        match f {
            FieldDef::Bool(b) => Value::Bool(if plausible { !b } else { self.rng.random() }),
            FieldDef::Int { min, max, .. } => Value::Int(if plausible {
                self.rng.random_range(*min..=*max)
            } else {
                max + 1
            }),
            FieldDef::Float { min, max, .. } => Value::Float(if plausible {
                self.rng.random_range(*min..=*max)
            } else {
                min - 1.0
            }),
            FieldDef::Enum { options, .. } => Value::Text(if plausible {
                options.choose(&mut self.rng).unwrap().clone()
            } else {
                "turbo".into()
            }),
            FieldDef::Timer { max, .. } => Value::Int(if plausible {
                i64::from(self.rng.random_range(0..=*max))
            } else {
                -5
            }),
        }
    }
}
