//! Commitment: what someone asked the robot to do, by when, and whether
//! it is done ("Bob asked the robot to switch the washing machine off. Is
//! it done?"). Standing questions of each request the robot heard; whether
//! it is done changes with what the robot sees and with the time.

mod phrasings;

use crate::ids::Id;
use crate::trace::ClaimMode;
use crate::trace::request::Action;

use crate::samples::answered::{Answered, GRACE, answered, time, unique_claim};
use crate::samples::candidates::Candidate;
use crate::samples::index::{Heard, Index};
use crate::samples::model::{Answer, Cutoff, Family, Progress, Query};
use crate::samples::phrasing::Phrase;
use crate::samples::text::{Namer, plural, says_time};
use crate::samples::wording::answer_words;
use crate::samples::wording::{request_phrase, says_value};
use crate::trace::{Location, Value};

use super::family::{QuestionFamily, Reads, Track};
use super::reader::{Read, Reading};

pub use phrasings::PHRASINGS;

pub struct Commitment;

/// The kinds of query it asks.
pub const QUERIES: &[&str] = &["asked", "due", "status"];

/// "What was asked at `request` about `entity`?"
pub fn asked(request: u64, entity: &Id) -> Query {
    Query::Asked {
        request,
        entity: entity.clone(),
    }
}

/// The request and entity a commitment question is about.
fn request_of(q: &Query) -> Option<(u64, &Id)> {
    match q {
        Query::Asked { request, entity }
        | Query::Due { request, entity }
        | Query::Status { request, entity } => Some((*request, entity)),
        _ => None,
    }
}

/// Whether the words of utterance `event` say time `t`.
fn said_time(ix: &Index, event: u64, t: u64) -> bool {
    ix.event(event)
        .is_some_and(|e| matches!(&e.action, Action::Say { text, .. } if says_time(text, t)))
}

/// Whether the words of request `h` name the value it asks for (see
/// [`says_value`]).
pub fn said(ix: &Index, n: &Namer, h: &Heard) -> bool {
    ix.event(h.event).is_some_and(|e| {
        matches!(&e.action, Action::Say { text, .. }
            if says_value(n, text, &h.speaker, h.claim.attr.as_str(), &h.claim.value))
    })
}

pub const READINGS: &[Reading] = &[Reading {
    rank: 60,
    cue: |r| r.has(&[" ask", "request", "deadline", " the robot to "]),
    parse: |r: &Read| {
        let (request, c) = r.claim(ClaimMode::Request)?;
        let entity = c.entity;
        Some(
            if r.has(&[" done ", "pending", "overdue", " late ", " stand "]) {
                Query::Status { request, entity }
            } else if r.has(&["by when", "deadline", "what time", "how soon", " when "]) {
                Query::Due { request, entity }
            } else {
                Query::Asked { request, entity }
            },
        )
    },
}];

