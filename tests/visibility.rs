//! Visibility: who perceives what, and the robot's last-seen view.

use hearth::ids::Id;
use hearth::scene;
use hearth::sim::Simulation;
use hearth::trace::request::Request;
use hearth::trace::{Event, Location, RejectionCode, Value};

fn apartment() -> Simulation {
    let src = scene::BUILTIN
        .iter()
        .find(|(id, _)| *id == "family_apartment")
        .unwrap()
        .1;
    Simulation::new(scene::parse("family_apartment", src).unwrap()).unwrap()
}

fn exec(sim: &mut Simulation, json: &str) -> Event {
    let e = sim.execute(Request::from_json(json).unwrap());
    assert!(e.outcome.is_ok(), "{json}: {:?}", e.outcome);
    sim.check_invariants().unwrap();
    e
}

fn go(sim: &mut Simulation, actor: &str, target: &str) -> Event {
    exec(
        sim,
        &format!(r#"{{"actor":"{actor}","skill":"navigate_to","args":{{"target":"{target}"}}}}"#),
    )
}

fn believed(sim: &Simulation, actor: &str, entity: &str, attr: &str) -> Option<Value> {
    sim.beliefs(actor)
        .unwrap()
        .get(&(Id::new(entity), Id::new(attr)))
        .map(|b| b.value.clone())
}

fn loc(rel: &str, at: &str) -> Option<Value> {
    let at = Id::new(at);
    Some(Value::Location(match rel {
        "on" => Location::On(at),
        "in" => Location::In(at),
        _ => Location::HeldBy(at),
    }))
}

fn ids(v: &[Id]) -> Vec<&str> {
    v.iter().map(|i| i.as_str()).collect()
}

#[test]
fn an_action_is_seen_by_everyone_in_the_room() {
    let mut sim = apartment();
    go(&mut sim, "robot", "dining_table_1");
    go(&mut sim, "alice", "counter_1");
    let e = exec(
        &mut sim,
        r#"{"actor":"alice","skill":"pick","args":{"object":"bread_1"}}"#,
    );
    assert_eq!(ids(&e.observers), ["alice", "robot"]);
    assert_eq!(
        believed(&sim, "robot", "bread_1", "location"),
        loc("held_by", "alice")
    );
}

#[test]
fn an_action_in_another_room_is_unseen_and_the_belief_goes_stale() {
    let mut sim = apartment();
    go(&mut sim, "robot", "counter_1");
    assert_eq!(
        believed(&sim, "robot", "bread_1", "location"),
        loc("on", "counter_1")
    );
    go(&mut sim, "robot", "sofa_1");
    go(&mut sim, "bob", "counter_1");
    let e = exec(
        &mut sim,
        r#"{"actor":"bob","skill":"pick","args":{"object":"bread_1"}}"#,
    );
    // The kitchen and the living room are joined by an archway, but sight
    // does not carry between rooms: only bob saw it.
    assert_eq!(ids(&e.observers), ["bob"]);
    assert_eq!(
        believed(&sim, "robot", "bread_1", "location"),
        loc("on", "counter_1"),
        "a hidden change leaves the old belief"
    );
    let b = &sim.beliefs("robot").unwrap()[&(Id::new("bread_1"), Id::new("location"))];
    assert_eq!(b.contradicted_at, None);
    // Back in the kitchen the robot sees the bread is gone, and where it is now.
    go(&mut sim, "bob", "dining_table_1");
    exec(
        &mut sim,
        r#"{"actor":"bob","skill":"place","args":{"object":"bread_1","target":"dining_table_1","relation":"on"}}"#,
    );
    go(&mut sim, "robot", "counter_1");
    assert_eq!(
        believed(&sim, "robot", "bread_1", "location"),
        loc("on", "dining_table_1")
    );
}

#[test]
fn an_object_carried_out_of_sight_is_marked_missing() {
    let mut sim = apartment();
    go(&mut sim, "robot", "counter_1");
    go(&mut sim, "robot", "sofa_1");
    go(&mut sim, "bob", "counter_1");
    exec(
        &mut sim,
        r#"{"actor":"bob","skill":"pick","args":{"object":"bread_1"}}"#,
    );
    go(&mut sim, "bob", "desk_study");
    let back = go(&mut sim, "robot", "counter_1");
    let b = &sim.beliefs("robot").unwrap()[&(Id::new("bread_1"), Id::new("location"))];
    assert_eq!(
        b.value,
        loc("on", "counter_1").unwrap(),
        "the last seen place is kept"
    );
    assert_eq!(
        b.contradicted_at,
        Some(back.t),
        "and flagged as no longer true"
    );
}

#[test]
fn closed_containers_hide_their_contents_until_opened() {
    let mut sim = apartment();
    let arrive = go(&mut sim, "robot", "cabinet_1");
    assert!(
        !arrive.reveals.iter().any(|f| f.entity.as_str() == "mug_1"),
        "mug_1 is in the closed cabinet"
    );
    assert!(
        arrive
            .reveals
            .iter()
            .any(|f| f.entity.as_str() == "bread_1"),
        "things on the counter are in plain sight"
    );
    assert_eq!(believed(&sim, "robot", "mug_1", "location"), None);
    assert_eq!(
        believed(&sim, "robot", "cabinet_1", "open"),
        Some(Value::Bool(false))
    );
    let open = exec(
        &mut sim,
        r#"{"actor":"robot","skill":"open","args":{"target":"cabinet_1"}}"#,
    );
    assert!(open.reveals.iter().any(|f| f.entity.as_str() == "mug_1"));
    assert_eq!(ids(&open.revealed_to), ["robot"]);
    assert_eq!(
        believed(&sim, "robot", "mug_1", "location"),
        loc("in", "cabinet_1")
    );
}

#[test]
fn things_put_away_by_others_stay_unseen_until_the_robot_looks() {
    let mut sim = apartment();
    go(&mut sim, "alice", "counter_1");
    exec(
        &mut sim,
        r#"{"actor":"alice","skill":"pick","args":{"object":"bread_1"}}"#,
    );
    go(&mut sim, "alice", "cabinet_1");
    exec(
        &mut sim,
        r#"{"actor":"alice","skill":"open","args":{"target":"cabinet_1"}}"#,
    );
    exec(
        &mut sim,
        r#"{"actor":"alice","skill":"place","args":{"object":"bread_1","target":"cabinet_1","relation":"in"}}"#,
    );
    exec(
        &mut sim,
        r#"{"actor":"alice","skill":"close","args":{"target":"cabinet_1"}}"#,
    );
    let arrive = go(&mut sim, "robot", "cabinet_1");
    assert!(
        !arrive
            .reveals
            .iter()
            .any(|f| f.entity.as_str() == "bread_1")
    );
    assert_eq!(believed(&sim, "robot", "bread_1", "location"), None);
    // Inspecting a closed cabinet shows that it is closed, not what is inside.
    let look = exec(
        &mut sim,
        r#"{"actor":"robot","skill":"inspect","args":{"target":"cabinet_1"}}"#,
    );
    assert!(!look.reveals.iter().any(|f| f.entity.as_str() == "bread_1"));
    exec(
        &mut sim,
        r#"{"actor":"robot","skill":"open","args":{"target":"cabinet_1"}}"#,
    );
    let look = exec(
        &mut sim,
        r#"{"actor":"robot","skill":"inspect","args":{"target":"cabinet_1"}}"#,
    );
    assert!(
        look.reveals
            .iter()
            .any(|f| f.entity.as_str() == "bread_1" && f.value == loc("in", "cabinet_1").unwrap())
    );
    assert_eq!(
        believed(&sim, "robot", "bread_1", "location"),
        loc("in", "cabinet_1")
    );
}

#[test]
fn inspecting_a_device_refreshes_its_state() {
    let mut sim = apartment();
    go(&mut sim, "robot", "sofa_1");
    // Bob turns the tv on from the kitchen through its app: the tv's room sees it.
    go(&mut sim, "bob", "counter_1");
    let e = exec(
        &mut sim,
        r#"{"actor":"bob","skill":"set_device_state","args":{"device":"tv_1","field":"power","value":true}}"#,
    );
    assert_eq!(ids(&e.observers), ["bob", "robot"]);
    assert_eq!(
        believed(&sim, "robot", "tv_1", "power"),
        Some(Value::Bool(true))
    );
    // A remote change while nobody is in the device's room is seen by the
    // actor alone, even by those beside it (a tap on a phone shows nothing).
    go(&mut sim, "robot", "counter_1");
    let e = exec(
        &mut sim,
        r#"{"actor":"bob","skill":"set_device_state","args":{"device":"tv_1","field":"volume","value":40}}"#,
    );
    assert_eq!(ids(&e.observers), ["bob"]);
    assert_eq!(
        believed(&sim, "robot", "tv_1", "volume"),
        Some(Value::Int(15))
    );
    go(&mut sim, "robot", "tv_1");
    assert_eq!(
        believed(&sim, "robot", "tv_1", "volume"),
        Some(Value::Int(40))
    );
    let look = exec(
        &mut sim,
        r#"{"actor":"robot","skill":"inspect","args":{"target":"tv_1"}}"#,
    );
    assert!(look.reveals.iter().any(|f| f.entity.as_str() == "tv_1"
        && f.attr.as_str() == "volume"
        && f.value == Value::Int(40)));
}

#[test]
fn speech_carries_through_open_doors_and_archways_only() {
    let mut sim = apartment();
    // alice and bob in the master bedroom (door open), robot in the hallway,
    // lily in her room behind a closed door.
    let e = exec(
        &mut sim,
        r#"{"actor":"alice","skill":"say","args":{"text":"Robot, is the oven off?","to":["robot"]}}"#,
    );
    assert_eq!(ids(&e.observers), ["alice", "bob", "robot"]);
    let e = sim.execute(
        Request::from_json(
            r#"{"actor":"alice","skill":"say","args":{"text":"Lily, breakfast!","to":["lily"]}}"#,
        )
        .unwrap(),
    );
    assert_eq!(
        e.outcome.rejection().map(|r| r.code),
        Some(RejectionCode::NotInEarshot)
    );
    exec(
        &mut sim,
        r#"{"actor":"robot","skill":"open","args":{"target":"door_lily"}}"#,
    );
    // Still not: the bedroom and lily's room are two rooms apart.
    let e = sim.execute(
        Request::from_json(
            r#"{"actor":"alice","skill":"say","args":{"text":"Lily, breakfast!","to":["lily"]}}"#,
        )
        .unwrap(),
    );
    assert_eq!(
        e.outcome.rejection().map(|r| r.code),
        Some(RejectionCode::NotInEarshot)
    );
    let e = exec(
        &mut sim,
        r#"{"actor":"robot","skill":"say","args":{"text":"Lily, breakfast is ready","to":["lily"]}}"#,
    );
    assert_eq!(ids(&e.observers), ["alice", "bob", "lily", "robot"]);
    exec(
        &mut sim,
        r#"{"actor":"robot","skill":"close","args":{"target":"door_master"}}"#,
    );
    let e = exec(
        &mut sim,
        r#"{"actor":"robot","skill":"say","args":{"text":"Lily, breakfast is ready","to":["lily"]}}"#,
    );
    assert_eq!(
        ids(&e.observers),
        ["lily", "robot"],
        "the closed bedroom door blocks the parents"
    );
}

#[test]
fn doors_are_seen_from_both_sides() {
    let mut sim = apartment();
    let e = exec(
        &mut sim,
        r#"{"actor":"alice","skill":"close","args":{"target":"door_master"}}"#,
    );
    assert_eq!(
        ids(&e.observers),
        ["alice", "bob", "robot"],
        "the robot in the hallway sees the door close"
    );
    assert_eq!(
        believed(&sim, "robot", "door_master", "open"),
        Some(Value::Bool(false))
    );
}

#[test]
fn walking_is_seen_along_the_way_and_the_arrival_room_sees_the_load() {
    let mut sim = apartment();
    // Lily's door is closed: the robot opens it from the hallway first.
    exec(
        &mut sim,
        r#"{"actor":"robot","skill":"open","args":{"target":"door_lily"}}"#,
    );
    go(&mut sim, "robot", "bed_lily");
    go(&mut sim, "alice", "glasses_1");
    exec(
        &mut sim,
        r#"{"actor":"alice","skill":"pick","args":{"object":"glasses_1"}}"#,
    );
    let e = go(&mut sim, "alice", "lily");
    assert_eq!(ids(&e.via), ["hallway", "lily_room"]);
    assert_eq!(ids(&e.observers), ["alice", "bob", "lily", "robot"]);
    assert_eq!(ids(&e.revealed_to), ["alice", "lily", "robot"]);
    assert_eq!(
        believed(&sim, "robot", "glasses_1", "location"),
        loc("held_by", "alice")
    );
    assert_eq!(
        believed(&sim, "alice", "toy_1", "location"),
        loc("on", "bed_lily")
    );
}

#[test]
fn rejected_requests_are_seen_but_teach_nothing() {
    let mut sim = apartment();
    go(&mut sim, "robot", "counter_1");
    let before = sim.beliefs("robot").unwrap().clone();
    let e = sim.execute(
        Request::from_json(r#"{"actor":"robot","skill":"pick","args":{"object":"mug_1"}}"#)
            .unwrap(),
    );
    assert_eq!(
        e.outcome.rejection().unwrap().code,
        RejectionCode::NotColocated
    );
    assert_eq!(ids(&e.observers), ["robot"]);
    assert!(e.reveals.is_empty());
    assert_eq!(sim.beliefs("robot").unwrap(), &before);
}

#[test]
fn everyone_starts_knowing_their_own_room() {
    let sim = apartment();
    assert_eq!(
        believed(&sim, "alice", "glasses_1", "location"),
        loc("on", "nightstand_alice")
    );
    assert!(believed(&sim, "alice", "bob", "position").is_some());
    assert_eq!(
        believed(&sim, "alice", "medicine_3", "location"),
        None,
        "inside the closed nightstand"
    );
    assert_eq!(
        believed(&sim, "robot", "thermostat_1", "target"),
        Some(Value::Float(21.0))
    );
    assert_eq!(believed(&sim, "robot", "glasses_1", "location"), None);
}

#[test]
fn beliefs_list_in_key_order_and_hold_no_key_nobody_can_perceive() {
    let mut sim = apartment();
    go(&mut sim, "robot", "kitchen");
    let b = sim.beliefs("robot").unwrap();
    let keys: Vec<&(Id, Id)> = b.iter().map(|(k, _)| k).collect();
    assert!(keys.len() > 10, "the robot has looked around: {keys:?}");
    assert!(keys.windows(2).all(|w| w[0] < w[1]), "strictly ordered");
    assert_eq!(b.len(), keys.len());
    assert!(b.into_iter().eq(b.iter()));
    // Keys outside the table: an unknown entity, an attribute the entity
    // does not have, and a real key nobody has seen yet.
    assert!(b.get(&(Id::new("ghost_1"), Id::new("location"))).is_none());
    assert!(b.get(&(Id::new("mug_1"), Id::new("power"))).is_none());
    assert!(
        b.get(&(Id::new("medicine_3"), Id::new("location")))
            .is_none()
    );
    assert_eq!(
        b[&(Id::new("robot"), Id::new("position"))].value,
        sim.state()[&(Id::new("robot"), Id::new("position"))]
    );
}

#[test]
fn in_standby_the_robot_perceives_nothing_until_it_looks_around() {
    let mut sim = apartment();
    go(&mut sim, "robot", "dining_table_1");
    go(&mut sim, "alice", "counter_1");
    let wait = exec(
        &mut sim,
        r#"{"actor":"robot","skill":"wait","args":{"seconds":600,"standby":true}}"#,
    );
    // Alice takes the bread beside the robot while its sensors are off.
    let e = exec(
        &mut sim,
        r#"{"actor":"alice","skill":"pick","args":{"object":"bread_1"}}"#,
    );
    assert!(e.t < wait.t + wait.dur);
    assert_eq!(ids(&e.observers), ["alice"]);
    // Bob walking in shows the kitchen to him, not to the robot.
    let walk = go(&mut sim, "bob", "dining_table_1");
    assert!(walk.revealed_to.contains(&Id::new("bob")));
    assert!(!walk.observers.contains(&Id::new("robot")));
    assert!(!walk.revealed_to.contains(&Id::new("robot")));
    assert_eq!(
        believed(&sim, "robot", "bread_1", "location"),
        loc("on", "counter_1")
    );
    // Looking at another room is refused; around its own, it sees the change.
    sim.advance_to(wait.t + wait.dur);
    let elsewhere = sim.execute(
        Request::from_json(r#"{"actor":"robot","skill":"inspect","args":{"target":"bathroom"}}"#)
            .unwrap(),
    );
    assert_eq!(
        elsewhere.outcome.rejection().map(|r| r.code),
        Some(RejectionCode::NotColocated)
    );
    let look = exec(
        &mut sim,
        r#"{"actor":"robot","skill":"inspect","args":{"target":"kitchen"}}"#,
    );
    assert!(look.revealed_to.contains(&Id::new("robot")));
    assert_eq!(
        believed(&sim, "robot", "bread_1", "location"),
        loc("held_by", "alice")
    );
    // Awake again, it sees what happens beside it.
    let e = exec(
        &mut sim,
        r#"{"actor":"alice","skill":"place","args":{"object":"bread_1","target":"counter_1","relation":"on"}}"#,
    );
    assert_eq!(ids(&e.observers), ["alice", "bob", "robot"]);
}

#[test]
fn an_ordinary_wait_perceives_and_is_written_as_before() {
    let mut sim = apartment();
    go(&mut sim, "robot", "dining_table_1");
    go(&mut sim, "alice", "counter_1");
    let wait = exec(
        &mut sim,
        r#"{"actor":"robot","skill":"wait","args":{"seconds":600}}"#,
    );
    let json = serde_json::to_string(&wait.action).unwrap();
    assert!(!json.contains("standby"), "{json}");
    let e = exec(
        &mut sim,
        r#"{"actor":"alice","skill":"pick","args":{"object":"bread_1"}}"#,
    );
    assert_eq!(ids(&e.observers), ["alice", "robot"]);
}
