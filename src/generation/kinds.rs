//! Session kinds typed, in one table: the kind's name on the wire
//! (`plan.json` keeps the snake_case strings), its intent in words, who
//! takes part, and the time-use activity it counts as where its actions
//! are about no fixture. The scripted director matches on the enum
//! (`scripted::Scripted::direct`); an LLM backend may plan kinds outside
//! the table (they stay strings, [`SessionKind::parse`] gives `None`).

use serde::{Deserialize, Serialize};

use crate::timeuse::Activity;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SessionKind {
    WakeUp,
    Breakfast,
    Medication,
    Tidy,
    FindRequest,
    Lunch,
    Leisure,
    Work,
    Laundry,
    Cooking,
    Evening,
    RemoteDevices,
    Bedtime,
    Commitment,
    RobotAway,
    RobotBack,
    /// Someone leaves the house (params: `who`, `to`, `back`).
    Leave,
    /// Someone comes home (params: `who`, `from`).
    Arrive,
    /// The robot, alone at home, puts things back.
    RobotTidy,
    /// The weekly clean: the floor cleaner runs.
    Vacuum,
    /// A visitor calls (params: `who`, `until`).
    Visit,
    /// The visitor goes home (params: `who`).
    VisitEnd,
    /// The courier brings a parcel to whoever is home, the robot if
    /// nobody is (params: `who`, the courier; `parcel`).
    Delivery,
    /// A device stops working; the repair technician is booked (params:
    /// `device`, `repair`, the day and time booked).
    Breakdown,
    /// The repair technician comes and fixes the device (params: `who`,
    /// `device`, `until`).
    Repair,
    /// A party starts: music on before the guests come (params: `until`).
    Party,
    /// The party is over: music off.
    PartyEnd,
}

/// Who takes part in a session of a kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Who {
    /// The robot only (the humans it serves are whoever is home).
    Robot,
    /// Every human at home at the start.
    Home,
    /// The person named in the session's `who` (leaving, arriving).
    Named,
}

/// A kind's row of the table.
#[derive(Debug, Clone, Copy)]
pub struct KindRow {
    pub name: &'static str,
    pub intent: &'static str,
    pub who: Who,
    /// Where its actions are about no fixture (`trace stats`).
    pub activity: Option<Activity>,
    /// How long it takes up who is in it, about: a frame session's span
    /// when sessions are placed around it (`frame.rs`; one with an `until`
    /// lasts until then).
    pub minutes: u64,
}

impl SessionKind {
    pub const ALL: [SessionKind; 27] = [
        SessionKind::WakeUp,
        SessionKind::Breakfast,
        SessionKind::Medication,
        SessionKind::Tidy,
        SessionKind::FindRequest,
        SessionKind::Lunch,
        SessionKind::Leisure,
        SessionKind::Work,
        SessionKind::Laundry,
        SessionKind::Cooking,
        SessionKind::Evening,
        SessionKind::RemoteDevices,
        SessionKind::Bedtime,
        SessionKind::Commitment,
        SessionKind::RobotAway,
        SessionKind::RobotBack,
        SessionKind::Leave,
        SessionKind::Arrive,
        SessionKind::RobotTidy,
        SessionKind::Vacuum,
        SessionKind::Visit,
        SessionKind::VisitEnd,
        SessionKind::Delivery,
        SessionKind::Breakdown,
        SessionKind::Repair,
        SessionKind::Party,
        SessionKind::PartyEnd,
    ];

