//! The editor's document model (`hearth::editor`): every command and its
//! undo, rename cascades, door snapping, drops on receptacles, removal
//! policies, failures that change nothing, a property test of random edit
//! sequences undone and redone, and `hearth scene apply` end to end.

use std::fs;

use proptest::prelude::*;

use hearth::editor::{
    Document, Edit, EditError, Entity, OnRemove, Prop, actor_defaults, parse_edits, referrers,
};
use hearth::ids::Id;
use hearth::procgen::{self, SceneSpec};
use hearth::scene::{self, *};

mod common;
use common::*;

const BASE: &str = include_str!("data/base.ron");

fn base() -> Scene {
    scene::parse("base.ron", BASE).unwrap()
}

fn id(s: &str) -> Id {
    Id::new(s)
}

fn builtin(name: &str) -> Scene {
    let src = scene::BUILTIN.iter().find(|(i, _)| *i == name).unwrap().1;
    scene::parse(name, src).unwrap()
}

fn object<'a>(s: &'a Scene, o: &str) -> &'a ObjectDef {
    s.objects.iter().find(|x| x.id.as_str() == o).unwrap()
}

fn actor<'a>(s: &'a Scene, a: &str) -> &'a ActorDef {
    s.actors.iter().find(|x| x.id.as_str() == a).unwrap()
}

fn door<'a>(s: &'a Scene, d: &str) -> &'a DoorDef {
    s.doors.iter().find(|x| x.id.as_str() == d).unwrap()
}

/// The document's index answers what a scan of its current scene does.
fn lookup_agrees(doc: &Document) -> bool {
    let s = doc.scene();
    scene::entries(s).all(|(id, ..)| doc.lookup().index().get(id) == scene::locate(s, id))
}

fn codes(doc: &Document) -> Vec<(&'static str, String)> {
    doc.problems()
        .iter()
        .map(|p| {
            (
                p.code,
                p.id.as_ref().map_or(String::new(), |i| i.to_string()),
            )
        })
        .collect()
}

/// Applies `edit`, checks it changed the scene, that undo gives the scene
/// back exactly and redo the edited one; returns the edited scene.
#[track_caller]
fn round_trip(doc: &mut Document, edit: Edit) -> Scene {
    let before = doc.scene().clone();
    let name = edit.name();
    doc.apply(edit).unwrap_or_else(|e| panic!("{name}: {e}"));
    let after = doc.scene().clone();
    assert_ne!(after, before, "{name} changed nothing");
    doc.undo().unwrap();
    assert_eq!(doc.scene(), &before, "undo of {name}");
    doc.redo().unwrap();
    assert_eq!(doc.scene(), &after, "redo of {name}");
    after
}

/// Applying `edit` fails with an error matching `check`, and the scene and
/// the history are untouched.
#[track_caller]
fn refused(doc: &mut Document, edit: Edit, check: impl Fn(&EditError) -> bool) -> EditError {
    let (before, depth) = (doc.scene().clone(), doc.undo_depth());
    let name = edit.name();
    let err = doc.apply(edit).expect_err(name);
    assert!(check(&err), "{name}: unexpected error {err:?}");
    assert_eq!(doc.scene(), &before, "failed {name} changed the scene");
    assert_eq!(doc.undo_depth(), depth, "failed {name} left an undo step");
    err
}

fn every_command() -> Vec<Edit> {
    let attic = RoomDef {
        id: id("attic"),
        name: "Attic".into(),
        rect: Rect {
            x: 0.0,
            y: 3.0,
            w: 6.0,
            h: 2.0,
        },
        height: 2.2,
    };
    let lamp = DeviceDef {
        id: id("lamp_1"),
        kind: "lamp".into(),
        room: id("hall"),
        pos: (5.0, 1.0),
        size: (0.3, 0.3, 1.5),
        remote: true,
        fields: [("power".to_string(), FieldDef::Bool(true))].into(),
        surfaces: vec![],
        openable: Openable::No,
        description: "a floor lamp".into(),
        roles: vec![],
    };
    let stool = FurnitureDef {
        id: id("stool_1"),
        kind: "stool".into(),
        room: id("kitchen"),
        pos: (3.0, 2.5),
        size: (0.4, 0.4, 0.6),
        surfaces: vec![Surface::On(1)],
        openable: Openable::No,
        description: String::new(),
        roles: vec![],
    };
    let spoon = ObjectDef {
        id: id("spoon_1"),
        category: "spoon".into(),
        description: "steel spoon".into(),
        owner: Some(id("ann")),
        at: Placement::On(id("table_1")),
        roles: vec![],
    };
    let bob = ActorDef {
        id: id("bob"),
        schedule: None,
        name: "Bob".into(),
        kind: ActorKind::Human,
        role: "guest".into(),
        room: id("hall"),
        near: Some(id("dock_1")),
        hands: 2,
        speed: 0.8,
    };
    let set = |i: &str, prop| Edit::Set { id: id(i), prop };
    vec![
        Edit::AddRoom(attic),
        Edit::MoveRoom {
            id: id("hall"),
            to: (4.0, 0.5),
        },
        Edit::MoveRooms {
            ids: vec![id("kitchen"), id("hall")],
            by: (1.0, -0.5),
        },
        Edit::ResizeRoom {
            id: id("kitchen"),
            rect: Rect {
                x: -1.0,
                y: 0.0,
                w: 5.0,
                h: 3.0,
            },
        },
        Edit::AddDoor {
            id: id("door_2"),
            rooms: (id("hall"), id("kitchen")),
            at: (3.0, 0.4),
            openable: false,
            open: true,
        },
        Edit::MoveDoor {
            id: id("door_hall"),
            to: (4.0, 0.9),
        },
        Edit::AddFurniture(stool),
        Edit::AddDevice(lamp),
        Edit::AddFixtureFromCatalogue {
            kind: "coffee machine".into(),
            room: id("kitchen"),
            pos: Some((2.0, 2.6)),
            id: None,
        },
        Edit::AddRoomFromCatalogue {
            kind: "bedroom".into(),
            at: None,
            id: None,
        },
        Edit::AddObjectFromCatalogue {
            category: "book".into(),
            on: id("table_1"),
            inside: None,
            id: None,
        },
        Edit::AddActorOfKind {
            kind: ActorKind::Human,
            at: id("hall"),
            id: None,
        },
        Edit::MoveFixture {
            id: id("table_1"),
            to: (2.2, 1.6),
        },
        Edit::MoveFixture {
            id: id("dock_1"),
            to: (3.5, 2.5),
        },
        Edit::ResizeFixture {
            id: id("table_1"),
            size: (1.0, 1.0, 0.7),
        },
        Edit::AddObject(spoon),
        Edit::PlaceObject {
            id: id("mug_1"),
            on: id("cupboard_1"),
            inside: Some(true),
        },
        Edit::AddActor(bob),
        Edit::StartActor {
            id: id("robot"),
            at: id("oven_1"),
        },
        Edit::StartActor {
            id: id("ann"),
            at: id("hall"),
        },
        Edit::SetField {
            device: id("oven_1"),
            name: "light".into(),
            field: Some(FieldDef::Bool(true)),
        },
        Edit::SetField {
            device: id("oven_1"),
            name: "temperature".into(),
            field: Some(FieldDef::Int {
                value: 180,
                min: 50,
                max: 300,
            }),
        },
        Edit::SetField {
            device: id("oven_1"),
            name: "fan".into(),
            field: None,
        },
        Edit::Rename {
            from: id("table_1"),
            to: id("big_table"),
        },
        Edit::Remove {
            id: id("mug_1"),
            policy: OnRemove::Refuse,
        },
        Edit::Remove {
            id: id("door_hall"),
            policy: OnRemove::Refuse,
        },
        Edit::Remove {
            id: id("table_1"),
            policy: OnRemove::Cascade,
        },
        Edit::Remove {
            id: id("cupboard_1"),
            policy: OnRemove::MoveTo(id("oven_1")),
        },
        Edit::Remove {
            id: id("ann"),
            policy: OnRemove::Cascade,
        },
        Edit::Remove {
            id: id("kitchen"),
            policy: OnRemove::Cascade,
        },
        Edit::SetSceneInfo {
            id: id("base_2"),
            name: "Base two".into(),
            description: "edited".into(),
        },
        set("kitchen", Prop::Name("Cuisine".into())),
        set("hall", Prop::Height(3.0)),
        set(
            "kitchen",
            Prop::Rect(Rect {
                x: 0.0,
                y: 0.0,
                w: 4.0,
                h: 2.0,
            }),
        ),
        set(
            "door_hall",
            Prop::Doorway {
                openable: false,
                open: true,
            },
        ),
        set("door_hall", Prop::Rooms((id("hall"), id("kitchen")))),
        set("door_hall", Prop::Pos((4.0, 2.0))),
        set("table_1", Prop::Kind("desk".into())),
        set("table_1", Prop::Description("oak".into())),
        set("table_1", Prop::Size((1.0, 0.5, 0.7))),
        set(
            "table_1",
            Prop::Surfaces(vec![Surface::On(5), Surface::In(2)]),
        ),
        set("table_1", Prop::Openable(Openable::Open)),
        set("table_1", Prop::Roles(vec![Role::Cooking])),
        set("table_1", Prop::Room(id("hall"))),
        set("oven_1", Prop::Remote(true)),
        set("oven_1", Prop::Fields(Default::default())),
        set("oven_1", Prop::Pos((2.5, 0.4))),
        set("mug_1", Prop::Category("cup".into())),
        set("mug_1", Prop::Description("blue mug".into())),
        set("mug_1", Prop::Owner(Some(id("ann")))),
        set("mug_1", Prop::At(Placement::HeldBy(id("robot")))),
        set("ann", Prop::Name("Anna".into())),
        set("ann", Prop::Near(None)),
        set("ann", Prop::Room(id("hall"))),
        set("ann", Prop::ActorKind(ActorKind::Robot)),
        set("ann", Prop::Role("parent".into())),
        set("ann", Prop::Hands(1)),
        set("ann", Prop::Speed(1.4)),
        Edit::Insert {
            entity: Entity::Door(DoorDef {
                id: id("door_x"),
                rooms: (id("kitchen"), id("hall")),
                at: (4.0, 2.5),
                openable: true,
                open: true,
            }),
            index: 0,
        },
        Edit::Take { id: id("oven_1") },
        Edit::Batch(vec![
            Edit::MoveRoom {
                id: id("hall"),
                to: (4.0, 1.0),
            },
            Edit::PlaceObject {
                id: id("mug_1"),
                on: id("ann"),
                inside: None,
            },
        ]),
    ]
}

