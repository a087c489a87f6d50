//! Floor plans: rooms that tile a rectangular footprint (a guillotine
//! split of the footprint by area), and doors on the walls they share:
//! a spanning tree over the halls and public rooms from the entry, one
//! door per private or service room, plus a few archways. All
//! geometry is in whole decimetres, so shared walls are exact.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// A rectangle in decimetres.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cells {
    pub x: i32,
    pub y: i32,
    pub w: i32,
    pub h: i32,
}

/// Shortest side of a room (1.8 m), and of a hub such as a hallway (1.2 m).
const MIN_SIDE: i32 = 18;
const MIN_HUB_SIDE: i32 = 12;
/// Longest-to-shortest side of a room that is not a hub, doubled (2.5).
const MAX_ASPECT_X2: i32 = 5;
/// Shortest shared wall a door goes in (a 0.9 m door and its frame).
pub const MIN_DOOR_WALL: i32 = 10;

/// Splits `outer` among rooms of the given areas (in cells, any unit) in
/// order: neighbours in the list end up near each other. Each split tries
/// the most even partitions of the list first, across the longer side
/// first, and backtracks when a room would come out too narrow; `None`
/// when no split within the search budget works.
pub fn tile(outer: Cells, areas: &[f32], hubs: &[bool]) -> Option<Vec<Cells>> {
    let mut out = vec![outer; areas.len()];
    let mut budget = 4000;
    split(outer, areas, hubs, 0, &mut out, &mut budget)?;
    Some(out)
}

fn fits(r: Cells, hub: bool) -> bool {
    let (lo, hi) = (r.w.min(r.h), r.w.max(r.h));
    if hub {
        lo >= MIN_HUB_SIDE
    } else {
        lo >= MIN_SIDE && 2 * hi <= MAX_ASPECT_X2 * lo
    }
}

fn split(
    r: Cells,
    areas: &[f32],
    hubs: &[bool],
    first: usize,
    out: &mut [Cells],
    budget: &mut u32,
) -> Option<()> {
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    if areas.len() == 1 {
        out[first] = r;
        return fits(r, hubs[0]).then_some(());
    }
    let total: f32 = areas.iter().sum();
    let mut ks: Vec<(f32, usize)> = (1..areas.len())
        .map(|k| ((areas[..k].iter().sum::<f32>() - total / 2.0).abs(), k))
        .collect();
    ks.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (_, k) in ks {
        let frac = areas[..k].iter().sum::<f32>() / total;
        for across_width in [r.w >= r.h, r.w < r.h] {
            let (a, b) = if across_width {
                let cut = (r.w as f32 * frac).round() as i32;
                (
                    Cells { w: cut, ..r },
                    Cells {
                        x: r.x + cut,
                        w: r.w - cut,
                        ..r
                    },
                )
            } else {
                let cut = (r.h as f32 * frac).round() as i32;
                (
                    Cells { h: cut, ..r },
                    Cells {
                        y: r.y + cut,
                        h: r.h - cut,
                        ..r
                    },
                )
            };
            if a.w <= 0 || a.h <= 0 || b.w <= 0 || b.h <= 0 {
                continue;
            }
            if split(a, &areas[..k], &hubs[..k], first, out, budget).is_some()
                && split(b, &areas[k..], &hubs[k..], first + k, out, budget).is_some()
            {
                return Some(());
            }
        }
    }
    None
}

/// The wall two rooms share, as a segment: `(vertical, fixed coordinate,
/// from, to)` in decimetres, if it is at least `MIN_DOOR_WALL` long.
pub fn shared_wall(a: &Cells, b: &Cells) -> Option<(bool, i32, i32, i32)> {
    let overlap = |lo1: i32, hi1: i32, lo2: i32, hi2: i32| (lo1.max(lo2), hi1.min(hi2));
    let candidates = [
        (a.x + a.w == b.x || b.x + b.w == a.x).then(|| {
            let x = if a.x + a.w == b.x { b.x } else { a.x };
            let (lo, hi) = overlap(a.y, a.y + a.h, b.y, b.y + b.h);
            (true, x, lo, hi)
        }),
        (a.y + a.h == b.y || b.y + b.h == a.y).then(|| {
            let y = if a.y + a.h == b.y { b.y } else { a.y };
            let (lo, hi) = overlap(a.x, a.x + a.w, b.x, b.x + b.w);
            (false, y, lo, hi)
        }),
    ];
    candidates
        .into_iter()
        .flatten()
        .find(|&(_, _, lo, hi)| hi - lo >= MIN_DOOR_WALL)
}

