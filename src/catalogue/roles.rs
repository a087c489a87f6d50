//! A scene's entities by role: the catalogue's roles for their kinds and
//! categories plus the scene's explicit tags.

use std::collections::BTreeMap;

use super::model::Catalogue;
use crate::ids::Id;
use crate::scene::{Role, Scene};

/// Which fixtures, devices and objects of a scene play which role, each
/// list in scene order (furniture before devices).
#[derive(Debug, Clone, Default)]
pub struct Roles {
    fixtures: BTreeMap<Role, Vec<Id>>,
    devices: BTreeMap<Role, Vec<Id>>,
    objects: BTreeMap<Role, Vec<Id>>,
    of: BTreeMap<Id, Vec<Role>>,
}

impl Roles {
    pub fn new(scene: &Scene, catalogue: &Catalogue) -> Self {
        let mut r = Roles::default();
        let with = |own: &[Role], from: &[Role]| {
            let mut all: Vec<Role> = own.iter().chain(from).copied().collect();
            all.sort_unstable();
            all.dedup();
            all
        };
        for f in &scene.furniture {
            let roles = with(&f.roles, catalogue.fixture_roles(&f.kind));
            for role in &roles {
                r.fixtures.entry(*role).or_default().push(f.id.clone());
            }
            r.of.insert(f.id.clone(), roles);
        }
        for d in &scene.devices {
            let roles = with(&d.roles, catalogue.fixture_roles(&d.kind));
            for role in &roles {
                r.fixtures.entry(*role).or_default().push(d.id.clone());
                r.devices.entry(*role).or_default().push(d.id.clone());
            }
            r.of.insert(d.id.clone(), roles);
        }
        for o in &scene.objects {
            let roles = with(&o.roles, catalogue.object_roles(&o.category));
            for role in &roles {
                r.objects.entry(*role).or_default().push(o.id.clone());
            }
            r.of.insert(o.id.clone(), roles);
        }
        r
    }

    /// The scene's roles with the builtin catalogue.
    pub fn builtin(scene: &Scene) -> Self {
        Roles::new(scene, super::parse::builtin())
    }

    /// The first fixture (furniture, else device) playing `role`.
    pub fn fixture(&self, role: Role) -> Option<&Id> {
        self.fixtures(role).first()
    }

    /// Every fixture (furniture, then devices) playing `role`.
    pub fn fixtures(&self, role: Role) -> &[Id] {
        self.fixtures.get(&role).map_or(&[], Vec::as_slice)
    }

    /// The first device playing `role`.
    pub fn device(&self, role: Role) -> Option<&Id> {
        self.devices.get(&role).and_then(|v| v.first())
    }

    /// Every object playing `role`, in scene order.
    pub fn objects(&self, role: Role) -> &[Id] {
        self.objects.get(&role).map_or(&[], Vec::as_slice)
    }

    /// `id` plays no role any more: a thing used up and thrown out is
    /// nobody's breakfast.
    pub fn forget(&mut self, id: &Id) {
        for ids in self.objects.values_mut() {
            ids.retain(|o| o != id);
        }
        self.of.remove(id);
    }

    /// Whether the entity plays `role`.
    pub fn has(&self, id: &Id, role: Role) -> bool {
        self.of.get(id).is_some_and(|r| r.contains(&role))
    }

    /// The roles of an entity (empty for rooms, doors, actors and unknown ids).
    pub fn of(&self, id: &Id) -> &[Role] {
        self.of.get(id).map_or(&[], Vec::as_slice)
    }
}
