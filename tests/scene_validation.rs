//! Scene parsing and validation: every rule of `scene::validate` fires on a
//! scene broken in exactly one way (and stays quiet on the valid base),
//! problems are all reported and located, syntax errors carry positions,
//! no input panics, scenes round-trip through `to_ron`, and the built-in
//! scenes meet their size bars.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use hearth::ids::Id;
use hearth::scene::{
    self, ActorDef, ActorKind, DoorDef, FieldDef, ObjectDef, Openable, Placement, Rect, RoomDef,
    Scene, SceneError, Surface,
};
use proptest::prelude::*;

/// A small valid household: two rooms joined by a closed door, a table, a
/// cupboard, a charging dock, an oven with one field of every type, three
/// objects (on, in, held) and one human plus one robot.
const BASE: &str = include_str!("data/base.ron");

type Found = Vec<(String, Option<String>)>;

fn base() -> Scene {
    scene::parse("base.ron", BASE).unwrap_or_else(|e| panic!("the base scene is invalid: {e}"))
}

fn id(s: &str) -> Id {
    Id::new(s)
}

/// The (code, offending id) of every problem found when `scene` is written
/// out with `to_ron` and parsed back; empty when it is accepted.
fn problems(scene: &Scene) -> Found {
    match scene::parse("test.ron", &scene::to_ron(scene)) {
        Ok(parsed) => {
            assert_eq!(&parsed, scene, "an accepted scene must round-trip");
            Vec::new()
        }
        Err(SceneError::Invalid { problems, .. }) => {
            assert!(!problems.is_empty(), "Invalid with no problems");
            problems
                .iter()
                .map(|p| (p.code.to_string(), p.id.as_ref().map(|i| i.to_string())))
                .collect()
        }
        Err(e @ SceneError::Syntax(_)) => panic!("to_ron wrote unparsable RON: {e}"),
    }
}

fn p(code: &str, id: &str) -> (String, Option<String>) {
    (code.to_string(), Some(id.to_string()))
}

/// The base scene changed by `f`.
fn broken(f: impl FnOnce(&mut Scene)) -> Scene {
    let mut s = base();
    f(&mut s);
    s
}

/// The base is valid, and changing it by `f` gives exactly one problem:
/// `code` about `id`.
#[track_caller]
fn rejects(code: &str, offender: &str, f: impl FnOnce(&mut Scene)) {
    assert_eq!(
        problems(&base()),
        Found::new(),
        "the base scene must be valid"
    );
    assert_eq!(problems(&broken(f)), vec![p(code, offender)]);
}

/// Changing the base by `f` keeps it valid (the rule does not over-fire).
#[track_caller]
fn accepts(f: impl FnOnce(&mut Scene)) {
    assert_eq!(problems(&broken(f)), Found::new());
}

fn object(oid: &str, category: &str, description: &str, at: Placement) -> ObjectDef {
    ObjectDef {
        id: id(oid),
        category: category.into(),
        description: description.into(),
        owner: None,
        at,
        roles: vec![],
    }
}

fn room(rid: &str, x: f32, y: f32, w: f32, h: f32) -> RoomDef {
    RoomDef {
        id: id(rid),
        name: rid.into(),
        rect: Rect { x, y, w, h },
        height: 2.5,
    }
}

fn door(did: &str, a: &str, b: &str, at: (f32, f32)) -> DoorDef {
    DoorDef {
        id: id(did),
        rooms: (id(a), id(b)),
        at,
        openable: false,
        open: true,
    }
}

fn furniture<'a>(s: &'a mut Scene, fid: &str) -> &'a mut hearth::scene::FurnitureDef {
    s.furniture
        .iter_mut()
        .find(|f| f.id.as_str() == fid)
        .unwrap()
}

fn obj<'a>(s: &'a mut Scene, oid: &str) -> &'a mut ObjectDef {
    s.objects.iter_mut().find(|o| o.id.as_str() == oid).unwrap()
}

fn actor<'a>(s: &'a mut Scene, aid: &str) -> &'a mut ActorDef {
    s.actors.iter_mut().find(|a| a.id.as_str() == aid).unwrap()
}

fn oven_field(s: &mut Scene, name: &str, field: FieldDef) {
    s.devices[0].fields.insert(name.to_string(), field);
}

// ---------------------------------------------------------------------------
// 1. Every rule, one breakage at a time.
// ---------------------------------------------------------------------------

#[test]
fn base_scene_is_valid_and_uses_every_feature() {
    let s = base();
    assert_eq!(problems(&s), Found::new());
    assert_eq!(scene::validate(&s), Vec::new());
    // The base exercises what the rules look at, so "accepted" means something.
    assert_eq!(s.devices[0].fields.len(), 5);
    assert!(
        s.objects
            .iter()
            .any(|o| matches!(o.at, Placement::HeldBy(_)))
    );
    assert!(s.objects.iter().any(|o| matches!(o.at, Placement::In(_))));
    assert!(s.objects.iter().any(|o| o.owner.is_some()));
    assert!(s.doors.iter().any(|d| d.openable && !d.open));
    assert_eq!(s.rooms[0].height, 2.5, "height defaults to 2.5");
}

#[test]
fn bad_id() {
    rejects("bad_id", "Mug_1", |s| obj(s, "mug_1").id = id("Mug_1"));
    rejects("bad_id", "1mug", |s| obj(s, "mug_1").id = id("1mug"));
    rejects("bad_id", "mug-1", |s| obj(s, "mug_1").id = id("mug-1"));
    rejects("bad_id", "", |s| obj(s, "mug_1").id = id(""));
    rejects("bad_id", "Base", |s| s.id = id("Base"));
    rejects("bad_id", "door hall", |s| s.doors[0].id = id("door hall"));
    accepts(|s| obj(s, "mug_1").id = id("m_2_x"));
}

