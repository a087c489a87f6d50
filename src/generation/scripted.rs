//! The built-in offline backend: rule- and template-driven household life,
//! deterministic from the seed. Humans keep routines with natural variation,
//! state preferences and later act on them, ask the robot for things now
//! and later (commitments), report where things are (sometimes wrongly),
//! tidy things away while the robot is elsewhere, use devices in person
//! and remotely, and hand things over.

use std::collections::BTreeMap;

use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use std::sync::Arc;

use crate::catalogue::Roles;
use crate::ids::Id;
use crate::scene::{FieldDef, Openable, Placement, Role, Scene};
use crate::sim::Simulation;
use crate::trace::{Claim, ClaimMode, DAY, Event, Location, Value};

use super::*;

/// A human's preferences and routines, chosen from the seed once.
#[derive(Debug, Clone)]
struct Person {
    id: Id,
    name: String,
    mug: Option<Id>,
    drink: Option<String>,
    tv_volume: i64,
    brightness: i64,
    night_target: f64,
    wake: u64,
    /// Washing programme and temperature.
    laundry: (String, i64),
    /// Everything this person uses, as (category → objects they own).
    owned: BTreeMap<String, Vec<Id>>,
}

pub struct Scripted {
    rng: ChaCha8Rng,
    /// The scene's fixtures, devices and objects by role; shared so that a
    /// stage can hold it while drawing from `rng`.
    roles: Arc<Roles>,
    people: Vec<Person>,
    commitments: Vec<Commitment>,
    stated: Vec<String>,
    /// Due times (trace seconds) that already have a commitment session.
    scheduled: std::collections::BTreeSet<u64>,
}

const H: u64 = 3600;
const M: u64 = 60;
/// A commitment session also takes up commitments due this soon after it.
const EARLY: u64 = 30 * M;

fn pick<'a, T>(rng: &mut ChaCha8Rng, xs: &'a [T]) -> &'a T {
    xs.choose(rng).expect("non-empty template list")
}

impl Scripted {
    pub fn new(scene: &Scene, seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let roles = Arc::new(Roles::builtin(scene));
        let coffee = roles.device(Role::HotDrinks);
        let drinks: Vec<String> = coffee
            .and_then(|d| scene.devices.iter().find(|x| x.id == *d))
            .and_then(|d| {
                d.fields.values().find_map(|f| {
                    if let FieldDef::Enum { options, .. } = f {
                        Some(options.clone())
                    } else {
                        None
                    }
                })
            })
            .unwrap_or_default();
        let programmes: Vec<String> = roles
            .device(Role::Laundry)
            .and_then(|d| scene.devices.iter().find(|x| x.id == *d))
            .and_then(|d| match d.fields.get("program") {
                Some(FieldDef::Enum { options, .. }) => Some(options.clone()),
                _ => None,
            })
            .unwrap_or_else(|| vec!["cotton".into()]);
        let people = scene
            .actors
            .iter()
            .filter(|a| a.kind == crate::scene::ActorKind::Human)
            .map(|a| {
                let mut owned: BTreeMap<String, Vec<Id>> = BTreeMap::new();
                for o in scene
                    .objects
                    .iter()
                    .filter(|o| o.owner.as_ref() == Some(&a.id))
                {
                    owned
                        .entry(o.category.clone())
                        .or_default()
                        .push(o.id.clone());
                }
                let vessels = roles.objects(Role::DrinkVessel);
                let mug = scene
                    .objects
                    .iter()
                    .find(|o| o.owner.as_ref() == Some(&a.id) && vessels.contains(&o.id))
                    .map(|o| o.id.clone())
                    .or_else(|| vessels.first().cloned());
                Person {
                    id: a.id.clone(),
                    name: a.name.clone(),
                    mug,
                    drink: drinks.choose(&mut rng).cloned(),
                    tv_volume: rng.random_range(2..8) * 5,
                    brightness: rng.random_range(3..9) * 10,
                    night_target: f64::from(rng.random_range(36..42)) / 2.0,
                    wake: 6 * H + 30 * M + rng.random_range(0..6) * 10 * M,
                    laundry: (
                        programmes.choose(&mut rng).cloned().unwrap_or_default(),
                        *[30, 40, 60].choose(&mut rng).expect("non-empty"),
                    ),
                    owned,
                }
            })
            .collect();
        Scripted {
            rng,
            roles,
            people,
            commitments: vec![],
            stated: vec![],
            scheduled: Default::default(),
        }
    }

    fn person(&self, id: &Id) -> &Person {
        self.people
            .iter()
            .find(|p| &p.id == id)
            .expect("a human of the scene")
    }

    fn jitter(&mut self, minutes: u64) -> u64 {
        self.rng.random_range(0..=minutes) * M
    }
}

impl Person {
    /// The first owned object of each category playing `role`, in category
    /// order (a laptop and a notebook, not two notebooks).
    fn first_of_each(&self, r: &Roles, role: Role) -> Vec<Id> {
        self.owned
            .values()
            .filter_map(|v| v.iter().find(|o| r.has(o, role)))
            .cloned()
            .collect()
    }
}

/// Of `fixtures`, the one whose description names `name` ("Bob's desk").
fn named_for<'a>(s: &Scene, fixtures: &'a [Id], name: &str) -> Option<&'a Id> {
    let name = name.to_lowercase();
    fixtures.iter().find(|id| {
        s.furniture
            .iter()
            .any(|f| f.id == **id && f.description.to_lowercase().contains(&name))
    })
}

fn category_of<'a>(s: &'a Scene, object: &Id) -> &'a str {
    s.objects
        .iter()
        .find(|o| &o.id == object)
        .map_or("", |o| o.category.as_str())
}

/// Whose medicine the robot brings, and which: an owned one, else the first
/// medicine for the first human.
fn medication(scene: &Scene, r: &Roles, humans: &[Id]) -> Option<(Id, Id)> {
    let meds = || {
        scene
            .objects
            .iter()
            .filter(|o| r.has(&o.id, Role::Medicine))
    };
    meds()
        .find_map(|o| Some((o.owner.clone()?, o.id.clone())))
        .or_else(|| Some((humans.first()?.clone(), meds().next()?.id.clone())))
}

/// Where a clean piece of clothing goes: towels to a towel rack, owned
/// clothes into a wardrobe in the owner's bedroom, anything else on a shelf
/// in the laundry room.
fn home_of_clothes(scene: &Scene, r: &Roles, object: &Id) -> Dest {
    let o = scene.objects.iter().find(|o| &o.id == object);
    let in_room = |room: &Id, role: Role| {
        scene
            .furniture
            .iter()
            .find(|f| &f.room == room && r.has(&f.id, role))
            .map(|f| f.id.clone())
    };
    if r.has(object, Role::BathTowel)
        && let Some(rack) = r.fixture(Role::TowelRail)
    {
        return Dest::On(rack.clone());
    }
    let bedroom = o
        .and_then(|o| o.owner.as_ref())
        .and_then(|w| scene.actors.iter().find(|a| &a.id == w))
        .map(|a| a.room.clone());
    if let Some(w) = bedroom
        .as_ref()
        .and_then(|room| in_room(room, Role::ClothesStorage)) {
        return Dest::In(w);
    }
    let washer_room = r
        .device(Role::Laundry)
        .and_then(|w| scene.devices.iter().find(|d| d.id == *w))
        .map(|d| &d.room);
    let tops = surfaces(scene);
    let shelf = tops
        .iter()
        .find(|t| {
            scene
                .furniture
                .iter()
                .any(|f| &f.id == *t && Some(&f.room) == washer_room)
        })
        .or(tops.first())
        .expect("scenes have surfaces");
    Dest::On(shelf.clone())
}

