//! The robot does what it was asked to do earlier, or apologises.

use super::*;

impl Scripted {
    pub(super) fn commitment(&mut self, x: &Stage, turns: &mut Vec<Turn>) -> Result<(), GenError> {
        let &Stage {
            s,
            robot,
            sim,
            session,
            ..
        } = x;
        let due: Vec<usize> = (0..self.commitments.len())
            .filter(|&i| {
                self.commitments[i].status == CommitmentStatus::Open
                    && self.commitments[i].due <= session.start + EARLY
            })
            .collect();
        for i in due {
            let c = self.commitments[i].clone();
            // Said to the one who asked if they are home (by the calendar
            // and in fact: a run can outlast its plan), else to the room.
            let home = !self.today.is_out(&c.by, session.start % DAY) && !sim.is_out(&c.by);
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
                self.commitments[i].status = CommitmentStatus::Failed;
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
