//! Households at scale: the catalogue, roles instead of kind names, and
//! procedurally generated scenes (valid, varied, deterministic), with the
//! offline generator living in them as it does in the hand-written ones.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use hearth::catalogue::schedules::VisitorKind;
use hearth::catalogue::{self, Catalogue, CatalogueError, Mount, Roles, RoomType, Zone};
use hearth::generation::scripted::Scripted;
use hearth::procgen::{self, ProcgenError, SceneSpec};
use hearth::samples::{Family, Index, Sample, mine, validate::check};
use hearth::scene::{self, Role, Scene};
use hearth::trace::{DAY, Event};

use common::*;

fn cat() -> &'static Catalogue {
    catalogue::builtin()
}

fn gen_scene(kind: &str, seed: u64) -> Scene {
    procgen::generate(&SceneSpec::new(kind, seed), cat())
        .unwrap_or_else(|e| panic!("{kind} seed {seed}: {e}"))
}

/// House seed 1024 draws a room count no zoned plan fits; another count
/// is drawn, and the household is as valid as any other.
#[test]
fn a_seed_whose_room_count_cannot_be_zoned_gets_another() {
    let s = gen_scene("house", 1024);
    assert!(hearth::scene::validate(&s).is_empty());
    assert_eq!(s, gen_scene("house", 1024));
}

fn events_of(scene: &Scene, seed: u64, days: u32) -> Vec<Event> {
    let mut events = Vec::new();
    let mut backend = Scripted::new(scene, seed);
    hearth::generation::generate(scene, days, &mut backend, &mut |e| {
        events.push(e.clone());
        Ok(())
    })
    .unwrap_or_else(|e| panic!("{}: {e}", scene.id));
    events
}

// ---------------------------------------------------------------- catalogue

#[test]
fn the_builtin_catalogue_loads_and_covers_every_role() {
    let c = cat();
    assert_eq!(c.household_kinds(), ["studio", "apartment", "house"]);
    let given: BTreeSet<Role> = c
        .furniture
        .iter()
        .flat_map(|f| f.roles.clone())
        .chain(c.devices.iter().flat_map(|d| d.roles.clone()))
        .chain(c.objects.iter().flat_map(|o| o.roles.clone()))
        .collect();
    // Every role the generator relies on is given to some kind.
    for role in [
        Role::HotDrinks,
        Role::ColdStorage,
        Role::Cooking,
        Role::DishWashing,
        Role::Laundry,
        Role::LaundryBasket,
        Role::DiningSurface,
        Role::Light,
        Role::Entertainment,
        Role::RobotDock,
        Role::Washbasin,
        Role::Seating,
        Role::WorkDesk,
        Role::Bedside,
        Role::ClothesStorage,
        Role::DrinkVessel,
        Role::BreakfastFood,
        Role::Medicine,
        Role::Clothes,
        Role::EverydayItem,
        Role::Perishable,
        Role::ShoppingList,
    ] {
        assert!(given.contains(&role), "no kind plays {role:?}");
    }
    // The hand-written scenes' kinds are all known to the catalogue.
    for (id, src) in scene::BUILTIN {
        let s = scene::parse(id, src).unwrap();
        for f in &s.furniture {
            assert!(
                c.furniture_kind(&f.kind).is_some()
                    || c.device_kind(&f.kind).is_some()
                    || ["piano", "linen cabinet", "craft cabinet"].contains(&f.kind.as_str()),
                "{id}: kind {:?} is not in the catalogue",
                f.kind
            );
        }
        for o in &s.objects {
            assert!(
                c.category(&o.category).is_some(),
                "{id}: category {:?}",
                o.category
            );
        }
    }
}

#[test]
fn catalogue_errors_say_where_and_what() {
    let src = catalogue::DEFAULT_SOURCE;
    // Syntax: a file:line:col.
    let broken = src.replacen("households: [", "households: [ oops", 1);
    match catalogue::parse("cat.ron", &broken) {
        Err(e @ CatalogueError::Syntax(_)) => {
            let msg = e.to_string();
            assert!(msg.starts_with("cat.ron:"), "{msg}");
            let line: usize = msg.split(':').nth(1).unwrap().parse().unwrap();
            assert_eq!(
                src.lines()
                    .position(|l| l.contains("households: ["))
                    .unwrap()
                    + 1,
                line
            );
        }
        other => panic!("expected a syntax error, got {other:?}"),
    }
    // An unknown role is a syntax error naming the role.
    let broken = src.replacen("roles: [seating]", "roles: [sitting]", 1);
    let msg = catalogue::parse("cat.ron", &broken)
        .unwrap_err()
        .to_string();
    assert!(msg.contains("sitting"), "{msg}");
    // Semantic problems, all at once, each located at its name.
    let broken = src
        .replacen(
            "found: [In(\"fridge\")], count: (1, 2), servings: Some(6), keeps: Some(7),\n         variants: [\"litre",
            "found: [In(\"icebox\")], count: (1, 2), servings: Some(6), keeps: Some(7),\n         variants: [\"litre",
            1,
        )
        .replacen(
            "aliases: [\"couch\", \"settee\"]",
            "aliases: [\"couch\", \"fridge\"]",
            1,
        );
    match catalogue::parse("cat.ron", &broken) {
        Err(CatalogueError::Invalid { problems, .. }) => {
            let text: Vec<&str> = problems.iter().map(|p| p.message.as_str()).collect();
            assert!(text.iter().any(|m| m.contains("icebox")), "{text:?}");
            assert!(text.iter().any(|m| m.contains("defined twice")), "{text:?}");
            let icebox = problems
                .iter()
                .find(|p| p.message.contains("icebox"))
                .unwrap();
            let line = broken.lines().nth(icebox.line - 1).unwrap();
            assert!(line.contains("\"icebox\""), "located at {line:?}");
        }
        other => panic!("expected problems, got {other:?}"),
    }
    // The unchanged text parses.
    assert!(catalogue::parse("cat.ron", src).is_ok());
}

