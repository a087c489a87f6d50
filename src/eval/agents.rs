//! The built-in memory agents. They differ only in what they keep and
//! retrieve; all answer with the same deterministic answerer over their
//! retrieved events (the sample answerer run on a memory instead of the
//! trace), so their scores compare memories, not answerers.
//!
//! - `oracle`: every perceived event (the upper bound);
//! - `none`: nothing (abstains; guesses "A" on two-way choices: chance);
//! - `recent`: the last k events;
//! - `bm25`: the top five events by BM25 against the question's words;
//! - `obsmem`: ObsMem's typed tracks (WorldLines §4): an append-only event
//!   track, a state track with history per attribute, a claim track
//!   (reports, preferences) and a commitment track, and query routing to
//!   the tracks a question needs;
//! - `kg`: an STMA-style knowledge graph, top-3 seed entities, 2 hops, the
//!   40 most recent events reached.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use crate::ids::Id;
use crate::samples::Index;
use crate::samples::act::act_of;
use crate::samples::answer::answer;
use crate::samples::families::{Track, answer_text, current_state, owner};
use crate::samples::index::Tables;
use crate::samples::model::*;
use crate::samples::text::{Namer, Names};
use crate::scene::Scene;
use crate::sim::initial_state;
use crate::trace::request::{Action, Request};
use crate::trace::{ClaimMode, Event, Key, State, Value};

use super::agent::{Agent, AgentError, GoalIn, Observation, QuestionIn, Reply, TaskIn, abstain};
use super::bm25::Bm25;
use super::kg::Graph;
use super::planner;
use crate::samples::stockroom::Stockroom;

/// Names of the built-in agents.
pub const BUILT_IN: [&str; 6] = ["oracle", "none", "recent", "bm25", "obsmem", "kg"];

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Strategy {
    Oracle,
    None,
    Recent(usize),
    Bm25,
    ObsMem,
    Kg {
        seeds: usize,
        hops: usize,
        keep: usize,
    },
}

impl Strategy {
    pub fn parse(name: &str) -> Option<Self> {
        Some(match name {
            "oracle" => Strategy::Oracle,
            "none" => Strategy::None,
            "recent" => Strategy::Recent(50),
            "bm25" => Strategy::Bm25,
            "obsmem" => Strategy::ObsMem,
            "kg" => Strategy::Kg {
                seeds: 3,
                hops: 2,
                keep: 40,
            },
            _ => return None,
        })
    }
}

/// ObsMem's typed tracks, as event ids.
#[derive(Default)]
struct Tracks {
    /// (entity, attr) → events where the robot saw its value.
    state: BTreeMap<Key, Vec<u64>>,
    /// Canonical action key → events.
    acts: BTreeMap<String, Vec<u64>>,
    /// (device, field) → device operations.
    devices: BTreeMap<Key, Vec<u64>>,
    /// Object → place actions.
    places: BTreeMap<Id, Vec<u64>>,
    /// Actor → events, for "what next".
    actors: BTreeMap<Id, Vec<u64>>,
    /// Person → events that showed where they were: what they did, and
    /// seeing them in a room (who was home).
    presence: BTreeMap<Id, Vec<u64>>,
    /// Person → their departures (on which days they go out).
    leaves: BTreeMap<Id, Vec<u64>>,
    /// (entity, attr) → claims heard: reports and preferences.
    claims: BTreeMap<Key, Vec<u64>>,
    /// Entity → requests heard (the commitment track).
    requests: BTreeMap<Id, Vec<u64>>,
    /// Where the robot and everyone it perceived went, and when it docked:
    /// what the belief track reads to tell a current view from one that
    /// may have changed since (`samples::Index::current`).
    whereabouts: Vec<u64>,
}

pub struct BuiltIn {
    strategy: Strategy,
    scene: Option<Scene>,
    /// What naming its answers needs, made once per trace.
    names: Option<Names>,
    initial: Arc<State>,
    /// What of the scene the stock questions read, made once per trace.
    room: Arc<Stockroom>,
    /// What it remembers, in order (`recent`: the last few, up to twice
    /// as many as it recalls).
    events: Vec<Event>,
    /// The oracle's index of `events`, kept as they come.
    indexed: Tables,
    robot: Id,
    bm25: Bm25,
    graph: Graph,
    tracks: Tracks,
    /// ObsMem's indexes of the tracks it was asked of, by route.
    routed: RefCell<HashMap<String, Routed>>,
    /// The last memory indexed for a question (see [`BuiltIn::over`]).
    last: RefCell<Option<Memory>>,
}