/// Receptacles that close (drawers, cabinets, wardrobes) and have an inside.
fn closed_containers(scene: &Scene) -> Vec<Id> {
    scene
        .furniture
        .iter()
        .filter(|f| {
            f.openable != Openable::No
                && f.surfaces
                    .iter()
                    .any(|s| matches!(s, crate::scene::Surface::In(_)))
        })
        .map(|f| f.id.clone())
        .collect()
}

fn surfaces(scene: &Scene) -> Vec<Id> {
    scene
        .furniture
        .iter()
        .filter(|f| {
            f.surfaces
                .iter()
                .any(|s| matches!(s, crate::scene::Surface::On(_)))
        })
        .map(|f| f.id.clone())
        .collect()
}

fn describe(scene: &Scene, id: &Id) -> String {
    scene
        .objects
        .iter()
        .find(|o| &o.id == id)
        .map(|o| o.description.clone())
        .unwrap_or_else(|| id.to_string())
}

fn kind_of(scene: &Scene, id: &Id) -> String {
    scene
        .furniture
        .iter()
        .find(|f| &f.id == id)
        .map(|f| f.kind.clone())
        .or_else(|| {
            scene
                .devices
                .iter()
                .find(|d| &d.id == id)
                .map(|d| d.kind.clone())
        })
        .unwrap_or_else(|| id.to_string())
}

fn say(to: &[&Id], text: String) -> Goal {
    say_claims(to, text, vec![])
}

fn say_claims(to: &[&Id], text: String, claims: Vec<Claim>) -> Goal {
    Goal::Say {
        to: to.iter().map(|i| (*i).clone()).collect(),
        text,
        claims,
    }
}

/// "`holder` likes `device.field` at `value`", as a structured claim.
fn preference(holder: &Id, device: &Id, field: &str, value: Value) -> Claim {
    Claim {
        mode: ClaimMode::Preference,
        holder: Some(holder.clone()),
        ..Claim::fact(device.clone(), Id::new(field), value)
    }
}

/// A commitment's goal as the request claim said with it.
fn request_claim(goal: &Goal, due: u64) -> Option<Claim> {
    let (entity, attr, value) = match goal {
        Goal::Fetch { object, to } => (
            object.clone(),
            Id::new("location"),
            Value::Location(match to {
                Dest::On(r) => Location::On(r.clone()),
                Dest::In(r) => Location::In(r.clone()),
                Dest::Actor(a) => Location::HeldBy(a.clone()),
            }),
        ),
        Goal::Operate {
            device,
            field,
            value,
        } => (device.clone(), field.clone(), value.clone()),
        _ => return None,
    };
    Some(Claim {
        mode: ClaimMode::Request,
        due: Some(due),
        ..Claim::fact(entity, attr, value)
    })
}

fn turn(actor: &Id, goal: Goal) -> Turn {
    Turn {
        actor: actor.clone(),
        goal,
        not_before: None,
        otherwise: None,
    }
}

impl Backend for Scripted {
    fn name(&self) -> &str {
        "scripted"
    }

    fn projects(&mut self, cx: &Context) -> Result<Vec<Project>, GenError> {
        let s = cx.scene;
        let r = Arc::clone(&self.roles);
        let humans = &cx.humans;
        let first = humans.first().cloned().unwrap_or_else(|| cx.robot.clone());
        let second = humans.get(1).cloned().unwrap_or_else(|| first.clone());
        let last = humans.last().cloned().unwrap_or_else(|| first.clone());
        let ids = |xs: &[Option<&Id>]| {
            xs.iter()
                .flatten()
                .map(|i| (*i).clone())
                .collect::<Vec<_>>()
        };
        use MemoryTarget::*;
        use ProjectType::*;
        let end = cx.days;
        let deadline = end.clamp(1, 3);
        let mk = |n: usize,
                  kind,
                  title: String,
                  participants: Vec<Id>,
                  entities: Vec<Id>,
                  targets: Vec<MemoryTarget>,
                  start: u32,
                  end: u32,
                  constraints: Vec<String>| Project {
            id: format!("p{n}"),
            kind,
            title,
            participants,
            entities,
            memory_targets: targets,
            start_day: start,
            end_day: end,
            constraints,
        };
        let meds: Vec<Id> = r.objects(Role::Medicine).to_vec();
        let med_owner = medication(s, &r, humans)
            .map(|(owner, _)| owner)
            .unwrap_or_else(|| first.clone());
        let p = self.person(&first).name.clone();
        let mut projects = vec![
            mk(
                1,
                HouseholdRoutine,
                "Morning coffee and breakfast".into(),
                humans.clone(),
                ids(&[
                    r.device(Role::HotDrinks),
                    r.fixture(Role::DiningSurface).or(r.fixture(Role::PrepSurface)),
                ]),
                vec![Routine, ObjectLocation],
                1,
                end,
                vec!["breakfast between 06:30 and 08:00".into()],
            ),
            mk(
                2,
                RoutineSupport,
                format!("{}'s daily medication", self.person(&med_owner).name),
                vec![med_owner.clone(), cx.robot.clone()],
                meds,
                vec![TemporalState, Routine, SocialContext],
                1,
                end,
                vec!["medicine every morning around 08:30".into()],
            ),
            mk(
                3,
                HouseholdOrganization,
                "Putting things away".into(),
                humans.clone(),
                closed_containers(s),
                vec![ObjectLocation, HiddenState],
                1,
                end,
                vec![],
            ),
            mk(
                4,
                HealthLifestyle,
                "Comfortable temperature at night".into(),
                humans.clone(),
                ids(&[r.device(Role::Climate)]),
                vec![Preference, DeviceState],
                1,
                end,
                vec![],
            ),
            mk(
                5,
                MealPreparation,
                "Cooking dinner".into(),
                humans.clone(),
                ids(&[
                    r.device(Role::Cooking),
                    r.fixture(Role::ColdStorage),
                    r.device(Role::DishWashing),
                ]),
                vec![DeviceState, PlanningDependency, ObjectLocation],
                1,
                end,
                vec!["dishwasher runs after dinner".into()],
            ),
            mk(
                6,
                WorkStudySupport,
                format!("{}'s project deadline", self.person(&last).name),
                vec![last.clone(), cx.robot.clone()],
                self.person(&last)
                    .owned
                    .values()
                    .flatten()
                    .cloned()
                    .collect(),
                vec![PlanningDependency, TemporalState, ObjectLocation],
                1,
                deadline,
                vec![format!("due on day {deadline}")],
            ),
            mk(
                7,
                DigitalDeviceCoordination,
                "TV, lights and speaker".into(),
                vec![first.clone(), second.clone()],
                ids(&[
                    r.device(Role::Entertainment),
                    r.device(Role::Light),
                    r.device(Role::Audio),
                ]),
                vec![DeviceState, HiddenState],
                1,
                end,
                vec![],
            ),
            mk(
                8,
                FamilyComfort,
                format!("Evenings in with {p}"),
                humans.clone(),
                r.objects(Role::Comfort).to_vec(),
                vec![Preference, SocialContext],
                1,
                end,
                vec![],
            ),
        ];
        if let (Some(washer), Some(basket)) = (
            r.device(Role::Laundry),
            r.fixture(Role::LaundryBasket),
        ) {
            projects.push(mk(
                9,
                HouseholdRoutine,
                "Keeping up with the laundry".into(),
                humans.clone(),
                vec![washer.clone(), basket.clone()],
                vec![ObjectLocation, HiddenState, DeviceState, PlanningDependency],
                1,
                end,
                vec!["clothes are put away once the wash is done".into()],
            ));
        }
        Ok(projects)
    }

