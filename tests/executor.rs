//! Executor tests on the family apartment: every rejection code with its
//! message and hint, every skill's exact changes and timing, capacities,
//! and determinism of the event record.
//!
//! Every request goes through [`exec`], which also checks the world's
//! invariants after it.

use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};

use hearth::ids::Id;
use hearth::scene;
use hearth::sim::Simulation;
use hearth::sim::world::Beliefs;
use hearth::trace::request::Request;
use hearth::trace::{
    Change, Event, EventKind, Fact, Location, Position, Rejection, RejectionCode, Value,
};

const ACTORS: [&str; 9] = [
    "alice",
    "bob",
    "courier",
    "grandpa",
    "guest_1",
    "guest_2",
    "lily",
    "robot",
    "technician",
];

// ---------------------------------------------------------------- helpers

fn new_sim() -> Simulation {
    let (id, src) = scene::BUILTIN[0];
    assert_eq!(id, "family_apartment", "BUILTIN[0] is the family apartment");
    let mut sim = Simulation::new(scene::parse(id, src).expect("the scene parses"))
        .expect("the scene spawns");
    if let Err(errors) = sim.check_invariants() {
        panic!(
            "invariants broken before any request:\n{}",
            errors.join("\n")
        );
    }
    sim
}

fn req(json: &str) -> Request {
    Request::from_json(json).unwrap_or_else(|e| panic!("bad test request {json}: {e}"))
}

/// Executes one request and checks the world's invariants afterwards.
fn exec(sim: &mut Simulation, json: &str) -> Event {
    let event = sim.execute(req(json));
    if let Err(errors) = sim.check_invariants() {
        panic!(
            "invariants broken after {json} (event {event:?}):\n{}",
            errors.join("\n")
        );
    }
    event
}

/// Executes a request that must be accepted.
fn ok(sim: &mut Simulation, json: &str) -> Event {
    let event = exec(sim, json);
    assert!(
        event.outcome.is_ok(),
        "{json} was rejected: {:?}",
        event.outcome
    );
    assert!(event.dur > 0, "{json} took no time");
    event
}

/// Executes a request that must be rejected with `code`, changing nothing.
fn rejected(sim: &mut Simulation, json: &str, code: RejectionCode) -> Rejection {
    let before = Snapshot::of(sim);
    let event = exec(sim, json);
    let r = event
        .outcome
        .rejection()
        .unwrap_or_else(|| panic!("{json} was accepted, expected {code}"))
        .clone();
    assert_eq!(r.code, code, "{json}: wrong code ({r:?})");
    assert!(!r.message.trim().is_empty(), "{json}: empty message");
    assert!(!r.hint.trim().is_empty(), "{json}: empty hint");
    assert_ne!(r.message, r.hint, "{json}: the hint repeats the message");
    assert!(event.changes.is_empty(), "{json}: rejected with changes");
    assert!(event.reveals.is_empty(), "{json}: rejected with reveals");
    assert!(
        event.revealed_to.is_empty(),
        "{json}: rejected with reveals"
    );
    assert!(event.via.is_empty(), "{json}: rejected with a route");
    assert_eq!(event.dur, 0, "{json}: a rejection takes no time");
    assert_eq!(
        Snapshot::of(sim),
        before,
        "{json}: a rejection changed the world"
    );
    r
}

/// Everything a request could change: the true state, every actor's
/// beliefs and when each actor is free.
#[derive(Debug, PartialEq)]
struct Snapshot {
    state: hearth::trace::State,
    beliefs: Vec<Beliefs>,
    busy: Vec<Option<u64>>,
}

impl Snapshot {
    fn of(sim: &Simulation) -> Self {
        Snapshot {
            state: sim.state(),
            beliefs: ACTORS
                .iter()
                .map(|a| sim.beliefs(a).expect("an actor").clone())
                .collect(),
            busy: ACTORS.iter().map(|a| sim.busy_until(a)).collect(),
        }
    }
}

fn id(s: &str) -> Id {
    Id::new(s)
}

fn ids(list: &[&str]) -> Vec<Id> {
    list.iter().map(|s| id(s)).collect()
}

fn pos(room: &str, near: Option<&str>) -> Value {
    Value::Position(Position {
        room: id(room),
        near: near.map(id),
    })
}

fn on(r: &str) -> Value {
    Value::Location(Location::On(id(r)))
}

fn inside(r: &str) -> Value {
    Value::Location(Location::In(id(r)))
}

fn held(a: &str) -> Value {
    Value::Location(Location::HeldBy(id(a)))
}

fn change(entity: &str, attr: &str, old: Value, new: Value) -> Change {
    Change {
        entity: id(entity),
        attr: id(attr),
        old,
        new,
    }
}

fn fact(entity: &str, attr: &str, value: Value) -> Fact {
    Fact {
        entity: id(entity),
        attr: id(attr),
        value,
    }
}

fn get(sim: &Simulation, entity: &str, attr: &str) -> Option<Value> {
    sim.state().get(&(id(entity), id(attr))).cloned()
}

/// The state with nothing but the changes of `event` applied must be the
/// state after it.
fn assert_changes_match(before: &hearth::trace::State, sim: &Simulation, event: &Event) {
    let mut expected = before.clone();
    for c in &event.changes {
        let key = (c.entity.clone(), c.attr.clone());
        assert_eq!(before.get(&key), Some(&c.old), "old value of {c:?}");
        expected.insert(key, c.new.clone());
    }
    assert_eq!(
        sim.state(),
        expected,
        "event {event:?} changed more than it says"
    );
    // One key's value, as the checks and plans ask it, is the state's.
    for (key, value) in expected.iter() {
        assert_eq!(sim.value(key).as_ref(), Some(value), "{key:?}");
    }
    assert_eq!(sim.value(&(id("no_such_thing"), id("location"))), None);
    assert_eq!(sim.value(&(id("tv_1"), id("no_such_field"))), None);
}

// --------------------------------------------------------- rejection table

/// One rejection: requests that set the situation up (each must be
/// accepted), the bad request, what its message and hint must say, and
/// optionally requests that fix the situation, after which the very same
/// bad request must be accepted.
struct Case {
    code: RejectionCode,
    setup: &'static [&'static str],
    bad: &'static str,
    message: &'static [&'static str],
    hint: &'static [&'static str],
    fix: Option<&'static [&'static str]>,
}

