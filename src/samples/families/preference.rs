//! Preference: how someone said they like a setting, and who likes it
//! so ("What volume does Bob prefer on the tv?"). Standing questions of
//! each preference the robot heard; the latest word of each holder counts.

use std::collections::BTreeMap;

use crate::generation::MemoryTarget;
use crate::ids::Id;
use crate::trace::{ClaimMode, Value};

use crate::samples::answered::{Answered, answered};
use crate::samples::candidates::Candidate;
use crate::samples::index::{Heard, Index};
use crate::samples::model::{Answer, Cutoff, Family, Query};
use crate::samples::phrasing::{Phrase, Phrasings};
use crate::samples::text::Namer;

use super::family::{QuestionFamily, Reads, Track};
use super::reader::{Read, Reading};

pub struct Preference;

/// "How does `holder` like `entity.attr`?"
pub fn how_likes(holder: &Id, entity: &Id, attr: &Id) -> Query {
    Query::Preference {
        holder: holder.clone(),
        entity: entity.clone(),
        attr: attr.clone(),
    }
}

/// The question of how `holder` likes `entity.attr`, in the words of its
/// setting (a drink, a volume, a night temperature).
pub fn question(n: &Namer, holder: &Id, entity: &Id, attr: &Id) -> Phrase {
    let key = match attr.as_str() {
        "drink" => "likes_drink",
        "volume" => "likes_volume",
        "target" => "likes_night",
        _ => "likes_field",
    };
    Phrase::new(
        PHRASINGS,
        key,
        &[
            ("who", &n.name(holder)),
            ("thing", &n.name(entity)),
            ("field", &attr.replace('_', " ")),
        ],
    )
}

const READINGS: &[Reading] = &[Reading {
    rank: 90,
    cue: |r| r.has(&[" like", "prefer", " want", "favourite", " suits "]),
    parse: |r: &Read| {
        let (_, c) = r.claim(ClaimMode::Preference)?;
        Some(if r.has(&[" who ", " whose ", "which member", "someone"]) {
            Query::WhoPrefers {
                entity: c.entity,
                attr: c.attr,
                value: c.value,
            }
        } else {
            Query::Preference {
                holder: r.person.clone().or(c.holder)?,
                entity: c.entity,
                attr: c.attr,
            }
        })
    },
}];

/// Its question templates.
const PHRASINGS: Phrasings = &[
    (
        "who_prefers",
        &[
            "Who in the household likes the {attr} of {thing} to be {value}?",
            "Which member of the household prefers {thing} with its {attr} at {value}?",
            "Who wants the {attr} of {thing} set to {value}?",
            "Someone likes the {attr} of {thing} at {value}. Who is it?",
            "Whose preference is a {attr} of {value} for {thing}?",
        ],
    ),
    (
        "likes_drink",
        &[
            "What does {who} like to drink from {thing}?",
            "Which drink does {who} prefer from {thing}?",
            "When {who} uses {thing}, what drink do they want?",
            "What should {thing} make for {who}?",
            "What is {who}'s favourite drink from {thing}?",
        ],
    ),
    (
        "likes_volume",
        &[
            "At what volume does {who} like {thing}?",
            "How loud does {who} like {thing} to be?",
            "What volume does {who} prefer on {thing}?",
            "Which volume suits {who} on {thing}?",
            "What is {who}'s preferred volume for {thing}?",
        ],
    ),
    (
        "likes_night",
        &[
            "What temperature does {who} want {thing} set to at night?",
            "At night, what temperature does {who} like on {thing}?",
            "What is {who}'s preferred night-time temperature on {thing}?",
            "How warm does {who} want {thing} set overnight?",
            "Which temperature should {thing} be at night, for {who}?",
        ],
    ),
    (
        "likes_field",
        &[
            "What {field} does {who} prefer for {thing}?",
            "What {field} does {who} like {thing} to have?",
            "Which {field} would {who} choose for {thing}?",
            "What is {who}'s preferred {field} on {thing}?",
            "How does {who} like the {field} of {thing} set?",
        ],
    ),
];

impl QuestionFamily for Preference {
    fn family(&self) -> Family {
        Family::Preference
    }

