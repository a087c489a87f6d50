//! The question families in one table, in [`Family::ALL`]'s order: a
//! family is its module and its line here. What is asked of a family goes
//! through [`of`] (by a sample's family) or [`owner`] (by a query).

use std::sync::OnceLock;

use crate::samples::model::{Answer, Family, Query};
use crate::samples::text::Namer;

use super::commitment::Commitment;
use super::counting::Counting;
use super::current_state::CurrentState;
use super::family::QuestionFamily;
use super::hidden_state::HiddenState;
use super::overwritten_state::OverwrittenState;
use super::preference::Preference;
use super::presence::Presence;
use super::reader::{Read, Reading};
use super::routine::Routine;
use super::source_aware::SourceAware;
use super::temporal::Temporal;
use super::unanswerable::Unanswerable;

/// The table. Mining draws the families' candidates, and asks for one
/// question of each, in this order.
pub static FAMILIES: [&dyn QuestionFamily; 11] = [
    &CurrentState,
    &OverwrittenState,
    &Temporal,
    &Preference,
    &Routine,
    &SourceAware,
    &HiddenState,
    &Commitment,
    &Counting,
    &Presence,
    &Unanswerable,
];

/// The family `family`'s entry.
pub fn of(family: Family) -> &'static dyn QuestionFamily {
    FAMILIES[Family::ALL
        .iter()
        .position(|f| *f == family)
        .expect("every family is in Family::ALL")]
}

/// The family whose question `q` is.
pub fn owner(q: &Query) -> &'static dyn QuestionFamily {
    FAMILIES
        .into_iter()
        .find(|f| f.owns(q))
        .expect("every query has its family (tested)")
}

/// An answer to `q` in words: what every built-in reader says, and the
/// exports' gold.
pub fn answer_text(n: &Namer, q: &Query, a: &Answer, options: &[String]) -> String {
    owner(q).answer_text(n, q, a, options)
}

/// The phrasings of question template `key` (none for an unknown key).
pub fn questions(key: &str) -> &'static [&'static str] {
    FAMILIES
        .iter()
        .flat_map(|f| f.phrasings().iter())
        .find(|(k, _)| *k == key)
        .map_or(&[], |(_, ways)| ways)
}

/// Every question template key, family by family.
pub fn question_keys() -> impl Iterator<Item = &'static str> {
    FAMILIES
        .into_iter()
        .flat_map(|f| f.phrasings().iter().map(|(k, _)| *k))
}