#[test]
fn an_unknown_role_in_a_scene_is_reported_at_its_line() {
    let src = scene::default_source().replacen(
        "description: \"steel two-door fridge\")",
        "description: \"steel two-door fridge\", roles: [icebox])",
        1,
    );
    let msg = scene::parse("s.ron", &src).unwrap_err().to_string();
    let line = src.lines().position(|l| l.contains("icebox")).unwrap() + 1;
    assert!(msg.starts_with(&format!("s.ron:{line}:")), "{msg}");
    assert!(msg.contains("icebox"), "{msg}");
}

// -------------------------------------------------------------------- roles

/// Kind and category names in the family apartment replaced by others.
fn renamed(pairs: &[(&str, &str)]) -> Scene {
    let mut src = scene::default_source().to_string();
    for (from, to) in pairs {
        src = src.replace(&format!("kind: \"{from}\""), &format!("kind: \"{to}\""));
    }
    scene::parse("renamed", &src).unwrap()
}

fn by_skill(events: &[Event]) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for e in events {
        *m.entry(e.action.skill_name().to_string()).or_default() += 1;
    }
    m
}

#[test]
fn synonyms_keep_the_household_going() {
    let original = scene::default_scene();
    let synonyms = renamed(&[
        ("coffee machine", "espresso maker"),
        ("fridge", "refrigerator"),
        ("washing machine", "washer"),
        ("counter", "worktop"),
        ("sofa", "couch"),
        ("nightstand", "bedside table"),
        ("laundry basket", "hamper"),
        ("sink counter", "washbasin"),
    ]);
    let a = events_of(&original, 0, 3);
    let b = events_of(&synonyms, 0, 3);
    assert_eq!(a.len(), b.len());
    assert_eq!(by_skill(&a), by_skill(&b));
}

#[test]
fn an_unusual_kind_name_works_when_tagged_with_its_role() {
    let original = scene::default_scene();
    let strange = |tag: bool| {
        let mut s = renamed(&[("fridge", "cold box"), ("coffee machine", "bean thing")]);
        for f in &mut s.furniture {
            if f.kind == "cold box" && tag {
                f.roles = vec![Role::ColdStorage];
            }
        }
        for d in &mut s.devices {
            if d.kind == "bean thing" && tag {
                d.roles = vec![Role::HotDrinks];
            }
        }
        assert!(scene::validate(&s).is_empty());
        s
    };
    let a = events_of(&original, 0, 3);
    let tagged = events_of(&strange(true), 0, 3);
    assert_eq!(by_skill(&a), by_skill(&tagged));
    // Untagged, the household has no fridge and no coffee: visibly less.
    let untagged = events_of(&strange(false), 0, 3);
    assert!(
        untagged.len() < a.len(),
        "{} vs {}",
        untagged.len(),
        a.len()
    );
    // Tags survive a round trip through the file format.
    let s = strange(true);
    assert_eq!(scene::parse("t", &scene::to_ron(&s)).unwrap(), s);
}

#[test]
fn roles_come_from_kinds_aliases_and_tags() {
    let s = renamed(&[("fridge", "refrigerator")]);
    let r = Roles::builtin(&s);
    assert_eq!(
        r.fixture(Role::ColdStorage).map(|i| i.as_str()),
        Some("fridge_1")
    );
    assert!(r.has(&"mug_1".into(), Role::DrinkVessel));
    assert!(r.objects(Role::Medicine).len() >= 2);
    assert!(r.of(&"living_room".into()).is_empty());
    assert!(
        r.device(Role::ColdStorage).is_none(),
        "the fridge is furniture"
    );
}

// ------------------------------------------------------------ scene generator