#[test]
fn duplicate_id() {
    rejects("duplicate_id", "mug_1", |s| {
        s.objects.push(object(
            "mug_1",
            "mug",
            "blue mug",
            Placement::On(id("table_1")),
        ))
    });
    // Ids are unique across kinds too: an object named like an actor.
    rejects("duplicate_id", "robot", |s| {
        s.objects.push(object(
            "robot",
            "toy",
            "toy robot",
            Placement::On(id("table_1")),
        ))
    });
    // An actor named like a room: reported, whatever else follows from it.
    let s = broken(|s| {
        let mut a = s.actors[0].clone();
        a.id = id("hall");
        a.near = None;
        s.actors.push(a);
    });
    assert_eq!(problems(&s).first(), Some(&p("duplicate_id", "hall")));
    accepts(|s| {
        s.objects.push(object(
            "mug_2",
            "mug",
            "blue mug",
            Placement::On(id("table_1")),
        ))
    });
}

#[test]
fn duplicate_id_does_not_cascade() {
    // The room `hall` is defined first; an actor reuses the id later. The
    // door into the hall, the dock in the hall and the robot in the hall are
    // all fine; only the duplicate should be reported. Today the validator
    // also reports: wrong_kind door_hall ("room hall is an actor"),
    // unreachable_room hall ("add a door"), wrong_kind dock_1 and
    // actor_outside_house robot.
    rejects("duplicate_id", "hall", |s| {
        let mut a = s.actors[0].clone();
        a.id = id("hall");
        a.near = None;
        s.actors.push(a);
    });
}

#[test]
fn no_rooms() {
    assert_eq!(problems(&base()), Found::new());
    let s = broken(|s| {
        s.rooms.clear();
        s.doors.clear();
        s.furniture.clear();
        s.devices.clear();
        s.objects.clear();
    });
    // With no rooms, the actors cannot start anywhere either.
    assert_eq!(
        problems(&s),
        vec![
            p("no_rooms", "base"),
            p("actor_outside_house", "ann"),
            p("actor_outside_house", "robot")
        ]
    );
}

#[test]
fn wrong_kind() {
    rejects("wrong_kind", "mug_1", |s| {
        obj(s, "mug_1").at = Placement::On(id("kitchen"))
    });
    rejects("wrong_kind", "plate_1", |s| {
        obj(s, "plate_1").owner = Some(id("table_1"))
    });
    rejects("wrong_kind", "keys_1", |s| {
        obj(s, "keys_1").at = Placement::HeldBy(id("dock_1"))
    });
    // A door into furniture: also leaves the hall without a door.
    let s = broken(|s| s.doors[0].rooms.1 = id("table_1"));
    assert_eq!(
        problems(&s),
        vec![p("wrong_kind", "door_hall"), p("unreachable_room", "hall")]
    );
    accepts(|s| obj(s, "mug_1").at = Placement::In(id("oven_1")));
}

#[test]
fn unknown_room() {
    rejects("unknown_room", "oven_1", |s| {
        s.devices[0].room = id("attic")
    });
    rejects("unknown_room", "cupboard_1", |s| {
        furniture(s, "cupboard_1").room = id("attic")
    });
    let s = broken(|s| s.doors[0].rooms.0 = id("attic"));
    assert_eq!(
        problems(&s),
        vec![
            p("unknown_room", "door_hall"),
            p("unreachable_room", "hall")
        ]
    );
}

#[test]
fn unknown_actor() {
    rejects("unknown_actor", "plate_1", |s| {
        obj(s, "plate_1").owner = Some(id("bob"))
    });
    rejects("unknown_actor", "keys_1", |s| {
        obj(s, "keys_1").at = Placement::HeldBy(id("bob"))
    });
    accepts(|s| obj(s, "plate_1").owner = Some(id("robot")));
    accepts(|s| obj(s, "keys_1").at = Placement::HeldBy(id("robot")));
}

#[test]
fn unknown_id() {
    rejects("unknown_id", "mug_1", |s| {
        obj(s, "mug_1").at = Placement::On(id("shelf_9"))
    });
    rejects("unknown_id", "plate_1", |s| {
        obj(s, "plate_1").at = Placement::In(id("shelf_9"))
    });
    rejects("unknown_id", "ann", |s| {
        actor(s, "ann").near = Some(id("sofa_9"))
    });
    rejects("unknown_id", "ann", |s| {
        actor(s, "ann").near = Some(id("mug_1"))
    });
    accepts(|s| actor(s, "ann").near = Some(id("oven_1")));
    accepts(|s| actor(s, "ann").near = None);
}

#[test]
fn bad_geometry() {
    rejects("bad_geometry", "kitchen", |s| s.rooms[0].height = 0.0);
    rejects("bad_geometry", "kitchen", |s| s.rooms[0].height = f32::NAN);
    rejects("bad_geometry", "hall", |s| s.rooms[1].height = -2.4);
    rejects("bad_geometry", "hall", |s| {
        s.rooms[1].rect.w = f32::INFINITY
    });
    rejects("bad_geometry", "table_1", |s| {
        furniture(s, "table_1").size.2 = 0.0
    });
    rejects("bad_geometry", "table_1", |s| {
        furniture(s, "table_1").size.2 = f32::INFINITY
    });
    rejects("bad_geometry", "oven_1", |s| s.devices[0].size.2 = -0.9);
    // A zero-width or upside-down room: also nothing fits in it any more.
    for rect in [(0.0, 3.0), (4.0, -3.0)] {
        let s = broken(|s| (s.rooms[0].rect.w, s.rooms[0].rect.h) = rect);
        let found = problems(&s);
        assert_eq!(
            found.first(),
            Some(&p("bad_geometry", "kitchen")),
            "{found:?}"
        );
        assert_eq!(
            found.iter().filter(|f| f.0 == "bad_geometry").count(),
            1,
            "{found:?}"
        );
    }
    accepts(|s| s.rooms[0].height = 0.1);
    accepts(|s| {
        s.rooms[0].rect = Rect {
            x: -4.0,
            y: 0.0,
            w: 8.0,
            h: 3.0,
        }
    });
}

