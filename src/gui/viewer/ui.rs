//! The egui panels: controls on top, the timeline at the bottom, the event
//! log on the left, samples and entity history on the right, the plan (or
//! the 3D view's labels) in the middle.

use std::collections::BTreeSet;

use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{
    self, Align2, Color32, FontId, LayerId, RichText, Sense, Stroke, Ui, UiBuilder,
};

use crate::ids::Id;
use crate::samples::Sample;
use crate::trace::{Event, clock_time};

use super::draw;
use super::state::{Cursor, LogFilter, Mode, Model, View};
use super::three::MainCamera;
use crate::gui::geometry;

fn event_line(e: &Event) -> String {
    let what = match &e.action {
        crate::trace::request::Action::Say { text, .. } => format!("says \"{text}\""),
        a => {
            let args: Vec<String> = a.entity_args().iter().map(|i| i.to_string()).collect();
            format!("{} {}", a.skill_name(), args.join(" "))
        }
    };
    let mark = match e.outcome.rejection() {
        Some(r) => format!("  rejected: {}", r.code),
        None => String::new(),
    };
    format!(
        "#{} d{} {} {} {what}{mark}",
        e.id,
        e.day,
        &clock_time(e.t)[..5],
        e.actor
    )
}

fn passes(f: &LogFilter, e: &Event, robot: &Id) -> bool {
    f.actor.as_ref().is_none_or(|a| *a == e.actor)
        && f.kind.is_none_or(|k| {
            let kind = serde_json::to_value(e.kind).ok();
            kind.as_ref().and_then(|v| v.as_str()) == Some(k)
        })
        && f.seen.is_none_or(|s| e.observers.contains(robot) == s)
        && (!f.rejected_only || !e.outcome.is_ok())
        && (f.entity.trim().is_empty() || {
            let q = f.entity.trim();
            e.actor.as_str() == q
                || e.action.entity_args().iter().any(|i| i.as_str() == q)
                || e.changes.iter().any(|c| c.entity.as_str() == q)
        })
}

/// Moves the cursor to just after event index `i` (0-based).
fn seek(cursor: &mut Cursor, n: usize) {
    cursor.n = n;
    cursor.frac = 0.0;
}

