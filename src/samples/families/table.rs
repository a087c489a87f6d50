//! The question families in one table, in [`Family::ALL`]'s order, the
//! way `generation::kinds` registers session kinds: each family's line
//! says what it is (the kinds of [`Query`] it asks, its templates and
//! readings, how it is mined, its export tags), and its module's entry
//! does the rest. A family is its module and its line here. What is asked
//! of a family goes through [`of`] (by a sample's family) or [`owner`] (by
//! a query).

use std::sync::OnceLock;

use crate::generation::MemoryTarget;
use crate::samples::model::{Answer, Family, Query};
use crate::samples::phrasing::Phrasings;
use crate::samples::text::Namer;

use super::beliefs::{self, Beliefs};
use super::commitment::{self, Commitment};
use super::counting::{self, Counting};
use super::current_state::{self, CurrentState};
use super::family::QuestionFamily;
use super::hidden_state::{self, HiddenState};
use super::overwritten_state::{self, OverwrittenState};
use super::preference::{self, Preference};
use super::presence::{self, Presence};
use super::reader::{Read, Reading};
use super::routine::{self, Routine};
use super::source_aware::{self, SourceAware};
use super::stock::{self, Stock};
use super::temporal::{self, Temporal};
use super::unanswerable::{self, Unanswerable};
use super::upkeep::{self, Upkeep};

use MemoryTarget::*;

/// A family's line: what it is; [`Row::entry`] does what it does.
pub struct Row {
    pub family: Family,
    pub entry: &'static dyn QuestionFamily,
    /// The kinds of [`Query`] it asks ([`Query::kind`]).
    pub queries: &'static [&'static str],
    pub phrasings: Phrasings,
    /// How the words-only reader tells its questions from their words.
    pub readings: &'static [Reading],
    /// Whether its candidates are standing questions, kept from cutoff to
    /// cutoff (`samples::standing`), rather than drawn at each cutoff.
    pub standing: bool,
    /// Whether what it asks lasts (preferences, habits, what was
    /// overwritten): the same question with the same answer is asked again
    /// on a later day, at a longer retention.
    pub lasting: bool,
    /// Whether it asks about the household (it has a world answer), not
    /// about the robot's own knowledge.
    pub world: bool,
    /// What its questions exercise (the sample's `memory_target`).
    pub memory_target: MemoryTarget,
    /// LoCoMo's category of its questions whose answer is known.
    pub locomo_category: u8,
    /// LongMemEval's question type.
    pub lme_type: &'static str,
}

