//! The floor plan, painted with egui, shared by the viewer and the editor:
//! rooms, doors, furniture and devices to scale, objects on their
//! receptacles, actors with names, and marks (highlighted, selected,
//! problems, believed wrongly). A [`Plan`] is what to draw; a [`Fit`] maps
//! scene metres to screen points, with pan and zoom.

use std::collections::{BTreeMap, BTreeSet};

use bevy::math::Vec2;
use bevy_egui::egui::{self, Align2, Color32, FontId, Painter, Pos2, Rect, Stroke, StrokeKind};

use crate::ids::Id;
use crate::scene::{ActorKind, FieldDef, Indexed, Openable, Placement, Scene};
use crate::trace::Key;
use crate::trace::{Location, Position, Value};

use super::geometry::{actor_point, actor_points, bounds, fixture, locations, object_points};

/// Scene metres to screen points: fitted into an area, then zoomed about
/// its centre and panned.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fit {
    lo: Vec2,
    scale: f32,
    origin: Pos2,
}

impl Fit {
    /// The whole scene, centred in `area` with a margin.
    pub fn new(scene: &Scene, area: Rect) -> Self {
        let (lo, hi) = bounds(scene);
        let (lo, hi) = if lo.x > hi.x {
            (Vec2::ZERO, Vec2::splat(5.0))
        } else {
            (lo, hi)
        };
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

    /// Zoomed by `zoom` about the centre of `area`, then moved by `pan` points.
    pub fn zoomed(self, area: Rect, zoom: f32, pan: egui::Vec2) -> Self {
        let c = area.center();
        Fit {
            lo: self.lo,
            scale: self.scale * zoom,
            origin: c + (self.origin - c) * zoom + pan,
        }
    }

    /// Points per metre.
    pub fn scale(&self) -> f32 {
        self.scale
    }

    /// Scene metres to a screen point.
    pub fn p(&self, v: Vec2) -> Pos2 {
        Pos2::new(
            self.origin.x + (v.x - self.lo.x) * self.scale,
            self.origin.y + (v.y - self.lo.y) * self.scale,
        )
    }

    /// A screen point to scene metres.
    pub fn m(&self, p: Pos2) -> Vec2 {
        Vec2::new(
            (p.x - self.origin.x) / self.scale + self.lo.x,
            (p.y - self.origin.y) / self.scale + self.lo.y,
        )
    }

    pub fn rect(&self, centre: Vec2, size: Vec2) -> Rect {
        Rect::from_min_max(self.p(centre - size / 2.0), self.p(centre + size / 2.0))
    }

    /// A room's rectangle on screen.
    pub fn room(&self, r: &crate::scene::Rect) -> Rect {
        Rect::from_min_max(
            self.p(Vec2::new(r.x, r.y)),
            self.p(Vec2::new(r.x + r.w, r.y + r.h)),
        )
    }

    fn actor_radius(&self) -> f32 {
        (self.scale * 0.18).clamp(5.0, 14.0)
    }

    fn object_radius(&self) -> f32 {
        (self.scale * 0.07).clamp(2.5, 7.0)
    }

    fn door_radius(&self) -> f32 {
        (self.scale * 0.18).max(3.0)
    }
}

/// A stable colour per id, so an object keeps its colour across frames.
pub fn colour_of(id: &str) -> Color32 {
    let h = id
        .bytes()
        .fold(7u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(b)));
    Color32::from_rgb(
        60 + (h % 150) as u8,
        60 + (h / 150 % 150) as u8,
        60 + (h / 22500 % 150) as u8,
    )
}

const HIGHLIGHT: Color32 = Color32::from_rgb(230, 160, 0);
pub const SELECTED: Color32 = Color32::from_rgb(30, 110, 230);
const PROBLEM: Color32 = Color32::from_rgb(220, 30, 30);

