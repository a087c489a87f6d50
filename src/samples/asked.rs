//! What makes two samples the same question: the miner asks no question
//! twice with the same answer.

use std::hash::{Hash, Hasher};

use super::families;
use super::model::{Answer, Cutoff, Family, Query};

/// A question asked with its answer, compared exactly: the bytes `Hash`
/// gives of the query, the answer and the day, kept whole (each part's
/// bytes end where the next begins, as strings end in a byte no text
/// has and lists start with their length), not hashed to a number.
/// Made for every candidate tried, so made without writing JSON. Two are
/// equal where the JSON was, but for floats: 0.0 and -0.0 are one key (two
/// in JSON) and NaNs keep their bits (`null` in JSON); a household's values
/// have neither. The bytes are the standard library's, for this process
/// only: a key is never written out.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AskKey(Box<[u8]>);

/// The bytes a value's `Hash` writes.
struct Bytes(Vec<u8>);

impl Hasher for Bytes {
    fn write(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }

    fn finish(&self) -> u64 {
        unreachable!("the bytes are the key")
    }
}

/// The ask key of `q` answered `a` at `cutoff` in `family`: the query and
/// its answer, and for knowledge that lasts (preferences, habits, what was
/// overwritten) also the day, so that it is asked again at longer
/// retention.
pub fn ask_key(q: &Query, a: &Answer, family: Family, cutoff: &Cutoff) -> AskKey {
    let day = if families::of(family).lasting {
        cutoff.day
    } else {
        0
    };
    key_of(q, a, day)
}

/// The ask key of a false premise `q` (not known at any cutoff): an
/// unanswerable question is asked once whatever the day, so its key is
/// made once and kept while it stays a candidate.
pub fn unanswerable_key(q: &Query) -> AskKey {
    debug_assert!(!families::of(Family::Unanswerable).lasting);
    key_of(q, &Answer::Unknown, 0)
}

fn key_of(q: &Query, a: &Answer, day: u32) -> AskKey {
    let mut key = Bytes(Vec::with_capacity(128));
    (q, a, day).hash(&mut key);
    AskKey(key.0.into_boxed_slice())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::Id;
    use crate::samples::model::{Act, Source};
    use crate::trace::{Location, Value};

    fn cutoff(day: u32) -> Cutoff {
        Cutoff {
            event: 10,
            t: 100,
            day,
            time: "08:00".into(),
        }
    }

    /// The key the miner made before: the JSON of the query and the answer,
    /// and the day.
    fn json(q: &Query, a: &Answer, family: Family, cutoff: &Cutoff) -> String {
        let day = if families::of(family).lasting {
            cutoff.day
        } else {
            0
        };
        format!(
            "{}|{}|{day}",
            serde_json::to_string(q).unwrap(),
            serde_json::to_string(a).unwrap()
        )
    }

    #[test]
    fn two_keys_are_one_exactly_when_their_json_is() {
        let id = |s: &str| Id::new(s);
        let act = |skill: &'static str, object: Option<&str>| Act {
            skill: skill.into(),
            object: object.map(id),
            target: None,
            field: None,
            value: None,
        };
        let state = |e: &str| Query::State {
            entity: id(e),
            attr: id("location"),
        };
        let value = |v: Value| Answer::Value { value: v };
        // Near misses: a text split elsewhere, nothing against something,
        // a whole number against a float, a text against a place, the same
        // act asked of its time and of its count.
        let queries = [
            state("mug_1"),
            state("mug_11"),
            state("mug_1"),
            Query::LastTime {
                actor: id("ab"),
                act: act("c", None),
            },
            Query::LastTime {
                actor: id("a"),
                act: act("bc", None),
            },
            Query::LastTime {
                actor: id("a"),
                act: act("b", Some("c")),
            },
            Query::Count {
                actor: None,
                act: act("b", Some("c")),
                day: 3,
            },
            Query::Count {
                actor: Some(id("a")),
                act: act("b", Some("c")),
                day: 3,
            },
            Query::StillHave {
                kind: "milk".into(),
            },
        ];
        let answers = [
            value(Value::Int(1)),
            value(Value::Float(1.0)),
            value(Value::Text("fridge".into())),
            value(Value::Location(Location::In(id("fridge")))),
            Answer::Count { count: 1 },
            Answer::Source {
                source: Source::Seen,
            },
            Answer::Unknown,
        ];
        let mut keys = vec![];
        for q in &queries {
            for a in &answers {
                for family in [Family::CurrentState, Family::Preference] {
                    for day in [1, 2] {
                        let c = cutoff(day);
                        keys.push((ask_key(q, a, family, &c), json(q, a, family, &c)));
                    }
                }
            }
        }
        let (mut same, mut apart) = (0, 0);
        for (k, j) in &keys {
            for (k2, j2) in &keys {
                assert_eq!(k == k2, j == j2, "{j} against {j2}");
                if j == j2 { same += 1 } else { apart += 1 }
            }
        }
        // The repeated query and the days of a family that does not keep
        // them make pairs that are one; most are apart.
        assert!(
            same > keys.len() && apart > same,
            "{same} same, {apart} apart"
        );
    }
}
