//! The unanswerable family: questions worded by the other families'
//! templates whose answer is "not known", because nothing the robot saw or
//! heard before the cutoff bears on them (LongMemEval's `_abs` questions,
//! LoCoMo's adversarial category). Four kinds, each with the wrong answer
//! a confused memory would give (LoCoMo's `adversarial_answer`):
//!
//! - **absent**: where is a thing of a kind the house has, in a variant it
//!   has not ("the green enamel mug" where there are only other mugs);
//!   the look-alike's place is the trap;
//! - **unseen**: where is, or what is set on, something the robot has not
//!   seen since the trace began nor heard about (it was never in the room);
//!   the trap is a value it could take and did not ([`wrong_value`]), so
//!   that no guess from common sense gets it right by luck;
//! - **not told**: what someone said about a thing, or how they like a
//!   setting, when only someone else told the robot; the other's words are
//!   the trap;
//! - **not seen doing**: when someone last did what only others were seen
//!   doing; the others' last time is the trap.
//!
//! Each question is worded by the family it looks like, whose
//! [`QuestionFamily::unsupported`] says it is one: the reference answer is
//! [`Answer::Unknown`] exactly then, so every reader, the reference
//! included, abstains by the same rule. Its samples are filed under that
//! family ([`looks_like`]), with an `unanswerable/` template.

use std::collections::BTreeSet;

use crate::catalogue;
use crate::generation::MemoryTarget;
use crate::ids::Id;
use crate::scene::{OUTSIDE, Placement, Scene};
use crate::trace::{ClaimMode, Key, Location, Value};

use crate::samples::candidates::resident;
use crate::samples::index::Index;
use crate::samples::model::{Act, Family, Query};
use crate::samples::phrasing::{Phrase, Phrasings};
use crate::samples::text::{Namer, capital, plural};
use crate::samples::wording::{Tense, verb_phrase};

use super::current_state::{self, CurrentState};
use super::family::QuestionFamily;
use super::preference::{self, Preference};
use super::reader::Reading;
use super::source_aware::{self, SourceAware};
use super::temporal::{self, Temporal};

pub struct Unanswerable;

/// It asks no query of its own.
pub const QUERIES: &[&str] = &[];

/// Its questions are worded by other families' templates.
pub const PHRASINGS: Phrasings = &[];

/// The words-only reader reads them as the questions they look like.
pub const READINGS: &[Reading] = &[];

/// The family a false-premise question about `q` looks like, which words
/// and answers it, and under which it is filed (so that every family
/// holds some and none is all of them).
fn mimicked(q: &Query) -> (Family, &'static dyn QuestionFamily) {
    match q {
        Query::AccordingTo { .. } => (Family::SourceAware, &SourceAware),
        Query::Preference { .. } => (Family::Preference, &Preference),
        Query::LastTime { .. } => (Family::Temporal, &Temporal),
        _ => (Family::CurrentState, &CurrentState),
    }
}

/// The family a false-premise question about `q` is filed under.
pub fn looks_like(q: &Query) -> Family {
    mimicked(q).0
}

/// Whether nothing the robot perceived before `cutoff` bears on `q`, a
/// false premise's query.
fn unsupported(ix: &Index, cutoff: u64, q: &Query) -> bool {
    mimicked(q).1.unsupported(ix, cutoff, q)
}

impl QuestionFamily for Unanswerable {
    /// What the question would exercise if it could be answered.
    fn memory_target(&self, q: &Query) -> Option<MemoryTarget> {
        match q {
            Query::State { .. } => CurrentState.memory_target(q),
            Query::AccordingTo { .. } => Some(MemoryTarget::SocialContext),
            Query::Preference { .. } => Some(MemoryTarget::Preference),
            _ => Some(MemoryTarget::TemporalState),
        }
    }

