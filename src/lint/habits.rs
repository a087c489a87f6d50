//! The rules about how people and the robot move about a home: walking
//! back and forth, doors worked with nobody passing, bedrooms used as
//! corridors, things left where they do not belong, and long runs of
//! walking that change nothing. Machines loop; households do not.

use std::collections::BTreeMap;

use super::habit_log::*;
use super::rule::{Finding, Rule};
use super::walk::Walk;
use crate::ids::Id;
use crate::trace::request::Action;
use crate::trace::{Event, Location, Value, clock_time};

impl Walk<'_> {
    /// Before an accepted event: what time alone settles (doors opened
    /// and never passed, things left out of place for long).
    pub(super) fn habits_until(&mut self, t: u64) {
        let stale: Vec<(Id, (u64, u64, Id, bool))> = self
            .habits
            .opened
            .iter()
            .filter(|(_, (_, at, _, moved_on))| *moved_on && t > at + DOOR_PASS)
            .map(|(d, v)| (d.clone(), v.clone()))
            .collect();
        for (door, (ev, at, actor, _)) in stale {
            self.habits.opened.remove(&door);
            self.unpassed_open(&door, ev, at, &actor);
        }
        let left: Vec<Id> = self
            .habits
            .misplaced
            .iter()
            .filter(|(_, (_, since, _))| t >= since + LEFT)
            .map(|(o, _)| o.clone())
            .collect();
        for o in left {
            self.left_out(&o);
        }
    }

    fn unpassed_open(&mut self, door: &Id, ev: u64, at: u64, actor: &Id) {
        self.found(
            Rule::DoorWithoutPassing,
            Some(ev),
            at,
            vec![actor.clone(), door.clone()],
            format!(
                "{actor} opened {door} and walked off elsewhere; nobody went through it in the next {} min",
                DOOR_PASS / 60
            ),
        );
    }

    fn left_out(&mut self, object: &Id) {
        let Some((ev, since, at)) = self.habits.misplaced.remove(object) else {
            return;
        };
        // Every place it belongs is full (a desk piled high): leaving it
        // where there was room is what anyone would do.
        if self.nowhere_to_go(object) {
            return;
        }
        self.found(
            Rule::LeftOutOfPlace,
            Some(ev),
            since,
            vec![object.clone(), at.clone()],
            format!("{object} was left on or in {at}, where its kind does not belong"),
        );
    }

    /// Every accepted event of an actor: walks extend its run, anything
    /// that changes the world (doors aside) ends it.
    pub(super) fn habits_event(&mut self, e: &Event) {
        let gap = self
            .last
            .get(&e.actor)
            .is_some_and(|&(_, _, end)| e.t > end + RUN_GAP);
        if gap {
            self.end_run(&e.actor);
            self.habits.fidget.remove(&e.actor);
        }
        self.fidgeted(e);
        if matches!(e.action, Action::Leave { .. } | Action::Arrive { .. }) && e.outcome.is_ok() {
            self.went_out_or_in(e);
        }
        match &e.action {
            Action::NavigateTo { target } => self.walked(e, target),
            Action::Open { target } | Action::Close { target } if self.is_door(target) => {
                self.door_worked(e, target)
            }
            // Walking up to someone to talk to them is something done.
            Action::Say { to, .. } if !to.is_empty() && e.outcome.is_ok() => self.end_run(&e.actor),
            _ => {
                let changes = e.changes.iter().any(|c| c.attr != self.position);
                if changes {
                    self.end_run(&e.actor);
                }
            }
        }
        for c in &e.changes {
            if c.attr != self.location {
                continue;
            }
            match &c.new {
                Value::Location(Location::On(r) | Location::In(r))
                    if !self.habits.belongs.fits(&c.entity, r)
                        && !self
                            .habits
                            .deliberate
                            .contains(&(c.entity.clone(), r.clone())) =>
                {
                    self.habits
                        .misplaced
                        .insert(c.entity.clone(), (e.id, e.t, r.clone()));
                }
                _ => {
                    self.habits.misplaced.remove(&c.entity);
                }
            }
        }
    }

    /// Opening and shutting one thing, or switching one device field,
    /// over and over, nothing else done.
    fn fidgeted(&mut self, e: &Event) {
        let (thing, rule, times) = match &e.action {
            Action::Open { target } | Action::Close { target } if e.outcome.is_ok() => {
                (target.to_string(), Rule::OpenCloseLoop, FIDGET)
            }
            Action::SetDeviceState { device, field, .. } if e.outcome.is_ok() => {
                (format!("{device} {field}"), Rule::SwitchLoop, SWITCH)
            }
            _ => {
                self.habits.fidget.remove(&e.actor);
                return;
            }
        };
        let f = self
            .habits
            .fidget
            .entry(e.actor.clone())
            .or_insert_with(|| (thing.clone(), 0, e.id, e.t, false));
        if f.0 != thing {
            *f = (thing.clone(), 0, e.id, e.t, false);
        }
        f.1 += 1;
        if f.1 >= times && !f.4 {
            f.4 = true;
            let (first, t, n) = (f.2, f.3, f.1);
            let (who, what) = match &e.action {
                Action::SetDeviceState { device, .. } => (
                    device.clone(),
                    format!(
                        "{} set {thing} {n} times in a row since event {first}",
                        e.actor
                    ),
                ),
                _ => (
                    Id::new(&thing),
                    format!(
                        "{} opened and shut {thing} {} times in a row since event {first}",
                        e.actor,
                        n / 2
                    ),
                ),
            };
            self.find(rule, Some(e), t, vec![e.actor.clone(), who], what);
        }
    }

    /// Whether every receptacle `object` belongs on or in is full now.
    fn nowhere_to_go(&self, object: &Id) -> bool {
        // A kind with no place in this home (a parcel in a studio without
        // a hall table) is out of place nowhere.
        let Some(homes) = self.habits.belongs.homes(object).filter(|h| !h.is_empty()) else {
            return true;
        };
        let mut held: BTreeMap<(&Id, bool), u32> = BTreeMap::new();
        for o in &self.scene.objects {
            match self.loc(&o.id) {
                Some(Location::On(r)) => *held.entry((r, false)).or_default() += 1,
                Some(Location::In(r)) => *held.entry((r, true)).or_default() += 1,
                _ => {}
            }
        }
        homes.iter().all(|h| {
            [false, true].iter().all(|&inside| {
                let room = self
                    .scene
                    .fixture(h)
                    .and_then(|f| f.capacity(inside))
                    .unwrap_or(0);
                held.get(&(h, inside)).copied().unwrap_or(0) >= room
            })
        })
    }

    fn is_door(&self, id: &Id) -> bool {
        self.doors.iter().any(|(d, _, _)| d == id)
    }

    fn door_worked(&mut self, e: &Event, door: &Id) {
        if matches!(e.action, Action::Open { .. }) {
            self.habits
                .opened
                .insert(door.clone(), (e.id, e.t, e.actor.clone(), false));
            return;
        }
        self.habits.opened.remove(door);
        let passed = self.habits.passed.get(door).copied();
        // Closed behind them: by the actor, or by someone sharing their
        // bedroom (the last of a couple to bed shuts the door).
        let roommates = self
            .habits
            .sleepers
            .values()
            .find(|s| s.contains(&e.actor))
            .cloned()
            .unwrap_or_default();
        let behind = std::iter::once(&e.actor)
            .chain(roommates.iter())
            .any(|who| {
                self.habits
                    .came_through
                    .get(&(who.clone(), door.clone()))
                    .is_some_and(|t| e.t <= t + BEHIND)
            });
        // Shutting oneself in one's own bedroom (for the night) is no
        // idle close either.
        let here = match self.get(&e.actor, &self.position) {
            Some(Value::Position(p)) => Some(p.room.clone()),
            _ => None,
        };
        let own_room = here.is_some_and(|room| {
            self.doors
                .iter()
                .any(|(d, a, b)| d == door && (*a == room || *b == room))
                && self
                    .habits
                    .sleepers
                    .get(&room)
                    .is_some_and(|s| s.contains(&e.actor))
        });
        if !behind && !own_room && passed.is_none_or(|p| e.t > p + DOOR_PASS) {
            let since = passed.map_or("ever".into(), |p| format!("since {}", &clock_time(p)[..5]));
            self.find(
                Rule::DoorWithoutPassing,
                Some(e),
                e.t,
                vec![e.actor.clone(), door.clone()],
                format!(
                    "{} closed {door}, which nobody had walked through {since}",
                    e.actor
                ),
            );
        }
    }

    /// The doors between consecutive `rooms` of `e`'s route, walked
    /// through when it ends.
    fn through_doors(&mut self, e: &Event, rooms: &[Id]) {
        let end = e.t + e.dur;
        let mut passed = vec![];
        for pair in rooms.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            let through: Vec<Id> = self
                .doors
                .iter()
                .filter(|(_, x, y)| (x == a && y == b) || (x == b && y == a))
                .map(|(d, _, _)| d.clone())
                .collect();
            for d in through {
                self.habits.opened.remove(&d);
                self.habits.passed.insert(d.clone(), end);
                self.habits
                    .came_through
                    .insert((e.actor.clone(), d.clone()), end);
                passed.push(d);
            }
        }
        if !passed.is_empty() {
            for (_, _, who, moved_on) in self.habits.opened.values_mut() {
                *moved_on |= *who == e.actor;
            }
        }
    }

    /// Going out or coming in walks through the house's doors on the way
    /// (`via`) and the front door.
    fn went_out_or_in(&mut self, e: &Event) {
        let Some(Value::Position(from)) = self.get(&e.actor, &self.position).cloned() else {
            return;
        };
        let to = e.changes.iter().find_map(|c| match &c.new {
            Value::Position(p) if c.entity == e.actor => Some(p.room.clone()),
            _ => None,
        });
        let mut rooms = vec![from.room];
        rooms.extend(e.via.iter().cloned());
        rooms.extend(to);
        self.through_doors(e, &rooms);
    }

    fn walked(&mut self, e: &Event, target: &Id) {
        let Some(Value::Position(from)) = self.get(&e.actor, &self.position).cloned() else {
            return;
        };
        let mut rooms = vec![from.room.clone()];
        rooms.extend(e.via.iter().cloned());
        self.through_doors(e, &rooms);
        let crossed = crate::catalogue::crossed_bedrooms(self.scene, &e.actor, &from.room, &e.via);
        for room in crossed {
            let owners: Vec<&str> = self.habits.sleepers[&room].iter().map(Id::as_str).collect();
            let owners = owners.join(" and ");
            self.find(
                Rule::CrossedBedroom,
                Some(e),
                e.t,
                vec![e.actor.clone(), room.clone()],
                format!(
                    "{} walked through {room}, {owners}'s bedroom, on the way to {target}",
                    e.actor
                ),
            );
        }
        let start = from.near.unwrap_or(from.room);
        let run = self.habits.runs.entry(e.actor.clone()).or_default();
        let n = run.spots.len();
        let back = n >= 2 && run.spots[n - 2] == *target && run.spots[n - 1] != *target;
        if !back && run.back >= 2 {
            // A ping-pong ended: report it, and a new run starts here.
            let here = run.spots[n - 1].clone();
            self.end_run(&e.actor);
            self.habits
                .runs
                .entry(e.actor.clone())
                .or_default()
                .spots
                .push(here);
        }
        let run = self.habits.runs.entry(e.actor.clone()).or_default();
        if run.spots.is_empty() {
            run.spots.push(start);
        }
        if run.walks == 0 {
            run.first_event = e.id;
        }
        if back && run.back == 0 {
            run.back_from = if run.walks == 0 {
                (e.id, e.t)
            } else {
                run.prev_walk
            };
        }
        run.back = if back { run.back + 1 } else { 0 };
        run.prev_walk = (e.id, e.t);
        run.spots.push(target.clone());
        run.walks += 1;
        if run.walks >= AIMLESS && !run.aimless_found {
            run.aimless_found = true;
            let first = run.first_event;
            let walks = run.walks;
            self.find(
                Rule::AimlessWalking,
                Some(e),
                e.t,
                vec![e.actor.clone()],
                format!(
                    "{} walked {walks} times in a row since event {first} and changed nothing",
                    e.actor
                ),
            );
        }
    }

    /// Ends an actor's run of walks, reporting it if it went back and
    /// forth between two spots three or more times.
    pub(super) fn end_run(&mut self, actor: &Id) {
        let Some(run) = self.habits.runs.remove(actor) else {
            return;
        };
        if run.back < 2 {
            return;
        }
        let n = run.spots.len();
        let (a, b) = (run.spots[n - 2].clone(), run.spots[n - 1].clone());
        let walks = run.back + 1;
        let (ev, t) = run.back_from;
        self.out.push(Finding {
            rule: Rule::PingPongWalk.code(),
            event: Some(ev),
            t,
            time: clock_time(t),
            entities: vec![actor.clone(), a.clone(), b.clone()],
            message: format!("{actor} walked back and forth between {a} and {b} {walks} times"),
            walks,
        });
    }

    pub(super) fn habits_finish(&mut self) {
        for a in self.habits.runs.keys().cloned().collect::<Vec<_>>() {
            self.end_run(&a);
        }
        for (door, (ev, at, actor, _)) in std::mem::take(&mut self.habits.opened) {
            self.unpassed_open(&door, ev, at, &actor);
        }
        for o in self.habits.misplaced.keys().cloned().collect::<Vec<_>>() {
            self.left_out(&o);
        }
    }
}
