//! Snapping on the plan: the 0.1 m grid, rooms' edges against other rooms,
//! fixtures against their room's walls, and the shared wall a door tool
//! click lands on. The editor's UI asks these where a drag goes and then
//! issues the move; the rules live here, beside the commands, so
//! `hearth scene apply` and the plan agree.

use crate::ids::Id;
use crate::scene::{Indexed, Scene, walls};

/// Grid step (metres).
pub const GRID: f32 = 0.1;
/// How close (metres) an edge must come to a wall to stick to it.
pub const STICK: f32 = 0.15;
/// How far (metres) from a shared wall the door tool still finds it.
pub const DOOR_REACH: f32 = 0.4;
/// The smallest side a room is resized to (metres).
pub const MIN_ROOM_SIDE: f32 = 0.5;
/// The smallest side a fixture is resized to (metres).
pub const MIN_FIXTURE_SIDE: f32 = 0.1;

/// `v` on the grid.
pub fn grid(v: f32) -> f32 {
    (v / GRID).round() * GRID
}

/// A room's corner for a drag to `corner`: on the grid, unless an edge
/// comes within [`STICK`] of another room's edge (rooms in `moving` move
/// together and do not count), then on that edge.
pub fn snap_room(scene: &Scene, moving: &[Id], corner: (f32, f32), size: (f32, f32)) -> (f32, f32) {
    // Per axis: the nearest candidate within reach, else the grid.
    let mut x = (STICK, grid(corner.0));
    let mut y = (STICK, grid(corner.1));
    let stick = |best: &mut (f32, f32), edges: [f32; 2], side: f32, at: f32| {
        for cand in edges.into_iter().flat_map(|e| [e, e - side]) {
            let d = (cand - at).abs();
            if d < best.0 {
                *best = (d, cand);
            }
        }
    };
    for o in scene.rooms.iter().filter(|r| !moving.contains(&r.id)) {
        let r = &o.rect;
        stick(&mut x, [r.x, r.x + r.w], size.0, corner.0);
        stick(&mut y, [r.y, r.y + r.h], size.1, corner.1);
    }
    (x.1, y.1)
}

/// A fixture's centre for a drag to `centre`: on the grid, and against a
/// wall of the room under it when its side comes within [`STICK`].
pub fn snap_fixture(scene: Indexed<'_>, id: &Id, centre: (f32, f32)) -> (f32, f32) {
    let mut c = [grid(centre.0), grid(centre.1)];
    let Some(f) = scene.fixture(id) else {
        return (c[0], c[1]);
    };
    let half = [f.size.0 / 2.0, f.size.1 / 2.0];
    let at = [centre.0, centre.1];
    if let Some(r) = scene.rooms.iter().map(|r| &r.rect).find(|r| {
        centre.0 >= r.x && centre.0 <= r.x + r.w && centre.1 >= r.y && centre.1 <= r.y + r.h
    }) {
        for (wall, axis) in [
            (r.x + half[0], 0),
            (r.x + r.w - half[0], 0),
            (r.y + half[1], 1),
            (r.y + r.h - half[1], 1),
        ] {
            if (at[axis] - wall).abs() < STICK {
                c[axis] = wall;
            }
        }
    }
    (c[0], c[1])
}

/// The two rooms whose shared wall runs within `reach` of `p`, and the
/// point on it nearest `p` (where the door tool puts a door).
pub fn wall_at(scene: &Scene, p: (f32, f32), reach: f32) -> Option<(Id, Id, (f32, f32))> {
    let dist = |q: (f32, f32)| ((q.0 - p.0).powi(2) + (q.1 - p.1).powi(2)).sqrt();
    let mut best: Option<(f32, Id, Id, (f32, f32))> = None;
    for (i, a) in scene.rooms.iter().enumerate() {
        for b in &scene.rooms[i + 1..] {
            for w in walls::shared_walls(&a.rect, &b.rect) {
                let at = w.snap(p);
                let d = dist(at);
                if d <= reach && best.as_ref().is_none_or(|b| d < b.0) {
                    best = Some((d, a.id.clone(), b.id.clone(), at));
                }
            }
        }
    }
    best.map(|(_, a, b, at)| (a, b, at))
}

/// A room's new width and depth when its far corner is dragged to `to`
/// (on the grid with `snap`), no smaller than [`MIN_ROOM_SIDE`].
pub fn room_size(corner: (f32, f32), to: (f32, f32), snap: bool) -> (f32, f32) {
    let (x2, y2) = if snap { (grid(to.0), grid(to.1)) } else { to };
    (
        (x2 - corner.0).max(MIN_ROOM_SIDE),
        (y2 - corner.1).max(MIN_ROOM_SIDE),
    )
}

/// A fixture's new footprint when a corner is dragged to `to` about its
/// centre (whole grid steps with `snap`), no smaller than
/// [`MIN_FIXTURE_SIDE`].
pub fn fixture_footprint(centre: (f32, f32), to: (f32, f32), snap: bool) -> (f32, f32) {
    let half = ((to.0 - centre.0).abs(), (to.1 - centre.1).abs());
    let side = |h: f32| {
        let s = if snap { grid(h * 2.0) } else { h * 2.0 };
        s.max(MIN_FIXTURE_SIDE)
    };
    (side(half.0), side(half.1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::default_scene;

    #[test]
    fn rooms_stick_to_other_rooms_edges_else_the_grid() {
        let s = default_scene();
        let other = &s.rooms[1].rect;
        let id = s.rooms[0].id.clone();
        // Within reach of the other room's left edge: on it.
        let (x, _) = snap_room(
            &s,
            std::slice::from_ref(&id),
            (other.x + 0.1, -50.0),
            (3.0, 3.0),
        );
        assert_eq!(x, other.x);
        // Far from every room: on the grid.
        let (x, y) = snap_room(&s, &[id], (-40.04, -50.07), (3.0, 3.0));
        assert!(
            (x + 40.0).abs() < 1e-4 && (y + 50.1).abs() < 1e-4,
            "{x} {y}"
        );
    }

    #[test]
    fn fixtures_stick_to_walls_and_doors_to_shared_walls() {
        let s = default_scene();
        let index = crate::scene::SceneIndex::new(&s);
        let ix = index.over(&s);
        let f = &s.furniture[0];
        let r = &ix.room(&f.room).unwrap().rect;
        let near_wall = (r.x + f.size.0 / 2.0 + 0.08, f.pos.1);
        let (x, _) = snap_fixture(ix, &f.id, near_wall);
        assert_eq!(x, r.x + f.size.0 / 2.0);
        // A door snapped by the tool passes validation's rule.
        let d = &s.doors[0];
        let (a, b, at) = wall_at(&s, (d.at.0 + 0.2, d.at.1 + 0.2), DOOR_REACH).unwrap();
        let rect = |id: &Id| ix.room(id).unwrap().rect;
        assert!(walls::on_shared_wall(&rect(&a), &rect(&b), at));
        assert_eq!(wall_at(&s, (-100.0, -100.0), DOOR_REACH), None);
    }

    #[test]
    fn resizing_keeps_a_minimum_and_the_grid() {
        assert_eq!(room_size((0.0, 0.0), (0.1, 3.04), true), (0.5, 3.0));
        assert_eq!(room_size((0.0, 0.0), (2.33, 3.04), false), (2.33, 3.04));
        let (w, d) = fixture_footprint((1.0, 1.0), (1.52, 1.01), true);
        assert!((w - 1.0).abs() < 1e-5 && (d - 0.1).abs() < 1e-5, "{w} {d}");
    }
}
