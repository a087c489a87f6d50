//! The floor plan, painted with egui: rooms, doors, furniture and devices
//! to scale, objects on their receptacles, actors with names; in the
//! robot's view, the world as it believes it with differences marked.

use std::collections::{BTreeMap, BTreeSet};

use bevy::math::Vec2;
use bevy_egui::egui::{self, Align2, Color32, FontId, Pos2, Rect, Stroke, StrokeKind};

use crate::ids::Id;
use crate::samples::index::Key;
use crate::trace::Value;

use super::geometry::*;
use super::{Cursor, Model};

/// Scene metres to screen points, fitted into `area`.
pub struct Fit {
    lo: Vec2,
    scale: f32,
    origin: Pos2,
}

impl Fit {
    pub fn new(model: &Model, area: Rect) -> Self {
        let (lo, hi) = bounds(&model.pb.scene);
        let size = (hi - lo).max(Vec2::splat(1.0));
        let scale = ((area.width() - 40.0) / size.x)
            .min((area.height() - 40.0) / size.y)
            .max(1.0);
        let used = size * scale;
        Fit {
            lo,
            scale,
            origin: Pos2::new(
                area.center().x - used.x / 2.0,
                area.center().y - used.y / 2.0,
            ),
        }
    }

    pub fn p(&self, v: Vec2) -> Pos2 {
        Pos2::new(
            self.origin.x + (v.x - self.lo.x) * self.scale,
            self.origin.y + (v.y - self.lo.y) * self.scale,
        )
    }

    fn rect(&self, centre: Vec2, size: Vec2) -> Rect {
        Rect::from_min_max(self.p(centre - size / 2.0), self.p(centre + size / 2.0))
    }
}

fn colour_of(id: &str) -> Color32 {
    let h = id
        .bytes()
        .fold(7u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(b)));
    Color32::from_rgb(
        60 + (h % 150) as u8,
        60 + (h / 150 % 150) as u8,
        60 + (h / 22500 % 150) as u8,
    )
}

/// The state to draw at the cursor: the truth, or the robot's beliefs.
pub fn states(
    model: &Model,
    cursor: &Cursor,
) -> (BTreeMap<Key, Value>, BTreeMap<Key, (Value, u64)>) {
    (model.pb.state_at(cursor.n), model.pb.beliefs_at(cursor.n))
}

