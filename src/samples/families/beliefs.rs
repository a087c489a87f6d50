//! Beliefs: what a person of the house thinks, as far as the robot can
//! tell ("Where does Alice think her glasses are?"). The robot knows what
//! a person perceived only through what it perceived itself: an event it
//! perceived with them there (by the visibility rules, a move or a view
//! of a room is perceived by everyone in that room, so the robot saw them
//! there). Their belief is the last value the robot saw them see; it is
//! settled where the robot has watched the thing without a break since
//! (the freshness rule from each sight to the next, and to the cutoff):
//! then the thing was always in the robot's room, and nobody could have
//! seen it there without the robot seeing them see it. Otherwise it is the
//! last known, possibly changed since. The truth beside it (the world
//! answer) is the last value the person perceived, which the checks hold
//! to the simulator's own record of their beliefs.

mod phrasings;

use rand_chacha::ChaCha8Rng;

use crate::generation::MemoryTarget;
use crate::ids::Id;
use crate::scene::ObjectDef;
use crate::trace::request::Action;
use crate::trace::{ClaimMode, Key, Location, Value};

use crate::samples::answered::{Answered, answered};
use crate::samples::candidates::{At, Candidate, resident};
use crate::samples::index::{Index, Seen};
use crate::samples::model::{Answer, Cutoff, Family, QaSample, Query};
use crate::samples::phrasing::Phrase;
use crate::samples::stockroom::Stockroom;
use crate::samples::text::{Namer, plural};
use crate::samples::wording::{Tense, act_phrase, verb_phrase};

use super::family::{CheckAt, QuestionFamily, Track};
use super::reader::{Read, Reading};

pub use phrasings::PHRASINGS;

pub struct Beliefs;

/// The kinds of query it asks.
pub const QUERIES: &[&str] = &["thinks", "who_saw"];

pub const READINGS: &[Reading] = &[
    Reading {
        rank: 4,
        cue: |r| {
            r.has(&[
                "who saw",
                "who watched",
                "anyone see",
                "who of the household saw",
            ])
        },
        // The move is the act at the moment the question gives.
        parse: |r: &Read| {
            Some(Query::WhoSaw {
                event: r.at_moment()?.id,
            })
        },
    },
    Reading {
        rank: 5,
        cue: |r| {
            r.has(&[" think ", " believe ", " expect to find ", " look first "])
                && !r.has(&[" think of "])
        },
        parse: |r: &Read| {
            Some(Query::Thinks {
                person: r.person.clone()?,
                entity: r.thing.clone()?,
                attr: Id::new("location"),
            })
        },
    },
];

/// Whether a place is on or in something (not someone's hands).
pub fn placed(v: &Value) -> bool {
    matches!(v, Value::Location(Location::On(_) | Location::In(_)))
}

/// Of `seen` (the robot's sights of a thing before a cutoff), the one a
/// person thinks of, given the last they shared
/// ([`Index::last_shared`]): that one where it was put somewhere. Asked of
/// a place: not "where does Alice think the mug is" of the mug in
/// someone's hands. Where they think it is, as [`Beliefs`] answers it,
/// stale or not.
pub fn thought(seen: &[Seen], shared: Option<usize>) -> Option<usize> {
    shared.filter(|&k| placed(&seen[k].value))
}

/// The things the robot last saw put somewhere before a cutoff, not
/// carried about (whoever it was carried past may have seen it) nor in a
/// bin (nobody asks where the empty carton is thought to be), each with
/// its sights before the cutoff; kept as the cutoffs advance, so that each
/// thing's sights are read forward once, not searched at every cutoff
/// (the months bring more things, and more sights of each).
pub struct LeftSomewhere<'a> {
    things: Vec<Sighted<'a>>,
    /// The cutoff it is at.
    cutoff: u64,
}

/// A thing the robot saw somewhere, as of the cutoff.
struct Sighted<'a> {
    thing: &'a ObjectDef,
    /// Every sight of where it was.
    all: &'a [Seen],
    /// How many of them are before the cutoff, and the event of the next.
    upto: usize,
    next: u64,
    /// Whether the last of those left it somewhere.
    left: bool,
}

