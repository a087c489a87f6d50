//! What the scripted household looks up in a scene: fixtures named for
//! someone, a device's fields and options, where clothes and things are
//! kept, closed containers, surfaces, the bin with room, and the words
//! for a thing.

use super::stage::Stage;
use crate::catalogue::{Belongs, Roles};
use crate::generation::Dest;
use crate::ids::Id;
use crate::scene::{FieldDef, Indexed, Openable, Placement, Role, Scene};
use crate::sim::Simulation;
use crate::trace::Location;

/// Of `fixtures`, the one whose description names `name` ("Bob's desk").
pub(super) fn named_for<'a>(s: Indexed<'_>, fixtures: &'a [Id], name: &str) -> Option<&'a Id> {
    let name = name.to_lowercase();
    fixtures.iter().find(|id| {
        s.furniture(id)
            .is_some_and(|f| f.description.to_lowercase().contains(&name))
    })
}

/// Of `desks`, the one that is `person`'s (called `name`): named for
/// them, else one in the room they wake up in, else one named for nobody
/// of the house; none where every desk is someone else's (then it is not
/// "my desk").
pub(super) fn desk_of<'a>(
    s: Indexed<'_>,
    desks: &'a [Id],
    person: &Id,
    name: &str,
) -> Option<&'a Id> {
    let scene = s.scene();
    let humans: Vec<String> = scene
        .actors
        .iter()
        .filter(|a| a.kind == crate::scene::ActorKind::Human)
        .map(|a| a.name.to_lowercase())
        .collect();
    let room = scene
        .actors
        .iter()
        .find(|a| a.id == *person)
        .map(|a| &a.room);
    named_for(s, desks, name)
        .or_else(|| {
            desks
                .iter()
                .find(|d| s.furniture(d).is_some_and(|f| Some(&f.room) == room))
        })
        .or_else(|| {
            desks.iter().find(|d| {
                s.furniture(d).is_some_and(|f| {
                    let words = f.description.to_lowercase();
                    !humans.iter().any(|h| words.contains(h.as_str()))
                })
            })
        })
}

/// Whether a device's enum field offers `value` (a vacuum's `mode` may not
/// say "docked"): an activity asks only for what the schema allows.
pub(super) fn has_field(s: Indexed<'_>, device: &Id, field: &str) -> bool {
    s.device(device)
        .is_some_and(|d| d.fields.contains_key(field))
}

/// Whether `object` lies on or in something in the house (not in someone's
/// hands or bag, nor out of the house).
pub(super) fn set_down(sim: &Simulation, object: &Id) -> bool {
    matches!(
        sim.location(object),
        Some(Location::On(_) | Location::In(_))
    )
}

/// The house's shopping list (a `shopping_list` of a kind written on, set
/// down in the house), if it has one.
pub(super) fn shopping_list(x: &Stage) -> Option<Id> {
    let writable = |c: &str| {
        crate::catalogue::builtin()
            .category(c)
            .is_some_and(|k| k.writable)
    };
    (x.s.objects.iter())
        .find(|o| {
            x.roles.has(&o.id, Role::ShoppingList)
                && writable(&o.category)
                && set_down(x.sim, &o.id)
        })
        .map(|o| o.id.clone())
}

pub(super) fn has_option(s: Indexed<'_>, device: &Id, field: &str, value: &str) -> bool {
    s.device(device).is_some_and(|d| {
        matches!(d.fields.get(field), Some(FieldDef::Enum { options, .. }) if options.iter().any(|o| o == value))
    })
}

pub(super) fn category_of<'a>(s: Indexed<'a>, object: &Id) -> &'a str {
    s.object(object).map_or("", |o| o.category.as_str())
}

