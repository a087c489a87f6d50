//! The editor: validation per edit and, with the gui feature, CPU time per
//! frame while dragging.

use std::hint::black_box;
use std::time::Instant;

use anyhow::Result;

use hearth::procgen::{self, SceneSpec};
use hearth::scene;

use super::args::ms;

/// The editor's live validation: `scene::validate` as re-run after every
/// edit, while one piece of furniture is dragged back and forth, on the
/// largest built-in scene and on a 150-object house (generated houses stop
/// near 116 objects, so the largest of 50 seeds is topped up with the
/// editor's own `AddObject` on free receptacle space).
pub(super) fn bench_editor() -> Result<()> {
    use hearth::editor::{Document, Edit};
    use hearth::ids::Id;
    let cat = hearth::catalogue::builtin();
    let mut house = None::<scene::Scene>;
    for seed in 0..50 {
        let s = procgen::generate(&SceneSpec::new("house", seed), cat)?;
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
    anyhow::ensure!(doc.problems().is_empty(), "the topped-up house is invalid");
    let large = scene::parse("large_house", scene::BUILTIN[2].1)?;
    let scenes = [large, doc.into_scene()];
    println!("editor: validation per edit (a drag of 2000 MoveFixture steps):");
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
            })?;
        }
        doc.end_group();
        let edit = t0.elapsed() / reps;
        println!(
            "  {label:<28} validate {:>7.3} ms   edit + validate {:>7.3} ms",
            ms(validate),
            ms(edit)
        );
    }
    #[cfg(feature = "gui")]
    bench_editor_frames(&scenes)?;
    Ok(())
}

/// The editor's CPU time per frame (egui layout, plan painting and
/// tessellation, the edit, live validation; no GPU) while the pointer drags the largest room
/// back and forth, driven by real pointer events.
#[cfg(feature = "gui")]
pub(super) fn bench_editor_frames(scenes: &[scene::Scene]) -> Result<()> {
    use bevy_egui::egui::{self, Event, PointerButton, Pos2, RawInput, Rect};
    use hearth::gui::edit::{EditorState, show};
    println!("editor: CPU time per frame while dragging the largest room (1500x900, 400 frames):");
    for s in scenes {
        let label = format!("{} ({} objects)", s.id, s.objects.len());
        let r = s
            .rooms
            .iter()
            .max_by(|a, b| (a.rect.w * a.rect.h).total_cmp(&(b.rect.w * b.rect.h)))
            .expect("rooms")
            .rect;
        let mut st = EditorState::new(s.clone(), None);
        st.snap = false;
        let ctx = egui::Context::default();
        let screen = Rect::from_min_size(Pos2::ZERO, egui::vec2(1500.0, 900.0));
        let frame = |st: &mut EditorState, events: Vec<Event>| {
            let input = RawInput {
                screen_rect: Some(screen),
                events,
                ..Default::default()
            };
            let t0 = Instant::now();
            let mut out = ctx.run_ui(input, |ui| show(ui.ctx(), st));
            // Tessellation is CPU work every frame too; the textures go
            // nowhere here.
            black_box(ctx.tessellate(std::mem::take(&mut out.shapes), out.pixels_per_point));
            out.textures_delta.clear();
            t0.elapsed()
        };
        frame(&mut st, vec![]);
        frame(&mut st, vec![]);
        // Grab the room by a bit of bare floor.
        let room = s
            .rooms
            .iter()
            .find(|x| x.rect == r)
            .expect("room")
            .id
            .clone();
        let p0 = (1..10)
            .flat_map(|i| (1..10).map(move |j| (i as f32 / 10.0, j as f32 / 10.0)))
            .filter_map(|(fx, fy)| st.to_screen(r.x + r.w * fx, r.y + r.h * fy))
            .find(|p| st.hit_at(*p).as_ref() == Some(&room))
            .expect("some bare floor");
        let button = |pos, pressed| Event::PointerButton {
            pos,
            button: PointerButton::Primary,
            pressed,
            modifiers: Default::default(),
        };
        frame(&mut st, vec![Event::PointerMoved(p0), button(p0, true)]);
        let mut times = Vec::new();
        for i in 0..400u32 {
            // 40 points out and back.
            let dx = if (i / 40).is_multiple_of(2) {
                i % 40
            } else {
                40 - i % 40
            } as f32;
            let p = p0 + egui::vec2(dx + 1.0, 0.0);
            times.push(frame(&mut st, vec![Event::PointerMoved(p)]));
        }
        frame(&mut st, vec![button(p0, false)]);
        anyhow::ensure!(
            st.doc.undo_depth() == 1,
            "the drag was not one undo step ({} steps; status: {})",
            st.doc.undo_depth(),
            st.status
        );
        times.sort();
        let mean = times.iter().sum::<std::time::Duration>() / times.len() as u32;
        println!(
            "  {label:<28} mean {:>6.2} ms   p95 {:>6.2} ms   worst {:>6.2} ms",
            ms(mean),
            ms(times[times.len() * 95 / 100]),
            ms(*times.last().expect("frames"))
        );
    }
    Ok(())
}
