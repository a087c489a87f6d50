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
use crate::scene::{Indexed, Scene};
use crate::trace::{DAY, clock_time};

use super::{Goal, Session, SessionKind, Turn};

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
            let kind = SessionKind::parse(&s.kind);
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
                kind: s.kind.clone(),
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
    if let Some(w) = s.params.get("who").map(|w| Id::new(w))
        && !v.contains(&w)
    {
        v.push(w);
    }
    v
}

/// How long a frame session takes up its people: until its `until` where
/// it has one (`HH:MM`), else its kind's minutes (30 for a kind outside
/// the table).
fn span_of(s: &Session, base: u64) -> u64 {
    let until = s
        .params
        .get("until")
        .and_then(|u| crate::catalogue::schedules::clock_secs(u))
        .map(|u| (base + u).saturating_sub(s.start));
    let kind = SessionKind::parse(&s.kind);
    match (kind, until) {
        (Some(SessionKind::Party | SessionKind::Repair), Some(u)) => u,
        (Some(k), _) => k.row().minutes * 60,
        (None, _) => SPAN,
    }
}

/// Whether a turn is the calendar's to keep as it is: leaving, coming
/// back, the robot's dock.
pub fn anchored(goal: &Goal) -> bool {
    matches!(
        goal,
        Goal::Leave { .. } | Goal::Arrive { .. } | Goal::Standby { .. }
    )
}

/// The things a goal is about, by id.
pub fn about(goal: &Goal) -> Vec<&Id> {
    match goal {
        Goal::Fetch { object, to } => {
            let dest = match to {
                super::Dest::Actor(a) | super::Dest::On(a) | super::Dest::In(a) => a,
            };
            vec![object, dest]
        }
        Goal::Operate { device, .. } => vec![device],
        Goal::GoTo { target } | Goal::Inspect { target } | Goal::SetOpen { target, .. } => {
            vec![target]
        }
        _ => vec![],
    }
}

/// The kind of thing an id is (an object's category, a device's or a
/// furniture's kind), for "the same sort of thing".
fn sort_of<'a>(s: Indexed<'a>, id: &Id) -> Option<&'a str> {
    s.object(id)
        .map(|o| o.category.as_str())
        .or_else(|| s.device(id).map(|d| d.kind.as_str()))
        .or_else(|| s.furniture(id).map(|f| f.kind.as_str()))
}

/// Ids of `known` that `text` names, in order of appearance.
pub fn named<'a>(text: &str, known: &'a [Id]) -> Vec<&'a Id> {
    let mut out = vec![];
    for w in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
        if let Some(id) = known.iter().find(|k| k.as_str() == w)
            && !out.contains(&id)
        {
            out.push(id);
        }
    }
    out
}

/// What [`merge`] made of a frame session's turns.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Merged {
    pub turns: Vec<Turn>,
    /// Written turns that took the place of one of the calendar's.
    pub replaced: usize,
    /// Written turns added beside the calendar's.
    pub added: usize,
    /// Written turns dropped: their actor is not in the house.
    pub dropped: Vec<String>,
    /// The calendar's words made the speaker's to say ([`say_slot`]).
    pub spoken: usize,
}

/// A calendar turn saying something that carries no fact, as the
/// speaker's to say in their own words: an intention naming who it is to
/// and what the household would say, with the calendar's words as what
/// the script says if the writer gives none.
pub fn say_slot(t: Turn) -> Turn {
    let Goal::Say { to, text, .. } = &t.goal else {
        return t;
    };
    let to: Vec<&str> = to.iter().map(Id::as_str).collect();
    let to = if to.is_empty() {
        "whoever is here".to_string()
    } else {
        to.join(" and ")
    };
    Turn {
        goal: Goal::Intent {
            text: format!("say something to {to}, as the household would say \"{text}\""),
            fallback: Some(Box::new(t.goal.clone())),
        },
        ..t
    }
}

/// The words a say slot's intention stands for: the calendar's `Say`.
pub fn said_in(goal: &Goal) -> Option<(&Vec<Id>, &String)> {
    match goal {
        Goal::Intent {
            fallback: Some(g), ..
        } => match &**g {
            Goal::Say { to, text, .. } => Some((to, text)),
            _ => None,
        },
        _ => None,
    }
}