    /// The type of the question it looks like; `_abs` in its id marks it.
    fn lme_type(&self, q: &Query) -> Option<&'static str> {
        Some(match q {
            Query::AccordingTo { .. } => "single-session-user",
            Query::Preference { .. } => "single-session-preference",
            Query::LastTime { .. } => "temporal-reasoning",
            _ => "knowledge-update",
        })
    }
}

/// A variant of an object category the house has, that no object of the
/// house is: what "the green enamel mug" would be if there were one.
#[derive(Debug, Clone, PartialEq)]
pub struct Absent {
    /// A made-up id, in no scene, shaped like the house's own ids: the
    /// category and the next number no entity has (`mug_5` beside
    /// `mug_1`..`mug_4`), so that the id says nothing of its absence.
    pub id: Id,
    pub description: String,
    /// The house's objects of the same category.
    pub lookalikes: Vec<Id>,
}

/// The absent variants of `scene`, in the order of the scene's categories
/// and the catalogue's variants. A variant is left out when an object of
/// the house is described by it or by all its words (a "green mug"
/// where the house has a "green enamel mug" would be that mug).
pub fn absent_variants(scene: &Scene) -> Vec<Absent> {
    let cat = catalogue::builtin();
    let words = |s: &str| -> BTreeSet<String> {
        s.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    let described: Vec<BTreeSet<String>> = scene
        .objects
        .iter()
        .map(|o| words(&o.description))
        .collect();
    let mut categories: Vec<&str> = Vec::new();
    for o in &scene.objects {
        if !categories.contains(&o.category.as_str()) {
            categories.push(&o.category);
        }
    }
    let taken: BTreeSet<&str> = crate::scene::entries(scene)
        .map(|(id, ..)| id.as_str())
        .collect();
    let mut out = Vec::new();
    for c in categories {
        let stem: String = c
            .chars()
            .map(|ch| {
                if ch.is_alphanumeric() {
                    ch.to_ascii_lowercase()
                } else {
                    '_'
                }
            })
            .collect();
        let mut next = 1 + taken
            .iter()
            .filter_map(|id| {
                id.strip_prefix(stem.as_str())?
                    .strip_prefix('_')?
                    .parse::<u32>()
                    .ok()
            })
            .max()
            .unwrap_or(0);
        let Some(kind) = cat.category(c) else {
            continue;
        };
        let lookalikes: Vec<Id> = scene
            .objects
            .iter()
            .filter(|o| o.category == c)
            .map(|o| o.id.clone())
            .collect();
        for v in &kind.variants {
            let w = words(v);
            if described.iter().any(|d| w.is_subset(d) || d.is_subset(&w)) {
                continue;
            }
            let id = Id::new(&format!("{stem}_{next}"));
            next += 1;
            out.push(Absent {
                id,
                description: v.clone(),
                lookalikes: lookalikes.clone(),
            });
        }
    }
    out
}

/// A false premise: one unanswerable question before it is worded.
#[derive(Debug, Clone, PartialEq)]
pub enum Premise {
    Absent(usize),
    Unseen {
        entity: Id,
        attr: Id,
    },
    NotSaid {
        speaker: Id,
        said: u64,
        entity: Id,
        attr: Id,
    },
    NotPreferred {
        holder: Id,
        said: u64,
        entity: Id,
        attr: Id,
    },
    NotDone {
        actor: Id,
        done: u64,
        act: Act,
    },
}

/// An unanswerable question in words: its template, question, the trap
/// and why nothing is known.
pub struct Worded {
    pub template: &'static str,
    pub phrase: Phrase,
    pub adversarial: String,
    pub why: String,
}

/// What the candidates of one cutoff are drawn from, fixed per trace.
pub struct Sources<'a> {
    pub absent: &'a [Absent],
    /// The state keys a question may ask about that the robot did not
    /// perceive at the start ([`unseen_at_start`]).
    pub unseen_at_start: &'a [Key],
    pub humans: &'a BTreeSet<&'a Id>,
}

