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

    /// The value of `key`, an absent `broken` read as false.
    pub fn value(&self, key: &Key) -> Option<&Value> {
        const WORKING: Value = Value::Bool(false);
        self.0
            .get(key)
            .or((key.1.as_str() == BROKEN).then_some(&WORKING))
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
