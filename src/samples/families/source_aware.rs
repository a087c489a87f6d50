//! Source-aware: who told the robot something, whether it has seen it so
//! since or only been told, and what someone last said ("Who said the
//! keys were in the drawer?"). Standing questions of each report the robot
//! heard. They ask about the robot's own knowledge, so they have no world
//! answer.

mod phrasings;

use std::collections::BTreeSet;

use crate::ids::Id;
use crate::trace::{ClaimMode, Location, Value};

use crate::samples::answered::{Answered, answered, last_said, unique_claim};
use crate::samples::candidates::Candidate;
use crate::samples::index::{Heard, Index, Seen};
use crate::samples::model::{Answer, Cutoff, Family, Query, Source};
use crate::samples::phrasing::Phrase;
use crate::samples::text::Namer;

use super::family::{QuestionFamily, Reads, Track};
use super::reader::{Read, Reading};

pub use phrasings::PHRASINGS;

pub struct SourceAware;

/// The kinds of query it asks.
pub const QUERIES: &[&str] = &["who_said", "seen_or_told", "according_to"];

/// Whether "where is it, by their word?" ([`according_to`]) can be asked
/// of a claim about `attr`: of a place only, not of a device said to be
/// broken or working again.
pub fn asks_according_to(attr: &Id) -> bool {
    attr.as_str() == "location"
}

/// "According to what Alice last said, where is the mug?"
pub fn according_to(n: &Namer, speaker: &Id, entity: &Id) -> Phrase {
    let (who, thing) = (n.name(speaker), n.name(entity));
    Phrase::new(
        PHRASINGS,
        "according_to",
        &[("who", &who), ("thing", &thing)],
    )
}

pub const READINGS: &[Reading] = &[Reading {
    rank: 70,
    cue: |r| {
        r.has(&[
            " told ",
            " said ",
            " say ",
            "mention",
            "according",
            "report",
            " word ",
            " hear",
        ])
    },
    parse: |r: &Read| {
        let (event, c) = r.claim(ClaimMode::Fact)?;
        Some(
            if r.has(&[" seen ", "confirm", " eyes ", " see ", "for itself"]) {
                Query::SeenOrTold {
                    claim: event,
                    entity: c.entity,
                }
            } else if r.has(&[" who ", " whom ", " whose "]) {
                Query::WhoSaid {
                    entity: c.entity,
                    attr: c.attr,
                    value: c.value,
                }
            } else {
                Query::AccordingTo {
                    speaker: r.person.clone()?,
                    entity: r.thing.clone().unwrap_or(c.entity),
                    attr: c.attr,
                }
            },
        )
    },
}];