#[test]
fn lookups_follow_every_edit_undo_and_redo() {
    let mut doc = Document::new(base());
    let add = Edit::AddFixtureFromCatalogue {
        kind: "fridge".into(),
        room: id("kitchen"),
        pos: Some((3.5, 2.5)),
        id: Some(id("fridge_9")),
    };
    doc.apply(add).unwrap();
    let f = doc.lookup().fixture("fridge_9").expect("the new fridge");
    assert_eq!(
        (f.kind, f.room.as_str(), f.remote),
        ("fridge", "kitchen", None)
    );
    doc.apply(Edit::Rename {
        from: id("fridge_9"),
        to: id("big_fridge"),
    })
    .unwrap();
    assert!(doc.lookup().fixture("fridge_9").is_none());
    assert_eq!(doc.lookup().kind_of("big_fridge"), Some(Kind::Furniture));
    // Removing the first room shifts every later room and what stood in it.
    doc.apply(Edit::Remove {
        id: id("kitchen"),
        policy: OnRemove::Cascade,
    })
    .unwrap();
    assert_eq!(doc.lookup().kind_of("kitchen"), None);
    assert!(doc.lookup().fixture("big_fridge").is_none());
    assert_eq!(
        doc.lookup().room("hall").map(|r| r.name.as_str()),
        Some("Hall")
    );
    assert!(lookup_agrees(&doc));
    doc.undo().unwrap();
    assert_eq!(
        doc.lookup().room("kitchen").map(|r| &r.rect),
        Some(&base().rooms[0].rect)
    );
    assert_eq!(
        doc.lookup().object("plate_1").map(|o| o.owner.clone()),
        Some(Some(id("ann")))
    );
    assert!(lookup_agrees(&doc));
    doc.redo().unwrap();
    assert!(doc.lookup().actor("ann").is_none() && lookup_agrees(&doc));
    // A lookup of the wrong kind finds nothing.
    assert!(doc.lookup().room("robot").is_none() && doc.lookup().actor("robot").is_some());
}

#[test]
fn every_command_and_its_undo_restore_the_exact_scene() {
    let commands = every_command();
    // Every command name appears, so a new command needs a case here.
    let names: std::collections::BTreeSet<_> = commands.iter().map(Edit::name).collect();
    assert_eq!(names.len(), 26, "{names:?}");
    for edit in commands {
        let mut doc = Document::new(base());
        round_trip(&mut doc, edit);
        doc.undo().unwrap();
        assert_eq!(doc.scene(), &base());
        assert!(!doc.is_modified());
    }
}

#[test]
fn set_covers_every_property_and_refuses_what_an_entity_lacks() {
    let mut doc = Document::new(base());
    for (target, prop) in [
        ("mug_1", Prop::Hands(3)),
        ("kitchen", Prop::Pos((1.0, 1.0))),
        ("door_hall", Prop::Name("x".into())),
        ("table_1", Prop::Remote(true)),
        ("ann", Prop::Surfaces(vec![])),
    ] {
        let name = prop.name();
        let e = refused(
            &mut doc,
            Edit::Set {
                id: id(target),
                prop,
            },
            |e| matches!(e, EditError::NoSuchProperty { .. }),
        );
        assert!(e.to_string().contains(name), "{e}");
    }
    let e = refused(
        &mut doc,
        Edit::Set {
            id: id("mug_9"),
            prop: Prop::Category("x".into()),
        },
        |e| matches!(e, EditError::Unknown { .. }),
    );
    assert_eq!(e.to_string(), "no entity mug_9 (did you mean mug_1?)");
}

#[test]
fn rename_cascades_to_every_reference() {
    let mut doc = Document::new(base());
    for (from, to) in [
        ("kitchen", "cuisine"),
        ("hall", "corridor"),
        ("table_1", "table_big"),
        ("cupboard_1", "pantry"),
        ("dock_1", "dock"),
        ("ann", "anna"),
        ("robot", "rob"),
        ("mug_1", "cup_1"),
        ("door_hall", "door_1"),
    ] {
        round_trip(
            &mut doc,
            Edit::Rename {
                from: id(from),
                to: id(to),
            },
        );
        let ron = scene::to_ron(doc.scene());
        assert!(
            !ron.contains(&format!("\"{from}\"")),
            "{from} is left in\n{ron}"
        );
        assert!(doc.problems().is_empty(), "{to}: {:?}", codes(&doc));
    }
    let s = doc.scene();
    assert_eq!(door(s, "door_1").rooms, (id("cuisine"), id("corridor")));
    assert_eq!(object(s, "cup_1").at, Placement::On(id("table_big")));
    assert_eq!(object(s, "plate_1").at, Placement::In(id("pantry")));
    assert_eq!(object(s, "plate_1").owner, Some(id("anna")));
    assert_eq!(object(s, "keys_1").at, Placement::HeldBy(id("anna")));
    assert_eq!(
        (&actor(s, "anna").room, &actor(s, "anna").near),
        (&id("cuisine"), &Some(id("table_big")))
    );
    assert_eq!(actor(s, "rob").near, Some(id("dock")));
    assert_eq!(s.furniture[2].room, id("corridor"));
    assert_eq!(s.devices[0].room, id("cuisine"));
    // Nine steps, undone back to the file as read.
    for _ in 0..9 {
        doc.undo().unwrap();
    }
    assert_eq!(doc.scene(), &base());
    assert!(!doc.can_undo());

    for (from, to) in [
        ("kitchen", "hall"),
        ("ann", "ann"),
        ("ann", "mug_1"),
        ("nobody", "x"),
    ] {
        refused(
            &mut doc,
            Edit::Rename {
                from: id(from),
                to: id(to),
            },
            |e| matches!(e, EditError::IdTaken { .. } | EditError::Unknown { .. }),
        );
    }
}

#[test]
fn rename_refuses_a_name_that_dangling_references_already_use() {
    // plate_1's owner is a dangling "zoe": renaming ann to zoe would merge
    // the two, and undo could not tell them apart.
    let mut s = base();
    s.objects[1].owner = Some(id("zoe"));
    let mut doc = Document::new(s);
    assert!(codes(&doc).contains(&("unknown_actor", "plate_1".into())));
    refused(
        &mut doc,
        Edit::Rename {
            from: id("ann"),
            to: id("zoe"),
        },
        |e| matches!(e, EditError::IdTaken { .. }),
    );
}