/// Everything a generated scene promises, beyond `scene check`.
fn assert_household(s: &Scene, kind: &str) {
    let k = cat().household(kind).unwrap();
    let problems = scene::validate(s);
    assert!(problems.is_empty(), "{}: {problems:?}", s.id);
    assert_eq!(
        scene::parse("rt", &scene::to_ron(s)).unwrap(),
        *s,
        "{}: round trip",
        s.id
    );
    let st = scene::stats(s);
    assert!(
        (k.rooms.0 as usize..=k.rooms.1 as usize).contains(&st.rooms),
        "{}: {} rooms",
        s.id,
        st.rooms
    );
    // The household: its visitor, if any, starts outside and is not of it.
    let household = st.people - s.actors.iter().filter(|a| a.is_visitor()).count();
    assert!(
        (k.people.0 as usize..=k.people.1 as usize).contains(&household),
        "{}: {} people",
        s.id,
        household
    );
    assert_eq!(st.robots, 1);
    assert!(
        (40..=150).contains(&st.objects),
        "{}: {} objects",
        s.id,
        st.objects
    );
    assert!(
        st.look_alike_groups * 3 >= st.categories,
        "{}: {} look-alike groups of {}",
        s.id,
        st.look_alike_groups,
        st.categories
    );
    // Rooms tile the footprint: their areas add up to its bounding box.
    let (x1, y1) = s.rooms.iter().fold((0f32, 0f32), |(x, y), r| {
        (x.max(r.rect.x + r.rect.w), y.max(r.rect.y + r.rect.h))
    });
    assert!(
        (st.area - x1 * y1).abs() < 0.05,
        "{}: rooms do not tile",
        s.id
    );
    // The entry comes first (validation's reachability starts there).
    let first = &s.rooms[0].id;
    assert!(
        first.starts_with("entrance") || first.starts_with("studio_room"),
        "{}: first room {first}",
        s.id
    );
    // Floor-standing fixtures do not overlap each other or a doorway.
    let floor = |kind: &str| {
        cat()
            .furniture_kind(kind)
            .map(|f| &f.mount)
            .or_else(|| cat().device_kind(kind).map(|d| &d.mount))
            == Some(&Mount::Floor)
    };
    let fixtures: Vec<_> = s
        .furniture
        .iter()
        .map(|f| (&f.id, &f.kind, &f.room, f.pos, f.size))
        .chain(
            s.devices
                .iter()
                .map(|d| (&d.id, &d.kind, &d.room, d.pos, d.size)),
        )
        .filter(|f| floor(f.1))
        .collect();
    for (i, a) in fixtures.iter().enumerate() {
        for b in &fixtures[i + 1..] {
            let apart = (a.3.0 - b.3.0).abs() * 2.0 >= a.4.0 + b.4.0 - 1e-3
                || (a.3.1 - b.3.1).abs() * 2.0 >= a.4.1 + b.4.1 - 1e-3;
            assert!(apart || a.2 != b.2, "{}: {} overlaps {}", s.id, a.0, b.0);
        }
        for d in s
            .doors
            .iter()
            .filter(|d| d.rooms.0 == *a.2 || d.rooms.1 == *a.2)
        {
            let clear = (a.3.0 - d.at.0).abs() >= a.4.0 / 2.0 + 0.6 - 1e-3
                || (a.3.1 - d.at.1).abs() >= a.4.1 / 2.0 + 0.6 - 1e-3;
            assert!(clear, "{}: {} blocks {}", s.id, a.0, d.id);
        }
    }
    // Everyone starts next to a bed in their room; the robot at its dock;
    // a visitor outside, near nothing.
    let r = Roles::builtin(s);
    for a in s.actors.iter().filter(|a| !a.is_visitor()) {
        let near = a
            .near
            .as_ref()
            .unwrap_or_else(|| panic!("{}: {} is near nothing", s.id, a.id));
        let role = if a.kind == scene::ActorKind::Robot {
            Role::RobotDock
        } else {
            Role::Sleeping
        };
        assert!(r.has(near, role), "{}: {} starts near {near}", s.id, a.id);
    }
    for role in [
        Role::ColdStorage,
        Role::HotDrinks,
        Role::Washbasin,
        Role::Light,
        Role::DrinkVessel,
        Role::Medicine,
    ] {
        assert!(
            !r.fixtures(role).is_empty() || !r.objects(role).is_empty(),
            "{}: nothing plays {role:?}",
            s.id
        );
    }
}

/// The catalogue room type of a generated room (`bedroom_2` is a bedroom).
fn room_type(id: &str) -> &'static RoomType {
    cat()
        .room(id)
        .or_else(|| cat().room(id.rsplit_once('_')?.0))
        .unwrap_or_else(|| panic!("room {id} has no catalogue type"))
}

/// The rooms a door of `room` leads to (the front door leads to none).
fn door_neighbours<'a>(s: &'a Scene, room: &'a str) -> impl Iterator<Item = &'a str> {
    s.doors
        .iter()
        .filter(|d| !d.is_exterior())
        .filter_map(move |d| {
            if d.rooms.0.as_str() == room {
                Some(d.rooms.1.as_str())
            } else if d.rooms.1.as_str() == room {
                Some(d.rooms.0.as_str())
            } else {
                None
            }
        })
}