    /// The table.
    pub fn row(self) -> KindRow {
        use Activity::{FoodPrep, Hygiene, Out};
        use SessionKind::*;
        use Who::*;
        let (name, intent, who, activity, minutes) = match self {
            WakeUp => (
                "wake_up",
                "everyone gets up and washes",
                Home,
                Some(Hygiene),
                40,
            ),
            Breakfast => (
                "breakfast",
                "breakfast: coffee, food from the fridge, the robot clears up",
                Home,
                None,
                40,
            ),
            Lunch => (
                "lunch",
                "lunch: coffee, food from the fridge, the robot clears up",
                Home,
                None,
                45,
            ),
            Medication => (
                "medication",
                "the robot brings the morning medicine",
                Robot,
                None,
                10,
            ),
            Tidy => (
                "tidy",
                "someone tidies things away while the robot charges, and says where",
                Home,
                None,
                30,
            ),
            FindRequest => (
                "find_request",
                "someone asks the robot to bring them something of theirs",
                Robot,
                None,
                15,
            ),
            Work => (
                "work",
                "work or homework at the desk; the robot is asked to bring something later",
                Robot,
                None,
                60,
            ),
            Commitment => (
                "commitment",
                "the robot does what it was asked to do earlier",
                Robot,
                None,
                15,
            ),
            Cooking => (
                "cooking",
                "cooking dinner with the oven; the dishwasher is asked for after dinner",
                Home,
                Some(FoodPrep),
                90,
            ),
            Evening => (
                "evening",
                "an evening on the sofa with the tv, a chat and a snack",
                Home,
                Some(Activity::Leisure),
                30,
            ),
            Leisure => (
                "leisure",
                "free time: everyone sits down with a book or the tv",
                Home,
                Some(Activity::Leisure),
                30,
            ),
            RemoteDevices => (
                "remote_devices",
                "devices are switched from another room",
                Home,
                None,
                15,
            ),
            Bedtime => (
                "bedtime",
                "snacks back to the fridge, washing up, worn clothes to the basket, glasses to the nightstand, the night temperature, lights off, everyone to bed",
                Home,
                None,
                30,
            ),
            Laundry => (
                "laundry",
                "a load of washing; the robot is asked to empty the machine later",
                Home,
                None,
                30,
            ),
            RobotAway => (
                "robot_away",
                "the robot docks away in standby for a while and perceives nothing",
                Robot,
                None,
                0,
            ),
            RobotBack => (
                "robot_back",
                "the robot is back from its dock",
                Robot,
                None,
                0,
            ),
            Leave => (
                "leave",
                "someone leaves the house, taking their things",
                Named,
                Some(Out),
                10,
            ),
            Arrive => (
                "arrive",
                "someone comes home; the robot tells them what happened while they were out",
                Named,
                None,
                15,
            ),
            RobotTidy => (
                "robot_tidy",
                "nobody is home: the robot puts things back where they belong",
                Robot,
                None,
                30,
            ),
            Vacuum => (
                "vacuum",
                "the weekly clean: the floor cleaner runs and goes back to its dock",
                Home,
                None,
                45,
            ),
            Visit => (
                "visit",
                "a visitor calls: comes in, is greeted and sits down with whoever is home",
                Named,
                None,
                20,
            ),
            VisitEnd => (
                "visit_end",
                "the visitor says goodbye and goes home",
                Named,
                None,
                10,
            ),
            Delivery => (
                "delivery",
                "the courier brings a parcel; whoever is home takes it in, the robot if nobody is",
                Named,
                None,
                10,
            ),
            Breakdown => (
                "breakdown",
                "a device stops working and the repair technician is booked",
                Home,
                None,
                20,
            ),
            Repair => (
                "repair",
                "the repair technician comes, is let in (by the robot if nobody is home) and fixes the device",
                Named,
                None,
                60,
            ),
            Party => (
                "party",
                "a party: the music goes on before the guests come (each guest's call is a visit)",
                Home,
                Some(Activity::Leisure),
                30,
            ),
            PartyEnd => (
                "party_end",
                "the guests have gone: the music goes off",
                Home,
                None,
                15,
            ),
        };
        KindRow {
            name,
            intent,
            who,
            activity,
            minutes,
        }
    }

    pub fn name(self) -> &'static str {
        self.row().name
    }

    pub fn intent(self) -> &'static str {
        self.row().intent
    }

    /// The kind of a wire name; `None` for a kind outside the table.
    pub fn parse(name: &str) -> Option<SessionKind> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// A session's kind as a plan holds it: a kind of the table, or one a
/// model named (an LLM backend may plan kinds of its own). Written as its
/// name, as a plain string: `plan.json` reads the same either way.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Kind {
    Table(SessionKind),
    Named(String),
}

impl Kind {
    /// The kind of a name: the table's where it names one.
    pub fn of_name(name: &str) -> Kind {
        SessionKind::parse(name).map_or_else(|| Kind::Named(name.to_string()), Kind::Table)
    }

    /// The table's kind, or `None` for a kind a model named.
    pub fn known(&self) -> Option<SessionKind> {
        match self {
            Kind::Table(k) => Some(*k),
            Kind::Named(_) => None,
        }
    }

    /// Whether this is the table's kind `k`.
    pub fn is(&self, k: SessionKind) -> bool {
        self.known() == Some(k)
    }

    /// The name on the wire.
    pub fn as_str(&self) -> &str {
        match self {
            Kind::Table(k) => k.name(),
            Kind::Named(n) => n,
        }
    }
}

impl From<SessionKind> for Kind {
    fn from(k: SessionKind) -> Kind {
        Kind::Table(k)
    }
}

impl From<&str> for Kind {
    fn from(name: &str) -> Kind {
        Kind::of_name(name)
    }
}

impl From<String> for Kind {
    fn from(name: String) -> Kind {
        Kind::of_name(&name)
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Ordered by name, as the strings were.
impl Ord for Kind {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl PartialOrd for Kind {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq<str> for Kind {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Kind {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl Serialize for Kind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Kind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Kind, D::Error> {
        Ok(Kind::of_name(&String::deserialize(d)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kind_is_written_as_its_name_and_read_back_typed() {
        for k in SessionKind::ALL {
            let kind = Kind::from(k);
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{}\"", k.name()));
            assert_eq!(serde_json::from_str::<Kind>(&json).unwrap(), kind);
            assert!(kind.is(k) && kind == k.name());
        }
        let tea: Kind = serde_json::from_str("\"tea\"").unwrap();
        assert_eq!(tea, Kind::Named("tea".into()));
        assert_eq!((tea.known(), tea.as_str()), (None, "tea"));
        let (b, t, w) = (
            Kind::from("breakfast"),
            Kind::from("tea"),
            Kind::from("wake_up"),
        );
        assert!(b < t && t < w);
    }

    #[test]
    fn names_are_the_serde_names_and_round_trip() {
        for k in SessionKind::ALL {
            let json = serde_json::to_value(k).unwrap();
            assert_eq!(json.as_str(), Some(k.name()));
            assert_eq!(SessionKind::parse(k.name()), Some(k));
        }
        assert_eq!(SessionKind::parse("household life"), None);
    }

    #[test]
    fn time_use_session_kinds_agree_with_the_table() {
        let t = crate::timeuse::builtin();
        assert!(!t.sessions.is_empty());
        for (name, activity) in &t.sessions {
            let k = SessionKind::parse(name).unwrap_or_else(|| panic!("{name} is no kind"));
            assert_eq!(k.row().activity, Some(*activity), "{name}");
        }
    }
}
