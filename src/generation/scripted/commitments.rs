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
            // and in fact: a run can outlast its plan), else to the room.
            let home =
                !house.calendar.today.is_out(&c.by, session.start % DAY) && !sim.is_out(&c.by);
            let to: &[&Id] = if home { &[&c.by] } else { &[] };
            let sorry = say(
                to,
                format!("Sorry, I couldn't {}.", goal_text(s, &c.goal, false)),
            );
            // Someone walked off with it: nothing to try.
            let taken = matches!(&c.goal, Goal::Fetch { object, .. }
                if matches!(sim.location(object), Some(Location::HeldBy(ref h)) if h != robot));
            if taken {
                turns.push(turn(robot, sorry));
                house.commitments.settle(&c.goal, session.start, false);
                continue;
            }
            // The status follows the errand's outcome (`turn_done`).
            turns.push(turn(robot, c.goal.clone()));
            let mut report = turn(
                robot,
                say(
                    to,
                    format!("As you asked, {}.", goal_text(s, &c.goal, true)),
                ),
            );
            report.otherwise = Some(sorry);
            turns.push(report);
        }
        Ok(())
    }
}
