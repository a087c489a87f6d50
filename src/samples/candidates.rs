//! Candidate questions: what the robot's history might settle at a cutoff,
//! before it is answered, with its wording made only if it is chosen. The
//! acts, routines and counts of each cutoff ([`candidates`]), and the
//! questions that stand from cutoff to cutoff ([`super::standing`] keeps
//! them): a state, a value before it was overwritten, a claim heard.

use std::collections::BTreeSet;
use std::io::Write;

// Bevy's maps hash with a fixed foldhash, cheaper than std's SipHash on
// these keys; they are only looked up, never iterated into output.
use bevy::platform::collections::HashMap;

use rand::Rng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use crate::ids::Id;
use crate::trace::request::{Action, Destination};
use crate::trace::{ClaimMode, Event};

use super::act::act_of;
use super::index::{Heard, Index, Place};
use super::model::{Act, Answer, Cutoff, Family, Query};
use super::phrasing::Phrase;
use super::text::Namer;
use super::wording::{Tense, act_phrase, preference_question, request_phrase, verb_phrase};

/// A question before it is answered. Its wording is made only for the
/// question chosen: most candidates are never asked.
pub(super) struct Candidate<'c> {
    pub(super) family: Family,
    pub(super) template: &'static str,
    pub(super) query: Query,
    pub(super) phrase: Phrasing<'c>,
    pub(super) options: Vec<String>,
}

/// A question's wording, made when it is chosen.
type Phrasing<'c> = Box<dyn Fn() -> Phrase + 'c>;

impl<'c> Candidate<'c> {
    fn new(
        family: Family,
        template: &'static str,
        query: Query,
        phrase: Phrasing<'c>,
        options: Vec<String>,
    ) -> Self {
        Candidate {
            family,
            template,
            query,
            phrase,
            options,
        }
    }
}

/// How often each (actor, act) was perceived before the cutoff, kept as
/// the cutoffs advance: which acts happened only once is a lookup, not a
/// search of the past at every cutoff.
#[derive(Default)]
pub(super) struct Tally<'k> {
    /// Key → (times, position in the acts of its first time).
    counts: HashMap<&'k str, (u32, usize)>,
    /// Positions of the acts whose key occurred once so far, in order.
    unique: BTreeSet<usize>,
    /// Acts counted so far.
    upto: usize,
}

impl<'k> Tally<'k> {
    pub(super) fn advance(&mut self, keys: &'k [String], upto: usize) {
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

    fn once(&self, key: &str) -> bool {
        self.counts.get(key).is_some_and(|(n, _)| *n == 1)
    }
}

/// The perceived acts before a cutoff, each with its (actor, act) key.
pub(super) struct Acts<'a, 'k> {
    pub(super) acts: &'k [(&'a Event, &'a Act)],
    pub(super) keys: &'k [String],
    pub(super) tally: &'k Tally<'k>,
}

/// The key of an (actor, act) pair.
pub(super) fn act_key(e: &Event, act: &Act) -> String {
    serde_json::to_string(&(&e.actor, act)).unwrap_or_default()
}

/// What makes two samples the same question: the query and its answer,
/// and for knowledge that lasts (preferences, habits, what was overwritten)
/// also the day, so that it is asked again at longer retention.
pub(super) fn ask_key(q: &Query, a: &Answer, family: Family, cutoff: &Cutoff) -> String {
    let day = match family {
        Family::Preference | Family::Routine | Family::OverwrittenState => cutoff.day,
        _ => 0,
    };
    // One buffer, written in place: keys are made for every candidate.
    let mut key = Vec::with_capacity(256);
    let _ = serde_json::to_writer(&mut key, q);
    key.push(b'|');
    let _ = serde_json::to_writer(&mut key, a);
    let _ = write!(key, "|{day}");
    String::from_utf8(key).unwrap_or_default()
}

/// The events that first give a routine key (a person's device setting, a
/// device value, an object's place) or an hour key (a person's act), over
/// the whole trace. The keys' first events before any cutoff are these
/// events before it, so each cutoff looks at them, not at all its past.
pub(super) struct Firsts<'a> {
    routine: Vec<&'a Event>,
    hours: Vec<(&'a Event, &'a Act)>,
}