    fn day_beats(
        &mut self,
        _cx: &Context,
        projects: &[Project],
        day: u32,
    ) -> Result<Vec<DayBeat>, GenError> {
        let mut out = Vec::new();
        for p in projects {
            if day < p.start_day || day > p.end_day {
                continue;
            }
            let beat = if day == p.start_day {
                Beat::Established
            } else if day == p.end_day && p.kind == ProjectType::WorkStudySupport {
                Beat::Completed
            } else if self.rng.random_bool(0.15) {
                Beat::Interrupted
            } else if out
                .iter()
                .any(|b: &DayBeat| b.project == p.id && b.beat == Beat::Interrupted)
            {
                Beat::Recovered
            } else {
                Beat::Continued
            };
            let summary = format!("{}: {:?}", p.title, beat).to_lowercase();
            out.push(DayBeat {
                day,
                project: p.id.clone(),
                beat,
                summary,
            });
        }
        Ok(out)
    }

    fn sessions(
        &mut self,
        cx: &Context,
        projects: &[Project],
        beats: &[DayBeat],
        day: u32,
        _notes: Option<&DayNotes>,
    ) -> Result<Vec<Session>, GenError> {
        let base = u64::from(day - 1) * DAY;
        // The scripted projects have fixed ids (see `projects`).
        let beat = |id: &str| {
            let p = projects.iter().find(|p| p.id == id)?;
            let b = beats.iter().find(|b| b.project == p.id).map(|b| b.beat);
            Some((p.id.clone(), b))
        };
        let mut plan: Vec<(u64, &str, Option<&str>)> = vec![
            (6 * H + 30 * M, "wake_up", Some("p1")),
            (7 * H + 20 * M, "breakfast", Some("p1")),
            (8 * H + 30 * M, "medication", Some("p2")),
            (10 * H, "tidy", Some("p3")),
            (11 * H + 30 * M, "find_request", None),
            (12 * H + 30 * M, "lunch", Some("p5")),
            (14 * H, "work", Some("p6")),
            (15 * H, "laundry", Some("p9")),
            (16 * H, "find_request", None),
            (17 * H, "tidy", Some("p3")),
            (18 * H, "cooking", Some("p5")),
            (20 * H, "evening", Some("p8")),
            (21 * H + 15 * M, "remote_devices", Some("p7")),
            (22 * H, "bedtime", Some("p4")),
        ];
        // Commitments due today get a session per due time.
        let mut due: Vec<u64> = self
            .commitments
            .iter()
            .filter(|c| c.status == CommitmentStatus::Open && c.due / DAY + 1 == u64::from(day))
            .map(|c| c.due % DAY)
            .collect();
        due.sort_unstable();
        due.dedup();
        self.scheduled.extend(due.iter().map(|at| base + at));
        plan.extend(due.into_iter().map(|at| (at, "commitment", None)));
        plan.sort_by_key(|p| p.0);
        let mut out = Vec::new();
        let mut last_start = base;
        for (i, (at, kind, project)) in plan.into_iter().enumerate() {
            let (pid, b) = match project.map(beat) {
                // A project this scene has no room for (no washing machine).
                Some(None) => continue,
                Some(Some((id, b))) => (Some(id), b),
                None => (None, None),
            };
            let start = (base + at + self.jitter(20)).max(last_start + 5 * M);
            last_start = start;
            let mut params = BTreeMap::new();
            if let Some(b) = b {
                params.insert("beat".into(), format!("{b:?}").to_lowercase());
            }
            let participants = match kind {
                "medication" | "work" | "commitment" | "find_request" => vec![cx.robot.clone()],
                _ => cx.humans.clone(),
            };
            out.push(Session {
                id: format!("d{day}s{:02}", i + 1),
                day,
                start,
                kind: kind.into(),
                project: pid,
                intent: intent_of(kind).into(),
                participants,
                params,
                turns: vec![],
            });
        }
        for (n, s) in out.iter_mut().enumerate() {
            s.id = format!("d{day}s{:02}", n + 1);
        }
        Ok(out)
    }