/// The state keys a question may ask about (objects' locations, the
/// other attributes of furniture and devices) that the robot did not
/// perceive in its first view of the house, before any event: the same
/// for every cutoff, so worked out once.
pub fn unseen_at_start(ix: &Index) -> Vec<Key> {
    let known: BTreeSet<Key> = crate::sim::Simulation::new(ix.scene.clone())
        .ok()
        .and_then(|s| {
            s.beliefs(ix.robot.as_str())
                .map(|b| b.iter().map(|(k, _)| k.clone()).collect())
        })
        .unwrap_or_default();
    // Not what is not yet in the house (the shop's stock, a parcel on its
    // way): nobody asks where next week's milk is.
    let out = |a: &Id| {
        ix.scene
            .actors
            .iter()
            .any(|x| x.id == *a && x.room.as_str() == OUTSIDE)
    };
    let objects: BTreeSet<&Id> = (ix.scene.objects.iter())
        .filter(|o| match &o.at {
            Placement::Outside => false,
            Placement::HeldBy(a) => !out(a),
            _ => true,
        })
        .map(|o| &o.id)
        .collect();
    let fixtures: BTreeSet<&Id> = crate::scene::fixtures(ix.scene).map(|f| f.id).collect();
    ix.tables
        .initial
        .keys()
        .filter(|(e, a)| match a.as_str() {
            "location" => objects.contains(e),
            "position" => false,
            _ => fixtures.contains(e),
        })
        .filter(|k| !known.contains(*k))
        .cloned()
        .collect()
}

/// A value `entity.attr` could take that is not `truth`: the trap of a
/// state never seen, which no guess can get right by luck. For a place,
/// the first other fixture with a surface in the scene (in scene order);
/// for a device field, the first other value its schema allows; for a
/// switch or a door, the other side.
pub fn wrong_value(scene: &Scene, entity: &Id, attr: &Id, truth: &Value) -> Option<Value> {
    use crate::scene::FieldDef;
    match truth {
        Value::Bool(b) => return Some(Value::Bool(!b)),
        Value::Location(_) => {
            let at = match truth {
                Value::Location(Location::On(f) | Location::In(f)) => Some(f),
                _ => None,
            };
            let fixtures = scene
                .furniture
                .iter()
                .map(|f| (&f.id, &f.surfaces))
                .chain(scene.devices.iter().map(|d| (&d.id, &d.surfaces)));
            return fixtures
                .filter(|(id, _)| Some(*id) != at)
                .find_map(|(id, surfaces)| {
                    surfaces.first().map(|s| match s {
                        crate::scene::Surface::On(_) => Location::On(id.clone()),
                        crate::scene::Surface::In(_) => Location::In(id.clone()),
                    })
                })
                .map(Value::Location);
        }
        _ => {}
    }
    let field = scene
        .devices
        .iter()
        .find(|d| d.id == *entity)?
        .fields
        .get(attr.as_str())?;
    let other = match field {
        FieldDef::Enum { options, .. } => options
            .iter()
            .map(|o| Value::Text(o.clone()))
            .find(|v| v != truth)?,
        FieldDef::Int { min, max, .. } => [*min, *max]
            .into_iter()
            .map(Value::Int)
            .find(|v| v != truth)?,
        FieldDef::Float { min, max, .. } => [*min, *max]
            .into_iter()
            .map(Value::Float)
            .find(|v| v != truth)?,
        FieldDef::Timer { max, .. } => [0, *max]
            .into_iter()
            .map(|x| Value::Int(i64::from(x)))
            .find(|v| v != truth)?,
        FieldDef::Bool(_) => return None,
    };
    Some(other)
}

