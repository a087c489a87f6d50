//! The robot-presence axis: blocks of the waking day in which the robot is
//! docked away in standby, perceiving nothing, and on its return looks
//! around its dock's room. The household goes on without it: its turns,
//! and what is said or handed to it, are left out.

use super::prelude::*;

/// The waking day the blocks fall in (07:00 to 22:00).
const FROM: u64 = 7 * H;
const UNTIL: u64 = 22 * H;
/// The longest block; a larger share is split into several.
const LONGEST: u64 = 3 * H;

impl Scripted {
    /// Today's blocks away as (start, end) seconds of the day: the share of
    /// the waking day, in blocks of at most [`LONGEST`], one in each equal
    /// slot of it at a drawn start. No draw at share 0.
    pub(super) fn away_blocks(&mut self) -> Vec<(u64, u64)> {
        let total =
            ((UNTIL - FROM) as f64 * self.difficulty.robot_away / M as f64).round() as u64 * M;
        if total == 0 {
            return vec![];
        }
        let k = total.div_ceil(LONGEST);
        let len = total / k / M * M;
        let slot = (UNTIL - FROM) / k;
        (0..k)
            .map(|i| {
                let start = FROM + i * slot + self.jitter((slot - len) / M);
                (start, start + len)
            })
            .collect()
    }

    /// Whether `t` (trace seconds) falls in one of today's blocks away.
    pub(super) fn is_away(&self, t: u64) -> bool {
        self.away.iter().any(|(s, e)| (*s..*e).contains(&t))
    }
}

/// The robot looks around the room it stood in (what changed there while
/// it was in standby) and says it is back.
pub(super) fn robot_back(x: &Stage, turns: &mut Vec<Turn>) {
    if let Some(here) = x.sim.position(x.robot) {
        turns.push(turn(x.robot, Goal::Inspect { target: here.room }));
    }
    turns.push(turn(x.robot, say(&[], "I'm back from my dock.".into())));
}

/// `turns` without the robot: its own turns, walks to it, things brought
/// to it, and it as an addressee (a turn said only to it is dropped).
/// What it would have put away (a meal's clearing up) is `clearer`'s.
pub(super) fn without_robot(turns: &mut Vec<Turn>, robot: &Id, clearer: Option<&Id>) {
    if let Some(c) = clearer {
        for t in turns.iter_mut().filter(|t| &t.actor == robot) {
            if let Goal::Fetch {
                to: Dest::On(_) | Dest::In(_),
                ..
            } = t.goal
            {
                t.actor = c.clone();
            }
        }
    }
    let involves = |g: &Goal| match g {
        Goal::GoTo { target } | Goal::Inspect { target } => target == robot,
        Goal::Fetch {
            to: Dest::Actor(a), ..
        } => a == robot,
        Goal::Say { to, .. } => !to.is_empty() && to.iter().all(|a| a == robot),
        _ => false,
    };
    turns.retain(|t| &t.actor != robot && !involves(&t.goal));
    for t in turns.iter_mut() {
        if t.otherwise.as_ref().is_some_and(involves) {
            t.otherwise = None;
        }
        for g in std::iter::once(&mut t.goal).chain(t.otherwise.as_mut()) {
            if let Goal::Say { to, .. } = g {
                to.retain(|a| a != robot);
            }
        }
    }
}

/// The robot says it docks, goes to its dock and waits there in standby
/// until the block ends (its own session then says it is back: were that a turn
/// here, the clock would jump past everything the block is for).
pub(super) struct RobotAway;

impl Activity for RobotAway {
    fn direct(
        &self,
        house: &mut Scripted,
        x: &Stage,
        turns: &mut Vec<Turn>,
    ) -> Result<(), GenError> {
        let robot = x.robot;
        let Some(until) = x.session.params.until_at() else {
            return Ok(());
        };
        // The day's sessions ran past the block (a long dinner): it is not
        // worth docking for, and saying "until 20:32" at 20:41 is wrong.
        let begin = (x.session.start)
            .max(x.sim.now())
            .max(x.sim.busy_until(robot).unwrap_or(0));
        if begin + 15 * M >= until {
            // Nor is it away: sessions in what is left of the block keep it.
            house.away.retain(|b| b.1 != until);
            return Ok(());
        }
        let Some(dock) = x.roles.fixture(Role::RobotDock) else {
            return Ok(());
        };
        turns.push(turn(
            robot,
            say(
                &[],
                format!(
                    "I'm going to my dock until {}.",
                    &crate::trace::clock_time(until)[..5]
                ),
            ),
        ));
        turns.push(turn(
            robot,
            Goal::GoTo {
                target: dock.clone(),
            },
        ));
        turns.push(turn(robot, Goal::Standby { until }));
        house.docked = true;
        Ok(())
    }
}

/// The robot is back from its dock: see [`robot_back`].
pub(super) struct RobotBack;

impl Activity for RobotBack {
    fn direct(
        &self,
        house: &mut Scripted,
        x: &Stage,
        turns: &mut Vec<Turn>,
    ) -> Result<(), GenError> {
        if std::mem::take(&mut house.docked) {
            robot_back(x, turns);
        }
        Ok(())
    }
}