#[test]
fn doors_snap_onto_the_nearest_shared_wall() {
    let mut doc = Document::new(base());
    let add = |at: (f32, f32), rooms: (&str, &str)| Edit::AddDoor {
        id: id("door_2"),
        rooms: (id(rooms.0), id(rooms.1)),
        at,
        openable: true,
        open: false,
    };
    // Far from the wall, past its end: onto the wall, 0.3 m from the corner.
    let s = round_trip(&mut doc, add((1.0, -2.0), ("kitchen", "hall")));
    assert_eq!(door(&s, "door_2").at, (4.0, 0.3));
    assert!(doc.problems().is_empty(), "{:?}", codes(&doc));
    doc.undo().unwrap();
    let s = round_trip(&mut doc, add((4.3, 1.7), ("hall", "kitchen")));
    assert_eq!(door(&s, "door_2").at, (4.0, 1.7));
    doc.undo().unwrap();

    // An attic above both: it shares a horizontal wall with each.
    doc.apply(Edit::AddRoom(RoomDef {
        id: id("attic"),
        name: "Attic".into(),
        rect: Rect {
            x: 3.0,
            y: 3.0,
            w: 3.0,
            h: 2.0,
        },
        height: 2.0,
    }))
    .unwrap();
    assert!(codes(&doc).contains(&("unreachable_room", "attic".into())));
    let s = round_trip(&mut doc, add((0.0, 4.0), ("kitchen", "attic")));
    assert_eq!(door(&s, "door_2").at, (3.3, 3.0));
    assert!(doc.problems().is_empty(), "{:?}", codes(&doc));

    // Sliding along the wall stays on it.
    let s = round_trip(
        &mut doc,
        Edit::MoveDoor {
            id: id("door_hall"),
            to: (9.0, 2.2),
        },
    );
    assert_eq!(door(&s, "door_hall").at, (4.0, 2.2));

    // No shared wall: a room away from the others, and a room with itself.
    doc.apply(Edit::AddRoom(RoomDef {
        id: id("shed"),
        name: "Shed".into(),
        rect: Rect {
            x: 10.0,
            y: 0.0,
            w: 2.0,
            h: 2.0,
        },
        height: 2.0,
    }))
    .unwrap();
    let add = |at, rooms: (&str, &str)| match add(at, rooms) {
        Edit::AddDoor {
            id: _,
            rooms,
            at,
            openable,
            open,
        } => Edit::AddDoor {
            id: id("door_3"),
            rooms,
            at,
            openable,
            open,
        },
        _ => unreachable!(),
    };
    for rooms in [("kitchen", "shed"), ("hall", "hall")] {
        let e = refused(&mut doc, add((4.0, 1.0), rooms), |e| {
            matches!(e, EditError::NoSharedWall { .. })
        });
        assert!(e.to_string().contains("share no wall"), "{e}");
    }
    refused(&mut doc, add((4.0, 1.0), ("kitchen", "mug_1")), |e| {
        matches!(e, EditError::WrongKind { .. })
    });
    refused(&mut doc, add((4.0, 1.0), ("kitchen", "garage")), |e| {
        matches!(e, EditError::Unknown { .. })
    });
}

#[test]
fn moving_a_room_carries_its_doors_and_fixtures_and_a_lost_wall_is_reported() {
    let mut doc = Document::new(base());
    let s = round_trip(
        &mut doc,
        Edit::MoveRoom {
            id: id("hall"),
            to: (5.0, 0.5),
        },
    );
    assert_eq!(door(&s, "door_hall").at, (5.0, 2.0));
    assert_eq!(
        s.furniture[2].pos,
        (6.0, 3.0),
        "the dock moves with the hall"
    );
    assert_eq!(s.furniture[0].pos, (2.0, 1.5), "the kitchen's table stays");
    // The hall no longer touches the kitchen: its door is off any shared
    // wall.
    assert_eq!(codes(&doc), vec![("door_not_on_wall", "door_hall".into())]);
    assert_eq!(doc.problems_of(&id("door_hall")).count(), 1);
    // Moving it back along x onto the wall (still 0.5 lower) is valid again.
    doc.apply(Edit::MoveRoom {
        id: id("hall"),
        to: (4.0, 0.5),
    })
    .unwrap();
    assert!(doc.problems().is_empty(), "{:?}", codes(&doc));
    assert_eq!(door(doc.scene(), "door_hall").at, (4.0, 2.0));

    // Both rooms at once: the door between them moves once, and stays valid.
    let mut doc = Document::new(base());
    let s = round_trip(
        &mut doc,
        Edit::MoveRooms {
            ids: vec![id("kitchen"), id("hall")],
            by: (10.0, 2.0),
        },
    );
    assert_eq!(door(&s, "door_hall").at, (14.0, 3.5));
    assert_eq!(s.devices[0].pos, (13.0, 2.3));
    assert!(doc.problems().is_empty(), "{:?}", codes(&doc));
    refused(
        &mut doc,
        Edit::MoveRooms {
            ids: vec![id("hall"), id("table_1")],
            by: (1.0, 1.0),
        },
        |e| matches!(e, EditError::WrongKind { .. }),
    );
    refused(
        &mut doc,
        Edit::MoveRooms {
            ids: vec![id("hall")],
            by: (f32::INFINITY, 1.0),
        },
        |e| matches!(e, EditError::BadGeometry { .. }),
    );

    // Resizing: the door keeps to its wall; fixtures may not be left out.
    let mut doc = Document::new(base());
    let s = round_trip(
        &mut doc,
        Edit::ResizeRoom {
            id: id("hall"),
            rect: Rect {
                x: 4.0,
                y: 0.0,
                w: 3.0,
                h: 4.0,
            },
        },
    );
    assert_eq!(door(&s, "door_hall").at, (4.0, 1.5));
    refused(
        &mut doc,
        Edit::ResizeRoom {
            id: id("hall"),
            rect: Rect {
                x: 4.0,
                y: 0.0,
                w: 0.8,
                h: 3.0,
            },
        },
        |e| matches!(e, EditError::OutsideRoom { id, .. } if id.as_str() == "dock_1"),
    );
    for rect in [
        Rect {
            x: 4.0,
            y: 0.0,
            w: 0.0,
            h: 3.0,
        },
        Rect {
            x: f32::NAN,
            y: 0.0,
            w: 2.0,
            h: 3.0,
        },
    ] {
        refused(
            &mut doc,
            Edit::ResizeRoom {
                id: id("hall"),
                rect,
            },
            |e| matches!(e, EditError::BadGeometry { .. }),
        );
    }
    refused(
        &mut doc,
        Edit::MoveRoom {
            id: id("table_1"),
            to: (0.0, 0.0),
        },
        |e| matches!(e, EditError::WrongKind { .. }),
    );
}

#[test]
fn fixtures_stay_inside_a_room_and_take_their_actors_to_a_new_one() {
    let mut doc = Document::new(base());
    // The dock moves from the hall into the kitchen; the robot near it goes too.
    let s = round_trip(
        &mut doc,
        Edit::MoveFixture {
            id: id("dock_1"),
            to: (3.0, 2.7),
        },
    );
    assert_eq!(s.furniture[2].room, id("kitchen"));
    assert_eq!(actor(&s, "robot").room, id("kitchen"));
    assert!(doc.problems().is_empty(), "{:?}", codes(&doc));
    // Straddling two rooms, or outside the house.
    for to in [(4.0, 1.5), (20.0, 1.0), (0.1, 1.0)] {
        refused(
            &mut doc,
            Edit::MoveFixture {
                id: id("table_1"),
                to,
            },
            |e| matches!(e, EditError::OutsideRoom { room: None, .. }),
        );
    }
    refused(
        &mut doc,
        Edit::ResizeFixture {
            id: id("table_1"),
            size: (5.0, 1.0, 1.0),
        },
        |e| matches!(e, EditError::OutsideRoom { .. }),
    );
    refused(
        &mut doc,
        Edit::ResizeFixture {
            id: id("table_1"),
            size: (1.0, -1.0, 1.0),
        },
        |e| matches!(e, EditError::BadGeometry { .. }),
    );
    let mut stool = base().furniture[0].clone();
    stool.id = id("stool_1");
    stool.pos = (5.9, 1.0);
    refused(&mut doc, Edit::AddFurniture(stool.clone()), |e| {
        matches!(e, EditError::OutsideRoom { .. })
    });
    stool.id = id("mug_1");
    refused(&mut doc, Edit::AddFurniture(stool), |e| {
        matches!(e, EditError::IdTaken { .. })
    });
}