    fn owns(&self, q: &Query) -> bool {
        matches!(q, Query::Preference { .. } | Query::WhoPrefers { .. })
    }

    fn phrasings(&self) -> Phrasings {
        PHRASINGS
    }

    fn standing(&self) -> bool {
        true
    }

    fn lasting(&self) -> bool {
        true
    }

    /// Who holds a preference heard, and how its holder likes it.
    fn heard<'c>(&self, _ix: &'c Index, n: &'c Namer, h: &'c Heard) -> Vec<Candidate<'c>> {
        let (entity, attr) = (&h.claim.entity, &h.claim.attr);
        let Some(holder) = h
            .claim
            .holder
            .as_ref()
            .filter(|_| h.claim.mode == ClaimMode::Preference)
        else {
            return vec![];
        };
        let who = Query::WhoPrefers {
            entity: entity.clone(),
            attr: attr.clone(),
            value: h.claim.value.clone(),
        };
        let who_phrase = move || {
            Phrase::new(
                PHRASINGS,
                "who_prefers",
                &[
                    ("attr", &attr.replace('_', " ")),
                    ("thing", &n.name(entity)),
                    ("value", &n.value(attr, &h.claim.value)),
                ],
            )
        };
        let how = how_likes(holder, entity, attr);
        let how_phrase = move || question(n, holder, entity, attr);
        vec![
            Candidate::new(
                Family::Preference,
                "who_prefers",
                who,
                Box::new(who_phrase),
                vec![],
            ),
            Candidate::new(
                Family::Preference,
                "how_likes",
                how,
                Box::new(how_phrase),
                vec![],
            ),
        ]
    }

    fn reads(&self, _q: &Query) -> Reads {
        Reads {
            claims: true,
            ..Reads::default()
        }
    }

    /// `holder` never said how they like it in the robot's hearing.
    fn unsupported(&self, ix: &Index, cutoff: u64, q: &Query) -> bool {
        match q {
            Query::Preference {
                holder,
                entity,
                attr,
            } => !ix
                .claims(ClaimMode::Preference, entity, attr, cutoff)
                .any(|h| h.claim.holder.as_ref() == Some(holder)),
            _ => false,
        }
    }

    fn answer(&self, ix: &Index, cutoff: &Cutoff, q: &Query) -> Option<Answered> {
        let c = cutoff.event;
        match q {
            Query::Preference {
                holder,
                entity,
                attr,
            } => {
                let h = ix
                    .claims(ClaimMode::Preference, entity, attr, c)
                    .rev()
                    .find(|h| h.claim.holder.as_ref() == Some(holder))?;
                let value = h.claim.value.clone();
                answered(Answer::Value { value }, [h.event])
            }
            Query::WhoPrefers {
                entity,
                attr,
                value,
            } => {
                // Each holder's latest preference for this setting.
                let mut latest: BTreeMap<&Id, (&Value, u64)> = BTreeMap::new();
                for h in ix.claims(ClaimMode::Preference, entity, attr, c) {
                    if let Some(holder) = &h.claim.holder {
                        latest.insert(holder, (&h.claim.value, h.event));
                    }
                }
                let mut who = latest.iter().filter(|(_, (v, _))| *v == value);
                let (holder, (_, event)) = who.next()?;
                if who.next().is_some() {
                    return None;
                }
                let actor = (*holder).clone();
                answered(Answer::Actor { actor }, [*event])
            }
            _ => None,
        }
    }

    fn value_attr<'q>(&self, q: &'q Query) -> &'q str {
        match q {
            Query::Preference { attr, .. } => attr.as_str(),
            _ => "location",
        }
    }

    fn readings(&self) -> &'static [Reading] {
        READINGS
    }

    fn needs<'q>(&self, q: &'q Query) -> Vec<Track<'q>> {
        match q {
            Query::Preference { entity, attr, .. } | Query::WhoPrefers { entity, attr, .. } => {
                vec![Track::Claims(entity, attr)]
            }
            _ => vec![],
        }
    }

    fn memory_target(&self, _q: &Query) -> MemoryTarget {
        MemoryTarget::Preference
    }

    fn locomo_category(&self, _q: &Query) -> u8 {
        4
    }

    fn lme_type(&self, _q: &Query) -> &'static str {
        "single-session-preference"
    }
}
