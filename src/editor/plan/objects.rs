//! Objects: added and placed on or in a receptacle, or in an actor's
//! hands, with the capacity checked.

use crate::ids::Id;
use crate::scene::index::{Indexed, Kind};
use crate::scene::model::{ObjectDef, Placement, Surface};

use crate::editor::checks::{expect_kind, fresh};
use crate::editor::command::{Edit, Entity, Prop};
use crate::editor::error::EditError;

pub fn add(s: Indexed<'_>, o: ObjectDef) -> Result<Vec<Edit>, EditError> {
    fresh(s.kind_of(&o.id), &o.id)?;
    let (target, inside) = match &o.at {
        Placement::On(t) => (t, Some(false)),
        Placement::In(t) => (t, Some(true)),
        Placement::HeldBy(t) => (t, None),
        // Outside holds anything: nothing to check but the owner.
        Placement::Outside => {
            if let Some(owner) = &o.owner {
                expect_kind(s, owner, &[Kind::Actor], "an actor")?;
            }
            return Ok(vec![Edit::push(Entity::Object(o), s.objects.len())]);
        }
    };
    let (kinds, what): (&[Kind], _) = match inside {
        None => (&[Kind::Actor], "an actor"),
        Some(_) => (&[Kind::Furniture, Kind::Device], "a receptacle"),
    };
    expect_kind(s, target, kinds, what)?;
    placement(s, &o.id, target, inside)?;
    if let Some(owner) = &o.owner {
        expect_kind(s, owner, &[Kind::Actor], "an actor")?;
    }
    Ok(vec![Edit::push(Entity::Object(o), s.objects.len())])
}

pub fn place(
    s: Indexed<'_>,
    id: Id,
    on: &Id,
    inside: Option<bool>,
) -> Result<Vec<Edit>, EditError> {
    expect_kind(s, &id, &[Kind::Object], "an object")?;
    let at = placement(s, &id, on, inside)?;
    Ok(vec![Edit::set(&id, Prop::At(at))])
}

/// The placement `id` would get on or in `target`, checking it is free.
pub fn placement(
    scene: Indexed<'_>,
    id: &Id,
    target: &Id,
    inside: Option<bool>,
) -> Result<Placement, EditError> {
    let kind = expect_kind(
        scene,
        target,
        &[Kind::Furniture, Kind::Device, Kind::Actor],
        "a receptacle or an actor",
    )?;
    let load = |p: &Placement| {
        scene
            .objects
            .iter()
            .filter(|o| &o.at == p && &o.id != id)
            .count() as u32
    };
    if kind == Kind::Actor {
        let hands = scene.actor(target).expect("an actor").hands;
        let p = Placement::HeldBy(target.clone());
        if load(&p) >= hands {
            return Err(EditError::Full {
                id: target.clone(),
                surface: "hands",
                capacity: hands,
            });
        }
        return Ok(p);
    }
    let surfaces = scene.fixture(target).expect("a fixture").surfaces;
    let cap = |inside: bool| {
        surfaces.iter().find_map(|s| match (*s, inside) {
            (Surface::On(c), false) | (Surface::In(c), true) => Some(c),
            _ => None,
        })
    };
    let make = |inside: bool| {
        if inside {
            Placement::In(target.clone())
        } else {
            Placement::On(target.clone())
        }
    };
    let word = |inside: bool| if inside { "In" } else { "On" };
    let candidates: Vec<bool> = match inside {
        Some(i) => vec![i],
        None => vec![false, true],
    };
    let mut first_full = None;
    for i in candidates {
        let Some(c) = cap(i) else { continue };
        if load(&make(i)) < c {
            return Ok(make(i));
        }
        first_full.get_or_insert(EditError::Full {
            id: target.clone(),
            surface: if i { "in" } else { "on" },
            capacity: c,
        });
    }
    Err(first_full.unwrap_or_else(|| EditError::NoSurface {
        id: target.clone(),
        surface: match inside {
            Some(i) => word(i),
            None => "On or In",
        },
    }))
}
