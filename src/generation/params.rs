//! What a session's director needs to stage it, typed: who, where to and
//! from, until when, which device, parcel or beat. On the wire
//! (`plan.json`) a map of strings, the same keys and words as ever; a key
//! no kind uses (a plan written elsewhere) is kept as it was read.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::catalogue::schedules::{Destination, Weekday};
use crate::ids::Id;

/// What a day does to a project (a day beat), and so to its sessions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Beat {
    Established,
    Continued,
    Interrupted,
    Recovered,
    Completed,
}

/// A clock time as the calendar writes it, `HH:MM`, in minutes after
/// midnight; past 23:59 it is written as it is but names no time of day.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Clock(pub u64);

impl Clock {
    /// The minute of second `t` of the day.
    pub fn of_secs(t: u64) -> Clock {
        Clock(t / 60)
    }

    /// Seconds after midnight, where this is a time of day.
    pub fn secs(self) -> Option<u64> {
        (self.0 < 24 * 60).then_some(self.0 * 60)
    }

    fn parse(s: &str) -> Option<Clock> {
        let (h, m) = s.split_once(':')?;
        let (h, m): (u64, u64) = (h.parse().ok()?, m.parse().ok()?);
        (m < 60).then_some(Clock(h * 60 + m))
    }
}

impl fmt::Display for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}:{:02}", self.0 / 60, self.0 % 60)
    }
}

/// When a session's span ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Until {
    /// A time of the session's day (a call, a party, a repair).
    Clock(Clock),
    /// Trace seconds (the robot's block away).
    At(u64),
}

/// When someone who leaves is back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Back {
    At(Clock),
    /// Another day.
    Later,
}

impl fmt::Display for Back {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Back::At(c) => c.fmt(f),
            Back::Later => f.write_str("later"),
        }
    }
}

/// A session's parameters. Which a kind uses is in
/// [`super::SessionKind`]'s docs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(into = "BTreeMap<String, String>", from = "BTreeMap<String, String>")]
pub struct SessionParams {
    /// The person the session is about (who leaves, arrives, calls, is at
    /// the desk).
    pub who: Option<Id>,
    /// Where they go.
    pub to: Option<Destination>,
    /// When they are back.
    pub back: Option<Back>,
    /// What they take (their own things), in order.
    pub take: Option<Vec<Id>>,
    /// Where they come back from.
    pub from: Option<Destination>,
    pub until: Option<Until>,
    /// The device that breaks down, or is repaired.
    pub device: Option<Id>,
    /// The day the repair technician is booked for.
    pub repair: Option<Weekday>,
    /// The parcel the courier brings.
    pub parcel: Option<Id>,
    /// What the day does to the session's project.
    pub beat: Option<Beat>,
    /// The session a commitment was asked in.
    pub asked_in: Option<String>,
    /// The morning's dusting (a tidy).
    pub dust: bool,
    /// Keys no kind uses, as read.
    pub other: BTreeMap<String, String>,
}

impl SessionParams {
    /// Whether it holds nothing (written as no `params` at all).
    pub fn is_empty(&self) -> bool {
        self.entries().is_empty()
    }

    /// The parameters as written, in key order: `("who", "bob")`.
    pub fn entries(&self) -> BTreeMap<String, String> {
        let mut m = self.other.clone();
        let mut put = |k: &str, v: Option<String>| {
            if let Some(v) = v {
                m.insert(k.to_string(), v);
            }
        };
        put("who", self.who.as_ref().map(Id::to_string));
        put("to", self.to.map(|d| d.name().to_string()));
        put("back", self.back.map(|b| b.to_string()));
        put(
            "take",
            self.take
                .as_ref()
                .map(|t| t.iter().map(Id::as_str).collect::<Vec<_>>().join(",")),
        );
        put("from", self.from.map(|d| d.name().to_string()));
        put(
            "until",
            self.until.map(|u| match u {
                Until::Clock(c) => c.to_string(),
                Until::At(t) => t.to_string(),
            }),
        );
        put("device", self.device.as_ref().map(Id::to_string));
        put("repair", self.repair.map(|d| d.name().to_string()));
        put("parcel", self.parcel.as_ref().map(Id::to_string));
        put("beat", self.beat.map(beat_name));
        put("asked_in", self.asked_in.clone());
        put("dust", self.dust.then(|| "yes".to_string()));
        m
    }

    /// When the session's span ends, as a second of its day, where its
    /// `until` is a time of day.
    pub fn until_clock(&self) -> Option<u64> {
        match self.until? {
            Until::Clock(c) => c.secs(),
            Until::At(_) => None,
        }
    }

    /// Its `until` in trace seconds, where it is written so.
    pub fn until_at(&self) -> Option<u64> {
        match self.until? {
            Until::At(t) => Some(t),
            Until::Clock(_) => None,
        }
    }
}