impl<'a> LeftSomewhere<'a> {
    /// Of `located` ([`Index::located`]: every sight of each thing), none
    /// yet: before the first event.
    pub fn new(located: Vec<(&'a ObjectDef, &'a [Seen])>) -> Self {
        let things = (located.into_iter())
            .map(|(thing, all)| Sighted {
                thing,
                all,
                upto: 0,
                next: all.first().map_or(u64::MAX, |s| s.event),
                left: false,
            })
            .collect();
        LeftSomewhere { things, cutoff: 0 }
    }

    /// The things left somewhere before `cutoff` (no earlier than the
    /// last), with their sights before it, in the order of `located`.
    pub fn at(&mut self, room: &Stockroom, cutoff: u64) -> Vec<(&'a ObjectDef, &'a [Seen])> {
        debug_assert!(cutoff >= self.cutoff, "cutoffs come in order");
        self.cutoff = cutoff;
        for t in self.things.iter_mut().filter(|t| t.next < cutoff) {
            t.upto += t.all[t.upto..].partition_point(|s| s.event < cutoff);
            t.next = t.all.get(t.upto).map_or(u64::MAX, |s| s.event);
            let last = &t.all[t.upto - 1].value;
            t.left = placed(last) && !room.in_bin(last);
        }
        (self.things.iter())
            .filter(|t| t.left)
            .map(|t| (t.thing, &t.all[..t.upto]))
            .collect()
    }
}

/// The key a beliefs question is about, and whose belief.
fn of(q: &Query) -> Option<(&Id, Key)> {
    match q {
        Query::Thinks {
            person,
            entity,
            attr,
        } => Some((person, (entity.clone(), attr.clone()))),
        _ => None,
    }
}

impl QuestionFamily for Beliefs {
    /// Where each person of the house thinks a thing is: one the robot
    /// saw moved since the person last saw it (where a belief may be
    /// false), asked first; else one of their own, or one they put where
    /// it is themselves, that they last saw on an earlier day (where they
    /// will look for it).
    fn candidates<'c>(&self, at: &At<'c, '_>, _rng: &mut ChaCha8Rng) -> Vec<Candidate<'c>> {
        let (ix, n) = (at.ix, at.n);
        let (mut out, mut held) = (Vec::new(), Vec::new());
        // The people who live there: not what the courier thinks.
        let people: Vec<&Id> = at
            .humans
            .iter()
            .copied()
            .filter(|p| resident(ix, p))
            .collect();
        // Each thing's sights, and the last of them each person shared: of
        // the things left somewhere.
        let location = Id::new("location");
        let things: Vec<_> = (at.left.iter())
            .map(|&(o, seen)| (o, (o.id.clone(), location.clone()), seen))
            .map(|(o, key, seen)| {
                let last: Vec<_> = (people.iter())
                    .map(|p| ix.scan_shared(seen, p, &key))
                    .collect();
                (key, seen, last, o.owner.as_ref())
            })
            .collect();
        for (i, person) in people.iter().enumerate() {
            for (key, seen, last, owner) in &things {
                let Some(k) = last[i] else {
                    continue;
                };
                let shared = &seen[k];
                if !placed(&shared.value) {
                    continue;
                }
                let moved = seen[k + 1..]
                    .iter()
                    .rfind(|s| placed(&s.value))
                    .is_some_and(|s| s.value != shared.value);
                // One of their own things, or one they put where it is
                // themselves, that they have not seen today: where they
                // will look for it.
                let left = ix.event(shared.event).is_some_and(|e| {
                    let put = e.actor == **person
                        && e.changes
                            .iter()
                            .any(|c| c.entity == key.0 && c.attr == key.1);
                    (*owner == Some(*person) || put) && e.day < at.cutoff.day
                });
                if !(moved || left) {
                    continue;
                }
                // Not where they have since heard, in the robot's hearing,
                // where it is: words the robot cannot weigh against sight.
                let told = ix
                    .claims(ClaimMode::Fact, &key.0, &key.1, at.cutoff.event)
                    .any(|h| {
                        h.event > shared.event
                            && ix
                                .event(h.event)
                                .is_some_and(|e| e.observers.contains(*person))
                    });
                if told {
                    continue;
                }
                let (who, what) = ((*person).clone(), key.0.clone());
                let query = Query::Thinks {
                    person: who.clone(),
                    entity: what.clone(),
                    attr: key.1.clone(),
                };
                let phrase = Box::new(move || thinks_where(n, &who, &what));
                let c = Candidate::new(Family::Beliefs, "thinks_where", query, phrase);
                if moved { &mut out } else { &mut held }.push(c);
            }
        }
        // Who saw a thing put where it is, today or yesterday: first of a
        // move one of the house saw and another missed who, as far as the
        // robot knows, last saw the thing elsewhere (they will look in the
        // wrong place).
        let mut missed = Vec::new();
        for (e, act) in at.acts.acts.iter().rev().take(40) {
            if e.day + 1 < at.cutoff.day {
                break;
            }
            if act.skill != "place" || !ix.robot_saw(e) {
                continue;
            }
            let missed_by = (e.changes.iter())
                .find(|c| c.attr.as_str() == "location")
                .is_some_and(|c| {
                    let key = (c.entity.clone(), c.attr.clone());
                    let seen = ix.seen_before(&key, e.id);
                    people.iter().any(|p| {
                        **p != e.actor
                            && !e.observers.contains(*p)
                            && ix
                                .last_shared(seen, p, &key)
                                .is_some_and(|k| placed(&seen[k].value) && seen[k].value != c.new)
                    })
                });
            let (actor, act, t) = (e.actor.clone(), (*act).clone(), e.t);
            let phrase = Box::new(move || {
                let slots = [
                    ("who", n.name(&actor)),
                    ("act", verb_phrase(n, &act, Tense::Base)),
                    ("acted", verb_phrase(n, &act, Tense::Past)),
                    ("done", act_phrase(n, &actor, &act)),
                    ("when", n.when(t)),
                ];
                let slots: Vec<(&str, &str)> =
                    slots.iter().map(|(k, v)| (*k, v.as_str())).collect();
                Phrase::new(PHRASINGS, "who_saw", &slots)
            });
            let query = Query::WhoSaw { event: e.id };
            let c = Candidate::new(Family::Beliefs, "who_saw", query, phrase);
            // Asked first where someone saw it and someone missed it: a
            // move nobody saw is "Nobody." too often to lead.
            let someone = (e.observers.iter()).any(|o| *o != e.actor && people.contains(&o));
            if missed_by && someone {
                &mut missed
            } else {
                &mut held
            }
            .push(c);
        }
        out.append(&mut missed);
        if out.is_empty() { held } else { out }
    }

