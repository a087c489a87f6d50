//! The editor's plan: the shared [`Plan`] of the scene as written, with
//! click to select, drag to move (one drag, one undo step), a handle to
//! resize, snapping to the 0.1 m grid and to walls, drops of objects on
//! receptacles and of actors into rooms, and the door tool.

use bevy::math::Vec2;
use bevy_egui::egui::{self, Color32, Pos2, Rect, Sense, Stroke};

use super::state::{Drag, EditorState, Tool};
use crate::editor::Edit;
use crate::editor::snap::{self, DOOR_REACH, GRID};
use crate::gui::geometry::fixture;
use crate::gui::plan::{Fit, Plan, SELECTED};
use crate::ids::Id;
use crate::scene::index::Kind;
use crate::scene::{self, Indexed};

/// Half the side of a resize handle (points).
const HANDLE: f32 = 5.0;

fn v(p: (f32, f32)) -> Vec2 {
    Vec2::new(p.0, p.1)
}

/// Where a fixture's handle is drawn: its bottom-right corner.
fn handle_of(scene: Indexed<'_>, fit: &Fit, id: &Id) -> Option<Pos2> {
    match scene.kind_of(id)? {
        Kind::Room => {
            let r = &scene.room(id)?.rect;
            Some(fit.p(Vec2::new(r.x + r.w, r.y + r.h)))
        }
        Kind::Furniture | Kind::Device => {
            let (c, size, _) = fixture(scene, id)?;
            Some(fit.p(c + size / 2.0))
        }
        _ => None,
    }
}

/// The thing's anchor that a drag moves: a room's corner, a fixture's
/// centre, a door's point; objects and actors move by dropping.
fn anchor(scene: Indexed<'_>, id: &Id) -> Option<Vec2> {
    match scene.kind_of(id)? {
        Kind::Room => {
            let r = &scene.room(id)?.rect;
            Some(Vec2::new(r.x, r.y))
        }
        Kind::Door => {
            let d = scene.door(id)?;
            Some(Vec2::new(d.at.0, d.at.1))
        }
        Kind::Furniture | Kind::Device => fixture(scene, id).map(|(c, _, _)| c),
        Kind::Object | Kind::Actor => None,
    }
}