#[test]
fn dropping_an_object_uses_the_surface_the_receptacle_has_and_its_capacity() {
    let mut doc = Document::new(base());
    let place = |o: &str, on: &str, inside| Edit::PlaceObject {
        id: id(o),
        on: id(on),
        inside,
    };
    // The cupboard has On(1) and In(3): on top first, then inside when full.
    let s = round_trip(&mut doc, place("mug_1", "cupboard_1", None));
    assert_eq!(object(&s, "mug_1").at, Placement::On(id("cupboard_1")));
    let s = round_trip(&mut doc, place("keys_1", "cupboard_1", None));
    assert_eq!(object(&s, "keys_1").at, Placement::In(id("cupboard_1")));
    // The oven has only In.
    let s = round_trip(&mut doc, place("plate_1", "oven_1", None));
    assert_eq!(object(&s, "plate_1").at, Placement::In(id("oven_1")));
    // ...and In(1) is full now.
    let e = refused(&mut doc, place("mug_1", "oven_1", None), |e| {
        matches!(e, EditError::Full { capacity: 1, .. })
    });
    assert_eq!(e.to_string(), "oven_1 is full: 1 object in it already");
    refused(&mut doc, place("mug_1", "table_1", Some(true)), |e| {
        matches!(e, EditError::NoSurface { surface: "In", .. })
    });
    refused(&mut doc, place("mug_1", "dock_1", None), |e| {
        matches!(e, EditError::NoSurface { .. })
    });
    refused(&mut doc, place("mug_1", "kitchen", None), |e| {
        matches!(e, EditError::WrongKind { .. })
    });
    refused(&mut doc, place("kitchen", "table_1", None), |e| {
        matches!(e, EditError::WrongKind { .. })
    });
    // Into an actor's hands: the robot has one.
    let s = round_trip(&mut doc, place("mug_1", "robot", None));
    assert_eq!(object(&s, "mug_1").at, Placement::HeldBy(id("robot")));
    let e = refused(&mut doc, place("plate_1", "robot", None), |e| {
        matches!(e, EditError::Full { capacity: 1, .. })
    });
    assert_eq!(e.to_string(), "robot's hands are full (1 object)");
    // Dropping an object where it already is is allowed (not counted twice).
    doc.apply(place("mug_1", "robot", None)).unwrap();
    assert!(doc.problems().is_empty(), "{:?}", codes(&doc));

    // Adding objects checks the same.
    let mut o = object(&base(), "mug_1").clone();
    o.id = id("mug_2");
    o.description = "green mug".into();
    o.at = Placement::In(id("oven_1"));
    refused(&mut doc, Edit::AddObject(o.clone()), |e| {
        matches!(e, EditError::Full { .. })
    });
    o.at = Placement::On(id("robot"));
    refused(&mut doc, Edit::AddObject(o.clone()), |e| {
        matches!(e, EditError::WrongKind { .. })
    });
    o.at = Placement::On(id("table_1"));
    o.owner = Some(id("table_1"));
    refused(&mut doc, Edit::AddObject(o), |e| {
        matches!(e, EditError::WrongKind { .. })
    });
}

#[test]
fn actors_start_in_a_room_or_near_a_fixture() {
    let mut doc = Document::new(base());
    let s = round_trip(
        &mut doc,
        Edit::StartActor {
            id: id("ann"),
            at: id("dock_1"),
        },
    );
    assert_eq!(
        (&actor(&s, "ann").room, &actor(&s, "ann").near),
        (&id("hall"), &Some(id("dock_1")))
    );
    let s = round_trip(
        &mut doc,
        Edit::StartActor {
            id: id("ann"),
            at: id("kitchen"),
        },
    );
    assert_eq!(
        (&actor(&s, "ann").room, &actor(&s, "ann").near),
        (&id("kitchen"), &None)
    );
    for (who, at) in [("ann", "mug_1"), ("mug_1", "kitchen"), ("ann", "garden")] {
        refused(
            &mut doc,
            Edit::StartActor {
                id: id(who),
                at: id(at),
            },
            |e| matches!(e, EditError::WrongKind { .. } | EditError::Unknown { .. }),
        );
    }
    let mut bob = actor(&base(), "ann").clone();
    bob.id = id("bob");
    bob.near = Some(id("dock_1"));
    refused(&mut doc, Edit::AddActor(bob.clone()), |e| {
        matches!(e, EditError::WrongKind { .. })
    });
    bob.near = None;
    bob.hands = 0;
    refused(&mut doc, Edit::AddActor(bob), |e| {
        matches!(e, EditError::BadGeometry { .. })
    });
}

#[test]
fn removing_something_referenced_names_the_referrers_and_follows_the_policy() {
    let mut doc = Document::new(base());
    let remove = |i: &str, policy| Edit::Remove { id: id(i), policy };
    let e = refused(&mut doc, remove("table_1", OnRemove::Refuse), |e| {
        matches!(e, EditError::Referenced { .. })
    });
    assert_eq!(
        e,
        EditError::Referenced {
            id: id("table_1"),
            by: vec![id("mug_1"), id("ann")]
        }
    );
    assert_eq!(referrers(doc.scene(), &id("kitchen")).len(), 5);

    // Cascade: the mug goes with the table; ann is no longer near it.
    let s = round_trip(&mut doc, remove("table_1", OnRemove::Cascade));
    assert!(s.objects.iter().all(|o| o.id.as_str() != "mug_1"));
    assert_eq!(actor(&s, "ann").near, None);
    assert!(doc.problems().is_empty(), "{:?}", codes(&doc));
    doc.undo().unwrap();

    // MoveTo: the mug goes to the cupboard (On); the cupboard's plate to
    // the oven (In); a full destination refuses the whole removal.
    let s = round_trip(
        &mut doc,
        remove("table_1", OnRemove::MoveTo(id("cupboard_1"))),
    );
    assert_eq!(object(&s, "mug_1").at, Placement::On(id("cupboard_1")));
    assert!(doc.problems().is_empty(), "{:?}", codes(&doc));
    let e = refused(
        &mut doc,
        remove("cupboard_1", OnRemove::MoveTo(id("oven_1"))),
        |e| matches!(e, EditError::Full { .. }),
    );
    assert!(e.to_string().contains("oven_1 is full"), "{e}");
    refused(
        &mut doc,
        remove("cupboard_1", OnRemove::MoveTo(id("cupboard_1"))),
        |e| matches!(e, EditError::BadPolicy { .. }),
    );
    doc.undo().unwrap();

    // An actor: what it holds moves, what it owns loses its owner.
    let s = round_trip(&mut doc, remove("ann", OnRemove::MoveTo(id("table_1"))));
    assert_eq!(object(&s, "keys_1").at, Placement::On(id("table_1")));
    assert_eq!(object(&s, "plate_1").owner, None);
    doc.undo().unwrap();

    // A room with Cascade: its doors, fixtures, their objects, its actors
    // and what they hold; the robot near the hall's dock stays.
    let s = round_trip(&mut doc, remove("kitchen", OnRemove::Cascade));
    assert_eq!(s.rooms.len(), 1);
    assert!(s.doors.is_empty() && s.devices.is_empty());
    assert_eq!(s.furniture.len(), 1);
    assert!(s.objects.is_empty());
    assert_eq!(s.actors.len(), 1);
    assert!(doc.problems().is_empty(), "{:?}", codes(&doc));
    refused(
        &mut doc,
        remove("hall", OnRemove::MoveTo(id("kitchen"))),
        |e| matches!(e, EditError::BadPolicy { .. }),
    );
    doc.undo().unwrap();
    assert_eq!(doc.scene(), &base());

    // Nothing refers to an object or a door.
    round_trip(&mut doc, remove("plate_1", OnRemove::Refuse));
    round_trip(&mut doc, remove("door_hall", OnRemove::Refuse));
    assert!(codes(&doc).contains(&("unreachable_room", "hall".into())));
}

#[test]
fn device_fields_are_added_edited_and_removed_with_their_schema_checked() {
    let mut doc = Document::new(base());
    let set = |name: &str, field| Edit::SetField {
        device: id("oven_1"),
        name: name.into(),
        field,
    };
    let s = round_trip(
        &mut doc,
        set(
            "mode",
            Some(FieldDef::Enum {
                value: "fan".into(),
                options: vec!["bake".into(), "grill".into(), "fan".into()],
            }),
        ),
    );
    assert_eq!(s.devices[0].fields.len(), 5);
    round_trip(
        &mut doc,
        set(
            "timer",
            Some(FieldDef::Timer {
                value: 60,
                max: 600,
            }),
        ),
    );
    round_trip(
        &mut doc,
        set(
            "fan",
            Some(FieldDef::Float {
                value: 0.2,
                min: 0.0,
                max: 2.0,
            }),
        ),
    );
    let s = round_trip(&mut doc, set("timer", None));
    assert!(!s.devices[0].fields.contains_key("timer"));
    assert!(doc.problems().is_empty(), "{:?}", codes(&doc));
    for (name, field) in [
        (
            "power",
            Some(FieldDef::Int {
                value: 5,
                min: 0,
                max: 3,
            }),
        ),
        (
            "power",
            Some(FieldDef::Int {
                value: 0,
                min: 3,
                max: 1,
            }),
        ),
        (
            "power",
            Some(FieldDef::Float {
                value: f64::NAN,
                min: 0.0,
                max: 1.0,
            }),
        ),
        (
            "mode",
            Some(FieldDef::Enum {
                value: "x".into(),
                options: vec!["bake".into()],
            }),
        ),
        (
            "mode",
            Some(FieldDef::Enum {
                value: "a".into(),
                options: vec!["a".into(), "a".into()],
            }),
        ),
        ("timer", Some(FieldDef::Timer { value: 10, max: 5 })),
        ("Bad Name", Some(FieldDef::Bool(true))),
        ("nothing", None),
    ] {
        refused(&mut doc, set(name, field), |e| {
            matches!(e, EditError::BadField { .. })
        });
    }
    refused(
        &mut doc,
        Edit::SetField {
            device: id("table_1"),
            name: "power".into(),
            field: Some(FieldDef::Bool(true)),
        },
        |e| matches!(e, EditError::WrongKind { .. }),
    );
}

