//! The household's people as the script plays them: each one's
//! preferences and routines, drawn from the seed once, and what they own.

use std::collections::BTreeMap;

use crate::catalogue::Roles;
use crate::ids::Id;
use crate::scene::Role;

/// A human's preferences and routines, chosen from the seed once.
#[derive(Debug, Clone)]
pub(super) struct Person {
    pub id: Id,
    pub name: String,
    pub mug: Option<Id>,
    pub drink: Option<String>,
    pub tv_volume: i64,
    pub brightness: i64,
    pub night_target: f64,
    pub wake: u64,
    /// Washing programme and temperature.
    pub laundry: (String, i64),
    /// Everything this person uses, as (category → objects they own).
    pub owned: BTreeMap<String, Vec<Id>>,
    /// With look-alikes: which of their own of a category they use today
    /// (category → object), drawn each morning; else the first of each.
    pub today: BTreeMap<String, Id>,
}

impl Person {
    /// The owned object of each category playing `role` in use today (the
    /// first, unless look-alikes gave a choice), in category order (a
    /// laptop and a notebook, not two notebooks).
    pub fn first_of_each(&self, r: &Roles, role: Role) -> Vec<Id> {
        self.owned
            .iter()
            .filter_map(|(c, v)| {
                let first = v.iter().find(|o| r.has(o, role))?;
                Some(self.today.get(c).unwrap_or(first))
            })
            .cloned()
            .collect()
    }
}

/// The person `id` of `people` (a human of the scene).
pub(super) fn person<'a>(people: &'a [Person], id: &Id) -> &'a Person {
    people
        .iter()
        .find(|p| &p.id == id)
        .expect("a human of the scene")
}