impl<'a> Firsts<'a> {
    pub(super) fn new(ix: &'a Index, humans: &BTreeSet<&Id>) -> Self {
        let mut keys = BTreeSet::new();
        let routine = ix
            .visible(u64::MAX)
            .filter(|e| match &e.action {
                Action::SetDeviceState {
                    device,
                    field,
                    value,
                } => {
                    let person = humans.contains(&e.actor)
                        && keys.insert(format!("v|{}|{device}|{field}", e.actor));
                    keys.insert(format!("a|{device}|{field}|{value}")) || person
                }
                Action::Place { object, .. } => keys.insert(format!("p|{object}")),
                _ => false,
            })
            .collect();
        let hours = ix
            .acts(u64::MAX)
            .filter(|(e, act)| {
                humans.contains(&e.actor)
                    && keys.insert(serde_json::to_string(&(&e.actor, act)).unwrap_or_default())
            })
            .collect();
        Firsts { routine, hours }
    }
}

pub(super) fn humans<'a>(ix: &'a Index) -> BTreeSet<&'a Id> {
    ix.scene
        .actors
        .iter()
        .filter(|a| a.kind == crate::scene::ActorKind::Human)
        .map(|a| &a.id)
        .collect()
}

/// Every question the robot's history might settle at `cutoff`, unanswered.
pub(super) fn candidates<'c>(
    ix: &'c Index,
    n: &'c Namer,
    firsts: &Firsts,
    cutoff: &Cutoff,
    acts: &Acts,
    rng: &mut ChaCha8Rng,
) -> Vec<Candidate<'c>> {
    let c = cutoff.event;
    let mut out = Vec::new();
    let mut push = |family, template, query, phrase: Phrasing<'c>, options| {
        out.push(Candidate::new(family, template, query, phrase, options))
    };
    let humans = humans(ix);

    // Temporal: when did someone last do something; which came first; what next.
    let mut seen_keys = BTreeSet::new();
    for ((e, act), key) in acts.acts.iter().zip(acts.keys).rev().take(60) {
        if seen_keys.insert(key) {
            let (actor, act) = (e.actor.clone(), (*act).clone());
            push(
                Family::Temporal,
                "when_last",
                Query::LastTime {
                    actor: actor.clone(),
                    act: act.clone(),
                },
                Box::new(move || {
                    Phrase::new(
                        "when_last",
                        &[
                            ("who", &n.name(&actor)),
                            ("act", &verb_phrase(n, &act, Tense::Base)),
                            ("acted", &verb_phrase(n, &act, Tense::Past)),
                        ],
                    )
                }),
                vec![],
            );
        }
    }
    // Which came first is never asked of what the robot missed (a choice
    // invites a guess), so the pair is drawn from what it perceived (all
    // of `acts` unless asked of the household).
    let unique: Vec<&(&Event, &Act)> = acts
        .tally
        .unique
        .iter()
        .map(|&i| &acts.acts[i])
        .filter(|(e, _)| ix.robot_saw(e))
        .collect();
    for _ in 0..4 {
        let (Some(a), Some(b)) = (unique.choose(rng), unique.choose(rng)) else {
            break;
        };
        if a.0.session == b.0.session {
            continue;
        }
        let options = vec![
            act_phrase(n, &a.0.actor, a.1),
            act_phrase(n, &b.0.actor, b.1),
        ];
        let (oa, ob) = (options[0].clone(), options[1].clone());
        push(
            Family::Temporal,
            "which_first",
            Query::First {
                a_actor: a.0.actor.clone(),
                a: a.1.clone(),
                b_actor: b.0.actor.clone(),
                b: b.1.clone(),
            },
            Box::new(move || Phrase::new("which_first", &[("a", &oa), ("b", &ob)])),
            options,
        );
    }
    for ((e, act), key) in acts.acts.iter().zip(acts.keys).rev().take(40) {
        if humans.contains(&e.actor) && acts.tally.once(key) {
            let (actor, act) = (e.actor.clone(), (*act).clone());
            push(
                Family::Temporal,
                "what_next",
                Query::Next { event: e.id },
                Box::new(move || {
                    Phrase::new(
                        "what_next",
                        &[
                            ("done", &act_phrase(n, &actor, &act)),
                            ("who", &n.name(&actor)),
                        ],
                    )
                }),
                vec![],
            );
        }
    }

    // Routines: habits seen on two or more days.
    let mut routine_keys = BTreeSet::new();
    for e in firsts.routine.iter().take_while(|e| e.id < c) {
        match &e.action {
            Action::SetDeviceState {
                device,
                field,
                value,
            } => {
                if humans.contains(&e.actor)
                    && routine_keys.insert(format!("v|{}|{device}|{field}", e.actor))
                {
                    let (actor, device, field) = (e.actor.clone(), device.clone(), field.clone());
                    push(
                        Family::Routine,
                        "usual_value",
                        Query::UsualValue {
                            actor: actor.clone(),
                            device: device.clone(),
                            field: Id::new(&field),
                        },
                        Box::new(move || {
                            Phrase::new(
                                "usual_value",
                                &[
                                    ("who", &n.name(&actor)),
                                    ("field", &field.replace('_', " ")),
                                    ("thing", &n.name(&device)),
                                ],
                            )
                        }),
                        vec![],
                    );
                }
                if routine_keys.insert(format!("a|{device}|{field}|{value}")) {
                    let act = act_of(&e.action).expect("a device action");
                    push(
                        Family::Routine,
                        "who_usually",
                        Query::UsualActor {
                            device: device.clone(),
                            field: Id::new(field),
                            value: value.clone(),
                        },
                        Box::new(move || {
                            Phrase::new(
                                "who_usually",
                                &[("does", &verb_phrase(n, &act, Tense::Third))],
                            )
                        }),
                        vec![],
                    );
                }
            }
            Action::Place { object, .. } if routine_keys.insert(format!("p|{object}")) => {
                let object = object.clone();
                push(
                    Family::Routine,
                    "usual_place",
                    Query::UsualPlace {
                        object: object.clone(),
                    },
                    Box::new(move || Phrase::new("usual_place", &[("thing", &n.name(&object))])),
                    vec![],
                );
            }
            _ => {}
        }
    }

    let mut hour_keys = BTreeSet::new();
    for (e, act) in firsts.hours.iter().take_while(|(e, _)| e.id < c) {
        if humans.contains(&e.actor)
            && hour_keys.insert(serde_json::to_string(&(&e.actor, act)).unwrap_or_default())
        {
            let (actor, act) = (e.actor.clone(), (*act).clone());
            push(
                Family::Routine,
                "usual_hour",
                Query::UsualHour {
                    actor: actor.clone(),
                    act: act.clone(),
                },
                Box::new(move || {
                    Phrase::new(
                        "usual_hour",
                        &[
                            ("who", &n.name(&actor)),
                            ("act", &verb_phrase(n, &act, Tense::Base)),
                        ],
                    )
                }),
                vec![],
            );
        }
    }

    // Counting: how often something was seen on a day up to the cutoff.
    let mut count_keys = BTreeSet::new();
    for (e, act) in acts.acts.iter().rev() {
        // Acts are in time order: the rest are older still.
        if e.day + 1 < cutoff.day {
            break;
        }
        if !count_keys.insert(serde_json::to_string(&(e.day, act)).unwrap_or_default()) {
            continue;
        }
        let day = if e.day == cutoff.day {
            "today".to_string()
        } else {
            format!("on day {}", e.day)
        };
        let by_anyone = rng.random_bool(0.5);
        let actor = (!by_anyone).then(|| e.actor.clone());
        let by_robot = actor.as_ref() == Some(&ix.robot);
        let (who_id, verb_act) = (e.actor.clone(), (*act).clone());
        let question = Box::new(move || {
            let verb = verb_phrase(n, &verb_act, Tense::Base);
            if by_robot {
                Phrase::new("how_many_robot", &[("act", &verb), ("day", &day)])
            } else {
                let who = if by_anyone {
                    "anyone".to_string()
                } else {
                    n.name(&who_id)
                };
                Phrase::new("how_many", &[("who", &who), ("act", &verb), ("day", &day)])
            }
        });
        push(
            Family::Counting,
            if by_anyone {
                "how_many_anyone"
            } else {
                "how_many_actor"
            },
            Query::Count {
                actor,
                act: (*act).clone(),
                day: e.day,
            },
            question,
            vec![],
        );
    }

    // Presence: who was home when something happened (of today's and
    // yesterday's acts in the working day, when who is in varies; at
    // breakfast and in the evening it is nearly always everyone).
    for (e, act) in acts.acts.iter().rev().take(60) {
        if e.day + 1 < cutoff.day {
            break;
        }
        let hour = e.t % crate::trace::DAY / 3600;
        if matches!(act.skill.as_str(), "leave" | "arrive") || !(9..18).contains(&hour) {
            continue;
        }
        let (actor, act, t) = (e.actor.clone(), (*act).clone(), e.t);
        push(
            Family::Presence,
            "who_home",
            Query::WhoHome { event: e.id },
            Box::new(move || {
                Phrase::new(
                    "who_home",
                    &[("done", &act_phrase(n, &actor, &act)), ("when", &n.when(t))],
                )
            }),
            vec![],
        );
    }
    for person in &humans {
        let leaves = ix.leaves(person, c);
        // Who changed what while someone was out, today or yesterday.
        for l in leaves.iter().rev().take_while(|l| l.day + 1 >= cutoff.day) {
            let Some(&(back, _)) = ix
                .comings_and_goings(person)
                .iter()
                .find(|(e, home)| *e > l.event && *home)
            else {
                continue;
            };
            if back >= c {
                continue;
            }
            let mut keys = BTreeSet::new();
            for e in ix.after(l.event).iter().take_while(|e| e.id < back) {
                for ch in &e.changes {
                    if ch.attr.as_str() != "position"
                        && !ix.scene.actors.iter().any(|a| a.id == ch.entity)
                    {
                        keys.insert((ch.entity.clone(), ch.attr.clone()));
                    }
                }
            }
            let day = match l.day {
                d if d == cutoff.day => "today".to_string(),
                d if d + 1 == cutoff.day => "yesterday".to_string(),
                d => format!("on day {d}"),
            };
            for (entity, attr) in keys.into_iter().take(8) {
                let (who, to, day) = ((*person).clone(), l.to, day.clone());
                let (thing, changed) = (entity.clone(), changed_verb(&attr));
                push(
                    Family::Presence,
                    "while_out",
                    Query::WhileOut {
                        person: who.clone(),
                        leave: l.event,
                        back,
                        entity,
                        attr,
                    },
                    Box::new(move || {
                        Phrase::new(
                            "while_out",
                            &[
                                ("who", &n.name(&who)),
                                ("away", to.away()),
                                ("day", &day),
                                ("changed", &changed),
                                ("thing", &n.name(&thing)),
                            ],
                        )
                    }),
                    vec![],
                );
            }
        }
        // Weekly routine: on which days they go to work or school.
        if cutoff.day > 14 {
            let tos: BTreeSet<Destination> = leaves
                .iter()
                .map(|l| l.to)
                .filter(|to| matches!(to, Destination::Work | Destination::School))
                .collect();
            for to in tos {
                let who = (*person).clone();
                push(
                    Family::Routine,
                    "out_days",
                    Query::OutDays {
                        actor: who.clone(),
                        to,
                    },
                    Box::new(move || {
                        Phrase::new(
                            "out_days",
                            &[
                                ("who", &n.name(&who)),
                                ("going", to.phrase()),
                                ("away", to.away()),
                            ],
                        )
                    }),
                    vec![],
                );
            }
        }
    }
    out
}