/// What the words-only reader takes `r` to ask: by the first reading, in
/// rank order, whose cue the question has.
pub fn read(r: &Read) -> Option<Query> {
    static RANKED: OnceLock<Vec<Reading>> = OnceLock::new();
    let ranked = RANKED.get_or_init(|| {
        let mut all: Vec<Reading> = FAMILIES
            .iter()
            .flat_map(|f| f.readings())
            .copied()
            .collect();
        all.sort_by_key(|r| r.rank);
        all
    });
    let reading = ranked.iter().find(|x| (x.cue)(r))?;
    (reading.parse)(r)
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    use super::*;
    use crate::ids::Id;
    use crate::samples::model::Act;
    use crate::samples::phrasing::fill;
    use crate::trace::Value;
    use crate::trace::request::Destination;

    /// One query of every variant: a variant added to [`Query`] without
    /// one here does not compile (the match), nor pass (the table test).
    fn one_of_each() -> Vec<Query> {
        let (e, a) = (Id::new("mug_1"), Id::new("location"));
        let act = Act {
            skill: "open".into(),
            object: None,
            target: Some(Id::new("fridge_1")),
            field: None,
            value: None,
        };
        let all = vec![
            Query::State {
                entity: e.clone(),
                attr: a.clone(),
            },
            Query::Before {
                entity: e.clone(),
                attr: a.clone(),
                change: 3,
            },
            Query::LastTime {
                actor: e.clone(),
                act: act.clone(),
            },
            Query::First {
                a_actor: e.clone(),
                a: act.clone(),
                b_actor: e.clone(),
                b: act.clone(),
            },
            Query::Next { event: 3 },
            Query::Preference {
                holder: e.clone(),
                entity: e.clone(),
                attr: a.clone(),
            },
            Query::UsualValue {
                actor: e.clone(),
                device: e.clone(),
                field: a.clone(),
            },
            Query::UsualPlace { object: e.clone() },
            Query::UsualActor {
                device: e.clone(),
                field: a.clone(),
                value: Value::Int(1),
            },
            Query::WhoPrefers {
                entity: e.clone(),
                attr: a.clone(),
                value: Value::Int(1),
            },
            Query::UsualHour {
                actor: e.clone(),
                act: act.clone(),
            },
            Query::WhoSaid {
                entity: e.clone(),
                attr: a.clone(),
                value: Value::Int(1),
            },
            Query::SeenOrTold {
                claim: 3,
                entity: e.clone(),
            },
            Query::AccordingTo {
                speaker: e.clone(),
                entity: e.clone(),
                attr: a.clone(),
            },
            Query::Asked {
                request: 3,
                entity: e.clone(),
            },
            Query::Due {
                request: 3,
                entity: e.clone(),
            },
            Query::Status {
                request: 3,
                entity: e.clone(),
            },
            Query::Count {
                actor: None,
                act,
                day: 1,
            },
            Query::WhoHome { event: 3 },
            Query::OutDays {
                actor: e.clone(),
                to: Destination::Work,
            },
            Query::WhileOut {
                person: e.clone(),
                leave: 3,
                back: 4,
                entity: e,
                attr: a,
            },
        ];
        for q in &all {
            match q {
                Query::State { .. }
                | Query::Before { .. }
                | Query::LastTime { .. }
                | Query::First { .. }
                | Query::Next { .. }
                | Query::Preference { .. }
                | Query::UsualValue { .. }
                | Query::UsualPlace { .. }
                | Query::UsualActor { .. }
                | Query::WhoPrefers { .. }
                | Query::UsualHour { .. }
                | Query::WhoSaid { .. }
                | Query::SeenOrTold { .. }
                | Query::AccordingTo { .. }
                | Query::Asked { .. }
                | Query::Due { .. }
                | Query::Status { .. }
                | Query::Count { .. }
                | Query::WhoHome { .. }
                | Query::OutDays { .. }
                | Query::WhileOut { .. } => {}
            }
        }
        all
    }

    /// The query kind's name on the wire (`"q"`).
    fn kind(q: &Query) -> String {
        serde_json::to_value(q).unwrap()["q"]
            .as_str()
            .unwrap()
            .to_string()
    }

    #[test]
    fn the_table_holds_every_family_once_and_every_query_has_one_family() {
        // Family by family, in the enum's order, each once.
        let families: Vec<Family> = FAMILIES.iter().map(|f| f.family()).collect();
        assert_eq!(families, Family::ALL.to_vec());
        for f in Family::ALL {
            assert_eq!(of(f).family(), f);
        }
        // Every variant has exactly one owner, and every variant a family
        // owns is a variant (no owner claims a kind twice over).
        let all = one_of_each();
        let kinds: BTreeSet<String> = all.iter().map(kind).collect();
        assert_eq!(kinds.len(), all.len(), "one example of each variant");
        let mut owned: BTreeMap<String, Vec<Family>> = BTreeMap::new();
        for q in &all {
            for f in FAMILIES {
                if f.owns(q) {
                    owned.entry(kind(q)).or_default().push(f.family());
                }
            }
        }
        for k in &kinds {
            assert_eq!(
                owned.get(k).map(Vec::len),
                Some(1),
                "{k}: {:?}",
                owned.get(k)
            );
        }
        for q in &all {
            assert_eq!(owner(q).family(), owned[&kind(q)][0]);
        }
    }

    #[test]
    fn every_template_is_one_familys_with_five_distinct_well_formed_phrasings() {
        let keys: Vec<&str> = question_keys().collect();
        let distinct: BTreeSet<&str> = keys.iter().copied().collect();
        assert_eq!(distinct.len(), keys.len(), "a template key in two families");
        for key in keys {
            let ways = questions(key);
            assert!(ways.len() >= 5, "{key}: {} phrasings", ways.len());
            let distinct: BTreeSet<&&str> = ways.iter().collect();
            assert_eq!(distinct.len(), ways.len(), "{key}: a phrasing repeats");
            // A template's slots are those its phrasings use; the miner
            // fills them all (the samples tests find no brace in a question).
            let slots = |t: &str| -> BTreeSet<String> {
                t.split('{')
                    .skip(1)
                    .filter_map(|s| s.split_once('}').map(|(k, _)| k.to_string()))
                    .collect()
            };
            let want: BTreeSet<String> = ways.iter().flat_map(|w| slots(w)).collect();
            for w in ways {
                assert!(!slots(w).is_empty(), "{key}: {w:?} names nothing");
                let slots: Vec<(&str, String)> =
                    want.iter().map(|k| (k.as_str(), "x".to_string())).collect();
                let filled = fill(w, &slots);
                assert!(!filled.contains('{') && !filled.contains('}'), "{filled}");
            }
        }
        assert!(questions("no_such_template").is_empty());
    }

    #[test]
    fn the_readings_have_an_order() {
        let ranks: Vec<u8> = FAMILIES
            .iter()
            .flat_map(|f| f.readings())
            .map(|r| r.rank)
            .collect();
        let distinct: BTreeSet<u8> = ranks.iter().copied().collect();
        assert_eq!(distinct.len(), ranks.len(), "two readings share a rank");
    }
}
