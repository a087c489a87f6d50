//! A day in numbers (`hearth trace stats`): per person per day the minutes
//! asleep, eating, preparing food, on hygiene, out of the house and at
//! leisure; the robot's busy and idle time; events per day by skill; the
//! share of door events; per week, what came into the house for the
//! first time, what left it for good and who called; and, against
//! reference bands from the American Time Use Survey
//! (`assets/timeuse.ron`), which figures fall outside.
//!
//! How a day is read (the rules are data, in `assets/timeuse.ron`):
//! - Each action of a person takes its `dur`. It counts for the activity
//!   of the first role (in the file's order) of the fixture it is about:
//!   its target (`place`, `open`, `close`, `inspect`, a device set), or
//!   the fixture the person stands at (`wait`, `say`, `pick`). An action
//!   about no such fixture counts for its session's kind (`plan.json`),
//!   and otherwise for nothing. Walking counts for its session only.
//! - Between actions a person stays where the last one left them; that
//!   time counts for a `stay` activity (asleep in bed, leisure on the
//!   sofa) when the fixture they stand at has one of its roles, else as
//!   unscheduled. Days are calendar days, so a night is split at midnight.
//! - The robot is busy for the `dur` of every action but `wait`, idle the
//!   rest of the day.
//!
//! No I/O: the caller reads the trace and its plan.

mod compare;
mod day;
mod reference;
mod weeks;

pub use compare::{Comparison, GroupComparison, compare, compare_groups};
pub use day::{PersonDay, RobotDay, Stats, StatsError, day_variety, mean_minutes, stats};
pub use reference::{
    Activity, Band, DEFAULT_SOURCE, Overlay, TimeUse, TimeUseError, builtin, is_weekend, out_group,
    parse,
};
pub use weeks::{Week, ratio as week_ratio, weeks};
