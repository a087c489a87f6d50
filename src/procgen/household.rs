//! The household drawn first: its people from the compositions of
//! `assets/schedules.ron`, their bedrooms, the visitors who call.

use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::catalogue::{Catalogue, HouseholdKind};
use crate::ids::Id;
use crate::scene::{ActorDef, ActorKind};

/// A person to be.
#[derive(Debug, Clone)]
pub(super) struct Person {
    pub(super) id: Id,
    pub(super) name: String,
    pub(super) role: String,
    /// Their role in `assets/schedules.ron`.
    pub(super) schedule: String,
    pub(super) adult: bool,
}

/// The people of a household and whether the first two are a couple.
#[derive(Debug, Clone)]
pub(super) struct Household {
    pub(super) people: Vec<Person>,
    pub(super) couple: bool,
}

/// A household drawn from the compositions of `assets/schedules.ron`
/// that fit the kind (its people range, or `people` if asked for; a
/// one-room home takes only a single person or a couple), weighted, at a
/// size within the composition's; names drawn from the catalogue. Past a
/// composition's slots (8 people asked for) its last slot repeats.
pub(super) fn household(
    cat: &Catalogue,
    kind: &HouseholdKind,
    people: Option<u32>,
    rng: &mut ChaCha8Rng,
) -> Household {
    let sched = crate::catalogue::schedules();
    let one_room = kind.required.contains(&kind.bedroom);
    let (lo, hi) = people.map_or(kind.people, |n| (n, n));
    let fits = |c: &&crate::catalogue::schedules::Composition| {
        let (a, b) = c.sizes();
        (!one_room || c.couple || b == 1)
            && a <= hi
            && (b >= lo || people.is_some() && c.slots.len() > 2)
    };
    let options: Vec<_> = sched.compositions.iter().filter(fits).collect();
    let c = options
        .choose_weighted(rng, |c| c.weight)
        .ok()
        .copied()
        .unwrap_or(&sched.compositions[0]);
    let (a, b) = c.sizes();
    let n = people.unwrap_or_else(|| rng.random_range(a.max(lo)..=b.min(hi).max(a.max(lo))));
    let names: Vec<&String> = cat.people.names.choose_multiple(rng, n as usize).collect();
    let people = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let slot = &c.slots[i.min(c.slots.len() - 1)];
            let role = slot.choose(rng).expect("checked: no empty slot");
            let r = sched.role(role).expect("checked: known roles");
            Person {
                id: Id::new(&name.to_lowercase()),
                name: (*name).clone(),
                role: r.text.clone(),
                schedule: r.id.clone(),
                adult: r.adult,
            }
        })
        .collect::<Vec<_>>();
    Household {
        couple: c.couple && people.len() >= 2,
        people,
    }
}

/// Who sleeps in which bedroom: the couple together, every other person
/// alone, or (`pair`) two children to a room. One room for all in a
/// one-room home.
pub(super) fn bedrooms_for(h: &Household, one_room: bool, pair: bool) -> Vec<Vec<usize>> {
    let n = h.people.len();
    if one_room {
        return vec![(0..n).collect()];
    }
    let mut rooms: Vec<Vec<usize>> = vec![];
    let mut i = 0;
    if h.couple {
        rooms.push(vec![0, 1]);
        i = 2;
    }
    let mut open: Option<usize> = None;
    for p in i..n {
        match open {
            Some(r) if pair && !h.people[p].adult => {
                rooms[r].push(p);
                open = None;
            }
            _ => {
                rooms.push(vec![p]);
                open = (pair && !h.people[p].adult).then(|| rooms.len() - 1);
            }
        }
    }
    rooms
}

/// Who calls on the household now and then, if anyone: a grandparent
/// where there are children, else a friend, for three homes in five. Drawn
/// apart from the home's own draws, so the home is the same with or
/// without its visitor. A visitor starts outside and comes and goes by the
/// calendar (`assets/schedules.ron` `visitors`).
pub(super) fn visitor(people: &[Person], seed: u64) -> Option<ActorDef> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x7669_7369_746f_7273);
    if !rng.random_bool(0.6) {
        return None;
    }
    let children = people
        .iter()
        .any(|p| matches!(p.schedule.as_str(), "school_child" | "young_child"));
    use crate::catalogue::schedules::VisitorKind;
    // The role's words say which kind of visitor (no schedule: that is
    // the household's).
    let (id, vk) = if children {
        ("grandpa", VisitorKind::Grandparent)
    } else {
        ("friend", VisitorKind::Friend)
    };
    let v = crate::catalogue::schedules().visitor(vk)?;
    let host = people.first()?;
    let role = if children {
        format!("{}'s father, a grandparent who comes for dinner", host.name)
    } else {
        format!("{}'s friend, who drops by", host.name)
    };
    (!people.iter().any(|p| p.id.as_str() == id)).then(|| ActorDef {
        id: Id::new(id),
        name: v.name.clone(),
        kind: ActorKind::Human,
        role,
        schedule: None,
        room: Id::new(crate::scene::OUTSIDE),
        near: None,
        hands: 2,
        speed: 1.0,
    })
}

/// Who calls on every home besides family and friends: the courier with
/// its parcels, the repair technician when something breaks down, and two
/// party guests (`assets/schedules.ron` `visitors`; a guest whose name a
/// member of the household has is left out).
pub(super) fn callers(people: &[Person]) -> Vec<ActorDef> {
    use crate::catalogue::schedules::VisitorKind;
    let sched = crate::catalogue::schedules();
    [
        (VisitorKind::Courier, "courier", None, "courier", 1.3),
        (
            VisitorKind::Technician,
            "technician",
            None,
            "repair technician",
            1.1,
        ),
        (VisitorKind::Guest, "guest_1", None, "party guest", 1.0),
        (
            VisitorKind::Guest,
            "guest_2",
            Some("Kim"),
            "party guest",
            1.0,
        ),
    ]
    .into_iter()
    .filter_map(|(kind, id, name, role, speed)| {
        let name = name.map_or_else(
            || sched.visitor(kind).map(|v| v.name.clone()),
            |n| Some(n.to_string()),
        )?;
        let taken = people.iter().any(|p| p.id.as_str() == id || p.name == name);
        (!taken).then(|| ActorDef {
            id: Id::new(id),
            name,
            kind: ActorKind::Human,
            role: role.into(),
            schedule: None,
            room: Id::new(crate::scene::OUTSIDE),
            near: None,
            hands: 2,
            speed,
        })
    })
    .collect()
}

pub(super) fn names(people: &[Person]) -> String {
    match people {
        [] => String::new(),
        [one] => one.name.clone(),
        [init @ .., last] => format!(
            "{} and {}",
            init.iter()
                .map(|p| p.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            last.name
        ),
    }
}
