//! Roles and weekly schedules (`assets/schedules.ron`): what each role
//! leaves the house for and when, the household's chores per week,
//! visitors, rare events, and the compositions generated households are
//! drawn from. Parsed and checked here (every problem at `file:line:col`);
//! the offline generator's calendar plays it.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::parse::{CatalogueError, checked};
use crate::scene::{ActorDef, ActorKind, Scene};

/// The embedded schedules' RON text.
pub const SCHEDULES_SOURCE: &str = include_str!("../../assets/schedules.ron");

/// The embedded schedules, parsed and checked once.
pub fn schedules() -> &'static Schedules {
    static S: OnceLock<Schedules> = OnceLock::new();
    S.get_or_init(|| {
        parse_schedules("assets/schedules.ron", SCHEDULES_SOURCE)
            .expect("the embedded schedules are valid")
    })
}

/// Where someone going out is headed (the `leave` skill's `to`): what the
/// hours out of the house count as in `trace stats`. `home` is a visitor
/// going back to their own home.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Destination {
    Work,
    School,
    Shopping,
    Errand,
    Exercise,
    Social,
    Appointment,
    Trip,
    Home,
}

impl Destination {
    pub const ALL: [Destination; 9] = [
        Destination::Work,
        Destination::School,
        Destination::Shopping,
        Destination::Errand,
        Destination::Exercise,
        Destination::Social,
        Destination::Appointment,
        Destination::Trip,
        Destination::Home,
    ];

    /// Work or school: the outings a day of duty has (a sick day or a
    /// holiday is off them; a meeting is had there).
    pub fn is_duty(self) -> bool {
        matches!(self, Destination::Work | Destination::School)
    }

    /// The snake_case name, as written.
    pub fn name(self) -> &'static str {
        match self {
            Destination::Work => "work",
            Destination::School => "school",
            Destination::Shopping => "shopping",
            Destination::Errand => "errand",
            Destination::Exercise => "exercise",
            Destination::Social => "social",
            Destination::Appointment => "appointment",
            Destination::Trip => "trip",
            Destination::Home => "home",
        }
    }

    /// As said: "to work", "to the shops".
    pub fn phrase(self) -> &'static str {
        match self {
            Destination::Work => "to work",
            Destination::School => "to school",
            Destination::Shopping => "to the shops",
            Destination::Errand => "out on an errand",
            Destination::Exercise => "for a run",
            Destination::Social => "out to see friends",
            Destination::Appointment => "to an appointment",
            Destination::Trip => "away on a trip",
            Destination::Home => "home",
        }
    }

    /// Where someone is while out there: "at work", "out on an errand".
    pub fn away(self) -> &'static str {
        match self {
            Destination::Work => "at work",
            Destination::School => "at school",
            Destination::Shopping => "at the shops",
            Destination::Errand => "out on an errand",
            Destination::Exercise => "out for a run",
            Destination::Social => "out with friends",
            Destination::Appointment => "at an appointment",
            Destination::Trip => "away on a trip",
            Destination::Home => "out",
        }
    }
}

/// A day of the week.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Weekday {
    Mon,
    Tue,
    Wed,
    Thu,
    Fri,
    Sat,
    Sun,
}

impl Weekday {
    pub const ALL: [Weekday; 7] = [
        Weekday::Mon,
        Weekday::Tue,
        Weekday::Wed,
        Weekday::Thu,
        Weekday::Fri,
        Weekday::Sat,
        Weekday::Sun,
    ];

    /// The weekday of trace day `day` (1-based) when day 1 is `first`.
    pub fn of_day(day: u32, first: Weekday) -> Weekday {
        Self::ALL[(first as usize + day.saturating_sub(1) as usize) % 7]
    }

    pub fn is_weekend(self) -> bool {
        matches!(self, Weekday::Sat | Weekday::Sun)
    }

