//! What a person thinks: docs/samples.md, "What the people of the house
//! believe". The robot knows a person perceived something only from an
//! event it perceived with them there; their belief is settled where the
//! robot watched the thing without a break since.

use hearth::ids::Id;
use hearth::samples::Answer;
use hearth::trace::request::Action;
use hearth::trace::{Event, Location, Value};

use super::{Eyes, Got, Reference, Unsettled};

impl Reference<'_> {
    /// Whether `person` perceived `entity.attr` in `e`: they observed a
    /// change of it, or were shown it.
    fn person_saw(&self, person: &Id, e: &Event, entity: &Id, attr: &Id) -> bool {
        let is = |en: &Id, at: &Id| en == entity && at == attr;
        let by_ear = e.heard_by.contains(person) && attr.as_str() == "location";
        (e.outcome.is_ok()
            && e.observers.contains(person)
            && !by_ear
            && e.changes.iter().any(|c| is(&c.entity, &c.attr)))
            || (e.revealed_to.contains(person) && e.reveals.iter().any(|f| is(&f.entity, &f.attr)))
    }

    /// Where `person` thinks `entity` is, as `eyes` can tell: the last
    /// value `eyes` saw them see. To an observer of every event that is
    /// what they believe; to the robot it is a place, settled when each
    /// sight of the thing since was still current at the next, and the
    /// last at the cutoff, by the freshness rule.
    pub fn thinks(
        &self,
        eyes: Eyes,
        person: &Id,
        entity: &Id,
        attr: &Id,
        c: u64,
    ) -> Result<Got, Unsettled> {
        let seen = self.sightings(eyes, entity, attr, c);
        let k = seen
            .iter()
            .rposition(|(e, _)| {
                self.person_saw(person, self.event(*e).expect("an event"), entity, attr)
            })
            .ok_or("the person was never seen to see it")?;
        let (s, value) = seen[k].clone();
        if eyes == Eyes::All {
            return Ok(Got::new(Answer::Value { value }, [s]));
        }
        if !matches!(value, Value::Location(Location::On(_) | Location::In(_))) {
            return Err("last seen by them in someone's hands".into());
        }
        let chain = seen[k..]
            .windows(2)
            .all(|w| self.current(entity, attr, w[0].0, &w[0].1, w[1].0));
        let (last, lv) = seen.last().expect("one sight at least");
        let answer = if chain && self.current(entity, attr, *last, lv, c) {
            Answer::Value { value }
        } else {
            Answer::LastSeen {
                value,
                seen_at: self.event(s).expect("an event").t,
                stale: true,
            }
        };
        Ok(Got::new(answer, [s]))
    }

    /// Who of the household saw the move `x`: everyone of them in the room
    /// (its observers), but its actor.
    pub fn who_saw(&self, eyes: Eyes, x: u64, c: u64) -> Result<Got, Unsettled> {
        let e = self.event(x).ok_or("no such event")?;
        let moved = e.outcome.is_ok() && matches!(e.action, Action::Place { .. });
        if x >= c || !moved || !self.perceived(eyes, e) {
            return Err("not a move perceived before the cutoff".into());
        }
        let people = self
            .people()
            .filter(|a| a.lives_here() && a.id != e.actor && e.observers.contains(&a.id))
            .map(|a| a.id.clone())
            .collect();
        Ok(Got::new(Answer::People { people }, [x]))
    }
}
