//! One household life for every backend. The calendar frames each day:
//! its sessions (waking and sleep, meals, leaving and coming back, chores,
//! callers) at their times with their participants, and from them when
//! each person is out, asleep or taken up. A backend that writes sessions
//! of its own (an LLM) adds them only in what is left: [`Frame::place`]
//! keeps a session whose people are all free, moves one that clashes to
//! the nearest free time, and drops one with no such time, each with its
//! reason. A frame session is never dropped or moved.
//!
//! [`merge`] does the same inside a frame session: the turns a backend
//! writes take the place of the calendar's where they are about the same
//! things, the calendar's leaving and coming back stay as they are, and
//! what the writer leaves out the script still does.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::ids::Id;
use crate::trace::{DAY, clock_time};

use super::{Session, SessionKind};

pub use super::merge::{Merged, about, anchored, merge, named, said_in, say_slot};

/// The earliest and latest a session of a backend's own may start
/// (seconds of the day), and how long it takes up its people.
pub const FIRST: u64 = 6 * 3600;
pub const LAST: u64 = DAY - 3600;
pub const SPAN: u64 = 30 * 60;
/// How far a clashing session may move, either way.
const REACH: u64 = 4 * 3600;
const STEP: u64 = 5 * 60;

/// Why a person cannot join a session at some time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "why")]
pub enum Taken {
    /// Out of the house (the calendar's outing, or a caller not calling).
    Out,
    /// In bed.
    Asleep,
    /// In a session already planned (its id).
    Session { id: String },
}

/// A span (trace seconds) in which a person is taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    pub from: u64,
    pub to: u64,
    pub taken: Taken,
}

/// A day as the calendar frames it.
#[derive(Debug, Clone, Default)]
pub struct Frame {
    pub day: u32,
    /// The calendar's sessions, in time order.
    pub sessions: Vec<Session>,
    /// Per person (the robot included), the spans they are taken.
    pub taken: BTreeMap<Id, Vec<Span>>,
}

/// What became of a session a backend asked for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Placed {
    pub day: u32,
    /// Its kind, and the time asked for (`HH:MM`).
    pub kind: String,
    pub asked: String,
    /// Where it went (`HH:MM`), or `None`: dropped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    /// Who clashed at the time asked, and with what.
    pub who: Id,
    #[serde(flatten)]
    pub taken: Taken,
}

/// The sessions kept (at their time or moved) and what was moved or
/// dropped, with why.
#[derive(Debug, Clone, Default)]
pub struct Placement {
    pub kept: Vec<Session>,
    pub moved: Vec<Placed>,
    pub dropped: Vec<Placed>,
}

impl Frame {
    /// A frame of `sessions`, with who is out when (`out`: person, from,
    /// to) and the spans the sessions take up. A person is asleep before
    /// the first session they are in or the wake-up (whichever is
    /// earlier), and from the bedtime session they are in.
    pub fn new(day: u32, sessions: Vec<Session>, out: Vec<(Id, u64, u64)>, people: &[Id]) -> Self {
        let base = u64::from(day - 1) * DAY;
        let mut taken: BTreeMap<Id, Vec<Span>> =
            people.iter().map(|p| (p.clone(), vec![])).collect();
        for (who, from, to) in out {
            taken.entry(who).or_default().push(Span {
                from,
                to,
                taken: Taken::Out,
            });
        }
        for s in &sessions {
            let kind = s.kind.known();
            let end = s.start + span_of(s, base);
            for who in involved(s) {
                let spans = taken.entry(who.clone()).or_default();
                match kind {
                    Some(SessionKind::WakeUp) => spans.push(Span {
                        from: base,
                        to: s.start,
                        taken: Taken::Asleep,
                    }),
                    Some(SessionKind::Bedtime) => spans.push(Span {
                        from: s.start,
                        to: base + DAY,
                        taken: Taken::Asleep,
                    }),
                    _ => {}
                }
                if end > s.start {
                    spans.push(Span {
                        from: s.start,
                        to: end,
                        taken: Taken::Session { id: s.id.clone() },
                    });
                }
            }
        }
        // Whoever the wake-up did not name (out early) sleeps until the
        // first thing they do; nobody is up before the frame's first hour.
        for (who, spans) in &mut taken {
            if !spans
                .iter()
                .any(|s| s.taken == Taken::Asleep && s.from == base)
            {
                let first = sessions
                    .iter()
                    .filter(|s| involved(s).contains(who))
                    .map(|s| s.start)
                    .min()
                    .unwrap_or(base + FIRST)
                    .min(base + FIRST);
                spans.push(Span {
                    from: base,
                    to: first,
                    taken: Taken::Asleep,
                });
            }
            spans.sort_by_key(|s| (s.from, s.to));
        }
        Frame {
            day,
            sessions,
            taken,
        }
    }