    fn answer(&self, ix: &Index, cutoff: &Cutoff, q: &Query) -> Option<Answered> {
        if let Query::WhoSaw { event } = q {
            // The people of the house in the room: by the visibility
            // rules, everyone there saw it, and the robot, there too, saw
            // them (the event's observers).
            let e = ix.event(*event)?;
            let moved = matches!(e.action, Action::Place { .. }) && e.outcome.is_ok();
            if e.id >= cutoff.event || !moved || !ix.robot_saw(e) {
                return None;
            }
            let people = (ix.scene.actors.iter())
                .filter(|a| a.lives_here() && a.id != e.actor && e.observers.contains(&a.id))
                .map(|a| a.id.clone())
                .collect();
            return answered(Answer::People { people }, [e.id]);
        }
        let (person, key) = of(q)?;
        let c = cutoff.event;
        let seen = ix.seen_before(&key, c);
        let k = thought(seen, ix.last_shared(seen, person, &key))?;
        // Watched without a break from that sight on: each sight still
        // current at the next, the last at the cutoff.
        let value = seen[k].value.clone();
        let answer = if ix.watched(&key, &seen[k..], c) {
            Answer::Value { value }
        } else {
            Answer::LastSeen {
                value,
                seen_at: ix.event(seen[k].event)?.t,
                stale: true,
            }
        };
        answered(answer, [seen[k].event])
    }

    /// What they really think: the last value they perceived.
    fn world(&self, all: &Index, cutoff: &Cutoff, q: &Query) -> Option<Answer> {
        let (person, key) = of(q)?;
        let seen = all.seen_before(&key, cutoff.event);
        let k = all.last_shared(seen, person, &key)?;
        Some(Answer::Value {
            value: seen[k].value.clone(),
        })
    }

    /// Where they last saw it, and when, as far as the robot knows.
    fn hedge(&self, _ix: &Index, n: &Namer, q: &Query, a: &Answered) -> Option<String> {
        let a = &a.answer;
        let (person, (thing, _)) = of(q)?;
        let it = if plural(&n.name(&thing)) {
            "them"
        } else {
            "it"
        };
        match a {
            Answer::LastSeen { seen_at, .. } => Some(format!(
                "Where {who} last saw {it}, as far as the robot knows ({}); {who} may have seen {it} since.",
                n.when(*seen_at),
                who = n.name(person),
            )),
            _ => None,
        }
    }