#[test]
fn rooms_overlap() {
    // A pantry overlapping the kitchen's east side, with a door on the
    // pantry's far wall into the hall: the overlap is reported on the later room.
    let s = broken(|s| {
        s.rooms.push(room("pantry", 3.0, 0.0, 1.0, 1.0));
        s.doors
            .push(door("door_pantry", "kitchen", "pantry", (4.0, 0.5)));
    });
    assert!(
        problems(&s).contains(&p("rooms_overlap", "pantry")),
        "{:?}",
        problems(&s)
    );
    // Rooms that only touch (shared wall) do not overlap.
    accepts(|s| {
        s.rooms.push(room("pantry", 0.0, 3.0, 4.0, 1.0));
        s.doors
            .push(door("door_pantry", "kitchen", "pantry", (2.0, 3.0)));
    });
}

#[test]
fn door_same_room() {
    rejects("door_same_room", "door_loop", |s| {
        s.doors
            .push(door("door_loop", "kitchen", "kitchen", (0.0, 1.0)))
    });
}

#[test]
fn door_state() {
    rejects("door_state", "door_hall", |s| s.doors[0].openable = false);
    accepts(|s| s.doors[0].open = true);
    accepts(|s| {
        s.doors[0].openable = false;
        s.doors[0].open = true;
    });
}

#[test]
fn door_not_on_wall() {
    rejects("door_not_on_wall", "door_hall", |s| {
        s.doors[0].at = (2.0, 1.5)
    });
    // On the kitchen's wall, but not on the hall's.
    rejects("door_not_on_wall", "door_hall", |s| {
        s.doors[0].at = (0.0, 1.5)
    });
    // Beyond the end of the shared wall.
    rejects("door_not_on_wall", "door_hall", |s| {
        s.doors[0].at = (4.0, 3.5)
    });
    // Within the 5 cm tolerance of the shared wall.
    accepts(|s| s.doors[0].at = (4.03, 1.5));
    // A door needs 30 cm of wall on either side of its centre.
    accepts(|s| s.doors[0].at = (4.0, 2.7));
    rejects("door_not_on_wall", "door_hall", |s| {
        s.doors[0].at = (4.0, 2.9)
    });
}

#[test]
fn door_not_on_wall_corner_only_contact() {
    // The cellar touches the kitchen only at the kitchen's corner (4, 3).
    rejects("door_not_on_wall", "door_cellar", |s| {
        s.rooms.push(room("cellar", 4.0, 3.0, 2.0, 2.0));
        s.doors
            .push(door("door_cellar", "kitchen", "cellar", (4.0, 3.0)));
    });
}

#[test]
fn unreachable_room() {
    rejects("unreachable_room", "hall", |s| s.doors.clear());
    rejects("unreachable_room", "attic", |s| {
        s.rooms.push(room("attic", 0.0, 3.0, 4.0, 2.0))
    });
    // Reachable through another room counts.
    accepts(|s| {
        s.rooms.push(room("attic", 4.0, 3.0, 2.0, 2.0));
        s.doors
            .push(door("door_attic", "hall", "attic", (5.0, 3.0)));
    });
}

#[test]
fn empty_kind() {
    rejects("empty_kind", "table_1", |s| {
        furniture(s, "table_1").kind = String::new()
    });
    rejects("empty_kind", "oven_1", |s| s.devices[0].kind = " \t".into());
}

#[test]
fn outside_room() {
    rejects("outside_room", "table_1", |s| {
        furniture(s, "table_1").pos = (3.9, 1.5)
    });
    rejects("outside_room", "oven_1", |s| s.devices[0].pos = (3.0, -0.1));
    // Placed where the hall is, but said to be in the kitchen.
    rejects("outside_room", "cupboard_1", |s| {
        furniture(s, "cupboard_1").pos = (5.0, 0.3)
    });
    // Flush against the walls is inside.
    accepts(|s| furniture(s, "table_1").pos = (3.4, 2.6));
}

#[test]
fn bad_surface() {
    rejects("bad_surface", "cupboard_1", |s| {
        furniture(s, "cupboard_1").surfaces = vec![Surface::On(0), Surface::In(3)]
    });
    rejects("bad_surface", "table_1", |s| {
        furniture(s, "table_1").surfaces = vec![Surface::On(2), Surface::On(1)]
    });
    rejects("bad_surface", "oven_1", |s| {
        s.devices[0].surfaces = vec![Surface::In(1), Surface::In(1)]
    });
    accepts(|s| furniture(s, "table_1").surfaces = vec![Surface::In(2), Surface::On(2)]);
}

#[test]
fn no_fields() {
    rejects("no_fields", "oven_1", |s| s.devices[0].fields.clear());
    accepts(|s| {
        s.devices[0].fields.clear();
        oven_field(s, "power", FieldDef::Bool(true));
    });
}

#[test]
fn bad_field() {
    use FieldDef::*;
    let int = |value, min, max| Int { value, min, max };
    let float = |value, min, max| Float { value, min, max };
    let en = |value: &str, options: &[&str]| Enum {
        value: value.into(),
        options: options.iter().map(|o| o.to_string()).collect(),
    };
    let cases: Vec<(&str, &str, FieldDef)> = vec![
        ("int min > max", "temperature", int(0, 10, 5)),
        ("int below min", "temperature", int(-1, 0, 250)),
        ("int above max", "temperature", int(251, 0, 250)),
        ("float min > max", "fan", float(0.5, 1.0, 0.0)),
        ("float below min", "fan", float(-0.1, 0.0, 1.0)),
        ("float above max", "fan", float(1.5, 0.0, 1.0)),
        ("float NaN value", "fan", float(f64::NAN, 0.0, 1.0)),
        ("float infinite max", "fan", float(0.5, 0.0, f64::INFINITY)),
        (
            "float infinite min",
            "fan",
            float(0.5, f64::NEG_INFINITY, 1.0),
        ),
        (
            "timer above max",
            "timer",
            Timer {
                value: 3601,
                max: 3600,
            },
        ),
        (
            "enum value not an option",
            "mode",
            en("roast", &["bake", "grill"]),
        ),
        ("enum with no options", "mode", en("bake", &[])),
        (
            "enum options repeat",
            "mode",
            en("bake", &["bake", "grill", "bake"]),
        ),
    ];
    for (what, name, field) in cases {
        assert_eq!(
            problems(&broken(|s| oven_field(s, name, field))),
            vec![p("bad_field", "oven_1")],
            "{what}"
        );
    }
    for bad_name in ["Power", "2power", "power level", "power-level", ""] {
        assert_eq!(
            problems(&broken(|s| oven_field(s, bad_name, Bool(false)))),
            vec![p("bad_field", "oven_1")],
            "field name {bad_name:?}"
        );
    }
    // The edges of every range are fine.
    accepts(|s| oven_field(s, "temperature", int(250, 0, 250)));
    accepts(|s| oven_field(s, "temperature", int(-5, -5, -5)));
    accepts(|s| oven_field(s, "fan", float(0.0, 0.0, 1.0)));
    accepts(|s| oven_field(s, "fan", float(-1.5, -2.0, -1.0)));
    accepts(|s| {
        oven_field(
            s,
            "timer",
            Timer {
                value: 3600,
                max: 3600,
            },
        )
    });
    accepts(|s| oven_field(s, "timer", Timer { value: 0, max: 0 }));
    accepts(|s| oven_field(s, "mode", en("grill", &["bake", "grill"])));
    accepts(|s| oven_field(s, "power_2", Bool(true)));
}

