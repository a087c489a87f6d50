//! Preference: how someone said they like a setting, and who likes it
//! so ("What volume does Bob prefer on the tv?"). Standing questions of
//! each preference the robot heard; the latest word of each holder counts.

mod phrasings;

use std::collections::BTreeMap;

use crate::ids::Id;
use crate::trace::{ClaimMode, Value};

use crate::samples::answered::{Answered, answered, last_said};
use crate::samples::candidates::{Candidate, shared_home};
use crate::samples::index::{Heard, Index};
use crate::samples::model::{Answer, Cutoff, Family, Query};
use crate::samples::phrasing::Phrase;
use crate::samples::text::Namer;
use crate::samples::text::field_words;

use super::family::{QuestionFamily, Reads, Track};
use super::reader::{Read, Reading};

pub use phrasings::PHRASINGS;

pub struct Preference;

/// The kinds of query it asks.
pub const QUERIES: &[&str] = &["preference", "who_prefers"];

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
            ("field", &field_words(attr)),
        ],
    )
}

pub const READINGS: &[Reading] = &[Reading {
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

impl QuestionFamily for Preference {
    /// Who holds a preference heard, and how its holder likes it.
    fn heard<'c>(&self, ix: &'c Index, n: &'c Namer, h: &'c Heard) -> Vec<Candidate<'c>> {
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
            // A drink is named, not called the value of a field.
            let key = match attr.as_str() {
                "drink" => "who_prefers_drink",
                _ => "who_prefers",
            };
            Phrase::new(
                PHRASINGS,
                key,
                &[
                    ("attr", &field_words(attr)),
                    ("thing", &n.name(entity)),
                    ("value", &n.value(attr, &h.claim.value)),
                ],
            )
        };
        let how = how_likes(holder, entity, attr);
        let how_phrase = move || question(n, holder, entity, attr);
        let mut out = vec![Candidate::new(
            Family::Preference,
            "how_likes",
            how,
            Box::new(how_phrase),
        )];
        if shared_home(ix) {
            let c = Candidate::new(Family::Preference, "who_prefers", who, Box::new(who_phrase));
            out.insert(0, c);
        }
        out
    }

    fn reads(&self, _q: &Query) -> Reads {
        Reads::CLAIMS
    }

    /// `holder` never said how they like it in the robot's hearing.
    fn unsupported(&self, ix: &Index, cutoff: u64, q: &Query) -> bool {
        let Query::Preference {
            holder,
            entity,
            attr,
        } = q
        else {
            return false;
        };
        let mut said = ix.claims(ClaimMode::Preference, entity, attr, cutoff);
        !said.any(|h| h.claim.holder.as_ref() == Some(holder))
    }

    fn answer(&self, ix: &Index, cutoff: &Cutoff, q: &Query) -> Option<Answered> {
        match q {
            Query::Preference {
                holder,
                entity,
                attr,
            } => last_said(
                ix,
                (ClaimMode::Preference, entity, attr),
                cutoff.event,
                |h| h.claim.holder.as_ref() == Some(holder),
            ),
            Query::WhoPrefers {
                entity,
                attr,
                value,
            } => {
                // Each holder's latest preference for this setting.
                let mut latest: BTreeMap<&Id, (&Value, u64)> = BTreeMap::new();
                for h in ix.claims(ClaimMode::Preference, entity, attr, cutoff.event) {
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
                answered(
                    Answer::Actor {
                        actor,
                        stale: false,
                    },
                    [*event],
                )
            }
            _ => None,
        }
    }

    fn needs<'q>(&self, q: &'q Query) -> Vec<Track<'q>> {
        match q {
            Query::Preference { entity, attr, .. } | Query::WhoPrefers { entity, attr, .. } => {
                vec![Track::Claims(entity, attr)]
            }
            _ => vec![],
        }
    }
}
