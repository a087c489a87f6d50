//! What the editor costs a frame while a room is dragged: headless (egui
//! fed real pointer events, [`drag_frames`], for `hearth bench`) and in
//! the window (`hearth edit --drag-bench`, [`DragBenchPlugin`]). Wall
//! clock, by nature.

use std::hint::black_box;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy_egui::egui::{self, Event, PointerButton, Pos2, RawInput, Rect};
use thiserror::Error;

use super::panels::show;
use super::state::EditorState;
use crate::editor::Edit;
use crate::scene::Scene;

/// A drag that did not end as one undo step.
#[derive(Debug, Error)]
#[error("the drag was not one undo step ({steps} steps; status: {status})")]
pub struct DragError {
    pub steps: usize,
    pub status: String,
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// The editor's CPU time per frame (egui layout, plan painting and
/// tessellation, the edit, live validation; no GPU) while the pointer drags the largest room
/// back and forth, driven by real pointer events.
pub fn drag_frames(scenes: &[Scene], out: &mut dyn FnMut(String)) -> Result<(), DragError> {
    out(
        "editor: CPU time per frame while dragging the largest room (1500x900, 400 frames):".into(),
    );
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
        if st.doc.undo_depth() != 1 {
            return Err(DragError {
                steps: st.doc.undo_depth(),
                status: st.status.clone(),
            });
        }
        times.sort();
        let mean = times.iter().sum::<Duration>() / times.len() as u32;
        out(format!(
            "  {label:<28} mean {:>6.2} ms   p95 {:>6.2} ms   worst {:>6.2} ms",
            ms(mean),
            ms(times[times.len() * 95 / 100]),
            ms(*times.last().expect("frames"))
        ));
    }
    Ok(())
}

/// Drags the largest room out and back for `frames` frames, then prints
/// the frame times and exits.
pub struct DragBenchPlugin {
    pub frames: u32,
}

impl Plugin for DragBenchPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(DragBench {
            frames: self.frames,
            times: Vec::new(),
            last: None,
        })
        .add_systems(Update, drag_largest_room);
    }
}

#[derive(Resource)]
struct DragBench {
    frames: u32,
    times: Vec<f64>,
    last: Option<Instant>,
}

/// System (`--drag-bench`): each frame moves the largest room by 0.1 m, as
/// a drag does (one group, live validation after every step), and records
/// the time between frames; prints mean, p95 and worst, then exits.
fn drag_largest_room(
    mut bench: ResMut<DragBench>,
    mut state: ResMut<EditorState>,
    mut exit: MessageWriter<AppExit>,
) {
    let now = Instant::now();
    if let Some(last) = bench.last {
        let dt = now.duration_since(last).as_secs_f64() * 1e3;
        bench.times.push(dt);
    }
    bench.last = Some(now);
    let n = bench.times.len() as u32;
    let scene = state.doc.scene();
    let Some(room) = scene
        .rooms
        .iter()
        .max_by(|a, b| (a.rect.w * a.rect.h).total_cmp(&(b.rect.w * b.rect.h)))
    else {
        exit.write(AppExit::from_code(1));
        return;
    };
    // Out and back, 0.1 m a frame, 20 frames each way.
    let dx = if (n / 20).is_multiple_of(2) {
        0.1
    } else {
        -0.1
    };
    let (id, to) = (room.id.clone(), (room.rect.x + dx, room.rect.y));
    state.doc.begin_group();
    state.apply(Edit::MoveRoom { id, to });
    if n >= bench.frames {
        state.doc.end_group();
        let mut t = bench.times[5.min(bench.times.len())..].to_vec();
        t.sort_by(f64::total_cmp);
        let mean = t.iter().sum::<f64>() / t.len().max(1) as f64;
        let p95 = t.get(t.len() * 95 / 100).copied().unwrap_or(0.0);
        println!(
            "drag of {}: {} frames, frame time mean {mean:.1} ms, p95 {p95:.1} ms, worst {:.1} ms; {} problem(s), {} undo step(s)",
            state.title(),
            t.len(),
            t.last().copied().unwrap_or(0.0),
            state.doc.problems().len(),
            state.doc.undo_depth()
        );
        exit.write(AppExit::Success);
    }
}