#[test]
fn no_such_surface() {
    rejects("no_such_surface", "mug_1", |s| {
        obj(s, "mug_1").at = Placement::In(id("table_1"))
    });
    rejects("no_such_surface", "mug_1", |s| {
        obj(s, "mug_1").at = Placement::On(id("oven_1"))
    });
    accepts(|s| obj(s, "mug_1").at = Placement::On(id("cupboard_1")));
}

#[test]
fn not_a_receptacle() {
    rejects("not_a_receptacle", "mug_1", |s| {
        obj(s, "mug_1").at = Placement::On(id("dock_1"))
    });
    rejects("not_a_receptacle", "plate_1", |s| {
        obj(s, "plate_1").at = Placement::In(id("dock_1"))
    });
}

#[test]
fn capacity_exceeded() {
    let on_table = |oid: &str| object(oid, "cup", oid, Placement::On(id("table_1")));
    // The table holds two: mug_1 plus one more is full, plus two is too many.
    accepts(|s| s.objects.push(on_table("cup_1")));
    rejects("capacity_exceeded", "table_1", |s| {
        s.objects.push(on_table("cup_1"));
        s.objects.push(on_table("cup_2"));
    });
    // The oven holds one thing inside.
    rejects("capacity_exceeded", "oven_1", |s| {
        s.objects.push(object(
            "tray_1",
            "tray",
            "baking tray",
            Placement::In(id("oven_1")),
        ));
        s.objects.push(object(
            "tray_2",
            "tray",
            "pizza tray",
            Placement::In(id("oven_1")),
        ));
    });
    // On and In are counted separately: the cupboard takes 1 on top, 3 inside.
    accepts(|s| {
        s.objects.push(object(
            "jar_1",
            "jar",
            "jam jar",
            Placement::On(id("cupboard_1")),
        ));
        s.objects.push(object(
            "jar_2",
            "jar",
            "honey jar",
            Placement::In(id("cupboard_1")),
        ));
        s.objects.push(object(
            "jar_3",
            "jar",
            "salt jar",
            Placement::In(id("cupboard_1")),
        ));
    });
    // Hands: the robot has one, Ann has two.
    let held = |oid: &str, by: &str| object(oid, "ball", oid, Placement::HeldBy(id(by)));
    accepts(|s| s.objects.push(held("ball_1", "robot")));
    rejects("capacity_exceeded", "robot", |s| {
        s.objects.push(held("ball_1", "robot"));
        s.objects.push(held("ball_2", "robot"));
    });
    accepts(|s| s.objects.push(held("ball_1", "ann")));
    accepts(|s| actor(s, "ann").hands = 1);
    let s = broken(|s| {
        actor(s, "ann").hands = 1;
        s.objects.push(held("ball_1", "ann"));
    });
    assert_eq!(problems(&s), vec![p("capacity_exceeded", "ann")]);
}

#[test]
fn empty_description() {
    rejects("empty_description", "mug_1", |s| {
        obj(s, "mug_1").description = String::new()
    });
    rejects("empty_description", "mug_1", |s| {
        obj(s, "mug_1").description = "  ".into()
    });
    rejects("empty_description", "mug_1", |s| {
        obj(s, "mug_1").category = String::new()
    });
}

#[test]
fn look_alike() {
    let twin = |s: &mut Scene| {
        let mut o = obj(s, "mug_1").clone();
        o.id = id("mug_2");
        o
    };
    rejects("look_alike", "mug_2", |s| {
        let o = twin(s);
        s.objects.push(o);
    });
    // Same category, told apart by description, or by owner.
    accepts(|s| {
        let mut o = twin(s);
        o.description = "blue mug".into();
        s.objects.push(o);
    });
    accepts(|s| {
        let mut o = twin(s);
        o.owner = Some(id("ann"));
        s.objects.push(o);
    });
}

#[test]
fn actor_outside_house() {
    rejects("actor_outside_house", "ann", |s| {
        actor(s, "ann").room = id("garden")
    });
    // A room id that names furniture is not a room.
    rejects("actor_outside_house", "ann", |s| {
        actor(s, "ann").room = id("table_1")
    });
    // Near a fixture that stands in another room.
    rejects("actor_outside_house", "ann", |s| {
        actor(s, "ann").near = Some(id("dock_1"))
    });
    rejects("actor_outside_house", "robot", |s| {
        actor(s, "robot").near = Some(id("oven_1"))
    });
    accepts(|s| {
        actor(s, "ann").room = id("hall");
        actor(s, "ann").near = Some(id("dock_1"));
    });
}

#[test]
fn bad_hands() {
    rejects("bad_hands", "robot", |s| actor(s, "robot").hands = 0);
    accepts(|s| actor(s, "robot").hands = 4);
}

#[test]
fn bad_speed() {
    for speed in [0.0, -1.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        let s = broken(|s| actor(s, "robot").speed = speed);
        assert_eq!(problems(&s), vec![p("bad_speed", "robot")], "speed {speed}");
    }
    accepts(|s| actor(s, "robot").speed = 0.01);
}

