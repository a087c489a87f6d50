//! Candidate questions: what the robot's history might settle at a cutoff,
//! before it is answered, with its wording made only if it is chosen; and
//! what the families' candidates at a cutoff ([`At`]) are drawn from: the
//! acts before it, how often each was seen, the first events of habits.
//! The questions that stand from cutoff to cutoff (a state, a value before
//! it was overwritten, a claim heard) are kept by [`super::standing`].

use std::collections::BTreeSet;

// Bevy's maps hash with a fixed foldhash, cheaper than std's SipHash on
// these keys; they are only looked up, never iterated into output.
use bevy::platform::collections::HashMap;

use crate::ids::Id;
use crate::scene::ObjectDef;
use crate::trace::Event;
use crate::trace::request::Action;

use super::index::{Index, Seen};
use super::model::{Act, Cutoff, Family, Query};
use super::phrasing::Phrase;
use super::text::Namer;

/// A question before it is answered. Its wording is made only for the
/// question chosen: most candidates are never asked.
pub struct Candidate<'c> {
    pub family: Family,
    pub template: &'static str,
    pub query: Query,
    pub phrase: Phrasing<'c>,
    pub options: Vec<String>,
}

/// A question's wording, made when it is chosen.
pub type Phrasing<'c> = Box<dyn Fn() -> Phrase + 'c>;

impl<'c> Candidate<'c> {
    pub fn new(family: Family, template: &'static str, query: Query, phrase: Phrasing<'c>) -> Self {
        Candidate {
            family,
            template,
            query,
            phrase,
            options: vec![],
        }
    }

    /// A multiple-choice question, with its `options` as written.
    pub fn with_options(self, options: Vec<String>) -> Self {
        Candidate { options, ..self }
    }
}

/// How often each (actor, act) was perceived before the cutoff, kept as
/// the cutoffs advance: which acts happened only once is a lookup, not a
/// search of the past at every cutoff.
#[derive(Default)]
pub struct Tally<'k> {
    /// Key → (times, position in the acts of its first time).
    counts: HashMap<&'k str, (u32, usize)>,
    /// Positions of the acts whose key occurred once so far, in order.
    pub unique: BTreeSet<usize>,
    /// Acts counted so far.
    upto: usize,
}

impl<'k> Tally<'k> {
    pub fn advance(&mut self, keys: &'k [String], upto: usize) {
        for (i, k) in keys.iter().enumerate().take(upto).skip(self.upto) {
            let (times, first) = self.counts.entry(k.as_str()).or_insert((0, i));
            *times += 1;
            match *times {
                1 => {
                    self.unique.insert(i);
                }
                2 => {
                    self.unique.remove(first);
                }
                _ => {}
            }
        }
        self.upto = self.upto.max(upto);
    }

    pub fn once(&self, key: &str) -> bool {
        self.counts.get(key).is_some_and(|(n, _)| *n == 1)
    }
}

/// The perceived acts before a cutoff, each with its (actor, act) key.
pub struct Acts<'a, 'k> {
    pub acts: &'k [(&'a Event, &'a Act)],
    pub keys: &'k [String],
    /// Whether the robot perceived each ([`Index::robot_saw`]), found
    /// once, not read from its event at every cutoff.
    pub saw: &'k [bool],
    pub tally: &'k Tally<'k>,
}

/// The key of an (actor, act) pair.
pub fn act_key(e: &Event, act: &Act) -> String {
    serde_json::to_string(&(&e.actor, act)).unwrap_or_default()
}

/// The events that first give a routine key (a person's device setting, a
/// device value, an object's place) or an hour key (a person's act), over
/// the whole trace. The keys' first events before any cutoff are these
/// events before it, so each cutoff looks at them, not at all its past.
pub struct Firsts<'a> {
    pub routine: Vec<First<'a>>,
    /// Each a person's first of an act: one per (person, act).
    pub hours: Vec<Hour<'a>>,
}

