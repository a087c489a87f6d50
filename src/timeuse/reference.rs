//! `assets/timeuse.ron` typed: the activities, which roles and session
//! kinds count for which, and the reference bands by group.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::scene::Role;
use crate::trace::request::Destination;

/// The embedded `assets/timeuse.ron`.
pub const DEFAULT_SOURCE: &str = include_str!("../../assets/timeuse.ron");

/// What a person's time is spent on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Activity {
    Asleep,
    Eating,
    FoodPrep,
    Hygiene,
    Out,
    Leisure,
}

impl Activity {
    pub const ALL: [Activity; 6] = [
        Activity::Asleep,
        Activity::Eating,
        Activity::FoodPrep,
        Activity::Hygiene,
        Activity::Out,
        Activity::Leisure,
    ];

    /// The column name (`food_prep`).
    pub fn name(self) -> &'static str {
        match self {
            Activity::Asleep => "asleep",
            Activity::Eating => "eating",
            Activity::FoodPrep => "food_prep",
            Activity::Hygiene => "hygiene",
            Activity::Out => "out",
            Activity::Leisure => "leisure",
        }
    }
}

/// A reference band in hours per person per day, with the survey's mean.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Band {
    pub lo: f64,
    pub hi: f64,
    pub atus: f64,
}

/// `assets/timeuse.ron`: how activities are read, and the bands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeUse {
    pub roles: Vec<(Role, Activity)>,
    pub sessions: BTreeMap<String, Activity>,
    pub stay: Vec<Activity>,
    pub bands: BTreeMap<Activity, Band>,
    /// What counts as housework and as screen time (overlays: the same
    /// minutes also count for their activity above).
    #[serde(default)]
    pub housework: Overlay,
    #[serde(default)]
    pub screen: Overlay,
    /// A person's kind from the words of their actor `role`, first match wins.
    #[serde(default)]
    pub kinds: Vec<(String, Vec<String>)>,
    /// Bands by person kind, then `weekday` or `weekend`, then figure
    /// (`out_work_school`, `out_errands`, `out_other`, `housework`, `screen`).
    #[serde(default)]
    pub groups: BTreeMap<String, BTreeMap<String, BTreeMap<String, Band>>>,
}

/// Fixture roles and session kinds an overlay figure counts.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Overlay {
    #[serde(default)]
    pub roles: Vec<Role>,
    #[serde(default)]
    pub sessions: Vec<String>,
}

impl TimeUse {
    /// The kind of a person with actor role `role` (`employed`, `student`,
    /// `retired`), if a word of it says.
    pub fn kind_of(&self, role: &str) -> Option<&str> {
        let role = role.to_lowercase();
        self.kinds
            .iter()
            .find(|(_, words)| words.iter().any(|w| role.contains(w.as_str())))
            .map(|(k, _)| k.as_str())
    }
}

/// Where a destination's hours out count: `work_school`, `errands`
/// (shopping, errands, appointments) or `other`.
pub fn out_group(to: Destination) -> &'static str {
    match to {
        Destination::Work | Destination::School => "work_school",
        Destination::Shopping | Destination::Errand | Destination::Appointment => "errands",
        _ => "other",
    }
}

/// Day 1 is a Monday: days 6 and 7 of each week are the weekend.
pub fn is_weekend(day: u32) -> bool {
    (day - 1) % 7 >= 5
}

#[derive(Debug, Error, PartialEq)]
pub enum TimeUseError {
    #[error(transparent)]
    Syntax(#[from] crate::located::SyntaxError),
    #[error(
        "{origin}: band {activity} runs from {lo} to {hi} hours; it needs 0 <= lo <= atus <= hi <= 24"
    )]
    BadBand {
        origin: String,
        activity: &'static str,
        lo: f64,
        hi: f64,
    },
}

/// Parses and checks a time-use file; `origin` names it in errors.
pub fn parse(origin: &str, src: &str) -> Result<TimeUse, TimeUseError> {
    let t: TimeUse = crate::located::parse_ron(ron::Options::default(), origin, src)?;
    let groups = t
        .groups
        .values()
        .flat_map(|d| d.values())
        .flat_map(|f| f.values());
    let all = t
        .bands
        .iter()
        .map(|(a, b)| (a.name(), b))
        .chain(groups.map(|b| ("group", b)));
    for (a, b) in all {
        if !(0.0 <= b.lo && b.lo <= b.atus && b.atus <= b.hi && b.hi <= 24.0) {
            return Err(TimeUseError::BadBand {
                origin: origin.into(),
                activity: a,
                lo: b.lo,
                hi: b.hi,
            });
        }
    }
    Ok(t)
}

/// The embedded rules and bands.
pub fn builtin() -> &'static TimeUse {
    static T: std::sync::OnceLock<TimeUse> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        parse("assets/timeuse.ron", DEFAULT_SOURCE).expect("the embedded file is valid")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_file_parses_and_bad_bands_are_refused() {
        let t = builtin();
        assert!(t.bands.contains_key(&Activity::Asleep));
        let bad = DEFAULT_SOURCE.replace("lo: 7.5, hi: 10.0", "lo: 11.0, hi: 10.0");
        assert!(matches!(
            parse("x.ron", &bad),
            Err(TimeUseError::BadBand {
                activity: "asleep",
                ..
            })
        ));
        assert!(matches!(
            parse("x.ron", "TimeUse(roles: [(sleepy, Asleep)])"),
            Err(TimeUseError::Syntax(_))
        ));
    }
}
