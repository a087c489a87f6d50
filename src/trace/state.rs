//! The world's state as a trace describes it: the value of every
//! (entity, attribute), and how an event changes it. Playback, the viewer,
//! the miner and the evaluator all read state through this one type;
//! [`crate::sim::initial_state`] gives it before the first event.

use std::collections::BTreeMap;
use std::ops::{Deref, DerefMut};

use crate::ids::Id;

use super::event::Event;
use super::value::Value;

/// An attribute of an entity: (entity, attribute), e.g. (mug_1, location).
pub type Key = (Id, Id);

/// A device's health: absent until the device first breaks (`find_broken`),
/// so that a trace without a breakdown reads as it always did; absent reads
/// as false (working).
pub const BROKEN: &str = "broken";

/// A used-up thing's servings left (`Value::Int`, from the catalogue's
/// `servings` down to 0): absent until it is first `use`d, read as full.
pub const LEVEL: &str = "level";

/// What is written on a writable thing (`Value::Text`; the shopping list:
/// kinds, comma-separated): absent until it is first written, read as
/// blank.
pub const TEXT: &str = "text";

/// The entries of a list as written (`"milk, bread"`), in order.
pub fn listed(text: &str) -> impl Iterator<Item = &str> {
    text.split(',').map(str::trim).filter(|s| !s.is_empty())
}

/// A list with `add` written on (those not yet on it) and `cross_off`
/// crossed off (every entry of each).
pub fn relisted(text: &str, add: &[String], cross_off: &[String]) -> String {
    let mut out: Vec<&str> = listed(text)
        .filter(|e| !cross_off.iter().any(|c| c == e))
        .collect();
    for a in add {
        if !out.contains(&a.as_str()) {
            out.push(a);
        }
    }
    out.join(", ")
}

/// The value of every attribute at one moment, ordered by key.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct State(BTreeMap<Key, Value>);

impl State {
    /// The state after `e`: an accepted event's changes set their values;
    /// a rejected event changes nothing.
    pub fn apply(&mut self, e: &Event) {
        if e.outcome.is_ok() {
            for c in &e.changes {
                self.0
                    .insert((c.entity.clone(), c.attr.clone()), c.new.clone());
            }
        }
    }

    /// The value of `key`, an absent `broken` read as false and an absent
    /// `text` as blank.
    pub fn value(&self, key: &Key) -> Option<&Value> {
        const WORKING: Value = Value::Bool(false);
        static BLANK: Value = Value::Text(String::new());
        self.0.get(key).or(match key.1.as_str() {
            BROKEN => Some(&WORKING),
            TEXT => Some(&BLANK),
            _ => None,
        })
    }

    /// The values, ordered by key.
    pub fn into_map(self) -> BTreeMap<Key, Value> {
        self.0
    }
}

impl From<BTreeMap<Key, Value>> for State {
    fn from(values: BTreeMap<Key, Value>) -> Self {
        State(values)
    }
}

impl PartialEq<BTreeMap<Key, Value>> for State {
    fn eq(&self, other: &BTreeMap<Key, Value>) -> bool {
        self.0 == *other
    }
}

impl Deref for State {
    type Target = BTreeMap<Key, Value>;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl DerefMut for State {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

impl<'a> IntoIterator for &'a State {
    type Item = (&'a Key, &'a Value);
    type IntoIter = std::collections::btree_map::Iter<'a, Key, Value>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_is_written_on_once_per_kind_and_crossed_off_whole() {
        let add = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(relisted("", &add(&["milk"]), &[]), "milk");
        assert_eq!(
            relisted("milk", &add(&["bread", "milk"]), &[]),
            "milk, bread"
        );
        assert_eq!(relisted("milk, bread", &[], &add(&["milk"])), "bread");
        assert_eq!(relisted("bread", &[], &add(&["bread", "eggs"])), "");
        // Written by hand: stray spaces and commas are no entries.
        assert_eq!(
            listed(" milk ,, bread ,").collect::<Vec<_>>(),
            ["milk", "bread"]
        );
        assert_eq!(relisted(" milk ,, ", &add(&["eggs"]), &[]), "milk, eggs");
    }

    #[test]
    fn absent_health_and_text_read_as_working_and_blank_and_nothing_else_is_made_up() {
        let s = State::default();
        let key = |a: &str| (Id::new("x_1"), Id::new(a));
        assert_eq!(s.value(&key(BROKEN)), Some(&Value::Bool(false)));
        assert_eq!(s.value(&key(TEXT)), Some(&Value::Text(String::new())));
        assert_eq!(s.value(&key(LEVEL)), None);
        assert_eq!(s.value(&key("location")), None);
    }
}