/// Doors of a zoned plan as pairs of room indices (lower first), after
/// ProcTHOR's room-spec doors (`procthor/generation/doors.py`): the core
/// rooms (`core`, with room 0 the entry among them) are joined by a
/// spanning tree over their shared walls, grown from room 0 by Prim's
/// algorithm, cheapest first (`cost`, plus seeded jitter so plans vary);
/// each pair in `required` gets a door too; every other room is a leaf
/// with one door, onto the cheapest core room it may open onto, or, when
/// it touches none, onto a leaf already placed (an en-suite bathroom onto
/// its bedroom). `cost(i, j)` is `None` where rooms `i` and `j` may not
/// share a door (for a leaf, `i` is the leaf). Then a few more doors
/// between core rooms that `extra_ok` allows. `None` when the rooms do not
/// touch the way the zones need.
pub fn zoned_doors(
    rooms: &[Cells],
    core: &[bool],
    cost: impl Fn(usize, usize) -> Option<f32>,
    required: &[(usize, usize)],
    extra_ok: impl Fn(usize, usize) -> bool,
    rng: &mut ChaCha8Rng,
) -> Option<Vec<(usize, usize)>> {
    let n = rooms.len();
    let wall = |i: usize, j: usize| shared_wall(&rooms[i], &rooms[j]).is_some();
    let pair = |i: usize, j: usize| (i.min(j), i.max(j));
    let mut edges = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if core[i]
                && core[j]
                && wall(i, j)
                && let Some(c) = cost(i, j)
            {
                edges.push((i, j, c + rng.random_range(0.0..0.5)));
            }
        }
    }
    let mut placed = vec![false; n];
    placed[0] = core[0];
    let mut tree = Vec::new();
    for _ in 1..core.iter().filter(|c| **c).count() {
        let next = edges
            .iter()
            .filter(|(i, j, _)| placed[*i] != placed[*j])
            .min_by(|a, b| a.2.total_cmp(&b.2))?;
        let (i, j, _) = *next;
        placed[i] = true;
        placed[j] = true;
        tree.push((i, j));
    }
    for &(i, j) in required {
        if !wall(i, j) {
            return None;
        }
        if !tree.contains(&pair(i, j)) {
            tree.push(pair(i, j));
        }
    }
    // Leaves onto the core first; then the rest onto placed leaves.
    for onto_core in [true, false] {
        for leaf in (0..n).filter(|l| !core[*l]) {
            if placed[leaf] {
                continue;
            }
            let best = (0..n)
                .filter(|&j| placed[j] && core[j] == onto_core && wall(leaf, j))
                .filter_map(|j| Some((j, cost(leaf, j)? + rng.random_range(0.0..0.5))))
                .min_by(|a, b| a.1.total_cmp(&b.1));
            if let Some((j, _)) = best {
                placed[leaf] = true;
                tree.push(pair(leaf, j));
            }
        }
    }
    if placed.contains(&false) {
        return None;
    }
    for (i, j, _) in edges {
        if !tree.contains(&(i, j)) && extra_ok(i, j) && rng.random_bool(0.35) {
            tree.push((i, j));
        }
    }
    Some(tree)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn tiling_covers_the_footprint_without_overlap() {
        let outer = Cells {
            x: 0,
            y: 0,
            w: 120,
            h: 80,
        };
        let areas = [30.0, 20.0, 15.0, 15.0, 10.0, 6.0];
        let rooms = tile(outer, &areas, &[true, false, false, false, false, false]).unwrap();
        let area: i32 = rooms.iter().map(|r| r.w * r.h).sum();
        assert_eq!(area, 120 * 80);
        for (i, a) in rooms.iter().enumerate() {
            for b in &rooms[i + 1..] {
                let apart =
                    a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
                assert!(apart, "{a:?} overlaps {b:?}");
            }
        }
    }

    #[test]
    fn too_narrow_rooms_are_refused() {
        let outer = Cells {
            x: 0,
            y: 0,
            w: 30,
            h: 30,
        };
        assert!(tile(outer, &[1.0, 1.0, 1.0], &[false; 3]).is_none());
    }

    #[test]
    fn doors_span_every_room_and_sit_on_shared_walls() {
        let rooms = [
            Cells {
                x: 0,
                y: 0,
                w: 40,
                h: 40,
            },
            Cells {
                x: 40,
                y: 0,
                w: 40,
                h: 40,
            },
            Cells {
                x: 0,
                y: 40,
                w: 80,
                h: 30,
            },
        ];
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let core = [true, true, false];
        let d = zoned_doors(&rooms, &core, |_, _| Some(1.0), &[], |_, _| false, &mut rng).unwrap();
        assert_eq!(d.len(), 2);
        // The leaf has one door; a leaf that may open onto nothing it
        // touches leaves the plan unzoned.
        assert_eq!(d.iter().filter(|(i, j)| *i == 2 || *j == 2).count(), 1);
        let only_0 = |i: usize, j: usize| (i != 2 || j == 0).then_some(1.0);
        let d = zoned_doors(&rooms, &core, only_0, &[], |_, _| false, &mut rng).unwrap();
        assert!(d.contains(&(0, 2)) && !d.contains(&(1, 2)));
        let never = |i: usize, _| (i != 2).then_some(1.0);
        assert!(zoned_doors(&rooms, &core, never, &[], |_, _| false, &mut rng).is_none());
        // A required pair without a shared wall cannot be met.
        let far = [
            rooms[0],
            rooms[1],
            rooms[2],
            Cells {
                x: 80,
                y: 0,
                w: 20,
                h: 20,
            },
        ];
        let core4 = [true, true, true, true];
        assert!(
            zoned_doors(
                &far,
                &core4,
                |_, _| Some(1.0),
                &[(0, 3)],
                |_, _| false,
                &mut rng
            )
            .is_none()
        );
        assert!(
            d.iter()
                .all(|(i, j)| shared_wall(&rooms[*i], &rooms[*j]).is_some())
        );
        // Touching at a corner only is no wall.
        let corner = [
            rooms[0],
            Cells {
                x: 40,
                y: 40,
                w: 20,
                h: 20,
            },
        ];
        assert!(shared_wall(&corner[0], &corner[1]).is_none());
    }
}