/// The table. Mining draws the families' candidates, and asks for one
/// question of each, in this order.
pub static FAMILIES: [Row; 14] = [
    Row {
        family: Family::CurrentState,
        entry: &CurrentState,
        queries: current_state::QUERIES,
        phrasings: current_state::PHRASINGS,
        readings: current_state::READINGS,
        standing: true,
        lasting: false,
        world: true,
        memory_target: DeviceState,
        locomo_category: 4,
        lme_type: "knowledge-update",
    },
    Row {
        family: Family::OverwrittenState,
        entry: &OverwrittenState,
        queries: overwritten_state::QUERIES,
        phrasings: overwritten_state::PHRASINGS,
        readings: overwritten_state::READINGS,
        standing: true,
        lasting: true,
        world: true,
        memory_target: TemporalState,
        locomo_category: 1,
        lme_type: "knowledge-update",
    },
    Row {
        family: Family::Temporal,
        entry: &Temporal,
        queries: temporal::QUERIES,
        phrasings: temporal::PHRASINGS,
        readings: temporal::READINGS,
        standing: false,
        lasting: false,
        world: true,
        memory_target: TemporalState,
        locomo_category: 2,
        lme_type: "temporal-reasoning",
    },
    Row {
        family: Family::Preference,
        entry: &Preference,
        queries: preference::QUERIES,
        phrasings: preference::PHRASINGS,
        readings: preference::READINGS,
        standing: true,
        lasting: true,
        world: true,
        memory_target: MemoryTarget::Preference,
        locomo_category: 4,
        lme_type: "single-session-preference",
    },
    Row {
        family: Family::Routine,
        entry: &Routine,
        queries: routine::QUERIES,
        phrasings: routine::PHRASINGS,
        readings: routine::READINGS,
        standing: false,
        lasting: true,
        world: true,
        memory_target: MemoryTarget::Routine,
        locomo_category: 1,
        lme_type: "multi-session",
    },
    Row {
        family: Family::SourceAware,
        entry: &SourceAware,
        queries: source_aware::QUERIES,
        phrasings: source_aware::PHRASINGS,
        readings: source_aware::READINGS,
        standing: true,
        lasting: false,
        world: false,
        memory_target: SocialContext,
        locomo_category: 4,
        lme_type: "single-session-user",
    },
    Row {
        family: Family::HiddenState,
        entry: &HiddenState,
        queries: hidden_state::QUERIES,
        phrasings: hidden_state::PHRASINGS,
        readings: hidden_state::READINGS,
        standing: true,
        lasting: false,
        world: true,
        memory_target: MemoryTarget::HiddenState,
        locomo_category: 1,
        lme_type: "knowledge-update",
    },
    Row {
        family: Family::Commitment,
        entry: &Commitment,
        queries: commitment::QUERIES,
        phrasings: commitment::PHRASINGS,
        readings: commitment::READINGS,
        standing: true,
        lasting: false,
        world: true,
        memory_target: PlanningDependency,
        locomo_category: 4,
        lme_type: "temporal-reasoning",
    },
    Row {
        family: Family::Counting,
        entry: &Counting,
        queries: counting::QUERIES,
        phrasings: counting::PHRASINGS,
        readings: counting::READINGS,
        standing: false,
        lasting: false,
        world: true,
        memory_target: TemporalState,
        locomo_category: 1,
        lme_type: "multi-session",
    },
    Row {
        family: Family::Presence,
        entry: &Presence,
        queries: presence::QUERIES,
        phrasings: presence::PHRASINGS,
        readings: presence::READINGS,
        standing: false,
        lasting: false,
        world: true,
        memory_target: TemporalState,
        locomo_category: 4,
        lme_type: "multi-session",
    },
    Row {
        family: Family::Beliefs,
        entry: &Beliefs,
        queries: beliefs::QUERIES,
        phrasings: beliefs::PHRASINGS,
        readings: beliefs::READINGS,
        standing: false,
        lasting: true,
        world: true,
        memory_target: SocialContext,
        locomo_category: 1,
        lme_type: "multi-session",
    },
    Row {
        family: Family::Upkeep,
        entry: &Upkeep,
        queries: upkeep::QUERIES,
        phrasings: upkeep::PHRASINGS,
        readings: upkeep::READINGS,
        standing: false,
        lasting: false,
        world: true,
        memory_target: DeviceState,
        locomo_category: 2,
        lme_type: "temporal-reasoning",
    },
    Row {
        family: Family::Stock,
        entry: &Stock,
        queries: stock::QUERIES,
        phrasings: stock::PHRASINGS,
        readings: stock::READINGS,
        standing: false,
        lasting: false,
        world: true,
        memory_target: TemporalState,
        locomo_category: 2,
        lme_type: "temporal-reasoning",
    },
    Row {
        family: Family::Unanswerable,
        entry: &Unanswerable,
        queries: unanswerable::QUERIES,
        phrasings: unanswerable::PHRASINGS,
        readings: unanswerable::READINGS,
        standing: false,
        lasting: false,
        world: false,
        memory_target: TemporalState,
        // Its answer is never known: the adversarial category.
        locomo_category: 5,
        lme_type: "knowledge-update",
    },
];

impl Row {
    /// What `q`, one of its questions, exercises.
    pub fn memory_target_of(&self, q: &Query) -> MemoryTarget {
        self.entry.memory_target(q).unwrap_or(self.memory_target)
    }

    /// LoCoMo's category of `q`, one of its questions whose answer is known.
    pub fn locomo_category_of(&self, q: &Query) -> u8 {
        self.entry
            .locomo_category(q)
            .unwrap_or(self.locomo_category)
    }

    /// LongMemEval's type of `q`, one of its questions.
    pub fn lme_type_of(&self, q: &Query) -> &'static str {
        self.entry.lme_type(q).unwrap_or(self.lme_type)
    }
}