/// Rooms reachable from the entry, passing only through rooms `through`
/// allows (any room may be the end of a walk).
fn reachable(s: &Scene, through: impl Fn(&str) -> bool) -> BTreeSet<String> {
    let mut seen = BTreeSet::from([s.rooms[0].id.to_string()]);
    let mut todo = vec![s.rooms[0].id.to_string()];
    while let Some(r) = todo.pop() {
        if r != *s.rooms[0].id && !through(&r) {
            continue;
        }
        for n in door_neighbours(s, &r) {
            if seen.insert(n.to_string()) {
                todo.push(n.to_string());
            }
        }
    }
    seen
}

/// The fault issue 19 measured: a room others use (anything but a
/// bedroom, bathroom, guest room or study) reached from the entry only
/// through one of those.
fn cut_off_rooms(s: &Scene) -> Vec<String> {
    let private = |id: &str| room_type(id).zone == Zone::Private;
    let ok = reachable(s, |r| !private(r));
    s.rooms
        .iter()
        .filter(|r| !private(&r.id) && !ok.contains(r.id.as_str()))
        .map(|r| r.id.to_string())
        .collect()
}

/// Zoning: halls and public rooms connect to the entry among themselves;
/// every private or service room is a leaf with one door onto a zone it
/// may open onto, or an en-suite bathroom onto a bedroom (and some
/// bathroom opens onto the core); the kitchen and the dining room share a
/// door; at the start bedroom doors are closed and every other door open.
fn assert_zoned(s: &Scene) {
    assert_eq!(cut_off_rooms(s), Vec::<String>::new(), "{}: cut off", s.id);
    let core = |id: &str| room_type(id).zone.is_core();
    let reach = reachable(s, core);
    for r in &s.rooms {
        let t = room_type(&r.id);
        let next: Vec<&str> = door_neighbours(s, &r.id).collect();
        if t.zone.is_core() {
            assert!(reach.contains(r.id.as_str()), "{}: {} cut off", s.id, r.id);
            continue;
        }
        // Leaves: one door, unless a bathroom opens onto this bedroom.
        let onto: Vec<&str> = next
            .iter()
            .copied()
            .filter(|n| !room_type(n).en_suite_of.contains(&t.kind))
            .collect();
        assert_eq!(onto.len(), 1, "{}: {} opens onto {next:?}", s.id, r.id);
        let u = room_type(onto[0]);
        assert!(
            t.opens_onto.contains(&u.zone) || t.en_suite_of.contains(&u.kind),
            "{}: {} opens onto {}",
            s.id,
            r.id,
            onto[0]
        );
    }
    for t in cat().rooms.iter().filter(|t| !t.en_suite_of.is_empty()) {
        let of_type: Vec<_> = s
            .rooms
            .iter()
            .filter(|r| room_type(&r.id).kind == t.kind)
            .collect();
        assert!(
            of_type.is_empty() || of_type.iter().any(|r| door_neighbours(s, &r.id).any(core)),
            "{}: every {} is en-suite",
            s.id,
            t.kind
        );
    }
    let has = |k: &str| s.rooms.iter().any(|r| *r.id == *k);
    if has("kitchen") && has("dining_room") {
        assert!(
            door_neighbours(s, "kitchen").any(|n| n == "dining_room"),
            "{}: kitchen apart",
            s.id
        );
    }
    let sleeps: BTreeSet<&str> = s
        .actors
        .iter()
        .filter(|a| a.kind == scene::ActorKind::Human)
        .map(|a| a.room.as_str())
        .collect();
    // Doors between rooms: the front door starts closed, as front doors do.
    for d in s.doors.iter().filter(|d| !d.is_exterior()) {
        let bedroom =
            |a: &str, b: &str| room_type(a).zone == Zone::Private && sleeps.contains(a) && core(b);
        let shut = bedroom(&d.rooms.0, &d.rooms.1) || bedroom(&d.rooms.1, &d.rooms.0);
        assert_eq!(d.open, !shut, "{}: {} open {}", s.id, d.id, d.open);
        assert!(
            d.open || d.openable,
            "{}: {} is a closed archway",
            s.id,
            d.id
        );
    }
}

#[test]
fn a_thousand_seeds_of_every_kind_give_valid_zoned_households() {
    for kind in ["studio", "apartment", "house"] {
        let mut sizes = BTreeMap::<usize, usize>::new();
        for seed in 0..1000 {
            let s = gen_scene(kind, seed);
            assert_household(&s, kind);
            assert_zoned(&s);
            // One front door, on the entry room (validated on an outer wall).
            let front: Vec<_> = s.doors.iter().filter_map(|d| d.inside_room()).collect();
            assert_eq!(front, [&s.rooms[0].id], "{kind} seed {seed}");
            *sizes.entry(s.rooms.len()).or_default() += 1;
        }
        // Varied: more than one room count occurs.
        assert!(sizes.len() > 1, "{kind}: {sizes:?}");
        // Deterministic: a sample of seeds again, byte for byte.
        for seed in (0..1000).step_by(97) {
            assert_eq!(
                scene::to_ron(&gen_scene(kind, seed)),
                scene::to_ron(&gen_scene(kind, seed)),
                "{kind} seed {seed}"
            );
        }
    }
}