    /// The first span `who` is taken in that overlaps `from..to`; a person
    /// the frame does not know is out.
    pub fn clash(&self, who: &Id, from: u64, to: u64) -> Option<Taken> {
        let Some(spans) = self.taken.get(who) else {
            return Some(Taken::Out);
        };
        spans
            .iter()
            .find(|s| s.from < to && s.to > from)
            .map(|s| s.taken.clone())
    }

    /// Each person's free time at home today, as `HH:MM-HH:MM` spans of
    /// at least `SPAN`, between [`FIRST`] and [`LAST`].
    pub fn free(&self) -> Vec<(Id, Vec<(u64, u64)>)> {
        let base = u64::from(self.day - 1) * DAY;
        self.taken
            .iter()
            .map(|(who, spans)| {
                let mut free = vec![];
                let mut t = base + FIRST;
                for s in spans {
                    if s.to <= t {
                        continue;
                    }
                    if s.from >= t + SPAN {
                        free.push((t, s.from.min(base + LAST)));
                    }
                    t = t.max(s.to);
                }
                if base + LAST >= t + SPAN {
                    free.push((t, base + LAST));
                }
                free.retain(|(a, b)| b >= &(a + SPAN));
                (who.clone(), free)
            })
            .collect()
    }

    /// Places `wanted` (a backend's own sessions, each at the start it
    /// asked for) in the frame, in order: kept where every participant is
    /// free for [`SPAN`] from its start, else moved to the nearest start
    /// (within four hours, the earlier on a tie) where they all are, else
    /// dropped. A placed session takes up its people like a frame one.
    pub fn place(&mut self, wanted: Vec<Session>) -> Placement {
        let base = u64::from(self.day - 1) * DAY;
        let mut out = Placement::default();
        for mut s in wanted {
            let asked = s.start;
            let clash_at = |f: &Frame, t: u64| {
                s.participants
                    .iter()
                    .find_map(|p| f.clash(p, t, t + SPAN).map(|c| (p.clone(), c)))
            };
            let Some((who, taken)) = clash_at(self, asked) else {
                self.take(&s, asked);
                out.kept.push(s);
                continue;
            };
            let fits =
                |t: &u64| (base + FIRST..=base + LAST).contains(t) && clash_at(self, *t).is_none();
            let near = (1..=REACH / STEP)
                .flat_map(|k| [asked.checked_sub(k * STEP), Some(asked + k * STEP)])
                .flatten()
                .find(fits);
            let placed = Placed {
                day: self.day,
                kind: s.kind.to_string(),
                asked: clock_time(asked)[..5].to_string(),
                at: near.map(|t| clock_time(t)[..5].to_string()),
                who,
                taken,
            };
            match near {
                Some(t) => {
                    s.start = t;
                    self.take(&s, t);
                    out.kept.push(s);
                    out.moved.push(placed);
                }
                None => out.dropped.push(placed),
            }
        }
        out
    }

    fn take(&mut self, s: &Session, at: u64) {
        for p in &s.participants {
            let spans = self.taken.entry(p.clone()).or_default();
            spans.push(Span {
                from: at,
                to: at + SPAN,
                taken: Taken::Session { id: s.id.clone() },
            });
            spans.sort_by_key(|s| (s.from, s.to));
        }
    }
}

/// Who a session takes up: its participants and the person it names
/// (the one at the desk in a work session the robot is asked in).
fn involved(s: &Session) -> Vec<Id> {
    let mut v = s.participants.clone();
    if let Some(w) = &s.params.who
        && !v.contains(w)
    {
        v.push(w.clone());
    }
    v
}