/// How a question says that `attr` changed: "moved", "opened or shut".
fn changed_verb(attr: &Id) -> String {
    match attr.as_str() {
        "location" => "moved".into(),
        "open" => "opened or shut".into(),
        "power" => "switched on or off".into(),
        field => format!("changed the {} of", field.replace('_', " ")),
    }
}

/// "Where is the mug?": the state of `entity.attr`, a current or hidden
/// state question by its answer ([`super::standing`] asks it once the
/// robot has seen the attribute, and not in its own hand).
pub(super) fn state_candidate<'c>(n: &'c Namer, entity: &'c Id, attr: &'c Id) -> Candidate<'c> {
    let template = match attr.as_str() {
        "location" => "where_is",
        "open" => "is_open",
        "power" => "is_on",
        _ => "device_field",
    };
    Candidate {
        family: Family::CurrentState,
        template,
        query: Query::State {
            entity: entity.clone(),
            attr: attr.clone(),
        },
        phrase: Box::new(move || {
            Phrase::new(
                template,
                &[
                    ("thing", &n.name(entity)),
                    ("field", &attr.replace('_', " ")),
                ],
            )
        }),
        options: vec![],
    }
}

/// "What was it before?": the value of `entity.attr` before the change
/// the robot saw at `p[i]`, a value the attribute took only once.
pub(super) fn before_candidate<'c>(
    ix: &'c Index,
    n: &'c Namer,
    entity: &'c Id,
    attr: &'c Id,
    p: &'c [Place],
    i: usize,
) -> Candidate<'c> {
    let change = p[i].event;
    Candidate {
        family: Family::OverwrittenState,
        template: "before_change",
        query: Query::Before {
            entity: entity.clone(),
            attr: attr.clone(),
            change,
        },
        phrase: Box::new(move || {
            let new = &p[i].value;
            let mover = ix
                .event(change)
                .filter(|e| {
                    e.changes
                        .iter()
                        .any(|ch| &ch.entity == entity && &ch.attr == attr)
                })
                .map(|e| e.actor.clone());
            let (thing, place) = (n.name(entity), n.value(attr, new));
            match (attr.as_str(), mover) {
                ("location", Some(m)) => Phrase::new(
                    "before_moved_by",
                    &[("thing", &thing), ("who", &n.name(&m)), ("place", &place)],
                ),
                ("location", None) => {
                    Phrase::new("before_moved", &[("thing", &thing), ("place", &place)])
                }
                (a, _) => Phrase::new(
                    "before_changed",
                    &[("what", &n.attribute(entity, a)), ("value", &place)],
                ),
            }
        }),
        options: vec![],
    }
}

