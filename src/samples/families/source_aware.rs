//! Source-aware: who told the robot something, whether it has seen it so
//! since or only been told, and what someone last said ("Who said the
//! keys were in the drawer?"). Standing questions of each report the robot
//! heard. They ask about the robot's own knowledge, so they have no world
//! answer.

use std::collections::BTreeSet;

use crate::generation::MemoryTarget;
use crate::ids::Id;
use crate::trace::ClaimMode;

use crate::samples::answered::{Answered, answered, unique_claim};
use crate::samples::candidates::Candidate;
use crate::samples::index::{Heard, Index};
use crate::samples::model::{Answer, Cutoff, Family, Query, Source};
use crate::samples::phrasing::{Phrase, Phrasings};
use crate::samples::text::Namer;

use super::family::{QuestionFamily, Reads, Track};
use super::reader::{Read, Reading};

pub struct SourceAware;

/// "According to what Alice last said, where is the mug?"
pub fn according_to(n: &Namer, speaker: &Id, entity: &Id) -> Phrase {
    let (who, thing) = (n.name(speaker), n.name(entity));
    Phrase::new(
        PHRASINGS,
        "according_to",
        &[("who", &who), ("thing", &thing)],
    )
}

const READINGS: &[Reading] = &[Reading {
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

/// Its question templates.
const PHRASINGS: Phrasings = &[
    (
        "who_said",
        &[
            "Who told the robot that {thing} is {told}?",
            "Who said {thing} was {told}?",
            "From whom did the robot hear that {thing} is {told}?",
            "Someone mentioned that {thing} is {told}. Who was it?",
            "Whose word is it that {thing} is {told}?",
        ],
    ),
    (
        "seen_or_told",
        &[
            "{who} said {thing} was {told}. Has the robot seen that itself since, seen otherwise, or only been told?",
            "According to {who}, {thing} was {told}. Has the robot since confirmed it, seen the opposite, or only heard it?",
            "{who} reported {thing} {told}. Did the robot see that for itself afterwards, see something different, or only hear it?",
            "{who} mentioned that {thing} was {told}. Has the robot checked with its own eyes since, seen otherwise, or only been told?",
            "The robot heard from {who} that {thing} was {told}. Seen since, seen otherwise, or only told?",
        ],
    ),
    (
        "according_to",
        &[
            "According to what {who} last said, where is {thing}?",
            "Where did {who} last say {thing} is?",
            "Going by {who}'s latest word, where is {thing}?",
            "If what {who} said most recently is right, where is {thing}?",
            "What did {who} most recently tell the robot about where {thing} is?",
        ],
    ),
];

impl QuestionFamily for SourceAware {
    fn family(&self) -> Family {
        Family::SourceAware
    }

    fn owns(&self, q: &Query) -> bool {
        matches!(
            q,
            Query::WhoSaid { .. } | Query::SeenOrTold { .. } | Query::AccordingTo { .. }
        )
    }

    fn phrasings(&self) -> Phrasings {
        PHRASINGS
    }

    fn standing(&self) -> bool {
        true
    }

    /// Who said a report heard, whether it was seen since, and what its
    /// speaker says.
    fn heard<'c>(&self, _ix: &'c Index, n: &'c Namer, h: &'c Heard) -> Vec<Candidate<'c>> {
        if h.claim.mode != ClaimMode::Fact {
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
        vec![
            Candidate::new(
                family,
                "who_said",
                who_said,
                Box::new(who_said_phrase),
                vec![],
            ),
            Candidate::new(family, "seen_or_told", seen, Box::new(seen_phrase), vec![]),
            Candidate::new(
                family,
                "according_to",
                according,
                Box::new(according_phrase),
                vec![],
            ),
        ]
    }

    fn reads(&self, q: &Query) -> Reads {
        match q {
            Query::SeenOrTold { .. } => Reads {
                seen: true,
                ..Reads::default()
            },
            _ => Reads {
                claims: true,
                ..Reads::default()
            },
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
                    .filter(|h| h.claim.value == *value)
                    .collect();
                let speakers: BTreeSet<&Id> = said.iter().map(|h| &h.speaker).collect();
                if speakers.len() != 1 {
                    return None;
                }
                let actor = said[0].speaker.clone();
                answered(Answer::Actor { actor }, said.iter().map(|h| h.event))
            }
            Query::SeenOrTold { claim, entity } => {
                let h = unique_claim(ix, c, *claim, entity)?;
                if h.claim.mode != ClaimMode::Fact {
                    return None;
                }
                let since: Vec<_> = ix
                    .seen_before(&(entity.clone(), h.claim.attr.clone()), c)
                    .iter()
                    .filter(|s| s.event > *claim)
                    .collect();
                let (source, evidence) = match since.last() {
                    None => (Source::Told, vec![*claim]),
                    Some(s) if s.value == h.claim.value => (Source::Seen, vec![*claim, s.event]),
                    Some(s) => (Source::Contradicted, vec![*claim, s.event]),
                };
                answered(Answer::Source { source }, evidence)
            }
            Query::AccordingTo {
                speaker,
                entity,
                attr,
            } => {
                let h = ix
                    .claims(ClaimMode::Fact, entity, attr, c)
                    .rev()
                    .find(|h| h.speaker == *speaker)?;
                let value = h.claim.value.clone();
                answered(Answer::Value { value }, [h.event])
            }
            _ => None,
        }
    }

    fn value_attr<'q>(&self, q: &'q Query) -> &'q str {
        match q {
            Query::AccordingTo { attr, .. } | Query::WhoSaid { attr, .. } => attr.as_str(),
            _ => "location",
        }
    }

    fn readings(&self) -> &'static [Reading] {
        READINGS
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

    fn memory_target(&self, _q: &Query) -> MemoryTarget {
        MemoryTarget::SocialContext
    }

    fn locomo_category(&self, q: &Query) -> u8 {
        if matches!(q, Query::SeenOrTold { .. }) {
            1
        } else {
            4
        }
    }

    fn lme_type(&self, _q: &Query) -> &'static str {
        "single-session-user"
    }

    fn asks_the_world(&self) -> bool {
        false
    }
}