/// A frame session's turns, `written` (each an [`Goal::Intent`]) in the
/// place of the `calendar`'s. A written turn takes the place of the first
/// of its actor's calendar turns about a thing it names or a thing of the
/// same sort (the model chose another mug), and the calendar's goal goes
/// with it as what the script pursues if the writer's steps leave it
/// unmet. The calendar's leaving, coming back and docking stay; so does
/// what someone says that carries facts (a request, a report, a
/// preference: what the questions are about). What else the calendar has
/// someone say becomes theirs to say in their own words ([`say_slot`]),
/// and the rest of the calendar's turns are still done. A written turn
/// about no turn of the calendar's comes after its actor arrives and
/// before they leave; one for an actor not in the house (`inside` says
/// who is) is dropped.
pub fn merge(
    scene: &Scene,
    calendar: Vec<Turn>,
    written: Vec<Turn>,
    inside: &dyn Fn(&Id) -> bool,
    known: &[Id],
) -> Merged {
    let index = crate::scene::SceneIndex::new(scene);
    let s = index.over(scene);
    let arrives = |who: &Id| {
        calendar
            .iter()
            .any(|t| &t.actor == who && matches!(t.goal, Goal::Arrive { .. }))
    };
    let mut out = Merged::default();
    let written: Vec<Turn> = written
        .into_iter()
        .filter(|t| {
            let ok = inside(&t.actor) || arrives(&t.actor);
            if !ok {
                out.dropped.push(format!("{} is not in the house", t.actor));
            }
            ok
        })
        .collect();
    // The calendar's turns, with the written turn (index) that takes each
    // one's place.
    let mut slots: Vec<(Turn, Option<usize>)> = calendar
        .into_iter()
        .map(|t| match &t.goal {
            Goal::Say { claims, .. } if claims.is_empty() => {
                out.spoken += 1;
                (say_slot(t), None)
            }
            _ => (t, None),
        })
        .collect();
    let mut placed = vec![false; written.len()];
    for (i, w) in written.iter().enumerate() {
        let Goal::Intent { text, .. } = &w.goal else {
            continue;
        };
        let names = named(text, known);
        let sorts: Vec<&str> = names.iter().filter_map(|n| sort_of(s, n)).collect();
        let slot = slots.iter().position(|(t, by)| {
            by.is_none()
                && t.actor == w.actor
                && !anchored(&t.goal)
                && !matches!(t.goal, Goal::Intent { .. })
                && about(&t.goal)
                    .iter()
                    .any(|a| names.contains(a) || sort_of(s, a).is_some_and(|k| sorts.contains(&k)))
        });
        if let Some(at) = slot {
            slots[at].1 = Some(i);
            placed[i] = true;
        }
    }
    let mut turns: Vec<Turn> = slots
        .into_iter()
        .map(|(t, by)| match by {
            None => t,
            Some(i) => {
                out.replaced += 1;
                let Goal::Intent { text, .. } = &written[i].goal else {
                    unreachable!("only intents take a place")
                };
                Turn {
                    actor: t.actor,
                    goal: Goal::Intent {
                        text: text.clone(),
                        fallback: Some(Box::new(t.goal)),
                    },
                    not_before: t.not_before,
                    otherwise: t.otherwise,
                }
            }
        })
        .collect();
    // The rest in their order, each after the last written turn placed
    // so far and its actor's arrival, and before their leaving.
    let mut after = 0;
    for (i, w) in written.into_iter().enumerate() {
        if placed[i] {
            if let Some(p) = turns.iter().position(|t| {
                t.actor == w.actor && matches!(&t.goal, Goal::Intent { text, .. } if Some(text) == intent_text(&w.goal))
            }) {
                after = after.max(p + 1);
            }
            continue;
        }
        let arrival = turns
            .iter()
            .position(|t| t.actor == w.actor && matches!(t.goal, Goal::Arrive { .. }))
            .map_or(0, |p| p + 1);
        let leaving = turns
            .iter()
            .position(|t| t.actor == w.actor && matches!(t.goal, Goal::Leave { .. }))
            .unwrap_or(turns.len());
        let at = after.max(arrival);
        if at > leaving {
            out.dropped.push(format!("{} has left by then", w.actor));
            continue;
        }
        turns.insert(at, w);
        out.added += 1;
        after = at + 1;
    }
    out.turns = turns;
    out
}