/// The zoning check itself fires: a kitchen reached only through a
/// bedroom, a bedroom used as a corridor, an open bedroom door at night.
#[test]
fn the_zoning_check_catches_rooms_used_as_corridors() {
    let s = gen_scene("apartment", 3);
    let bad = |f: &dyn Fn(&mut Scene)| {
        let mut t = s.clone();
        f(&mut t);
        std::panic::catch_unwind(|| assert_zoned(&t)).is_err()
    };
    assert!(!bad(&|_| {}));
    // Every door onto the kitchen now leads from a bedroom.
    assert!(bad(&|t: &mut Scene| {
        let bedroom = t
            .rooms
            .iter()
            .find(|r| r.id.starts_with("bedroom"))
            .unwrap()
            .id
            .clone();
        for d in t.doors.iter_mut() {
            if *d.rooms.0 == *"kitchen" && *d.rooms.1 != *bedroom {
                d.rooms.1 = bedroom.clone();
            } else if *d.rooms.1 == *"kitchen" && *d.rooms.0 != *bedroom {
                d.rooms.0 = bedroom.clone();
            }
        }
    }));
    assert!(bad(&|t: &mut Scene| {
        for d in t.doors.iter_mut() {
            d.open = true;
        }
    }));
}

/// Objects of a category that belongs in some rooms sit there (when such
/// a room has a receptacle for them; otherwise wherever one is).
#[test]
fn objects_sit_in_the_rooms_they_belong_in() {
    let (mut placed, mut typical) = (0, 0);
    for seed in 0..200 {
        let s = gen_scene(["studio", "apartment", "house"][seed as usize % 3], seed);
        let kind_of_room = |room: &hearth::ids::Id| {
            // Room ids are their type, numbered when repeated.
            let r = room.as_str();
            r.rsplit_once('_')
                .filter(|(_, n)| n.parse::<u32>().is_ok())
                .map_or(r, |(k, _)| k)
                .to_string()
        };
        for o in &s.objects {
            let c = cat().category(&o.category).unwrap();
            if c.rooms.is_empty() || o.owner.is_some() {
                continue;
            }
            let (scene::Placement::On(f) | scene::Placement::In(f)) = &o.at else {
                continue;
            };
            let room = s
                .furniture
                .iter()
                .find(|x| &x.id == f)
                .map(|x| &x.room)
                .or_else(|| s.devices.iter().find(|x| &x.id == f).map(|x| &x.room))
                .unwrap();
            placed += 1;
            typical += usize::from(c.rooms.contains(&kind_of_room(room)));
        }
    }
    assert!(placed > 1000, "{placed}");
    assert!(
        typical * 100 >= placed * 95,
        "{typical} of {placed} in their rooms"
    );
}

#[test]
fn same_seed_same_bytes_other_seed_other_scene() {
    for kind in ["studio", "apartment", "house"] {
        let a = scene::to_ron(&gen_scene(kind, 42));
        assert_eq!(a, scene::to_ron(&gen_scene(kind, 42)));
        assert_ne!(a, scene::to_ron(&gen_scene(kind, 43)));
    }
}

#[test]
fn options_are_honoured_and_bad_ones_refused() {
    let spec = SceneSpec {
        rooms: Some((12, 12)),
        people: Some(5),
        ..SceneSpec::new("house", 3)
    };
    let s = procgen::generate(&spec, cat()).unwrap();
    assert_eq!(s.rooms.len(), 12);
    let visitors = s.actors.iter().filter(|a| a.is_visitor()).count();
    assert_eq!(scene::stats(&s).people - visitors, 5);
    let unknown = procgen::generate(&SceneSpec::new("castle", 0), cat()).unwrap_err();
    assert!(matches!(unknown, ProcgenError::UnknownKind { .. }));
    assert!(
        unknown.to_string().contains("studio, apartment, house"),
        "{unknown}"
    );
    for rooms in [(9, 5), (1, 2), (3, 3)] {
        let spec = SceneSpec {
            rooms: Some(rooms),
            ..SceneSpec::new("house", 0)
        };
        assert!(
            matches!(
                procgen::generate(&spec, cat()),
                Err(ProcgenError::BadRange { .. })
            ),
            "{rooms:?}"
        );
    }
    let spec = SceneSpec {
        people: Some(0),
        ..SceneSpec::new("studio", 0)
    };
    assert!(matches!(
        procgen::generate(&spec, cat()),
        Err(ProcgenError::BadRange { .. })
    ));
}

/// What the offline generator achieves on a household over `days`.
struct Bars {
    sessions_per_day: f64,
    unseen_changes: usize,
    changes: usize,
    families: BTreeSet<Family>,
    invalid: usize,
}