    /// "Monday".
    pub fn name(self) -> &'static str {
        [
            "Monday",
            "Tuesday",
            "Wednesday",
            "Thursday",
            "Friday",
            "Saturday",
            "Sunday",
        ][self as usize]
    }
}

/// "HH:MM" as seconds after midnight, `None` if malformed.
pub fn clock_secs(t: &str) -> Option<u64> {
    let (h, m) = t.split_once(':')?;
    let (h, m): (u64, u64) = (h.parse().ok()?, m.parse().ok()?);
    (h < 24 && m < 60 && t.len() == 5).then_some(h * 3600 + m * 60)
}

/// A window of clock times, "HH:MM" each, earliest first.
pub type Window = (String, String);

/// The window in seconds after midnight (checked at parse time).
pub fn window_secs(w: &Window) -> (u64, u64) {
    (clock_secs(&w.0).unwrap_or(0), clock_secs(&w.1).unwrap_or(0))
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Schedules {
    pub roles: Vec<ScheduleRole>,
    pub default_adult: String,
    pub default_child: String,
    pub household: Chores,
    pub visitors: Vec<Visitor>,
    pub rare: Rare,
    pub compositions: Vec<Composition>,
}

/// A person's role: their outings on the days of the week, and how real
/// weeks vary (a work day at home, a sick day, a holiday, a late meeting).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScheduleRole {
    pub id: String,
    /// The free-text role generated scenes give such a person.
    pub text: String,
    /// Words of a free-text role that name this one (the default rule).
    pub words: Vec<String>,
    pub adult: bool,
    pub outings: Vec<Outing>,
    /// Chance that a work outing is worked from home instead.
    pub home_days: f64,
    /// Chance a day's work or school is lost to sickness (home all day).
    pub sick: f64,
    /// Chance a work day is a day off.
    pub holiday: f64,
    /// Chance of coming back from work or school an hour or two late.
    pub late: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outing {
    pub to: Destination,
    pub days: Vec<Weekday>,
    pub p: f64,
    pub leave: Window,
    pub back: Window,
    /// Object categories the person takes, those they own.
    #[serde(default)]
    pub take: Vec<String>,
}

/// Days a week (fewest, most) for each chore, and the weekly pharmacy chance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Chores {
    pub laundry: (u32, u32),
    pub tidy: (u32, u32),
    pub vacuum: (u32, u32),
    pub groceries: (u32, u32),
    pub rubbish: (u32, u32),
    pub deliveries: (u32, u32),
    pub pharmacy: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VisitorKind {
    Grandparent,
    Friend,
    Technician,
    Courier,
    /// Comes to the household's parties only.
    Guest,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Visitor {
    pub kind: VisitorKind,
    pub name: String,
    /// Expected visits per 28 days (0: only when called for).
    pub per_month: f64,
    pub days: Vec<Weekday>,
    pub arrive: Window,
    pub leave: Window,
}

/// Expected times per 28 days.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rare {
    pub party: f64,
    pub breakdown: f64,
    pub lost_item: f64,
    pub trip: f64,
    pub trip_days: (u32, u32),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Composition {
    pub name: String,
    pub weight: u32,
    /// The fewest slots kept (the rest are dropped from the end).
    pub min: u32,
    /// The first two share a bedroom.
    pub couple: bool,
    /// Each person's role, drawn from the slot's list.
    pub slots: Vec<Vec<String>>,
}

impl Composition {
    pub fn sizes(&self) -> (u32, u32) {
        (self.min, self.slots.len() as u32)
    }
}

impl Schedules {
    pub fn role(&self, id: &str) -> Option<&ScheduleRole> {
        self.roles.iter().find(|r| r.id == id)
    }

    pub fn visitor(&self, kind: VisitorKind) -> Option<&Visitor> {
        self.visitors.iter().find(|v| v.kind == kind)
    }

    /// The kind of visitor a human who starts outside is: its `schedule`
    /// names the kind (`grandparent`), else a word of its `role` does
    /// ("Lily's grandpa" → grandparent). `None` for anyone else.
    pub fn visitor_of(&self, actor: &ActorDef) -> Option<&Visitor> {
        if !actor.is_visitor() {
            return None;
        }
        let role = actor.role.to_lowercase();
        let words = |k: VisitorKind| -> &[&str] {
            match k {
                VisitorKind::Grandparent => &[
                    "grandparent",
                    "grandpa",
                    "grandma",
                    "grandfather",
                    "grandmother",
                ],
                VisitorKind::Friend => &["friend", "neighbour", "neighbor"],
                VisitorKind::Technician => &["technician", "repair", "plumber"],
                VisitorKind::Courier => &["courier", "delivery"],
                VisitorKind::Guest => &["guest"],
            }
        };
        self.visitors.iter().find(|v| {
            let name = serde_json::to_value(v.kind).ok();
            let named = actor
                .schedule
                .as_ref()
                .is_some_and(|s| name.as_ref().and_then(|n| n.as_str()) == Some(s.as_str()));
            named || words(v.kind).iter().any(|w| role.contains(w))
        })
    }

    /// The role `actor` plays: its `schedule` if that names a role, else
    /// the first role (in file order) one of whose words its free-text
    /// `role` contains, else `default_adult` for the first two humans of
    /// `scene` and `default_child` for the others.
    pub fn role_of(&self, scene: &Scene, actor: &ActorDef) -> &ScheduleRole {
        if let Some(r) = actor.schedule.as_ref().and_then(|s| self.role(s.as_str())) {
            return r;
        }
        let text = actor.role.to_lowercase();
        if let Some(r) = self
            .roles
            .iter()
            .find(|r| r.words.iter().any(|w| text.contains(&w.to_lowercase())))
        {
            return r;
        }
        let nth = scene
            .actors
            .iter()
            .filter(|a| a.kind == ActorKind::Human)
            .position(|a| a.id == actor.id)
            .unwrap_or(0);
        let id = if nth < 2 {
            &self.default_adult
        } else {
            &self.default_child
        };
        self.role(id).unwrap_or(&self.roles[0])
    }
}

/// Parses and checks schedules; `origin` names the source in errors. Every
/// problem at once, located at the name it is about: malformed or
/// backwards times, probabilities outside 0..1, unknown or repeated roles,
/// impossible day counts.
pub fn parse_schedules(origin: &str, src: &str) -> Result<Schedules, CatalogueError> {
    let s: Schedules = crate::located::parse_ron(ron::Options::default(), origin, src)?;
    let problems = check(&s);
    checked(origin, src, s, problems)
}

fn check(s: &Schedules) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut bad = |name: &str, msg: String| out.push((name.to_string(), msg));
    let window = |at: &str, w: &Window, bad: &mut dyn FnMut(&str, String)| {
        for t in [&w.0, &w.1] {
            if clock_secs(t).is_none() {
                bad(t, format!("{at}: {t:?} is not a time HH:MM"));
            }
        }
        if let (Some(a), Some(b)) = (clock_secs(&w.0), clock_secs(&w.1))
            && a > b
        {
            bad(
                &w.0,
                format!("{at}: window {:?}..{:?} ends before it starts", w.0, w.1),
            );
        }
    };
    let p = |x: f64| (0.0..=1.0).contains(&x);
    let mut seen = BTreeSet::new();
    for r in &s.roles {
        if !seen.insert(r.id.as_str()) {
            bad(&r.id, format!("role {:?} is defined twice", r.id));
        }
        for (what, x) in [
            ("home_days", r.home_days),
            ("sick", r.sick),
            ("holiday", r.holiday),
            ("late", r.late),
        ] {
            if !p(x) {
                bad(
                    &r.id,
                    format!("role {:?}: {what} {x} is not a probability", r.id),
                );
            }
        }
        for o in &r.outings {
            let at = format!("role {:?}, outing {:?}", r.id, o.to);
            window(&at, &o.leave, &mut bad);
            window(&at, &o.back, &mut bad);
            if !p(o.p) || o.days.is_empty() {
                bad(
                    &r.id,
                    format!("{at}: needs days and a probability p in 0..1"),
                );
            }
            let (l, b) = (window_secs(&o.leave).1, window_secs(&o.back).0);
            if l >= b {
                bad(&o.back.0, format!("{at}: back before leaving"));
            }
        }
    }
    for d in [&s.default_adult, &s.default_child] {
        if s.role(d).is_none() {
            bad(d, format!("no role {d:?}"));
        }
    }
    let c = &s.household;
    for (what, (lo, hi)) in [
        ("laundry", c.laundry),
        ("tidy", c.tidy),
        ("vacuum", c.vacuum),
        ("groceries", c.groceries),
        ("rubbish", c.rubbish),
        ("deliveries", c.deliveries),
    ] {
        if lo > hi || hi > 7 {
            bad(
                what,
                format!("{what}: ({lo}, {hi}) days a week is impossible"),
            );
        }
    }
    if !p(c.pharmacy) {
        bad("pharmacy", "pharmacy is not a probability".into());
    }
    for v in &s.visitors {
        let at = format!("visitor {:?}", v.name);
        window(&at, &v.arrive, &mut bad);
        window(&at, &v.leave, &mut bad);
        if v.days.is_empty() || v.per_month < 0.0 {
            bad(
                &v.name,
                format!("{at}: needs days and a rate of at least 0"),
            );
        }
    }
    if s.rare.trip_days.0 > s.rare.trip_days.1 || s.rare.trip_days.0 == 0 {
        bad("trip_days", "trip_days: (fewest, most), at least 1".into());
    }
    for k in &s.compositions {
        if k.slots.is_empty() || k.min == 0 || k.min as usize > k.slots.len() || k.weight == 0 {
            bad(
                &k.name,
                format!(
                    "composition {:?}: needs a weight, and 1 <= min <= slots",
                    k.name
                ),
            );
        }
        for r in k.slots.iter().flatten() {
            if s.role(r).is_none() {
                bad(r, format!("composition {:?}: no role {r:?}", k.name));
            }
        }
        if k.slots.iter().any(Vec::is_empty) {
            bad(&k.name, format!("composition {:?}: an empty slot", k.name));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_schedules_parse_and_weekdays_run_from_monday() {
        let s = schedules();
        assert!(s.role("hybrid_worker").is_some_and(|r| r.home_days > 0.0));
        assert_eq!(Weekday::of_day(1, Weekday::Mon), Weekday::Mon);
        assert_eq!(Weekday::of_day(6, Weekday::Mon), Weekday::Sat);
        assert_eq!(Weekday::of_day(8, Weekday::Mon), Weekday::Mon);
        assert_eq!(Weekday::of_day(2, Weekday::Sun), Weekday::Mon);
        assert_eq!(clock_secs("07:30"), Some(7 * 3600 + 1800));
        for bad in ["7:30", "24:00", "07:60", "ab:cd"] {
            assert_eq!(clock_secs(bad), None, "{bad}");
        }
    }

    #[test]
    fn bad_schedules_are_refused_where_they_are_wrong() {
        let src = SCHEDULES_SOURCE.replacen("\"07:30\"", "\"7h30\"", 1);
        let e = parse_schedules("s.ron", &src).unwrap_err().to_string();
        let line = SCHEDULES_SOURCE[..SCHEDULES_SOURCE.find("\"07:30\"").unwrap()]
            .matches('\n')
            .count()
            + 1;
        assert!(e.contains(&format!("s.ron:{line}:")), "{e}");
        assert!(e.contains("not a time"), "{e}");
        let src = SCHEDULES_SOURCE.replacen("slots: [[\"retiree\"]", "slots: [[\"astronaut\"]", 1);
        let e = parse_schedules("s.ron", &src).unwrap_err().to_string();
        assert!(e.contains("no role \"astronaut\""), "{e}");
        let src = SCHEDULES_SOURCE.replacen("laundry: (2, 3)", "laundry: (3, 2)", 1);
        let e = parse_schedules("s.ron", &src).unwrap_err().to_string();
        assert!(e.contains("laundry: (3, 2)"), "{e}");
        // Not RON at all: a syntax error with its line and column.
        let src = SCHEDULES_SOURCE.replacen("adult: true,", "adult: maybe,", 1);
        let e = parse_schedules("s.ron", &src).unwrap_err().to_string();
        assert!(e.starts_with("s.ron:"), "{e}");
    }

    fn builtin(id: &str) -> Result<Scene, ()> {
        let src = crate::scene::BUILTIN
            .iter()
            .find(|(i, _)| *i == id)
            .ok_or(())?
            .1;
        crate::scene::parse(id, src).map_err(|_| ())
    }

    fn sc_actor() -> ActorDef {
        let mut a = builtin("studio").unwrap().actors[0].clone();
        a.schedule = None;
        a
    }

    #[test]
    fn built_in_scene_people_get_the_roles_their_words_say() {
        let s = schedules();
        let got = |scene: &str| -> Vec<(String, String)> {
            let sc = builtin(scene).unwrap();
            sc.actors
                .iter()
                .filter(|a| a.kind == ActorKind::Human && s.visitor_of(a).is_none())
                .map(|a| {
                    let mut free = a.clone();
                    free.schedule = None;
                    (a.id.to_string(), s.role_of(&sc, &free).id.clone())
                })
                .collect()
        };
        let pairs = |xs: &[(&str, &str)]| -> Vec<(String, String)> {
            xs.iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect()
        };
        // The default rule reads the free text; the scenes say the same.
        assert_eq!(
            got("family_apartment"),
            pairs(&[
                ("alice", "hybrid_worker"),
                ("bob", "office_worker"),
                ("lily", "school_child")
            ])
        );
        assert_eq!(got("studio"), pairs(&[("sam", "student")]));
        // Who starts outside is a visitor, of the kind their words say.
        let kind = |scene: &str, id: &str| {
            let sc = builtin(scene).unwrap();
            let a = sc.actors.iter().find(|a| a.id.as_str() == id).unwrap();
            s.visitor_of(a).map(|v| v.kind)
        };
        assert_eq!(
            kind("family_apartment", "grandpa"),
            Some(VisitorKind::Grandparent)
        );
        assert_eq!(kind("large_house", "chris"), Some(VisitorKind::Friend));
        assert_eq!(kind("family_apartment", "alice"), None);
        for name in ["family_apartment", "large_house", "studio"] {
            let sc = builtin(name).unwrap();
            let household = sc
                .actors
                .iter()
                .filter(|a| a.kind == ActorKind::Human && s.visitor_of(a).is_none());
            for a in household {
                let id = a
                    .schedule
                    .as_ref()
                    .expect("built-in people have a schedule");
                assert!(s.role(id.as_str()).is_some(), "{id}");
            }
        }
        // The text generated scenes write names its own role again.
        for r in &s.roles {
            let mut a = sc_actor();
            a.role = r.text.clone();
            let sc = builtin("studio").unwrap();
            assert_eq!(s.role_of(&sc, &a).id, r.id, "{}", r.text);
        }
        // No words at all: the first two are adults, the rest children.
        let sc = builtin("large_house").unwrap();
        let mut blank = sc.actors[3].clone();
        blank.role = "someone".into();
        blank.schedule = None;
        assert_eq!(s.role_of(&sc, &blank).id, "school_child");
        blank = sc.actors[0].clone();
        blank.role = "someone".into();
        blank.schedule = None;
        assert_eq!(s.role_of(&sc, &blank).id, "office_worker");
    }
}
