//! Where doors can go: the walls two rooms share, and (for an exterior
//! door) a room's outer walls, shared with no room. The one definition of
//! both and their tolerances, used by [`crate::scene::validate`]'s
//! `door_not_on_wall` rule and by the editor's door snapping, so a snapped
//! door always passes validation and the two cannot drift apart.

use super::model::Rect;

/// How far apart two walls may be and still count as one (metres).
pub const TOL: f32 = 0.05;
/// A door keeps this far from the ends of the shared stretch of wall.
pub const MARGIN: f32 = 0.3;

fn near(p: f32, q: f32) -> bool {
    (p - q).abs() <= TOL
}

/// The usable stretch of a wall two rooms share: a vertical wall at
/// `x = coord` from `y = lo` to `y = hi`, or a horizontal one at `y = coord`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SharedWall {
    pub vertical: bool,
    pub coord: f32,
    pub lo: f32,
    pub hi: f32,
}

impl SharedWall {
    /// The point of the wall nearest to `p`.
    pub fn snap(&self, (x, y): (f32, f32)) -> (f32, f32) {
        if self.vertical {
            (self.coord, y.clamp(self.lo, self.hi))
        } else {
            (x.clamp(self.lo, self.hi), self.coord)
        }
    }
}

/// The walls `a` and `b` share (touching corners do not count), long
/// enough for a door: `lo..hi` is the stretch a door may take, the margins
/// at both ends left out. A wall's `coord` is the far edge of the room
/// left of it (or above it); the other room's edge is within [`TOL`].
pub fn shared_walls(a: &Rect, b: &Rect) -> Vec<SharedWall> {
    let mut walls = Vec::new();
    // `pairs`: the two ways the rooms' walls can meet; `s1`, `s2`: the
    // rooms' extents along the wall, which must overlap by two margins.
    let mut add = |vertical, pairs: [(f32, f32); 2], s1: (f32, f32), s2: (f32, f32)| {
        let (lo, hi) = (s1.0.max(s2.0), s1.1.min(s2.1));
        if hi - lo < 2.0 * MARGIN {
            return;
        }
        for (w1, _) in pairs.into_iter().filter(|&(w1, w2)| near(w1, w2)) {
            walls.push(SharedWall {
                vertical,
                coord: w1,
                lo: lo + MARGIN,
                hi: hi - MARGIN,
            });
        }
    };
    add(
        true,
        [(a.x + a.w, b.x), (b.x + b.w, a.x)],
        (a.y, a.y + a.h),
        (b.y, b.y + b.h),
    );
    add(
        false,
        [(a.y + a.h, b.y), (b.y + b.h, a.y)],
        (a.x, a.x + a.w),
        (b.x, b.x + b.w),
    );
    walls
}

/// Whether `p` is on a wall `a` and `b` share: within [`TOL`] of it, and
/// [`MARGIN`] (less the tolerance) from the ends of the shared stretch.
pub fn on_shared_wall(a: &Rect, b: &Rect, (x, y): (f32, f32)) -> bool {
    shared_walls(a, b).iter().any(|w| {
        let (across, along) = if w.vertical { (x, y) } else { (y, x) };
        near(across, w.coord) && along >= w.lo - TOL && along <= w.hi + TOL
    })
}

/// `p` moved to the nearest point of a wall `a` and `b` share, if they
/// share one.
pub fn snap_door(a: &Rect, b: &Rect, p: (f32, f32)) -> Option<(f32, f32)> {
    let dist = |q: (f32, f32)| (q.0 - p.0).powi(2) + (q.1 - p.1).powi(2);
    shared_walls(a, b)
        .iter()
        .map(|w| w.snap(p))
        .min_by(|q, r| dist(*q).total_cmp(&dist(*r)))
}