fn beat_name(b: Beat) -> String {
    format!("{b:?}").to_lowercase()
}

impl From<SessionParams> for BTreeMap<String, String> {
    fn from(p: SessionParams) -> Self {
        p.entries()
    }
}

impl From<BTreeMap<String, String>> for SessionParams {
    /// Each key read as its type where it reads back as written, else
    /// kept in `other`.
    fn from(map: BTreeMap<String, String>) -> Self {
        fn exact<T>(v: &str, read: Option<T>, write: impl Fn(&T) -> String) -> Option<T> {
            read.filter(|t| write(t) == v)
        }
        /// Puts `v` in `slot` if there is one: whether it was read.
        fn set<T>(slot: &mut Option<T>, v: Option<T>) -> bool {
            let read = v.is_some();
            if read {
                *slot = v;
            }
            read
        }
        let mut p = SessionParams::default();
        for (k, v) in map {
            let id = || (!v.is_empty()).then(|| Id::new(&v));
            let place = || Destination::ALL.into_iter().find(|d| d.name() == v);
            let clock = || exact(&v, Clock::parse(&v), Clock::to_string);
            let read = match k.as_str() {
                "who" => set(&mut p.who, id()),
                "device" => set(&mut p.device, id()),
                "parcel" => set(&mut p.parcel, id()),
                "to" => set(&mut p.to, place()),
                "from" => set(&mut p.from, place()),
                "back" if v == "later" => set(&mut p.back, Some(Back::Later)),
                "back" => set(&mut p.back, clock().map(Back::At)),
                "take" => {
                    let ids: Vec<Id> = v
                        .split(',')
                        .filter(|s| !s.is_empty())
                        .map(Id::new)
                        .collect();
                    let again: Vec<&str> = ids.iter().map(Id::as_str).collect();
                    set(&mut p.take, (again.join(",") == v).then_some(ids))
                }
                "until" if v.contains(':') => set(&mut p.until, clock().map(Until::Clock)),
                "until" => set(
                    &mut p.until,
                    exact(&v, v.parse::<u64>().ok(), u64::to_string).map(Until::At),
                ),
                "repair" => set(
                    &mut p.repair,
                    Weekday::ALL.into_iter().find(|d| d.name() == v),
                ),
                "beat" => set(
                    &mut p.beat,
                    [
                        Beat::Established,
                        Beat::Continued,
                        Beat::Interrupted,
                        Beat::Recovered,
                        Beat::Completed,
                    ]
                    .into_iter()
                    .find(|b| beat_name(*b) == v),
                ),
                "asked_in" => set(&mut p.asked_in, Some(v.clone())),
                "dust" if v == "yes" => {
                    p.dust = true;
                    true
                }
                _ => false,
            };
            if !read {
                p.other.insert(k, v);
            }
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn params_read_typed_and_write_back_the_same_words() {
        for pairs in [
            vec![
                ("who", "bob"),
                ("to", "work"),
                ("back", "17:30"),
                ("take", "keys_2,phone_2"),
            ],
            vec![
                ("who", "lily"),
                ("to", "trip"),
                ("back", "later"),
                ("take", ""),
            ],
            vec![
                ("who", "carol"),
                ("until", "16:00"),
                ("beat", "interrupted"),
            ],
            vec![("until", "97200"), ("asked_in", "d1s04"), ("dust", "yes")],
            vec![
                ("device", "tv_1"),
                ("repair", "Thursday"),
                ("parcel", "parcel_1"),
            ],
            vec![("from", "school"), ("until", "24:10"), ("mood", "sunny")],
        ] {
            let m = map(&pairs);
            let p = SessionParams::from(m.clone());
            assert_eq!(p.entries(), m);
            let json = serde_json::to_string(&p).unwrap();
            assert_eq!(json, serde_json::to_string(&m).unwrap());
            assert_eq!(serde_json::from_str::<SessionParams>(&json).unwrap(), p);
        }
        let p = SessionParams::from(map(&[("until", "24:10"), ("back", "9:05"), ("x", "1")]));
        assert_eq!(p.until, Some(Until::Clock(Clock(24 * 60 + 10))));
        assert_eq!(p.until_clock(), None, "past midnight names no time of day");
        assert_eq!(p.back, None);
        assert_eq!(p.other.len(), 2, "{:?}", p.other);
        assert!(SessionParams::default().is_empty());
    }

    #[test]
    fn a_clock_writes_the_minute_of_a_second() {
        assert_eq!(
            Clock::of_secs(17 * 3600 + 30 * 60 + 59).to_string(),
            "17:30"
        );
        assert_eq!(Clock::of_secs(9 * 3600).secs(), Some(9 * 3600));
    }
}
