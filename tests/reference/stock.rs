//! When a kind of thing the house uses up was last bought or thrown out:
//! docs/samples.md, the stock line of the families table. Bought is a
//! thing of the kind carried in from outside in an event the robot saw
//! (not only heard through the front door), or first seen at all in
//! someone's bag (not as they leave), then said as that sight; thrown
//! out is one put in a bin. Sure only where the robot stayed by every door to outside (every
//! bin) from then to the cutoff, by the freshness rule.
//!
//! How much of a kind is left: each thing of it the robot last saw in the
//! house (not outside, not in a bin), with the servings it last saw left
//! (its `level`; a full one, the catalogue's `servings`, where it never
//! saw one), summed; always as last seen, resting on the sights since
//! which it has seen each so (in the house, and that level; where none is
//! left, the latest thing gone as well), at the latest of them. What was
//! true: every thing of the kind in the house as it is.

use hearth::catalogue::Roles;
use hearth::ids::Id;
use hearth::samples::Answer;
use hearth::scene::{OUTSIDE, Role};
use hearth::trace::request::Action;
use hearth::trace::{Event, LEVEL, Location, Value};

use super::{Eyes, Got, Reference, Unsettled};

impl Reference<'_> {
    pub fn last_stocked(
        &self,
        eyes: Eyes,
        kind: &str,
        bought: bool,
        c: u64,
    ) -> Result<Got, Unsettled> {
        let things: Vec<&Id> = (self.scene.objects.iter())
            .filter(|o| o.category == kind)
            .map(|o| &o.id)
            .collect();
        let places: Vec<Id> = if bought {
            (self.scene.doors.iter())
                .filter(|d| d.rooms.0.as_str() == OUTSIDE || d.rooms.1.as_str() == OUTSIDE)
                .map(|d| d.id.clone())
                .collect()
        } else {
            Roles::builtin(self.scene).fixtures(Role::Waste).to_vec()
        };
        let outside = Value::Location(Location::Outside);
        let by_ear = |e: &Event| eyes == Eyes::Robot && e.heard_by.contains(&self.robot);
        let before = self.before(c);
        let location = Id::new("location");
        // Each thing's latest: carried in from outside in an event seen,
        // else (bought) first seen at all in someone's bag, not leaving.
        let each = things.iter().filter_map(|o| {
            let came = before.iter().rev().find(|e| {
                e.outcome.is_ok()
                    && if bought {
                        self.observed(eyes, e)
                            && !by_ear(e)
                            && e.changes.iter().any(|ch| {
                                ch.entity == **o
                                    && ch.attr == location
                                    && ch.old == outside
                                    && ch.new != outside
                            })
                    } else {
                        self.perceived(eyes, e)
                            && matches!(&e.action, Action::Place { object, target, .. }
                                if object == *o && places.contains(target))
                    }
            });
            match came {
                Some(e) => Some((e, true)),
                None if bought => {
                    let (s, v) = self.sightings(eyes, o, &location, c).into_iter().next()?;
                    let e = self.event(s)?;
                    let bag =
                        matches!(&v, Value::Location(Location::CarriedBy(p)) if *p != self.robot);
                    (bag && !matches!(e.action, Action::Leave { .. })).then_some((e, false))
                }
                None => None,
            }
        });
        let Some((e, saw)) = each.max_by_key(|(e, _)| e.id) else {
            return Ok(Got::new(Answer::Unknown, []));
        };
        let mut at = super::time_answer(e.t);
        if let Answer::Time { stale, .. } = &mut at {
            let open = Id::new("open");
            *stale = eyes == Eyes::Robot
                && (!saw || !places.iter().all(|p| self.watched_over(p, &open, e.id, c)));
        }
        Ok(Got::new(at, [e.id]))
    }

    pub fn still_have(&self, eyes: Eyes, kind: &str, c: u64) -> Result<Got, Unsettled> {
        let full = hearth::catalogue::builtin()
            .category(kind)
            .and_then(|k| k.servings)
            .unwrap_or(1);
        let bins = Roles::builtin(self.scene).fixtures(Role::Waste).to_vec();
        let gone = |v: &Value| match v {
            Value::Location(Location::Outside) => true,
            Value::Location(Location::In(b)) => bins.contains(b),
            _ => false,
        };
        let (location, level) = (Id::new("location"), Id::new(LEVEL));
        let things = (self.scene.objects.iter()).filter(|o| o.category == kind);
        let servings = |v: Option<Value>| match v {
            Some(Value::Int(n)) => u32::try_from(n).unwrap_or(0),
            _ => full,
        };
        if eyes == Eyes::All {
            let left: u32 = things
                .filter(|o| self.truth(&o.id, &location, c).is_some_and(|v| !gone(&v)))
                .map(|o| servings(self.truth(&o.id, &level, c)))
                .sum();
            return Ok(Got::new(
                Answer::Value {
                    value: Value::Int(i64::from(left)),
                },
                [],
            ));
        }
        // Since when it has been seen so: the first of the last run of
        // sightings alike (in the house or gone; the same level).
        let since = |seen: Vec<(u64, Value)>, same: &dyn Fn(&Value, &Value) -> bool| {
            let (_, last) = seen.last()?.clone();
            let from = seen
                .iter()
                .rposition(|(_, v)| !same(v, &last))
                .map_or(0, |i| i + 1);
            Some((seen[from].0, last))
        };
        let (mut left, mut evidence, mut went) = (0, vec![], None);
        let in_bin = |v: &Value| matches!(v, Value::Location(Location::In(b)) if bins.contains(b));
        for o in things {
            // Gone or not at each sighting, and for good once in a bin
            // (rubbish never comes back, carried out with the bag or not).
            let mut binned = false;
            let seen: Vec<(u64, Value)> = (self.sightings(eyes, &o.id, &location, c).into_iter())
                .map(|(e, v)| {
                    binned |= in_bin(&v);
                    (e, Value::Bool(binned || gone(&v)))
                })
                .collect();
            let Some((at, now_gone)) = since(seen, &|a, b| a == b) else {
                continue;
            };
            if now_gone == Value::Bool(true) {
                went = went.max(Some(at));
                continue;
            }
            evidence.push(at);
            let seen = since(self.sightings(eyes, &o.id, &level, c), &|a, b| a == b);
            evidence.extend(seen.as_ref().map(|(e, _)| *e));
            left += servings(seen.map(|(_, v)| v));
        }
        if left == 0 {
            evidence.extend(went);
        }
        let Some(latest) = evidence.iter().max().and_then(|e| self.event(*e)) else {
            return Ok(Got::new(Answer::Unknown, []));
        };
        let answer = Answer::LastSeen {
            value: Value::Int(i64::from(left)),
            seen_at: latest.t,
            stale: true,
        };
        Ok(Got::new(answer, evidence))
    }
}