/// The stretches of `room`'s walls that no room of `others` touches, long
/// enough for a door (margins left out as in [`shared_walls`]): where an
/// exterior door may go. `others` may include `room` itself (skipped).
pub fn outer_walls(room: &Rect, others: &[Rect]) -> Vec<SharedWall> {
    let r = room;
    let mut walls = Vec::new();
    // (vertical, coordinate, extent along it, which edge of a neighbour meets it)
    let sides = [
        (true, r.x, (r.y, r.y + r.h)),
        (true, r.x + r.w, (r.y, r.y + r.h)),
        (false, r.y, (r.x, r.x + r.w)),
        (false, r.y + r.h, (r.x, r.x + r.w)),
    ];
    for (vertical, coord, (lo, hi)) in sides {
        let mut free = vec![(lo, hi)];
        for o in others.iter().filter(|o| *o != room) {
            let (edges, span) = if vertical {
                ([o.x, o.x + o.w], (o.y, o.y + o.h))
            } else {
                ([o.y, o.y + o.h], (o.x, o.x + o.w))
            };
            if !edges.iter().any(|e| near(*e, coord)) {
                continue;
            }
            free = free
                .into_iter()
                .flat_map(|(a, b)| {
                    let cut = [(a, b.min(span.0)), (a.max(span.1), b)];
                    cut.into_iter().filter(|(x, y)| y > x)
                })
                .collect();
        }
        for (a, b) in free {
            if b - a >= 2.0 * MARGIN {
                walls.push(SharedWall {
                    vertical,
                    coord,
                    lo: a + MARGIN,
                    hi: b - MARGIN,
                });
            }
        }
    }
    walls
}

/// Whether `p` is on an outer wall of `room` ([`outer_walls`]).
pub fn on_outer_wall(room: &Rect, others: &[Rect], (x, y): (f32, f32)) -> bool {
    outer_walls(room, others).iter().any(|w| {
        let (across, along) = if w.vertical { (x, y) } else { (y, x) };
        near(across, w.coord) && along >= w.lo - TOL && along <= w.hi + TOL
    })
}

/// `p` moved to the nearest point of an outer wall of `room`, if it has one.
pub fn snap_outer(room: &Rect, others: &[Rect], p: (f32, f32)) -> Option<(f32, f32)> {
    let dist = |q: (f32, f32)| (q.0 - p.0).powi(2) + (q.1 - p.1).powi(2);
    outer_walls(room, others)
        .iter()
        .map(|w| w.snap(p))
        .min_by(|q, r| dist(*q).total_cmp(&dist(*r)))
}