impl Premise {
    pub fn query(&self, src: &Sources) -> Query {
        match self {
            Premise::Absent(i) => Query::State {
                entity: src.absent[*i].id.clone(),
                attr: Id::new("location"),
            },
            Premise::Unseen { entity, attr } => Query::State {
                entity: entity.clone(),
                attr: attr.clone(),
            },
            Premise::NotSaid {
                speaker,
                entity,
                attr,
                ..
            } => Query::AccordingTo {
                speaker: speaker.clone(),
                entity: entity.clone(),
                attr: attr.clone(),
            },
            Premise::NotPreferred {
                holder,
                entity,
                attr,
                ..
            } => Query::Preference {
                holder: holder.clone(),
                entity: entity.clone(),
                attr: attr.clone(),
            },
            Premise::NotDone { actor, act, .. } => Query::LastTime {
                actor: actor.clone(),
                act: act.clone(),
            },
        }
    }

    /// The candidates at `cutoff`, by kind (absent, unseen, not told, not
    /// seen doing), each in a fixed order, worked out from scratch (see
    /// [`Sweep`], which keeps them across cutoffs).
    pub fn candidates(ix: &Index, src: &Sources, cutoff: u64) -> [Vec<Premise>; 4] {
        let mut sweep = Sweep::default();
        sweep
            .candidates(ix, src, cutoff, |_| ())
            .map(|kind| kind.iter().map(|k| k.premise.clone()).collect())
    }

    /// The question in words, its trap and why nothing is known.
    pub fn word(&self, ix: &Index, n: &Namer, src: &Sources, cutoff: u64) -> Worded {
        let said_value = |said: u64, entity: &Id, attr: &Id| {
            ix.heard_in(said, u64::MAX)
                .iter()
                .find(|h| h.claim.entity == *entity && h.claim.attr == *attr)
                .map(|h| capital(&n.value(attr, &h.claim.value)) + ".")
                .unwrap_or_default()
        };
        match self {
            Premise::Absent(i) => {
                let a = &src.absent[*i];
                // The look-alike the robot saw last, else the first.
                let seen_last = |o: &Id| {
                    ix.seen_before(&(o.clone(), Id::new("location")), cutoff)
                        .iter()
                        .rev()
                        .find(|s| !matches!(s.value, Value::Location(Location::HeldBy(_))))
                        .map(|s| (s.event, s.value.clone()))
                };
                let trap = a
                    .lookalikes
                    .iter()
                    .filter_map(seen_last)
                    .max_by_key(|(e, _)| *e)
                    .map(|(_, v)| v)
                    .or_else(|| {
                        let o = a.lookalikes.first()?;
                        ix.truth(&(o.clone(), Id::new("location")), cutoff).cloned()
                    });
                let thing = format!("the {}", a.description);
                Worded {
                    template: "where_is",
                    phrase: current_state::question(&thing, "location"),
                    adversarial: trap
                        .map(|v| capital(&n.value("location", &v)) + ".")
                        .unwrap_or_default(),
                    why: if plural(&a.description) {
                        format!(
                            "There are no {} in this house; the robot never saw any or heard of any.",
                            a.description
                        )
                    } else {
                        format!(
                            "There is no {} in this house; the robot never saw one or heard of one.",
                            a.description
                        )
                    },
                }
            }
            Premise::Unseen { entity, attr } => {
                let template = current_state::template(attr);
                // Not the truth, which a guess from common sense (the
                // mug in the cupboard) could hit: a value it was not.
                let truth = ix
                    .truth(&(entity.clone(), attr.clone()), cutoff)
                    .and_then(|v| wrong_value(ix.scene, entity, attr, v));
                let truth = truth.as_ref();
                Worded {
                    template,
                    phrase: current_state::question(&n.name(entity), attr),
                    adversarial: truth
                        .map(|v| capital(&n.value(attr, v)) + ".")
                        .unwrap_or_default(),
                    why: format!(
                        "The robot has never seen {}, nor been told about it.",
                        if attr.as_str() == "location" {
                            let name = n.name(entity);
                            let is = if plural(&name) { "are" } else { "is" };
                            format!("where {name} {is}")
                        } else {
                            n.attribute(entity, attr)
                        }
                    ),
                }
            }
            Premise::NotSaid {
                speaker,
                said,
                entity,
                attr,
            } => {
                let other = ix
                    .event(*said)
                    .map(|e| n.name(&e.actor))
                    .unwrap_or_default();
                Worded {
                    template: "according_to",
                    phrase: source_aware::according_to(n, speaker, entity),
                    adversarial: said_value(*said, entity, attr),
                    why: format!(
                        "{} never told the robot about {}; {other} did.",
                        n.name(speaker),
                        n.name(entity)
                    ),
                }
            }
            Premise::NotPreferred {
                holder,
                said,
                entity,
                attr,
            } => {
                let phrase = preference::question(n, holder, entity, attr);
                Worded {
                    template: "how_likes",
                    phrase,
                    adversarial: said_value(*said, entity, attr),
                    why: format!(
                        "{} never said in the robot's hearing how they like {}; someone else did.",
                        n.name(holder),
                        n.attribute(entity, attr)
                    ),
                }
            }
            Premise::NotDone { actor, done, act } => {
                let other = ix.event(*done);
                Worded {
                    template: "when_last",
                    phrase: temporal::when_last(n, actor, act),
                    adversarial: other
                        .map(|e| capital(&n.when(e.t)) + ".")
                        .unwrap_or_default(),
                    why: format!(
                        "The robot never saw {} {}; it saw {} do it.",
                        n.name(actor),
                        verb_phrase(n, act, Tense::Base),
                        other.map(|e| n.name(&e.actor)).unwrap_or_default()
                    ),
                }
            }
        }
    }
}

