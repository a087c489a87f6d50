//! Reference answers: a [`Query`] answered from the indexes at a cutoff by
//! the family it belongs to ([`super::families::owner`]). Mining and the
//! validity checks both call [`answer`]; the checks call it again on the
//! trace cut at the cutoff, so no answer can use the future. And how
//! answers are compared: [`calibrated`].

// Bevy's maps hash with a fixed foldhash, cheaper than std's SipHash on
// these keys; they are only looked up, never iterated into output.
use bevy::platform::collections::HashMap;

use crate::ids::Id;
use crate::trace::Value;

use super::families::owner;
use super::index::Index;
use super::model::{Answer, Cutoff, Query};
pub use super::model::{Certainty, certainty};

pub use super::answered::{Answered, GRACE, habit, moment, time};

/// Answers to habit questions kept across cutoffs, for a sweep through a
/// trace: a habit is answered again only when its events grew (see
/// [`super::families::QuestionFamily::basis`]), not from the whole past at
/// every cutoff.
#[derive(Default)]
pub struct Memo(HashMap<MemoKey, (usize, Option<Answered>)>);

/// A habit's key: its ids where they are all it has (a place, a person's
/// setting), its JSON where it holds a value, which has no hash.
#[derive(PartialEq, Eq, Hash)]
enum MemoKey {
    Place(Id),
    Setting(Id, Id, Id),
    Other(String),
}

impl MemoKey {
    fn of(q: &Query) -> Self {
        match q {
            Query::UsualPlace { object } => MemoKey::Place(object.clone()),
            Query::UsualValue {
                actor,
                device,
                field,
            } => MemoKey::Setting(actor.clone(), device.clone(), field.clone()),
            _ => MemoKey::Other(serde_json::to_string(q).unwrap_or_default()),
        }
    }
}

impl Memo {
    /// As [`answer`], at cutoffs that never go back.
    pub fn answer(&mut self, ix: &Index, cutoff: &Cutoff, q: &Query) -> Option<Answered> {
        let Some(n) = owner(q).entry.basis(ix, q, cutoff.event) else {
            return answer(ix, cutoff, q);
        };
        let key = MemoKey::of(q);
        if let Some((m, a)) = self.0.get(&key)
            && *m == n
        {
            return a.clone();
        }
        let a = answer(ix, cutoff, q);
        self.0.insert(key, (n, a.clone()));
        a
    }
}

/// Whether nothing the robot perceived before `cutoff` bears on `q`, for
/// the queries an unanswerable question takes: a state never seen nor
/// told of, a claim or preference the person never made in its hearing, an
/// act never seen done by that person. Other queries are never
/// unanswerable (their answer may still be unsettled: `None`).
pub fn unsupported(ix: &Index, cutoff: u64, q: &Query) -> bool {
    owner(q).entry.unsupported(ix, cutoff, q)
}

/// The reference answer to `q` at `cutoff`, from `ix`: [`Answer::Unknown`]
/// when nothing the robot perceived before the cutoff bears on it
/// ([`unsupported`]); `None` when its history bears on it but does not
/// settle it.
pub fn answer(ix: &Index, cutoff: &Cutoff, q: &Query) -> Option<Answered> {
    owner(q).entry.reference(ix, cutoff, q)
}

/// Whether `a` is the calibrated `reference`: the same answer
/// ([`same_answer`]) said as surely, no more and no less.
pub fn calibrated(a: &Answer, reference: &Answer) -> bool {
    same_answer(a, reference) && certainty(a) == certainty(reference)
}

/// Whether two answers agree as scored, whatever their staleness: state
/// values, times to the minute, people; everything else exactly.
pub fn same_answer(a: &Answer, b: &Answer) -> bool {
    let value = |x: &Answer| match x {
        Answer::Value { value } | Answer::LastSeen { value, .. } => Some(value.clone()),
        _ => None,
    };
    match (a, b) {
        (
            Answer::Time {
                day: d1, time: t1, ..
            },
            Answer::Time {
                day: d2, time: t2, ..
            },
        ) => d1 == d2 && t1 == t2,
        (Answer::Actor { actor: x, .. }, Answer::Actor { actor: y, .. }) => x == y,
        _ => match (value(a), value(b)) {
            (Some(x), Some(y)) => same_value(&x, &y),
            (None, None) => a == b,
            _ => false,
        },
    }
}

fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Int(x), Value::Float(y)) | (Value::Float(y), Value::Int(x)) => {
            (*x as f64 - y).abs() < 1e-9
        }
        _ => a == b,
    }
}