/// The questions a claim the robot heard raises, in order: a preference
/// asks who holds it and how its holder likes it; a fact, who said it,
/// whether it was seen since and what its speaker says; a request, what
/// was asked, by when and whether it is done.
pub(super) fn heard_candidates<'c>(
    ix: &'c Index,
    n: &'c Namer,
    h: &'c Heard,
) -> Vec<Candidate<'c>> {
    let mut out = Vec::new();
    let mut push = |family, template, query, phrase: Phrasing<'c>, options| {
        out.push(Candidate::new(family, template, query, phrase, options))
    };
    let (entity, attr) = (&h.claim.entity, &h.claim.attr);
    match h.claim.mode {
        ClaimMode::Preference => {
            let Some(holder) = &h.claim.holder else {
                return vec![];
            };
            push(
                Family::Preference,
                "who_prefers",
                Query::WhoPrefers {
                    entity: entity.clone(),
                    attr: attr.clone(),
                    value: h.claim.value.clone(),
                },
                Box::new(move || {
                    Phrase::new(
                        "who_prefers",
                        &[
                            ("attr", &attr.replace('_', " ")),
                            ("thing", &n.name(entity)),
                            ("value", &n.value(attr, &h.claim.value)),
                        ],
                    )
                }),
                vec![],
            );
            push(
                Family::Preference,
                "how_likes",
                Query::Preference {
                    holder: holder.clone(),
                    entity: entity.clone(),
                    attr: attr.clone(),
                },
                Box::new(move || preference_question(n, holder, entity, attr)),
                vec![],
            );
        }
        ClaimMode::Fact => {
            let told = move || n.value(attr, &h.claim.value);
            push(
                Family::SourceAware,
                "who_said",
                Query::WhoSaid {
                    entity: entity.clone(),
                    attr: attr.clone(),
                    value: h.claim.value.clone(),
                },
                Box::new(move || {
                    Phrase::new("who_said", &[("thing", &n.name(entity)), ("told", &told())])
                }),
                vec![],
            );
            push(
                Family::SourceAware,
                "seen_or_told",
                Query::SeenOrTold {
                    claim: h.event,
                    entity: entity.clone(),
                },
                Box::new(move || {
                    Phrase::new(
                        "seen_or_told",
                        &[
                            ("who", &n.name(&h.speaker)),
                            ("thing", &n.name(entity)),
                            ("told", &told()),
                        ],
                    )
                }),
                vec![],
            );
            push(
                Family::SourceAware,
                "according_to",
                Query::AccordingTo {
                    speaker: h.speaker.clone(),
                    entity: entity.clone(),
                    attr: attr.clone(),
                },
                Box::new(move || {
                    Phrase::new(
                        "according_to",
                        &[("who", &n.name(&h.speaker)), ("thing", &n.name(entity))],
                    )
                }),
                vec![],
            );
        }
        ClaimMode::Request => {
            let by = move || n.name(&h.speaker);
            let task = move || request_phrase(n, entity, attr, &h.claim.value);
            let request = h.event;
            push(
                Family::Commitment,
                "what_asked",
                Query::Asked {
                    request,
                    entity: entity.clone(),
                },
                Box::new(move || {
                    let when = n.when(ix.event(h.event).map_or(0, |e| e.t));
                    Phrase::new(
                        "what_asked",
                        &[("when", &when), ("who", &by()), ("thing", &n.name(entity))],
                    )
                }),
                vec![],
            );
            push(
                Family::Commitment,
                "when_due",
                Query::Due {
                    request,
                    entity: entity.clone(),
                },
                Box::new(move || Phrase::new("when_due", &[("who", &by()), ("task", &task())])),
                vec![],
            );
            push(
                Family::Commitment,
                "is_done",
                Query::Status {
                    request,
                    entity: entity.clone(),
                },
                Box::new(move || Phrase::new("is_done", &[("who", &by()), ("task", &task())])),
                vec![],
            );
        }
    }
    out
}