#[test]
fn no_robot() {
    rejects("no_robot", "base", |s| {
        actor(s, "robot").kind = ActorKind::Human
    });
    rejects("no_robot", "base", |s| {
        s.actors.retain(|a| a.kind != ActorKind::Robot)
    });
    // Two robots and no human is fine.
    accepts(|s| actor(s, "ann").kind = ActorKind::Robot);
}

/// Every code `validate.rs` can emit is exercised above. Guards against a
/// new rule slipping in untested: the codes are read from the source.
#[test]
fn every_rule_code_is_covered() {
    let src = std::fs::read_to_string(manifest_path("src/scene/validate.rs")).unwrap();
    let mut in_source = BTreeSet::new();
    for (i, _) in src.match_indices('"') {
        let rest = &src[i + 1..];
        let Some(end) = rest.find('"') else { continue };
        let word = &rest[..end];
        if word.len() > 3 && word.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
            in_source.insert(word.to_string());
        }
    }
    let tested: BTreeSet<String> = [
        "bad_id",
        "duplicate_id",
        "no_rooms",
        "wrong_kind",
        "unknown_room",
        "unknown_actor",
        "unknown_id",
        "bad_geometry",
        "rooms_overlap",
        "door_same_room",
        "door_state",
        "door_not_on_wall",
        "unreachable_room",
        "empty_kind",
        "outside_room",
        "bad_surface",
        "no_fields",
        "bad_field",
        "no_such_surface",
        "not_a_receptacle",
        "capacity_exceeded",
        "empty_description",
        "look_alike",
        "actor_outside_house",
        "reserved_id",
        "held_outside",
        "robot_outside",
        "bad_hands",
        "bad_speed",
        "no_robot",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    // Every rule-looking literal in the validator is a tested code.
    let untested: Vec<_> = in_source
        .iter()
        .filter(|w| w.contains('_') && !tested.contains(*w))
        .collect();
    assert!(untested.is_empty(), "codes without a test: {untested:?}");
    let missing: Vec<_> = tested.iter().filter(|c| !in_source.contains(*c)).collect();
    assert!(
        missing.is_empty(),
        "tested codes no longer in validate.rs: {missing:?}"
    );
}

// ---------------------------------------------------------------------------
// 2. Several problems at once, each located.
// ---------------------------------------------------------------------------

/// The 1-based line on which `id: "<id>"` appears in `src`.
fn def_line(src: &str, id: &str) -> usize {
    let needle = format!("id: \"{id}\"");
    let offset = src
        .find(&needle)
        .unwrap_or_else(|| panic!("no {needle} in the source"));
    src[..offset].matches('\n').count() + 1
}

fn invalid(origin: &str, src: &str) -> Vec<scene::Problem> {
    match scene::parse(origin, src) {
        Err(SceneError::Invalid {
            origin: o,
            problems,
        }) => {
            assert_eq!(o, origin);
            problems
        }
        other => panic!("expected Invalid, got {other:?}"),
    }
}

#[test]
fn several_problems_in_text_are_all_reported_and_located() {
    let src = BASE
        .replace(
            "openable: true, open: false",
            "openable: false, open: false",
        )
        .replace("at: On(\"table_1\")", "at: In(\"table_1\")")
        .replace("near: Some(\"dock_1\")", "near: Some(\"dock_1\"), hands: 0");
    let problems = invalid("three.ron", &src);
    let found: Vec<_> = problems
        .iter()
        .map(|p| (p.code, p.id.as_ref().unwrap().as_str()))
        .collect();
    assert_eq!(
        found,
        vec![
            ("door_state", "door_hall"),
            ("no_such_surface", "mug_1"),
            ("bad_hands", "robot")
        ]
    );
    for p in &problems {
        let oid = p.id.as_ref().unwrap();
        let (line, col) = p.at.unwrap_or_else(|| panic!("{} not located", p.code));
        assert_eq!(line, def_line(&src, oid), "{} {oid}", p.code);
        // The column points at the quoted id on that line.
        let text = src.lines().nth(line - 1).unwrap();
        assert_eq!(
            &text[col - 1..col - 1 + oid.len() + 2],
            format!("\"{oid}\"")
        );
    }
    let shown = SceneError::Invalid {
        origin: "three.ron".into(),
        problems: problems.clone(),
    };
    let shown = shown.to_string();
    assert!(shown.starts_with("three.ron: 3 problems"), "{shown}");
    for p in &problems {
        let (line, col) = p.at.unwrap();
        let id = p.id.as_ref().unwrap();
        let entry = format!("three.ron:{line}:{col}: [{}] {id}: ", p.code);
        assert!(shown.contains(&entry), "{entry:?} missing from {shown}");
    }
}

#[test]
fn several_problems_in_a_mutated_struct_are_all_reported_and_located() {
    let s = broken(|s| {
        s.rooms.push(room("attic", 0.0, 3.0, 4.0, 2.0)); // unreachable_room attic
        furniture(s, "table_1").kind = String::new(); // empty_kind table_1
        obj(s, "plate_1").owner = Some(id("bob")); // unknown_actor plate_1
        actor(s, "robot").speed = 0.0; // bad_speed robot
        oven_field(s, "timer", FieldDef::Timer { value: 9, max: 1 }); // bad_field oven_1
    });
    let src = scene::to_ron(&s);
    let problems = invalid("many.ron", &src);
    let mut found: Vec<_> = problems
        .iter()
        .map(|p| (p.code, p.id.as_ref().unwrap().to_string()))
        .collect();
    found.sort();
    let mut want = vec![
        ("unreachable_room", "attic".to_string()),
        ("empty_kind", "table_1".into()),
        ("unknown_actor", "plate_1".into()),
        ("bad_speed", "robot".into()),
        ("bad_field", "oven_1".into()),
    ];
    want.sort();
    assert_eq!(found, want);
    for p in &problems {
        let oid = p.id.as_ref().unwrap();
        assert_eq!(
            p.at.map(|a| a.0),
            Some(def_line(&src, oid)),
            "{} {oid}",
            p.code
        );
    }
    // Scene-level problems point at the scene's own id.
    let s = broken(|s| actor(s, "robot").kind = ActorKind::Human);
    let src = scene::to_ron(&s);
    let problems = invalid("norobot.ron", &src);
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].at.map(|a| a.0), Some(def_line(&src, "base")));
}

