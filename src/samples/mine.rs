//! Mining Memory-QA samples: at each cutoff (the start of a session), the
//! candidate questions of every family that the robot's history settles,
//! one chosen per family with the seeded RNG, worded from templates.

use std::collections::BTreeSet;

// Bevy's maps hash with a fixed foldhash, cheaper than std's SipHash on
// these keys; they are only looked up, never iterated into output.
use bevy::platform::collections::{HashMap, HashSet};
use std::io::Write;

use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::generation::MemoryTarget;
use crate::ids::Id;
use crate::trace::request::Action;
use crate::trace::{ClaimMode, Event, Location, Value, clock_time};

use super::answer::{Answered, Memo, act_of, answer, moment};
use super::index::{Heard, Index, Place};
use super::model::*;
use super::phrasing::{Phrase, questions};
use super::standing::{self, Standing};
use super::text::{Namer, capital};
use super::unanswerable::{Sources, Sweep, Unanswerable, absent_variants, unseen_at_start};

/// Mixed into the seed for the phrasing stream.
const PHRASING_STREAM: u64 = 0x7068_7261_7365;

/// Mixed into the seed for the unanswerable family's choices and
/// phrasings: streams of their own, so that adding the family changed no
/// other family's questions.
/// The share of QA samples that are unanswerable (at most; as LongMemEval
/// has 6% abstention questions and LoCoMo 22% adversarial ones).
pub const UNANSWERABLE_SHARE: (usize, usize) = (1, 10);

const UNANSWERABLE_STREAM: u64 = 0x0061_6273_7461_696e;
const UNANSWERABLE_WORDS: u64 = 0x6162_7377_6f72_6473;

/// Sessions at the start of a trace with too little history to ask about.
const WARM_UP_SESSIONS: usize = 3;

/// The cutoffs: the first event of every session after the warm-up.
pub fn cutoffs(ix: &Index) -> Vec<Cutoff> {
    let mut out = Vec::new();
    let mut last: Option<&str> = None;
    let mut sessions = 0;
    for e in ix.events {
        if e.session.as_deref() != last {
            last = e.session.as_deref();
            sessions += 1;
            if sessions > WARM_UP_SESSIONS {
                out.push(cutoff_at(e));
            }
        }
    }
    out
}

pub fn cutoff_at(e: &Event) -> Cutoff {
    Cutoff {
        event: e.id,
        t: e.t,
        day: e.day,
        time: clock_time(e.t),
    }
}

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
struct Tally<'k> {
    /// Key → (times, position in the acts of its first time).
    counts: HashMap<&'k str, (u32, usize)>,
    /// Positions of the acts whose key occurred once so far, in order.
    unique: BTreeSet<usize>,
    /// Acts counted so far.
    upto: usize,
}