const CASES: &[Case] = &[
    // --- who and when
    Case {
        code: RejectionCode::UnknownActor,
        setup: &[],
        bad: r#"{"actor":"robott","skill":"wait","args":{"seconds":5}}"#,
        message: &["robott"],
        hint: &["actors are: ", "robot"],
        fix: None,
    },
    Case {
        code: RejectionCode::UnknownActor,
        setup: &[],
        bad: r#"{"actor":"mug_1","skill":"wait","args":{"seconds":5}}"#,
        message: &["mug_1"],
        hint: &["actors are: "],
        fix: None,
    },
    Case {
        code: RejectionCode::TimeInPast,
        setup: &[r#"{"actor":"alice","skill":"wait","args":{"seconds":10},"at":100}"#],
        bad: r#"{"actor":"robot","skill":"wait","args":{"seconds":5},"at":50}"#,
        message: &["50", "100"],
        hint: &["100 or later"],
        fix: None,
    },
    Case {
        code: RejectionCode::ActorBusy,
        setup: &[r#"{"actor":"robot","skill":"wait","args":{"seconds":100}}"#],
        bad: r#"{"actor":"robot","skill":"wait","args":{"seconds":5},"at":50}"#,
        message: &["robot", "100"],
        hint: &["100 or later"],
        fix: None,
    },
    // --- ids
    Case {
        code: RejectionCode::UnknownEntity,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"pick","args":{"object":"mug_9"}}"#,
        message: &["mug_9"],
        hint: &["mug_1", "mug_2"],
        fix: None,
    },
    Case {
        code: RejectionCode::UnknownEntity,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"navigate_to","args":{"target":"kitchn"}}"#,
        message: &["kitchn"],
        hint: &["kitchen"],
        fix: None,
    },
    Case {
        code: RejectionCode::UnknownEntity,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"set_device_state","args":{"device":"tv_2","field":"power","value":true}}"#,
        message: &["tv_2"],
        hint: &["tv_1"],
        fix: None,
    },
    Case {
        code: RejectionCode::UnknownEntity,
        setup: &[
            r#"{"actor":"robot","skill":"navigate_to","args":{"target":"counter_1"}}"#,
            r#"{"actor":"robot","skill":"pick","args":{"object":"cup_2"}}"#,
        ],
        bad: r#"{"actor":"robot","skill":"handoff","args":{"object":"cup_2","to":"alicia"}}"#,
        message: &["alicia"],
        hint: &["alice"],
        fix: None,
    },
    Case {
        code: RejectionCode::UnknownEntity,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"say","args":{"text":"hello","to":["bobby"]}}"#,
        message: &["bobby"],
        hint: &["bob"],
        fix: None,
    },
    // --- navigate_to and inspect
    Case {
        code: RejectionCode::BadTarget,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"navigate_to","args":{"target":"robot"}}"#,
        message: &["robot"],
        hint: &["another actor"],
        fix: None,
    },
    // door_lily is closed and the only way into Lily's room.
    Case {
        code: RejectionCode::DoorClosed,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"navigate_to","args":{"target":"lily_room"}}"#,
        message: &["door_lily", "closed", "lily_room"],
        hint: &["open door_lily first"],
        fix: Some(&[r#"{"actor":"robot","skill":"open","args":{"target":"door_lily"}}"#]),
    },
    Case {
        code: RejectionCode::DoorClosed,
        setup: &[r#"{"actor":"robot","skill":"navigate_to","args":{"target":"kitchen"}}"#],
        bad: r#"{"actor":"robot","skill":"navigate_to","args":{"target":"desk_lily"}}"#,
        message: &["door_lily"],
        hint: &["navigate_to hallway, open door_lily, then navigate_to desk_lily"],
        fix: Some(&[
            r#"{"actor":"robot","skill":"navigate_to","args":{"target":"hallway"}}"#,
            r#"{"actor":"robot","skill":"open","args":{"target":"door_lily"}}"#,
        ]),
    },
    Case {
        code: RejectionCode::BadTarget,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"navigate_to","args":{"target":"door_lily"}}"#,
        message: &["door_lily"],
        hint: &["room"],
        fix: None,
    },
    // A room is looked around from inside it.
    Case {
        code: RejectionCode::NotColocated,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"inspect","args":{"target":"kitchen"}}"#,
        message: &["kitchen"],
        hint: &["navigate_to kitchen first"],
        fix: Some(&[r#"{"actor":"robot","skill":"navigate_to","args":{"target":"kitchen"}}"#]),
    },
    Case {
        code: RejectionCode::BadTarget,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"inspect","args":{"target":"door_lily"}}"#,
        message: &["door_lily"],
        hint: &["inspect furniture", "the room you are in"],
        fix: None,
    },
    Case {
        code: RejectionCode::BadTarget,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"inspect","args":{"target":"robot"}}"#,
        message: &["robot"],
        hint: &["another actor"],
        fix: None,
    },
    Case {
        code: RejectionCode::AlreadyThere,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"navigate_to","args":{"target":"charging_dock_1"}}"#,
        message: &["charging_dock_1"],
        hint: &["charging_dock_1"],
        fix: Some(&[r#"{"actor":"robot","skill":"navigate_to","args":{"target":"hallway"}}"#]),
    },
    Case {
        code: RejectionCode::NotColocated,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"pick","args":{"object":"mug_3"}}"#,
        message: &["robot", "mug_3"],
        hint: &["navigate_to desk_lily first"],
        fix: Some(&[
            r#"{"actor":"robot","skill":"open","args":{"target":"door_lily"}}"#,
            r#"{"actor":"robot","skill":"navigate_to","args":{"target":"desk_lily"}}"#,
        ]),
    },
    Case {
        code: RejectionCode::NotColocated,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"inspect","args":{"target":"tv_1"}}"#,
        message: &["tv_1"],
        hint: &["navigate_to tv_1 first"],
        fix: Some(&[r#"{"actor":"robot","skill":"navigate_to","args":{"target":"living_room"}}"#]),
    },
    Case {
        code: RejectionCode::NotColocated,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"close","args":{"target":"door_kitchen_laundry"}}"#,
        message: &["door_kitchen_laundry"],
        hint: &["navigate_to kitchen first"],
        fix: Some(&[r#"{"actor":"robot","skill":"navigate_to","args":{"target":"kitchen"}}"#]),
    },
    Case {
        code: RejectionCode::NotColocated,
        setup: &[r#"{"actor":"robot","skill":"navigate_to","args":{"target":"counter_1"}}"#],
        bad: r#"{"actor":"robot","skill":"open","args":{"target":"cabinet_1"}}"#,
        message: &["cabinet_1"],
        hint: &["navigate_to cabinet_1 first"],
        fix: Some(&[r#"{"actor":"robot","skill":"navigate_to","args":{"target":"cabinet_1"}}"#]),
    },
    Case {
        code: RejectionCode::NotColocated,
        setup: &[
            r#"{"actor":"robot","skill":"navigate_to","args":{"target":"counter_1"}}"#,
            r#"{"actor":"robot","skill":"pick","args":{"object":"cup_2"}}"#,
        ],
        bad: r#"{"actor":"robot","skill":"place","args":{"object":"cup_2","target":"dining_table_1","relation":"on"}}"#,
        message: &["dining_table_1"],
        hint: &["navigate_to dining_table_1 first"],
        fix: Some(&[
            r#"{"actor":"robot","skill":"navigate_to","args":{"target":"dining_table_1"}}"#,
        ]),
    },
    Case {
        code: RejectionCode::NotColocated,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"set_device_state","args":{"device":"desk_lamp_1","field":"power","value":true}}"#,
        message: &["desk_lamp_1"],
        hint: &["navigate_to desk_lamp_1 first"],
        fix: Some(&[r#"{"actor":"robot","skill":"navigate_to","args":{"target":"desk_lamp_1"}}"#]),
    },
    Case {
        code: RejectionCode::NotVisible,
        setup: &[r#"{"actor":"robot","skill":"navigate_to","args":{"target":"kitchen"}}"#],
        bad: r#"{"actor":"robot","skill":"inspect","args":{"target":"mug_1"}}"#,
        message: &["mug_1", "cabinet_1"],
        hint: &["open cabinet_1 first"],
        fix: Some(&[
            r#"{"actor":"robot","skill":"navigate_to","args":{"target":"cabinet_1"}}"#,
            r#"{"actor":"robot","skill":"open","args":{"target":"cabinet_1"}}"#,
        ]),
    },
    // --- pick
    Case {
        code: RejectionCode::NotPickable,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"pick","args":{"object":"charging_dock_1"}}"#,
        message: &["charging_dock_1"],
        hint: &["pick up objects"],
        fix: None,
    },
    Case {
        code: RejectionCode::NotPickable,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"pick","args":{"object":"alice"}}"#,
        message: &["alice"],
        hint: &["pick up objects"],
        fix: None,
    },
    Case {
        code: RejectionCode::AlreadyHolding,
        setup: &[
            r#"{"actor":"robot","skill":"navigate_to","args":{"target":"counter_1"}}"#,
            r#"{"actor":"robot","skill":"pick","args":{"object":"cup_2"}}"#,
        ],
        bad: r#"{"actor":"robot","skill":"pick","args":{"object":"cup_2"}}"#,
        message: &["robot", "cup_2"],
        hint: &["place it"],
        fix: Some(&[
            r#"{"actor":"robot","skill":"place","args":{"object":"cup_2","target":"counter_1","relation":"on"}}"#,
        ]),
    },
    Case {
        code: RejectionCode::HeldByOther,
        setup: &[
            r#"{"actor":"alice","skill":"navigate_to","args":{"target":"nightstand_alice"}}"#,
            r#"{"actor":"alice","skill":"pick","args":{"object":"glasses_1"}}"#,
        ],
        bad: r#"{"actor":"robot","skill":"pick","args":{"object":"glasses_1"}}"#,
        message: &["alice", "glasses_1"],
        hint: &["ask alice to hand it over"],
        fix: Some(&[
            r#"{"actor":"alice","skill":"place","args":{"object":"glasses_1","target":"nightstand_alice","relation":"on"}}"#,
            r#"{"actor":"robot","skill":"navigate_to","args":{"target":"nightstand_alice"}}"#,
        ]),
    },
    Case {
        code: RejectionCode::InsideClosedContainer,
        setup: &[r#"{"actor":"robot","skill":"navigate_to","args":{"target":"cabinet_1"}}"#],
        bad: r#"{"actor":"robot","skill":"pick","args":{"object":"mug_1"}}"#,
        message: &["mug_1", "cabinet_1", "closed"],
        hint: &["open cabinet_1 first"],
        fix: Some(&[r#"{"actor":"robot","skill":"open","args":{"target":"cabinet_1"}}"#]),
    },
    Case {
        code: RejectionCode::HandsFull,
        setup: &[
            r#"{"actor":"robot","skill":"navigate_to","args":{"target":"counter_1"}}"#,
            r#"{"actor":"robot","skill":"pick","args":{"object":"cup_2"}}"#,
        ],
        bad: r#"{"actor":"robot","skill":"pick","args":{"object":"bowl_2"}}"#,
        message: &["robot", "cup_2"],
        hint: &["place cup_2 somewhere first"],
        fix: Some(&[
            r#"{"actor":"robot","skill":"place","args":{"object":"cup_2","target":"counter_1","relation":"on"}}"#,
        ]),
    },
    // --- place
    Case {
        code: RejectionCode::NotHolding,
        setup: &[r#"{"actor":"robot","skill":"navigate_to","args":{"target":"counter_1"}}"#],
        bad: r#"{"actor":"robot","skill":"place","args":{"object":"cup_2","target":"counter_1","relation":"on"}}"#,
        message: &["cup_2", "it is on counter_1"],
        hint: &["pick cup_2 first"],
        fix: Some(&[r#"{"actor":"robot","skill":"pick","args":{"object":"cup_2"}}"#]),
    },
    Case {
        code: RejectionCode::NotHolding,
        setup: &[r#"{"actor":"robot","skill":"navigate_to","args":{"target":"nightstand_alice"}}"#],
        bad: r#"{"actor":"robot","skill":"handoff","args":{"object":"glasses_1","to":"alice"}}"#,
        message: &["glasses_1"],
        hint: &["pick glasses_1 first"],
        fix: Some(&[r#"{"actor":"robot","skill":"pick","args":{"object":"glasses_1"}}"#]),
    },
    Case {
        code: RejectionCode::NotAReceptacle,
        setup: &[
            r#"{"actor":"robot","skill":"navigate_to","args":{"target":"counter_1"}}"#,
            r#"{"actor":"robot","skill":"pick","args":{"object":"cup_2"}}"#,
        ],
        bad: r#"{"actor":"robot","skill":"place","args":{"object":"cup_2","target":"coffee_machine_1","relation":"on"}}"#,
        message: &["coffee_machine_1"],
        hint: &["place it on or in furniture; in this room: "],
        fix: None,
    },
    Case {
        code: RejectionCode::NotAReceptacle,
        setup: &[
            r#"{"actor":"robot","skill":"navigate_to","args":{"target":"counter_1"}}"#,
            r#"{"actor":"robot","skill":"pick","args":{"object":"cup_2"}}"#,
        ],
        bad: r#"{"actor":"robot","skill":"place","args":{"object":"cup_2","target":"alice","relation":"on"}}"#,
        message: &["alice"],
        hint: &["in this room: "],
        fix: None,
    },
    Case {
        code: RejectionCode::NoSuchSurface,
        setup: &[
            r#"{"actor":"robot","skill":"navigate_to","args":{"target":"counter_1"}}"#,
            r#"{"actor":"robot","skill":"pick","args":{"object":"cup_2"}}"#,
        ],
        bad: r#"{"actor":"robot","skill":"place","args":{"object":"cup_2","target":"counter_1","relation":"in"}}"#,
        message: &["in counter_1"],
        hint: &[r#"use relation "on""#],
        fix: None,
    },
    Case {
        code: RejectionCode::NoSuchSurface,
        setup: &[
            r#"{"actor":"robot","skill":"navigate_to","args":{"target":"counter_1"}}"#,
            r#"{"actor":"robot","skill":"pick","args":{"object":"cup_2"}}"#,
        ],
        bad: r#"{"actor":"robot","skill":"place","args":{"object":"cup_2","target":"cabinet_1","relation":"on"}}"#,
        message: &["on cabinet_1"],
        hint: &[r#"use relation "in""#],
        fix: None,
    },
    Case {
        code: RejectionCode::ContainerClosed,
        setup: &[
            r#"{"actor":"robot","skill":"navigate_to","args":{"target":"counter_1"}}"#,
            r#"{"actor":"robot","skill":"pick","args":{"object":"cup_2"}}"#,
            r#"{"actor":"robot","skill":"navigate_to","args":{"target":"cabinet_1"}}"#,
        ],
        bad: r#"{"actor":"robot","skill":"place","args":{"object":"cup_2","target":"cabinet_1","relation":"in"}}"#,
        message: &["cabinet_1", "closed"],
        hint: &["open cabinet_1 first"],
        fix: Some(&[r#"{"actor":"robot","skill":"open","args":{"target":"cabinet_1"}}"#]),
    },
    Case {
        // microwave_1 holds one thing: cup_2 is in it, bowl_2 does not fit.
        code: RejectionCode::CapacityFull,
        setup: &[
            r#"{"actor":"robot","skill":"navigate_to","args":{"target":"counter_1"}}"#,
            r#"{"actor":"robot","skill":"pick","args":{"object":"cup_2"}}"#,
            r#"{"actor":"robot","skill":"navigate_to","args":{"target":"microwave_1"}}"#,
            r#"{"actor":"robot","skill":"open","args":{"target":"microwave_1"}}"#,
            r#"{"actor":"robot","skill":"place","args":{"object":"cup_2","target":"microwave_1","relation":"in"}}"#,
            r#"{"actor":"robot","skill":"navigate_to","args":{"target":"counter_1"}}"#,
            r#"{"actor":"robot","skill":"pick","args":{"object":"bowl_2"}}"#,
            r#"{"actor":"robot","skill":"navigate_to","args":{"target":"microwave_1"}}"#,
        ],
        bad: r#"{"actor":"robot","skill":"place","args":{"object":"bowl_2","target":"microwave_1","relation":"in"}}"#,
        message: &["microwave_1", "1 of 1"],
        hint: &["take something out"],
        fix: Some(&[
            r#"{"actor":"alice","skill":"navigate_to","args":{"target":"microwave_1"}}"#,
            r#"{"actor":"alice","skill":"pick","args":{"object":"cup_2"}}"#,
        ]),
    },
    Case {
        // The top of nightstand_alice holds three things; it starts with two.
        code: RejectionCode::CapacityFull,
        setup: &[
            r#"{"actor":"alice","skill":"navigate_to","args":{"target":"nightstand_bob"}}"#,
            r#"{"actor":"alice","skill":"pick","args":{"object":"book_2"}}"#,
            r#"{"actor":"alice","skill":"navigate_to","args":{"target":"nightstand_alice"}}"#,
            r#"{"actor":"alice","skill":"place","args":{"object":"book_2","target":"nightstand_alice","relation":"on"}}"#,
            r#"{"actor":"alice","skill":"navigate_to","args":{"target":"dresser_1"}}"#,
            r#"{"actor":"alice","skill":"pick","args":{"object":"wallet_1"}}"#,
            r#"{"actor":"alice","skill":"navigate_to","args":{"target":"nightstand_alice"}}"#,
        ],
        bad: r#"{"actor":"alice","skill":"place","args":{"object":"wallet_1","target":"nightstand_alice","relation":"on"}}"#,
        message: &["nightstand_alice", "3 of 3"],
        hint: &["somewhere else"],
        fix: Some(&[r#"{"actor":"alice","skill":"pick","args":{"object":"glasses_1"}}"#]),
    },
    // --- open and close
    Case {
        code: RejectionCode::NotOpenable,
        setup: &[r#"{"actor":"robot","skill":"navigate_to","args":{"target":"counter_1"}}"#],
        bad: r#"{"actor":"robot","skill":"open","args":{"target":"counter_1"}}"#,
        message: &["counter_1"],
        hint: &["openable things in this room: "],
        fix: None,
    },
    Case {
        code: RejectionCode::NotOpenable,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"close","args":{"target":"arch_kitchen_hallway"}}"#,
        message: &["arch_kitchen_hallway"],
        hint: &["openable things in this room: "],
        fix: None,
    },
    Case {
        code: RejectionCode::AlreadyOpen,
        setup: &[],
        bad: r#"{"actor":"alice","skill":"open","args":{"target":"door_master"}}"#,
        message: &["door_master", "already open"],
        hint: &["no need"],
        fix: Some(&[r#"{"actor":"alice","skill":"close","args":{"target":"door_master"}}"#]),
    },
    Case {
        code: RejectionCode::AlreadyOpen,
        setup: &[
            r#"{"actor":"robot","skill":"navigate_to","args":{"target":"cabinet_1"}}"#,
            r#"{"actor":"robot","skill":"open","args":{"target":"cabinet_1"}}"#,
        ],
        bad: r#"{"actor":"robot","skill":"open","args":{"target":"cabinet_1"}}"#,
        message: &["cabinet_1", "already open"],
        hint: &["no need"],
        fix: Some(&[r#"{"actor":"robot","skill":"close","args":{"target":"cabinet_1"}}"#]),
    },
    Case {
        code: RejectionCode::AlreadyClosed,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"close","args":{"target":"door_lily"}}"#,
        message: &["door_lily", "already closed"],
        hint: &["no need"],
        fix: Some(&[r#"{"actor":"robot","skill":"open","args":{"target":"door_lily"}}"#]),
    },
    // --- set_device_state
    Case {
        code: RejectionCode::NotADevice,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"set_device_state","args":{"device":"fridge_1","field":"power","value":true}}"#,
        message: &["fridge_1"],
        hint: &["devices: "],
        fix: None,
    },
    Case {
        code: RejectionCode::UnknownField,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"set_device_state","args":{"device":"tv_1","field":"colour","value":"red"}}"#,
        message: &["tv_1", "colour"],
        hint: &["fields of tv_1: input, power, volume"],
        fix: None,
    },
    Case {
        code: RejectionCode::ValueOutOfSchema,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"set_device_state","args":{"device":"tv_1","field":"volume","value":"loud"}}"#,
        message: &["tv_1.volume", "loud"],
        hint: &["volume takes an integer in 0..=100"],
        fix: None,
    },
    Case {
        code: RejectionCode::ValueOutOfSchema,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"set_device_state","args":{"device":"tv_1","field":"volume","value":101}}"#,
        message: &["101"],
        hint: &["0..=100"],
        fix: None,
    },
    Case {
        code: RejectionCode::ValueOutOfSchema,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"set_device_state","args":{"device":"tv_1","field":"power","value":1}}"#,
        message: &["tv_1.power"],
        hint: &["true or false"],
        fix: None,
    },
    Case {
        code: RejectionCode::ValueOutOfSchema,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"set_device_state","args":{"device":"tv_1","field":"input","value":"cable"}}"#,
        message: &["cable"],
        hint: &["one of tv, hdmi1, hdmi2, streaming"],
        fix: None,
    },
    Case {
        code: RejectionCode::ValueOutOfSchema,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"set_device_state","args":{"device":"thermostat_1","field":"target","value":28.5}}"#,
        message: &["28.5"],
        hint: &["a number in 16..=28"],
        fix: None,
    },
    Case {
        code: RejectionCode::ValueOutOfSchema,
        setup: &[r#"{"actor":"robot","skill":"navigate_to","args":{"target":"microwave_1"}}"#],
        bad: r#"{"actor":"robot","skill":"set_device_state","args":{"device":"microwave_1","field":"timer","value":-5}}"#,
        message: &["-5"],
        hint: &["seconds in 0..=3600"],
        fix: None,
    },
    Case {
        code: RejectionCode::ValueOutOfSchema,
        setup: &[r#"{"actor":"robot","skill":"navigate_to","args":{"target":"microwave_1"}}"#],
        bad: r#"{"actor":"robot","skill":"set_device_state","args":{"device":"microwave_1","field":"timer","value":3601}}"#,
        message: &["3601"],
        hint: &["seconds in 0..=3600"],
        fix: None,
    },
    Case {
        code: RejectionCode::NoChange,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"set_device_state","args":{"device":"tv_1","field":"power","value":false}}"#,
        message: &["tv_1.power", "false"],
        hint: &["nothing to do"],
        fix: Some(&[
            r#"{"actor":"robot","skill":"set_device_state","args":{"device":"tv_1","field":"power","value":true}}"#,
        ]),
    },
    // --- a device's health: found broken, refused, repaired
    Case {
        code: RejectionCode::NotSettable,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"set_device_state","args":{"device":"tv_1","field":"broken","value":true}}"#,
        message: &["tv_1.broken", "not set by hand"],
        hint: &["find_broken", "repair"],
        fix: None,
    },
    Case {
        code: RejectionCode::DeviceBroken,
        setup: &[
            r#"{"actor":"robot","skill":"navigate_to","args":{"target":"tv_1"}}"#,
            r#"{"actor":"robot","skill":"find_broken","args":{"device":"tv_1"}}"#,
        ],
        bad: r#"{"actor":"robot","skill":"set_device_state","args":{"device":"tv_1","field":"power","value":true}}"#,
        message: &["tv_1", "broken"],
        hint: &["repair tv_1"],
        fix: Some(&[r#"{"actor":"robot","skill":"repair","args":{"device":"tv_1"}}"#]),
    },
    Case {
        code: RejectionCode::NoChange,
        setup: &[r#"{"actor":"robot","skill":"navigate_to","args":{"target":"tv_1"}}"#],
        bad: r#"{"actor":"robot","skill":"repair","args":{"device":"tv_1"}}"#,
        message: &["tv_1", "not broken"],
        hint: &["nothing to do"],
        fix: Some(&[r#"{"actor":"robot","skill":"find_broken","args":{"device":"tv_1"}}"#]),
    },
    Case {
        code: RejectionCode::NotColocated,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"find_broken","args":{"device":"tv_1"}}"#,
        message: &["tv_1"],
        hint: &["tv_1"],
        fix: Some(&[r#"{"actor":"robot","skill":"navigate_to","args":{"target":"tv_1"}}"#]),
    },
    Case {
        // 21 as an integer is the float field's current 21.0.
        code: RejectionCode::NoChange,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"set_device_state","args":{"device":"thermostat_1","field":"target","value":21}}"#,
        message: &["thermostat_1.target"],
        hint: &["nothing to do"],
        fix: Some(&[
            r#"{"actor":"robot","skill":"set_device_state","args":{"device":"thermostat_1","field":"target","value":23.5}}"#,
        ]),
    },
    // --- use
    Case {
        code: RejectionCode::NotConsumable,
        setup: &[r#"{"actor":"robot","skill":"navigate_to","args":{"target":"counter_1"}}"#],
        bad: r#"{"actor":"robot","skill":"use","args":{"object":"cup_2"}}"#,
        message: &["cup_2", "not used up"],
        hint: &["pick and place"],
        fix: None,
    },
    Case {
        code: RejectionCode::InsideClosedContainer,
        setup: &[r#"{"actor":"robot","skill":"navigate_to","args":{"target":"fridge_1"}}"#],
        bad: r#"{"actor":"robot","skill":"use","args":{"object":"milk_1"}}"#,
        message: &["milk_1", "fridge_1", "closed"],
        hint: &["open fridge_1"],
        fix: Some(&[r#"{"actor":"robot","skill":"open","args":{"target":"fridge_1"}}"#]),
    },
    Case {
        code: RejectionCode::NotColocated,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"use","args":{"object":"milk_1"}}"#,
        message: &["milk_1"],
        hint: &["fridge_1"],
        fix: Some(&[
            r#"{"actor":"robot","skill":"navigate_to","args":{"target":"fridge_1"}}"#,
            r#"{"actor":"robot","skill":"open","args":{"target":"fridge_1"}}"#,
        ]),
    },
    Case {
        code: RejectionCode::Empty,
        setup: &[
            r#"{"actor":"robot","skill":"navigate_to","args":{"target":"fridge_1"}}"#,
            r#"{"actor":"robot","skill":"open","args":{"target":"fridge_1"}}"#,
            r#"{"actor":"robot","skill":"use","args":{"object":"milk_1"}}"#,
            r#"{"actor":"robot","skill":"use","args":{"object":"milk_1"}}"#,
            r#"{"actor":"robot","skill":"use","args":{"object":"milk_1"}}"#,
            r#"{"actor":"robot","skill":"use","args":{"object":"milk_1"}}"#,
            r#"{"actor":"robot","skill":"use","args":{"object":"milk_1"}}"#,
            r#"{"actor":"robot","skill":"use","args":{"object":"milk_1"}}"#,
        ],
        bad: r#"{"actor":"robot","skill":"use","args":{"object":"milk_1"}}"#,
        message: &["milk_1", "empty"],
        hint: &["shopping list"],
        fix: None,
    },
    // --- write
    Case {
        code: RejectionCode::NotWritable,
        setup: &[r#"{"actor":"robot","skill":"navigate_to","args":{"target":"counter_1"}}"#],
        bad: r#"{"actor":"robot","skill":"write","args":{"object":"cup_2","text":"milk"}}"#,
        message: &["cup_2", "nothing is written"],
        hint: &["shopping list"],
        fix: None,
    },
    Case {
        code: RejectionCode::NotColocated,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"write","args":{"object":"shopping_list_1","text":"milk"}}"#,
        message: &["robot", "shopping_list_1"],
        hint: &["navigate_to fridge_1", "write on shopping_list_1"],
        fix: Some(&[r#"{"actor":"robot","skill":"navigate_to","args":{"target":"fridge_1"}}"#]),
    },
    Case {
        code: RejectionCode::NoChange,
        setup: &[
            r#"{"actor":"robot","skill":"navigate_to","args":{"target":"fridge_1"}}"#,
            r#"{"actor":"robot","skill":"write","args":{"object":"shopping_list_1","text":"milk"}}"#,
        ],
        bad: r#"{"actor":"robot","skill":"write","args":{"object":"shopping_list_1","text":"milk"}}"#,
        message: &["shopping_list_1", "milk"],
        hint: &["cross something off"],
        fix: None,
    },
    // --- handoff
    Case {
        code: RejectionCode::NotAnActor,
        setup: &[
            r#"{"actor":"robot","skill":"navigate_to","args":{"target":"counter_1"}}"#,
            r#"{"actor":"robot","skill":"pick","args":{"object":"cup_2"}}"#,
        ],
        bad: r#"{"actor":"robot","skill":"handoff","args":{"object":"cup_2","to":"counter_1"}}"#,
        message: &["counter_1"],
        hint: &["use place"],
        fix: None,
    },
    Case {
        code: RejectionCode::NotAnActor,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"say","args":{"text":"hello there","to":["tv_1"]}}"#,
        message: &["tv_1"],
        hint: &["address people"],
        fix: None,
    },
    Case {
        code: RejectionCode::SelfHandoff,
        setup: &[
            r#"{"actor":"robot","skill":"navigate_to","args":{"target":"counter_1"}}"#,
            r#"{"actor":"robot","skill":"pick","args":{"object":"cup_2"}}"#,
        ],
        bad: r#"{"actor":"robot","skill":"handoff","args":{"object":"cup_2","to":"robot"}}"#,
        message: &["robot", "cup_2"],
        hint: &["another actor"],
        fix: None,
    },
    Case {
        code: RejectionCode::PartnerNotColocated,
        setup: &[
            r#"{"actor":"robot","skill":"navigate_to","args":{"target":"counter_1"}}"#,
            r#"{"actor":"robot","skill":"pick","args":{"object":"cup_2"}}"#,
        ],
        bad: r#"{"actor":"robot","skill":"handoff","args":{"object":"cup_2","to":"alice"}}"#,
        message: &["alice", "master_bedroom"],
        hint: &["navigate_to alice first"],
        fix: Some(&[r#"{"actor":"robot","skill":"navigate_to","args":{"target":"alice"}}"#]),
    },
    Case {
        code: RejectionCode::PartnerHandsFull,
        setup: &[
            r#"{"actor":"alice","skill":"navigate_to","args":{"target":"nightstand_alice"}}"#,
            r#"{"actor":"alice","skill":"pick","args":{"object":"glasses_1"}}"#,
            r#"{"actor":"alice","skill":"pick","args":{"object":"phone_1"}}"#,
            r#"{"actor":"robot","skill":"navigate_to","args":{"target":"counter_1"}}"#,
            r#"{"actor":"robot","skill":"pick","args":{"object":"cup_2"}}"#,
            r#"{"actor":"robot","skill":"navigate_to","args":{"target":"alice"}}"#,
        ],
        bad: r#"{"actor":"robot","skill":"handoff","args":{"object":"cup_2","to":"alice"}}"#,
        message: &["alice"],
        hint: &["ask alice to put something down first"],
        fix: Some(&[
            r#"{"actor":"alice","skill":"place","args":{"object":"phone_1","target":"nightstand_alice","relation":"on"}}"#,
        ]),
    },
    // --- say and wait
    Case {
        code: RejectionCode::EmptyUtterance,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"say","args":{"text":"  \t "}}"#,
        message: &["robot"],
        hint: &["text"],
        fix: None,
    },
    Case {
        // door_lily is closed: Lily cannot hear the hallway.
        code: RejectionCode::NotInEarshot,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"say","args":{"text":"dinner is ready","to":["lily"]}}"#,
        message: &["lily", "lily_room"],
        hint: &["navigate_to lily first"],
        fix: Some(&[r#"{"actor":"robot","skill":"open","args":{"target":"door_lily"}}"#]),
    },
    Case {
        code: RejectionCode::BadClaim,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"say","args":{"text":"the mug is open","claims":[{"entity":"mug_1","attr":"open","value":true}]}}"#,
        message: &["mug_1", "open"],
        hint: &["claim location of objects"],
        fix: None,
    },
    Case {
        code: RejectionCode::BadClaim,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"say","args":{"text":"the counter is in the fridge","claims":[{"entity":"counter_1","attr":"location","value":{"in":"fridge_1"}}]}}"#,
        message: &["counter_1", "location"],
        hint: &["claim location of objects"],
        fix: None,
    },
    Case {
        code: RejectionCode::BadWait,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"wait","args":{"seconds":0}}"#,
        message: &["0"],
        hint: &["between 1 and 86400"],
        fix: None,
    },
    Case {
        code: RejectionCode::BadWait,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"wait","args":{"seconds":86401}}"#,
        message: &["86401"],
        hint: &["between 1 and 86400"],
        fix: None,
    },
    // --- going out and coming back
    Case {
        code: RejectionCode::RobotStaysHome,
        setup: &[],
        bad: r#"{"actor":"robot","skill":"leave","args":{"door":"front_door","to":"errand"}}"#,
        message: &["robot", "never leaves"],
        hint: &["stay home"],
        fix: None,
    },
    Case {
        code: RejectionCode::NotExteriorDoor,
        setup: &[],
        bad: r#"{"actor":"bob","skill":"leave","args":{"door":"door_study","to":"work"}}"#,
        message: &["door_study", "does not lead outside"],
        hint: &["exterior doors: front_door"],
        fix: None,
    },
    Case {
        code: RejectionCode::UnknownEntity,
        setup: &[],
        bad: r#"{"actor":"bob","skill":"leave","args":{"door":"front_dor","to":"work"}}"#,
        message: &["front_dor"],
        hint: &["front_door"],
        fix: None,
    },
    Case {
        code: RejectionCode::DoorClosed,
        setup: &[],
        bad: r#"{"actor":"lily","skill":"leave","args":{"door":"front_door","to":"school"}}"#,
        message: &["door_lily", "closed"],
        hint: &["open door_lily first"],
        fix: Some(&[r#"{"actor":"lily","skill":"open","args":{"target":"door_lily"}}"#]),
    },
    Case {
        code: RejectionCode::AlreadyOutside,
        setup: &[r#"{"actor":"bob","skill":"leave","args":{"door":"front_door","to":"work"}}"#],
        bad: r#"{"actor":"bob","skill":"leave","args":{"door":"front_door","to":"work"}}"#,
        message: &["bob", "out of the house already"],
        hint: &["arrive first"],
        fix: Some(&[r#"{"actor":"bob","skill":"arrive","args":{"door":"front_door"}}"#]),
    },
    Case {
        code: RejectionCode::AlreadyHome,
        setup: &[],
        bad: r#"{"actor":"bob","skill":"arrive","args":{"door":"front_door"}}"#,
        message: &["bob", "in the house already"],
        hint: &["leave first"],
        fix: Some(&[
            r#"{"actor":"bob","skill":"leave","args":{"door":"front_door","to":"shopping"}}"#,
        ]),
    },
    Case {
        code: RejectionCode::ActorOutside,
        setup: &[r#"{"actor":"bob","skill":"leave","args":{"door":"front_door","to":"work"}}"#],
        bad: r#"{"actor":"bob","skill":"navigate_to","args":{"target":"kitchen"}}"#,
        message: &["bob", "out of the house", "navigate_to"],
        hint: &["arrive through front_door first"],
        fix: Some(&[r#"{"actor":"bob","skill":"arrive","args":{"door":"front_door"}}"#]),
    },
    Case {
        code: RejectionCode::ActorOutside,
        setup: &[r#"{"actor":"bob","skill":"leave","args":{"door":"front_door","to":"work"}}"#],
        bad: r#"{"actor":"bob","skill":"say","args":{"text":"hello?"}}"#,
        message: &["bob", "say"],
        hint: &["arrive"],
        fix: None,
    },
    Case {
        code: RejectionCode::TargetOutside,
        setup: &[r#"{"actor":"bob","skill":"leave","args":{"door":"front_door","to":"work"}}"#],
        bad: r#"{"actor":"alice","skill":"navigate_to","args":{"target":"bob"}}"#,
        message: &["bob", "out of the house"],
        hint: &["in the house"],
        fix: Some(&[r#"{"actor":"bob","skill":"arrive","args":{"door":"front_door"}}"#]),
    },
    Case {
        code: RejectionCode::TargetOutside,
        setup: &[
            r#"{"actor":"bob","skill":"leave","args":{"door":"front_door","to":"work","take":["keys_2"]}}"#,
        ],
        bad: r#"{"actor":"alice","skill":"inspect","args":{"target":"keys_2"}}"#,
        message: &["keys_2", "out of the house"],
        hint: &["inspect something in the house"],
        fix: None,
    },
    Case {
        code: RejectionCode::TargetOutside,
        setup: &[
            r#"{"actor":"bob","skill":"leave","args":{"door":"front_door","to":"work","take":["keys_2"]}}"#,
            r#"{"actor":"bob","skill":"arrive","args":{"door":"front_door"}}"#,
        ],
        bad: r#"{"actor":"bob","skill":"pick","args":{"object":"keys_2"}}"#,
        message: &["keys_2", "out of the house"],
        hint: &["brings it in"],
        fix: None,
    },
    Case {
        code: RejectionCode::TargetOutside,
        setup: &[
            r#"{"actor":"bob","skill":"navigate_to","args":{"target":"shoe_cabinet_1"}}"#,
            r#"{"actor":"bob","skill":"pick","args":{"object":"keys_2"}}"#,
            r#"{"actor":"alice","skill":"leave","args":{"door":"front_door","to":"exercise"}}"#,
        ],
        bad: r#"{"actor":"bob","skill":"handoff","args":{"object":"keys_2","to":"alice"}}"#,
        message: &["alice", "out of the house"],
        hint: &["wait until alice arrives"],
        fix: None,
    },
    Case {
        code: RejectionCode::NotColocated,
        setup: &[],
        bad: r#"{"actor":"bob","skill":"leave","args":{"door":"front_door","to":"work","take":["laptop_2"]}}"#,
        message: &["laptop_2", "reach"],
        hint: &["entrance"],
        fix: None,
    },
    Case {
        code: RejectionCode::HeldByOther,
        setup: &[
            r#"{"actor":"alice","skill":"navigate_to","args":{"target":"shoe_cabinet_1"}}"#,
            r#"{"actor":"alice","skill":"pick","args":{"object":"keys_1"}}"#,
        ],
        bad: r#"{"actor":"bob","skill":"leave","args":{"door":"front_door","to":"work","take":["keys_1"]}}"#,
        message: &["alice has keys_1"],
        hint: &["ask alice"],
        fix: None,
    },
    Case {
        code: RejectionCode::InsideClosedContainer,
        setup: &[r#"{"actor":"bob","skill":"navigate_to","args":{"target":"filing_cabinet_1"}}"#],
        bad: r#"{"actor":"bob","skill":"leave","args":{"door":"front_door","to":"work","take":["charger_2"]}}"#,
        message: &["charger_2", "filing_cabinet_1", "closed"],
        hint: &["open filing_cabinet_1 first"],
        fix: Some(&[r#"{"actor":"bob","skill":"open","args":{"target":"filing_cabinet_1"}}"#]),
    },
    Case {
        code: RejectionCode::NotPickable,
        setup: &[],
        bad: r#"{"actor":"bob","skill":"leave","args":{"door":"front_door","to":"work","take":["coat_rack_1"]}}"#,
        message: &["coat_rack_1", "not a movable object"],
        hint: &["take objects"],
        fix: None,
    },
    Case {
        code: RejectionCode::NotOutside,
        setup: &[r#"{"actor":"bob","skill":"leave","args":{"door":"front_door","to":"work"}}"#],
        bad: r#"{"actor":"bob","skill":"arrive","args":{"door":"front_door","bring":["mug_1"]}}"#,
        message: &["mug_1", "not outside"],
        hint: &["parcel"],
        fix: None,
    },
    Case {
        code: RejectionCode::HeldByOther,
        setup: &[
            r#"{"actor":"bob","skill":"leave","args":{"door":"front_door","to":"work","take":["keys_2"]}}"#,
            r#"{"actor":"alice","skill":"leave","args":{"door":"front_door","to":"shopping"}}"#,
        ],
        bad: r#"{"actor":"alice","skill":"arrive","args":{"door":"front_door","bring":["keys_2"]}}"#,
        message: &["bob has keys_2"],
        hint: &["let bob bring it"],
        fix: None,
    },
];

fn run_case(case: &Case) {
    let mut sim = new_sim();
    for s in case.setup {
        ok(&mut sim, s);
    }
    let r = rejected(&mut sim, case.bad, case.code);
    for m in case.message {
        assert!(
            r.message.contains(m),
            "{}: message {:?} should mention {m:?}",
            case.bad,
            r.message
        );
    }
    for h in case.hint {
        assert!(
            r.hint.contains(h),
            "{}: hint {:?} should say {h:?}",
            case.bad,
            r.hint
        );
    }
    // Ids a hint offers as alternatives are real.
    if let Some((_, list)) = r.hint.rsplit_once(": ") {
        let state = sim.state();
        for name in list.split(", ") {
            let real = state
                .keys()
                .any(|(e, a)| e.as_str() == name || a.as_str() == name)
                || sim
                    .scene()
                    .rooms
                    .iter()
                    .any(|room| room.id.as_str() == name)
                || sim.scene().doors.iter().any(|d| d.id.as_str() == name)
                || sim.scene().furniture.iter().any(|f| f.id.as_str() == name);
            assert!(
                real,
                "{}: hint {:?} offers unknown id {name:?}",
                case.bad, r.hint
            );
        }
    }
    if let Some(fix) = case.fix {
        for f in fix {
            ok(&mut sim, f);
        }
        let event = ok(&mut sim, case.bad);
        assert!(
            !event.changes.is_empty()
                || matches!(event.kind, EventKind::Utterance)
                || event.action.skill_name() == "inspect",
            "{}: accepted after the fix but changed nothing",
            case.bad
        );
    }
}

#[test]
fn every_rejection_case() {
    let mut failed = Vec::new();
    for (i, case) in CASES.iter().enumerate() {
        if catch_unwind(AssertUnwindSafe(|| run_case(case))).is_err() {
            failed.push(format!("#{i} {}: {}", case.code, case.bad));
        }
    }
    assert!(failed.is_empty(), "failed cases:\n{}", failed.join("\n"));
}

/// The codes the executor can produce, read from its source: every
/// `RejectionCode::` variant the files of `src/sim/executor/` name.
fn executor_codes() -> BTreeSet<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/sim/executor");
    let mut src = String::new();
    for entry in std::fs::read_dir(dir).expect("executor sources") {
        src += &std::fs::read_to_string(entry.expect("a source").path()).expect("a source");
    }
    let mut codes = BTreeSet::new();
    for part in src.split("RejectionCode::").skip(1) {
        let name: String = part
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let code = RejectionCode::ALL
            .iter()
            .find(|c| format!("{c:?}") == name)
            .unwrap_or_else(|| panic!("no rejection code `{name}`"));
        codes.insert(code.code().to_string());
    }
    for c in &codes {
        assert!(Id::is_well_formed(c), "odd rejection code {c:?}");
    }
    codes
}

#[test]
fn every_rejection_code_is_tested() {
    let produced = executor_codes();
    assert!(
        produced.len() >= 30,
        "the source scan found only {produced:?}"
    );
    let tested: BTreeSet<String> = CASES.iter().map(|c| c.code.to_string()).collect();
    let untested: Vec<&String> = produced.difference(&tested).collect();
    assert!(
        untested.is_empty(),
        "rejection codes without a test: {untested:?}"
    );
    let stale: Vec<&String> = tested.difference(&produced).collect();
    assert!(
        stale.is_empty(),
        "tested codes the executor no longer has: {stale:?}"
    );
}

// ------------------------------------------------------------------ skills

#[test]
fn navigate_to_every_kind_of_target() {
    let mut sim = new_sim();
    // Lily's door is closed: she opens it so that the robot can walk in.
    ok(
        &mut sim,
        r#"{"actor":"lily","skill":"open","args":{"target":"door_lily"}}"#,
    );
    let robot_at = |sim: &Simulation| get(sim, "robot", "position").unwrap();
    // (target, expected position, expected via)
    let walks: [(&str, Value, &[&str]); 6] = [
        ("kitchen", pos("kitchen", None), &["kitchen"]),
        ("counter_1", pos("kitchen", Some("counter_1")), &[]),
        ("tv_1", pos("living_room", Some("tv_1")), &["living_room"]),
        // An object: its furniture.
        (
            "mug_3",
            pos("lily_room", Some("desk_lily")),
            &["hallway", "lily_room"],
        ),
        // An object shut in a closed container: the container.
        (
            "milk_1",
            pos("kitchen", Some("fridge_1")),
            &["hallway", "kitchen"],
        ),
        // Another actor: where it stands. From the fridge the way through
        // the living room (11.9 m) beats the kitchen arch (12.8 m).
        (
            "alice",
            pos("master_bedroom", Some("bed_master")),
            &["living_room", "hallway", "master_bedroom"],
        ),
    ];
    let mut free_at = 0;
    for (target, to, via) in walks {
        let from = robot_at(&sim);
        let before = sim.state();
        let json =
            format!(r#"{{"actor":"robot","skill":"navigate_to","args":{{"target":"{target}"}}}}"#);
        let e = ok(&mut sim, &json);
        assert_eq!(e.t, free_at, "{target}: starts when the robot is free");
        assert_eq!(
            e.changes,
            vec![change("robot", "position", from, to.clone())]
        );
        assert_eq!(e.via, ids(via), "{target}: rooms walked through");
        assert_eq!(e.kind, EventKind::Action);
        assert!(e.observers.contains(&id("robot")));
        assert_eq!(e.mentions, ids(&[target]));
        assert_eq!(sim.busy_until("robot"), Some(e.t + e.dur));
        assert_eq!(robot_at(&sim), to);
        assert_changes_match(&before, &sim, &e);
        free_at = e.t + e.dur;
    }
    // Walking into the master bedroom is seen by both people there.
    let last = sim.execute(req(
        r#"{"actor":"robot","skill":"wait","args":{"seconds":1}}"#,
    ));
    assert_eq!(last.observers, ids(&["alice", "bob", "robot"]));
    // Bob stands where Alice does: the robot is already there.
    let r = rejected(
        &mut sim,
        r#"{"actor":"robot","skill":"navigate_to","args":{"target":"bob"}}"#,
        RejectionCode::AlreadyThere,
    );
    assert!(r.hint.contains("bob"));
}

#[test]
fn navigation_reveals_the_destination_room_to_the_walker() {
    let mut sim = new_sim();
    let e = ok(
        &mut sim,
        r#"{"actor":"robot","skill":"navigate_to","args":{"target":"kitchen"}}"#,
    );
    assert_eq!(e.revealed_to, ids(&["robot"]));
    assert!(
        e.reveals
            .contains(&fact("cup_2", "location", on("counter_1")))
    );
    assert!(
        e.reveals
            .contains(&fact("cabinet_1", "open", Value::Bool(false)))
    );
    // Nothing inside the closed cabinet shows.
    assert!(!e.reveals.iter().any(|f| f.entity.as_str() == "mug_1"));
    let belief = &sim.beliefs("robot").unwrap()[&(id("cup_2"), id("location"))];
    assert_eq!(belief.value, on("counter_1"));
    assert_eq!(belief.event, e.id);
}

#[test]
fn navigation_time_grows_with_distance() {
    let walk_from_kitchen = |to: &str| {
        let mut sim = new_sim();
        ok(
            &mut sim,
            r#"{"actor":"lily","skill":"open","args":{"target":"door_lily"}}"#,
        );
        ok(
            &mut sim,
            r#"{"actor":"robot","skill":"navigate_to","args":{"target":"kitchen"}}"#,
        );
        let json =
            format!(r#"{{"actor":"robot","skill":"navigate_to","args":{{"target":"{to}"}}}}"#);
        ok(&mut sim, &json)
    };
    let living = walk_from_kitchen("living_room");
    let lily = walk_from_kitchen("lily_room");
    assert_eq!(living.via, ids(&["living_room"]));
    assert_eq!(lily.via, ids(&["hallway", "lily_room"]));
    assert!(
        living.dur < lily.dur,
        "kitchen->living_room {} s should be shorter than kitchen->lily_room {} s",
        living.dur,
        lily.dur
    );
    // Kitchen centre (8, 2.5) -> arch (6, 2.5) -> living room centre (3, 2.5):
    // 5 m at 0.8 m/s = 6.25 s, rounded up.
    assert_eq!(living.dur, 7);
    // A short step still takes a whole second at least.
    let mut sim = new_sim();
    ok(
        &mut sim,
        r#"{"actor":"robot","skill":"navigate_to","args":{"target":"counter_1"}}"#,
    );
    let e = ok(
        &mut sim,
        r#"{"actor":"robot","skill":"navigate_to","args":{"target":"cabinet_1"}}"#,
    );
    assert_eq!(e.dur, 1, "counter_1 and cabinet_1 share a point");
    assert!(e.via.is_empty());
}

#[test]
fn timing_busy_until_and_explicit_at() {
    let mut sim = new_sim();
    assert_eq!(sim.now(), 0);
    assert_eq!(sim.busy_until("robot"), Some(0));
    assert_eq!(sim.busy_until("nobody"), None);
    let walk = ok(
        &mut sim,
        r#"{"actor":"robot","skill":"navigate_to","args":{"target":"kitchen"}}"#,
    );
    assert_eq!((walk.t, walk.id, walk.day), (0, 1, 1));
    assert_eq!(sim.busy_until("robot"), Some(walk.dur));
    // Another actor is free now: it starts at the current time, alongside.
    let w = ok(
        &mut sim,
        r#"{"actor":"alice","skill":"wait","args":{"seconds":30}}"#,
    );
    assert_eq!(w.t, 0);
    assert_eq!(w.changes, vec![]);
    assert_eq!(w.dur, 30);
    // The robot's next request starts when its walk ends.
    let next = ok(
        &mut sim,
        r#"{"actor":"robot","skill":"navigate_to","args":{"target":"counter_1"}}"#,
    );
    assert_eq!(next.t, walk.dur);
    assert_eq!(sim.now(), walk.dur);
    assert_eq!(sim.busy_until("robot"), Some(next.t + next.dur));
    // An explicit start time, later than both the clock and busy_until.
    let at = ok(
        &mut sim,
        r#"{"actor":"robot","skill":"wait","args":{"seconds":60},"at":3600}"#,
    );
    assert_eq!((at.t, at.dur, at.time.as_str()), (3600, 60, "01:00:00"));
    assert_eq!(sim.now(), 3600);
    assert_eq!(sim.busy_until("robot"), Some(3660));
    let after = ok(
        &mut sim,
        r#"{"actor":"robot","skill":"wait","args":{"seconds":5}}"#,
    );
    assert_eq!(after.t, 3660);
    // Exactly at busy_until is fine; a day later is day 2.
    ok(
        &mut sim,
        r#"{"actor":"robot","skill":"wait","args":{"seconds":5},"at":3665}"#,
    );
    let tomorrow = ok(
        &mut sim,
        r#"{"actor":"bob","skill":"wait","args":{"seconds":86400},"at":90000}"#,
    );
    assert_eq!((tomorrow.day, tomorrow.time.as_str()), (2, "01:00:00"));
    assert_eq!(sim.busy_until("bob"), Some(90000 + 86400));
    // Event ids are dense.
    let e = ok(
        &mut sim,
        r#"{"actor":"robot","skill":"wait","args":{"seconds":1}}"#,
    );
    assert_eq!(e.id, 8);
    assert_eq!(
        e.t, 90000,
        "starts at the clock, past the robot's busy_until"
    );
}

#[test]
fn inspect_furniture_device_object_and_actor() {
    let mut sim = new_sim();
    ok(
        &mut sim,
        r#"{"actor":"robot","skill":"navigate_to","args":{"target":"counter_1"}}"#,
    );
    ok(
        &mut sim,
        r#"{"actor":"alice","skill":"navigate_to","args":{"target":"dining_table_1"}}"#,
    );
    let cases: [(&str, Fact); 4] = [
        ("cup_2", fact("cup_2", "location", on("counter_1"))),
        ("cabinet_1", fact("cabinet_1", "open", Value::Bool(false))),
        (
            "coffee_machine_1",
            fact("coffee_machine_1", "strength", Value::Int(3)),
        ),
        (
            "alice",
            fact("alice", "position", pos("kitchen", Some("dining_table_1"))),
        ),
    ];
    for (target, seen) in cases {
        let json =
            format!(r#"{{"actor":"robot","skill":"inspect","args":{{"target":"{target}"}}}}"#);
        let e = ok(&mut sim, &json);
        assert!(e.changes.is_empty(), "inspecting changes nothing");
        assert!(e.reveals.contains(&seen), "{target}: {:?}", e.reveals);
        assert!(e.revealed_to.contains(&id("robot")));
        assert_eq!(e.observers, ids(&["alice", "robot"]));
    }
    // A closed cabinet shows its door, not its contents.
    let e = ok(
        &mut sim,
        r#"{"actor":"robot","skill":"inspect","args":{"target":"cabinet_1"}}"#,
    );
    assert!(!e.reveals.iter().any(|f| f.entity.as_str() == "mug_1"));
}

#[test]
fn pick_and_place_on_and_in() {
    let mut sim = new_sim();
    ok(
        &mut sim,
        r#"{"actor":"robot","skill":"navigate_to","args":{"target":"counter_1"}}"#,
    );
    let before = sim.state();
    let pick = ok(
        &mut sim,
        r#"{"actor":"robot","skill":"pick","args":{"object":"cup_2"}}"#,
    );
    assert_eq!(
        pick.changes,
        vec![change("cup_2", "location", on("counter_1"), held("robot"))]
    );
    assert_changes_match(&before, &sim, &pick);
    assert_eq!(sim.busy_until("robot"), Some(pick.t + pick.dur));

    ok(
        &mut sim,
        r#"{"actor":"robot","skill":"navigate_to","args":{"target":"dining_table_1"}}"#,
    );
    let before = sim.state();
    let place = ok(
        &mut sim,
        r#"{"actor":"robot","skill":"place","args":{"object":"cup_2","target":"dining_table_1","relation":"on"}}"#,
    );
    assert_eq!(
        place.changes,
        vec![change(
            "cup_2",
            "location",
            held("robot"),
            on("dining_table_1")
        )]
    );
    assert_eq!(place.mentions, ids(&["cup_2", "dining_table_1"]));
    assert_changes_match(&before, &sim, &place);

    // Out of a container and into another.
    ok(
        &mut sim,
        r#"{"actor":"robot","skill":"navigate_to","args":{"target":"cabinet_1"}}"#,
    );
    ok(
        &mut sim,
        r#"{"actor":"robot","skill":"open","args":{"target":"cabinet_1"}}"#,
    );
    let pick = ok(
        &mut sim,
        r#"{"actor":"robot","skill":"pick","args":{"object":"mug_1"}}"#,
    );
    assert_eq!(
        pick.changes,
        vec![change(
            "mug_1",
            "location",
            inside("cabinet_1"),
            held("robot")
        )]
    );
    ok(
        &mut sim,
        r#"{"actor":"robot","skill":"navigate_to","args":{"target":"fridge_1"}}"#,
    );
    ok(
        &mut sim,
        r#"{"actor":"robot","skill":"open","args":{"target":"fridge_1"}}"#,
    );
    let before = sim.state();
    let place = ok(
        &mut sim,
        r#"{"actor":"robot","skill":"place","args":{"object":"mug_1","target":"fridge_1","relation":"in"}}"#,
    );
    assert_eq!(
        place.changes,
        vec![change(
            "mug_1",
            "location",
            held("robot"),
            inside("fridge_1")
        )]
    );
    assert_changes_match(&before, &sim, &place);
    // The fridge also has a top.
    ok(
        &mut sim,
        r#"{"actor":"robot","skill":"pick","args":{"object":"milk_1"}}"#,
    );
    let top = ok(
        &mut sim,
        r#"{"actor":"robot","skill":"place","args":{"object":"milk_1","target":"fridge_1","relation":"on"}}"#,
    );
    assert_eq!(
        top.changes,
        vec![change("milk_1", "location", held("robot"), on("fridge_1"))]
    );
}

#[test]
fn open_and_close_containers() {
    let mut sim = new_sim();
    ok(
        &mut sim,
        r#"{"actor":"robot","skill":"navigate_to","args":{"target":"cabinet_1"}}"#,
    );
    let before = sim.state();
    let open = ok(
        &mut sim,
        r#"{"actor":"robot","skill":"open","args":{"target":"cabinet_1"}}"#,
    );
    assert_eq!(
        open.changes,
        vec![change(
            "cabinet_1",
            "open",
            Value::Bool(false),
            Value::Bool(true)
        )]
    );
    assert_changes_match(&before, &sim, &open);
    // Opening shows the contents.
    for mug in ["mug_1", "mug_2", "mug_4"] {
        assert!(
            open.reveals
                .contains(&fact(mug, "location", inside("cabinet_1")))
        );
    }
    assert!(open.revealed_to.contains(&id("robot")));
    let close = ok(
        &mut sim,
        r#"{"actor":"robot","skill":"close","args":{"target":"cabinet_1"}}"#,
    );
    assert_eq!(
        close.changes,
        vec![change(
            "cabinet_1",
            "open",
            Value::Bool(true),
            Value::Bool(false)
        )]
    );
    assert!(close.reveals.is_empty());
    assert_eq!(get(&sim, "cabinet_1", "open"), Some(Value::Bool(false)));
    // A device with a door.
    ok(
        &mut sim,
        r#"{"actor":"robot","skill":"navigate_to","args":{"target":"microwave_1"}}"#,
    );
    let e = ok(
        &mut sim,
        r#"{"actor":"robot","skill":"open","args":{"target":"microwave_1"}}"#,
    );
    assert_eq!(
        e.changes,
        vec![change(
            "microwave_1",
            "open",
            Value::Bool(false),
            Value::Bool(true)
        )]
    );
}

#[test]
fn doors_open_and_close_from_either_room() {
    let mut sim = new_sim();
    let flip = |was: bool| {
        vec![change(
            "door_lily",
            "open",
            Value::Bool(was),
            Value::Bool(!was),
        )]
    };
    // Lily, in lily_room; the robot, in the hallway.
    let e = ok(
        &mut sim,
        r#"{"actor":"lily","skill":"open","args":{"target":"door_lily"}}"#,
    );
    assert_eq!(e.changes, flip(false));
    assert_eq!(
        e.observers,
        ids(&["lily", "robot"]),
        "both rooms see a door"
    );
    let e = ok(
        &mut sim,
        r#"{"actor":"robot","skill":"close","args":{"target":"door_lily"}}"#,
    );
    assert_eq!(e.changes, flip(true));
    let e = ok(
        &mut sim,
        r#"{"actor":"robot","skill":"open","args":{"target":"door_lily"}}"#,
    );
    assert_eq!(e.changes, flip(false));
    let e = ok(
        &mut sim,
        r#"{"actor":"lily","skill":"close","args":{"target":"door_lily"}}"#,
    );
    assert_eq!(e.changes, flip(true));
    // Not from a third room.
    let r = rejected(
        &mut sim,
        r#"{"actor":"alice","skill":"open","args":{"target":"door_lily"}}"#,
        RejectionCode::NotColocated,
    );
    assert!(r.hint.contains("navigate_to lily_room first"), "{r:?}");
}

#[test]
fn set_device_state_every_field_type() {
    let mut sim = new_sim();
    let set = |sim: &mut Simulation, device: &str, field: &str, value: &str| {
        let json = format!(
            r#"{{"actor":"robot","skill":"set_device_state","args":{{"device":"{device}","field":"{field}","value":{value}}}}}"#
        );
        let before = sim.state();
        let e = ok(sim, &json);
        assert_changes_match(&before, sim, &e);
        assert_eq!(sim.busy_until("robot"), Some(e.t + e.dur));
        e.changes
    };
    // Remote devices from the hallway: tv_1 is in the living room.
    assert_eq!(
        set(&mut sim, "tv_1", "power", "true"),
        vec![change(
            "tv_1",
            "power",
            Value::Bool(false),
            Value::Bool(true)
        )]
    );
    assert_eq!(
        set(&mut sim, "tv_1", "volume", "20"),
        vec![change("tv_1", "volume", Value::Int(15), Value::Int(20))]
    );
    assert_eq!(
        set(&mut sim, "tv_1", "input", r#""hdmi1""#),
        vec![change(
            "tv_1",
            "input",
            Value::Text("tv".into()),
            Value::Text("hdmi1".into())
        )]
    );
    // A float field given an integer, then a float; bounds are inclusive.
    assert_eq!(
        set(&mut sim, "thermostat_1", "target", "22"),
        vec![change(
            "thermostat_1",
            "target",
            Value::Float(21.0),
            Value::Float(22.0)
        )]
    );
    assert_eq!(
        set(&mut sim, "thermostat_1", "target", "22.5"),
        vec![change(
            "thermostat_1",
            "target",
            Value::Float(22.0),
            Value::Float(22.5)
        )]
    );
    assert_eq!(
        set(&mut sim, "thermostat_1", "target", "28"),
        vec![change(
            "thermostat_1",
            "target",
            Value::Float(22.5),
            Value::Float(28.0)
        )]
    );
    assert_eq!(
        set(&mut sim, "air_purifier_1", "speed", "3"),
        vec![change(
            "air_purifier_1",
            "speed",
            Value::Int(1),
            Value::Int(3)
        )]
    );
    // A non-remote device needs the actor beside it.
    let r = rejected(
        &mut sim,
        r#"{"actor":"robot","skill":"set_device_state","args":{"device":"microwave_1","field":"timer","value":90}}"#,
        RejectionCode::NotColocated,
    );
    assert!(r.hint.contains("navigate_to microwave_1 first"), "{r:?}");
    ok(
        &mut sim,
        r#"{"actor":"robot","skill":"navigate_to","args":{"target":"microwave_1"}}"#,
    );
    assert_eq!(
        set(&mut sim, "microwave_1", "timer", "90"),
        vec![change(
            "microwave_1",
            "timer",
            Value::Int(0),
            Value::Int(90)
        )]
    );
    assert_eq!(
        set(&mut sim, "microwave_1", "timer", "3600"),
        vec![change(
            "microwave_1",
            "timer",
            Value::Int(90),
            Value::Int(3600)
        )]
    );
    assert_eq!(
        set(&mut sim, "microwave_1", "timer", "0"),
        vec![change(
            "microwave_1",
            "timer",
            Value::Int(3600),
            Value::Int(0)
        )]
    );
    assert_eq!(get(&sim, "tv_1", "volume"), Some(Value::Int(20)));
    assert_eq!(
        get(&sim, "thermostat_1", "target"),
        Some(Value::Float(28.0))
    );
}

#[test]
fn remote_changes_are_seen_in_the_device_room() {
    let mut sim = new_sim();
    ok(
        &mut sim,
        r#"{"actor":"bob","skill":"navigate_to","args":{"target":"sofa_1"}}"#,
    );
    let e = ok(
        &mut sim,
        r#"{"actor":"robot","skill":"set_device_state","args":{"device":"tv_1","field":"power","value":true}}"#,
    );
    assert_eq!(e.observers, ids(&["bob", "robot"]));
    let b = &sim.beliefs("bob").unwrap()[&(id("tv_1"), id("power"))];
    assert_eq!(b.value, Value::Bool(true));
}

#[test]
fn handoff_between_actors() {
    let mut sim = new_sim();
    for json in [
        r#"{"actor":"robot","skill":"navigate_to","args":{"target":"counter_1"}}"#,
        r#"{"actor":"robot","skill":"pick","args":{"object":"cup_2"}}"#,
        r#"{"actor":"robot","skill":"navigate_to","args":{"target":"alice"}}"#,
    ] {
        ok(&mut sim, json);
    }
    let before = sim.state();
    let e = ok(
        &mut sim,
        r#"{"actor":"robot","skill":"handoff","args":{"object":"cup_2","to":"alice"}}"#,
    );
    assert_eq!(
        e.changes,
        vec![change("cup_2", "location", held("robot"), held("alice"))]
    );
    assert_eq!(e.mentions, ids(&["cup_2", "alice"]));
    assert_eq!(e.observers, ids(&["alice", "bob", "robot"]));
    assert_changes_match(&before, &sim, &e);
    // And on, from Alice to Bob, then down on the bed.
    let e = ok(
        &mut sim,
        r#"{"actor":"alice","skill":"handoff","args":{"object":"cup_2","to":"bob"}}"#,
    );
    assert_eq!(
        e.changes,
        vec![change("cup_2", "location", held("alice"), held("bob"))]
    );
    let e = ok(
        &mut sim,
        r#"{"actor":"bob","skill":"place","args":{"object":"cup_2","target":"bed_master","relation":"on"}}"#,
    );
    assert_eq!(
        e.changes,
        vec![change("cup_2", "location", held("bob"), on("bed_master"))]
    );
}

#[test]
fn say_with_addressees_and_claims() {
    let mut sim = new_sim();
    let e = ok(
        &mut sim,
        r#"{"actor":"robot","skill":"say","args":{"text":"Alice, your mug is in the kitchen cabinet","to":["alice"],"claims":[{"entity":"mug_1","attr":"location","value":{"in":"cabinet_1"}}]}}"#,
    );
    assert_eq!(e.kind, EventKind::Utterance);
    assert!(e.changes.is_empty());
    // Eight words at 2.5 words a second: 3.2 s, rounded up.
    assert_eq!(e.dur, 4);
    assert_eq!(e.mentions, ids(&["alice", "mug_1"]));
    // Heard through the open master bedroom door, not through Lily's.
    assert_eq!(e.observers, ids(&["alice", "bob", "robot"]));
    assert_eq!(sim.busy_until("robot"), Some(e.t + e.dur));
    // Whoever hears it, with a claim about a device and one about a door.
    let e = ok(
        &mut sim,
        r#"{"actor":"alice","skill":"say","args":{"text":"hi","claims":[{"entity":"tv_1","attr":"volume","value":40},{"entity":"door_lily","attr":"open","value":true},{"entity":"lily","attr":"position","value":{"room":"lily_room"}}]}}"#,
    );
    assert_eq!(e.dur, 1);
    assert_eq!(e.kind, EventKind::Utterance);
    assert_eq!(e.mentions, ids(&["tv_1", "door_lily", "lily"]));
    // Once Lily's door is open she hears the hallway too.
    ok(
        &mut sim,
        r#"{"actor":"lily","skill":"open","args":{"target":"door_lily"}}"#,
    );
    let e = ok(
        &mut sim,
        r#"{"actor":"robot","skill":"say","args":{"text":"dinner is ready","to":["lily","alice"]}}"#,
    );
    assert_eq!(e.observers, ids(&["alice", "bob", "lily", "robot"]));
}

#[test]
fn wait_takes_exactly_its_time() {
    let mut sim = new_sim();
    for secs in [1, 59, 86_400] {
        let json = format!(r#"{{"actor":"robot","skill":"wait","args":{{"seconds":{secs}}}}}"#);
        let t = sim.busy_until("robot").unwrap();
        let e = ok(&mut sim, &json);
        assert_eq!((e.t, e.dur), (t, secs));
        assert!(e.changes.is_empty() && e.reveals.is_empty() && e.via.is_empty());
        assert_eq!(sim.busy_until("robot"), Some(t + secs));
    }
}

// --------------------------------------------------------------- capacity

/// Number of objects at a location, per the true state.
fn count_at(sim: &Simulation, loc: &Value) -> usize {
    sim.state().values().filter(|v| *v == loc).count()
}

#[test]
fn receptacles_fill_to_capacity_and_no_further() {
    let mut sim = new_sim();
    // microwave_1: In(1).
    for json in [
        r#"{"actor":"robot","skill":"navigate_to","args":{"target":"counter_1"}}"#,
        r#"{"actor":"robot","skill":"pick","args":{"object":"bread_1"}}"#,
        r#"{"actor":"robot","skill":"navigate_to","args":{"target":"microwave_1"}}"#,
        r#"{"actor":"robot","skill":"open","args":{"target":"microwave_1"}}"#,
        r#"{"actor":"robot","skill":"place","args":{"object":"bread_1","target":"microwave_1","relation":"in"}}"#,
        r#"{"actor":"robot","skill":"navigate_to","args":{"target":"counter_1"}}"#,
        r#"{"actor":"robot","skill":"pick","args":{"object":"cup_2"}}"#,
        r#"{"actor":"robot","skill":"navigate_to","args":{"target":"microwave_1"}}"#,
    ] {
        ok(&mut sim, json);
    }
    assert_eq!(count_at(&sim, &inside("microwave_1")), 1);
    let r = rejected(
        &mut sim,
        r#"{"actor":"robot","skill":"place","args":{"object":"cup_2","target":"microwave_1","relation":"in"}}"#,
        RejectionCode::CapacityFull,
    );
    assert!(r.message.contains("1 of 1"), "{r:?}");
    assert_eq!(count_at(&sim, &inside("microwave_1")), 1);

    // nightstand_bob: On(3) with book_2, In(4) empty and closed. Bob fills
    // the top from the dresser and the bed-side things he can reach.
    for json in [
        r#"{"actor":"bob","skill":"navigate_to","args":{"target":"dresser_1"}}"#,
        r#"{"actor":"bob","skill":"pick","args":{"object":"wallet_1"}}"#,
        r#"{"actor":"bob","skill":"navigate_to","args":{"target":"nightstand_alice"}}"#,
        r#"{"actor":"bob","skill":"pick","args":{"object":"glasses_1"}}"#,
        r#"{"actor":"bob","skill":"navigate_to","args":{"target":"nightstand_bob"}}"#,
        r#"{"actor":"bob","skill":"place","args":{"object":"wallet_1","target":"nightstand_bob","relation":"on"}}"#,
        r#"{"actor":"bob","skill":"place","args":{"object":"glasses_1","target":"nightstand_bob","relation":"on"}}"#,
        r#"{"actor":"bob","skill":"navigate_to","args":{"target":"nightstand_alice"}}"#,
        r#"{"actor":"bob","skill":"pick","args":{"object":"phone_1"}}"#,
        r#"{"actor":"bob","skill":"navigate_to","args":{"target":"nightstand_bob"}}"#,
    ] {
        ok(&mut sim, json);
    }
    assert_eq!(count_at(&sim, &on("nightstand_bob")), 3);
    let r = rejected(
        &mut sim,
        r#"{"actor":"bob","skill":"place","args":{"object":"phone_1","target":"nightstand_bob","relation":"on"}}"#,
        RejectionCode::CapacityFull,
    );
    assert!(r.message.contains("3 of 3"), "{r:?}");
    // The drawer is a separate slot: open it and the phone fits inside.
    ok(
        &mut sim,
        r#"{"actor":"bob","skill":"open","args":{"target":"nightstand_bob"}}"#,
    );
    let e = ok(
        &mut sim,
        r#"{"actor":"bob","skill":"place","args":{"object":"phone_1","target":"nightstand_bob","relation":"in"}}"#,
    );
    assert_eq!(
        e.changes,
        vec![change(
            "phone_1",
            "location",
            held("bob"),
            inside("nightstand_bob")
        )]
    );
    assert_eq!(count_at(&sim, &on("nightstand_bob")), 3);
    assert_eq!(count_at(&sim, &inside("nightstand_bob")), 1);
}

// ------------------------------------------------------------ determinism

/// A mixed script: accepted and rejected requests of every skill.
const SCRIPT: &[&str] = &[
    r#"{"actor":"robot","skill":"navigate_to","args":{"target":"kitchen"}}"#,
    r#"{"actor":"robot","skill":"pick","args":{"object":"mug_9"}}"#,
    r#"{"actor":"robot","skill":"navigate_to","args":{"target":"cabinet_1"}}"#,
    r#"{"actor":"robot","skill":"pick","args":{"object":"mug_1"}}"#,
    r#"{"actor":"robot","skill":"open","args":{"target":"cabinet_1"}}"#,
    r#"{"actor":"robot","skill":"open","args":{"target":"cabinet_1"}}"#,
    r#"{"actor":"robot","skill":"pick","args":{"object":"mug_1"}}"#,
    r#"{"actor":"robot","skill":"pick","args":{"object":"mug_2"}}"#,
    r#"{"actor":"alice","skill":"navigate_to","args":{"target":"nightstand_alice"}}"#,
    r#"{"actor":"alice","skill":"pick","args":{"object":"glasses_1"}}"#,
    r#"{"actor":"alice","skill":"say","args":{"text":"Has anyone seen my mug?","claims":[{"entity":"mug_1","attr":"location","value":{"in":"cabinet_1"}}]}}"#,
    r#"{"actor":"robot","skill":"navigate_to","args":{"target":"alice"}}"#,
    r#"{"actor":"robot","skill":"handoff","args":{"object":"mug_1","to":"alice"}}"#,
    r#"{"actor":"robot","skill":"handoff","args":{"object":"mug_1","to":"bob"}}"#,
    r#"{"actor":"bob","skill":"set_device_state","args":{"device":"tv_1","field":"power","value":true}}"#,
    r#"{"actor":"bob","skill":"set_device_state","args":{"device":"tv_1","field":"volume","value":250}}"#,
    r#"{"actor":"bob","skill":"set_device_state","args":{"device":"thermostat_1","field":"target","value":19.5}}"#,
    r#"{"actor":"bob","skill":"set_device_state","args":{"device":"desk_lamp_1","field":"power","value":true}}"#,
    r#"{"actor":"bob","skill":"navigate_to","args":{"target":"desk_lamp_1"}}"#,
    r#"{"actor":"bob","skill":"set_device_state","args":{"device":"desk_lamp_1","field":"power","value":true}}"#,
    r#"{"actor":"bob","skill":"set_device_state","args":{"device":"desk_lamp_1","field":"colour","value":"red"}}"#,
    r#"{"actor":"lily","skill":"say","args":{"text":"","to":["robot"]}}"#,
    r#"{"actor":"lily","skill":"say","args":{"text":"robot, come here","to":["robot"]}}"#,
    r#"{"actor":"lily","skill":"open","args":{"target":"door_lily"}}"#,
    r#"{"actor":"lily","skill":"say","args":{"text":"robot, come here","to":["robot"]}}"#,
    r#"{"actor":"robot","skill":"navigate_to","args":{"target":"lily"}}"#,
    r#"{"actor":"robot","skill":"inspect","args":{"target":"mug_3"}}"#,
    r#"{"actor":"robot","skill":"navigate_to","args":{"target":"desk_lily"}}"#,
    r#"{"actor":"robot","skill":"pick","args":{"object":"mug_3"}}"#,
    r#"{"actor":"robot","skill":"place","args":{"object":"mug_3","target":"desk_lily","relation":"in"}}"#,
    r#"{"actor":"robot","skill":"place","args":{"object":"mug_3","target":"bed_lily","relation":"on"}}"#,
    r#"{"actor":"robot","skill":"wait","args":{"seconds":0}}"#,
    r#"{"actor":"robot","skill":"wait","args":{"seconds":600},"at":7200}"#,
    r#"{"actor":"robot","skill":"wait","args":{"seconds":5},"at":7000}"#,
    r#"{"actor":"ghost","skill":"wait","args":{"seconds":5}}"#,
    r#"{"actor":"robot","skill":"navigate_to","args":{"target":"bed_lily"}}"#,
    r#"{"actor":"robot","skill":"place","args":{"object":"mug_3","target":"bed_lily","relation":"on"}}"#,
    r#"{"actor":"lily","skill":"close","args":{"target":"door_lily"}}"#,
    r#"{"actor":"robot","skill":"close","args":{"target":"door_lily"}}"#,
    r#"{"actor":"robot","skill":"navigate_to","args":{"target":"microwave_1"}}"#,
    r#"{"actor":"robot","skill":"set_device_state","args":{"device":"microwave_1","field":"timer","value":120}}"#,
    r#"{"actor":"robot","skill":"say","args":{"text":"the cabinet is open","claims":[{"entity":"cabinet_1","attr":"open","value":true}]}}"#,
];

type ScriptRun = (Vec<Event>, Vec<String>, hearth::trace::State);

fn run_script() -> ScriptRun {
    let mut sim = new_sim();
    let events: Vec<Event> = SCRIPT.iter().map(|json| exec(&mut sim, json)).collect();
    let lines = events
        .iter()
        .map(|e| serde_json::to_string(e).expect("events serialize"))
        .collect();
    (events, lines, sim.state())
}

#[test]
fn the_same_requests_give_byte_identical_events() {
    let (events, first, state) = run_script();
    let (_, second, state2) = run_script();
    assert_eq!(first.len(), SCRIPT.len());
    for (i, (a, b)) in first.iter().zip(&second).enumerate() {
        assert_eq!(a, b, "event {} differs between runs", i + 1);
    }
    assert_eq!(state, state2);
    // The script exercises both outcomes, with dense ids.
    let accepted = events.iter().filter(|e| e.outcome.is_ok()).count();
    assert!(
        accepted >= 20 && SCRIPT.len() - accepted >= 10,
        "{accepted} accepted"
    );
    for (i, e) in events.iter().enumerate() {
        assert_eq!(e.id, i as u64 + 1);
    }
}

#[test]
fn events_round_trip_through_json() {
    let (events, lines, _) = run_script();
    for (e, line) in events.iter().zip(&lines) {
        let back: Event = serde_json::from_str(line)
            .unwrap_or_else(|err| panic!("event {} does not parse back: {err}\n{line}", e.id));
        assert_eq!(&back, e, "event {} changes through JSON", e.id);
        assert_eq!(&serde_json::to_string(&back).unwrap(), line);
    }
    // A rejection carries its code, message and hint as an object.
    let rejected: serde_json::Value = serde_json::from_str(&lines[1]).unwrap();
    assert_eq!(rejected["outcome"]["code"], "unknown_entity");
    assert_eq!(rejected["skill"], "pick");
    let accepted: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
    assert_eq!(accepted["outcome"], "ok");
}

// ------------------------------------------------------ known executor bugs

/// Ids of the fixtures (furniture and devices) in `rooms` matching `pred`,
/// and of the openable doors of `rooms` if `doors`.
fn fixtures_in(
    sim: &Simulation,
    rooms: &[&str],
    pred: impl Fn(&[scene::Surface], scene::Openable) -> bool,
    doors: bool,
) -> BTreeSet<String> {
    let s = sim.scene();
    let here = |r: &Id| rooms.contains(&r.as_str());
    let furniture = s
        .furniture
        .iter()
        .filter(|f| here(&f.room) && pred(&f.surfaces, f.openable))
        .map(|f| f.id.to_string());
    let devices = s
        .devices
        .iter()
        .filter(|d| here(&d.room) && pred(&d.surfaces, d.openable))
        .map(|d| d.id.to_string());
    let door_ids = s
        .doors
        .iter()
        .filter(|d| doors && d.openable && (here(&d.rooms.0) || here(&d.rooms.1)))
        .map(|d| d.id.to_string());
    furniture.chain(devices).chain(door_ids).collect()
}

fn suggested(hint: &str) -> Vec<String> {
    let (_, list) = hint.rsplit_once(": ").expect("a hint with a list");
    list.split(", ").map(str::to_string).collect()
}

#[test]
fn rejected_requests_do_not_advance_the_clock() {
    let mut sim = new_sim();
    ok(
        &mut sim,
        r#"{"actor":"robot","skill":"wait","args":{"seconds":10}}"#,
    );
    let now = sim.now();
    rejected(
        &mut sim,
        r#"{"actor":"ghost","skill":"wait","args":{"seconds":5},"at":1000000000}"#,
        RejectionCode::UnknownActor,
    );
    rejected(
        &mut sim,
        r#"{"actor":"robot","skill":"pick","args":{"object":"mug_9"},"at":1000000000}"#,
        RejectionCode::UnknownEntity,
    );
    assert_eq!(sim.now(), now, "rejected requests moved the clock");
    let e = ok(
        &mut sim,
        r#"{"actor":"robot","skill":"wait","args":{"seconds":5},"at":5000}"#,
    );
    assert_eq!(e.t, 5000);
}

#[test]
fn nearby_suggestions_are_near() {
    let mut sim = new_sim();
    ok(
        &mut sim,
        r#"{"actor":"robot","skill":"navigate_to","args":{"target":"counter_1"}}"#,
    );
    ok(
        &mut sim,
        r#"{"actor":"robot","skill":"pick","args":{"object":"cup_2"}}"#,
    );
    let r = rejected(
        &mut sim,
        r#"{"actor":"robot","skill":"place","args":{"object":"cup_2","target":"coffee_machine_1","relation":"on"}}"#,
        RejectionCode::NotAReceptacle,
    );
    let kitchen = fixtures_in(&sim, &["kitchen"], |s, _| !s.is_empty(), false);
    for id in suggested(&r.hint) {
        assert!(
            kitchen.contains(&id),
            "{id} in {:?} is not in the kitchen",
            r.hint
        );
    }
    // arch_kitchen_hallway joins the kitchen and the hallway.
    let r = rejected(
        &mut sim,
        r#"{"actor":"robot","skill":"close","args":{"target":"arch_kitchen_hallway"}}"#,
        RejectionCode::NotOpenable,
    );
    let near = fixtures_in(
        &sim,
        &["kitchen", "hallway"],
        |_, o| o != scene::Openable::No,
        true,
    );
    for id in suggested(&r.hint) {
        assert!(
            near.contains(&id),
            "{id} in {:?} is not near the arch",
            r.hint
        );
    }
}

#[test]
fn unknown_actor_hint_lists_every_actor() {
    let mut sim = new_sim();
    for actor in ["robott", "mug_1"] {
        let json = format!(r#"{{"actor":"{actor}","skill":"wait","args":{{"seconds":5}}}}"#);
        let r = rejected(&mut sim, &json, RejectionCode::UnknownActor);
        let mut listed = suggested(&r.hint);
        listed.sort();
        assert_eq!(listed, ACTORS, "{:?}", r.hint);
    }
}

/// The front door is heard through the wall: the robot in the kitchen
/// knows Bob went out, not that he took his keys (docs/visibility.md).
#[test]
fn a_departure_heard_through_a_wall_shows_who_went_not_what_they_took() {
    let mut sim = new_sim();
    ok(
        &mut sim,
        r#"{"actor":"robot","skill":"navigate_to","args":{"target":"counter_1"}}"#,
    );
    let e = ok(
        &mut sim,
        r#"{"actor":"bob","skill":"leave","args":{"door":"front_door","to":"work","take":["keys_2"]}}"#,
    );
    assert!(e.heard_by.contains(&id("robot")), "{e:?}");
    assert!(e.heard_by.iter().all(|h| e.observers.contains(h)) && !e.heard_by.contains(&id("bob")));
    let keys = (id("keys_2"), id("location"));
    let carried = Value::Location(Location::CarriedBy(id("bob")));
    for o in &e.observers {
        let believed = sim
            .beliefs(o.as_str())
            .unwrap()
            .get(&keys)
            .map(|b| b.value.clone());
        if e.heard_by.contains(o) {
            assert_ne!(believed, Some(carried.clone()), "{o} only heard it");
        } else {
            assert_eq!(believed, Some(carried.clone()), "{o} saw it");
        }
    }
    // Who went out is known all the same.
    let bob = &sim.beliefs("robot").unwrap()[&(id("bob"), id("position"))];
    assert!(matches!(&bob.value, Value::Position(p) if p.room.as_str() == "outside"));
}

/// `use`: a serving down, seen by who is in the room, with what is left
/// seen again on the next look; absent from the state until then.
#[test]
fn use_takes_a_serving_and_is_perceived() {
    let mut sim = new_sim();
    let level = (Id::new("milk_1"), Id::new("level"));
    assert_eq!(sim.state().get(&level), None, "absent until first used");
    assert_eq!(sim.level("milk_1"), Some(6));
    assert_eq!(sim.level("cup_2"), None);
    ok(
        &mut sim,
        r#"{"actor":"alice","skill":"navigate_to","args":{"target":"fridge_1"}}"#,
    );
    ok(
        &mut sim,
        r#"{"actor":"alice","skill":"open","args":{"target":"fridge_1"}}"#,
    );
    let e = ok(
        &mut sim,
        r#"{"actor":"alice","skill":"use","args":{"object":"milk_1"}}"#,
    );
    assert_eq!(
        e.changes,
        vec![Change {
            entity: Id::new("milk_1"),
            attr: Id::new("level"),
            old: Value::Int(6),
            new: Value::Int(5),
        }]
    );
    assert_eq!(e.dur, 5);
    assert_eq!(sim.state().get(&level), Some(&Value::Int(5)));
    assert_eq!(sim.level("milk_1"), Some(5));
    let believes = |sim: &Simulation, who: &str| {
        sim.beliefs(who)
            .and_then(|b| b.get(&level).map(|b| b.value.clone()))
    };
    assert_eq!(believes(&sim, "alice"), Some(Value::Int(5)));
    assert_eq!(
        believes(&sim, "robot"),
        None,
        "the robot is elsewhere: it did not see the milk poured"
    );
    // The robot's look into the open fridge shows what is left.
    ok(
        &mut sim,
        r#"{"actor":"robot","skill":"navigate_to","args":{"target":"kitchen"}}"#,
    );
    assert_eq!(believes(&sim, "robot"), Some(Value::Int(5)));
    // Held, it is used where the holder stands.
    ok(
        &mut sim,
        r#"{"actor":"alice","skill":"pick","args":{"object":"milk_1"}}"#,
    );
    ok(
        &mut sim,
        r#"{"actor":"alice","skill":"navigate_to","args":{"target":"living_room"}}"#,
    );
    let e = ok(
        &mut sim,
        r#"{"actor":"alice","skill":"use","args":{"object":"milk_1"}}"#,
    );
    assert_eq!(e.changes[0].new, Value::Int(4));
    assert!(!e.observers.contains(&Id::new("robot")));
    assert_eq!(believes(&sim, "robot"), Some(Value::Int(5)), "last seen");
}

/// `write`: the list reads what was written, seen by who is in the room
/// and read again on the next look; absent from the state until then.
#[test]
fn write_sets_what_a_list_reads_and_is_read_on_the_next_look() {
    let mut sim = new_sim();
    let text = (Id::new("shopping_list_1"), Id::new("text"));
    assert_eq!(sim.state().get(&text), None, "absent until first written");
    assert_eq!(sim.text("shopping_list_1"), None);
    ok(
        &mut sim,
        r#"{"actor":"alice","skill":"navigate_to","args":{"target":"fridge_1"}}"#,
    );
    let e = ok(
        &mut sim,
        r#"{"actor":"alice","skill":"write","args":{"object":"shopping_list_1","text":"milk"}}"#,
    );
    assert_eq!(
        e.changes,
        vec![Change {
            entity: Id::new("shopping_list_1"),
            attr: Id::new("text"),
            old: Value::Text(String::new()),
            new: Value::Text("milk".into()),
        }]
    );
    assert_eq!(e.dur, 10);
    assert_eq!(sim.text("shopping_list_1"), Some("milk"));
    let believes = |sim: &Simulation, who: &str| {
        sim.beliefs(who)
            .and_then(|b| b.get(&text).map(|b| b.value.clone()))
    };
    assert_eq!(believes(&sim, "alice"), Some(Value::Text("milk".into())));
    assert_eq!(believes(&sim, "robot"), None, "the robot is in the hallway");
    // Taken along and written on elsewhere: out of the robot's sight.
    ok(
        &mut sim,
        r#"{"actor":"alice","skill":"pick","args":{"object":"shopping_list_1"}}"#,
    );
    ok(
        &mut sim,
        r#"{"actor":"alice","skill":"navigate_to","args":{"target":"living_room"}}"#,
    );
    ok(
        &mut sim,
        r#"{"actor":"alice","skill":"write","args":{"object":"shopping_list_1","text":"milk, bread"}}"#,
    );
    // Bob is not holding it: refused, and nothing changes.
    let r = rejected(
        &mut sim,
        r#"{"actor":"bob","skill":"write","args":{"object":"shopping_list_1","text":""}}"#,
        RejectionCode::HeldByOther,
    );
    assert!(r.hint.contains("alice"), "{r:?}");
    assert_eq!(sim.text("shopping_list_1"), Some("milk, bread"));
    // The robot sees it, with what it reads, once it sees the list.
    ok(
        &mut sim,
        r#"{"actor":"robot","skill":"navigate_to","args":{"target":"living_room"}}"#,
    );
    assert_eq!(
        believes(&sim, "robot"),
        Some(Value::Text("milk, bread".into()))
    );
    // Crossed off to blank: a text like any other.
    let e = ok(
        &mut sim,
        r#"{"actor":"alice","skill":"write","args":{"object":"shopping_list_1","text":""}}"#,
    );
    assert_eq!(e.changes[0].new, Value::Text(String::new()));
    assert_eq!(believes(&sim, "robot"), Some(Value::Text(String::new())));
}
