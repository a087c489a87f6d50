//! Who was home when something happened, and who changed something while
//! someone was out: docs/samples.md, "Who was home, and what happened
//! while someone was out".

use hearth::catalogue::schedules::VisitorKind;
use hearth::ids::Id;
use hearth::samples::Answer;
use hearth::scene::OUTSIDE;
use hearth::trace::Value;
use hearth::trace::request::Action;

use super::{Eyes, Got, Reference, Unsettled};

impl Reference<'_> {
    /// Who of the household and its guests (not the courier nor the
    /// repair technician, who call for work) `eyes` believed home during
    /// event `x`: from the last thing perceived of each up to it (an act,
    /// a word, seeing them in a room, hearing them go out or come in), or
    /// else from the start (the household home, visitors out); asked only
    /// when none of them went out or came in unperceived since.
    pub fn who_home(&self, eyes: Eyes, x: u64, c: u64) -> Result<Got, Unsettled> {
        let e = self.event(x).ok_or("no such event")?;
        if x >= c || !self.perceived(eyes, e) {
            return Err("the moment was not perceived before the cutoff".into());
        }
        let mut people = Vec::new();
        let mut evidence = vec![x];
        for p in self.people() {
            let calls = hearth::catalogue::schedules()
                .visitor_of(p)
                .is_some_and(|v| matches!(v.kind, VisitorKind::Courier | VisitorKind::Technician));
            if calls {
                continue;
            }
            let (home, from) = match self.last_sign(eyes, &p.id, x) {
                Some((event, before, after)) => (if event == x { before } else { after }, event),
                None => (!self.starts_out(&p.id), 0),
            };
            // Went out or came in unperceived since: the belief may be wrong.
            if let Some(m) = self
                .comings_and_goings(&p.id)
                .into_iter()
                .find(|m| from < *m && *m < x)
            {
                return Err(format!(
                    "{} went out or came in unperceived (event {m})",
                    p.id
                ));
            }
            if home {
                people.push(p.id.clone());
            }
            if from > 0 {
                evidence.push(from);
            }
        }
        Ok(Got::new(Answer::People { people }, evidence))
    }

    /// The last sign `eyes` had of `who` up to event `x`: its event, and
    /// whether it showed them home before it and after it.
    fn last_sign(&self, eyes: Eyes, who: &Id, x: u64) -> Option<(u64, bool, bool)> {
        let mut last = None;
        for e in self.before(x + 1) {
            if e.actor == *who && e.outcome.is_ok() && self.observed(eyes, e) {
                last = Some(match e.action {
                    Action::Leave { .. } => (e.id, true, false),
                    Action::Arrive { .. } => (e.id, false, true),
                    _ => (e.id, true, true),
                });
            }
            if self.revealed(eyes, e) {
                for f in &e.reveals {
                    if f.entity == *who
                        && f.attr.as_str() == "position"
                        && let Value::Position(p) = &f.value
                    {
                        let home = p.room.as_str() != OUTSIDE;
                        if last.is_none_or(|(at, ..)| at != e.id) {
                            last = Some((e.id, home, home));
                        }
                    }
                }
            }
        }
        last
    }

    /// The events in which `who` truly went out or came in.
    pub fn comings_and_goings(&self, who: &Id) -> Vec<u64> {
        let mut out = Vec::new();
        for e in self.events.iter().filter(|e| e.outcome.is_ok()) {
            for ch in &e.changes {
                if ch.entity == *who
                    && ch.attr.as_str() == "position"
                    && let (Value::Position(a), Value::Position(b)) = (&ch.old, &ch.new)
                    && (a.room.as_str() == OUTSIDE) != (b.room.as_str() == OUTSIDE)
                {
                    out.push(e.id);
                }
            }
        }
        out
    }

    /// Who changed `entity.attr` while `person` was out (from their
    /// departure `leave` to their return `back`): the one actor of the
    /// changes in between `eyes` perceived, said as the only one seen
    /// where the robot could have missed others.
    #[allow(clippy::too_many_arguments)]
    pub fn while_out(
        &self,
        eyes: Eyes,
        person: &Id,
        leave: u64,
        back: u64,
        entity: &Id,
        attr: &Id,
        c: u64,
    ) -> Result<Got, Unsettled> {
        if back >= c || leave >= back {
            return Err("the outing had not ended before the cutoff".into());
        }
        let went = self.event(leave).ok_or("no such departure")?;
        if went.actor != *person
            || !went.outcome.is_ok()
            || !matches!(went.action, Action::Leave { .. })
        {
            return Err(format!("event {leave} is not {person} going out"));
        }
        let came = self.events[leave as usize..].iter().find(|e| {
            e.actor == *person && e.outcome.is_ok() && matches!(e.action, Action::Arrive { .. })
        });
        if came.map(|e| e.id) != Some(back) {
            return Err(format!("event {back} is not {person}'s return"));
        }
        // The changes it perceived in the meantime, by one person.
        let mut actors: Vec<&Id> = Vec::new();
        let mut evidence = Vec::new();
        for e in &self.events[leave as usize..back as usize - 1] {
            let changed = e
                .changes
                .iter()
                .any(|ch| ch.entity == *entity && ch.attr == *attr);
            let by_ear = eyes == Eyes::Robot && e.heard_by.contains(&self.robot);
            if !e.outcome.is_ok() || !changed || !self.perceived(eyes, e) || by_ear {
                continue;
            }
            if !actors.contains(&&e.actor) {
                actors.push(&e.actor);
            }
            evidence.push(e.id);
        }
        let [who] = actors[..] else {
            return Err(format!("{} people seen changing it", actors.len()));
        };
        // Sure where the robot heard them go and come back and watched the
        // thing throughout; else the one it saw may not be the only one.
        let heard = |x: u64| self.event(x).is_some_and(|e| self.perceived(eyes, e));
        let stale = eyes == Eyes::Robot
            && !(heard(leave) && heard(back) && self.watched_over(entity, attr, leave, back));
        let actor = who.clone();
        Ok(Got::new(Answer::Actor { actor, stale }, evidence))
    }
}