#[test]
fn catalogue_fixtures_come_with_their_sizes_surfaces_and_fields() {
    let mut doc = Document::new(base());
    let add = |kind: &str, pos, id_: Option<&str>| Edit::AddFixtureFromCatalogue {
        kind: kind.into(),
        room: id("kitchen"),
        pos: Some(pos),
        id: id_.map(id),
    };
    let cat = hearth::catalogue::builtin();
    let s = round_trip(&mut doc, add("coffee machine", (2.0, 2.6), None));
    let d = s.devices.last().unwrap();
    let k = cat.device_kind("coffee machine").unwrap();
    assert_eq!(
        (d.id.as_str(), &d.fields, d.size),
        ("coffee_machine_1", &k.fields, k.size)
    );
    // An alias names the kind; the id counts up.
    let s = round_trip(&mut doc, add("couch", (2.0, 2.4), None));
    let f = s.furniture.last().unwrap();
    assert_eq!((f.id.as_str(), f.kind.as_str()), ("sofa_1", "sofa"));
    assert_eq!(f.surfaces, cat.furniture_kind("sofa").unwrap().surfaces);
    let s = round_trip(&mut doc, add("sofa", (2.0, 2.4), None));
    assert_eq!(s.furniture.last().unwrap().id.as_str(), "sofa_2");
    assert!(doc.problems().is_empty(), "{:?}", codes(&doc));
    refused(&mut doc, add("spaceship", (2.0, 2.0), None), |e| {
        matches!(e, EditError::UnknownCatalogueKind { .. })
    });
    refused(&mut doc, add("sofa", (0.2, 0.2), None), |e| {
        matches!(e, EditError::OutsideRoom { .. })
    });
    refused(&mut doc, add("sofa", (2.0, 2.4), Some("table_1")), |e| {
        matches!(e, EditError::IdTaken { .. })
    });
}

#[test]
fn a_failed_step_of_a_batch_undoes_the_steps_before_it() {
    let mut doc = Document::new(base());
    let e = refused(
        &mut doc,
        Edit::Batch(vec![
            Edit::MoveRoom {
                id: id("hall"),
                to: (8.0, 8.0),
            },
            Edit::Rename {
                from: id("ann"),
                to: id("anna"),
            },
            Edit::PlaceObject {
                id: id("mug_1"),
                on: id("oven_1"),
                inside: Some(false),
            },
        ]),
        |e| matches!(e, EditError::InBatch { index: 2, .. }),
    );
    assert_eq!(e.to_string(), "step 2: oven_1 has no On surface");
    // Raw edits refuse only what they cannot do.
    refused(
        &mut doc,
        Edit::Insert {
            entity: Entity::Object(base().objects[0].clone()),
            index: 0,
        },
        |e| matches!(e, EditError::IdTaken { .. }),
    );
    let mut mug = base().objects[0].clone();
    mug.id = id("mug_7");
    refused(
        &mut doc,
        Edit::Insert {
            entity: Entity::Object(mug),
            index: 4,
        },
        |e| matches!(e, EditError::BadIndex { index: 4, len: 3 }),
    );
    refused(&mut doc, Edit::Take { id: id("nothing") }, |e| {
        matches!(e, EditError::Unknown { .. })
    });
    refused(
        &mut doc,
        Edit::Remove {
            id: id("nothing"),
            policy: OnRemove::Cascade,
        },
        |e| matches!(e, EditError::Unknown { .. }),
    );
}

#[test]
fn history_keeps_200_steps_groups_are_one_step_and_modified_follows_save() {
    let mut doc = Document::new(base());
    assert!(!doc.is_modified());
    for i in 0..250 {
        doc.apply(Edit::Set {
            id: id("hall"),
            prop: Prop::Height(2.0 + i as f32 / 100.0),
        })
        .unwrap();
    }
    assert_eq!(doc.undo_depth(), 250);
    for _ in 0..250 {
        doc.undo().unwrap();
    }
    assert_eq!(doc.scene(), &base());
    assert!(!doc.is_modified());
    assert_eq!(doc.undo(), Err(hearth::editor::HistoryError::NothingToUndo));
    doc.redo().unwrap();
    assert!(doc.is_modified());
    doc.mark_saved();
    doc.undo().unwrap();
    assert!(doc.is_modified());
    doc.redo().unwrap();
    assert!(!doc.is_modified());

    // A bounded history drops the oldest steps.
    let mut small = Document::with_limit(base(), 3);
    for h in [3.0, 4.0, 5.0, 6.0] {
        small
            .apply(Edit::Set {
                id: id("hall"),
                prop: Prop::Height(h),
            })
            .unwrap();
    }
    while small.can_undo() {
        small.undo().unwrap();
    }
    assert_eq!(small.scene().rooms[1].height, 3.0);

    // One drag: 30 moves, one step; a new edit clears redo.
    let mut doc = Document::new(base());
    doc.begin_group();
    for i in 0..30 {
        doc.apply(Edit::MoveFixture {
            id: id("table_1"),
            to: (1.0 + i as f32 * 0.05, 1.5),
        })
        .unwrap();
    }
    assert!(doc.is_modified());
    assert_eq!(doc.undo(), Err(hearth::editor::HistoryError::GroupOpen));
    doc.end_group();
    assert_eq!(doc.undo_depth(), 1);
    let dragged = doc.scene().clone();
    doc.undo().unwrap();
    assert_eq!(doc.scene(), &base());
    doc.redo().unwrap();
    assert_eq!(doc.scene(), &dragged);
    doc.undo().unwrap();
    doc.apply(Edit::Set {
        id: id("hall"),
        prop: Prop::Height(3.0),
    })
    .unwrap();
    assert!(!doc.can_redo());
    // An empty group leaves no step.
    doc.begin_group();
    doc.end_group();
    assert_eq!(doc.undo_depth(), 1);
}

fn all_scenes() -> Vec<Scene> {
    let mut v: Vec<Scene> = scene::BUILTIN.iter().map(|(n, _)| builtin(n)).collect();
    v.push(base());
    let cat = hearth::catalogue::builtin();
    for kind in ["studio", "house"] {
        v.push(procgen::generate(&SceneSpec::new(kind, 3), cat).unwrap());
    }
    v
}

#[test]
fn opening_and_saving_an_untouched_scene_keeps_it_equal() {
    for s in all_scenes() {
        let doc = Document::new(s.clone());
        assert!(doc.problems().is_empty());
        let saved = scene::to_ron(doc.scene());
        assert_eq!(scene::parse("saved", &saved).unwrap(), s, "{}", s.id);
        assert_eq!(doc.into_scene(), s);
    }
}

#[test]
fn an_edits_file_reads_with_newtype_commands_unwrapped() {
    let src = r#"[
        // comments are allowed
        MoveRoom(id: "hall", to: (4.0, 0.5)),
        AddRoom(id: "attic", name: "Attic", rect: (x: 0.0, y: 3.0, w: 4.0, h: 2.0)),
        AddRoom(id: "loft", name: "Loft", rect: (x: 4.0, y: 3.5, w: 2.0, h: 2.0)),
        AddDoor(id: "door_attic", rooms: ("kitchen", "attic"), at: (2.0, 3.0)),
        SetField(device: "oven_1", name: "power", field: Some(Bool(true))),
        Set(id: "ann", prop: Hands(1)),
        Remove(id: "mug_1"),
        Remove(id: "table_1", policy: MoveTo("cupboard_1")),
        Batch([Rename(from: "ann", to: "anna"), StartActor(id: "anna", at: "hall")]),
    ]"#;
    let edits = parse_edits("e.ron", src).unwrap();
    assert_eq!(edits.len(), 9);
    assert_eq!(
        edits[6],
        Edit::Remove {
            id: id("mug_1"),
            policy: OnRemove::Refuse
        }
    );
    let mut doc = Document::new(base());
    for e in edits {
        doc.apply(e).unwrap();
    }
    // The loft joins nothing.
    assert_eq!(codes(&doc), vec![("unreachable_room", "loft".to_string())]);

    let e = parse_edits(
        "e.ron",
        "[\n  MoveRoom(id: \"hall\", to: (1.0, 2.0)),\n  Fly(id: \"x\"),\n]",
    )
    .unwrap_err();
    assert_eq!((e.line, e.col), (3, 3), "{e}");
    assert!(e.to_string().starts_with("e.ron:3:"), "{e}");
    assert!(parse_edits("e.ron", "[MoveRoom(id: \"hall\")]").is_err());
    // A misspelt field is an error, not silently dropped.
    let e = parse_edits(
        "e.ron",
        "[AddDoor(id: \"d\", rooms: (\"a\", \"b\"), at: (0.0, 0.0), opnable: true)]",
    )
    .unwrap_err();
    assert!(e.message.contains("opnable"), "{e}");
}

/// A random edit, as numbers resolved against the scene it applies to, so
/// that most of them name real entities.
#[derive(Debug, Clone)]
enum Op {
    MoveRoom(usize, f32, f32),
    MoveRooms(usize, usize, f32, f32),
    ResizeRoom(usize, f32, f32),
    AddDoor(usize, usize, f32, f32),
    MoveDoor(usize, f32, f32),
    MoveFixture(usize, f32, f32),
    Place(usize, usize, Option<bool>),
    Start(usize, usize),
    Rename(usize),
    Remove(usize, u8, usize),
    Catalogue(usize, usize, f32, f32),
    Field(usize, u8),
    Set(usize, u8),
    Take(usize),
}