/// Events brought to a question, by id, with their index.
struct Memory {
    ids: Vec<u64>,
    events: Vec<Event>,
    tables: Tables,
}

impl BuiltIn {
    pub fn new(strategy: Strategy) -> Self {
        BuiltIn {
            strategy,
            scene: None,
            names: None,
            initial: Arc::default(),
            room: Arc::default(),
            events: vec![],
            indexed: Tables::default(),
            robot: Id::new("robot"),
            bm25: Bm25::default(),
            graph: Graph::default(),
            tracks: Tracks::default(),
            routed: RefCell::default(),
            last: RefCell::default(),
        }
    }

    fn scene(&self) -> Result<&Scene, AgentError> {
        self.scene
            .as_ref()
            .ok_or_else(|| AgentError::Other("asked before reset".into()))
    }

    /// The event with id `id`, if remembered (events are in id order).
    fn remembered(&self, id: u64) -> Option<&Event> {
        let i = self.events.binary_search_by_key(&id, |e| e.id).ok()?;
        Some(&self.events[i])
    }

    /// `on` a memory of the remembered events of `ids` (in order), indexed
    /// for it. The last such memory is kept: the questions of one cutoff
    /// often bring the same events (recent's always do).
    fn over<R>(&self, ids: Vec<u64>, on: impl FnOnce(&Index) -> R) -> Result<R, AgentError> {
        let scene = self.scene()?;
        let mut last = self.last.borrow_mut();
        let m = match last.take() {
            Some(m) if m.ids == ids => m,
            _ => {
                let events: Vec<Event> = ids
                    .iter()
                    .filter_map(|id| self.remembered(*id))
                    .cloned()
                    .collect();
                let mut tables = Tables::new(self.initial.clone());
                for e in &events {
                    tables.push(&self.robot, e);
                }
                Memory {
                    ids,
                    events,
                    tables,
                }
            }
        };
        let r = on(&Index::over(scene, &m.events, &m.tables).stocked(&self.room));
        *last = Some(m);
        Ok(r)
    }

    /// The answer to `q` from the events this agent brings to it, and
    /// their ranking when retrieval ranked them.
    fn recall(&self, q: &Query, words: &str, cutoff: &Cutoff) -> Result<Recalled, AgentError> {
        let scene = self.scene()?;
        let on = |ix: &Index| answer(ix, cutoff, q).map(|a| (a.answer, a.evidence));
        Ok(match self.strategy {
            Strategy::Oracle => (
                on(&Index::over(scene, &self.events, &self.indexed).stocked(&self.room)),
                None,
            ),
            Strategy::None => (self.over(vec![], on)?, None),
            Strategy::Recent(k) => {
                let window = &self.events[self.events.len().saturating_sub(k)..];
                (self.over(window.iter().map(|e| e.id).collect(), on)?, None)
            }
            Strategy::Bm25 => {
                let top = self.bm25.top(words, 5);
                let ids: BTreeSet<u64> = top.iter().copied().collect();
                (self.over(ids.into_iter().collect(), on)?, Some(top))
            }
            Strategy::ObsMem => {
                let needs = owner(q).entry.needs(q);
                if needs.iter().all(Track::whole) {
                    // Whole tracks only grow: their index is kept and
                    // extended, one per set of tracks. A route through the
                    // whereabouts (the longest track, there to tell a
                    // current view from a stale one) takes whole kinds of
                    // track (every state, every act), so that its
                    // questions share one index rather than each indexing
                    // the whereabouts again; each reads only its part.
                    let wide = needs.contains(&Track::Whereabouts);
                    let kinds: BTreeSet<Kind> = needs.iter().filter_map(Kind::of).collect();
                    let route = if wide {
                        format!("{kinds:?}")
                    } else {
                        format!("{needs:?}")
                    };
                    let lists: Vec<&[u64]> = if wide {
                        kinds.iter().flat_map(|k| self.every(*k)).collect()
                    } else {
                        needs.iter().flat_map(|t| self.whole(t)).collect()
                    };
                    let mut routed = self.routed.borrow_mut();
                    let r = routed.entry(route).or_insert_with(|| Routed {
                        events: vec![],
                        tables: Tables::new(self.initial.clone()),
                    });
                    r.extend(self, &lists);
                    (
                        on(&Index::over(scene, &r.events, &r.tables).stocked(&self.room)),
                        None,
                    )
                } else {
                    let mut ids = BTreeSet::new();
                    needs.iter().for_each(|t| self.gather(t, &mut ids));
                    (self.over(ids.into_iter().collect(), on)?, None)
                }
            }
            Strategy::Kg { seeds, hops, keep } => {
                let ids: BTreeSet<u64> = self
                    .graph
                    .retrieve(&q.entities(), seeds, hops, keep)
                    .into_iter()
                    .collect();
                (self.over(ids.into_iter().collect(), on)?, None)
            }
        })
    }