/// What to draw: a scene in one state, with marks.
pub struct Plan<'a> {
    pub scene: Indexed<'a>,
    pub closed_doors: BTreeSet<Id>,
    pub open_fixtures: BTreeSet<Id>,
    pub powered: BTreeSet<Id>,
    pub actors: BTreeMap<Id, Vec2>,
    /// Where each object is drawn, and whether it is inside something.
    pub objects: BTreeMap<Id, (Vec2, bool)>,
    /// Believed wrongly (the robot's view): devices, or objects with where
    /// they truly are.
    pub wrong: BTreeMap<Id, Option<Vec2>>,
    pub highlight: BTreeSet<Id>,
    pub selected: BTreeSet<Id>,
    /// Outlined in red.
    pub problems: BTreeSet<Id>,
    /// A grid every this many metres, under the fixtures.
    pub grid: Option<f32>,
    pub legend: String,
}

impl<'a> Plan<'a> {
    fn empty(scene: Indexed<'a>) -> Self {
        Plan {
            scene,
            closed_doors: BTreeSet::new(),
            open_fixtures: BTreeSet::new(),
            powered: BTreeSet::new(),
            actors: BTreeMap::new(),
            objects: BTreeMap::new(),
            wrong: BTreeMap::new(),
            highlight: BTreeSet::new(),
            selected: BTreeSet::new(),
            problems: BTreeSet::new(),
            grid: None,
            legend: String::new(),
        }
    }

    /// The scene in a state of the simulation (the truth or beliefs).
    pub fn of_state(scene: Indexed<'a>, state: &BTreeMap<Key, Value>) -> Self {
        let is = |id: &Id, field: &str| {
            matches!(
                state.get(&(id.clone(), Id::new(field))),
                Some(Value::Bool(true))
            )
        };
        let mut plan = Plan::empty(scene);
        plan.closed_doors = (scene.doors.iter())
            .filter(|d| d.openable && !is(&d.id, "open"))
            .map(|d| d.id.clone())
            .collect();
        let fixtures =
            (scene.furniture.iter().map(|f| &f.id)).chain(scene.devices.iter().map(|d| &d.id));
        plan.open_fixtures = fixtures.filter(|id| is(id, "open")).cloned().collect();
        plan.powered = (scene.devices.iter())
            .filter(|d| is(&d.id, "power"))
            .map(|d| d.id.clone())
            .collect();
        plan.actors = actor_points(scene, state);
        plan.objects = object_points(scene, &locations(state), &plan.actors);
        plan
    }

    /// The scene as written: its initial state.
    pub fn of_scene(scene: Indexed<'a>) -> Self {
        let mut plan = Plan::empty(scene);
        plan.closed_doors = (scene.doors.iter())
            .filter(|d| d.openable && !d.open)
            .map(|d| d.id.clone())
            .collect();
        plan.open_fixtures = (scene.furniture.iter().map(|f| (&f.id, f.openable)))
            .chain(scene.devices.iter().map(|d| (&d.id, d.openable)))
            .filter(|(_, o)| *o == Openable::Open)
            .map(|(id, _)| id.clone())
            .collect();
        plan.powered = (scene.devices.iter())
            .filter(|d| matches!(d.fields.get("power"), Some(FieldDef::Bool(true))))
            .map(|d| d.id.clone())
            .collect();
        let mut taken: BTreeMap<(Id, Option<Id>), usize> = BTreeMap::new();
        for a in &scene.actors {
            let slot = taken.entry((a.room.clone(), a.near.clone())).or_default();
            let pos = Position {
                room: a.room.clone(),
                near: a.near.clone(),
            };
            plan.actors
                .insert(a.id.clone(), actor_point(scene, &pos, *slot));
            *slot += 1;
        }
        let at = (scene.objects.iter())
            .map(|o| {
                let l = match &o.at {
                    Placement::On(r) => Location::On(r.clone()),
                    Placement::In(r) => Location::In(r.clone()),
                    Placement::HeldBy(a) => Location::HeldBy(a.clone()),
                    Placement::Outside => Location::Outside,
                };
                (o.id.clone(), l)
            })
            .collect();
        plan.objects = object_points(scene, &at, &plan.actors);
        plan
    }