fn op() -> impl Strategy<Value = Op> {
    let n = 0..1000usize;
    let d = -2.0f32..2.0;
    prop_oneof![
        (n.clone(), d.clone(), d.clone()).prop_map(|(a, x, y)| Op::MoveRoom(a, x, y)),
        (n.clone(), n.clone(), d.clone(), d.clone())
            .prop_map(|(a, b, x, y)| Op::MoveRooms(a, b, x, y)),
        (n.clone(), d.clone(), d.clone()).prop_map(|(a, x, y)| Op::ResizeRoom(a, x, y)),
        (n.clone(), n.clone(), d.clone(), d.clone())
            .prop_map(|(a, b, x, y)| Op::AddDoor(a, b, x, y)),
        (n.clone(), d.clone(), d.clone()).prop_map(|(a, x, y)| Op::MoveDoor(a, x, y)),
        (n.clone(), d.clone(), d.clone()).prop_map(|(a, x, y)| Op::MoveFixture(a, x, y)),
        (n.clone(), n.clone(), prop::option::of(any::<bool>()))
            .prop_map(|(a, b, i)| Op::Place(a, b, i)),
        (n.clone(), n.clone()).prop_map(|(a, b)| Op::Start(a, b)),
        n.clone().prop_map(Op::Rename),
        (n.clone(), 0..3u8, n.clone()).prop_map(|(a, p, b)| Op::Remove(a, p, b)),
        (n.clone(), n.clone(), d.clone(), d.clone())
            .prop_map(|(a, b, x, y)| Op::Catalogue(a, b, x, y)),
        (n.clone(), 0..4u8).prop_map(|(a, k)| Op::Field(a, k)),
        (n.clone(), 0..6u8).prop_map(|(a, k)| Op::Set(a, k)),
        n.prop_map(Op::Take),
    ]
}

fn pick<T: Clone>(v: &[T], i: usize) -> Option<T> {
    (!v.is_empty()).then(|| v[i % v.len()].clone())
}

fn resolve(op: &Op, s: &Scene, step: usize) -> Option<Edit> {
    let rooms: Vec<Id> = s.rooms.iter().map(|r| r.id.clone()).collect();
    let fixtures: Vec<Id> = s
        .furniture
        .iter()
        .map(|f| f.id.clone())
        .chain(s.devices.iter().map(|d| d.id.clone()))
        .collect();
    let objects: Vec<Id> = s.objects.iter().map(|o| o.id.clone()).collect();
    let actors: Vec<Id> = s.actors.iter().map(|a| a.id.clone()).collect();
    let all: Vec<Id> = rooms
        .iter()
        .chain(s.doors.iter().map(|d| &d.id))
        .chain(&fixtures)
        .chain(&objects)
        .chain(&actors)
        .cloned()
        .collect();
    let room_rect = |r: &Id| s.rooms.iter().find(|x| &x.id == r).unwrap().rect;
    Some(match *op {
        Op::MoveRoom(a, x, y) => {
            let r = pick(&rooms, a)?;
            let rect = room_rect(&r);
            Edit::MoveRoom {
                id: r,
                to: (rect.x + x, rect.y + y),
            }
        }
        Op::MoveRooms(a, b, x, y) => Edit::MoveRooms {
            ids: vec![pick(&rooms, a)?, pick(&rooms, b)?],
            by: (x, y),
        },
        Op::ResizeRoom(a, w, h) => {
            let r = pick(&rooms, a)?;
            let rect = room_rect(&r);
            Edit::ResizeRoom {
                id: r,
                rect: Rect {
                    w: rect.w + w,
                    h: rect.h + h,
                    ..rect
                },
            }
        }
        Op::AddDoor(a, b, x, y) => {
            let (ra, rb) = (pick(&rooms, a)?, pick(&rooms, b)?);
            let c = room_rect(&ra).center();
            Edit::AddDoor {
                id: Id::new(&format!("new_door_{step}")),
                rooms: (ra, rb),
                at: (c.0 + x * 3.0, c.1 + y * 3.0),
                openable: x > 0.0,
                open: true,
            }
        }
        Op::MoveDoor(a, x, y) => {
            let d = pick(&s.doors, a)?;
            Edit::MoveDoor {
                id: d.id,
                to: (d.at.0 + x, d.at.1 + y),
            }
        }
        Op::MoveFixture(a, x, y) => {
            let f = pick(&fixtures, a)?;
            let pos = s
                .furniture
                .iter()
                .map(|f| (&f.id, f.pos))
                .chain(s.devices.iter().map(|d| (&d.id, d.pos)))
                .find(|(i, _)| **i == f)
                .unwrap()
                .1;
            Edit::MoveFixture {
                id: f,
                to: (pos.0 + x, pos.1 + y),
            }
        }
        Op::Place(a, b, inside) => {
            let targets: Vec<Id> = fixtures.iter().chain(&actors).cloned().collect();
            Edit::PlaceObject {
                id: pick(&objects, a)?,
                on: pick(&targets, b)?,
                inside,
            }
        }
        Op::Start(a, b) => {
            let at: Vec<Id> = rooms.iter().chain(&fixtures).cloned().collect();
            Edit::StartActor {
                id: pick(&actors, a)?,
                at: pick(&at, b)?,
            }
        }
        Op::Rename(a) => Edit::Rename {
            from: pick(&all, a)?,
            to: Id::new(&format!("renamed_{step}")),
        },
        Op::Remove(a, p, b) => Edit::Remove {
            id: pick(&all, a)?,
            policy: match p {
                0 => OnRemove::Refuse,
                1 => OnRemove::Cascade,
                _ => OnRemove::MoveTo(pick(&fixtures, b)?),
            },
        },
        Op::Catalogue(a, b, x, y) => {
            let cat = hearth::catalogue::builtin();
            let kinds: Vec<String> = cat
                .furniture
                .iter()
                .map(|k| k.kind.clone())
                .chain(cat.devices.iter().map(|k| k.kind.clone()))
                .collect();
            let r = pick(&rooms, a)?;
            let c = room_rect(&r).center();
            Edit::AddFixtureFromCatalogue {
                kind: pick(&kinds, b)?,
                room: r,
                pos: Some((c.0 + x, c.1 + y)),
                id: None,
            }
        }
        Op::Field(a, k) => {
            let d = pick(&s.devices, a)?;
            let name = d.fields.keys().next().cloned().unwrap_or("power".into());
            Edit::SetField {
                device: d.id,
                name: if k == 0 {
                    format!("extra_{step}")
                } else {
                    name
                },
                field: match k {
                    0 | 1 => Some(FieldDef::Bool(true)),
                    2 => None,
                    _ => Some(FieldDef::Int {
                        value: 9,
                        min: 0,
                        max: 3,
                    }),
                },
            }
        }
        Op::Set(a, k) => {
            let target = pick(&all, a)?;
            let prop = match k {
                0 => Prop::Name(format!("name {step}")),
                1 => Prop::Description(format!("described {step}")),
                2 => Prop::Hands(1 + step as u32 % 3),
                3 => Prop::Pos((step as f32, 1.0)),
                4 => Prop::Owner(pick(&actors, a)),
                _ => Prop::Openable(Openable::Open),
            };
            Edit::Set { id: target, prop }
        }
        Op::Take(a) => Edit::Take { id: pick(&all, a)? },
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() })]

    /// Random edits, some refused, applied to every built-in, the base and
    /// generated scenes: a refused edit changes nothing; undoing everything
    /// gives back the original exactly; redoing everything gives the end
    /// state back.
    #[test]
    fn random_edit_sequences_undo_to_the_original_and_redo_to_the_end(
        which in 0..6usize,
        ops in prop::collection::vec(op(), 1..40),
        grouped in any::<bool>(),
    ) {
        let original = all_scenes().swap_remove(which);
        let mut doc = Document::new(original.clone());
        if grouped {
            doc.begin_group();
        }
        let mut applied = 0;
        for (step, op) in ops.iter().enumerate() {
            let Some(edit) = resolve(op, doc.scene(), step) else { continue };
            let before = doc.scene().clone();
            match doc.apply(edit.clone()) {
                Ok(()) => applied += 1,
                Err(e) => prop_assert_eq!(doc.scene(), &before, "refused {:?} ({}) changed the scene", edit, e),
            }
            let fresh = scene::validate(doc.scene());
            prop_assert_eq!(doc.problems(), fresh.as_slice());
            prop_assert!(lookup_agrees(&doc), "a stale index after {:?}", edit);
        }
        if grouped {
            doc.end_group();
            prop_assert_eq!(doc.undo_depth(), usize::from(applied > 0));
        } else {
            prop_assert_eq!(doc.undo_depth(), applied);
        }
        let end = doc.scene().clone();
        while doc.can_undo() {
            doc.undo().unwrap();
        }
        prop_assert_eq!(doc.scene(), &original);
        prop_assert!(lookup_agrees(&doc));
        prop_assert!(!doc.is_modified());
        while doc.can_redo() {
            doc.redo().unwrap();
        }
        prop_assert_eq!(doc.scene(), &end);
    }
}

