//! The room graph: which rooms doors join, and walking routes between
//! points in rooms through door points.
//!
//! Rooms are nodes of a petgraph graph with doors as edges (adjacency,
//! hearing). Routes are shortest paths over "door sides" (door `d` seen
//! from room `r`), precomputed once with Floyd–Warshall, so a route query
//! costs one pass over the doors of two rooms. Closed doors block walking
//! (the walker takes another open route, or must open the door first) and
//! sound.

use bevy::platform::collections::HashMap;

use bevy::prelude::*;
use petgraph::graph::{NodeIndex, UnGraph};

use crate::ids::Id;
use crate::scene::Scene;

#[derive(Resource, Debug)]
pub struct RoomGraph {
    /// Rooms as nodes, doors as edges.
    pub graph: UnGraph<Entity, Entity>,
    node: HashMap<Entity, NodeIndex>,
    /// (door entity, its point, room on this side, room on the other side).
    sides: Vec<(Entity, (f32, f32), Entity, Entity)>,
    /// Shortest walking distance between door sides, and the next side on
    /// that path, row-major.
    dist: Vec<f32>,
    next: Vec<usize>,
    room_sides: HashMap<Entity, Vec<usize>>,
}

/// A walk from one point to another.
#[derive(Debug, Clone, PartialEq)]
pub struct Route {
    pub metres: f32,
    /// Rooms passed through, including the destination, excluding the start.
    pub rooms: Vec<Entity>,
    /// The door passed to enter each of `rooms`.
    pub doors: Vec<Entity>,
}

/// Why no walk is possible with the doors as they are: the first closed
/// door on the shortest route, and the room on the walker's side of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Blocked {
    pub door: Entity,
    pub near_side: Entity,
}

pub fn distance(a: (f32, f32), b: (f32, f32)) -> f32 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}

impl RoomGraph {
    pub fn build(scene: &Scene, ids: &HashMap<Id, Entity>) -> Self {
        let mut graph = UnGraph::new_undirected();
        let node: HashMap<Entity, NodeIndex> = scene
            .rooms
            .iter()
            .map(|r| (ids[&r.id], graph.add_node(ids[&r.id])))
            .collect();
        let mut sides = Vec::new();
        // Exterior doors lead to no room: `leave` and `arrive` pass them.
        for d in scene.doors.iter().filter(|d| !d.is_exterior()) {
            let (a, b, door) = (ids[&d.rooms.0], ids[&d.rooms.1], ids[&d.id]);
            graph.add_edge(node[&a], node[&b], door);
            sides.push((door, d.at, a, b));
            sides.push((door, d.at, b, a));
        }
        let n = sides.len();
        let mut dist = vec![f32::INFINITY; n * n];
        let mut next = vec![usize::MAX; n * n];
        for i in 0..n {
            for j in 0..n {
                let (di, pi, _, oi) = sides[i];
                let (dj, pj, rj, _) = sides[j];
                // Side i puts the walker in room oi at door di; from there it
                // can cross the room to any door of oi and pass through it.
                let w = if i == j {
                    Some(0.0)
                } else if oi == rj && di != dj {
                    Some(distance(pi, pj))
                } else {
                    None
                };
                if let Some(w) = w {
                    dist[i * n + j] = w;
                    next[i * n + j] = j;
                }
            }
        }
        for k in 0..n {
            for i in 0..n {
                for j in 0..n {
                    let via = dist[i * n + k] + dist[k * n + j];
                    if via < dist[i * n + j] {
                        dist[i * n + j] = via;
                        next[i * n + j] = next[i * n + k];
                    }
                }
            }
        }
        let mut room_sides: HashMap<Entity, Vec<usize>> = HashMap::new();
        for (i, s) in sides.iter().enumerate() {
            room_sides.entry(s.2).or_default().push(i);
        }
        RoomGraph {
            graph,
            node,
            sides,
            dist,
            next,
            room_sides,
        }
    }