    /// The topmost thing under `pos`: actors, objects, doors, devices,
    /// furniture, then rooms.
    pub fn hit(&self, fit: &Fit, pos: Pos2) -> Option<Id> {
        let near = |p: Vec2, r: f32| fit.p(p).distance(pos) <= r + 2.0;
        let s = self.scene;
        (self
            .actors
            .iter()
            .find(|(_, p)| near(**p, fit.actor_radius())))
        .or_else(|| {
            (self.objects.iter())
                .find(|(_, (p, _))| near(*p, fit.object_radius() + 1.0))
                .map(|(id, (p, _))| (id, p))
        })
        .map(|(id, _)| id.clone())
        .or_else(|| {
            (s.doors.iter())
                .find(|d| near(Vec2::new(d.at.0, d.at.1), fit.door_radius()))
                .map(|d| d.id.clone())
        })
        .or_else(|| {
            (s.devices.iter().rev().map(|d| &d.id))
                .chain(s.furniture.iter().rev().map(|f| &f.id))
                .find(|id| {
                    fixture(s, id).is_some_and(|(c, size, _)| {
                        fit.rect(c, size.max(Vec2::splat(0.2))).contains(pos)
                    })
                })
                .cloned()
        })
        .or_else(|| {
            (s.rooms.iter().rev())
                .find(|r| fit.room(&r.rect).contains(pos))
                .map(|r| r.id.clone())
        })
    }