/// A candidate with its query and ask key, made once: a false premise
/// stays a candidate for weeks, and its key was most of what the miner
/// spent on it at every cutoff.
#[derive(Debug, Clone, PartialEq)]
pub struct Keyed<K> {
    pub premise: Premise,
    pub query: Query,
    /// Its ask key, made by the miner's rule.
    pub key: K,
    /// For a not-told candidate, the cutoff from which it is supported.
    supported_from: Option<u64>,
}

impl<K> Keyed<K> {
    fn new(premise: Premise, src: &Sources, key: &impl Fn(&Query) -> K) -> Self {
        let query = premise.query(src);
        Keyed::of(premise, query, key)
    }

    /// `premise` with its `query`, worked out already.
    fn of(premise: Premise, query: Query, key: &impl Fn(&Query) -> K) -> Self {
        Keyed {
            key: key(&query),
            premise,
            query,
            supported_from: None,
        }
    }
}

/// [`Premise::candidates`] kept across cutoffs that only go forward.
/// Whether something bears on a question ([`unsupported`]) only changes
/// from no to yes as the past grows, so a candidate once supported is
/// dropped for good; the claims heard are walked once, each as its cutoff
/// passes, not all again at every cutoff.
pub struct Sweep<K> {
    /// The absent look-alikes (`None` before the first call).
    absent: Option<Vec<Keyed<K>>>,
    /// The start's unseen keys still unsupported, in order (`None`
    /// before the first call).
    unseen: Option<Vec<Keyed<K>>>,
    /// The not-told candidates still unsupported, in order of the claim
    /// that first gave each, with the cutoff from which one is supported.
    told: Vec<Keyed<K>>,
    /// Every (mode, person, entity, attr) a not-told candidate was made of.
    told_keys: BTreeSet<(ClaimMode, Id, Id, Id)>,
    /// Claims heard so far taken in.
    heard: usize,
    /// The not-done candidates of the last call.
    not_done: Vec<Keyed<K>>,
}

impl<K> Default for Sweep<K> {
    fn default() -> Self {
        Sweep {
            absent: None,
            unseen: None,
            told: Vec::new(),
            told_keys: BTreeSet::new(),
            heard: 0,
            not_done: Vec::new(),
        }
    }
}

