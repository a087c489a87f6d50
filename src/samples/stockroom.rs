//! What of a scene the stock questions read, worked out once per index
//! (it was a third of mining a 56-day trace when worked out per question):
//! the kinds of thing the catalogue says are used up, with the scene's
//! things of each (the shop's stock included); the bins (`waste`
//! fixtures); the doors to outside; cold storage and what spoils out of it.

use std::collections::BTreeMap;

use crate::catalogue::Roles;
use crate::ids::Id;
use crate::scene::{OUTSIDE, Role, Scene};
use crate::trace::{Location, Value};

#[derive(Debug, Default)]
pub struct Stockroom {
    /// Each kind used up, in order, with its things in scene order.
    pub kinds: BTreeMap<String, Vec<Id>>,
    /// Each of those things: its kind, and its place among the kind's.
    pub things: BTreeMap<Id, (String, usize)>,
    pub bins: Vec<Id>,
    pub doors: Vec<Id>,
    /// Cold storage, and the things that spoil out of it.
    pub cold: Vec<Id>,
    pub perishable: Vec<Id>,
}

impl Stockroom {
    pub fn of(scene: &Scene) -> Self {
        let cat = crate::catalogue::builtin();
        let mut kinds: BTreeMap<String, Vec<Id>> = BTreeMap::new();
        for o in &scene.objects {
            let used_up = |k: &str| cat.category(k).is_some_and(|c| c.servings.is_some());
            match kinds.get_mut(&o.category) {
                Some(things) => things.push(o.id.clone()),
                None if used_up(&o.category) => {
                    kinds.insert(o.category.clone(), vec![o.id.clone()]);
                }
                None => {}
            }
        }
        let doors = (scene.doors.iter())
            .filter(|d| d.rooms.0.as_str() == OUTSIDE || d.rooms.1.as_str() == OUTSIDE)
            .map(|d| d.id.clone())
            .collect();
        let roles = Roles::builtin(scene);
        let things = (kinds.iter())
            .flat_map(|(kind, things)| {
                (things.iter().enumerate()).map(|(pos, o)| (o.clone(), (kind.clone(), pos)))
            })
            .collect();
        Stockroom {
            kinds,
            things,
            bins: roles.fixtures(Role::Waste).to_vec(),
            doors,
            cold: roles.fixtures(Role::ColdStorage).to_vec(),
            perishable: roles.objects(Role::Perishable).to_vec(),
        }
    }

    /// Whether a place is in one of the bins: thrown out.
    pub fn in_bin(&self, v: &Value) -> bool {
        matches!(v, Value::Location(Location::In(b)) if self.bins.contains(b))
    }

    /// Whether a thing would spoil at a place: a perishable out of cold
    /// storage.
    pub fn spoils(&self, thing: &Id, v: &Value) -> bool {
        self.perishable.contains(thing)
            && !matches!(v, Value::Location(Location::In(f)) if self.cold.contains(f))
    }

    /// Whether a place is out of the house or in a bin: no longer the
    /// house's to use.
    pub fn gone(&self, v: &Value) -> bool {
        *v == Value::Location(Location::Outside) || self.in_bin(v)
    }
}