/// Paints the plan. `robot`: draw beliefs and mark where they are wrong.
pub fn plan(
    ui: &mut egui::Ui,
    area: Rect,
    model: &Model,
    cursor: &Cursor,
    robot: bool,
    highlight: &BTreeSet<Id>,
) {
    let painter = ui.painter_at(area);
    painter.rect_filled(area, 0.0, Color32::from_rgb(238, 238, 233));
    let fit = Fit::new(model, area);
    let scene = &model.pb.scene;
    let (truth, beliefs) = states(model, cursor);
    let believed: BTreeMap<Key, Value> = beliefs
        .iter()
        .map(|(k, (v, _))| (k.clone(), v.clone()))
        .collect();
    let shown = if robot { &believed } else { &truth };
    let small = FontId::proportional((fit.scale * 0.16).clamp(8.0, 13.0));
    let label = FontId::proportional((fit.scale * 0.22).clamp(10.0, 16.0));
    // Rooms and their names.
    for r in &scene.rooms {
        let rect = Rect::from_min_max(
            fit.p(Vec2::new(r.rect.x, r.rect.y)),
            fit.p(Vec2::new(r.rect.x + r.rect.w, r.rect.y + r.rect.h)),
        );
        painter.rect(
            rect,
            0.0,
            Color32::from_rgb(252, 250, 244),
            Stroke::new(2.0, Color32::from_rgb(90, 90, 90)),
            StrokeKind::Inside,
        );
        painter.text(
            rect.left_top() + egui::vec2(5.0, 4.0),
            Align2::LEFT_TOP,
            &r.name,
            label.clone(),
            Color32::from_rgb(110, 110, 110),
        );
    }
    // Doors: green open, red closed.
    for d in &scene.doors {
        let open = !d.openable
            || matches!(
                shown.get(&(d.id.clone(), Id::new("open"))),
                Some(Value::Bool(true))
            );
        let c = if open {
            Color32::from_rgb(80, 160, 90)
        } else {
            Color32::from_rgb(190, 60, 50)
        };
        painter.circle_filled(
            fit.p(Vec2::new(d.at.0, d.at.1)),
            (fit.scale * 0.18).max(3.0),
            c,
        );
    }
    // Furniture and devices.
    for f in &scene.furniture {
        let rect = fit.rect(Vec2::new(f.pos.0, f.pos.1), Vec2::new(f.size.0, f.size.1));
        let open = matches!(
            shown.get(&(f.id.clone(), Id::new("open"))),
            Some(Value::Bool(true))
        );
        let fill = if open {
            Color32::from_rgb(236, 214, 170)
        } else {
            Color32::from_rgb(222, 205, 175)
        };
        painter.rect(
            rect,
            2.0,
            fill,
            Stroke::new(1.0, Color32::from_rgb(150, 130, 100)),
            StrokeKind::Inside,
        );
        painter.text(
            rect.center_bottom() + egui::vec2(0.0, -2.0),
            Align2::CENTER_BOTTOM,
            &f.kind,
            small.clone(),
            Color32::from_rgb(120, 100, 70),
        );
    }
    for d in &scene.devices {
        let rect = fit.rect(
            Vec2::new(d.pos.0, d.pos.1),
            Vec2::new(d.size.0.max(0.2), d.size.1.max(0.2)),
        );
        let key = |f: &str| (d.id.clone(), Id::new(f));
        let on = matches!(shown.get(&key("power")), Some(Value::Bool(true)));
        let fill = if on {
            Color32::from_rgb(255, 214, 80)
        } else {
            Color32::from_rgb(190, 195, 205)
        };
        let wrong = robot
            && d.fields.keys().any(|f| {
                believed
                    .get(&key(f))
                    .is_some_and(|b| truth.get(&key(f)) != Some(b))
            });
        let stroke = if wrong {
            Stroke::new(3.0, Color32::RED)
        } else {
            Stroke::new(1.0, Color32::from_rgb(90, 90, 110))
        };
        painter.rect(rect, 3.0, fill, stroke, StrokeKind::Inside);
        painter.text(
            rect.center_top() + egui::vec2(0.0, 1.0),
            Align2::CENTER_TOP,
            format!("{}{}", d.kind, if on { " (on)" } else { "" }),
            small.clone(),
            Color32::from_rgb(50, 50, 70),
        );
    }
    // Actors (walking mid-event) and what they carry.
    let mut actors = actor_points(scene, &truth);
    if !robot
        && cursor.frac > 0.0
        && let Some(e) = model.pb.events.get(cursor.n)
        && e.outcome.is_ok()
        && e.action.skill_name() == "navigate_to"
    {
        let after = model.pb.state_at(cursor.n + 1);
        if let (Some(from), Some(to)) = (
            actors.get(&e.actor).copied(),
            actor_points(scene, &after).get(&e.actor).copied(),
        ) {
            actors.insert(e.actor.clone(), walk(scene, e, from, to, cursor.frac));
        }
    }
    let robot_actors = if robot {
        // Others where the robot last saw them; itself where it is.
        let mut b = actor_points(scene, &believed);
        if let Some(p) = actors.get(&model.pb.robot) {
            b.insert(model.pb.robot.clone(), *p);
        }
        b
    } else {
        actors.clone()
    };
    let shown_actors = if robot { &robot_actors } else { &actors };
    let shown_at = locations(shown);
    let true_at = locations(&truth);
    let objects = object_points(scene, &shown_at, shown_actors);
    let true_objects = object_points(scene, &locations(&truth), &actors);
    let r = (fit.scale * 0.07).clamp(2.5, 7.0);
    for (id, (p, inside)) in &objects {
        let c = colour_of(id);
        let at = fit.p(*p);
        if *inside {
            painter.circle_stroke(at, r, Stroke::new(1.5, c));
        } else {
            painter.circle_filled(at, r, c);
        }
        // Wrong where the believed location differs, not merely the drawing.
        let wrong = robot && shown_at.get(id) != true_at.get(id);
        if wrong && let Some((t, _)) = true_objects.get(id).copied() {
            painter.line_segment(
                [at, fit.p(t)],
                Stroke::new(1.0, Color32::from_rgba_unmultiplied(220, 40, 40, 140)),
            );
            painter.circle_stroke(at, r + 3.0, Stroke::new(2.0, Color32::RED));
            painter.circle_stroke(
                fit.p(t),
                r,
                Stroke::new(1.0, Color32::from_rgba_unmultiplied(220, 40, 40, 140)),
            );
        }
        if highlight.contains(id) {
            painter.circle_stroke(
                at,
                r + 6.0,
                Stroke::new(2.5, Color32::from_rgb(230, 160, 0)),
            );
        }
        if fit.scale > 55.0 {
            painter.text(
                at + egui::vec2(r + 2.0, 0.0),
                Align2::LEFT_CENTER,
                id.as_str(),
                small.clone(),
                Color32::from_rgb(70, 70, 70),
            );
        }
    }
    for a in &scene.actors {
        let Some(p) = shown_actors.get(&a.id) else {
            continue;
        };
        let at = fit.p(*p);
        let robot_actor = a.kind == crate::scene::ActorKind::Robot;
        let c = if robot_actor {
            Color32::from_rgb(230, 120, 20)
        } else {
            Color32::from_rgb(50, 110, 200)
        };
        painter.circle(
            at,
            (fit.scale * 0.18).clamp(5.0, 14.0),
            c,
            Stroke::new(2.0, Color32::WHITE),
        );
        if highlight.contains(&a.id) {
            painter.circle_stroke(
                at,
                (fit.scale * 0.18).clamp(5.0, 14.0) + 5.0,
                Stroke::new(2.5, Color32::from_rgb(230, 160, 0)),
            );
        }
        painter.text(
            at + egui::vec2(0.0, -(fit.scale * 0.18).clamp(5.0, 14.0) - 2.0),
            Align2::CENTER_BOTTOM,
            &a.name,
            label.clone(),
            Color32::from_rgb(20, 20, 20),
        );
    }
    // Legend.
    let legend = if robot {
        "robot's view: beliefs drawn; red = believed wrongly (line to the truth)"
    } else {
        "truth: filled = on, ring = inside a container; yellow device = on"
    };
    painter.text(
        area.left_bottom() + egui::vec2(8.0, -6.0),
        Align2::LEFT_BOTTOM,
        legend,
        small,
        Color32::from_rgb(90, 90, 90),
    );
}