/// Whose medicine the robot brings, and which: an owned one, else the first
/// medicine for the first human.
pub(super) fn medication(scene: &Scene, r: &Roles, humans: &[Id]) -> Option<(Id, Id)> {
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
pub(super) fn home_of_clothes(
    scene: Indexed<'_>,
    r: &Roles,
    belongs: &Belongs,
    object: &Id,
) -> Dest {
    let o = scene.object(object);
    // Back where it started, when that is a place of its own (not the
    // basket or the machine it came from).
    let own = |at: &Id| {
        belongs.homes(object).is_some_and(|h| h.contains(at))
            && !r.has(at, Role::LaundryBasket)
            && scene.device(at).is_none()
    };
    match o.map(|o| &o.at) {
        Some(Placement::In(at)) if own(at) => return Dest::In(at.clone()),
        Some(Placement::On(at)) if own(at) => return Dest::On(at.clone()),
        _ => {}
    }
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
        .and_then(|w| scene.actor(w))
        .map(|a| a.room.clone());
    if let Some(w) = bedroom
        .as_ref()
        .and_then(|room| in_room(room, Role::ClothesStorage))
    {
        return Dest::In(w);
    }
    let washer = r.device(Role::Laundry);
    let washer_room = washer.and_then(|w| scene.device(w)).map(|d| &d.room);
    let tops = surfaces(&scene);
    let shelf = tops
        .iter()
        .find(|t| {
            scene
                .furniture(t)
                .is_some_and(|f| Some(&f.room) == washer_room)
        })
        .or(tops.first());
    // No surface anywhere: back where it started, else it stays in the machine.
    let start = o.and_then(|o| match &o.at {
        Placement::In(at) => Some(Dest::In(at.clone())),
        Placement::On(at) => Some(Dest::On(at.clone())),
        Placement::HeldBy(_) | Placement::Outside => None,
    });
    match (shelf, start, washer) {
        (Some(shelf), _, _) => Dest::On(shelf.clone()),
        (None, Some(start), _) => start,
        (None, None, Some(w)) => Dest::In(w.clone()),
        // Laundry runs only where there is a washer; were it otherwise, the
        // executor would refuse this and the turn would fail as data.
        (None, None, None) => Dest::On(object.clone()),
    }
}

/// Where `h` washes: a washbasin in their own en-suite, else one not in
/// someone else's (a room reached only through another's bedroom), else
/// the first.
pub(super) fn washbasin_for(s: Indexed<'_>, r: &Roles, h: &Id) -> Option<Id> {
    let bedroom = s.actor(h).map(|a| &a.room);
    let en_suite_of = |b: &Id| {
        let room = s.fixture(b)?.room;
        crate::catalogue::reached_only_from(&s, room)
    };
    let someone_elses = |room: &Id| {
        Some(room) != bedroom
            && s.actors
                .iter()
                .any(|a| a.kind == crate::scene::ActorKind::Human && &a.room == room)
    };
    let basins = r.fixtures(Role::Washbasin);
    basins
        .iter()
        .find(|b| en_suite_of(b).is_some_and(|x| Some(&x) == bedroom))
        .or_else(|| {
            basins
                .iter()
                .find(|b| !en_suite_of(b).is_some_and(|x| someone_elses(&x)))
        })
        .or(basins.first())
        .cloned()
}

/// Receptacles that close (drawers, cabinets, wardrobes) and have an inside.
pub(super) fn closed_containers(scene: &Scene) -> Vec<Id> {
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

/// How long `device` runs `program` for (the catalogue's cycle of its kind).
pub(super) fn cycle_secs(s: Indexed<'_>, device: &Id, program: &str) -> Option<u64> {
    let kind = &s.device(device)?.kind;
    crate::catalogue::builtin()
        .device_kind(kind)?
        .cycle_secs(program)
}

/// The doors of `room` that can be closed, in scene order.
pub(super) fn room_doors(scene: &Scene, room: Option<&Id>) -> Vec<Id> {
    scene
        .doors
        .iter()
        .filter(|d| d.openable && (Some(&d.rooms.0) == room || Some(&d.rooms.1) == room))
        .map(|d| d.id.clone())
        .collect()
}

pub(super) fn surfaces(scene: &Scene) -> Vec<Id> {
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

pub(super) fn describe(scene: Indexed<'_>, id: &Id) -> String {
    scene
        .object(id)
        .map_or_else(|| id.to_string(), |o| o.description.clone())
}

/// A desk as its user says it: "my desk" when it is theirs, else by its
/// description ("Bob's work desk", "the oak desk by the window").
pub(super) fn desk_words(scene: Indexed<'_>, desk: &Id, theirs: bool) -> String {
    if theirs {
        return format!("my {}", kind_name(scene, desk));
    }
    match scene.furniture(desk) {
        Some(f) if f.description.contains("'s ") => f.description.clone(),
        Some(f) => format!("the {}", f.description),
        None => format!("the {}", kind_name(scene, desk)),
    }
}

/// What a fixture is called in speech ("sofa", without its article); its
/// id if none.
pub(super) fn kind_name(scene: Indexed<'_>, id: &Id) -> String {
    scene
        .fixture(id)
        .map_or_else(|| id.to_string(), |f| crate::catalogue::kind_said(f.kind))
}

/// A fixture as someone says it, with its article, told apart from the
/// others of its kind as questions name it: "the sofa", "the nightstand in
/// Lily's room", "Tom's small bedside table with a drawer"; their own, in
/// `speaker`'s mouth, as "my small bedside table with a drawer" or "the
/// nightstand in my room". "In the nightstand", in a home with two, would
/// not say which.
pub(super) fn place_words(scene: Indexed<'_>, id: &Id, speaker: Option<&Id>) -> String {
    let Some(f) = scene.fixture(id) else {
        return id.to_string();
    };
    let same = crate::scene::fixtures(scene.scene())
        .filter(|g| g.kind == f.kind)
        .fold((0, 0), |(k, r), g| {
            (k + 1, r + usize::from(g.room == f.room))
        });
    let room = || {
        scene.room(f.room).map_or_else(
            || f.room.to_string(),
            |r| crate::catalogue::room_said(&r.name),
        )
    };
    let said = crate::catalogue::fixture_said(f.kind, room, f.description, same);
    match speaker.and_then(|a| scene.actor(a)) {
        Some(a) => in_my_words(&said, &a.name),
        None => said,
    }
}

/// A name as `speaker` says it of their own: "Lily's nightstand" is "my
/// nightstand", "the nightstand in Lily's room" "the nightstand in my
/// room".
fn in_my_words(name: &str, speaker: &str) -> String {
    let theirs = format!("{speaker}'s ");
    match name.strip_prefix(&theirs) {
        Some(rest) => format!("my {rest}"),
        None => name.replace(&format!(" {theirs}"), " my "),
    }
}

/// The bin, if it has room for `n` more things now (a full one leaves
/// what is finished where it was kept until the rubbish goes out).
pub(super) fn bin_with_room(x: &Stage, n: usize) -> Option<Id> {
    x.roles
        .fixture(Role::Waste)
        .filter(|b| x.sim.free_space(b, true) as usize >= n.max(1))
        .cloned()
}
