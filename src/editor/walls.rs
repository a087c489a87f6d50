//! Where doors can go: the walls two rooms share, and snapping a point onto
//! them. The tolerances are those of [`crate::scene::validate`], so a
//! snapped door always passes its `door_not_on_wall` rule.

use crate::scene::Rect;

/// How far apart two walls may be and still count as one (metres).
const TOL: f32 = 0.05;
/// A door keeps this far from the ends of the shared stretch of wall.
const MARGIN: f32 = 0.3;

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
/// enough for a door.
pub fn shared_walls(a: &Rect, b: &Rect) -> Vec<SharedWall> {
    let near = |p: f32, q: f32| (p - q).abs() <= TOL;
    let span = |lo1: f32, hi1: f32, lo2: f32, hi2: f32| {
        let (lo, hi) = (lo1.max(lo2) + MARGIN, hi1.min(hi2) - MARGIN);
        (lo <= hi).then_some((lo, hi))
    };
    let mut walls = Vec::new();
    for (w1, w2) in [(a.x + a.w, b.x), (a.x, b.x + b.w)] {
        if near(w1, w2)
            && let Some((lo, hi)) = span(a.y, a.y + a.h, b.y, b.y + b.h)
        {
            walls.push(SharedWall {
                vertical: true,
                coord: w1,
                lo,
                hi,
            });
        }
    }
    for (w1, w2) in [(a.y + a.h, b.y), (a.y, b.y + b.h)] {
        if near(w1, w2)
            && let Some((lo, hi)) = span(a.x, a.x + a.w, b.x, b.x + b.w)
        {
            walls.push(SharedWall {
                vertical: false,
                coord: w1,
                lo,
                hi,
            });
        }
    }
    walls
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

/// Where a door at `p` on a wall of `old` goes when the room becomes `new`:
/// it stays on the same side, following that wall, within its new length.
/// A door on none of `old`'s walls stays where it is.
pub fn follow_wall(old: &Rect, new: &Rect, (x, y): (f32, f32)) -> (f32, f32) {
    let near = |p: f32, q: f32| (p - q).abs() <= TOL;
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
    fn doors_follow_their_wall_on_resize() {
        let (old, new) = (r(0.0, 0.0, 4.0, 3.0), r(0.0, 0.0, 5.0, 2.0));
        assert_eq!(follow_wall(&old, &new, (4.0, 2.5)), (5.0, 2.0));
        assert_eq!(follow_wall(&old, &new, (1.0, 3.0)), (1.0, 2.0));
        assert_eq!(follow_wall(&old, &new, (0.0, 1.0)), (0.0, 1.0));
        assert_eq!(follow_wall(&old, &new, (2.0, 1.0)), (2.0, 1.0));
    }
}