    /// The lists of a whole track (none for a part of one).
    fn whole(&self, track: &Track) -> Vec<&[u64]> {
        let t = &self.tracks;
        fn list(l: Option<&Vec<u64>>) -> &[u64] {
            l.map_or(&[][..], Vec::as_slice)
        }
        let key = |e: &Id, a: &Id| (e.clone(), a.clone());
        match *track {
            Track::States => t.state.values().map(Vec::as_slice).collect(),
            Track::Whereabouts => vec![t.whereabouts.as_slice()],
            Track::State(e, a) => vec![list(t.state.get(&key(e, a)))],
            Track::Place(e) => vec![list(t.state.get(&key(e, &Id::new("location"))))],
            Track::Act(a) => vec![list(t.acts.get(&act_key(a)))],
            Track::Claims(e, a) => vec![list(t.claims.get(&key(e, a)))],
            Track::Device(d, f) => vec![list(t.devices.get(&key(d, f)))],
            Track::Placed(o) => vec![list(t.places.get(o))],
            Track::Leaves(p) => vec![list(t.leaves.get(p))],
            _ => vec![],
        }
    }

    /// The lists of every track of `kind`.
    fn every(&self, kind: Kind) -> Vec<&[u64]> {
        let t = &self.tracks;
        fn all<K>(m: &BTreeMap<K, Vec<u64>>) -> Vec<&[u64]> {
            m.values().map(Vec::as_slice).collect()
        }
        match kind {
            Kind::States => all(&t.state),
            Kind::Whereabouts => vec![t.whereabouts.as_slice()],
            Kind::Acts => all(&t.acts),
            Kind::Claims => all(&t.claims),
            Kind::Devices => all(&t.devices),
            Kind::Placed => all(&t.places),
            Kind::Leaves => all(&t.leaves),
        }
    }

    /// Adds the events of `track` to `out`: ObsMem's query routing.
    fn gather(&self, track: &Track, out: &mut BTreeSet<u64>) {
        let t = &self.tracks;
        match *track {
            Track::Event(id) => {
                out.insert(id);
            }
            Track::ActorFrom(event) => {
                if let Some(e) = self.remembered(event) {
                    let theirs = t.actors.get(&e.actor).into_iter().flatten();
                    out.extend(theirs.filter(|x| **x >= event));
                }
            }
            Track::SeenSince(entity, after) => {
                out.extend(self.seen_of(entity).filter(|x| *x > after))
            }
            Track::RequestsSince(entity, after) => {
                let asked = t.requests.get(entity).into_iter().flatten();
                out.extend(asked.filter(|x| **x > after));
            }
            Track::PresenceAt(event) => {
                for signs in t.presence.values() {
                    let upto = signs.partition_point(|x| *x <= event);
                    out.extend(upto.checked_sub(1).map(|i| signs[i]));
                }
            }
            _ => out.extend(self.whole(track).into_iter().flatten()),
        }
    }

    /// Every observation of any attribute of `entity` (the state track).
    fn seen_of<'a>(&'a self, entity: &'a Id) -> impl Iterator<Item = u64> + 'a {
        self.tracks
            .state
            .range((entity.clone(), Id::new(""))..)
            .take_while(move |((e, _), _)| e == entity)
            .flat_map(|(_, ids)| ids.iter().copied())
    }
}

/// What an agent's memory answers to a question, and the events it
/// retrieved, ranked, when retrieval ranked them.
type Recalled = (Option<(Answer, Vec<u64>)>, Option<Vec<u64>>);