impl<K> Sweep<K> {
    /// The candidates at `cutoff`, which is no earlier than the last one,
    /// by kind (absent, unseen, not told, not seen doing), each with its
    /// ask key by `key` (the miner's).
    pub fn candidates(
        &mut self,
        ix: &Index,
        src: &Sources,
        cutoff: u64,
        key: impl Fn(&Query) -> K,
    ) -> [&[Keyed<K>]; 4] {
        let absent = self.absent.get_or_insert_with(|| {
            (0..src.absent.len())
                .map(|i| Keyed::new(Premise::Absent(i), src, &key))
                .collect()
        });
        let unseen = self.unseen.get_or_insert_with(|| {
            (src.unseen_at_start.iter())
                .map(|(entity, attr)| {
                    let (entity, attr) = (entity.clone(), attr.clone());
                    Keyed::new(Premise::Unseen { entity, attr }, src, &key)
                })
                .collect()
        });
        unseen.retain(|u| unsupported(ix, cutoff, &u.query));
        // Claims heard from one person, asked of another who made none.
        let heard = ix.heard_before(cutoff);
        for h in &heard[self.heard.min(heard.len())..] {
            let (entity, attr) = (&h.claim.entity, &h.claim.attr);
            let by = match h.claim.mode {
                // Asked as "where is it, by their word?".
                ClaimMode::Fact if !source_aware::asks_according_to(attr) => continue,
                ClaimMode::Fact => &h.speaker,
                ClaimMode::Preference => match &h.claim.holder {
                    Some(holder) => holder,
                    None => continue,
                },
                ClaimMode::Request => continue,
            };
            for p in src.humans.iter().filter(|p| **p != by && resident(ix, p)) {
                if !self.told_keys.insert((
                    h.claim.mode,
                    (*p).clone(),
                    entity.clone(),
                    attr.clone(),
                )) {
                    continue;
                }
                let premise = if h.claim.mode == ClaimMode::Fact {
                    Premise::NotSaid {
                        speaker: (*p).clone(),
                        said: h.event,
                        entity: entity.clone(),
                        attr: attr.clone(),
                    }
                } else {
                    Premise::NotPreferred {
                        holder: (*p).clone(),
                        said: h.event,
                        entity: entity.clone(),
                        attr: attr.clone(),
                    }
                };
                let mut told = Keyed::new(premise, src, &key);
                told.supported_from = supported_from(ix, cutoff, &told.query);
                self.told.push(told);
            }
        }
        self.heard = self.heard.max(heard.len());
        (self.told).retain(|t| t.supported_from.is_none_or(|f| cutoff < f));
        // Acts seen done by one person, asked of another never seen doing
        // them (the latest sixty acts, as `when_last` takes).
        self.not_done.clear();
        let mut acts = BTreeSet::new();
        for (e, act) in ix.acts(cutoff).rev().take(60) {
            if !src.humans.contains(&e.actor) {
                continue;
            }
            for p in src
                .humans
                .iter()
                .filter(|p| ***p != e.actor && resident(ix, p))
            {
                let seen = serde_json::to_string(&(p, act)).unwrap_or_default();
                if !acts.insert(seen) {
                    continue;
                }
                let c = Premise::NotDone {
                    actor: (*p).clone(),
                    done: e.id,
                    act: act.clone(),
                };
                let q = c.query(src);
                if unsupported(ix, cutoff, &q) {
                    self.not_done.push(Keyed::of(c, q, &key));
                }
            }
        }
        [absent, unseen, &self.told, &self.not_done]
    }
}