    fn direct(
        &mut self,
        cx: &Context,
        session: &Session,
        sim: &Simulation,
    ) -> Result<Vec<Turn>, GenError> {
        let s = cx.scene;
        let r = Arc::clone(&self.roles);
        let robot = &cx.robot;
        let interrupted = session
            .params
            .get("beat")
            .is_some_and(|b| b == "interrupted");
        let established = session
            .params
            .get("beat")
            .is_some_and(|b| b == "established");
        let humans = cx.humans.clone();
        if humans.is_empty() {
            return Ok(vec![]);
        }
        let mut turns = Vec::new();
        let host = humans[self.rng.random_range(0..humans.len())].clone();
        match session.kind.as_str() {
            "wake_up" => {
                let bath = r.fixture(Role::Washbasin).cloned();
                for h in &humans {
                    let mut t = turn(
                        h,
                        Goal::GoTo {
                            target: bath
                                .clone()
                                .unwrap_or_else(|| sim.room_of(h).expect("in a room")),
                        },
                    );
                    t.not_before = Some(
                        session
                            .start
                            .max(u64::from(session.day - 1) * DAY + self.person(h).wake)
                            + self.jitter(15),
                    );
                    turns.push(t);
                    turns.push(turn(
                        h,
                        Goal::Wait {
                            seconds: 240 + self.jitter(6),
                        },
                    ));
                    if let Some(c) = r.fixture(Role::PrepSurface) {
                        turns.push(turn(h, Goal::GoTo { target: c.clone() }));
                    }
                }
                if let Some(light) = r.device(Role::Light) {
                    turns.push(turn(
                        &host,
                        Goal::Operate {
                            device: light.clone(),
                            field: Id::new("power"),
                            value: Value::Bool(true),
                        },
                    ));
                }
            }
            "breakfast" | "lunch" => {
                let table =
                    r.fixture(Role::DiningSurface).or(r.fixture(Role::PrepSurface)).or(r.fixture(Role::WorkDesk)).cloned();
                let Some(table) = table else { return Ok(turns) };
                if let Some(coffee) = r.device(Role::HotDrinks).cloned() {
                    turns.push(turn(
                        &host,
                        Goal::Operate {
                            device: coffee.clone(),
                            field: Id::new("power"),
                            value: Value::Bool(true),
                        },
                    ));
                    let p = self.person(&host).clone();
                    if let (Some(drink), true) = (
                        &p.drink,
                        s.devices
                            .iter()
                            .any(|d| d.id == coffee && d.fields.contains_key("drink")),
                    ) {
                        turns.push(turn(
                            &host,
                            Goal::Operate {
                                device: coffee.clone(),
                                field: Id::new("drink"),
                                value: Value::Text(drink.clone()),
                            },
                        ));
                        if established || self.rng.random_bool(0.25) {
                            let text = pick(
                                &mut self.rng,
                                &[
                                    "I always have a {d} in the morning.",
                                    "A {d} for me, like every day.",
                                    "Nothing beats my morning {d}.",
                                ],
                            )
                            .replace("{d}", drink);
                            self.stated
                                .push(format!("{} drinks {} in the morning", p.name, drink));
                            let claim =
                                preference(&host, &coffee, "drink", Value::Text(drink.clone()));
                            turns.push(turn(&host, say_claims(&[robot], text, vec![claim])));
                        }
                    }
                    if let Some(mug) = &p.mug {
                        turns.push(turn(
                            &host,
                            Goal::Fetch {
                                object: mug.clone(),
                                to: Dest::On(table.clone()),
                            },
                        ));
                    }
                    turns.push(turn(
                        &host,
                        Goal::Operate {
                            device: coffee,
                            field: Id::new("power"),
                            value: Value::Bool(false),
                        },
                    ));
                }
                // One of each kind of breakfast food, look-alikes (two milks)
                // being a choice someone states.
                let mut kinds: Vec<&str> = vec![];
                for o in r.objects(Role::BreakfastFood) {
                    let c = category_of(s, o);
                    if !kinds.contains(&c) {
                        kinds.push(c);
                    }
                }
                for (n, cat) in kinds.iter().enumerate() {
                    let items: Vec<Id> = r
                        .objects(Role::BreakfastFood)
                        .iter()
                        .filter(|o| category_of(s, o) == *cat)
                        .cloned()
                        .collect();
                    let Some(item) = items.choose(&mut self.rng).cloned() else {
                        continue;
                    };
                    let who = humans[(n + 1) % humans.len()].clone();
                    turns.push(turn(
                        &who,
                        Goal::Fetch {
                            object: item.clone(),
                            to: Dest::On(table.clone()),
                        },
                    ));
                    if items.len() > 1 && self.rng.random_bool(0.4) {
                        let name = self.person(&who).name.clone();
                        self.stated
                            .push(format!("{name} takes {}", describe(s, &item)));
                        turns.push(turn(
                            &who,
                            say(
                                &[],
                                format!(
                                    "I'll take the {}, please, not the other one.",
                                    describe(s, &item)
                                ),
                            ),
                        ));
                    }
                    if n >= 2 {
                        break;
                    }
                }
                // The robot clears up: food back to the fridge, the mug to the dishwasher.
                let fridge = r.fixture(Role::ColdStorage).cloned();
                for o in s
                    .objects
                    .iter()
                    .filter(|o| matches!(&o.at, Placement::In(f) if Some(f) == fridge.as_ref()))
                    .take(6)
                {
                    if matches!(sim.location(&o.id), Some(Location::On(ref t)) if *t == table)
                        || turns.iter().any(
                            |t| matches!(&t.goal, Goal::Fetch { object, .. } if *object == o.id),
                        )
                    {
                        turns.push(turn(
                            robot,
                            Goal::Fetch {
                                object: o.id.clone(),
                                to: Dest::In(fridge.clone().expect("checked")),
                            },
                        ));
                    }
                }
                if let (Some(mug), Some(dw)) = (
                    self.person(&host).mug.clone(),
                    r.device(Role::DishWashing),
                ) {
                    turns.push(turn(
                        robot,
                        Goal::Fetch {
                            object: mug,
                            to: Dest::In(dw.clone()),
                        },
                    ));
                }
            }
            "medication" => {
                let Some((owner, med)) = medication(s, &r, &humans) else {
                    return Ok(turns);
                };
                let name = self.person(&owner).name.clone();
                if interrupted {
                    turns.push(turn(
                        &owner,
                        say(
                            &[robot],
                            "I already took my medicine today, no need to bring it.".into(),
                        ),
                    ));
                    return Ok(turns);
                }
                turns.push(turn(
                    robot,
                    Goal::Fetch {
                        object: med.clone(),
                        to: Dest::Actor(owner.clone()),
                    },
                ));
                let text = pick(
                    &mut self.rng,
                    &[
                        "Here is your {m}, {n}.",
                        "{n}, time for your {m}.",
                        "Your {m}, {n}, as every morning.",
                    ],
                )
                .replace("{m}", &describe(s, &med))
                .replace("{n}", &name);
                turns.push(turn(robot, say(&[&owner], text)));
                turns.push(turn(
                    &owner,
                    say(
                        &[robot],
                        pick(
                            &mut self.rng,
                            &["Thank you.", "Thanks, robot.", "Oh right, thanks!"],
                        )
                        .to_string(),
                    ),
                ));
                // Put back wherever it lives, which changes from day to day.
                let home = match s.objects.iter().find(|o| o.id == med).map(|o| &o.at) {
                    Some(Placement::In(r)) if self.rng.random_bool(0.7) => Dest::In(r.clone()),
                    Some(Placement::On(r)) if self.rng.random_bool(0.7) => Dest::On(r.clone()),
                    _ => Dest::On(
                        surfaces(s)
                            .choose(&mut self.rng)
                            .expect("scenes have surfaces")
                            .clone(),
                    ),
                };
                turns.push(turn(
                    &owner,
                    Goal::Fetch {
                        object: med,
                        to: home,
                    },
                ));
            }
            "tidy" => {
                // Send the robot away first, so what follows happens out of its sight.
                if let Some(dock) = r.fixture(Role::RobotDock) {
                    turns.push(turn(
                        &host,
                        say(&[robot], "Robot, go and charge for a while.".into()),
                    ));
                    turns.push(turn(
                        robot,
                        Goal::GoTo {
                            target: dock.clone(),
                        },
                    ));
                }
                let candidates: Vec<&crate::scene::ObjectDef> = s
                    .objects
                    .iter()
                    .filter(|o| r.has(&o.id, Role::EverydayItem))
                    .collect();
                let containers = closed_containers(s);
                let tops = surfaces(s);
                let n = if interrupted {
                    1
                } else {
                    2 + self.rng.random_range(0..2)
                };
                let mut for_robot = vec![];
                for _ in 0..n {
                    let Some(o) = candidates.choose(&mut self.rng) else {
                        break;
                    };
                    let dest = if self.rng.random_bool(0.6) {
                        Dest::In(
                            containers
                                .choose(&mut self.rng)
                                .expect("scenes have containers")
                                .clone(),
                        )
                    } else {
                        Dest::On(
                            tops.choose(&mut self.rng)
                                .expect("scenes have surfaces")
                                .clone(),
                        )
                    };
                    turns.push(turn(
                        &host,
                        Goal::Fetch {
                            object: o.id.clone(),
                            to: dest.clone(),
                        },
                    ));
                    // A report of where it went: usually right, sometimes misremembered.
                    let (told, actual) = match &dest {
                        Dest::In(r) | Dest::On(r) => (r.clone(), r.clone()),
                        Dest::Actor(a) => (a.clone(), a.clone()),
                    };
                    let told = if self.rng.random_bool(0.25) {
                        containers
                            .iter()
                            .chain(tops.iter())
                            .filter(|c| **c != actual)
                            .collect::<Vec<_>>()
                            .choose(&mut self.rng)
                            .map(|c| (*c).clone())
                            .unwrap_or(told)
                    } else {
                        told
                    };
                    let rel = if matches!(dest, Dest::In(_)) && containers.contains(&told) {
                        Location::In(told.clone())
                    } else {
                        Location::On(told.clone())
                    };
                    let listener = humans.iter().find(|h| **h != host).cloned();
                    let text = pick(
                        &mut self.rng,
                        &[
                            "I put the {o} {r} the {c}.",
                            "If anyone needs the {o}, it's {r} the {c}.",
                            "The {o} is {r} the {c} now.",
                        ],
                    )
                    .replace("{o}", &describe(s, &o.id))
                    .replace(
                        "{r}",
                        if matches!(rel, Location::In(_)) {
                            "in"
                        } else {
                            "on"
                        },
                    )
                    .replace("{c}", &kind_of(s, &told));
                    let claim =
                        Claim::fact(o.id.clone(), Id::new("location"), Value::Location(rel));
                    // Told to whoever is about now, or kept for the robot.
                    match listener {
                        Some(l) if self.rng.random_bool(0.5) => turns.push(turn(
                            &host,
                            Goal::Say {
                                to: vec![l],
                                text,
                                claims: vec![claim],
                            },
                        )),
                        _ => for_robot.push((text, claim)),
                    }
                }
                // Then the robot is found and told the rest.
                if !for_robot.is_empty() {
                    turns.push(turn(
                        &host,
                        Goal::GoTo {
                            target: robot.clone(),
                        },
                    ));
                    let (texts, claims): (Vec<String>, Vec<Claim>) = for_robot.into_iter().unzip();
                    turns.push(turn(
                        &host,
                        say_claims(&[robot], format!("Robot, so you know: {}", texts.join(" ")), claims),
                    ));
                }
            }
            "find_request" => {
                let asker = host.clone();
                let owned: Vec<Id> = self
                    .person(&asker)
                    .owned
                    .values()
                    .flatten()
                    .filter(|o| !r.has(o, Role::Medicine) && !r.has(o, Role::Clothes))
                    .cloned()
                    .collect();
                let Some(obj) = owned.choose(&mut self.rng).cloned() else {
                    return Ok(turns);
                };
                if matches!(sim.location(&obj), Some(Location::HeldBy(_))) {
                    return Ok(turns);
                }
                let text = pick(
                    &mut self.rng,
                    &[
                        "Robot, could you bring me my {o}?",
                        "Robot, I need my {o}, please.",
                        "Can you fetch my {o} for me?",
                        "Robot, where did my {o} go? Bring it to me, please.",
                    ],
                )
                .replace("{o}", &describe(s, &obj));
                turns.push(turn(
                    &asker,
                    Goal::Say {
                        to: vec![robot.clone()],
                        text,
                        claims: vec![],
                    },
                ));
                turns.push(turn(
                    robot,
                    Goal::Fetch {
                        object: obj.clone(),
                        to: Dest::Actor(asker.clone()),
                    },
                ));
                turns.push(turn(
                    &asker,
                    say(
                        &[robot],
                        pick(&mut self.rng, &["Thanks!", "Perfect, thank you.", "Great."])
                            .to_string(),
                    ),
                ));
                let back = surfaces(s)
                    .into_iter()
                    .filter(|f| sim.room_of(f) == sim.room_of(&asker))
                    .collect::<Vec<_>>();
                if let Some(b) = back.choose(&mut self.rng) {
                    turns.push(turn(
                        &asker,
                        Goal::Fetch {
                            object: obj,
                            to: Dest::On(b.clone()),
                        },
                    ));
                }
            }
            "work" => {
                let worker = humans.last().expect("non-empty").clone();
                let p = self.person(&worker).clone();
                let desk = named_for(s, r.fixtures(Role::WorkDesk), &p.name)
                    .or_else(|| r.fixture(Role::WorkDesk))
                    .cloned();
                let Some(desk) = desk else { return Ok(turns) };
                for o in p.first_of_each(&r, Role::WorkGear) {
                    {
                        turns.push(turn(
                            &worker,
                            Goal::Fetch {
                                object: o.clone(),
                                to: Dest::On(desk.clone()),
                            },
                        ));
                    }
                }
                if let Some(lamp) = r.device(Role::TaskLight).or(r.device(Role::Light)) {
                    turns.push(turn(
                        &worker,
                        Goal::Operate {
                            device: lamp.clone(),
                            field: Id::new("power"),
                            value: Value::Bool(true),
                        },
                    ));
                }
                turns.push(turn(
                    &worker,
                    Goal::GoTo {
                        target: desk.clone(),
                    },
                ));
                turns.push(turn(
                    &worker,
                    Goal::Wait {
                        seconds: 30 * M + self.jitter(30),
                    },
                ));
                // Some days the work moves to the sofa, laptop and all.
                let laptop = p.first_of_each(&r, Role::WorkGear).first().cloned();
                let couch = r.fixture(Role::Seating).or(r.fixture(Role::DiningSurface)).cloned();
                if let (Some(laptop), Some(couch)) = (laptop, couch)
                    && self.rng.random_bool(0.4)
                {
                    let text = pick(
                        &mut self.rng,
                        &[
                            "I'll finish this on the {c}.",
                            "My back hurts, moving to the {c}.",
                        ],
                    )
                    .replace("{c}", &kind_of(s, &couch));
                    turns.push(turn(&worker, say(&[], text)));
                    turns.push(turn(
                        &worker,
                        Goal::Fetch {
                            object: laptop,
                            to: Dest::On(couch),
                        },
                    ));
                }
                // A commitment for later: today or tomorrow morning.
                let things: Vec<Id> = p
                    .owned
                    .values()
                    .flatten()
                    .filter(|o| r.has(o, Role::DeskExtra))
                    .cloned()
                    .collect();
                if let Some(thing) = things.choose(&mut self.rng).cloned() {
                    let tomorrow = self.rng.random_bool(0.5) && session.day < cx.days;
                    let due = if tomorrow {
                        u64::from(session.day) * DAY + 7 * H + 45 * M
                    } else {
                        session.start + 2 * H
                    };
                    let when = if tomorrow {
                        "tomorrow at a quarter to eight".to_string()
                    } else {
                        format!("at {}", &crate::trace::clock_time(due)[..5])
                    };
                    let text = format!(
                        "Robot, please bring my {} to my {} {when}.",
                        describe(s, &thing),
                        kind_of(s, &desk)
                    );
                    let goal = Goal::Fetch {
                        object: thing,
                        to: Dest::On(desk.clone()),
                    };
                    let claims = request_claim(&goal, due).into_iter().collect();
                    self.commitments.push(Commitment {
                        id: format!("c{}", self.commitments.len() + 1),
                        by: worker.clone(),
                        asked_in: session.id.clone(),
                        due,
                        goal,
                        status: CommitmentStatus::Open,
                    });
                    turns.push(turn(&worker, say_claims(&[robot], text, claims)));
                    turns.push(turn(
                        robot,
                        say(
                            &[&worker],
                            pick(
                                &mut self.rng,
                                &[
                                    "Okay, I will.",
                                    "Noted, I'll do it.",
                                    "Sure, I'll remember.",
                                ],
                            )
                            .to_string(),
                        ),
                    ));
                }
            }
            "laundry" => {
                let (Some(washer), Some(basket)) = (
                    r.device(Role::Laundry).cloned(),
                    r.fixture(Role::LaundryBasket).cloned(),
                ) else {
                    return Ok(turns);
                };
                let load: Vec<Id> = s
                    .objects
                    .iter()
                    .filter(|o| r.has(&o.id, Role::Clothes))
                    .filter(|o| sim.location(&o.id) == Some(Location::In(basket.clone())))
                    .map(|o| o.id.clone())
                    .take(4)
                    .collect();
                if interrupted || load.len() < 2 {
                    let text = pick(
                        &mut self.rng,
                        &[
                            "The basket is nearly empty, the laundry can wait.",
                            "Not enough for a load yet.",
                            "I'll do the washing another day.",
                        ],
                    );
                    turns.push(turn(&host, say(&[], text.to_string())));
                    return Ok(turns);
                }
                for o in &load {
                    turns.push(turn(
                        &host,
                        Goal::Fetch {
                            object: o.clone(),
                            to: Dest::In(washer.clone()),
                        },
                    ));
                }
                let p = self.person(&host).clone();
                let (programme, temperature) = p.laundry.clone();
                for (field, value) in [
                    ("program", Value::Text(programme.clone())),
                    ("temperature", Value::Int(temperature)),
                    ("power", Value::Bool(true)),
                ] {
                    if s.devices
                        .iter()
                        .any(|d| d.id == washer && d.fields.contains_key(field))
                    {
                        turns.push(turn(
                            &host,
                            Goal::Operate {
                                device: washer.clone(),
                                field: Id::new(field),
                                value,
                            },
                        ));
                    }
                }
                if established || self.rng.random_bool(0.3) {
                    self.stated.push(format!(
                        "{} washes on {programme} at {temperature} degrees",
                        p.name
                    ));
                    let text = pick(
                        &mut self.rng,
                        &[
                            "{p} at {t} degrees, that's how I always wash.",
                            "Always {p} at {t}, nothing hotter.",
                        ],
                    )
                    .replace("{p}", &programme)
                    .replace("{t}", &temperature.to_string());
                    let claims = vec![
                        preference(&host, &washer, "program", Value::Text(programme.clone())),
                        preference(&host, &washer, "temperature", Value::Int(temperature)),
                    ];
                    turns.push(turn(&host, say_claims(&[], text, claims)));
                }
                // The robot is asked to empty the machine once it is done:
                // switch it off, then each piece to where it lives.
                let due = session.start + 2 * H;
                if due / DAY == session.start / DAY {
                    let mut goals = vec![Goal::Operate {
                        device: washer.clone(),
                        field: Id::new("power"),
                        value: Value::Bool(false),
                    }];
                    goals.extend(load.iter().map(|o| Goal::Fetch {
                        object: o.clone(),
                        to: home_of_clothes(s, &r, o),
                    }));
                    let claims = goals.iter().filter_map(|g| request_claim(g, due)).collect();
                    for goal in goals {
                        self.commitments.push(Commitment {
                            id: format!("c{}", self.commitments.len() + 1),
                            by: host.clone(),
                            asked_in: session.id.clone(),
                            due,
                            goal,
                            status: CommitmentStatus::Open,
                        });
                    }
                    let text = format!(
                        "Robot, the wash is done at {}: please switch the machine off and put the clothes away.",
                        &crate::trace::clock_time(due)[..5]
                    );
                    turns.push(turn(&host, say_claims(&[robot], text, claims)));
                    let ack = pick(&mut self.rng, &["Okay, I will.", "Will do.", "Noted."]);
                    turns.push(turn(robot, say(&[&host], ack.to_string())));
                }
            }
            "commitment" => {
                let due: Vec<usize> = (0..self.commitments.len())
                    .filter(|&i| {
                        self.commitments[i].status == CommitmentStatus::Open
                            && self.commitments[i].due <= session.start + EARLY
                    })
                    .collect();
                for i in due {
                    let c = self.commitments[i].clone();
                    let sorry = say(
                        &[&c.by],
                        format!("Sorry, I couldn't {}.", goal_text(s, &c.goal, false)),
                    );
                    // Someone walked off with it: nothing to try.
                    let taken = matches!(&c.goal, Goal::Fetch { object, .. }
                        if matches!(sim.location(object), Some(Location::HeldBy(ref h)) if h != robot));
                    if taken {
                        turns.push(turn(robot, sorry));
                        self.commitments[i].status = CommitmentStatus::Failed;
                        continue;
                    }
                    // The status follows the errand's outcome (`turn_done`).
                    turns.push(turn(robot, c.goal.clone()));
                    let mut report = turn(
                        robot,
                        say(
                            &[&c.by],
                            format!("As you asked, {}.", goal_text(s, &c.goal, true)),
                        ),
                    );
                    report.otherwise = Some(sorry);
                    turns.push(report);
                }
            }
            "cooking" => {
                let Some(oven) = r.device(Role::Cooking).cloned() else {
                    return Ok(turns);
                };
                let cook = host.clone();
                let counter = r.fixture(Role::PrepSurface).cloned();
                if let (Some(fridge), Some(counter)) =
                    (r.fixture(Role::ColdStorage).cloned(), counter)
                {
                    let food: Vec<Id> = s
                        .objects
                        .iter()
                        .filter(|o| matches!(&o.at, Placement::In(f) if *f == fridge))
                        .map(|o| o.id.clone())
                        .collect();
                    for o in food.choose_multiple(&mut self.rng, 2) {
                        turns.push(turn(
                            &cook,
                            Goal::Fetch {
                                object: o.clone(),
                                to: Dest::On(counter.clone()),
                            },
                        ));
                    }
                }
                turns.push(turn(
                    &cook,
                    Goal::Operate {
                        device: oven.clone(),
                        field: Id::new("power"),
                        value: Value::Bool(true),
                    },
                ));
                let fields = s
                    .devices
                    .iter()
                    .find(|d| d.id == oven)
                    .map(|d| d.fields.clone())
                    .unwrap_or_default();
                if let Some(FieldDef::Int { min, max, .. }) = fields.get("temperature") {
                    let t = (self.rng.random_range(*min..=*max) / 10) * 10;
                    turns.push(turn(
                        &cook,
                        Goal::Operate {
                            device: oven.clone(),
                            field: Id::new("temperature"),
                            value: Value::Int(t.clamp(*min, *max)),
                        },
                    ));
                }
                if let Some(FieldDef::Timer { max, .. }) = fields.get("timer") {
                    let secs = (u64::from(*max).min(3600) / 600).max(1) * 600;
                    turns.push(turn(
                        &cook,
                        Goal::Operate {
                            device: oven.clone(),
                            field: Id::new("timer"),
                            value: Value::Int(secs as i64),
                        },
                    ));
                }
                turns.push(turn(&cook, Goal::Wait { seconds: 900 }));
                turns.push(turn(
                    &cook,
                    Goal::Operate {
                        device: oven,
                        field: Id::new("power"),
                        value: Value::Bool(false),
                    },
                ));
                if let Some(dw) = r.device(Role::DishWashing).cloned() {
                    let programs = match s
                        .devices
                        .iter()
                        .find(|d| d.id == dw)
                        .and_then(|d| d.fields.get("program"))
                    {
                        Some(FieldDef::Enum { options, .. }) => options.clone(),
                        _ => vec![],
                    };
                    if let Some(program) = programs.choose(&mut self.rng).cloned() {
                        let due = session.start + 2 * H + 30 * M;
                        let text =
                            format!("Robot, after dinner run the {} on {program}, please.", kind_of(s, &dw));
                        let goal = Goal::Operate {
                            device: dw.clone(),
                            field: Id::new("program"),
                            value: Value::Text(program),
                        };
                        let claims = request_claim(&goal, due).into_iter().collect();
                        self.commitments.push(Commitment {
                            id: format!("c{}", self.commitments.len() + 1),
                            by: cook.clone(),
                            asked_in: session.id.clone(),
                            due,
                            goal,
                            status: CommitmentStatus::Open,
                        });
                        turns.push(turn(&cook, say_claims(&[robot], text, claims)));
                    }
                }
            }
            "evening" => {
                if interrupted {
                    turns.push(turn(
                        &host,
                        say(
                            &[],
                            "Too tired for a film tonight, I'm going to read instead.".into(),
                        ),
                    ));
                    return Ok(turns);
                }
                let p = self.person(&host).clone();
                if let Some(tv) = r.device(Role::Entertainment).cloned() {
                    turns.push(turn(
                        &host,
                        Goal::Operate {
                            device: tv.clone(),
                            field: Id::new("power"),
                            value: Value::Bool(true),
                        },
                    ));
                    turns.push(turn(
                        &host,
                        Goal::Operate {
                            device: tv.clone(),
                            field: Id::new("volume"),
                            value: Value::Int(p.tv_volume),
                        },
                    ));
                    if established || self.rng.random_bool(0.3) {
                        self.stated
                            .push(format!("{} likes the tv volume at {}", p.name, p.tv_volume));
                        let claim = preference(&host, &tv, "volume", Value::Int(p.tv_volume));
                        turns.push(turn(
                            &host,
                            say_claims(
                                &[],
                                format!("Volume {} is just right for me.", p.tv_volume),
                                vec![claim],
                            ),
                        ));
                    }
                }
                if let Some(light) = r.device(Role::Light).cloned() {
                    turns.push(turn(
                        &host,
                        Goal::Operate {
                            device: light.clone(),
                            field: Id::new("brightness"),
                            value: Value::Int(p.brightness),
                        },
                    ));
                }
                if let (Some(b), Some(sofa)) = (
                    r.objects(Role::Comfort).first().cloned(),
                    r.fixture(Role::Seating).cloned(),
                ) {
                    turns.push(turn(
                        &host,
                        say(
                            &[robot],
                            format!(
                                "Robot, bring the {} to the {}, please.",
                                describe(s, &b),
                                kind_of(s, &sofa)
                            ),
                        ),
                    ));
                    turns.push(turn(
                        robot,
                        Goal::Fetch {
                            object: b,
                            to: Dest::On(sofa),
                        },
                    ));
                }
                if let Some(other) = humans.iter().find(|h| **h != host).cloned() {
                    let name = self.person(&other).name.clone();
                    let q = pick(
                        &mut self.rng,
                        &[
                            "How was your day, {n}?",
                            "Did you have a good day, {n}?",
                            "Anything happen today, {n}?",
                            "{n}, are you staying up for the film?",
                        ],
                    )
                    .replace("{n}", &name);
                    let a = pick(
                        &mut self.rng,
                        &[
                            "Busy, but fine.",
                            "Long meeting, I'm tired.",
                            "Good! I finished early.",
                            "Not bad. And you?",
                            "Only for a bit, I'm worn out.",
                        ],
                    );
                    turns.push(turn(&host, say(&[&other], q)));
                    turns.push(turn(&other, say(&[&host], a.to_string())));
                }
                // A snack or a drink brought to the sofa; it goes back at bedtime.
                let snacks: Vec<Id> = r
                    .objects(Role::Snack)
                    .iter()
                    .cloned()
                    .filter(|o| !matches!(sim.location(o), Some(Location::HeldBy(_))))
                    .collect();
                let table = r.fixture(Role::LoungeTable).or(r.fixture(Role::Seating)).cloned();
                if let (Some(snack), Some(table)) = (snacks.choose(&mut self.rng).cloned(), table) {
                    let asker = humans.choose(&mut self.rng).expect("non-empty").clone();
                    let text = pick(
                        &mut self.rng,
                        &[
                            "Robot, could you bring the {o} to the {t}?",
                            "Robot, the {o} please, on the {t}.",
                            "I'd love the {o}. Robot, can you put it on the {t}?",
                        ],
                    )
                    .replace("{o}", &describe(s, &snack))
                    .replace("{t}", &kind_of(s, &table));
                    turns.push(turn(&asker, say(&[robot], text)));
                    turns.push(turn(
                        robot,
                        Goal::Fetch {
                            object: snack,
                            to: Dest::On(table),
                        },
                    ));
                }
            }
            "remote_devices" => {
                // Someone else changes devices from wherever they are.
                let other = humans
                    .iter()
                    .rev()
                    .find(|h| **h != host)
                    .cloned()
                    .unwrap_or(host.clone());
                for (role, field, value) in [
                    (Role::Entertainment, "power", Value::Bool(false)),
                    (Role::Light, "power", Value::Bool(false)),
                    (Role::Audio, "power", Value::Bool(self.rng.random_bool(0.5))),
                ] {
                    if let Some(d) = r.device(role)
                        && s.devices.iter().any(|x| x.id == *d && x.remote)
                        && self.rng.random_bool(0.7)
                    {
                        let goal = Goal::Operate {
                            device: d.clone(),
                            field: Id::new(field),
                            value,
                        };
                        turns.push(turn(&other, goal));
                    }
                }
                if let Some(v) = r.device(Role::FloorCleaning) {
                    turns.push(turn(
                        &other,
                        Goal::Operate {
                            device: v.clone(),
                            field: Id::new("mode"),
                            value: Value::Text("cleaning".into()),
                        },
                    ));
                }
            }
            "bedtime" => {
                // Whatever came out of the fridge for the evening goes back.
                if let (Some(fridge), Some(table)) = (
                    r.fixture(Role::ColdStorage),
                    r.fixture(Role::LoungeTable).or(r.fixture(Role::Seating)),
                ) {
                    for o in s.objects.iter().filter(|o| {
                        matches!(&o.at, Placement::In(f) if f == fridge)
                            && sim.location(&o.id) == Some(Location::On(table.clone()))
                    }) {
                        turns.push(turn(
                            &host,
                            Goal::Fetch {
                                object: o.id.clone(),
                                to: Dest::In(fridge.clone()),
                            },
                        ));
                    }
                }
                let sink = r.fixture(Role::Washbasin).cloned();
                let basket = r.fixture(Role::LaundryBasket).cloned();
                for h in &humans {
                    if let Some(sink) = &sink {
                        turns.push(turn(
                            h,
                            Goal::GoTo {
                                target: sink.clone(),
                            },
                        ));
                        turns.push(turn(
                            h,
                            Goal::Wait {
                                seconds: 120 + self.jitter(4),
                            },
                        ));
                    }
                    // Worn clothes into the basket, most nights.
                    let worn: Vec<Id> = s
                        .objects
                        .iter()
                        .filter(|o| o.owner.as_ref() == Some(h))
                        .filter(|o| r.has(&o.id, Role::Clothes))
                        .filter(|o| {
                            !matches!(sim.location(&o.id), Some(Location::In(ref r))
                                if Some(r) == basket.as_ref()
                                    || s.devices.iter().any(|d| &d.id == r))
                        })
                        .map(|o| o.id.clone())
                        .collect();
                    if let (Some(basket), Some(w)) = (&basket, worn.choose(&mut self.rng))
                        && self.rng.random_bool(0.6)
                    {
                        turns.push(turn(
                            h,
                            Goal::Fetch {
                                object: w.clone(),
                                to: Dest::In(basket.clone()),
                            },
                        ));
                    }
                }
                for h in &humans {
                    let p = self.person(h).clone();
                    if let Some(g) = p.first_of_each(&r, Role::Eyewear).first() {
                        let stand = named_for(s, r.fixtures(Role::Bedside), &p.name).cloned();
                        if let Some(stand) = stand {
                            turns.push(turn(
                                h,
                                Goal::Fetch {
                                    object: g.clone(),
                                    to: Dest::On(stand),
                                },
                            ));
                        }
                    }
                }
                if let Some(th) = r.device(Role::Climate).cloned() {
                    let p = self.person(&host).clone();
                    turns.push(turn(
                        &host,
                        Goal::Operate {
                            device: th.clone(),
                            field: Id::new("target"),
                            value: Value::Float(p.night_target),
                        },
                    ));
                    if established || self.rng.random_bool(0.3) {
                        self.stated.push(format!(
                            "{} wants {} degrees at night",
                            p.name, p.night_target
                        ));
                        let claim = preference(&host, &th, "target", Value::Float(p.night_target));
                        turns.push(turn(
                            &host,
                            say_claims(
                                &[],
                                format!(
                                    "{} degrees at night, that's how I sleep best.",
                                    p.night_target
                                ),
                                vec![claim],
                            ),
                        ));
                    }
                }
                if let Some(v) = r.device(Role::FloorCleaning) {
                    turns.push(turn(
                        robot,
                        Goal::Operate {
                            device: v.clone(),
                            field: Id::new("mode"),
                            value: Value::Text("docked".into()),
                        },
                    ));
                }
                if let Some(dock) = r.fixture(Role::RobotDock) {
                    turns.push(turn(
                        robot,
                        Goal::GoTo {
                            target: dock.clone(),
                        },
                    ));
                }
                if let Some(light) = r.device(Role::Light) {
                    turns.push(turn(
                        &host,
                        Goal::Operate {
                            device: light.clone(),
                            field: Id::new("power"),
                            value: Value::Bool(false),
                        },
                    ));
                }
                for h in &humans {
                    let bed = s
                        .actors
                        .iter()
                        .find(|a| &a.id == h)
                        .and_then(|a| a.near.clone());
                    if let Some(bed) = bed {
                        turns.push(turn(h, Goal::GoTo { target: bed }));
                    }
                }
            }
            _ => {}
        }
        Ok(turns)
    }