/// The plan area: paint, then act on the pointer.
pub fn canvas(ui: &mut egui::Ui, st: &mut EditorState) {
    let area = ui.available_rect_before_wrap();
    let response = ui.allocate_rect(area, Sense::click_and_drag());
    // Zoom with the wheel about the pointer; pan with the secondary or
    // middle button, or by dragging empty floor.
    if let Some(pointer) = response.hover_pos() {
        let scroll = ui.input(|i| i.smooth_scroll_delta.y);
        if scroll != 0.0 {
            let factor = (scroll / 300.0).exp();
            let new_zoom = (st.zoom * factor).clamp(0.2, 20.0);
            let f = new_zoom / st.zoom;
            // Keep the point under the pointer still.
            st.pan = (pointer - area.center()) * (1.0 - f) + st.pan * f;
            st.zoom = new_zoom;
        }
    }
    if response.dragged_by(egui::PointerButton::Secondary)
        || response.dragged_by(egui::PointerButton::Middle)
    {
        st.pan += response.drag_delta();
    }
    let base = match st.fit_base {
        Some((a, f)) if a == area => f,
        _ => {
            let f = Fit::new(st.doc.scene(), area);
            st.fit_base = Some((area, f));
            f
        }
    };
    if let Some(id) = st.frame_on.take() {
        focus(st, &base.zoomed(area, st.zoom, st.pan), area, &id);
    }
    let fit = base.zoomed(area, st.zoom, st.pan);
    let pointer = response.interact_pointer_pos().or(response.hover_pos());
    let primary = |r: &egui::Response| r.dragged_by(egui::PointerButton::Primary);

    if st.tool == Tool::Door {
        if response.clicked()
            && let Some(p) = pointer
        {
            let at = fit.m(p);
            match snap::wall_at(st.doc.scene(), (at.x, at.y), DOOR_REACH) {
                Some((a, b, at)) => {
                    let id = crate::editor::new_id(st.doc.lookup(), "door");
                    if st.apply(Edit::AddDoor {
                        id: id.clone(),
                        rooms: (a, b),
                        at,
                        openable: true,
                        open: true,
                    }) {
                        st.select(Some(id));
                        st.tool = Tool::Select;
                    }
                }
                None => {
                    st.status = "a door goes on a wall two rooms share: click on one".into();
                }
            }
        }
    } else {
        if response.clicked()
            && let Some(p) = pointer
        {
            let hit = st.hit_at(p);
            let shift = ui.input(|i| i.modifiers.shift);
            match (&hit, &st.selection) {
                (Some(h), Some(sel))
                    if shift
                        && h != sel
                        && st.doc.lookup().kind_of(h) == Some(Kind::Room)
                        && st.doc.lookup().kind_of(sel) == Some(Kind::Room) =>
                {
                    if !st.also.remove(h) {
                        st.also.insert(h.clone());
                    }
                }
                _ => st.select(hit),
            }
        }
        // Where the button went down, not where the pointer is once it has
        // moved far enough to count as a drag.
        if response.drag_started_by(egui::PointerButton::Primary)
            && let Some(p) = ui.input(|i| i.pointer.press_origin())
        {
            start_drag(st, &fit, p);
        }
        if primary(&response)
            && let (Some(p), Some(drag)) = (response.interact_pointer_pos(), st.drag.clone())
        {
            if drag.id.as_str().is_empty() {
                st.pan += response.drag_delta();
            } else {
                drag_to(st, drag, fit.m(p));
            }
        }
        if response.drag_stopped()
            && let Some(drag) = st.drag.take()
        {
            if let Some(p) = pointer {
                drop_at(st, &drag, p);
            }
            st.doc.end_group();
        }
    }

    // Paint.
    let scene = st.doc.lookup();
    let mut plan = Plan::of_scene(scene);
    plan.grid = st.snap.then_some(GRID * 10.0);
    plan.problems = st
        .doc
        .problems()
        .iter()
        .filter_map(|p| p.id.clone())
        .collect();
    plan.selected = st.selection.iter().chain(&st.also).cloned().collect();
    plan.legend = match st.tool {
        Tool::Select => "click selects, drag moves, the square resizes; drop an object on a receptacle, a person in a room; wheel zooms, right-drag pans".into(),
        Tool::Door => "door tool: click on a wall two rooms share (Esc: back to select)".into(),
    };
    let painter = ui.painter_at(area);
    plan.paint(&painter, &fit, area);
    if let Some(h) = st
        .selection
        .as_ref()
        .and_then(|id| handle_of(scene, &fit, id))
    {
        let r = Rect::from_center_size(h, egui::vec2(2.0 * HANDLE, 2.0 * HANDLE));
        painter.rect_filled(r, 1.0, Color32::WHITE);
        painter.rect_stroke(r, 1.0, Stroke::new(2.0, SELECTED), egui::StrokeKind::Inside);
    }
    // What a dragged object or actor would land on.
    if let (Some(drag), Some(p)) = (&st.drag, pointer)
        && matches!(scene.kind_of(&drag.id), Some(Kind::Object | Kind::Actor))
    {
        painter.circle_stroke(p, 8.0, Stroke::new(2.0, SELECTED));
        if let Some(target) = plan.hit(&fit, p).filter(|t| t != &drag.id) {
            painter.text(
                p + egui::vec2(12.0, 0.0),
                egui::Align2::LEFT_CENTER,
                format!("→ {target}"),
                egui::FontId::proportional(13.0),
                SELECTED,
            );
        }
    }
    if st.tool == Tool::Door
        && let Some(p) = response.hover_pos()
        && let Some((_, _, at)) = snap::wall_at(&scene, (fit.m(p).x, fit.m(p).y), DOOR_REACH)
    {
        painter.circle_stroke(fit.p(v(at)), 8.0, Stroke::new(2.0, SELECTED));
    }
}

/// Centres the view on `id` and zooms in a little if it is far out.
fn focus(st: &mut EditorState, fit: &Fit, area: Rect, id: &Id) {
    let scene = st.doc.lookup();
    let centre = match scene.kind_of(id) {
        Some(Kind::Room) => scene
            .room(id)
            .map(|r| Vec2::new(r.rect.x + r.rect.w / 2.0, r.rect.y + r.rect.h / 2.0)),
        Some(Kind::Object | Kind::Actor) => {
            let plan = Plan::of_scene(scene);
            plan.actors
                .get(id)
                .copied()
                .or_else(|| plan.objects.get(id).map(|(p, _)| *p))
        }
        _ => anchor(scene, id),
    };
    if let Some(c) = centre {
        st.pan += area.center() - fit.p(c);
    }
}

fn start_drag(st: &mut EditorState, fit: &Fit, p: Pos2) {
    let scene = st.doc.lookup();
    let on_handle = st
        .selection
        .as_ref()
        .and_then(|id| handle_of(scene, fit, id).map(|h| (id, h)))
        .filter(|(_, h)| (h.x - p.x).abs() <= HANDLE + 2.0 && (h.y - p.y).abs() <= HANDLE + 2.0);
    let (id, resize) = match on_handle {
        Some((id, _)) => (id.clone(), true),
        None => match st.hit_at(p) {
            // Dragging a room that is part of the selection moves them all.
            Some(h) if st.also.contains(&h) || st.selection.as_ref() == Some(&h) => (h, false),
            Some(h) => {
                st.select(Some(h.clone()));
                (h, false)
            }
            None => (Id::new(""), false),
        },
    };
    let grab = anchor(st.doc.lookup(), &id).map_or(Vec2::ZERO, |a| fit.m(p) - a);
    if !id.as_str().is_empty() {
        st.doc.begin_group();
    }
    st.drag = Some(Drag { id, resize, grab });
}

