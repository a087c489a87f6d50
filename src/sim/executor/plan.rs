//! What every skill's planning shares: the [`Plan`] it returns, the actor
//! it plans for, and the rejections any skill can give (an unknown id, a
//! target out of reach).

use bevy::prelude::*;

use super::step::{Op, Reveal};
use super::view::WorldView;
use crate::ids::{Id, nearest};
use crate::sim::world::{Actor, At, Hands};
use crate::trace::{Rejection, RejectionCode};

/// What a planned request does, before it is applied.
pub(super) struct Plan {
    pub dur: u64,
    pub ops: Vec<Op>,
    pub via: Vec<Entity>,
    pub reveal: Reveal,
}

impl Plan {
    pub fn new(dur: u64, ops: Vec<Op>) -> Self {
        Plan {
            dur,
            ops,
            via: vec![],
            reveal: Reveal::Nothing,
        }
    }
}

/// The actor a request is planned for.
#[derive(Clone, Copy)]
pub(super) struct Doer<'a> {
    pub actor: Entity,
    pub who: &'a Id,
    pub me: &'a Actor,
    pub at: &'a At,
    pub hands: &'a Hands,
}

impl WorldView<'_, '_> {
    /// Ids of entities matching `pred`, nearest to `wanted` first.
    pub(super) fn suggest(&self, wanted: &str, pred: impl Fn(Entity) -> bool) -> String {
        let ids: Vec<&Id> = self
            .registry
            .ids()
            .filter(|(_, e)| pred(**e))
            .map(|(id, _)| id)
            .collect();
        let near = nearest(wanted, ids, 3);
        near.iter().map(Id::as_str).collect::<Vec<_>>().join(", ")
    }

    /// The entity `id` names; if none, the ids matching `pred` nearest to it
    /// are the hint.
    pub(super) fn resolve(
        &self,
        id: &Id,
        what: &str,
        pred: impl Fn(Entity) -> bool,
    ) -> Result<Entity, Rejection> {
        self.registry.get(id).ok_or_else(|| {
            let near = self.suggest(id.as_str(), pred);
            Rejection::new(
                RejectionCode::UnknownEntity,
                format!("there is no {what} {id}"),
                format!("use a real id; closest: {near}"),
            )
        })
    }

    pub(super) fn not_near(&self, actor: Entity, target: Entity, verb: &str) -> Rejection {
        let (who, what) = (self.id(actor), self.id(target));
        let anchor = self
            .anchor(target)
            .and_then(|(at, _)| at.near)
            .unwrap_or(target);
        Rejection::new(
            RejectionCode::NotColocated,
            format!("{who} is not at {what}"),
            format!("navigate_to {} first, then {verb}", self.id(anchor)),
        )
    }
}