pub fn ui(
    mut contexts: EguiContexts,
    model: Res<Model>,
    mut cursor: ResMut<Cursor>,
    mut view: ResMut<View>,
    camera: Query<(&Camera, &GlobalTransform), With<MainCamera>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    view.pointer_over_ui = ctx.egui_wants_pointer_input();
    let mut root = Ui::new(
        ctx.clone(),
        "viewport".into(),
        UiBuilder::new()
            .layer_id(LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    if view.plain {
        let area = root.available_rect_before_wrap();
        match view.mode {
            Mode::Robot => draw::plan(&mut root, area, &model, &cursor, true, &BTreeSet::new()),
            Mode::TwoD => draw::plan(&mut root, area, &model, &cursor, false, &BTreeSet::new()),
            Mode::ThreeD => {}
        }
        return Ok(());
    }

    egui::Panel::top("controls").show(&mut root, |ui| controls(ui, &model, &mut cursor, &mut view));
    egui::Panel::bottom("timeline")
        .exact_size(54.0)
        .show(&mut root, |ui| timeline(ui, &model, &mut cursor, &view));
    egui::Panel::left("log")
        .default_size(430.0)
        .show(&mut root, |ui| {
            event_log(ui, &model, &mut cursor, &mut view)
        });
    egui::Panel::right("details")
        .default_size(360.0)
        .show(&mut root, |ui| {
            if !model.samples.is_empty() {
                samples(ui, &model, &mut cursor, &mut view);
                ui.separator();
            }
            entity(ui, &model, &mut cursor, &mut view);
        });
    middle(&mut root, &model, &cursor, &view, camera.single().ok());
    Ok(())
}

/// Play, step and speed; the view's mode; go to an event or a time; where
/// the cursor is.
fn controls(ui: &mut Ui, model: &Model, cursor: &mut Cursor, view: &mut View) {
    let len = model.pb.len();
    ui.horizontal(|ui| {
        if ui
            .button(if cursor.playing {
                "⏸ pause"
            } else {
                "▶ play"
            })
            .clicked()
        {
            cursor.playing = !cursor.playing;
        }
        if ui.button("⏮").on_hover_text("one event back").clicked() {
            let n = cursor.n.saturating_sub(1);
            seek(cursor, n);
        }
        if ui.button("⏭").on_hover_text("one event on").clicked() {
            let n = (cursor.n + 1).min(len);
            seek(cursor, n);
        }
        ui.add(
            egui::Slider::new(&mut cursor.speed, 0.5..=200.0)
                .logarithmic(true)
                .text("events/s"),
        );
        ui.separator();
        ui.selectable_value(&mut view.mode, Mode::TwoD, "2D");
        ui.selectable_value(&mut view.mode, Mode::ThreeD, "3D");
        ui.selectable_value(&mut view.mode, Mode::Robot, "robot's view");
        ui.separator();
        ui.label("go to");
        let r = ui.add(
            egui::TextEdit::singleline(&mut view.jump)
                .desired_width(90.0)
                .hint_text("event or d2 14:05"),
        );
        if r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
            let text = view.jump.trim().to_string();
            view.message = match parse_jump(&text, model) {
                Some(n) => {
                    seek(cursor, n);
                    String::new()
                }
                None => format!("{text:?}: give an event id, or a day and time like d2 14:05"),
            };
        }
        ui.separator();
        let here = cursor.n.checked_sub(1).and_then(|i| model.pb.events.get(i));
        ui.label(match here {
            Some(e) => format!(
                "after event {} of {}: day {} {} {}",
                e.id,
                len,
                e.day,
                clock_time(e.t),
                e.session.as_deref().unwrap_or("")
            ),
            None => format!("start (0 of {len} events)"),
        });
        if !view.message.is_empty() {
            ui.colored_label(Color32::RED, &view.message);
        }
    });
}

/// The timeline: days and sessions marked, the selected sample's evidence
/// and cutoff; click or drag to seek.
fn timeline(ui: &mut Ui, model: &Model, cursor: &mut Cursor, view: &View) {
    let len = model.pb.len();
    let (rect, response) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
    let p = ui.painter_at(rect);
    p.rect_filled(rect, 3.0, Color32::from_rgb(40, 42, 48));
    let x = |i: usize| rect.left() + rect.width() * i as f32 / len.max(1) as f32;
    // Sessions as ticks, days as lines: from the events, so traces
    // without sessions (scripts) get their days too.
    for (i, start) in model.sessions.iter().enumerate() {
        let sx = x(*start);
        let h = if i % 2 == 0 { 0.55 } else { 0.7 };
        p.line_segment(
            [
                egui::pos2(sx, rect.top() + rect.height() * h),
                egui::pos2(sx, rect.bottom()),
            ],
            Stroke::new(1.0, Color32::from_rgb(120, 130, 150)),
        );
    }
    let mut day = 0;
    for (i, e) in model.pb.events.iter().enumerate() {
        if e.day == day {
            continue;
        }
        day = e.day;
        let sx = x(i);
        p.line_segment(
            [egui::pos2(sx, rect.top()), egui::pos2(sx, rect.bottom())],
            Stroke::new(2.0, Color32::from_rgb(200, 200, 210)),
        );
        p.text(
            egui::pos2(sx + 3.0, rect.top() + 2.0),
            Align2::LEFT_TOP,
            format!("day {day}"),
            FontId::proportional(12.0),
            Color32::WHITE,
        );
    }
    // Evidence of the selected sample.
    if let Some(Sample::Qa(q)) = view.selected_sample.and_then(|i| model.samples.get(i)) {
        for e in &q.evidence {
            let ex = x(*e as usize);
            p.circle_filled(
                egui::pos2(ex, rect.center().y),
                4.0,
                Color32::from_rgb(250, 190, 40),
            );
        }
        let cx = x(q.cutoff.event as usize - 1);
        p.line_segment(
            [egui::pos2(cx, rect.top()), egui::pos2(cx, rect.bottom())],
            Stroke::new(2.0, Color32::from_rgb(240, 80, 80)),
        );
    }
    let cx = x(cursor.n);
    p.line_segment(
        [egui::pos2(cx, rect.top()), egui::pos2(cx, rect.bottom())],
        Stroke::new(3.0, Color32::from_rgb(90, 200, 255)),
    );
    if let Some(pos) = response.interact_pointer_pos() {
        let n =
            (((pos.x - rect.left()) / rect.width()).clamp(0.0, 1.0) * len as f32).round() as usize;
        seek(cursor, n);
    }
}

/// The event log with its filters, following the cursor.
fn event_log(ui: &mut Ui, model: &Model, cursor: &mut Cursor, view: &mut View) {
    let len = model.pb.len();
    let robot = model.pb.robot.clone();
    ui.heading("Events");
    ui.horizontal_wrapped(|ui| {
        let actor_label = view
            .filter
            .actor
            .as_ref()
            .map_or("any actor".to_string(), |a| a.to_string());
        egui::ComboBox::from_id_salt("actor")
            .selected_text(actor_label)
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut view.filter.actor, None, "any actor");
                for a in &model.pb.scene.actors {
                    ui.selectable_value(&mut view.filter.actor, Some(a.id.clone()), a.id.as_str());
                }
            });
        egui::ComboBox::from_id_salt("kind")
            .selected_text(view.filter.kind.unwrap_or("any kind"))
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut view.filter.kind, None, "any kind");
                ui.selectable_value(&mut view.filter.kind, Some("action"), "action");
                ui.selectable_value(&mut view.filter.kind, Some("utterance"), "utterance");
            });
        let seen_label = match view.filter.seen {
            None => "seen or not",
            Some(true) => "seen by robot",
            Some(false) => "unseen by robot",
        };
        egui::ComboBox::from_id_salt("seen")
            .selected_text(seen_label)
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut view.filter.seen, None, "seen or not");
                ui.selectable_value(&mut view.filter.seen, Some(true), "seen by robot");
                ui.selectable_value(&mut view.filter.seen, Some(false), "unseen by robot");
            });
        ui.checkbox(&mut view.filter.rejected_only, "rejected");
        ui.add(
            egui::TextEdit::singleline(&mut view.filter.entity)
                .desired_width(110.0)
                .hint_text("entity id"),
        );
    });
    ui.separator();
    let filter = view.filter.clone();
    let rows: Vec<usize> = (0..len)
        .filter(|i| passes(&filter, &model.pb.events[*i], &robot))
        .collect();
    let evidence: BTreeSet<u64> = match view.selected_sample.and_then(|i| model.samples.get(i)) {
        Some(s) => s.evidence().iter().copied().collect(),
        None => BTreeSet::new(),
    };
    let row_h = 18.0;
    let mut area = egui::ScrollArea::vertical().auto_shrink(false);
    // Follow the cursor when it moves (playing, seeking), not while reading.
    if view.scrolled_to != Some(cursor.n) {
        view.scrolled_to = Some(cursor.n);
        let row = rows.partition_point(|i| *i + 1 < cursor.n);
        let step = row_h + ui.spacing().item_spacing.y;
        area = area.vertical_scroll_offset((row as f32 * step - 120.0).max(0.0));
    }
    area.show_rows(ui, row_h, rows.len(), |ui, range| {
        for &i in &rows[range] {
            let e = &model.pb.events[i];
            let seen = e.observers.contains(&robot) || e.revealed_to.contains(&robot);
            let mut text = RichText::new(event_line(e)).size(12.0);
            if view.mode == Mode::Robot && !seen {
                text = text.color(Color32::from_gray(150));
            } else if !e.outcome.is_ok() {
                text = text.color(Color32::from_rgb(200, 60, 50));
            }
            if evidence.contains(&e.id) {
                text = text.background_color(Color32::from_rgb(255, 230, 150));
            }
            if ui.selectable_label(cursor.n == i + 1, text).clicked() {
                seek(cursor, i + 1);
            }
        }
    });
}