// --- `hearth scene apply` -------------------------------------------------

const EDITS: &str = r#"[
    MoveRoom(id: "hall", to: (4.0, 0.5)),
    AddDoor(id: "door_2", rooms: ("kitchen", "hall"), at: (4.0, 3.0)),
    Rename(from: "table_1", to: "dining_table"),
    SetField(device: "oven_1", name: "power", field: Some(Bool(true))),
]"#;

#[test]
fn scene_apply_writes_the_edited_scene() {
    let dir = tmp();
    let base_path = write(dir.path(), "base.ron", BASE);
    let edits = write(dir.path(), "edits.ron", EDITS);
    let out = dir.path().join("out.ron");
    let r = hearth(&["scene", "apply", s(&base_path), s(&edits), "-o", s(&out)]).ok();
    r.stderr_has("4 edit(s) applied, 0 problem(s)");
    let edited = scene::parse("out.ron", &fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(door(&edited, "door_2").at, (4.0, 2.7));
    assert_eq!(
        object(&edited, "mug_1").at,
        Placement::On(id("dining_table"))
    );
    assert_eq!(edited.devices[0].fields["power"], FieldDef::Bool(true));
    assert_no_temp(dir.path());
    // To stdout, from a built-in scene, with an empty list: the scene as is.
    let empty = write(dir.path(), "empty.ron", "[]");
    let r = hearth(&["scene", "apply", "studio", s(&empty)]).ok();
    assert_eq!(
        scene::parse("stdout", &r.stdout).unwrap(),
        builtin("studio")
    );
    // Then checked like any scene.
    hearth(&["scene", "check", s(&out)]).ok();
}

#[test]
fn scene_apply_locates_ron_syntax_errors() {
    let dir = tmp();
    let base_path = write(dir.path(), "base.ron", BASE);
    let edits = write(
        dir.path(),
        "edits.ron",
        "[\n    MoveRoom(id: \"hall\", to: (4.0, 0.5)),\n    MoveRoom(id: \"hall\" to: (4.0, 0.5)),\n]\n",
    );
    let out = dir.path().join("out.ron");
    let r = hearth(&["scene", "apply", s(&base_path), s(&edits), "-o", s(&out)]).fails();
    r.stderr_has(&format!("{}:3:", s(&edits)));
    assert!(!out.exists());
}

#[test]
fn scene_apply_names_the_failing_edit_and_writes_nothing() {
    let dir = tmp();
    let base_path = write(dir.path(), "base.ron", BASE);
    let edits = write(
        dir.path(),
        "edits.ron",
        r#"[
            MoveRoom(id: "hall", to: (4.0, 0.5)),
            PlaceObject(id: "mug_1", on: "oven_1", inside: Some(false)),
        ]"#,
    );
    let out = dir.path().join("out.ron");
    let r = hearth(&["scene", "apply", s(&base_path), s(&edits), "-o", s(&out)]).fails();
    r.stderr_has("edit 1 (PlaceObject) failed");
    r.stderr_has("oven_1 has no On surface");
    assert!(!out.exists());
    let unknown = write(dir.path(), "u.ron", r#"[Remove(id: "mug_2")]"#);
    hearth(&["scene", "apply", s(&base_path), s(&unknown)])
        .fails()
        .stderr_has("edit 0 (Remove) failed")
        .stderr_has("no entity mug_2 (did you mean mug_1?)");
    hearth(&["scene", "apply", s(&base_path), "missing.ron"]).fails();
    hearth(&["scene", "apply", "no_such_scene", s(&unknown)])
        .fails()
        .stderr_has("no scene file no_such_scene");
}

#[test]
fn scene_apply_refuses_an_invalid_result_unless_allowed() {
    let dir = tmp();
    let base_path = write(dir.path(), "base.ron", BASE);
    let edits = write(
        dir.path(),
        "edits.ron",
        r#"[MoveRoom(id: "hall", to: (7.0, 0.0))]"#,
    );
    let out = dir.path().join("out.ron");
    let r = hearth(&["scene", "apply", s(&base_path), s(&edits), "-o", s(&out)]).fails();
    assert_eq!(r.code, Some(1));
    r.stderr_has("[door_not_on_wall] door_hall");
    r.stderr_has("nothing was written");
    assert!(!out.exists());
    let r = hearth(&[
        "scene",
        "apply",
        s(&base_path),
        s(&edits),
        "-o",
        s(&out),
        "--allow-invalid",
    ])
    .ok();
    r.stderr_has("[door_not_on_wall] door_hall");
    // Located in the written file.
    r.stderr_has(&format!("{}:", s(&out)));
    let text = fs::read_to_string(&out).unwrap();
    assert!(scene::parse("out", &text).is_err());
    // An invalid scene opens, and edits can repair it.
    let fix = write(
        dir.path(),
        "fix.ron",
        r#"[MoveRoom(id: "hall", to: (4.0, 0.0))]"#,
    );
    let r = hearth(&["scene", "apply", s(&out), s(&fix)]).ok();
    assert_eq!(scene::parse("stdout", &r.stdout).unwrap(), base());
}

#[test]
fn scene_apply_help() {
    let r = hearth(&["scene", "apply", "--help"]).ok();
    for needle in ["EDITS", "--out", "--allow-invalid", "README"] {
        r.stdout_has(needle);
    }
    hearth(&["scene", "--help"]).ok().stdout_has("apply");
    hearth(&["scene", "apply"]).fails();
}

#[test]
fn the_guide_example_applies_to_the_family_apartment() {
    let page = fs::read_to_string(repo().join("docs/scenes.md")).unwrap();
    let section = &page[page.find("## Editing scenes from a script").unwrap()..];
    let start = section.find("```ron\n").unwrap() + 7;
    let src = &section[start..start + section[start..].find("```").unwrap()];
    let mut doc = Document::new(builtin("family_apartment"));
    for (i, e) in parse_edits("docs/scenes.md", src)
        .unwrap()
        .into_iter()
        .enumerate()
    {
        doc.apply(e)
            .unwrap_or_else(|e| panic!("docs/scenes.md edit {i}: {e}"));
    }
    assert!(doc.problems().is_empty(), "{:?}", codes(&doc));
    let s = doc.scene();
    assert_eq!(door(s, "door_balcony").at, (3.5, 0.0));
    assert_eq!(object(s, "book_1").at, Placement::On(id("armchair_2")));
    assert_eq!(actor(s, "alice").room, id("balcony"));
    assert_eq!(object(s, "tea_1").at, Placement::On(id("counter_1")));
    let den = s.rooms.iter().find(|r| r.id == id("den")).unwrap();
    assert_eq!((den.rect.w, den.rect.h), (3.2, 3.1));
    assert_eq!(door(s, "door_den").at, (6.5, -1.0));
    assert_eq!(actor(s, "guest").room, id("balcony"));
    assert_eq!(object(s, "book_6").at, Placement::On(id("armchair_2")));
}

/// Everything the editor's palette adds, as the commands it issues, read
/// from an EDITS.ron text as `hearth scene apply` reads them.
#[test]
fn the_palettes_additions_are_model_commands_that_scene_apply_reads() {
    let edits = parse_edits(
        "palette.ron",
        r#"[
            AddRoomFromCatalogue(kind: "kitchen"),
            AddFixtureFromCatalogue(kind: "armchair", room: "kitchen_1"),
            AddObjectFromCatalogue(category: "book", on: "armchair_1"),
            AddObjectFromCatalogue(category: "mug", on: "cupboard_1", inside: true, id: "cup_9"),
            AddActorOfKind(kind: human, at: "kitchen_1"),
            AddActorOfKind(kind: robot, at: "armchair_1", id: "helper"),
        ]"#,
    )
    .unwrap();
    let mut doc = Document::new(base());
    for e in edits {
        round_trip(&mut doc, e);
    }
    let s = doc.scene().clone();
    let cat = hearth::catalogue::builtin();
    // East of the house (the hall ends at x = 6), level with its top; the
    // catalogue's name, and its mean area on the 0.1 m grid (14 m²).
    let room = s.rooms.iter().find(|r| r.id == id("kitchen_1")).unwrap();
    assert_eq!(room.name, cat.room("kitchen").unwrap().name);
    assert_eq!(
        (room.rect.x, room.rect.y, room.rect.w, room.rect.h),
        (6.0, 0.0, 3.7, 3.8)
    );
    // In the middle of its room, with the catalogue's size.
    let chair = s
        .furniture
        .iter()
        .find(|f| f.id == id("armchair_1"))
        .unwrap();
    assert!((chair.pos.0 - 7.85).abs() < 1e-5 && (chair.pos.1 - 1.9).abs() < 1e-5);
    assert_eq!(chair.size, cat.furniture_kind("armchair").unwrap().size);
    assert_eq!(object(&s, "book_1").at, Placement::On(id("armchair_1")));
    assert_eq!(object(&s, "cup_9").at, Placement::In(id("cupboard_1")));
    assert_eq!(object(&s, "cup_9").category, "mug");
    // Look-alikes described apart, by the catalogue's variants.
    let book = &cat.category("book").unwrap().variants;
    assert_eq!(object(&s, "book_1").description, book[0]);
    let person = actor(&s, "person_1");
    assert_eq!(
        person,
        &ActorDef {
            room: id("kitchen_1"),
            ..actor_defaults(id("person_1"), ActorKind::Human)
        }
    );
    assert_eq!(
        (person.role.as_str(), person.hands, person.speed),
        ("resident", 2, 1.0)
    );
    let robot = actor(&s, "helper");
    assert_eq!(
        (robot.room.clone(), robot.near.clone()),
        (id("kitchen_1"), Some(id("armchair_1")))
    );
    assert_eq!((robot.role.as_str(), robot.speed), ("robot", 0.6));
    // Only what validation says about a room with no door.
    assert_eq!(codes(&doc), vec![("unreachable_room", "kitchen_1".into())]);

    // Bad input changes nothing: unknown kinds, no space, bad rooms.
    let unknown = |what: &'static str| move |e: &EditError| matches!(e, EditError::UnknownCatalogueKind { what: w, .. } if *w == what);
    let room_of = |kind: &str| Edit::AddRoomFromCatalogue {
        kind: kind.into(),
        at: None,
        id: None,
    };
    refused(&mut doc, room_of("dungeon"), unknown("room type"));
    refused(
        &mut doc,
        Edit::AddRoomFromCatalogue {
            kind: "kitchen".into(),
            at: Some((20.0, 0.0)),
            id: Some(id("hall")),
        },
        |e| matches!(e, EditError::IdTaken { .. }),
    );
    let fixture = |kind: &str, room: &str| Edit::AddFixtureFromCatalogue {
        kind: kind.into(),
        room: id(room),
        pos: None,
        id: None,
    };
    refused(
        &mut doc,
        fixture("spaceship", "hall"),
        unknown("furniture or device kind"),
    );
    refused(&mut doc, fixture("sofa", "nowhere"), |e| {
        matches!(e, EditError::Unknown { .. })
    });
    refused(&mut doc, fixture("sofa", "mug_1"), |e| {
        matches!(e, EditError::WrongKind { .. })
    });
    // A 2.2 m sofa in the 2 m wide hall: no space.
    refused(&mut doc, fixture("sofa", "hall"), |e| {
        matches!(e, EditError::OutsideRoom { .. })
    });
    let object_on = |category: &str, on: &str| Edit::AddObjectFromCatalogue {
        category: category.into(),
        on: id(on),
        inside: None,
        id: None,
    };
    refused(
        &mut doc,
        object_on("moon rock", "table_1"),
        unknown("object category"),
    );
    refused(&mut doc, object_on("book", "kitchen"), |e| {
        matches!(e, EditError::WrongKind { .. })
    });
    // The armchair holds two: the book and one more.
    doc.apply(object_on("book", "armchair_1")).unwrap();
    assert_eq!(object(doc.scene(), "book_2").description, book[1]);
    refused(&mut doc, object_on("book", "armchair_1"), |e| {
        matches!(e, EditError::Full { capacity: 2, .. })
    });
    refused(&mut doc, object_on("book", "dock_1"), |e| {
        matches!(e, EditError::NoSurface { .. })
    });
    let person_at = |at: &str| Edit::AddActorOfKind {
        kind: ActorKind::Human,
        at: id(at),
        id: None,
    };
    refused(&mut doc, person_at("attic"), |e| {
        matches!(e, EditError::Unknown { .. })
    });
    refused(&mut doc, person_at("mug_1"), |e| {
        matches!(e, EditError::WrongKind { .. })
    });
}