/// A kind of whole track: the tracks of every entity of one sort.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    States,
    Whereabouts,
    Acts,
    Claims,
    Devices,
    Placed,
    Leaves,
}

impl Kind {
    /// The kind `track` is one of; none for a part of a track.
    fn of(track: &Track) -> Option<Kind> {
        Some(match track {
            Track::States | Track::State(..) | Track::Place(_) => Kind::States,
            Track::Whereabouts => Kind::Whereabouts,
            Track::Act(_) => Kind::Acts,
            Track::Claims(..) => Kind::Claims,
            Track::Device(..) => Kind::Devices,
            Track::Placed(_) => Kind::Placed,
            Track::Leaves(_) => Kind::Leaves,
            _ => return None,
        })
    }
}

/// The events of some of ObsMem's tracks, with their index, kept from
/// question to question: the tracks only grow, so each question indexes
/// only what they gained since it was last asked of them.
struct Routed {
    events: Vec<Event>,
    tables: Tables,
}

impl Routed {
    /// Takes in the events of `lists` (tracks of `agent`) not yet in.
    fn extend(&mut self, agent: &BuiltIn, lists: &[&[u64]]) {
        let last = self.events.last().map_or(0, |e| e.id);
        // New events come after all older ones, in every track.
        let new: BTreeSet<u64> = lists
            .iter()
            .flat_map(|l| l[l.partition_point(|x| *x <= last)..].iter().copied())
            .collect();
        for e in new.into_iter().filter_map(|id| agent.remembered(id)) {
            self.tables.push(&agent.robot, e);
            self.events.push(e.clone());
        }
    }
}

fn act_key(a: &Act) -> String {
    serde_json::to_string(a).unwrap_or_default()
}

impl Agent for BuiltIn {
    fn name(&self) -> String {
        match self.strategy {
            Strategy::Oracle => "oracle",
            Strategy::None => "none",
            Strategy::Recent(_) => "recent",
            Strategy::Bm25 => "bm25",
            Strategy::ObsMem => "obsmem",
            Strategy::Kg { .. } => "kg",
        }
        .into()
    }

    fn reset(&mut self, scene: &Scene) -> Result<(), AgentError> {
        *self = BuiltIn::new(self.strategy);
        self.initial = Arc::new(initial_state(scene));
        self.room = Arc::new(Stockroom::of(scene));
        self.indexed = Tables::new(self.initial.clone());
        self.robot = scene
            .robots()
            .into_iter()
            .next()
            .unwrap_or_else(|| Id::new("robot"));
        self.scene = Some(scene.clone());
        self.names = Some(Names::new(scene));
        Ok(())
    }

    fn observe(&mut self, o: &Observation) -> Result<(), AgentError> {
        let e = &o.event;
        match self.strategy {
            Strategy::None => return Ok(()),
            Strategy::Bm25 => self.bm25.add(e.id, &o.text),
            Strategy::Kg { .. } => self.graph.add(e),
            Strategy::ObsMem => {
                let t = &mut self.tracks;
                let moved = e.outcome.is_ok()
                    && e.changes.iter().any(|c| match (&c.old, &c.new) {
                        (Value::Position(a), Value::Position(b)) => a.room != b.room,
                        _ => false,
                    });
                let docked =
                    e.actor == self.robot && matches!(e.action, Action::Wait { standby: true, .. });
                if moved || docked || e.reveals.iter().any(|f| f.attr.as_str() == "position") {
                    t.whereabouts.push(e.id);
                }
                if e.outcome.is_ok() {
                    for c in e.changes.iter().filter(|c| c.attr.as_str() != "position") {
                        t.state
                            .entry((c.entity.clone(), c.attr.clone()))
                            .or_default()
                            .push(e.id);
                    }
                    if let Some(a) = act_of(&e.action) {
                        t.acts.entry(act_key(&a)).or_default().push(e.id);
                    }
                    t.actors.entry(e.actor.clone()).or_default().push(e.id);
                    t.presence.entry(e.actor.clone()).or_default().push(e.id);
                    match &e.action {
                        Action::Leave { .. } => {
                            t.leaves.entry(e.actor.clone()).or_default().push(e.id)
                        }
                        Action::SetDeviceState { device, field, .. } => t
                            .devices
                            .entry((device.clone(), Id::new(field)))
                            .or_default()
                            .push(e.id),
                        Action::Place { object, .. } => {
                            t.places.entry(object.clone()).or_default().push(e.id)
                        }
                        Action::Say { claims, .. } => {
                            for c in claims {
                                match c.mode {
                                    ClaimMode::Request => {
                                        t.requests.entry(c.entity.clone()).or_default().push(e.id)
                                    }
                                    _ => t
                                        .claims
                                        .entry((c.entity.clone(), c.attr.clone()))
                                        .or_default()
                                        .push(e.id),
                                }
                            }
                        }
                        _ => {}
                    }
                }
                for f in &e.reveals {
                    let track = if f.attr.as_str() == "position" {
                        t.presence.entry(f.entity.clone()).or_default()
                    } else {
                        t.state
                            .entry((f.entity.clone(), f.attr.clone()))
                            .or_default()
                    };
                    if track.last() != Some(&e.id) {
                        track.push(e.id);
                    }
                }
            }
            Strategy::Oracle => self.indexed.push(&self.robot, e),
            Strategy::Recent(k) => {
                // Only the last k are ever recalled: the rest go, now and
                // then (not one by one: each would move them all).
                if self.events.len() >= 2 * k.max(1) {
                    self.events.drain(..self.events.len() - k);
                }
            }
        }
        self.events.push(e.clone());
        Ok(())
    }