fn intent_text(g: &Goal) -> Option<&String> {
    match g {
        Goal::Intent { text, .. } => Some(text),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generation::Dest;
    use crate::trace::{Claim, ClaimMode, Value};

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
        visit.params.insert("who".into(), "carol".into());
        visit.params.insert("until".into(), "16:00".into());
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

    fn intent(actor: &str, text: &str) -> Turn {
        Turn {
            actor: id(actor),
            goal: Goal::Intent {
                text: text.into(),
                fallback: None,
            },
            not_before: None,
            otherwise: None,
        }
    }

    fn turn(actor: &str, goal: Goal) -> Turn {
        Turn {
            actor: id(actor),
            goal,
            not_before: None,
            otherwise: None,
        }
    }

    fn scene() -> Scene {
        crate::scene::parse("family_apartment", crate::scene::default_source()).unwrap()
    }

    fn known(s: &Scene) -> Vec<Id> {
        s.objects
            .iter()
            .map(|o| o.id.clone())
            .chain(s.furniture.iter().map(|f| f.id.clone()))
            .chain(s.devices.iter().map(|d| d.id.clone()))
            .chain(s.actors.iter().map(|a| a.id.clone()))
            .collect()
    }

    #[test]
    fn written_turns_take_the_calendars_place_and_the_rest_is_still_done() {
        let s = scene();
        let fetch = Goal::Fetch {
            object: id("mug_1"),
            to: Dest::On(id("dining_table_1")),
        };
        let claim = Claim {
            entity: id("mug_1"),
            attr: id("location"),
            value: Value::Text("x".into()),
            mode: ClaimMode::Fact,
            holder: None,
            due: None,
        };
        let calendar = vec![
            turn(
                "alice",
                Goal::Say {
                    to: vec![],
                    text: "Morning!".into(),
                    claims: vec![],
                },
            ),
            turn("alice", fetch.clone()),
            turn(
                "bob",
                Goal::Say {
                    to: vec![id("robot")],
                    text: "The mug is on the table.".into(),
                    claims: vec![claim],
                },
            ),
            turn("bob", Goal::Wait { seconds: 600 }),
            turn(
                "lily",
                Goal::Leave {
                    door: id("front_door"),
                    to: crate::trace::request::Destination::School,
                    take: vec![],
                },
            ),
        ];
        let written = vec![
            // Another mug: the same sort of thing takes the place.
            intent("alice", "pour coffee into mug_2 and sit at dining_table_1"),
            intent("bob", "tell alice about the weather"),
            intent("lily", "wave goodbye to alice"),
            intent("carol", "ring the bell"),
        ];
        let inside = |a: &Id| a.as_str() != "carol";
        let m = merge(&s, calendar, written, &inside, &known(&s));
        assert_eq!((m.replaced, m.added, m.spoken), (1, 2, 1));
        assert_eq!(m.dropped, vec!["carol is not in the house".to_string()]);
        let goals: Vec<(&str, &Goal)> = m
            .turns
            .iter()
            .map(|t| (t.actor.as_str(), &t.goal))
            .collect();
        // Alice's small talk is hers to say in her words; Bob's words with
        // a fact stay the calendar's; Lily's goodbye comes before she leaves.
        assert_eq!(
            said_in(goals[0].1).map(|(_, t)| t.as_str()),
            Some("Morning!")
        );
        assert!(matches!(goals[1].1, Goal::Intent { fallback: Some(f), .. } if **f == fetch));
        assert!(goals.iter().any(
            |(a, g)| *a == "bob" && matches!(g, Goal::Say { claims, .. } if !claims.is_empty())
        ));
        assert!(
            goals
                .iter()
                .any(|(a, g)| *a == "bob" && matches!(g, Goal::Wait { .. }))
        );
        let wave = goals
            .iter()
            .position(|(a, g)| *a == "lily" && matches!(g, Goal::Intent { .. }))
            .unwrap();
        let leave = goals
            .iter()
            .position(|(_, g)| matches!(g, Goal::Leave { .. }))
            .unwrap();
        assert!(wave < leave, "{goals:?}");
    }

    #[test]
    fn a_written_turn_after_an_arrival_comes_after_it() {
        let s = scene();
        let calendar = vec![
            turn(
                "bob",
                Goal::Arrive {
                    door: id("front_door"),
                    bring: vec![],
                },
            ),
            turn(
                "robot",
                Goal::Say {
                    to: vec![id("bob")],
                    text: "Welcome back.".into(),
                    claims: vec![],
                },
            ),
        ];
        let m = merge(
            &s,
            calendar,
            vec![intent("bob", "hang keys_1 on coat_rack_1")],
            &|a: &Id| a.as_str() != "bob",
            &known(&s),
        );
        assert!(m.dropped.is_empty());
        assert!(matches!(m.turns[0].goal, Goal::Arrive { .. }));
        assert!(
            matches!(m.turns[1].goal, Goal::Intent { .. }),
            "{:?}",
            m.turns
        );
        // The robot's welcome is its to say in its words.
        assert!(said_in(&m.turns[2].goal).is_some());
    }
}