/// The first cutoff from `from` on at which something bears on `q`, if
/// any: that only changes from no to yes as the past grows, so it is
/// searched for once, not asked again at every cutoff while it is no.
fn supported_from(ix: &Index, from: u64, q: &Query) -> Option<u64> {
    let end = ix.events.last().map_or(from, |e| e.id + 1).max(from);
    if unsupported(ix, end, q) {
        return None;
    }
    let (mut lo, mut hi) = (from, end);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if unsupported(ix, mid, q) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    Some(lo)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples::cutoff::cutoffs;

    #[test]
    fn the_trap_of_a_state_never_seen_is_never_the_truth() {
        let scene = crate::scene::default_scene();
        let state = crate::sim::initial_state(&scene);
        let mut kinds = BTreeSet::new();
        for ((entity, attr), truth) in state.iter() {
            if attr.as_str() == "position" {
                continue;
            }
            let trap = wrong_value(&scene, entity, attr, truth);
            if let Some(t) = &trap {
                assert_ne!(t, truth, "{entity}.{attr}");
                kinds.insert(match t {
                    Value::Location(_) => "place",
                    Value::Bool(_) => "switch",
                    _ => "setting",
                });
            }
            // Every place, switch and door has one.
            if matches!(truth, Value::Location(_) | Value::Bool(_)) {
                assert!(trap.is_some(), "{entity}.{attr}");
            }
        }
        assert!(kinds.len() >= 3, "places, switches and settings: {kinds:?}");
    }

    #[test]
    fn the_sweep_keeps_the_candidates_worked_out_at_each_cutoff() {
        let (scene, events) = crate::samples::sweep::four_days();
        let ix = Index::new(&scene, &events);
        let absent = absent_variants(&scene);
        let unseen = unseen_at_start(&ix);
        let humans: BTreeSet<&Id> = scene
            .actors
            .iter()
            .filter(|a| a.kind == crate::scene::ActorKind::Human)
            .map(|a| &a.id)
            .collect();
        let sources = Sources {
            absent: &absent,
            unseen_at_start: &unseen,
            humans: &humans,
        };
        let mut sweep = Sweep::default();
        let json = |q: &Query| serde_json::to_string(q).expect("a query is JSON");
        let (mut told, mut first_told, mut unseen_dropped) = (0, 0, false);
        for (k, cutoff) in cutoffs(&ix).iter().enumerate() {
            // Asked now and then, as mining does, so that some cutoffs are skipped.
            if k % 3 == 1 {
                continue;
            }
            let kept = sweep.candidates(&ix, &sources, cutoff.event, json);
            let scratch = Premise::candidates(&ix, &sources, cutoff.event);
            for (kept, scratch) in kept.iter().zip(&scratch) {
                let premises: Vec<&Premise> = kept.iter().map(|k| &k.premise).collect();
                assert_eq!(
                    premises,
                    scratch.iter().collect::<Vec<_>>(),
                    "at cutoff {}",
                    cutoff.event
                );
                for k in kept.iter() {
                    assert_eq!(k.query, k.premise.query(&sources));
                    assert_eq!(k.key, json(&k.query));
                }
            }
            if first_told == 0 {
                first_told = kept[2].len();
            }
            told = told.max(kept[2].len());
            unseen_dropped |= kept[1].len() < unseen.len();
        }
        // The kinds that are kept did grow and shrink along the way.
        assert!(told > first_told, "not-told candidates never grew");
        assert!(unseen_dropped, "no unseen key was ever seen");
    }

    /// The search finds the cutoff from which a question is supported,
    /// for questions that come to be and questions that never do.
    #[test]
    fn a_question_is_supported_from_the_cutoff_the_search_finds() {
        let (scene, events) = crate::samples::sweep::four_days();
        let ix = Index::new(&scene, &events);
        let (mut found, mut never) = (0, 0);
        for h in ix.heard_before(u64::MAX).iter().step_by(3) {
            for a in &scene.actors {
                let q = Query::AccordingTo {
                    speaker: a.id.clone(),
                    entity: h.claim.entity.clone(),
                    attr: h.claim.attr.clone(),
                };
                let from = supported_from(&ix, 1, &q);
                for c in (1..=events.len() as u64 + 1).step_by(37) {
                    let no = from.is_none_or(|f| c < f);
                    assert_eq!(unsupported(&ix, c, &q), no, "{q:?} at {c}");
                }
                match from {
                    Some(_) => found += 1,
                    None => never += 1,
                }
            }
        }
        assert!(found > 0 && never > 0, "{found} found, {never} never");
    }
}
