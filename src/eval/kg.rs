//! An STMA-style spatio-temporal knowledge graph (STMA §4.2): entities and
//! actors as nodes, each perceived event as edges between the actor and
//! what it touched and between objects and where they went. Retrieval
//! starts from the question's entities and expands K hops, keeping the most
//! recent events reached.

use std::collections::{BTreeMap, BTreeSet};

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
    /// Events on each edge (smaller node first).
    edges: BTreeMap<(u32, u32), Vec<u64>>,
}

impl Graph {
    fn node(&mut self, id: &Id) -> u32 {
        if let Some(n) = self.ids.get(id) {
            return *n;
        }
        let n = self.names.len() as u32;
        self.ids.insert(id.clone(), n);
        self.names.push(id.clone());
        self.graph.add_node(n);
        n
    }

    fn link(&mut self, a: &Id, b: &Id, event: u64) {
        let (x, y) = (self.node(a), self.node(b));
        if x == y {
            return;
        }
        self.graph.add_edge(x, y, ());
        let events = self.edges.entry((x.min(y), x.max(y))).or_default();
        // Once per event: the lists hold distinct ids, in order.
        if events.last() != Some(&event) {
            events.push(event);
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
            self.edges.entry((n, n)).or_default().push(e.id);
        }
    }

    /// Events within `hops` of the first `seeds` known entities, the most
    /// recent `keep` of them, in event order.
    pub fn retrieve(&self, entities: &[Id], seeds: usize, hops: usize, keep: usize) -> Vec<u64> {
        let mut frontier: BTreeSet<u32> = entities
            .iter()
            .filter_map(|e| self.ids.get(e).copied())
            .take(seeds)
            .collect();
        let mut seen = frontier.clone();
        let mut events = BTreeSet::new();
        // Edge lists are in event order and only the latest `keep` events
        // are kept: the latest `keep` of each list are all that can be.
        let latest = |edge: (u32, u32)| {
            let list = self.edges.get(&edge).map_or(&[][..], Vec::as_slice);
            &list[list.len().saturating_sub(keep)..]
        };
        for n in &frontier {
            events.extend(latest((*n, *n)));
        }
        for _ in 0..hops {
            let mut next = BTreeSet::new();
            for &n in &frontier {
                for m in self.graph.neighbors(n) {
                    events.extend(latest((n.min(m), n.max(m))));
                    if seen.insert(m) {
                        next.insert(m);
                    }
                }
            }
            frontier = next;
        }
        let all: Vec<u64> = events.into_iter().collect();
        all[all.len().saturating_sub(keep)..].to_vec()
    }
}