fn bars(scene: &Scene, seed: u64, days: u32) -> Bars {
    let events = events_of(scene, seed, days);
    let robots = scene.robots();
    let sessions: BTreeSet<&str> = events.iter().filter_map(|e| e.session.as_deref()).collect();
    let unseen_changes = events
        .iter()
        .filter(|e| {
            e.outcome.is_ok()
                && !e.changes.is_empty()
                && !robots.iter().any(|r| e.observers.contains(r))
        })
        .count();
    let samples = mine(scene, &events, seed);
    let ix = Index::new(scene, &events);
    let families = samples
        .iter()
        .filter_map(|s| match s {
            Sample::Qa(q) => Some(q.family),
            _ => None,
        })
        .collect();
    assert!(
        events
            .last()
            .is_some_and(|e| e.t < u64::from(days) * DAY + DAY)
    );
    Bars {
        sessions_per_day: sessions.len() as f64 / f64::from(days),
        unseen_changes,
        changes: events
            .iter()
            .filter(|e| e.outcome.is_ok() && !e.changes.is_empty())
            .count(),
        families,
        invalid: check(&ix, &samples).len(),
    }
}

/// The scripted household in 50 generated scenes (5 days each: tidying,
/// whose reports most families ask about, is 3-5 days a week) meets the
/// bars it meets in the hand-written family apartment: sessions per day,
/// changes the robot does not see, every question family (commitments in
/// all but a few), no invalid sample.
#[test]
fn the_scripted_household_lives_in_generated_scenes() {
    let reference = bars(&scene::default_scene(), 0, 5);
    // Every family but the retired one (false premises are filed under the
    // families they look like) and upkeep, which needs a breakdown the
    // robot saw happen or was told of (about one in 28 days:
    // `a_broken_device_is_known_broken_since_the_robot_saw_it_break`),
    // and stock, which needs food finished (a few a week; the_weekly_routine_agrees_too).
    let families: Vec<Family> = Family::ALL
        .into_iter()
        .filter(|f| !matches!(f, Family::Unanswerable | Family::Upkeep | Family::Stock))
        .collect();
    assert!(
        families.iter().all(|f| reference.families.contains(f)),
        "{:?}",
        reference.families
    );
    let (mut report, mut no_commitments) = (vec![], 0);
    for i in 0..50u64 {
        let kind = ["studio", "apartment", "house"][(i % 3) as usize];
        let s = gen_scene(kind, 1000 + i);
        let b = bars(&s, i, 5);
        report.push(format!(
            "{} {:.1} sessions/day, {} of {} changing events unseen, {} families",
            s.id,
            b.sessions_per_day,
            b.unseen_changes,
            b.changes,
            b.families.len()
        ));
        assert_eq!(b.invalid, 0, "{}: invalid samples", s.id);
        // Fewer at home than before people went out (work, school, a
        // trip that leaves a single person's home to the robot for days),
        // with a departure and a return for each outing.
        assert!(
            b.sessions_per_day >= 5.0,
            "{}: {:.1} sessions a day",
            s.id,
            b.sessions_per_day
        );
        assert!(
            b.unseen_changes * 20 >= b.changes,
            "{}: {} of {} changes unseen",
            s.id,
            b.unseen_changes,
            b.changes
        );
        let missing: Vec<_> = families
            .iter()
            .filter(|f| !b.families.contains(f))
            .collect();
        if missing == [&Family::Commitment] || missing == [&Family::SourceAware] {
            // A single person out all week may ask nothing of the robot
            // for later (studio seed 1042), and a parent and child out
            // at work and school till mid-afternoon may tell it nothing
            // it can check (house seed 1005): counted below.
            no_commitments += 1;
            continue;
        }
        // Every other family, in every home: routines survive things going
        // back to their places (apartment seed 1049 once lost its routine
        // questions).
        assert!(
            missing.is_empty(),
            "{}: no {missing:?} questions\n{}",
            s.id,
            report.join("\n")
        );
    }
    assert!(
        no_commitments <= 3,
        "{no_commitments} of 50 homes asked no commitment or no source questions\n{}",
        report.join("\n")
    );
    println!("{}", report.join("\n"));
}

// ---------------------------------------------------------------------- CLI

#[test]
fn scene_generate_and_stats_on_the_command_line() {
    let t = tmp();
    let out = t.path().join("h.ron");
    hearth(&[
        "scene",
        "generate",
        "--seed",
        "7",
        "--kind",
        "house",
        "-o",
        s(&out),
    ])
    .ok();
    let text = std::fs::read_to_string(&out).unwrap();
    let piped = hearth(&["scene", "generate", "--seed", "7", "--kind", "house"]).ok();
    assert_eq!(piped.stdout, text, "same seed, same bytes, file or stdout");
    hearth(&["scene", "check", s(&out)])
        .ok()
        .stdout_has("gen_house_s7");
    let st = hearth(&["scene", "stats", s(&out), "studio"]).ok();
    st.stdout_has("look-alike")
        .stdout_has("gen_house_s7")
        .stdout_has("studio");
    let js = hearth(&["scene", "stats", "--json", s(&out)]).ok();
    let v: serde_json::Value = serde_json::from_str(js.stdout.trim()).unwrap();
    assert_eq!(v["id"], "gen_house_s7");
    assert!(v["objects"].as_u64().unwrap() >= 40);
    // Bad input: clear errors, no panic, nothing written.
    hearth(&["scene", "generate", "--kind", "castle"])
        .fails()
        .stderr_has("studio, apartment, house");
    hearth(&["scene", "generate", "--rooms", "9..3"])
        .fails()
        .stderr_has("empty range");
    hearth(&["scene", "generate", "--rooms", "2..=3", "--kind", "house"])
        .fails()
        .stderr_has("impossible");
    hearth(&["scene", "stats", "no/such.ron"])
        .fails()
        .stderr_has("no/such.ron");
    hearth(&["scene", "generate", "--help"])
        .ok()
        .stdout_has("--kind");
}