/// The samples (with the agents' answers from the reports) and the
/// selected one's details.
fn samples(ui: &mut Ui, model: &Model, cursor: &mut Cursor, view: &mut View) {
    ui.heading(format!("Samples ({})", model.samples.len()));
    egui::ScrollArea::vertical()
        .id_salt("samples")
        .max_height(220.0)
        .show_rows(ui, 18.0, model.samples.len(), |ui, range| {
            for i in range {
                let s = &model.samples[i];
                let title = match s {
                    Sample::Qa(q) => format!("{} {}", q.id, q.question),
                    Sample::Plan(p) => format!("{} {}", p.id, p.instruction),
                };
                if ui
                    .selectable_label(
                        view.selected_sample == Some(i),
                        RichText::new(title).size(12.0),
                    )
                    .clicked()
                {
                    view.selected_sample = Some(i);
                    seek(cursor, s.cutoff().event as usize - 1);
                }
            }
        });
    if let Some(s) = view.selected_sample.and_then(|i| model.samples.get(i)) {
        ui.separator();
        match s {
            Sample::Qa(q) => {
                ui.label(RichText::new(&q.question).strong());
                ui.label(format!("{} · {}", q.family.name(), q.template));
                ui.label(format!(
                    "cutoff: before event {} (day {} {})",
                    q.cutoff.event, q.cutoff.day, q.cutoff.time
                ));
                ui.label(
                    RichText::new(format!("reference: {}", q.answer_text))
                        .color(Color32::from_rgb(30, 120, 60)),
                );
                for r in &model.reports {
                    if let Some(res) = r.questions.iter().find(|x| x.id == q.id) {
                        let mark = if res.calibrated { "right" } else { "wrong" };
                        ui.label(format!("{} {mark}: {}", r.agent, res.text));
                    }
                }
            }
            Sample::Plan(p) => {
                ui.label(RichText::new(&p.instruction).strong());
                ui.label(format!(
                    "goals: {}",
                    serde_json::to_string(&p.goals).unwrap_or_default()
                ));
                ui.label(format!("reference plan: {} steps", p.reference_plan.len()));
            }
        }
        ui.horizontal_wrapped(|ui| {
            ui.label("evidence:");
            for e in s.evidence() {
                if ui.link(format!("#{e}")).clicked() {
                    seek(cursor, *e as usize);
                }
            }
        });
        if ui.button("go to cutoff").clicked() {
            seek(cursor, s.cutoff().event as usize - 1);
        }
    }
}

