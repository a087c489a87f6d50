//! An STMA-style spatio-temporal knowledge graph (STMA §4.2): entities and
//! actors as nodes, each perceived event as edges between the actor and
//! what it touched and between objects and where they went. Retrieval
//! starts from the question's entities and expands K hops, keeping the most
//! recent events reached.

use std::collections::{BTreeMap, BinaryHeap};

use petgraph::graphmap::UnGraphMap;

use crate::ids::Id;
use crate::trace::{Event, Location, Value};

#[derive(Default)]
pub struct Graph {
    ids: BTreeMap<Id, u32>,
    names: Vec<Id>,
    // A fixed-key hasher: iteration order never depends on the run.
    graph: UnGraphMap<
        u32,
        (),
        std::hash::BuildHasherDefault<std::collections::hash_map::DefaultHasher>,
    >,
    /// By node: the events on any of its edges, in order (the union of
    /// those edges' lists, read whole when a hop reaches the node), and
    /// those where it acted and touched nothing.
    touching: Vec<Vec<u64>>,
    alone: Vec<Vec<u64>>,
}

impl Graph {
    fn node(&mut self, id: &Id) -> u32 {
        if let Some(n) = self.ids.get(id) {
            return *n;
        }
        let n = self.names.len() as u32;
        self.ids.insert(id.clone(), n);
        self.names.push(id.clone());
        self.touching.push(Vec::new());
        self.alone.push(Vec::new());
        self.graph.add_node(n);
        n
    }

    fn link(&mut self, a: &Id, b: &Id, event: u64) {
        let (x, y) = (self.node(a), self.node(b));
        if x == y {
            return;
        }
        self.graph.add_edge(x, y, ());
        // Once per event: the lists hold distinct ids, in order.
        for n in [x, y] {
            let events = &mut self.touching[n as usize];
            if events.last() != Some(&event) {
                events.push(event);
            }
        }
    }

    /// Adds a perceived event.
    pub fn add(&mut self, e: &Event) {
        let mut touched: Vec<Id> = e.action.entity_args().into_iter().cloned().collect();
        for c in &e.changes {
            touched.push(c.entity.clone());
            if let Value::Location(Location::On(r) | Location::In(r) | Location::HeldBy(r)) = &c.new
            {
                self.link(&c.entity, r, e.id);
            }
        }
        for f in &e.reveals {
            if let Value::Location(Location::On(r) | Location::In(r) | Location::HeldBy(r)) =
                &f.value
            {
                self.link(&f.entity, r, e.id);
            }
        }
        for t in &touched {
            self.link(&e.actor, t, e.id);
        }
        // An actor with nothing to touch still has the event on record.
        if touched.is_empty() {
            let n = self.node(&e.actor);
            self.alone[n as usize].push(e.id);
        }
    }

    /// Events within `hops` of the first `seeds` known entities, the most
    /// recent `keep` of them, in event order.
    pub fn retrieve<'a>(
        &'a self,
        entities: &[Id],
        seeds: usize,
        hops: usize,
        keep: usize,
    ) -> Vec<u64> {
        let mut frontier: Vec<u32> = entities
            .iter()
            .filter_map(|e| self.ids.get(e).copied())
            .take(seeds)
            .collect();
        frontier.sort_unstable();
        frontier.dedup();
        // Marked by node: a node is reached once; the order nodes are
        // reached in does not matter, as the lists' union is a set.
        let mut seen = vec![false; self.names.len()];
        for &n in &frontier {
            seen[n as usize] = true;
        }
        // The lists reached; their union is cut to the latest `keep` below.
        // Lists are in event order and only the latest `keep` events are
        // kept: the latest `keep` of each list are all that can be.
        let latest = |list: &'a Vec<u64>| &list[list.len().saturating_sub(keep)..];
        let mut lists: Vec<&[u64]> = frontier
            .iter()
            .map(|n| latest(&self.alone[*n as usize]))
            .collect();
        for hop in 0..hops {
            // Every edge of a node the hop reaches: its events, all at once.
            lists.extend(frontier.iter().map(|n| latest(&self.touching[*n as usize])));
            if hop + 1 == hops {
                break;
            }
            let mut next = Vec::new();
            for &n in &frontier {
                for m in self.graph.neighbors(n) {
                    if !std::mem::replace(&mut seen[m as usize], true) {
                        next.push(m);
                    }
                }
            }
            frontier = next;
        }
        latest_of(&lists, keep)
    }
}