fn drag_to(st: &mut EditorState, drag: Drag, m: Vec2) {
    let scene = st.doc.lookup();
    let id = drag.id.clone();
    let edit = match (scene.kind_of(&id), drag.resize) {
        (Some(Kind::Room), true) => {
            let r = scene.room(&id).map(|r| r.rect);
            r.map(|r| {
                let (w, h) = snap::room_size((r.x, r.y), (m.x, m.y), st.snap);
                Edit::ResizeRoom {
                    id: id.clone(),
                    rect: scene::Rect { w, h, ..r },
                }
            })
        }
        (Some(Kind::Room), false) => {
            let r = scene.room(&id).map(|r| r.rect);
            r.map(|r| {
                let mut moving: Vec<Id> = vec![id.clone()];
                moving.extend(st.also.iter().cloned());
                let mut to = m - drag.grab;
                if st.snap {
                    to = v(snap::snap_room(&scene, &moving, (to.x, to.y), (r.w, r.h)));
                }
                if moving.len() == 1 {
                    Edit::MoveRoom {
                        id: id.clone(),
                        to: (to.x, to.y),
                    }
                } else {
                    let by = to - Vec2::new(r.x, r.y);
                    Edit::MoveRooms {
                        ids: moving,
                        by: (by.x, by.y),
                    }
                }
            })
        }
        (Some(Kind::Furniture | Kind::Device), true) => fixture(scene, &id).map(|(c, _, h)| {
            let (w, d) = snap::fixture_footprint((c.x, c.y), (m.x, m.y), st.snap);
            Edit::ResizeFixture {
                id: id.clone(),
                size: (w, d, h),
            }
        }),
        (Some(Kind::Furniture | Kind::Device), false) => {
            let mut to = m - drag.grab;
            if st.snap {
                to = v(snap::snap_fixture(scene, &id, (to.x, to.y)));
            }
            Some(Edit::MoveFixture {
                id: id.clone(),
                to: (to.x, to.y),
            })
        }
        (Some(Kind::Door), _) => Some(Edit::MoveDoor {
            id: id.clone(),
            to: (m.x, m.y),
        }),
        _ => None,
    };
    let unchanged = |e: &Edit| match e {
        Edit::MoveRooms { by, .. } => by.0.abs() < 1e-4 && by.1.abs() < 1e-4,
        _ => false,
    };
    if let Some(edit) = edit.filter(|e| !unchanged(e)) {
        // A refused step (a fixture outside its room) leaves the thing at
        // its last good place; the reason goes to the status line.
        if st.apply(edit) {
            st.status.clear();
        }
    }
}

/// Releasing an object over a receptacle (or a person) places it there;
/// releasing an actor starts it in that room, or at that fixture.
fn drop_at(st: &mut EditorState, drag: &Drag, p: Pos2) {
    let scene = st.doc.lookup();
    let kind = scene.kind_of(&drag.id);
    if !matches!(kind, Some(Kind::Object | Kind::Actor)) {
        return;
    }
    let Some(target) = st.hit_at(p).filter(|t| t != &drag.id) else {
        st.status = "dropped on nothing: drop on a receptacle, a person, or a room".into();
        return;
    };
    let target_kind = scene.kind_of(&target);
    let edit = match kind {
        Some(Kind::Object) => match target_kind {
            Some(Kind::Furniture | Kind::Device | Kind::Actor) => Some(Edit::PlaceObject {
                id: drag.id.clone(),
                on: target,
                inside: None,
            }),
            Some(Kind::Object) => {
                // Dropped on another object: where that one is.
                let on = scene.object(&target).and_then(|o| match &o.at {
                    scene::Placement::On(r)
                    | scene::Placement::In(r)
                    | scene::Placement::HeldBy(r) => Some(r.clone()),
                    scene::Placement::Outside => None,
                });
                on.map(|on| Edit::PlaceObject {
                    id: drag.id.clone(),
                    on,
                    inside: None,
                })
            }
            _ => {
                st.status = format!(
                    "{target} is not a receptacle: drop objects on furniture, devices or people"
                );
                None
            }
        },
        _ => match target_kind {
            Some(Kind::Room | Kind::Furniture | Kind::Device) => Some(Edit::StartActor {
                id: drag.id.clone(),
                at: target,
            }),
            _ => {
                st.status = "drop a person or the robot in a room or next to a fixture".into();
                None
            }
        },
    };
    if let Some(edit) = edit {
        st.apply(edit);
    }
}
