//! The editor: validation per edit (its CPU time per frame while
//! dragging is the window's, `gui::edit::bench`).

use std::hint::black_box;
use std::time::Instant;

use super::options::{Lines, failed, ms};
use crate::catalogue;
use crate::editor::{Document, Edit};
use crate::ids::Id;
use crate::procgen::{self, SceneSpec};
use crate::scene;
use crate::workflow::error::WorkflowError;

/// The editor's live validation: `scene::validate` as re-run after every
/// edit, while one piece of furniture is dragged back and forth, on the
/// largest built-in scene and on a 150-object house (generated houses stop
/// near 116 objects, so the largest of 50 seeds is topped up with the
/// editor's own `AddObject` on free receptacle space). Returns the two
/// scenes, for the window's figures.
pub fn editor(out: Lines) -> Result<Vec<scene::Scene>, WorkflowError> {
    let cat = catalogue::builtin();
    let mut house = None::<scene::Scene>;
    for seed in 0..50 {
        let s = procgen::generate(&SceneSpec::new("house", seed), cat).map_err(failed)?;
        if house
            .as_ref()
            .is_none_or(|h| s.objects.len() > h.objects.len())
        {
            house = Some(s);
        }
    }
    let mut doc = Document::new(house.expect("50 seeds"));
    let spots: Vec<scene::Placement> = doc
        .scene()
        .furniture
        .iter()
        .flat_map(|f| f.surfaces.iter().map(|sf| (f.id.clone(), *sf)))
        .map(|(id, sf)| match sf {
            scene::Surface::On(_) => scene::Placement::On(id),
            scene::Surface::In(_) => scene::Placement::In(id),
        })
        .collect();
    for (n, at) in spots.iter().cycle().take(10_000).enumerate() {
        if doc.scene().objects.len() >= 150 {
            break;
        }
        // Refused when that surface is full; the next one is tried.
        let _ = doc.apply(Edit::AddObject(scene::ObjectDef {
            id: Id::new(&format!("box_{n}")),
            category: "box".into(),
            description: format!("cardboard box number {n}"),
            owner: None,
            at: at.clone(),
            roles: Vec::new(),
        }));
    }
    if !doc.problems().is_empty() {
        return Err(failed("the topped-up house is invalid"));
    }
    let large = scene::parse("large_house", scene::BUILTIN[2].1).map_err(failed)?;
    let scenes = [large, doc.into_scene()];
    out("editor: validation per edit (a drag of 2000 MoveFixture steps):".into());
    for s in scenes.clone() {
        let reps = 2000u32;
        let t0 = Instant::now();
        for _ in 0..reps {
            black_box(scene::validate(black_box(&s)));
        }
        let validate = t0.elapsed() / reps;
        // The first piece of furniture moves a millimetre towards the middle
        // of its room and back, so every step is accepted.
        let f = &s.furniture[0];
        let (id, pos) = (f.id.clone(), f.pos);
        let room = s
            .rooms
            .iter()
            .find(|r| r.id == f.room)
            .expect("valid scene");
        let step = 0.001f32.copysign(room.rect.center().0 - pos.0);
        let label = format!("{} ({} objects)", s.id, s.objects.len());
        let mut doc = Document::new(s);
        let t0 = Instant::now();
        doc.begin_group();
        for i in 0..reps {
            let dx = if i % 2 == 0 { step } else { 0.0 };
            doc.apply(Edit::MoveFixture {
                id: id.clone(),
                to: (pos.0 + dx, pos.1),
            })
            .map_err(failed)?;
        }
        doc.end_group();
        let edit = t0.elapsed() / reps;
        out(format!(
            "  {label:<28} validate {:>7.3} ms   edit + validate {:>7.3} ms",
            ms(validate),
            ms(edit)
        ));
    }
    Ok(scenes.to_vec())
}