    /// The sights of the thing and where the robot was between them.
    fn needs<'q>(&self, q: &'q Query) -> Vec<Track<'q>> {
        match q {
            Query::Thinks { entity, attr, .. } => {
                vec![Track::State(entity, attr), Track::Whereabouts]
            }
            Query::WhoSaw { event } => vec![Track::Event(*event)],
            _ => vec![],
        }
    }

    fn memory_target(&self, _q: &Query) -> Option<MemoryTarget> {
        Some(MemoryTarget::SocialContext)
    }

    /// A settled answer is what the person believes in the simulator (the
    /// rule is sound), and so is the world answer.
    fn check(&self, q: &QaSample, at: &CheckAt, fail: &mut dyn FnMut(String)) -> bool {
        let Some((person, key)) = of(&q.query) else {
            return false;
        };
        let believed = at
            .sim
            .beliefs(person.as_str())
            .and_then(|b| b.get(&key))
            .map(|b| b.value.clone());
        let world = match (&q.world, &q.answer) {
            (Some(Answer::Value { value }), _) => Some(value.clone()),
            (None, Answer::Value { value } | Answer::LastSeen { value, .. }) => Some(value.clone()),
            _ => None,
        };
        if world != believed {
            fail(format!(
                "{person} believes {believed:?} in the simulator, the world answer says {world:?}"
            ));
        }
        true
    }
}

/// "Where does Alice think the glasses are?"
fn thinks_where(n: &Namer, person: &Id, thing: &Id) -> Phrase {
    let (who, thing) = (n.name(person), n.name(thing));
    Phrase::new(
        PHRASINGS,
        "thinks_where",
        &[("who", &who), ("thing", &thing)],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples::sweep::lived;

    /// What [`LeftSomewhere`] keeps, worked out from scratch at `cutoff`.
    fn from_scratch<'a>(
        room: &Stockroom,
        located: &[(&'a ObjectDef, &'a [Seen])],
        cutoff: u64,
    ) -> Vec<(&'a ObjectDef, &'a [Seen])> {
        (located.iter())
            .filter_map(|&(o, all)| {
                let seen = &all[..all.partition_point(|s| s.event < cutoff)];
                let last = seen.last()?;
                (placed(&last.value) && !room.in_bin(&last.value)).then_some((o, seen))
            })
            .collect()
    }

    #[test]
    fn the_things_left_somewhere_kept_are_those_worked_out_at_each_cutoff() {
        let src = crate::scene::BUILTIN[0].1;
        let base = crate::scene::parse("family_apartment", src).expect("it parses");
        let scene = crate::generation::scripted::provision(&base, 8, crate::catalogue::builtin());
        let events = lived(&scene, 8, 2);
        let ix = Index::new(&scene, &events);
        let room = ix.stockroom();
        let mut kept = LeftSomewhere::new(ix.located());
        let (mut left, mut binned, mut held) = (0, 0, 0);
        // Cutoffs a step apart and far apart, and the same one twice.
        let steps = [1u64, 1, 0, 37, 61, 5, 120];
        let mut cutoff = 0;
        for step in steps.iter().cycle() {
            cutoff += step;
            if cutoff > events.len() as u64 + 2 {
                break;
            }
            let expected = from_scratch(room, &ix.located(), cutoff);
            let found = kept.at(room, cutoff);
            let ids = |v: &[(&ObjectDef, &[Seen])]| -> Vec<(Id, usize)> {
                v.iter().map(|(o, s)| (o.id.clone(), s.len())).collect()
            };
            assert_eq!(ids(&found), ids(&expected), "at {cutoff}");
            left += found.len();
            // What is not left somewhere, for each reason.
            for (_, all) in ix.located() {
                let last = all[..all.partition_point(|s| s.event < cutoff)].last();
                binned += usize::from(last.is_some_and(|s| room.in_bin(&s.value)));
                held += usize::from(last.is_some_and(|s| !placed(&s.value)));
            }
        }
        assert!(
            left > 1500 && binned > 0 && held > 0,
            "{left} {binned} {held}"
        );
    }
}