/// The latest `keep` distinct ids of sorted lists, in order: a merge from
/// their ends, which reads about `keep` ids, not every list whole.
fn latest_of(lists: &[&[u64]], keep: usize) -> Vec<u64> {
    // (id, list, how many of the list are still unread)
    let mut heap: BinaryHeap<(u64, usize, usize)> = lists
        .iter()
        .enumerate()
        .filter_map(|(i, l)| Some((*l.last()?, i, l.len() - 1)))
        .collect();
    let mut out: Vec<u64> = Vec::with_capacity(keep);
    while out.len() < keep
        && let Some((id, i, unread)) = heap.pop()
    {
        // Popped latest first, so a repeat follows its first.
        if out.last() != Some(&id) {
            out.push(id);
        }
        if unread > 0 {
            heap.push((lists[i][unread - 1], i, unread - 1));
        }
    }
    out.reverse();
    out
}

#[cfg(test)]
mod tests {
    use super::{Graph, latest_of};
    use crate::ids::Id;
    use crate::trace::Event;
    use std::collections::BTreeSet;

    /// Event `id`: `actor` puts `object` on `target`.
    fn put(id: u64, actor: &str, object: &str, target: &str) -> Event {
        serde_json::from_value(serde_json::json!({
            "id": id, "day": 1, "t": id, "time": "00:00:00", "dur": 1, "kind": "action",
            "actor": actor, "skill": "place",
            "args": {"object": object, "target": target, "relation": "on"},
            "outcome": "ok",
            "changes": [{"entity": object, "attr": "location",
                         "old": {"held_by": actor}, "new": {"on": target}}],
            "observers": [actor],
        }))
        .expect("an event")
    }

    #[test]
    fn retrieval_reaches_each_hop_once_and_keeps_the_latest() {
        let mut g = Graph::default();
        for e in [
            put(1, "alice", "mug", "table"),
            put(2, "bob", "plate", "table"),
            put(3, "bob", "book", "shelf"),
            put(4, "alice", "mug", "table"),
            put(5, "lily", "lamp", "desk"),
        ] {
            g.add(&e);
        }
        let ids = |names: &[&str]| -> Vec<Id> { names.iter().map(|n| Id::new(n)).collect() };
        // One hop: the mug's own events.
        assert_eq!(g.retrieve(&ids(&["mug"]), 3, 1, 40), vec![1, 4]);
        // Two: through the table and alice to the plate, not the shelf.
        assert_eq!(g.retrieve(&ids(&["mug"]), 3, 2, 40), vec![1, 2, 4]);
        // Three: through bob to his book; never the desk.
        assert_eq!(g.retrieve(&ids(&["mug"]), 3, 3, 40), vec![1, 2, 3, 4]);
        // The latest two; a repeated or unknown seed changes nothing.
        assert_eq!(g.retrieve(&ids(&["mug"]), 3, 3, 2), vec![3, 4]);
        assert_eq!(
            g.retrieve(&ids(&["ghost", "mug", "mug"]), 3, 2, 40),
            vec![1, 2, 4]
        );
        // Only the first `seeds` known entities seed it.
        assert_eq!(g.retrieve(&ids(&["lamp", "mug"]), 1, 1, 40), vec![5]);
        assert!(g.retrieve(&ids(&["ghost"]), 3, 2, 40).is_empty());
    }

    #[test]
    fn latest_of_is_the_tail_of_the_union() {
        let lists: [&[u64]; 4] = [&[1, 4, 9], &[2, 4, 7, 9], &[], &[3, 8]];
        let union: Vec<u64> = lists
            .iter()
            .flat_map(|l| l.iter().copied())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        for keep in 0..10 {
            assert_eq!(
                latest_of(&lists, keep),
                union[union.len().saturating_sub(keep)..].to_vec(),
                "keep {keep}"
            );
        }
    }
}
