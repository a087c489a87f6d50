//! The robot does what it was asked to do earlier, or apologises.

use super::prelude::*;

pub(super) struct DueCommitments;

impl Activity for DueCommitments {
    fn direct(
        &self,
        house: &mut Scripted,
        x: &Stage,
        turns: &mut Vec<Turn>,
    ) -> Result<(), GenError> {
        let &Stage {
            s,
            robot,
            sim,
            session,
            ..
        } = x;
        let mut pursued: Vec<Goal> = Vec::new();
        for i in house.commitments.due_by(session.start + EARLY) {
            let c = house.commitments.get(i).clone();
            // The same thing asked again (by anyone) is done and reported
            // once: its errand settles them all.
            if pursued.contains(&c.goal) {
                continue;
            }
            pursued.push(c.goal.clone());
            // Said to the one who asked if they are home (by the calendar
            // and in fact: a run can outlast its plan); else, for them, to
            // whoever of the house is; to an empty house, not at all (the
            // errand is done all the same).
            let at_home =
                |p: &Id| !house.calendar.today.is_out(p, session.start % DAY) && !sim.is_out(p);
            let home = at_home(&c.by);
            let others = house.people.iter().any(|p| {
                p.id != c.by && s.actor(&p.id).is_some_and(|a| !a.is_visitor()) && at_home(&p.id)
            });
            let asker = s.actor(&c.by).map_or(c.by.as_str(), |a| a.name.as_str());
            let (undone, done) = (goal_text(s, &c.goal, false), goal_text(s, &c.goal, true));
            let (sorry, report) = match (home, others) {
                (true, _) => (
                    Some(say(&[&c.by], format!("Sorry, I couldn't {undone}."))),
                    Some(say(&[&c.by], format!("As you asked, {done}."))),
                ),
                (false, true) => (
                    Some(say(
                        &[],
                        format!("Sorry, I couldn't {undone} as {asker} asked."),
                    )),
                    Some(say(&[], format!("{asker} asked me earlier: {done}."))),
                ),
                (false, false) => (None, None),
            };
            // Someone walked off with it: nothing to try.
            let taken = matches!(&c.goal, Goal::Fetch { object, .. }
                if matches!(sim.location(object), Some(Location::HeldBy(ref h)) if h != robot));
            if taken {
                turns.extend(sorry.map(|g| turn(robot, g)));
                house.commitments.settle(&c.goal, session.start, false);
                continue;
            }
            // The status follows the errand's outcome (`turn_done`).
            turns.push(turn(robot, c.goal.clone()));
            if let Some(report) = report {
                let mut report = turn(robot, report);
                report.otherwise = sorry;
                turns.push(report);
            }
        }
        Ok(())
    }
}