    /// Paints the plan into `area`.
    pub fn paint(&self, painter: &Painter, fit: &Fit, area: Rect) {
        let s = self.scene;
        painter.rect_filled(area, 0.0, Color32::from_rgb(238, 238, 233));
        let small = FontId::proportional((fit.scale * 0.16).clamp(8.0, 13.0));
        let label = FontId::proportional((fit.scale * 0.22).clamp(10.0, 16.0));
        let mark = |id: &Id, normal: Stroke| {
            if self.problems.contains(id) {
                Stroke::new(3.0, PROBLEM)
            } else if self.selected.contains(id) {
                Stroke::new(3.0, SELECTED)
            } else {
                normal
            }
        };
        for r in &s.rooms {
            let rect = fit.room(&r.rect);
            painter.rect_filled(rect, 0.0, Color32::from_rgb(252, 250, 244));
        }
        if let Some(step) = self.grid.filter(|g| g * fit.scale >= 6.0) {
            let (lo, hi) = (fit.m(area.min), fit.m(area.max));
            let line = Stroke::new(0.5, Color32::from_rgba_unmultiplied(120, 120, 120, 40));
            let mut x = (lo.x / step).ceil() * step;
            while x <= hi.x {
                let px = fit.p(Vec2::new(x, 0.0)).x;
                painter.line_segment(
                    [Pos2::new(px, area.top()), Pos2::new(px, area.bottom())],
                    line,
                );
                x += step;
            }
            let mut y = (lo.y / step).ceil() * step;
            while y <= hi.y {
                let py = fit.p(Vec2::new(0.0, y)).y;
                painter.line_segment(
                    [Pos2::new(area.left(), py), Pos2::new(area.right(), py)],
                    line,
                );
                y += step;
            }
        }
        for r in &s.rooms {
            let rect = fit.room(&r.rect);
            let stroke = mark(&r.id, Stroke::new(2.0, Color32::from_rgb(90, 90, 90)));
            painter.rect_stroke(rect, 0.0, stroke, StrokeKind::Inside);
        }
        for f in &s.furniture {
            let rect = fit.rect(Vec2::new(f.pos.0, f.pos.1), Vec2::new(f.size.0, f.size.1));
            let fill = if self.open_fixtures.contains(&f.id) {
                Color32::from_rgb(236, 214, 170)
            } else {
                Color32::from_rgb(222, 205, 175)
            };
            let stroke = mark(&f.id, Stroke::new(1.0, Color32::from_rgb(150, 130, 100)));
            painter.rect(rect, 2.0, fill, stroke, StrokeKind::Inside);
            painter.text(
                rect.center_bottom() + egui::vec2(0.0, -2.0),
                Align2::CENTER_BOTTOM,
                &f.kind,
                small.clone(),
                Color32::from_rgb(120, 100, 70),
            );
        }
        for d in &s.devices {
            let rect = fit.rect(
                Vec2::new(d.pos.0, d.pos.1),
                Vec2::new(d.size.0.max(0.2), d.size.1.max(0.2)),
            );
            let on = self.powered.contains(&d.id);
            let fill = if on {
                Color32::from_rgb(255, 214, 80)
            } else {
                Color32::from_rgb(190, 195, 205)
            };
            let normal = if self.wrong.contains_key(&d.id) {
                Stroke::new(3.0, Color32::RED)
            } else {
                Stroke::new(1.0, Color32::from_rgb(90, 90, 110))
            };
            painter.rect(rect, 3.0, fill, mark(&d.id, normal), StrokeKind::Inside);
            painter.text(
                rect.center_top() + egui::vec2(0.0, 1.0),
                Align2::CENTER_TOP,
                format!("{}{}", d.kind, if on { " (on)" } else { "" }),
                small.clone(),
                Color32::from_rgb(50, 50, 70),
            );
        }
        self.paint_room_labels(painter, fit, &label, &small);
        // Problem and selection outlines stay on top of the labels, which may
        // have had to go over a fixture in a small room.
        let marked = |id: &Id| self.problems.contains(id) || self.selected.contains(id);
        let fixtures =
            (s.furniture.iter().map(|f| (&f.id, f.pos, f.size))).chain(s.devices.iter().map(|d| {
                (
                    &d.id,
                    d.pos,
                    (d.size.0.max(0.2), d.size.1.max(0.2), d.size.2),
                )
            }));
        for (id, pos, size) in fixtures.filter(|(id, ..)| marked(id)) {
            let rect = fit.rect(Vec2::new(pos.0, pos.1), Vec2::new(size.0, size.1));
            painter.rect_stroke(rect, 2.0, mark(id, Stroke::NONE), StrokeKind::Inside);
        }
        // Doors over the walls: green open, red closed.
        for d in &s.doors {
            let c = if self.closed_doors.contains(&d.id) {
                Color32::from_rgb(190, 60, 50)
            } else {
                Color32::from_rgb(80, 160, 90)
            };
            let at = fit.p(Vec2::new(d.at.0, d.at.1));
            painter.circle_filled(at, fit.door_radius(), c);
            let ring = mark(&d.id, Stroke::NONE);
            if ring != Stroke::NONE {
                painter.circle_stroke(at, fit.door_radius() + 3.0, ring);
            }
        }
        let r = fit.object_radius();
        for (id, (p, inside)) in &self.objects {
            let c = colour_of(id);
            let at = fit.p(*p);
            if *inside {
                painter.circle_stroke(at, r, Stroke::new(1.5, c));
            } else {
                painter.circle_filled(at, r, c);
            }
            if let Some(truth) = self.wrong.get(id) {
                if let Some(t) = truth {
                    let faint = Color32::from_rgba_unmultiplied(220, 40, 40, 140);
                    painter.line_segment([at, fit.p(*t)], Stroke::new(1.0, faint));
                    painter.circle_stroke(fit.p(*t), r, Stroke::new(1.0, faint));
                }
                painter.circle_stroke(at, r + 3.0, Stroke::new(2.0, Color32::RED));
            }
            self.ring(painter, id, at, r);
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
        let ar = fit.actor_radius();
        for a in &s.actors {
            let Some(p) = self.actors.get(&a.id) else {
                continue;
            };
            let at = fit.p(*p);
            let c = if a.kind == ActorKind::Robot {
                Color32::from_rgb(230, 120, 20)
            } else {
                Color32::from_rgb(50, 110, 200)
            };
            painter.circle(at, ar, c, Stroke::new(2.0, Color32::WHITE));
            self.ring(painter, &a.id, at, ar);
            painter.text(
                at + egui::vec2(0.0, -ar - 2.0),
                Align2::CENTER_BOTTOM,
                &a.name,
                label.clone(),
                Color32::from_rgb(20, 20, 20),
            );
        }
        painter.text(
            area.left_bottom() + egui::vec2(8.0, -6.0),
            Align2::LEFT_BOTTOM,
            &self.legend,
            small,
            Color32::from_rgb(90, 90, 90),
        );
    }

    /// Room names over the fixtures, each on a pale backdrop at the corner
    /// or edge of its room where it covers the least of the fixtures and
    /// their kind labels (top left when several are free), in the smaller
    /// font when the room is too narrow for the larger one.
    fn paint_room_labels(&self, painter: &Painter, fit: &Fit, label: &FontId, small: &FontId) {
        let s = self.scene;
        let text_h = small.size + 2.0;
        let fixtures: Vec<Rect> = (s.furniture.iter())
            .map(|f| fit.rect(Vec2::new(f.pos.0, f.pos.1), Vec2::new(f.size.0, f.size.1)))
            .chain(s.devices.iter().map(|d| {
                let size = Vec2::new(d.size.0.max(0.2), d.size.1.max(0.2));
                fit.rect(Vec2::new(d.pos.0, d.pos.1), size)
            }))
            // The kind label may spill past a small fixture.
            .map(|r| r.expand2(egui::vec2(0.0, text_h / 2.0)))
            .collect();
        let colour = Color32::from_rgb(80, 80, 80);
        for r in &s.rooms {
            let room = fit.room(&r.rect).shrink(4.0);
            let mut galley = painter.layout_no_wrap(r.name.clone(), label.clone(), colour);
            if galley.size().x > room.width() {
                galley = painter.layout_no_wrap(r.name.clone(), small.clone(), colour);
            }
            let size = galley.size();
            let spots = [
                Align2::LEFT_TOP,
                Align2::RIGHT_TOP,
                Align2::LEFT_BOTTOM,
                Align2::RIGHT_BOTTOM,
                Align2::CENTER_TOP,
                Align2::CENTER_BOTTOM,
                Align2::LEFT_CENTER,
                Align2::RIGHT_CENTER,
                Align2::CENTER_CENTER,
            ];
            let covered = |at: Rect| -> f32 {
                // Any fixture drawn there, whichever room it belongs to (a
                // misplaced one outlined as a problem must stay visible).
                fixtures
                    .iter()
                    .map(|f| f.intersect(at))
                    .filter(|i| i.is_positive())
                    .map(|i| i.area())
                    .sum()
            };
            let best = spots
                .iter()
                .map(|a| a.align_size_within_rect(size, room))
                .fold((f32::INFINITY, None), |(c, b), at| {
                    let here = covered(at);
                    if here < c { (here, Some(at)) } else { (c, b) }
                })
                .1
                .expect("nine spots");
            painter.rect_filled(
                best.expand(2.0),
                3.0,
                Color32::from_rgba_unmultiplied(252, 250, 244, 225),
            );
            painter.galley(best.min, galley, colour);
        }
    }

    /// Rings around a small thing: problem, selected, highlighted.
    fn ring(&self, painter: &Painter, id: &Id, at: Pos2, r: f32) {
        let rings = [
            (self.highlight.contains(id), HIGHLIGHT),
            (self.selected.contains(id), SELECTED),
            (self.problems.contains(id), PROBLEM),
        ];
        let mut extra = 4.0;
        for (on, colour) in rings {
            if on {
                painter.circle_stroke(at, r + extra, Stroke::new(2.5, colour));
                extra += 3.0;
            }
        }
    }
}