    fn act(
        &mut self,
        cx: &Context,
        sim: &Simulation,
        turn: &Turn,
        progress: &TurnProgress,
    ) -> Result<Proposal, GenError> {
        let robot = turn.actor == cx.robot;
        let sloppy = self.rng.random_bool(if robot { 0.08 } else { 0.04 });
        Ok(errand::next(
            sim,
            &turn.actor,
            &turn.goal,
            progress,
            sloppy,
            robot,
        ))
    }

    fn follow_ups(
        &mut self,
        cx: &Context,
        after: &Session,
        _sim: &Simulation,
    ) -> Result<Vec<Session>, GenError> {
        let day_end = u64::from(after.day) * DAY;
        let mut due: Vec<u64> = self
            .commitments
            .iter()
            .filter(|c| c.status == CommitmentStatus::Open)
            .map(|c| c.due)
            .filter(|d| *d > after.start && *d < day_end && !self.scheduled.contains(d))
            .collect();
        due.sort_unstable();
        due.dedup();
        Ok(due
            .into_iter()
            .map(|at| {
                self.scheduled.insert(at);
                Session {
                    id: format!("d{}c{:02}", after.day, self.scheduled.len()),
                    day: after.day,
                    start: at,
                    kind: "commitment".into(),
                    project: None,
                    intent: intent_of("commitment").into(),
                    participants: vec![cx.robot.clone()],
                    params: BTreeMap::from([("asked_in".into(), after.id.clone())]),
                    turns: vec![],
                }
            })
            .collect())
    }