/// How long a frame session takes up its people: until its `until` where
/// it has one (`HH:MM`), else its kind's minutes (30 for a kind outside
/// the table).
fn span_of(s: &Session, base: u64) -> u64 {
    let until = s
        .params
        .until_clock()
        .map(|u| (base + u).saturating_sub(s.start));
    let kind = s.kind.known();
    match (kind, until) {
        (Some(SessionKind::Party | SessionKind::Repair), Some(u)) => u,
        (Some(k), _) => k.row().minutes * 60,
        (None, _) => SPAN,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generation::{Clock, Until};

    const H: u64 = 3600;
    const M: u64 = 60;

    fn id(s: &str) -> Id {
        Id::new(s)
    }

    fn session(id: &str, start: u64, kind: &str, who: &[&str]) -> Session {
        Session {
            id: id.into(),
            day: 1,
            start,
            kind: kind.into(),
            project: None,
            intent: String::new(),
            participants: who.iter().map(|w| Id::new(w)).collect(),
            params: Default::default(),
            turns: vec![],
            source: None,
            directed: None,
        }
    }

    /// Alice and Bob wake at 07:00 and go to bed at 22:30; Bob is at
    /// work 08:30-17:00; breakfast at 07:40; Carol calls 15:00-16:00.
    fn day() -> Frame {
        let mut visit = session("v", 15 * H, "visit", &["carol"]);
        visit.params.who = Some(id("carol"));
        visit.params.until = Some(Until::Clock(Clock::of_secs(16 * H)));
        let sessions = vec![
            session("w", 7 * H, "wake_up", &["alice", "bob"]),
            session("b", 7 * H + 40 * M, "breakfast", &["alice", "bob"]),
            visit,
            session("n", 22 * H + 30 * M, "bedtime", &["alice", "bob"]),
        ];
        let out = vec![
            (id("bob"), 8 * H + 30 * M, 17 * H),
            (id("carol"), 0, 15 * H),
            (id("carol"), 16 * H, DAY),
        ];
        Frame::new(
            1,
            sessions,
            out,
            &[id("alice"), id("bob"), id("carol"), id("robot")],
        )
    }

    #[test]
    fn the_frame_knows_who_is_out_asleep_or_taken() {
        let f = day();
        assert_eq!(f.clash(&id("bob"), 10 * H, 10 * H + SPAN), Some(Taken::Out));
        assert_eq!(f.clash(&id("alice"), 10 * H, 10 * H + SPAN), None);
        assert_eq!(
            f.clash(&id("alice"), 6 * H, 6 * H + SPAN),
            Some(Taken::Asleep)
        );
        assert_eq!(
            f.clash(&id("alice"), 23 * H, 23 * H + SPAN),
            Some(Taken::Asleep)
        );
        assert_eq!(
            f.clash(&id("alice"), 7 * H + 50 * M, 8 * H),
            Some(Taken::Session { id: "b".into() })
        );
        // A caller is in only for the call (and taken for its first minutes).
        assert_eq!(
            f.clash(&id("carol"), 12 * H, 12 * H + SPAN),
            Some(Taken::Out)
        );
        assert_eq!(
            f.clash(&id("carol"), 15 * H + 25 * M, 15 * H + 50 * M),
            None
        );
        // Someone the frame does not know of is out.
        assert_eq!(f.clash(&id("zed"), 12 * H, 12 * H + SPAN), Some(Taken::Out));
        let free: BTreeMap<Id, Vec<(u64, u64)>> = f.free().into_iter().collect();
        assert_eq!(free[&id("bob")], vec![(17 * H, 22 * H + 30 * M)]);
        assert_eq!(free[&id("alice")][0], (8 * H + 20 * M, 22 * H + 30 * M));
        assert_eq!(free[&id("carol")], vec![(15 * H + 20 * M, 16 * H)]);
    }

    #[test]
    fn sessions_are_kept_moved_to_the_nearest_free_time_or_dropped() {
        let mut f = day();
        let placed = f.place(vec![
            session("x1", 10 * H, "chat", &["alice"]),
            // Bob is at work: the nearest time both are free is 17:00.
            session("x2", 16 * H, "chess", &["alice", "bob"]),
            // Alice is in x1 at 10:10: moved to the nearest free start.
            session("x3", 10 * H + 10 * M, "call", &["alice"]),
            // Nobody called Zed.
            session("x4", 11 * H, "tea", &["zed"]),
        ]);
        let at: Vec<(String, u64)> = placed
            .kept
            .iter()
            .map(|s| (s.id.clone(), s.start))
            .collect();
        assert_eq!(
            at,
            vec![
                ("x1".into(), 10 * H),
                ("x2".into(), 17 * H),
                ("x3".into(), 10 * H + 30 * M)
            ]
        );
        assert_eq!(placed.moved.len(), 2);
        assert_eq!(placed.moved[0].who, id("bob"));
        assert_eq!(placed.moved[0].taken, Taken::Out);
        assert_eq!(placed.moved[0].at.as_deref(), Some("17:00"));
        assert_eq!(placed.moved[1].taken, Taken::Session { id: "x1".into() });
        assert_eq!(placed.dropped.len(), 1);
        assert_eq!(placed.dropped[0].at, None);
        assert_eq!(placed.dropped[0].kind, "tea");
        // What was placed takes its people up.
        assert!(
            f.clash(&id("bob"), 17 * H + 10 * M, 17 * H + 20 * M)
                .is_some()
        );
    }

    #[test]
    fn no_session_is_placed_where_its_people_are_not_free() {
        // Over many asked-for times, whatever is kept has every
        // participant free for its span, in the frame as it was.
        let before = day();
        let mut f = day();
        let wanted: Vec<Session> = (0..48)
            .map(|q| session(&format!("q{q}"), q * 30 * M, "chat", &["alice", "bob"]))
            .collect();
        let placed = f.place(wanted);
        assert!(!placed.kept.is_empty());
        for s in &placed.kept {
            for p in &s.participants {
                assert_eq!(
                    before.clash(p, s.start, s.start + SPAN),
                    None,
                    "{} at {}",
                    s.id,
                    clock_time(s.start)
                );
            }
        }
        // And no two kept sessions share a person at once.
        for (i, a) in placed.kept.iter().enumerate() {
            for b in &placed.kept[i + 1..] {
                assert!(a.start + SPAN <= b.start || b.start + SPAN <= a.start);
            }
        }
    }
}