    /// Rooms that share a door with `room`, with that door, in door order.
    /// None for the outside, which is no room.
    pub fn neighbours(&self, room: Entity) -> impl Iterator<Item = (Entity, Entity)> + '_ {
        use petgraph::visit::EdgeRef;
        let node = self.node.get(&room).copied();
        node.into_iter()
            .flat_map(move |n| self.graph.edges(n))
            .map(move |e| {
                let other = if e.source() == self.node[&room] {
                    e.target()
                } else {
                    e.source()
                };
                (self.graph[other], *e.weight())
            })
    }

    /// The shortest walk from `from` (a point in room `from_room`) to `to`
    /// (a point in `to_room`). `None` only if the rooms are not connected,
    /// which scene validation rules out.
    pub fn route(
        &self,
        from_room: Entity,
        from: (f32, f32),
        to_room: Entity,
        to: (f32, f32),
    ) -> Option<Route> {
        if from_room == to_room {
            return Some(Route {
                metres: distance(from, to),
                rooms: vec![],
                doors: vec![],
            });
        }
        let n = self.sides.len();
        let empty = Vec::new();
        let mut best: Option<(f32, usize, usize)> = None;
        // Leave through side i (door seen from the start room); arrive
        // through side j (door seen from the room before the goal).
        for &i in self.room_sides.get(&from_room).unwrap_or(&empty) {
            for (j, s) in self.sides.iter().enumerate() {
                if s.3 != to_room {
                    continue;
                }
                let d = distance(from, self.sides[i].1) + self.dist[i * n + j] + distance(s.1, to);
                if best.is_none_or(|(b, _, _)| d < b) {
                    best = Some((d, i, j));
                }
            }
        }
        let (metres, mut i, j) = best?;
        let mut rooms = vec![self.sides[i].3];
        let mut doors = vec![self.sides[i].0];
        while i != j {
            i = self.next[i * n + j];
            rooms.push(self.sides[i].3);
            doors.push(self.sides[i].0);
        }
        Some(Route {
            metres,
            rooms,
            doors,
        })
    }

    /// The shortest walk that passes only doors for which `open` holds: the
    /// shortest route if its doors are open, else the shortest detour over
    /// open doors (Dijkstra over door sides), else where it is blocked.
    pub fn open_route(
        &self,
        from_room: Entity,
        from: (f32, f32),
        to_room: Entity,
        to: (f32, f32),
        open: impl Fn(Entity) -> bool,
    ) -> Result<Route, Blocked> {
        let best = self
            .route(from_room, from, to_room, to)
            .expect("validated scenes are connected");
        let Some(k) = best.doors.iter().position(|d| !open(*d)) else {
            return Ok(best);
        };
        let blocked = Blocked {
            door: best.doors[k],
            near_side: if k == 0 { from_room } else { best.rooms[k - 1] },
        };
        let n = self.sides.len();
        let mut dist = vec![f32::INFINITY; n];
        let mut prev = vec![usize::MAX; n];
        let mut done = vec![false; n];
        for &i in self.room_sides.get(&from_room).into_iter().flatten() {
            if open(self.sides[i].0) {
                dist[i] = distance(from, self.sides[i].1);
            }
        }
        // Few sides (two per door): the quadratic Dijkstra is the simple one.
        while let Some(i) = (0..n)
            .filter(|i| !done[*i] && dist[*i].is_finite())
            .min_by(|a, b| dist[*a].total_cmp(&dist[*b]))
        {
            done[i] = true;
            let (di, pi, _, oi) = self.sides[i];
            for j in self.room_sides.get(&oi).into_iter().flatten().copied() {
                let (dj, pj, _, _) = self.sides[j];
                if dj != di && open(dj) && dist[i] + distance(pi, pj) < dist[j] {
                    dist[j] = dist[i] + distance(pi, pj);
                    prev[j] = i;
                }
            }
        }
        let end = (0..n)
            .filter(|j| self.sides[*j].3 == to_room && dist[*j].is_finite())
            .min_by(|a, b| {
                let da = dist[*a] + distance(self.sides[*a].1, to);
                let db = dist[*b] + distance(self.sides[*b].1, to);
                da.total_cmp(&db)
            })
            .ok_or(blocked)?;
        let metres = dist[end] + distance(self.sides[end].1, to);
        let (mut rooms, mut doors) = (vec![], vec![]);
        let mut i = end;
        while i != usize::MAX {
            rooms.push(self.sides[i].3);
            doors.push(self.sides[i].0);
            i = prev[i];
        }
        rooms.reverse();
        doors.reverse();
        Ok(Route {
            metres,
            rooms,
            doors,
        })
    }
}