impl<'k> Tally<'k> {
    fn advance(&mut self, keys: &'k [String], upto: usize) {
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
struct Acts<'a, 'k> {
    acts: &'k [(&'a Event, &'a Act)],
    keys: &'k [String],
    tally: &'k Tally<'k>,
}

/// Mines QA samples at every cutoff: at most one per family per cutoff,
/// never the same question with the same answer twice; each with its world
/// answer ([`super::world`]).
pub fn mine_qa(ix: &Index, seed: u64, ask: Asking) -> Vec<QaSample> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // A stream of its own, so that the wording never changes which
    // questions are asked.
    let mut words = ChaCha8Rng::seed_from_u64(seed ^ PHRASING_STREAM);
    let namer = Namer::new(ix.scene);
    // Only looked up: a hash set, as its long keys share long prefixes.
    let mut asked: HashSet<String> = HashSet::new();
    let mut out = Vec::new();
    let humans = humans(ix);
    let everything = Index::all_seeing(ix.scene, ix.events, ix.tables.initial.clone());
    let household = ask == Asking::Household;
    // Where acts and habits are drawn from: what the robot perceived, or
    // everything that happened.
    let drawn = if household { &everything } else { ix };
    let firsts = Firsts::new(drawn, &humans);
    let all_acts: Vec<(&Event, &Act)> = drawn.acts(u64::MAX).collect();
    let mut world_memo = Memo::default();
    let keys: Vec<String> = all_acts.iter().map(|(e, a)| act_key(e, a)).collect();
    let mut tally = Tally::default();
    let mut memo = Memo::default();
    let mut abstain = ChaCha8Rng::seed_from_u64(seed ^ UNANSWERABLE_STREAM);
    let mut abstain_words = ChaCha8Rng::seed_from_u64(seed ^ UNANSWERABLE_WORDS);
    let absent = absent_variants(ix.scene);
    let unseen_at_start = unseen_at_start(ix);
    let sources = Sources {
        absent: &absent,
        unseen_at_start: &unseen_at_start,
        humans: &humans,
    };
    // Unanswerable samples are numbered apart (`u0001_abs`), so that the
    // other families keep their ids.
    let (mut answerable, mut unanswerable) = (0, 0);
    let mut standing = Standing::new(ix, &namer, household.then_some(&unseen_at_start[..]));
    let mut sweep = Sweep::default();
    for cutoff in cutoffs(ix) {
        let upto = all_acts.partition_point(|(e, _)| e.id < cutoff.event);
        tally.advance(&keys, upto);
        let acts = Acts {
            acts: &all_acts[..upto],
            keys: &keys[..upto],
            tally: &tally,
        };
        standing.advance(&cutoff, &asked);
        let candidates = candidates(ix, &namer, &firsts, &cutoff, &acts, &mut rng);
        // Each candidate answered once: its answer, family and key.
        let mut answers: Vec<Option<Found>> = (0..candidates.len()).map(|_| None).collect();
        for family in Family::ALL {
            let (chosen, a) = if standing::standing(family) {
                // Asked of the household, the state questions of a cutoff
                // are two draws among all of them, so stale and unknown
                // answers come as often as the robot missed the changes.
                let open = standing.open(family);
                if open.is_empty() {
                    continue;
                }
                let (c, entry) = open[rng.random_range(0..open.len())];
                // Only answered entries are open.
                let Some((a, fam)) = standing.found(entry).cloned() else {
                    continue;
                };
                let chosen = Chosen::new(c, fam, &mut words);
                standing.asked(entry);
                (chosen, a)
            } else {
                let mut of_family: Vec<usize> = Vec::new();
                for (i, c) in candidates.iter().enumerate() {
                    if c.family != family {
                        continue;
                    }
                    let found = answers[i].get_or_insert_with(|| {
                        let a = memo.answer(ix, &cutoff, &c.query)?;
                        // Asked of the household, what happened out of the
                        // robot's sight, where nothing it perceived bears
                        // on it, is not known, if an observer of every
                        // event knows it (never a choice between two: that
                        // would invite a guess).
                        if a.answer == Answer::Unknown
                            && (!household
                                || !c.options.is_empty()
                                || !world_memo
                                    .answer(&everything, &cutoff, &c.query)
                                    .is_some_and(|w| w.answer != Answer::Unknown))
                        {
                            return None;
                        }
                        let key = ask_key(&c.query, &a.answer, c.family, &cutoff);
                        Some((a, key))
                    });
                    if found.as_ref().is_some_and(|(_, key)| !asked.contains(key)) {
                        of_family.push(i);
                    }
                }
                if of_family.is_empty() {
                    continue;
                }
                let i = of_family[rng.random_range(0..of_family.len())];
                // Only answered candidates were listed.
                let Some(Some((a, _))) = answers[i].clone() else {
                    continue;
                };
                (Chosen::new(&candidates[i], family, &mut words), a)
            };
            asked.insert(ask_key(&chosen.query, &a.answer, chosen.family, &cutoff));
            answerable += 1;
            // The robot missed it (asked of the household): an abstention
            // question, as LongMemEval marks them.
            let missed = a.answer == Answer::Unknown;
            let id = format!("q{answerable:04}{}", if missed { "_abs" } else { "" });
            let mut s = sample(ix, &namer, &cutoff, chosen, a, id);
            if missed {
                s.hedge = Some(MISSED.into());
            }
            out.push(s);
        }
        // An unanswerable question where that keeps them at most
        // UNANSWERABLE_SHARE of the questions so far: a kind drawn among
        // those with a candidate not asked yet, then one of its candidates.
        let (num, den) = UNANSWERABLE_SHARE;
        if (unanswerable + 1) * den > (answerable + unanswerable + 1) * num {
            continue;
        }
        let open: Vec<Vec<(Unanswerable, Query, String)>> = sweep
            .candidates(ix, &sources, cutoff.event)
            .into_iter()
            .map(|kind| {
                kind.into_iter()
                    .filter_map(|u| {
                        let q = u.query(&sources);
                        let key = ask_key(&q, &Answer::Unknown, Family::Unanswerable, &cutoff);
                        (!asked.contains(&key)).then_some((u, q, key))
                    })
                    .collect::<Vec<_>>()
            })
            .filter(|k| !k.is_empty())
            .collect();
        let Some(kind) = open.choose(&mut abstain) else {
            continue;
        };
        let (u, q, key) = &kind[abstain.random_range(0..kind.len())];
        let Some(a) = answer(ix, &cutoff, q).filter(|a| a.answer == Answer::Unknown) else {
            continue;
        };
        let w = u.word(ix, &namer, &sources, cutoff.event);
        asked.insert(key.clone());
        standing.asked_elsewhere(q);
        unanswerable += 1;
        let phrasing = abstain_words.random_range(0..questions(w.phrase.key).len());
        let mut s = sample(
            ix,
            &namer,
            &cutoff,
            Chosen {
                family: Family::Unanswerable,
                template: w.template,
                query: q.clone(),
                phrase: w.phrase,
                phrasing,
                options: vec![],
            },
            a,
            format!("u{unanswerable:04}_abs"),
        );
        s.hedge = Some(w.why);
        s.adversarial_answer = (!w.adversarial.is_empty()).then_some(w.adversarial);
        out.push(s);
    }
    super::world::settle(&everything, &namer, &mut out);
    out
}

/// Why a household question the robot missed is not known.
pub const MISSED: &str = "The robot did not see or hear anything that settles it.";

/// A candidate's answer and its ask key; `None` when the history does
/// not settle it.
type Found = Option<(Answered, String)>;

/// The key of an (actor, act) pair.
fn act_key(e: &Event, act: &Act) -> String {
    serde_json::to_string(&(&e.actor, act)).unwrap_or_default()
}

/// The candidate chosen, worded.
struct Chosen {
    family: Family,
    template: &'static str,
    query: Query,
    phrase: Phrase,
    phrasing: usize,
    options: Vec<String>,
}

impl Chosen {
    /// `c`, asked as a question of `family`, worded with the next of `words`.
    fn new(c: &Candidate, family: Family, words: &mut ChaCha8Rng) -> Self {
        let phrase = (c.phrase)();
        Chosen {
            family,
            template: c.template,
            query: c.query.clone(),
            phrasing: words.random_range(0..questions(phrase.key).len()),
            phrase,
            options: c.options.clone(),
        }
    }
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

fn sample(
    ix: &Index,
    namer: &Namer,
    cutoff: &Cutoff,
    c: Chosen,
    a: Answered,
    id: String,
) -> QaSample {
    let phrasing = c.phrasing;
    let sessions: BTreeSet<String> = a
        .evidence
        .iter()
        .filter_map(|e| ix.session_of(*e).map(String::from))
        .collect();
    QaSample {
        id,
        family: c.family,
        memory_target: memory_target(&c.query, c.family),
        template: format!("{}/{}", c.family.name(), c.template),
        phrasing,
        cutoff: cutoff.clone(),
        answer_text: answer_text(namer, &c.query, &a.answer, &c.options),
        hedge: hedge(namer, &a.answer),
        answer_time: answer_time(ix, &c.query, &a.answer),
        adversarial_answer: None,
        question: c.phrase.render(phrasing),
        template_question: None,
        options: c.options,
        query: c.query,
        answer: a.answer,
        world: None,
        evidence_age: evidence_age(ix, &a.evidence, cutoff),
        evidence: a.evidence,
        sessions: sessions.into_iter().collect(),
    }
}

/// Seconds from the latest of `evidence` to `cutoff`.
pub fn evidence_age(ix: &Index, evidence: &[u64], cutoff: &Cutoff) -> Option<u64> {
    let latest = evidence
        .iter()
        .filter_map(|e| ix.event(*e))
        .map(|e| e.t)
        .max()?;
    Some(cutoff.t.saturating_sub(latest))
}

fn memory_target(q: &Query, family: Family) -> MemoryTarget {
    match (family, q) {
        // What the question would ask about if it could be answered.
        (Family::Unanswerable, Query::State { .. }) => memory_target(q, Family::CurrentState),
        (Family::Unanswerable, Query::AccordingTo { .. }) => MemoryTarget::SocialContext,
        (Family::Unanswerable, Query::Preference { .. }) => MemoryTarget::Preference,
        (Family::Unanswerable, _) => MemoryTarget::TemporalState,
        (Family::HiddenState, _) => MemoryTarget::HiddenState,
        (Family::CurrentState, Query::State { attr, .. }) if attr.as_str() == "location" => {
            MemoryTarget::ObjectLocation
        }
        (Family::CurrentState, _) => MemoryTarget::DeviceState,
        (Family::OverwrittenState | Family::Temporal | Family::Counting, _) => {
            MemoryTarget::TemporalState
        }
        (Family::Preference, _) => MemoryTarget::Preference,
        (Family::Routine, _) => MemoryTarget::Routine,
        (Family::SourceAware, _) => MemoryTarget::SocialContext,
        (Family::Commitment, _) => MemoryTarget::PlanningDependency,
    }
}

/// The form of a verb phrase.
#[derive(Clone, Copy, PartialEq)]
pub enum Tense {
    /// "open the fridge"
    Base,
    /// "opened the fridge"
    Past,
    /// "opens the fridge"
    Third,
}

/// "Alice opened the fridge", "Bob set the volume of the tv to 25".
pub fn act_phrase(n: &Namer, actor: &Id, act: &Act) -> String {
    format!("{} {}", n.name(actor), verb_phrase(n, act, Tense::Past))
}

/// An [`Act`] in words.
pub fn verb_phrase(n: &Namer, act: &Act, tense: Tense) -> String {
    let name = |i: &Option<Id>| i.as_ref().map(|i| n.name(i)).unwrap_or_default();
    let (o, t) = (name(&act.object), name(&act.target));
    let v = |base: &str, past: &str, third: &str| match tense {
        Tense::Base => base.to_string(),
        Tense::Past => past.to_string(),
        Tense::Third => third.to_string(),
    };
    match (act.skill.as_str(), &act.value) {
        ("open", _) => format!("{} {t}", v("open", "opened", "opens")),
        ("close", _) => format!("{} {t}", v("close", "closed", "closes")),
        ("pick", _) => format!("{} {o}", v("pick up", "picked up", "picks up")),
        ("place", Some(Value::Location(l))) => {
            format!("{} {o} {}", v("put", "put", "puts"), n.location(l))
        }
        ("handoff", _) => format!("{} {o} to {t}", v("hand", "handed", "hands")),
        ("set_device_state", value) => {
            let field = act.field.as_ref().map(|f| f.as_str()).unwrap_or("");
            match (field, value) {
                ("power", Some(Value::Bool(on))) => format!(
                    "{} {t} {}",
                    v("switch", "switched", "switches"),
                    if *on { "on" } else { "off" }
                ),
                (f, Some(val)) => format!(
                    "{} the {} of {t} to {val}",
                    v("set", "set", "sets"),
                    f.replace('_', " ")
                ),
                (f, None) => format!(
                    "{} the {} of {t}",
                    v("change", "changed", "changes"),
                    f.replace('_', " ")
                ),
            }
        }
        (s, _) => format!("{} {o}{t}", s.replace('_', " ")),
    }
}

/// The events that first give a routine key (a person's device setting, a
/// device value, an object's place) or an hour key (a person's act), over
/// the whole trace. The keys' first events before any cutoff are these
/// events before it, so each cutoff looks at them, not at all its past.
struct Firsts<'a> {
    routine: Vec<&'a Event>,
    hours: Vec<(&'a Event, &'a Act)>,
}

impl<'a> Firsts<'a> {
    fn new(ix: &'a Index, humans: &BTreeSet<&Id>) -> Self {
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

fn humans<'a>(ix: &'a Index) -> BTreeSet<&'a Id> {
    ix.scene
        .actors
        .iter()
        .filter(|a| a.kind == crate::scene::ActorKind::Human)
        .map(|a| &a.id)
        .collect()
}

/// Every question the robot's history might settle at `cutoff`, unanswered.
fn candidates<'c>(
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
    let unique: Vec<&(&Event, &Act)> = acts.tally.unique.iter().map(|&i| &acts.acts[i]).collect();
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
    out
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

pub(super) fn preference_question(n: &Namer, holder: &Id, entity: &Id, attr: &Id) -> Phrase {
    let key = match attr.as_str() {
        "drink" => "likes_drink",
        "volume" => "likes_volume",
        "target" => "likes_night",
        _ => "likes_field",
    };
    Phrase::new(
        key,
        &[
            ("who", &n.name(holder)),
            ("thing", &n.name(entity)),
            ("field", &attr.replace('_', " ")),
        ],
    )
}

/// "put the white shirt in the wardrobe", "switch the washing machine off".
pub fn request_phrase(n: &Namer, entity: &Id, attr: &Id, value: &Value) -> String {
    match (attr.as_str(), value) {
        ("location", Value::Location(Location::HeldBy(a))) => {
            format!("bring {} to {}", n.name(entity), n.name(a))
        }
        ("location", v) => format!("put {} {}", n.name(entity), n.value("location", v)),
        ("power", Value::Bool(on)) => {
            format!(
                "switch {} {}",
                n.name(entity),
                if *on { "on" } else { "off" }
            )
        }
        (f, v) => format!(
            "set the {} of {} to {v}",
            f.replace('_', " "),
            n.name(entity)
        ),
    }
}

/// The reference answer in words.
pub fn answer_text(n: &Namer, q: &Query, a: &Answer, options: &[String]) -> String {
    let attr = match q {
        Query::State { attr, .. }
        | Query::Before { attr, .. }
        | Query::Preference { attr, .. }
        | Query::AccordingTo { attr, .. }
        | Query::WhoSaid { attr, .. } => attr.as_str(),
        Query::UsualValue { field, .. } => field.as_str(),
        _ => "location",
    };
    match a {
        Answer::Value {
            value: Value::Int(h),
        } if matches!(q, Query::UsualHour { .. }) => {
            format!("Around {h:02}:00.")
        }
        Answer::Value { value } => capital(&n.value(attr, value)) + ".",
        // Stale or not, the value in the same words: when it was seen is
        // the hedge's, not the answer's.
        Answer::LastSeen { value, .. } => capital(&n.value(attr, value)) + ".",
        Answer::Time { t, .. } => capital(&n.when(*t)) + ".",
        Answer::Actor { actor } => format!("{}.", capital(&n.name(actor))),
        Answer::Action { skill, target } => {
            let t = target.as_ref().map(|t| n.name(t)).unwrap_or_default();
            match skill.as_str() {
                "navigate_to" => format!("Went to {t}."),
                "inspect" => format!("Looked at {t}."),
                s => capital(&format!("{} {t}.", s.replace('_', " "))),
            }
        }
        Answer::Choice { option } => {
            let i = usize::from(option == "B");
            format!("({option}) {}.", options.get(i).map_or("", String::as_str))
        }
        Answer::Source { source } => match source {
            Source::Seen => "The robot has seen it so itself since.".into(),
            Source::Contradicted => {
                "The robot has since seen otherwise: the report is wrong or out of date.".into()
            }
            Source::Told => "The robot was only told; it has not seen it since.".into(),
        },
        Answer::Count { count } => format!("{count}."),
        Answer::Status { status } => match status {
            Progress::Done => "Done.".into(),
            Progress::Pending => "Still to do; it is not due yet.".into(),
            Progress::Overdue => "Overdue: it was due and has not been seen done.".into(),
        },
        Answer::Unknown => UNKNOWN_TEXT.into(),
    }
}

/// What qualifies an answer, apart from its words: when a stale state
/// was last seen.
pub fn hedge(n: &Namer, a: &Answer) -> Option<String> {
    match a {
        Answer::LastSeen { seen_at, .. } => Some(format!(
            "Last seen {}; it may have changed since.",
            n.when(*seen_at)
        )),
        _ => None,
    }
}

/// The moment an answer refers to besides itself: when a stale state was
/// last seen, when a request is due.
fn answer_time(ix: &Index, q: &Query, a: &Answer) -> Option<Moment> {
    let t = match (q, a) {
        (_, Answer::LastSeen { seen_at, .. }) => *seen_at,
        (Query::Asked { request, entity }, _) => {
            ix.heard_in(*request, u64::MAX)
                .iter()
                .find(|h| h.claim.entity == *entity)?
                .claim
                .due?
        }
        _ => return None,
    };
    Some(moment(t))
}