    fn turn_done(&mut self, session: &Session, turn: &Turn, result: &Result<(), String>) {
        if session.kind != "commitment" {
            return;
        }
        if let Some(c) = self.commitments.iter_mut().find(|c| {
            c.status == CommitmentStatus::Open
                && c.goal == turn.goal
                && c.due <= session.start + EARLY
        }) {
            c.status = if result.is_ok() {
                CommitmentStatus::Done
            } else {
                CommitmentStatus::Failed
            };
        }
    }

    fn notes(
        &mut self,
        _cx: &Context,
        day: u32,
        events: &[Event],
        sim: &Simulation,
    ) -> Result<DayNotes, GenError> {
        let mut preferences = self.stated.clone();
        preferences.sort();
        preferences.dedup();
        Ok(DayNotes {
            preferences,
            commitments: self.commitments.clone(),
            ..day_notes(day, events, sim)
        })
    }
}

fn intent_of(kind: &str) -> &'static str {
    match kind {
        "wake_up" => "everyone gets up and washes",
        "breakfast" => "breakfast: coffee, food from the fridge, the robot clears up",
        "lunch" => "lunch: coffee, food from the fridge, the robot clears up",
        "medication" => "the robot brings the morning medicine",
        "tidy" => "someone tidies things away while the robot charges, and says where",
        "find_request" => "someone asks the robot to bring them something of theirs",
        "work" => "work or homework at the desk; the robot is asked to bring something later",
        "commitment" => "the robot does what it was asked to do earlier",
        "cooking" => "cooking dinner with the oven; the dishwasher is asked for after dinner",
        "evening" => "an evening on the sofa with the tv, a chat and a snack",
        "remote_devices" => "devices are switched from another room",
        "bedtime" => {
            "snacks back to the fridge, washing up, worn clothes to the basket, glasses to the nightstand, the night temperature, lights off, everyone to bed"
        }
        "laundry" => "a load of washing; the robot is asked to empty the machine later",
        _ => "household life",
    }
}