#[test]
fn a_new_schema_carries_the_old_value_along_and_a_new_value_must_fit() {
    let mut doc = Document::new(base());
    let set = |name: &str, field| Edit::SetField {
        device: id("oven_1"),
        name: name.into(),
        field: Some(field),
    };
    let field = |doc: &Document, name: &str| doc.scene().devices[0].fields[name].clone();
    doc.apply(set(
        "temperature",
        FieldDef::Int {
            value: 200,
            min: 0,
            max: 250,
        },
    ))
    .unwrap();
    // The bounds move past the value, which stays the same: clamped.
    round_trip(
        &mut doc,
        set(
            "temperature",
            FieldDef::Int {
                value: 200,
                min: 0,
                max: 120,
            },
        ),
    );
    assert_eq!(
        field(&doc, "temperature"),
        FieldDef::Int {
            value: 120,
            min: 0,
            max: 120
        }
    );
    round_trip(
        &mut doc,
        set(
            "fan",
            FieldDef::Float {
                value: 0.5,
                min: 0.75,
                max: 2.0,
            },
        ),
    );
    assert_eq!(
        field(&doc, "fan"),
        FieldDef::Float {
            value: 0.75,
            min: 0.75,
            max: 2.0
        }
    );
    doc.apply(set(
        "timer",
        FieldDef::Timer {
            value: 900,
            max: 3600,
        },
    ))
    .unwrap();
    doc.apply(set(
        "timer",
        FieldDef::Timer {
            value: 900,
            max: 600,
        },
    ))
    .unwrap();
    assert_eq!(
        field(&doc, "timer"),
        FieldDef::Timer {
            value: 600,
            max: 600
        }
    );
    // Options that lost the value: the first option.
    doc.apply(set(
        "mode",
        FieldDef::Enum {
            value: "bake".into(),
            options: vec!["fan".into(), "grill".into()],
        },
    ))
    .unwrap();
    assert_eq!(
        field(&doc, "mode"),
        FieldDef::Enum {
            value: "fan".into(),
            options: vec!["fan".into(), "grill".into()]
        }
    );
    // A new value outside its bounds, a new type, bounds the wrong way
    // round, no options: refused, not repaired.
    for bad in [
        FieldDef::Int {
            value: 300,
            min: 0,
            max: 120,
        },
        FieldDef::Int {
            value: 120,
            min: 130,
            max: 120,
        },
    ] {
        refused(&mut doc, set("temperature", bad), |e| {
            matches!(e, EditError::BadField { .. })
        });
    }
    refused(
        &mut doc,
        set(
            "power",
            FieldDef::Int {
                value: 5,
                min: 0,
                max: 3,
            },
        ),
        |e| matches!(e, EditError::BadField { .. }),
    );
    refused(
        &mut doc,
        set(
            "mode",
            FieldDef::Enum {
                value: "fan".into(),
                options: vec![],
            },
        ),
        |e| matches!(e, EditError::BadField { .. }),
    );
}

#[test]
fn a_drag_merges_into_one_inverse_that_restores_the_start() {
    let mut doc = Document::new(base());
    doc.begin_group();
    for i in 0..100 {
        doc.apply(Edit::MoveRoom {
            id: id("hall"),
            to: (4.0 + i as f32 * 0.01, 0.0),
        })
        .unwrap();
    }
    // The fixture moves on within the kitchen, then into the hall.
    for i in 0..50 {
        doc.apply(Edit::MoveFixture {
            id: id("table_1"),
            to: (2.0 + i as f32 * 0.02, 1.5),
        })
        .unwrap();
    }
    doc.apply(Edit::MoveFixture {
        id: id("table_1"),
        to: (5.99, 1.5),
    })
    .unwrap();
    doc.end_group();
    assert_eq!(doc.undo_depth(), 1);
    // One set per property touched: the hall's rect, its door, its dock;
    // the table's position and room and Ann's room (she is near it).
    let Some(Edit::Batch(steps)) = doc.last_step() else {
        panic!("{:?}", doc.last_step());
    };
    assert_eq!(steps.len(), 2, "two merged moves: {steps:?}");
    let sets = |e: &Edit| match e {
        Edit::Batch(v) => v.len(),
        _ => 1,
    };
    assert_eq!((sets(&steps[0]), sets(&steps[1])), (3, 3), "{steps:?}");
    let dragged = doc.scene().clone();
    assert_eq!(actor(&dragged, "ann").room, id("hall"));
    doc.undo().unwrap();
    assert_eq!(doc.scene(), &base());
    doc.redo().unwrap();
    assert_eq!(doc.scene(), &dragged);

    // Moves of different things, or other edits between, do not merge.
    let mut doc = Document::new(base());
    doc.begin_group();
    for to in [(2.1, 1.5), (2.2, 1.5)] {
        doc.apply(Edit::MoveFixture {
            id: id("table_1"),
            to,
        })
        .unwrap();
        doc.apply(Edit::MoveFixture {
            id: id("oven_1"),
            to: (to.0 + 0.5, 0.3),
        })
        .unwrap();
    }
    doc.end_group();
    let Some(Edit::Batch(steps)) = doc.last_step() else {
        panic!("{:?}", doc.last_step());
    };
    assert_eq!(steps.len(), 4);
    doc.undo().unwrap();
    assert_eq!(doc.scene(), &base());
}