    fn parsed_query(&self) -> bool {
        true
    }

    fn answer(&mut self, q: &QuestionIn) -> Result<Reply, AgentError> {
        let query = q
            .query
            .as_ref()
            .ok_or_else(|| AgentError::Other("the built-in agents need the parsed query".into()))?;
        let (found, ranked) = self.recall(query, &q.question, &q.cutoff)?;
        let scene = self.scene()?;
        let n = match &self.names {
            Some(names) => Namer::with(scene, names),
            None => Namer::new(scene),
        };
        Ok(match found {
            Some((answer, evidence)) => Reply {
                text: answer_text(&n, query, &answer, &q.options),
                answer: Some(answer),
                // What was retrieved, when retrieval ranked it; else what was used.
                evidence: ranked.unwrap_or(evidence),
            },
            None => abstain(&q.options, ranked.unwrap_or_default()),
        })
    }

    fn plan(&mut self, t: &TaskIn) -> Result<Vec<Request>, AgentError> {
        let scene = self.scene()?.clone();
        Ok(plan_task(
            &scene,
            t,
            |q, words| match self.recall(q, words, &t.cutoff).ok()?.0? {
                (Answer::Value { value } | Answer::LastSeen { value, .. }, _) => Some(value),
                _ => None,
            },
            // Without the parsed query a built-in cannot tell what to recall.
            |_| None,
        ))
    }
}

/// A plan for `t` from what a memory recalls: `recall(query, words)` is its
/// value for a query (the words for retrieval by text), `read` the query an
/// instruction alludes to when the task does not give it. The goals to
/// recall are completed first, then the small planner runs over the
/// memory's view of where objects are and what is open.
pub(super) fn plan_task(
    scene: &Scene,
    t: &TaskIn,
    recall: impl Fn(&Query, &str) -> Option<Value>,
    read: impl Fn(&str) -> Option<Query>,
) -> Vec<Request> {
    let mut goals = Vec::new();
    for g in &t.goals {
        match g {
            GoalIn::Known { prop } => goals.push(prop.clone()),
            GoalIn::Remember { entity, attr, from } => {
                let Some(q) = from.as_deref().cloned().or_else(|| read(&t.instruction)) else {
                    continue;
                };
                if let Some(p) = recall(&q, &t.instruction)
                    .and_then(|v| crate::samples::plan::prop(entity, attr, &v))
                {
                    goals.push(p);
                }
            }
        }
    }
    let state =
        |e: &Id, attr: &str| recall(&current_state::state(e, attr), &format!("where is {e}"));
    planner::plan(
        scene,
        &t.actor,
        &goals,
        |o| match state(o, "location") {
            Some(Value::Location(l)) => Some(l),
            _ => None,
        },
        |r| match state(r, "open") {
            Some(Value::Bool(b)) => Some(b),
            _ => None,
        },
    )
}