/// Kinds neither in the catalogue nor aliases, without roles, are warned
/// about with the nearest kind and its roles; scene check still passes.
#[test]
fn kinds_the_catalogue_does_not_know_are_warned_about() {
    let clean = scene::default_scene();
    assert!(catalogue::unknown_kinds(&clean, cat()).is_empty());
    let names = [
        ("fridge", "icebox"),
        ("oven", "range"),
        ("counter", "bench top"),
        ("coffee machine", "percolator"),
        ("sofa", "love seat"),
        ("nightstand", "night table"),
        ("sink counter", "basin"),
        ("dining table", "dinner table"),
    ];
    let s = renamed(&names);
    let w = catalogue::unknown_kinds(&s, cat());
    let kinds: BTreeSet<&str> = w.iter().map(|u| u.kind.as_str()).collect();
    assert_eq!(kinds, names.iter().map(|n| n.1).collect());
    let nearest = |k: &str| w.iter().find(|u| u.kind == k).unwrap();
    for u in &w {
        assert_eq!(u.roles, cat().fixture_roles(&u.nearest), "{u}");
    }
    assert_eq!(nearest("dinner table").nearest, "dining table");
    assert_eq!(nearest("basin").roles, vec![Role::Washbasin]);
    assert!(nearest("basin").to_string().contains("roles: [washbasin]"));
    // A tag silences it.
    let mut tagged = s.clone();
    for f in &mut tagged.furniture {
        f.roles = vec![Role::Seating];
    }
    for d in &mut tagged.devices {
        d.roles = vec![Role::Light];
    }
    assert!(catalogue::unknown_kinds(&tagged, cat()).is_empty());
    // On the command line: warnings on stderr, exit 0, none for a clean scene.
    let dir = tmp();
    let path = dir.path().join("renamed.ron");
    std::fs::write(&path, scene::to_ron(&s)).unwrap();
    let r = hearth(&["scene", "check", s_(&path)]).ok();
    r.stderr_has("warning:").stderr_has("\"icebox\"");
    assert_eq!(r.stderr.matches("warning:").count(), w.len());
    let clean_path = dir.path().join("clean.ron");
    std::fs::write(&clean_path, scene::to_ron(&clean)).unwrap();
    let clean_run = hearth(&["scene", "check", s_(&clean_path)]).ok();
    assert!(
        !clean_run.stderr.contains("warning"),
        "{}",
        clean_run.stderr
    );
}

fn s_(p: &std::path::Path) -> &str {
    p.to_str().unwrap()
}

/// Households fit their homes (seeds 7000.. no other test pins): nobody
/// shares a bedroom with more than one other, a couple shares one bed, a
/// bedroom has no more beds than its sleepers need, a child never sleeps
/// in a grown-up's room, and everyone has a role of the schedules. Before
/// compositions were drawn first, 11 of 100 apartments and 11 of 100
/// houses put more than two people in one bedroom.
#[test]
fn households_are_drawn_first_and_bedrooms_fit_them() {
    let sched = catalogue::schedules();
    let mut shapes = BTreeSet::new();
    for kind in ["studio", "apartment", "house"] {
        for seed in 7000..7200 {
            let s = gen_scene(kind, seed);
            let mut by_room: BTreeMap<&str, Vec<&scene::ActorDef>> = BTreeMap::new();
            for a in s
                .actors
                .iter()
                .filter(|a| a.kind == scene::ActorKind::Human && !a.is_visitor())
            {
                let role = a.schedule.as_ref().and_then(|r| sched.role(r.as_str()));
                let role = role.unwrap_or_else(|| panic!("{}: {} has no role", s.id, a.id));
                assert_eq!(sched.role_of(&s, a).id, role.id);
                by_room.entry(a.room.as_str()).or_default().push(a);
            }
            shapes.insert(by_room.values().map(Vec::len).max());
            for (room, people) in &by_room {
                assert!(people.len() <= 2, "{}: {} in {room}", s.id, people.len());
                let beds = s
                    .furniture
                    .iter()
                    .filter(|f| f.room.as_str() == *room)
                    .filter(|f| cat().fixture_roles(&f.kind).contains(&Role::Sleeping))
                    .count();
                assert!(
                    (1..=people.len()).contains(&beds),
                    "{}: {beds} beds for {} in {room}",
                    s.id,
                    people.len()
                );
                let adult = |a: &scene::ActorDef| {
                    sched
                        .role(a.schedule.as_ref().unwrap().as_str())
                        .unwrap()
                        .adult
                };
                if let [a, b] = people.as_slice() {
                    assert_eq!(
                        adult(a),
                        adult(b),
                        "{}: a child with an adult in {room}",
                        s.id
                    );
                }
            }
        }
    }
    // Both shapes occur: people alone, and pairs (couples, two children).
    assert!(
        shapes.contains(&Some(1)) && shapes.contains(&Some(2)),
        "{shapes:?}"
    );
}