/// Where a door at `p` on a wall of `old` goes when the room becomes `new`:
/// it stays on the same side, following that wall, within its new length.
/// A door on none of `old`'s walls stays where it is.
pub fn follow_wall(old: &Rect, new: &Rect, (x, y): (f32, f32)) -> (f32, f32) {
    let clamp_y = || y.clamp(new.y, new.y + new.h);
    let clamp_x = || x.clamp(new.x, new.x + new.w);
    if near(x, old.x) {
        (new.x, clamp_y())
    } else if near(x, old.x + old.w) {
        (new.x + new.w, clamp_y())
    } else if near(y, old.y) {
        (clamp_x(), new.y)
    } else if near(y, old.y + old.h) {
        (clamp_x(), new.y + new.h)
    } else {
        (x, y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(x: f32, y: f32, w: f32, h: f32) -> Rect {
        Rect { x, y, w, h }
    }

    #[test]
    fn side_by_side_rooms_share_one_vertical_wall() {
        let (a, b) = (r(0.0, 0.0, 4.0, 3.0), r(4.0, 1.0, 2.0, 4.0));
        let walls = shared_walls(&a, &b);
        assert_eq!(
            walls,
            vec![SharedWall {
                vertical: true,
                coord: 4.0,
                lo: 1.3,
                hi: 2.7
            }]
        );
        // Symmetric, and the snap clamps to the margin.
        assert_eq!(snap_door(&b, &a, (5.0, 0.0)), Some((4.0, 1.3)));
        assert_eq!(snap_door(&a, &b, (3.0, 2.0)), Some((4.0, 2.0)));
    }

    #[test]
    fn stacked_rooms_share_a_horizontal_wall() {
        let (a, b) = (r(0.0, 0.0, 4.0, 3.0), r(1.0, 3.0, 2.0, 2.0));
        assert_eq!(snap_door(&a, &b, (9.0, 9.0)), Some((2.7, 3.0)));
    }

    #[test]
    fn corners_gaps_and_short_walls_are_no_wall() {
        let a = r(0.0, 0.0, 4.0, 3.0);
        assert_eq!(snap_door(&a, &r(4.0, 3.0, 2.0, 2.0), (4.0, 3.0)), None);
        assert_eq!(snap_door(&a, &r(4.2, 0.0, 2.0, 3.0), (4.0, 1.0)), None);
        // 0.5 m of shared wall is less than the two 0.3 m margins.
        assert_eq!(snap_door(&a, &r(4.0, 2.5, 2.0, 2.0), (4.0, 2.8)), None);
    }

    #[test]
    fn a_snapped_door_passes_the_validators_rule_and_others_do_not() {
        // Walls 2 cm apart still meet.
        let (a, b) = (r(0.0, 0.0, 4.0, 3.0), r(4.02, 1.0, 2.0, 4.0));
        for p in [(3.0, 0.0), (5.0, 2.0), (4.0, 9.0)] {
            let q = snap_door(&a, &b, p).unwrap();
            assert!(
                on_shared_wall(&a, &b, q) && on_shared_wall(&b, &a, q),
                "{q:?}"
            );
        }
        // Within the margin of the end of the shared stretch; off the wall.
        assert!(!on_shared_wall(&a, &b, (4.0, 1.1)));
        assert!(!on_shared_wall(&a, &b, (3.8, 2.0)));
    }

    #[test]
    fn outer_walls_leave_out_what_neighbours_touch() {
        // A 4x3 room with a neighbour along part of its right wall.
        let (a, b) = (r(0.0, 0.0, 4.0, 3.0), r(4.0, 1.0, 2.0, 4.0));
        let walls = outer_walls(&a, &[a, b]);
        // Left, the free 1 m of the right wall, top and bottom.
        assert_eq!(walls.len(), 4, "{walls:?}");
        assert!(on_outer_wall(&a, &[a, b], (4.0, 0.5)));
        assert!(!on_outer_wall(&a, &[a, b], (4.0, 2.0)), "shared, not outer");
        assert!(on_outer_wall(&a, &[b], (0.0, 1.5)));
        assert!(!on_outer_wall(&a, &[b], (1.0, 1.5)), "inside the room");
        let q = snap_outer(&a, &[b], (4.5, 2.5)).unwrap();
        assert!(on_outer_wall(&a, &[b], q), "{q:?}");
        // A room walled in on every side has no outer wall.
        let boxed = [
            r(-1.0, 0.0, 1.0, 3.0),
            r(4.0, 0.0, 1.0, 3.0),
            r(0.0, -1.0, 4.0, 1.0),
            r(0.0, 3.0, 4.0, 1.0),
        ];
        assert_eq!(snap_outer(&a, &boxed, (0.0, 1.0)), None);
    }

    #[test]
    fn doors_follow_their_wall_on_resize() {
        let (old, new) = (r(0.0, 0.0, 4.0, 3.0), r(0.0, 0.0, 5.0, 2.0));
        assert_eq!(follow_wall(&old, &new, (4.0, 2.5)), (5.0, 2.0));
        assert_eq!(follow_wall(&old, &new, (1.0, 3.0)), (1.0, 2.0));
        assert_eq!(follow_wall(&old, &new, (0.0, 1.0)), (0.0, 1.0));
        assert_eq!(follow_wall(&old, &new, (2.0, 1.0)), (2.0, 1.0));
    }
}