#[test]
fn problems_are_located_at_the_definition_not_a_reference() {
    // table_1 is referenced (by mug_1 and ann) after its definition; ann is
    // referenced (by plate_1's owner) before hers.
    let src = BASE
        .replace("pos: (2.0, 1.5)", "pos: (9.0, 1.5)")
        .replace("hands: 2", "hands: 0");
    let problems = invalid("refs.ron", &src);
    let found: Vec<_> = problems
        .iter()
        .map(|p| (p.code, p.id.as_ref().unwrap().as_str()))
        .collect();
    assert_eq!(
        found,
        vec![
            ("outside_room", "table_1"),
            ("capacity_exceeded", "ann"),
            ("bad_hands", "ann")
        ]
    );
    for p in &problems {
        let oid = p.id.as_ref().unwrap();
        assert_eq!(p.at.unwrap().0, def_line(&src, oid), "{} {oid}", p.code);
    }
}

// ---------------------------------------------------------------------------
// 3. Syntax errors and robustness.
// ---------------------------------------------------------------------------

fn studio_src() -> String {
    std::fs::read_to_string(manifest_path("scenes/studio.ron")).unwrap()
}

fn manifest_path(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// Parses `src`, expects a syntax error, checks its display, and returns its
/// (line, col).
#[track_caller]
fn syntax(src: &str) -> (usize, usize) {
    match scene::parse("bad/scene.ron", src) {
        Err(e @ SceneError::Syntax(_)) => {
            let SceneError::Syntax(scene::SyntaxError {
                line,
                col,
                ref message,
                ref origin,
            }) = e
            else {
                unreachable!()
            };
            assert_eq!(origin, "bad/scene.ron");
            assert!(line >= 1 && col >= 1, "{line}:{col}");
            assert!(!message.is_empty());
            let shown = e.to_string();
            assert!(shown.starts_with("bad/scene.ron:"), "{shown}");
            assert!(shown.contains(&format!(":{line}:{col}:")), "{shown}");
            assert_eq!(shown, format!("bad/scene.ron:{line}:{col}: {message}"));
            // The position is inside the text (or just past its end).
            let lines: Vec<_> = src.split('\n').collect();
            assert!(line <= lines.len(), "line {line} of {}", lines.len());
            assert!(
                col <= lines[line - 1].chars().count() + 1,
                "col {col} past line {line}"
            );
            (line, col)
        }
        Err(e) => panic!("expected a syntax error, got {e}"),
        Ok(_) => panic!("expected a syntax error, the scene parsed"),
    }
}

/// `src` with the first `from` replaced by `to`, and the 1-based line and
/// column where the replacement starts.
fn edit(src: &str, from: &str, to: &str) -> (String, usize, usize) {
    let offset = src
        .find(from)
        .unwrap_or_else(|| panic!("{from:?} not found"));
    let before = &src[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.len() - before.rfind('\n').map_or(0, |n| n + 1) + 1;
    (src.replacen(from, to, 1), line, col)
}

#[test]
fn syntax_missing_comma() {
    let (src, line, _) = edit(
        &studio_src(),
        "\"Studio apartment\",",
        "\"Studio apartment\"",
    );
    // Noticed at the next field, on the following line.
    let (l, c) = syntax(&src);
    assert!(
        l == line || l == line + 1,
        "{l}:{c} for an edit on line {line}"
    );
}

#[test]
fn syntax_missing_paren() {
    let (src, line, _) = edit(&studio_src(), "height: 2.6),", "height: 2.6,");
    let (l, c) = syntax(&src);
    assert!(
        l == line || l == line + 1,
        "{l}:{c} for an edit on line {line}"
    );
    // And an extra closing paren at the end.
    let src = format!("{})\n", studio_src().trim_end());
    let (l, _) = syntax(&src);
    assert_eq!(l, src.trim_end().lines().count());
}

#[test]
fn syntax_unknown_field() {
    let (src, line, col) = edit(&studio_src(), "rooms:", "rooms2:");
    assert_eq!(syntax(&src), (line, col));
    let (src, line, _) = edit(&studio_src(), "hands: 2", "handz: 2");
    assert_eq!(syntax(&src).0, line);
    match scene::parse("x", &src) {
        Err(SceneError::Syntax(scene::SyntaxError { message, .. })) => {
            assert!(message.contains("handz"), "{message}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn syntax_wrong_type() {
    let (src, line, col) = edit(&studio_src(), "w: 6.0", "w: \"three\"");
    let (l, c) = syntax(&src);
    assert_eq!(l, line);
    // At the field or its value.
    assert!((col..=col + 4).contains(&c), "col {c}, field at {col}");
    let (src, line, _) = edit(&studio_src(), "hands: 2", "hands: -2");
    assert_eq!(syntax(&src).0, line);
    let (src, line, _) = edit(&studio_src(), "kind: human", "kind: \"human\"");
    assert_eq!(syntax(&src).0, line);
}

#[test]
fn syntax_unknown_enum_variant() {
    let (src, line, col) = edit(&studio_src(), "On(4)", "Under(3)");
    assert_eq!(syntax(&src), (line, col));
    let (src, line, _) = edit(&studio_src(), "openable: Closed", "openable: Ajar");
    assert_eq!(syntax(&src).0, line);
    let (src, line, _) = edit(&studio_src(), "kind: robot", "kind: drone");
    assert_eq!(syntax(&src).0, line);
}

#[test]
fn syntax_truncated_file() {
    let studio = studio_src();
    let cut = studio.len() / 2;
    let src = &studio[..cut];
    let (l, _) = syntax(src);
    assert_eq!(l, src.lines().count(), "reported at the end of the text");
    // Cut at every line end: always an error, never a panic.
    for (i, _) in studio.trim_end().match_indices('\n') {
        syntax(&studio[..i]);
    }
}

#[test]
fn syntax_empty_and_garbage() {
    assert_eq!(syntax(""), (1, 1));
    syntax("   \n\n");
    syntax("// just a comment\n");
    syntax("\u{0}\u{1}\u{2}\u{7f}\u{fffd}ÿþ\u{1b}[0m");
    syntax(&String::from_utf8_lossy(&[
        0xff, 0xfe, 0x00, 0x9c, 0x80, 0x41, 0x28, 0x29,
    ]));
    syntax("Scene(");
    syntax("Scene()");
    syntax("[1, 2, 3]");
    syntax("((((((((((((((((((((((((((((((((((((((((((((((((((");
    syntax(&"[".repeat(10_000));
    syntax(&"(".repeat(10_000));
    syntax("Scene(id: \"unterminated");
    syntax("Scene(id: r#\"x\"");
}

#[test]
fn semantic_errors_are_not_syntax_errors() {
    // A missing required field is a shape error, an unknown id is not.
    let src = studio_src().replacen("    actors: [", "    nope: [", 1);
    syntax(&src);
    let src = studio_src().replacen("near: Some(\"bed_1\")", "near: Some(\"bed_9\")", 1);
    assert!(matches!(
        scene::parse("x", &src),
        Err(SceneError::Invalid { .. })
    ));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let src = String::from_utf8_lossy(&bytes);
        let _ = scene::parse("random", &src);
    }

    #[test]
    fn random_ron_like_text_never_panics(
        src in proptest::collection::vec(
            proptest::sample::select(vec![
                "Scene", "(", ")", "[", "]", "{", "}", ",", ":", "id", "\"a\"", "1", "-2.5",
                "On", "In", "rooms", "actors", " ", "\n", "Some", "None", "NaN", "inf", "r#\"",
            ]),
            0..200,
        )
    ) {
        let _ = scene::parse("tokens", &src.concat());
    }

    #[test]
    fn truncated_studio_never_panics(cut in 0usize..10_000) {
        let studio = studio_src();
        let mut cut = cut % (studio.len() + 1);
        while !studio.is_char_boundary(cut) {
            cut -= 1;
        }
        match scene::parse("cut", &studio[..cut]) {
            Ok(s) => prop_assert_eq!(s, scene::parse("full", &studio).unwrap()),
            Err(SceneError::Syntax(scene::SyntaxError { line, col, .. })) => prop_assert!(line >= 1 && col >= 1),
            Err(SceneError::Invalid { .. }) => {}
        }
    }

    #[test]
    fn mutated_studio_never_panics(
        pos in 0usize..10_000,
        op in 0u8..3,
        ch in proptest::sample::select(vec![
            '(', ')', '[', ']', '{', '}', ',', ':', '"', '0', '9', '.', '-', 'a', 'Z', '_', ' ',
            '\n', '/', '*', '#', '\\', 'é', '\u{0}',
        ]),
    ) {
        let studio = studio_src();
        let chars: Vec<char> = studio.chars().collect();
        let i = pos % chars.len();
        let mut out = chars.clone();
        match op {
            0 => out[i] = ch,
            1 => out.insert(i, ch),
            _ => {
                out.remove(i);
            }
        }
        let src: String = out.into_iter().collect();
        match scene::parse("mutated", &src) {
            Ok(s) => prop_assert!(scene::validate(&s).is_empty()),
            Err(SceneError::Syntax(scene::SyntaxError { line, col, .. })) => prop_assert!(line >= 1 && col >= 1),
            Err(SceneError::Invalid { problems, .. }) => prop_assert!(!problems.is_empty()),
        }
    }

    #[test]
    fn mutated_numbers_never_panic(
        which in 0usize..64,
        value in prop_oneof![
            any::<f32>(),
            Just(f32::NAN),
            Just(f32::INFINITY),
            Just(0.0f32),
            -20.0f32..20.0,
        ],
        hands in 0u32..4,
    ) {
        // Scenes that parse but have arbitrary geometry, speed and hands.
        let mut s = base();
        match which % 8 {
            0 => s.rooms[which % 2].rect.w = value,
            1 => s.rooms[which % 2].rect.x = value,
            2 => s.doors[0].at.1 = value,
            3 => s.furniture[which % 3].pos.0 = value,
            4 => s.furniture[which % 3].size.1 = value,
            5 => s.devices[0].size.0 = value,
            6 => s.actors[which % 2].speed = value,
            _ => s.rooms[which % 2].height = value,
        }
        s.actors[which % 2].hands = hands;
        // Validating the struct and parsing its RON agree.
        let direct: Vec<_> = scene::validate(&s).into_iter().map(|p| (p.code, p.id)).collect();
        match scene::parse("numbers", &scene::to_ron(&s)) {
            Ok(parsed) => {
                prop_assert!(direct.is_empty());
                prop_assert_eq!(scene::to_ron(&parsed), scene::to_ron(&s));
            }
            Err(SceneError::Invalid { problems, .. }) => {
                let parsed: Vec<_> = problems.into_iter().map(|p| (p.code, p.id)).collect();
                prop_assert_eq!(parsed, direct);
            }
            Err(e) => prop_assert!(false, "to_ron wrote unparsable RON: {}", e),
        }
    }
}

// ---------------------------------------------------------------------------
// 4. Round trip.
// ---------------------------------------------------------------------------

fn scene_files() -> Vec<(String, String)> {
    let mut files: Vec<_> = std::fs::read_dir(manifest_path("scenes"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .map(|p| {
            (
                p.display().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    files.sort();
    assert!(!files.is_empty());
    files
}

#[track_caller]
fn assert_round_trip(origin: &str, src: &str) {
    let first = scene::parse(origin, src).unwrap_or_else(|e| panic!("{e}"));
    let text = scene::to_ron(&first);
    let second =
        scene::parse(origin, &text).unwrap_or_else(|e| panic!("re-parse of {origin}: {e}"));
    assert_eq!(first, second, "{origin}");
    assert_eq!(
        scene::content_hash(&first),
        scene::content_hash(&second),
        "{origin}"
    );
    assert_eq!(
        scene::to_ron(&second),
        text,
        "{origin}: to_ron is a fixed point"
    );
    let hash = scene::content_hash(&first);
    assert_eq!(hash.len(), 64);
    assert!(
        hash.chars()
            .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
    );
}

#[test]
fn builtin_scenes_round_trip() {
    assert!(!scene::BUILTIN.is_empty());
    for (bid, src) in scene::BUILTIN {
        assert_round_trip(bid, src);
        assert_eq!(scene::parse(bid, src).unwrap().id.as_str(), *bid);
    }
    assert_eq!(
        scene::default_scene(),
        scene::parse("d", scene::BUILTIN[0].1).unwrap()
    );
}

#[test]
fn scene_files_round_trip() {
    for (path, src) in scene_files() {
        assert_round_trip(&path, &src);
    }
    assert_round_trip("base", BASE);
}

#[test]
fn content_hash_tells_scenes_apart() {
    let mut hashes = BTreeSet::new();
    for (bid, src) in scene::BUILTIN {
        assert!(hashes.insert(scene::content_hash(&scene::parse(bid, src).unwrap())));
    }
    let a = base();
    let b = broken(|s| obj(s, "mug_1").description = "red mug ".into());
    assert_ne!(scene::content_hash(&a), scene::content_hash(&b));
    // Formatting and comments do not matter, content does.
    let reformatted = BASE
        .replace("// A small valid scene", "// reworded")
        .replace("    ", "\t");
    assert_eq!(
        scene::content_hash(&scene::parse("r", &reformatted).unwrap()),
        scene::content_hash(&a)
    );
}

// ---------------------------------------------------------------------------
// 5. The built-in bars.
// ---------------------------------------------------------------------------

fn builtin(bid: &str) -> Scene {
    let src = scene::BUILTIN
        .iter()
        .find(|(i, _)| *i == bid)
        .unwrap_or_else(|| panic!("no {bid}"))
        .1;
    scene::parse(bid, src).unwrap()
}

#[track_caller]
fn assert_rich(s: &Scene) {
    let sid = &s.id;
    assert!(s.objects.len() >= 60, "{sid}: {} objects", s.objects.len());
    let mut per_category: BTreeMap<&str, usize> = BTreeMap::new();
    for o in &s.objects {
        *per_category.entry(o.category.as_str()).or_default() += 1;
    }
    assert!(
        per_category.len() >= 15,
        "{sid}: {} categories",
        per_category.len()
    );
    assert!(
        per_category.values().any(|&n| n >= 2),
        "{sid}: no category with 2 objects"
    );
    assert!(
        per_category.values().any(|&n| n >= 3),
        "{sid}: no category with 3 objects"
    );
    assert!(s.devices.len() >= 8, "{sid}: {} devices", s.devices.len());
    let openable_in = |surfaces: &[Surface], openable: Openable| {
        openable != Openable::No && surfaces.iter().any(|sf| matches!(sf, Surface::In(_)))
    };
    let receptacles = s
        .furniture
        .iter()
        .filter(|f| openable_in(&f.surfaces, f.openable))
        .count()
        + s.devices
            .iter()
            .filter(|d| openable_in(&d.surfaces, d.openable))
            .count();
    assert!(
        receptacles >= 10,
        "{sid}: {receptacles} openable receptacles"
    );
}

#[test]
fn family_apartment_meets_the_bar() {
    let s = builtin("family_apartment");
    assert_rich(&s);
    let humans = s
        .actors
        .iter()
        .filter(|a| a.kind == ActorKind::Human)
        .count();
    let robots = s
        .actors
        .iter()
        .filter(|a| a.kind == ActorKind::Robot)
        .count();
    // Three at home, and Grandpa Joe, who calls, the courier, the repair
    // technician and two party guests (they start outside).
    assert_eq!((humans, robots), (8, 1));
    assert!(s.actors.iter().any(|a| a.room.as_str() == scene::OUTSIDE));
    assert_eq!(scene::BUILTIN[0].0, "family_apartment", "the default scene");
}

#[test]
fn large_house_meets_the_bar() {
    let s = builtin("large_house");
    assert_rich(&s);
    assert!(s.rooms.len() >= 12, "{} rooms", s.rooms.len());
}

// ---------------------------------------------------- the world outside

#[test]
fn exterior_doors_sit_on_an_outer_wall() {
    // The hall's right, top and bottom walls are outer walls.
    accepts(|s| {
        s.doors
            .push(door("front_door", "hall", "outside", (6.0, 1.5)))
    });
    accepts(|s| {
        s.doors
            .push(door("front_door", "outside", "hall", (5.0, 0.0)))
    });
    // Two exterior doors are fine, and so is one on the kitchen.
    accepts(|s| {
        s.doors
            .push(door("front_door", "hall", "outside", (6.0, 1.5)));
        s.doors
            .push(door("back_door", "kitchen", "outside", (0.0, 1.5)));
    });
    // The wall the hall shares with the kitchen, the middle of the
    // room, and too near a corner are not.
    for at in [(4.0, 1.5), (5.0, 1.5), (6.0, 2.9)] {
        rejects("door_not_on_wall", "front_door", |s| {
            s.doors.push(door("front_door", "hall", "outside", at))
        });
    }
    rejects("door_same_room", "front_door", |s| {
        s.doors
            .push(door("front_door", "outside", "outside", (6.0, 1.5)))
    });
    rejects("unknown_room", "front_door", |s| {
        s.doors
            .push(door("front_door", "attic", "outside", (6.0, 1.5)))
    });
}

#[test]
fn outside_is_a_reserved_id() {
    rejects("reserved_id", "outside", |s| {
        s.objects.push(object(
            "outside",
            "box",
            "a box",
            Placement::On(id("table_1")),
        ))
    });
}

#[test]
fn visitors_and_parcels_start_outside() {
    accepts(|s| {
        s.objects.push(object(
            "parcel_1",
            "parcel",
            "brown box",
            Placement::Outside,
        ));
        let a = actor(s, "ann");
        a.room = id("outside");
        a.near = None;
        obj(s, "keys_1").at = Placement::On(id("table_1"));
    });
    rejects("held_outside", "keys_1", |s| {
        let a = actor(s, "ann");
        a.room = id("outside");
        a.near = None;
    });
    rejects("actor_outside_house", "ann", |s| {
        actor(s, "ann").room = id("outside");
        obj(s, "keys_1").at = Placement::On(id("table_1"));
    });
    rejects("robot_outside", "robot", |s| {
        let r = actor(s, "robot");
        r.room = id("outside");
        r.near = None;
    });
}