impl QuestionFamily for Commitment {
    /// What a request heard asked, by when, and whether it is done.
    fn heard<'c>(&self, ix: &'c Index, n: &'c Namer, h: &'c Heard) -> Vec<Candidate<'c>> {
        if h.claim.mode != ClaimMode::Request {
            return vec![];
        }
        let (entity, attr) = (&h.claim.entity, &h.claim.attr);
        let by = move || n.name(&h.speaker);
        // "Put the clothes away" asks for each piece where it lives: what
        // was asked is no question then (its gold would be a place nobody
        // said), and the task is said as asked.
        let said = said(ix, n, h);
        let task = move || request_phrase(n, entity, attr, &h.claim.value, said);
        let request = h.event;
        let what_phrase = move || {
            let when = n.when(ix.event(h.event).map_or(0, |e| e.t));
            let slots = [("when", &when), ("who", &by()), ("thing", &n.name(entity))];
            Phrase::new(
                PHRASINGS,
                "what_asked",
                &slots.map(|(k, v)| (k, v.as_str())),
            )
        };
        let due_phrase =
            move || Phrase::new(PHRASINGS, "when_due", &[("who", &by()), ("task", &task())]);
        let done_phrase =
            move || Phrase::new(PHRASINGS, "is_done", &[("who", &by()), ("task", &task())]);
        let entity = entity.clone();
        let due = Query::Due {
            request,
            entity: entity.clone(),
        };
        let status = Query::Status {
            request,
            entity: entity.clone(),
        };
        let family = Family::Commitment;
        let what = said.then(|| {
            Candidate::new(
                family,
                "what_asked",
                asked(request, &entity),
                Box::new(what_phrase),
            )
        });
        what.into_iter()
            .chain([
                Candidate::new(family, "when_due", due, Box::new(due_phrase)),
                Candidate::new(family, "is_done", status, Box::new(done_phrase)),
            ])
            .collect()
    }

    /// Whether a request is done reads what the robot saw of its
    /// attribute, and the time (it falls due, then overdue).
    fn reads(&self, q: &Query) -> Reads {
        let status = matches!(q, Query::Status { .. });
        Reads {
            seen: status,
            due: status,
            ..Reads::default()
        }
    }

    /// Done is for good: the first sight of the value asked for, after
    /// the request, stays the first (a month's requests of the same
    /// thermostat are not answered again at every sight of it).
    fn lasts(&self, q: &Query, a: &Answer) -> bool {
        matches!(
            (q, a),
            (
                Query::Status { .. },
                Answer::Status {
                    status: Progress::Done
                }
            )
        )
    }

    fn answer(&self, ix: &Index, cutoff: &Cutoff, q: &Query) -> Option<Answered> {
        let c = cutoff.event;
        let (request, entity) = request_of(q)?;
        let h =
            unique_claim(ix, c, request, entity).filter(|h| h.claim.mode == ClaimMode::Request)?;
        let due = h.claim.due?;
        match q {
            Query::Asked { .. } => {
                let value = h.claim.value.clone();
                answered(Answer::Value { value }, [h.event])
            }
            // Only a time the request said: "after dinner" has a due the
            // script keeps, not one anyone heard.
            Query::Due { .. } if said_time(ix, h.event, due) => answered(time(due), [h.event]),
            Query::Due { .. } => None,
            _ => {
                let key = (entity.clone(), h.claim.attr.clone());
                let seen = ix.seen_before(&key, c);
                // Asked for what the robot last saw hold already: done
                // before anyone did anything, which no one would call done.
                let before = seen.partition_point(|s| s.event < h.event);
                if before > 0 && seen[before - 1].value == h.claim.value {
                    return None;
                }
                let done = seen[before..]
                    .iter()
                    .find(|s| s.event > h.event && s.value == h.claim.value);
                let (status, evidence) = match done {
                    Some(s) => (Progress::Done, vec![h.event, s.event]),
                    None if cutoff.t < due => (Progress::Pending, vec![h.event]),
                    // Late only past a time the request said: "after
                    // dinner" is still to do, or late, by whom you ask.
                    None if cutoff.t >= due + GRACE && said_time(ix, h.event, due) => {
                        (Progress::Overdue, vec![h.event])
                    }
                    None => return None,
                };
                answered(Answer::Status { status }, evidence)
            }
        }
    }

    /// What was asked, said as the asking: "Set it to quick.", "Bring them
    /// to Bob.", not the bare value ("Quick.").
    fn answer_text(&self, n: &Namer, q: &Query, a: &Answer, options: &[String]) -> String {
        let (Query::Asked { entity, .. }, Answer::Value { value }) = (q, a) else {
            return answer_words(n, "location", a, options);
        };
        let it = if plural(&n.name(entity)) {
            "them"
        } else {
            "it"
        };
        match value {
            Value::Location(Location::HeldBy(who)) => format!("Bring {it} to {}.", n.name(who)),
            Value::Location(l) => format!("Put {it} {}.", n.location(l)),
            Value::Bool(on) => format!("Switch {it} {}.", if *on { "on" } else { "off" }),
            v => format!("Set {it} to {}.", n.value("", v)),
        }
    }

    /// What was asked refers to when it is due, where the request said
    /// when: "after dinner" keeps a due nobody heard.
    fn answer_time(&self, ix: &Index, q: &Query) -> Option<u64> {
        let Query::Asked { request, entity } = q else {
            return None;
        };
        let due = ix
            .heard_in(*request, u64::MAX)
            .iter()
            .find(|h| h.claim.entity == *entity)?
            .claim
            .due?;
        said_time(ix, *request, due).then_some(due)
    }

    fn needs<'q>(&self, q: &'q Query) -> Vec<Track<'q>> {
        let Some((request, entity)) = request_of(q) else {
            return vec![];
        };
        vec![
            Track::Event(request),
            Track::RequestsSince(entity, request),
            Track::SeenSince(entity, request),
        ]
    }

    /// By when is temporal; whether it is done, multi-hop.
    fn locomo_category(&self, q: &Query) -> Option<u8> {
        match q {
            Query::Due { .. } => Some(2),
            Query::Status { .. } => Some(1),
            _ => None,
        }
    }
}