/// Three generated homes in five have a visitor: one actor who starts
/// outside, a grandparent where there are children, else a friend, named
/// as the schedules name them, besides the courier, the repair technician
/// and the two party guests every home has; the household itself is
/// never outside.
#[test]
fn some_generated_homes_have_a_visitor_who_starts_outside() {
    let (mut with, mut total) = (0, 0);
    for kind in ["studio", "apartment", "house"] {
        for seed in 0..30 {
            let s = gen_scene(kind, seed);
            total += 1;
            let kind_of = |a: &hearth::scene::ActorDef| {
                hearth::catalogue::schedules().visitor_of(a).map(|v| v.kind)
            };
            let (trades, outside): (Vec<_>, Vec<_>) = s
                .actors
                .iter()
                .filter(|a| a.room.as_str() == hearth::scene::OUTSIDE)
                .partition(|a| {
                    matches!(
                        kind_of(a),
                        Some(VisitorKind::Courier | VisitorKind::Technician | VisitorKind::Guest)
                    )
                });
            let trades: Vec<_> = trades.iter().map(|a| (a.id.as_str(), kind_of(a))).collect();
            assert_eq!(
                trades,
                [
                    ("courier", Some(VisitorKind::Courier)),
                    ("technician", Some(VisitorKind::Technician)),
                    ("guest_1", Some(VisitorKind::Guest)),
                    ("guest_2", Some(VisitorKind::Guest))
                ],
                "{kind} {seed}"
            );
            assert!(outside.len() <= 1, "{kind} {seed}: {outside:?}");
            let Some(v) = outside.first() else { continue };
            with += 1;
            let children = s.actors.iter().any(|a| {
                a.schedule
                    .as_ref()
                    .is_some_and(|k| matches!(k.as_str(), "school_child" | "young_child"))
            });
            let want = if children {
                VisitorKind::Grandparent
            } else {
                VisitorKind::Friend
            };
            let matched = hearth::catalogue::schedules().visitor_of(v).map(|k| k.kind);
            assert_eq!(matched, Some(want), "{kind} {seed}: {:?}", v.role);
            assert!(v.schedule.is_none(), "a visitor has no household schedule");
            assert!(
                ["Grandpa Joe", "Chris"].contains(&v.name.as_str()),
                "{}",
                v.name
            );
        }
    }
    assert!(
        (total * 4..total * 8).contains(&(with * 10)),
        "{with} of {total}"
    );
}

/// Where the scripted household says a thing is, its words name the place
/// as the questions do, told apart from others of its kind ("the
/// nightstand in Lily's room"; from Lily, "the nightstand in my room"),
/// never "the nightstand" in a home with two: a reader of the words alone
/// can tell which. Generated homes of every kind, a week each, where some claims
/// are of places that share their kind.
#[test]
fn places_said_are_told_apart_as_questions_name_them() {
    use hearth::samples::text::Namer;
    use hearth::trace::request::Action;
    use hearth::trace::{ClaimMode, Location, Value};
    let (mut claims, mut shared) = (0, 0);
    for (kind, seed) in [("studio", 8123), ("apartment", 7311), ("house", 8123)] {
        let scene = gen_scene(kind, seed);
        let n = Namer::new(&scene);
        let kinds = |place: &str| {
            let k = scene::fixtures(&scene)
                .find(|f| f.id.as_str() == place)
                .map(|f| f.kind);
            scene::fixtures(&scene)
                .filter(|f| Some(f.kind) == k)
                .count()
        };
        for e in events_of(&scene, 3, 7) {
            let Action::Say {
                text, claims: cs, ..
            } = &e.action
            else {
                continue;
            };
            for c in cs.iter().filter(|c| c.mode == ClaimMode::Fact) {
                let Value::Location(Location::On(place) | Location::In(place)) = &c.value else {
                    continue;
                };
                claims += 1;
                shared += usize::from(kinds(place.as_str()) > 1);
                let name = n.name(place);
                let speaker = scene
                    .actors
                    .iter()
                    .find(|a| a.id == e.actor)
                    .map(|a| &a.name);
                // Their own, in their words: "my nightstand", "the
                // nightstand in my room".
                let mine = speaker.map(|s| {
                    let theirs = format!("{s}'s ");
                    match name.strip_prefix(&theirs) {
                        Some(rest) => format!("my {rest}"),
                        None => name.replace(&format!(" {theirs}"), " my "),
                    }
                });
                assert!(
                    text.contains(&name) || mine.is_some_and(|m| text.contains(&m)),
                    "{kind} {seed}, event {}: {text:?} does not say {name:?}",
                    e.id
                );
            }
        }
    }
    assert!(
        claims >= 20 && shared >= 3,
        "{claims} places said, {shared} of a shared kind"
    );
}
