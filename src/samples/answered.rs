//! What every family's reference answers are made of: an [`Answer`] with
//! the events that support it, times to the minute, the rule for a habit,
//! and the one claim an utterance makes about a thing.

use std::collections::{BTreeMap, BTreeSet};

use crate::ids::Id;
use crate::trace::{ClaimMode, clock_time, day_of};

use super::index::{Heard, Index};
use super::model::{Answer, Moment};

/// A commitment counts as overdue this long after it was due.
pub const GRACE: u64 = 3600;

/// An answer with the events that support it.
#[derive(Debug, Clone, PartialEq)]
pub struct Answered {
    pub answer: Answer,
    pub evidence: Vec<u64>,
}

/// `answer` with its `evidence`, sorted and without repeats.
pub fn answered(answer: Answer, evidence: impl IntoIterator<Item = u64>) -> Option<Answered> {
    let evidence: BTreeSet<u64> = evidence.into_iter().collect();
    Some(Answered {
        answer,
        evidence: evidence.into_iter().collect(),
    })
}

pub fn time(t: u64) -> Answer {
    let Moment { t, day, time } = moment(t);
    Answer::Time {
        t,
        day,
        time,
        stale: false,
    }
}

/// `t` with its day and clock time to the minute.
pub fn moment(t: u64) -> Moment {
    Moment {
        t,
        day: day_of(t),
        time: clock_time(t)[..5].to_string(),
    }
}

/// The most common value among `(value, event)` pairs, when it is a clear
/// habit: on two or more days and at least two thirds of the occurrences.
pub fn habit<V: Ord + Clone>(ix: &Index, items: &[(V, u64)]) -> Option<(V, Vec<u64>)> {
    let mut by: BTreeMap<&V, Vec<u64>> = BTreeMap::new();
    for (v, e) in items {
        by.entry(v).or_default().push(*e);
    }
    let (v, events) = by.iter().max_by_key(|(_, es)| es.len())?;
    let ties = by.values().filter(|es| es.len() == events.len()).count();
    let days: BTreeSet<u32> = events
        .iter()
        .filter_map(|e| ix.event(*e).map(|e| e.day))
        .collect();
    (ties == 1 && days.len() >= 2 && events.len() * 3 >= items.len() * 2)
        .then(|| ((*v).clone(), events.clone()))
}

/// The value the latest claim of `mode` about `entity.attr` heard before
/// `cutoff` that `by` picks gave, with that claim's event: what someone
/// last said it is, or how they last said they like it.
pub fn last_said(
    ix: &Index,
    (mode, entity, attr): (ClaimMode, &Id, &Id),
    cutoff: u64,
    by: impl Fn(&Heard) -> bool,
) -> Option<Answered> {
    let h = ix
        .claims(mode, entity, attr, cutoff)
        .rev()
        .find(|h| by(h))?;
    let value = h.claim.value.clone();
    answered(Answer::Value { value }, [h.event])
}

/// The one claim about `entity` in the utterance `event` (heard before
/// `cutoff`); `None` when the utterance makes several, which a question
/// naming only the entity could not tell apart.
pub fn unique_claim<'a>(ix: &'a Index, cutoff: u64, event: u64, entity: &Id) -> Option<&'a Heard> {
    let mut about = ix
        .heard_in(event, cutoff)
        .iter()
        .filter(|h| h.claim.entity == *entity);
    let h = about.next()?;
    about.next().is_none().then_some(h)
}