/// A goal as a task ("put the white shirt in the wardrobe") or, `done`, as
/// reached ("the white shirt is in the wardrobe").
fn goal_text(s: &Scene, g: &Goal, done: bool) -> String {
    match g {
        Goal::Fetch {
            object,
            to: Dest::Actor(a),
        } => {
            let o = describe(s, object);
            if done {
                format!("{a} has the {o}")
            } else {
                format!("bring the {o} to {a}")
            }
        }
        Goal::Fetch { object, to } => {
            let (rel, r) = match to {
                Dest::On(r) => ("on", r),
                Dest::In(r) | Dest::Actor(r) => ("in", r),
            };
            let (o, k) = (describe(s, object), kind_of(s, r));
            if done {
                format!("the {o} is {rel} the {k}")
            } else {
                format!("put the {o} {rel} the {k}")
            }
        }
        Goal::Operate {
            device,
            field,
            value,
        } => {
            let d = kind_of(s, device);
            match (value, done) {
                (Value::Bool(on), _) if field.as_str() == "power" => {
                    let v = if *on { "on" } else { "off" };
                    if done {
                        format!("the {d} is {v}")
                    } else {
                        format!("switch the {d} {v}")
                    }
                }
                (v, true) => format!("the {d} {field} is {v}"),
                (v, false) => format!("set the {d} {field} to {v}"),
            }
        }
        _ if done => "it is done".into(),
        _ => "do it".into(),
    }
}