impl QuestionFamily for SourceAware {
    /// Who said a report heard, whether it was seen since, and what its
    /// speaker says.
    fn heard<'c>(&self, ix: &'c Index, n: &'c Namer, h: &'c Heard) -> Vec<Candidate<'c>> {
        // The robot's own words are not something it was told.
        if h.claim.mode != ClaimMode::Fact || h.speaker == ix.robot {
            return vec![];
        }
        // "In the nightstand", of a room with two: the words do not say
        // which, so neither can an answer.
        if let Value::Location(Location::On(f) | Location::In(f)) = &h.claim.value
            && n.shares_kind_in_room(f)
        {
            return vec![];
        }
        let (entity, attr) = (&h.claim.entity, &h.claim.attr);
        let told = move || n.value(attr, &h.claim.value);
        let who_said = Query::WhoSaid {
            entity: entity.clone(),
            attr: attr.clone(),
            value: h.claim.value.clone(),
        };
        let who_said_phrase = move || {
            let thing = n.name(entity);
            Phrase::new(
                PHRASINGS,
                "who_said",
                &[("thing", &thing), ("told", &told())],
            )
        };
        let seen = Query::SeenOrTold {
            claim: h.event,
            entity: entity.clone(),
        };
        let seen_phrase = move || {
            Phrase::new(
                PHRASINGS,
                "seen_or_told",
                &[
                    ("who", &n.name(&h.speaker)),
                    ("thing", &n.name(entity)),
                    ("told", &told()),
                ],
            )
        };
        let according = Query::AccordingTo {
            speaker: h.speaker.clone(),
            entity: entity.clone(),
            attr: attr.clone(),
        };
        let according_phrase = move || according_to(n, &h.speaker, entity);
        let family = Family::SourceAware;
        let mut out = vec![
            Candidate::new(family, "who_said", who_said, Box::new(who_said_phrase)),
            Candidate::new(family, "seen_or_told", seen, Box::new(seen_phrase)),
        ];
        if asks_according_to(attr) {
            out.push(Candidate::new(
                family,
                "according_to",
                according,
                Box::new(according_phrase),
            ));
        }
        out
    }

    fn reads(&self, q: &Query) -> Reads {
        match q {
            Query::SeenOrTold { .. } => Reads {
                seen: true,
                ..Reads::default()
            },
            _ => Reads::CLAIMS,
        }
    }

    /// `speaker` never told the robot about it.
    fn unsupported(&self, ix: &Index, cutoff: u64, q: &Query) -> bool {
        match q {
            Query::AccordingTo {
                speaker,
                entity,
                attr,
            } => !ix
                .claims(ClaimMode::Fact, entity, attr, cutoff)
                .any(|h| h.speaker == *speaker),
            _ => false,
        }
    }

    fn answer(&self, ix: &Index, cutoff: &Cutoff, q: &Query) -> Option<Answered> {
        let c = cutoff.event;
        match q {
            Query::WhoSaid {
                entity,
                attr,
                value,
            } => {
                let said: Vec<_> = ix
                    .claims(ClaimMode::Fact, entity, attr, c)
                    .filter(|h| h.claim.value == *value && h.speaker != ix.robot)
                    .collect();
                let speakers: BTreeSet<&Id> = said.iter().map(|h| &h.speaker).collect();
                if speakers.len() != 1 {
                    return None;
                }
                let actor = said[0].speaker.clone();
                answered(
                    Answer::Actor {
                        actor,
                        stale: false,
                    },
                    said.iter().map(|h| h.event),
                )
            }
            Query::SeenOrTold { claim, entity } => {
                let h = unique_claim(ix, c, *claim, entity)?;
                if h.claim.mode != ClaimMode::Fact {
                    return None;
                }
                let key = (entity.clone(), h.claim.attr.clone());
                let seen = ix.seen_before(&key, c);
                // Not asked where the robot saw it so itself, still in
                // view when told: "only told" would be false.
                let before = seen[..seen.partition_point(|s| s.event < *claim)].last();
                if before.is_some_and(|s| s.value == h.claim.value && ix.current(&key, s, *claim)) {
                    return None;
                }
                let since: Vec<_> = seen.iter().filter(|s| s.event > *claim).collect();
                let so = |s: &&Seen| s.value == h.claim.value;
                let (source, evidence) = match since.last() {
                    None => (Source::Told, vec![*claim]),
                    Some(s) if since.iter().all(so) => (Source::Seen, vec![*claim, s.event]),
                    Some(s) if !since.iter().any(so) => {
                        (Source::Contradicted, vec![*claim, s.event])
                    }
                    // Seen so and seen otherwise since (it was there,
                    // then moved): "seen since" and "seen otherwise" are
                    // both true, and the question has no one answer.
                    Some(_) => return None,
                };
                answered(Answer::Source { source }, evidence)
            }
            Query::AccordingTo {
                speaker,
                entity,
                attr,
            } => last_said(ix, (ClaimMode::Fact, entity, attr), c, |h| {
                h.speaker == *speaker
            }),
            _ => None,
        }
    }

    fn needs<'q>(&self, q: &'q Query) -> Vec<Track<'q>> {
        match q {
            Query::WhoSaid { entity, attr, .. } | Query::AccordingTo { entity, attr, .. } => {
                vec![Track::Claims(entity, attr)]
            }
            // What was said, and what was seen of it since: nothing
            // before the claim bears on it.
            Query::SeenOrTold { claim, entity } => {
                vec![Track::Event(*claim), Track::SeenSince(entity, *claim)]
            }
            _ => vec![],
        }
    }

    /// Whether a report was seen since takes both: multi-hop.
    fn locomo_category(&self, q: &Query) -> Option<u8> {
        matches!(q, Query::SeenOrTold { .. }).then_some(1)
    }
}
