//! The rules of the world outside the front door: acting, perceiving or
//! being used while out, a visitor who never leaves, someone out
//! overnight, and coming in only to go straight back out.

use super::rule::Rule;
use super::walk::Walk;
use crate::ids::Id;
use crate::scene::OUTSIDE;
use crate::trace::request::{Action, Destination};
use crate::trace::{DAY, Event, Location};

/// Home for less than this (seconds) before going out again is no stop
/// at home ([`Rule::StraightBackOut`]).
pub const STRAIGHT_BACK_OUT: u64 = 600;

impl Walk<'_> {
    /// Whether `actor` is out of the house.
    pub(super) fn is_out(&self, actor: &Id) -> bool {
        self.room_of_actor(actor)
            .is_some_and(|r| r.as_str() == OUTSIDE)
    }

    /// The rules of the world outside, on the state before `e`.
    pub(super) fn outings(&mut self, e: &Event) {
        let coming = matches!(e.action, Action::Arrive { .. });
        if self.is_out(&e.actor) && !coming && !matches!(e.action, Action::Wait { .. }) {
            self.find(
                Rule::ActedWhileOut,
                Some(e),
                e.t,
                vec![e.actor.clone()],
                format!(
                    "{} is out of the house but does {}",
                    e.actor,
                    e.action.skill_name()
                ),
            );
        }
        let mut seen: Vec<Id> = (e.observers.iter().chain(&e.revealed_to))
            .filter(|o| **o != e.actor && self.is_out(o))
            .cloned()
            .collect();
        seen.sort();
        seen.dedup();
        for o in seen {
            self.find(
                Rule::SeenWhileOut,
                Some(e),
                e.t,
                vec![o.clone()],
                format!("{o} is out of the house but perceives event {}", e.id),
            );
        }
        // Bringing in and talking about what is outside are what it is for.
        if !coming && !matches!(e.action, Action::Say { .. } | Action::Leave { .. }) {
            for id in e.action.entity_args() {
                let out = match self.loc(id) {
                    Some(Location::Outside) => true,
                    Some(Location::CarriedBy(a) | Location::HeldBy(a)) => self.is_out(a),
                    _ => false,
                };
                if out {
                    self.find(
                        Rule::UsedWhileOutside,
                        Some(e),
                        e.t,
                        vec![id.clone()],
                        format!(
                            "{} does {} with {id}, which is out of the house",
                            e.actor,
                            e.action.skill_name()
                        ),
                    );
                }
            }
        }
        match &e.action {
            Action::Leave { to, .. } => {
                self.left_for.insert(e.actor.clone(), (e.id, *to));
                // A visitor may just drop by; the household comes home
                // for longer than that.
                if let Some(&(came, t)) = self.came_in.get(&e.actor)
                    && e.t < t + STRAIGHT_BACK_OUT
                    && !self.visitors.contains_key(&e.actor)
                {
                    self.find(
                        Rule::StraightBackOut,
                        Some(e),
                        e.t,
                        vec![e.actor.clone()],
                        format!(
                            "{} came in (event {came}) and goes out again {} s later",
                            e.actor,
                            e.t - t
                        ),
                    );
                }
            }
            Action::Arrive { .. } => {
                self.came_in.insert(e.actor.clone(), (e.id, e.t + e.dur));
                self.left_for.remove(&e.actor);
                if let Some(v) = self.visitors.get_mut(&e.actor) {
                    *v = Some(e.id);
                }
            }
            _ => {}
        }
    }

    /// Out-overnight findings at 03:00 (`at`): someone gone for other than
    /// a trip, work or home.
    pub(super) fn out_overnight(&mut self, at: u64) {
        let away: Vec<(Id, u64, Destination)> = self
            .left_for
            .iter()
            .filter(|(a, (_, to))| {
                !matches!(
                    to,
                    Destination::Trip | Destination::Work | Destination::Home
                ) && self.is_out(a)
            })
            .map(|(a, (ev, to))| (a.clone(), *ev, *to))
            .collect();
        for (a, ev, to) in away {
            self.found(
                Rule::OutOvernight,
                Some(ev),
                at,
                vec![a.clone()],
                format!(
                    "{a} is still out at 03:00 of day {}, gone for {} in event {ev}",
                    at / DAY + 1,
                    to.name()
                ),
            );
        }
    }

    /// Visitors still in at the end of the trace (`end`).
    pub(super) fn visitors_stayed(&mut self, end: u64) {
        let stayed: Vec<(Id, u64)> = self
            .visitors
            .iter()
            .filter_map(|(a, came)| Some((a.clone(), (*came)?)))
            .filter(|(a, _)| !self.is_out(a))
            .collect();
        for (a, came) in stayed {
            self.found(
                Rule::VisitorNeverLeft,
                Some(came),
                end,
                vec![a.clone()],
                format!("{a} came in (event {came}) and never left"),
            );
        }
    }
}