/// The family `family`'s line.
pub fn of(family: Family) -> &'static Row {
    FAMILIES
        .iter()
        .find(|r| r.family == family)
        .expect("every family has its line (tested)")
}

/// The line of the family whose question `q` is.
pub fn owner(q: &Query) -> &'static Row {
    let kind = q.kind();
    FAMILIES
        .iter()
        .find(|r| r.queries.contains(&kind))
        .expect("every kind of query has its family (tested)")
}

/// An answer to `q` in words: what every built-in reader says, and the
/// exports' gold.
pub fn answer_text(n: &Namer, q: &Query, a: &Answer, options: &[String]) -> String {
    owner(q).entry.answer_text(n, q, a, options)
}

/// The phrasings of question template `key` (none for an unknown key).
pub fn questions(key: &str) -> &'static [&'static str] {
    FAMILIES
        .iter()
        .flat_map(|r| r.phrasings.iter())
        .find(|(k, _)| *k == key)
        .map_or(&[], |(_, ways)| ways)
}

/// Every question template key, family by family.
pub fn question_keys() -> impl Iterator<Item = &'static str> {
    FAMILIES
        .iter()
        .flat_map(|r| r.phrasings.iter().map(|(k, _)| *k))
}

/// What the words-only reader takes `r` to ask: by the first reading, in
/// rank order, whose cue the question has.
pub fn read(r: &Read) -> Option<Query> {
    static RANKED: OnceLock<Vec<Reading>> = OnceLock::new();
    let ranked = RANKED.get_or_init(|| {
        let mut all: Vec<Reading> = FAMILIES.iter().flat_map(|f| f.readings).copied().collect();
        all.sort_by_key(|r| r.rank);
        all
    });
    let reading = ranked.iter().find(|x| (x.cue)(r))?;
    (reading.parse)(r)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

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
            Query::WhoSaw { event: 3 },
            Query::BrokenSince {
                device: Id::new("tv_1"),
            },
            Query::LastBought {
                kind: "milk".into(),
            },
            Query::LastThrownOut {
                kind: "bread".into(),
            },
            Query::StillHave {
                kind: "milk".into(),
            },
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
                entity: e.clone(),
                attr: a.clone(),
            },
            Query::Thinks {
                person: e.clone(),
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
                | Query::WhileOut { .. }
                | Query::Thinks { .. }
                | Query::WhoSaw { .. }
                | Query::BrokenSince { .. }
                | Query::LastBought { .. }
                | Query::LastThrownOut { .. }
                | Query::StillHave { .. } => {}
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
    fn the_table_holds_every_family_once_and_every_query_kind_once() {
        // Family by family, in the enum's order, each once.
        let families: Vec<Family> = FAMILIES.iter().map(|r| r.family).collect();
        assert_eq!(families, Family::ALL.to_vec());
        for f in Family::ALL {
            assert_eq!(of(f).family, f);
        }
        // Every kind of query is asked by exactly one family, under its
        // name on the wire; and every kind a family asks is a kind.
        let all = one_of_each();
        let kinds: BTreeSet<String> = all.iter().map(kind).collect();
        assert_eq!(kinds.len(), all.len(), "one example of each variant");
        for q in &all {
            assert_eq!(q.kind(), kind(q));
            let askers: Vec<Family> = FAMILIES
                .iter()
                .filter(|r| r.queries.contains(&q.kind()))
                .map(|r| r.family)
                .collect();
            assert_eq!(askers, vec![owner(q).family], "{}", q.kind());
        }
        let listed: Vec<&str> = FAMILIES.iter().flat_map(|r| r.queries).copied().collect();
        let listed_once: BTreeSet<String> = listed.iter().map(|k| k.to_string()).collect();
        assert_eq!(listed.len(), listed_once.len(), "a kind listed twice");
        assert_eq!(listed_once, kinds, "kinds the table lists that are none");
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
            .flat_map(|f| f.readings)
            .map(|r| r.rank)
            .collect();
        let distinct: BTreeSet<u8> = ranks.iter().copied().collect();
        assert_eq!(distinct.len(), ranks.len(), "two readings share a rank");
    }
}