/// A person's first of an act, and when the robot first saw the thing it
/// is done with (or to) in a bin: a habit of it is asked only until then.
pub struct Hour<'a> {
    pub event: &'a Event,
    pub act: &'a Act,
    pub binned: Option<u64>,
}

/// A routine key's first event: which keys it is the first of, so that no
/// cutoff keys them again. An object's place has one.
pub struct First<'a> {
    pub event: &'a Event,
    /// The first of a person's setting of a device field.
    pub setter: bool,
    /// The first of a device field's value.
    pub value: bool,
    /// When the robot first saw the thing placed in a bin, for a place.
    pub binned: Option<u64>,
}

impl<'a> Firsts<'a> {
    /// The firsts of what `ix` holds; what went in a bin, as `robot` (the
    /// robot's index) saw it.
    pub fn new(ix: &'a Index, robot: &Index, humans: &BTreeSet<&Id>) -> Self {
        let mut keys = BTreeSet::new();
        let routine = ix
            .visible(u64::MAX)
            .filter_map(|event| {
                let mut binned = None;
                let (setter, value) = match &event.action {
                    Action::SetDeviceState {
                        device,
                        field,
                        value,
                    } => (
                        humans.contains(&event.actor)
                            && keys.insert(format!("v|{}|{device}|{field}", event.actor)),
                        keys.insert(format!("a|{device}|{field}|{value}")),
                    ),
                    Action::Place { object, .. } => {
                        binned = robot.binned_at(object);
                        (keys.insert(format!("p|{object}")), false)
                    }
                    _ => (false, false),
                };
                (setter || value).then_some(First {
                    event,
                    setter,
                    value,
                    binned,
                })
            })
            .collect();
        let hours = ix
            .acts(u64::MAX)
            .filter(|(e, act)| {
                humans.contains(&e.actor)
                    && keys.insert(serde_json::to_string(&(&e.actor, act)).unwrap_or_default())
            })
            .map(|(event, act)| Hour {
                event,
                act,
                // The earlier, of what it is done with and to.
                binned: [&act.object, &act.target]
                    .into_iter()
                    .flatten()
                    .filter_map(|o| robot.binned_at(o))
                    .min(),
            })
            .collect();
        Firsts { routine, hours }
    }
}

/// One of the household: a false premise puts what it asks of someone who
/// lives here (the courier putting the brie in the fridge, or the
/// technician's word on where the keys are, is a question no one asks).
pub fn resident(ix: &Index, who: &Id) -> bool {
    ix.scene
        .actors
        .iter()
        .any(|a| a.id == *who && a.lives_here())
}

/// Whether more than one person lives here: "who likes ...?" or "who
/// usually ...?" of a home of one answers itself.
pub fn shared_home(ix: &Index) -> bool {
    ix.scene.actors.iter().filter(|a| a.lives_here()).count() > 1
}

pub fn humans<'a>(ix: &'a Index) -> BTreeSet<&'a Id> {
    ix.scene
        .actors
        .iter()
        .filter(|a| a.kind == crate::scene::ActorKind::Human)
        .map(|a| &a.id)
        .collect()
}

/// What the candidates of a family at a cutoff are drawn from.
pub struct At<'c, 'k> {
    /// The robot's index.
    pub ix: &'c Index<'c>,
    pub n: &'c Namer<'c>,
    pub cutoff: &'k Cutoff,
    /// The acts before the cutoff: perceived, or all of them when asked of
    /// the household.
    pub acts: &'k Acts<'c, 'k>,
    pub firsts: &'k Firsts<'c>,
    pub humans: &'k BTreeSet<&'c Id>,
    /// The things left somewhere before the cutoff, with their sights
    /// before it ([`LeftSomewhere`](super::families::beliefs::LeftSomewhere)).
    pub left: &'k [(&'c ObjectDef, &'c [Seen])],
}