/// An entity's state now, what the robot believes of it, and its history.
fn entity(ui: &mut Ui, model: &Model, cursor: &mut Cursor, view: &mut View) {
    ui.heading("Entity");
    ui.add(egui::TextEdit::singleline(&mut view.entity).hint_text("an id, e.g. mug_1"));
    let id = Id::new(view.entity.trim());
    if !view.entity.trim().is_empty() {
        let state = model.pb.state_at(cursor.n);
        let beliefs = model.pb.beliefs_at(cursor.n);
        for ((e, attr), v) in state.range((id.clone(), Id::new(""))..) {
            if *e != id {
                break;
            }
            let believed = beliefs.get(&(e.clone(), attr.clone()));
            let note = match believed {
                Some((b, _)) if b == v => " (the robot knows)".to_string(),
                Some((b, ev)) => format!(" (the robot believes {b}, seen in #{ev})"),
                None => " (the robot has not seen it)".to_string(),
            };
            ui.label(format!("{attr} = {v}{note}"));
        }
        ui.label("history:");
        egui::ScrollArea::vertical()
            .id_salt("history")
            .show(ui, |ui| {
                for (ev, attr, v) in model.pb.history(&id, cursor.n).iter().rev().take(200) {
                    if ui.link(format!("#{ev} {attr} → {v}")).clicked() {
                        seek(cursor, *ev as usize);
                    }
                }
            });
    }
}

/// The middle: the plan, or labels over the 3D view.
fn middle(
    root: &mut Ui,
    model: &Model,
    cursor: &Cursor,
    view: &View,
    camera: Option<(&Camera, &GlobalTransform)>,
) {
    let area = root.available_rect_before_wrap();
    let highlight: BTreeSet<Id> = match view.selected_sample.and_then(|i| model.samples.get(i)) {
        Some(Sample::Qa(q)) => q.query.entities().into_iter().collect(),
        Some(Sample::Plan(p)) => p
            .goals
            .iter()
            .map(|g| match g {
                crate::samples::Prop::IsOn { object, .. }
                | crate::samples::Prop::IsIn { object, .. }
                | crate::samples::Prop::HeldBy { object, .. } => object.clone(),
                crate::samples::Prop::Field { device, .. } => device.clone(),
            })
            .collect(),
        None => BTreeSet::new(),
    };
    match view.mode {
        Mode::TwoD => draw::plan(root, area, model, cursor, false, &highlight),
        Mode::Robot => draw::plan(root, area, model, cursor, true, &highlight),
        Mode::ThreeD => {
            if let Some((cam, at)) = camera {
                let painter = root.painter_at(area);
                let state = model.pb.state_at(cursor.n);
                for (id, p) in geometry::actor_points(model.pb.lookup(), &state) {
                    if let Ok(v) = cam.world_to_viewport(at, Vec3::new(p.x, 1.4, p.y)) {
                        painter.text(
                            egui::pos2(v.x, v.y),
                            Align2::CENTER_BOTTOM,
                            id.as_str(),
                            FontId::proportional(14.0),
                            Color32::BLACK,
                        );
                    }
                }
                for r in &model.pb.scene.rooms {
                    let c = geometry::room_center(model.pb.lookup(), &r.id);
                    if let Ok(v) = cam.world_to_viewport(at, Vec3::new(c.x, 0.1, c.y)) {
                        painter.text(
                            egui::pos2(v.x, v.y),
                            Align2::CENTER_CENTER,
                            &r.name,
                            FontId::proportional(12.0),
                            Color32::from_gray(70),
                        );
                    }
                }
            }
        }
    }
}

/// "123" → after event 123; "d2 14:05" → the first event at or after it.
fn parse_jump(text: &str, model: &Model) -> Option<usize> {
    if let Ok(id) = text.trim_start_matches('#').parse::<u64>() {
        return model
            .pb
            .events
            .iter()
            .position(|e| e.id == id)
            .map(|i| i + 1);
    }
    let (d, t) = text.trim_start_matches(['d', 'D']).split_once(' ')?;
    let day: u64 = d.trim().parse().ok()?;
    let (h, m) = t.trim().split_once(':')?;
    let (h, m): (u64, u64) = (h.parse().ok()?, m.parse().ok()?);
    if day < 1 || h >= 24 || m >= 60 {
        return None;
    }
    let t = (day - 1)
        .checked_mul(86_400)?
        .checked_add(h * 3600 + m * 60)?;
    Some(model.pb.at_time(t))
}
