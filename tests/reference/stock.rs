//! When a kind of thing the house uses up was last bought or thrown out:
//! docs/samples.md, the stock line of the families table. Bought is a
//! thing of the kind carried in from outside in an event the robot saw
//! (not only heard through the front door), or first seen at all in
//! someone's bag (not as they leave), then said as that sight; thrown
//! out is one put in a bin. Sure only where the robot stayed by every door to outside (every
//! bin) from then to the cutoff, by the freshness rule.

use hearth::catalogue::Roles;
use hearth::ids::Id;
use hearth::samples::Answer;
use hearth::scene::{OUTSIDE, Role};
use hearth::trace::request::Action;
use hearth::trace::{Event, Location, Value};

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
}
