//! The household's calendar: the day of the week, each person's blocks out
//! of the house from their role (`assets/schedules.ron`), the week's chore
//! days, calls and rare events (`day_plan.rs` makes the day's sessions of
//! it). Drawn on a stream of its own, so the calendar is a function of the
//! seed and the scene only, whatever the sessions draw, but for what the
//! days bring back: a repair the technician could not be let in for is
//! booked again, a breakdown waits until the last one is repaired, and
//! staples run out between shops send someone out to top up.

use std::collections::BTreeSet;

use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::ledger::Repairs;
use super::people::{Person, person};
use crate::catalogue::Roles;
use crate::catalogue::schedules::{
    self, Destination, ScheduleRole, Visitor, VisitorKind, Weekday, window_secs,
};
use crate::generation::{Context, SessionKind, SessionParams};
use crate::ids::Id;
use crate::scene::Scene;
use crate::trace::DAY;

const H: u64 = 3600;
const M: u64 = 60;

/// The stream of the calendar's draws.
pub(super) const CAL_STREAM: u64 = 0x63616c;

/// A session to be: planned time (seconds of the day), kind, project, params.
#[derive(Clone)]
pub(super) struct Planned {
    pub at: u64,
    pub kind: SessionKind,
    pub project: Option<&'static str>,
    pub params: SessionParams,
}

impl Planned {
    pub fn new(at: u64, kind: SessionKind) -> Self {
        Planned {
            at,
            kind,
            project: None,
            params: SessionParams::default(),
        }
    }

    pub(super) fn of(at: u64, kind: SessionKind, project: &'static str) -> Self {
        Planned {
            project: Some(project),
            ..Planned::new(at, kind)
        }
    }

    pub(super) fn with(mut self, set: impl FnOnce(&mut SessionParams)) -> Self {
        set(&mut self.params);
        self
    }

    /// With `who`, the person it is about.
    pub(super) fn of_who(self, who: &Id) -> Self {
        self.with(|p| p.who = Some(who.clone()))
    }
}

/// A person's time out of the house today (seconds of the day).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Out {
    pub who: Id,
    pub to: Destination,
    pub leave: u64,
    pub back: u64,
    /// What they take (their own things of the outing's categories).
    pub take: Vec<Id>,
}

/// A chore done on some days of the week.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Chore {
    Laundry,
    Tidy,
    Vacuum,
    Groceries,
    /// A parcel is delivered (left on the doorstep).
    Delivery,
}

/// How a person's day differs from their role's plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum DayOff {
    Sick,
    Holiday,
}

/// Everything the calendar decided for one day.
#[derive(Debug, Clone, Default)]
pub(super) struct Day {
    pub weekday: Option<Weekday>,
    pub outs: Vec<Out>,
    /// People working (or studying) at home today.
    pub at_desk: Vec<Id>,
    pub off: Vec<(Id, DayOff)>,
    pub chores: BTreeSet<Chore>,
    /// When today's parcel is left on the doorstep (seconds of the day).
    pub delivery: Option<u64>,
    /// Who calls today: (visitor, arrives, leaves), seconds of the day.
    pub visits: Vec<(Id, u64, u64)>,
    /// A device stops working today: (when, device, the day the repair is
    /// booked for).
    pub breakdown: Option<(u64, Id, u32)>,
    /// The repair technician calls: (technician, arrives, leaves, device).
    pub repair: Option<(Id, u64, u64, Id)>,
    /// A party: (starts, ends); its guests' calls are in `visits`.
    pub party: Option<(u64, u64)>,
}

impl Day {
    pub fn weekend(&self) -> bool {
        self.weekday.is_some_and(Weekday::is_weekend)
    }

    /// Whether `who` is out at second `t` of the day.
    pub fn is_out(&self, who: &Id, t: u64) -> bool {
        self.outs
            .iter()
            .any(|o| &o.who == who && (o.leave..o.back).contains(&t))
    }

    /// Of `humans`, those at home at second `t` of the day.
    pub fn home_at(&self, humans: &[Id], t: u64) -> Vec<Id> {
        humans
            .iter()
            .filter(|h| !self.is_out(h, t))
            .cloned()
            .collect()
    }

    /// Whether `who` is home for all of `from..to`.
    pub fn home_during(&self, who: &Id, from: u64, to: u64) -> bool {
        !self
            .outs
            .iter()
            .any(|o| &o.who == who && o.leave < to && o.back > from)
    }
}

/// A person's role, resolved once.
#[derive(Debug, Clone)]
pub(super) struct Member {
    pub id: Id,
    pub role: ScheduleRole,
}

impl Member {
    pub fn retired(&self) -> bool {
        self.role.id == "retiree"
    }
}

/// The household's calendar, kept from day to day: its own draws, the
/// weekday of day 1, who lives here and who may call, this week's chores,
/// a trip under way, today as planned.
#[derive(Clone)]
pub(super) struct Calendar {
    /// The calendar's own draws ([`CAL_STREAM`]).
    pub(super) cal: ChaCha8Rng,
    /// The weekday of day 1.
    pub(super) first_weekday: Weekday,
    /// Each human's role, in scene order.
    pub(super) members: Vec<Member>,
    /// Who may call, with how often and when (`assets/schedules.ron`).
    visitors: Vec<(Id, Visitor)>,
    /// This week's chore days, as (day, chore).
    week: BTreeSet<(u32, Chore)>,
    /// A trip away of the whole household: (first day, last day).
    trip: Option<(u32, u32)>,
    /// The weekly shop could not be done on its day (a visitor in, every
    /// adult out): it is done the next day that it can.
    shop_owed: bool,
    /// The day of the last shop, weekly or top-up (0: none yet).
    last_shop: u32,
    /// The last day planned, kept so that asking for it again (an LLM's
    /// prompt, then the script's fallback) draws nothing.
    planned: Option<(u32, Day, Vec<Planned>)>,
    /// Today, as planned.
    pub(super) today: Day,
}

/// What a day's draws need besides the calendar: the scene's roles, the
/// repairs ledger (a breakdown waits for its repair) and the people (what
/// each takes out).
pub(super) struct Household<'a> {
    pub roles: &'a Roles,
    pub repairs: &'a mut Repairs,
    pub people: &'a [Person],
    /// The shopping list: kinds, once for each one finished.
    pub list: &'a [String],
}

impl Calendar {
    /// The calendar of `scene`'s household, drawn from `seed` on a stream
    /// of its own, day 1 a Monday.
    pub fn new(scene: &Scene, seed: u64) -> Self {
        let mut cal = ChaCha8Rng::seed_from_u64(seed);
        cal.set_stream(CAL_STREAM);
        let sched = schedules::schedules();
        // The household is who starts at home; who starts outside may call.
        let members = scene
            .actors
            .iter()
            .filter(|a| a.lives_here())
            .map(|a| Member {
                id: a.id.clone(),
                role: sched.role_of(scene, a).clone(),
            })
            .collect();
        let visitors = scene
            .actors
            .iter()
            .filter_map(|a| Some((a.id.clone(), sched.visitor_of(a)?.clone())))
            .collect();
        Calendar {
            cal,
            first_weekday: Weekday::Mon,
            members,
            visitors,
            week: BTreeSet::new(),
            trip: None,
            shop_owed: false,
            last_shop: 0,
            planned: None,
            today: Day::default(),
        }
    }

    /// Whether `who` is a retired member of the household.
    pub(super) fn retired(&self, who: &Id) -> bool {
        self.members.iter().any(|m| &m.id == who && m.retired())
    }

    /// Whether `who` is a grown-up of the household.
    pub(super) fn adult(&self, who: &Id) -> bool {
        self.members.iter().any(|m| &m.id == who && m.role.adult)
    }

    /// Today's calendar: chore days drawn each Monday (and on day 1) for
    /// the rest of the week, then each person's outings.
    pub(super) fn plan_day(&mut self, cx: &Context, day: u32, h: Household) -> (Day, Vec<Planned>) {
        if let Some((d, today, plan)) = &self.planned
            && *d == day
        {
            return (today.clone(), plan.clone());
        }
        let today = self.draw_day(day, h.repairs, h.people, h.list);
        let plan = self.day_plan(cx, &today, h.roles);
        self.planned = Some((day, today.clone(), plan.clone()));
        (today, plan)
    }

    /// Day `day` of the calendar, in words, for a model that writes the
    /// day (the LLM backend's prompts): the same calendar the script
    /// keeps, so a model's days have the shape of the script's.
    pub fn words(&mut self, cx: &Context, day: u32, h: Household) -> Vec<String> {
        let people = h.people;
        let (d, _) = self.plan_day(cx, day, h);
        let name = |id: &Id| format!("{} ({id})", person(people, id).name);
        let weekday = d.weekday.map_or("", Weekday::name);
        let kind = if d.weekend() {
            "the weekend"
        } else {
            "a weekday"
        };
        // The session kinds once, not on every line: the room is short.
        let mut out = vec![format!(
            "{weekday}, {kind}. Going out is a leave session, coming back an arrive session, a call a visit then a visit_end session."
        )];
        for o in &d.outs {
            let who = name(&o.who);
            let take = if o.take.is_empty() {
                String::new()
            } else {
                let t: Vec<&str> = o.take.iter().map(Id::as_str).collect();
                format!(", taking {}", t.join(", "))
            };
            out.push(match (o.leave, o.back < DAY) {
                (0, true) => format!("{who} is {} until {}.", o.to.away(), hhmm(o.back)),
                (0, false) => format!("{who} is {} all day.", o.to.away()),
                (l, true) => format!(
                    "{who} goes {} at {}{take}, back at {}.",
                    o.to.phrase(),
                    hhmm(l),
                    hhmm(o.back)
                ),
                (l, false) => format!("{who} goes {} at {}{take}.", o.to.phrase(), hhmm(l)),
            });
        }
        for who in &d.at_desk {
            out.push(format!("{} works at home today.", name(who)));
        }
        for (who, off) in &d.off {
            let why = match off {
                DayOff::Sick => "off sick, at home",
                DayOff::Holiday => "on holiday, at home",
            };
            out.push(format!("{} is {why} today.", name(who)));
        }
        let chores: Vec<&str> = d
            .chores
            .iter()
            .filter_map(|c| match c {
                Chore::Laundry => Some("laundry"),
                Chore::Tidy => Some("a tidy"),
                Chore::Vacuum => Some("the weekly vacuum"),
                Chore::Groceries => Some("the weekly shop"),
                Chore::Delivery => None,
            })
            .collect();
        if !chores.is_empty() {
            out.push(format!("Chores today: {}.", chores.join(", ")));
        }
        match (d.delivery, self.courier()) {
            (Some(t), Some(c)) => out.push(format!(
                "{} brings a parcel at about {} (a delivery session).",
                name(&c),
                hhmm(t)
            )),
            (Some(t), None) => out.push(format!(
                "A parcel is left on the doorstep at about {}.",
                hhmm(t)
            )),
            _ => {}
        }
        if let Some((at, device, booked)) = &d.breakdown {
            out.push(format!(
                "At about {} the {device} stops working (a breakdown session); the repair technician is booked for {}.",
                hhmm(*at),
                Weekday::of_day(*booked, self.first_weekday).name()
            ));
        }
        if let Some((who, arrive, leave, device)) = &d.repair {
            out.push(format!(
                "{}, the repair technician, comes from {} to {} to fix the {device} (a repair session).",
                name(who),
                hhmm(*arrive),
                hhmm(*leave)
            ));
        }
        if let Some((start, end)) = d.party {
            out.push(format!(
                "A party from {} to {} (a party session for the music, a visit for each guest, a party_end session).",
                hhmm(start),
                hhmm(end)
            ));
        }
        for (who, arrive, leave) in &d.visits {
            out.push(format!(
                "{} visits from {} to {}.",
                name(who),
                hhmm(*arrive),
                hhmm(*leave)
            ));
        }
        let home = d.home_at(&cx.humans, 12 * H);
        if home.is_empty() && !cx.humans.is_empty() {
            out.push("At noon nobody is home: only the robot.".into());
        }
        out
    }

    fn draw_day(
        &mut self,
        day: u32,
        repairs: &mut Repairs,
        people: &[Person],
        list: &[String],
    ) -> Day {
        let weekday = Weekday::of_day(day, self.first_weekday);
        let cal = &mut self.cal;
        if day == 1 || weekday == Weekday::Mon {
            let left = 7 - weekday as u32;
            let c = &schedules::schedules().household;
            self.week.clear();
            for (chore, (lo, hi)) in [
                (Chore::Laundry, c.laundry),
                (Chore::Tidy, c.tidy),
                (Chore::Vacuum, c.vacuum),
                (Chore::Groceries, c.groceries),
                (Chore::Delivery, c.deliveries),
            ] {
                // A part week gets its share, rounded up.
                let n = cal.random_range(lo..=hi);
                let n = (n * left).div_ceil(7).min(left) as usize;
                let mut days: Vec<u32> = (day..day + left).collect();
                days.shuffle(cal);
                // The weekly clean and shop fall on a weekend more often.
                if matches!(chore, Chore::Vacuum | Chore::Groceries) && cal.random_bool(0.6) {
                    days.sort_by_key(|d| !Weekday::of_day(*d, self.first_weekday).is_weekend());
                }
                for d in days.into_iter().take(n) {
                    self.week.insert((d, chore));
                }
            }
        }
        let chores = self
            .week
            .iter()
            .filter(|(d, _)| *d == day)
            .map(|(_, c)| *c)
            .collect();
        let mut out = Day {
            weekday: Some(weekday),
            chores,
            ..Day::default()
        };
        if out.chores.contains(&Chore::Delivery) {
            let courier = schedules::schedules()
                .visitor(VisitorKind::Courier)
                .map_or((9 * H + 30 * M, 16 * H + 30 * M), |v| {
                    window_secs(&v.arrive)
                });
            out.delivery = Some(draw_in(&mut self.cal, courier));
        }
        let members = self.members.clone();
        let breaks = self
            .cal
            .random_bool(schedules::schedules().rare.breakdown / 28.0);
        let trip = self.trip_day(day, &members, people, &mut out);
        self.repair_calls(day, weekday, breaks, &members, repairs, &mut out);
        if trip {
            self.shop_owed |= out.chores.contains(&Chore::Groceries);
            return out;
        }
        for m in &members {
            self.outings_of(m, weekday, people, &mut out);
        }
        self.mind_young_children(&members, &mut out);
        self.visits(&members, weekday, &mut out);
        self.plan_party(&members, weekday, &mut out);
        if out.chores.contains(&Chore::Groceries) || self.shop_owed {
            self.shop_owed = !self.shop(day, &members, people, &mut out, false);
        } else if self.top_up_due(day, list) {
            self.shop(day, &members, people, &mut out, true);
        }
        out.outs
            .sort_by(|a, b| (a.leave, &a.who).cmp(&(b.leave, &b.who)));
        out
    }

    /// A trip of the whole household now and then (`rare.trip` per 28
    /// days, `rare.trip_days` nights): out from the first morning to the
    /// last afternoon, the house left to the robot. Whether today is one.
    fn trip_day(&mut self, day: u32, members: &[Member], people: &[Person], out: &mut Day) -> bool {
        let rare = &schedules::schedules().rare;
        let starts = self.cal.random_bool(rare.trip / 28.0);
        if day > 1 && starts && self.trip.is_none_or(|(_, end)| end < day) {
            let nights = self.cal.random_range(rare.trip_days.0..=rare.trip_days.1);
            self.trip = Some((day, day + nights));
        }
        let Some((first, last)) = self.trip.filter(|(a, b)| (*a..=*b).contains(&day)) else {
            return false;
        };
        let leave = 9 * H + 30 * M + self.cal.random_range(0..=6) * 10 * M;
        let back = 16 * H + self.cal.random_range(0..=12) * 15 * M;
        for m in members {
            let take = take_of(
                people,
                &m.id,
                &["keys", "phone", "wallet", "bag", "laptop"].map(String::from),
            );
            out.outs.push(Out {
                who: m.id.clone(),
                to: Destination::Trip,
                leave: if day == first { leave } else { 0 },
                back: if day == last { back } else { DAY },
                take,
            });
        }
        true
    }

    fn outings_of(&mut self, m: &Member, weekday: Weekday, people: &[Person], day: &mut Day) {
        let mut cal = self.cal.clone();
        let r = &m.role;
        let has_duty = r
            .outings
            .iter()
            .any(|o| o.to.is_duty() && o.days.contains(&weekday));
        let off = if has_duty && cal.random_bool(r.sick) {
            Some(DayOff::Sick)
        } else if has_duty && cal.random_bool(r.holiday) {
            Some(DayOff::Holiday)
        } else {
            None
        };
        if let Some(off) = off {
            day.off.push((m.id.clone(), off));
        }
        let mut mine: Vec<Out> = vec![];
        for o in &r.outings {
            if !o.days.contains(&weekday) || !cal.random_bool(o.p) {
                continue;
            }
            if off == Some(DayOff::Sick) || (off.is_some() && o.to.is_duty()) {
                continue;
            }
            if o.to.is_duty() && cal.random_bool(r.home_days) {
                day.at_desk.push(m.id.clone());
                continue;
            }
            let leave = draw_in(&mut cal, window_secs(&o.leave));
            let mut back = draw_in(&mut cal, window_secs(&o.back)).max(leave + 30 * M);
            if o.to.is_duty() && cal.random_bool(r.late) {
                back += cal.random_range(4..=8) * 15 * M;
            }
            // Home before the night; never two outings at once.
            back = back.min(23 * H);
            if mine
                .iter()
                .any(|x| x.leave < back + 15 * M && leave < x.back + 15 * M)
            {
                continue;
            }
            let take = take_of(people, &m.id, &o.take);
            mine.push(Out {
                who: m.id.clone(),
                to: o.to,
                leave,
                back,
                take,
            });
        }
        // Students and home workers with no class or errand study at home.
        if mine.iter().all(|o| !o.to.is_duty())
            && !weekday.is_weekend()
            && off.is_none()
            && !day.at_desk.contains(&m.id)
            && r.adult
            && r.outings.iter().all(|o| o.to != Destination::Work)
            && r.id != "retiree"
        {
            day.at_desk.push(m.id.clone());
        }
        day.outs.extend(mine);
        self.cal = cal;
    }

    /// A young child is never home without a grown-up: while every adult
    /// is out, the child is at daycare (out from the first of those
    /// moments to the last).
    fn mind_young_children(&mut self, members: &[Member], day: &mut Day) {
        let adults: Vec<Id> = members
            .iter()
            .filter(|m| m.role.adult)
            .map(|m| m.id.clone())
            .collect();
        for m in members.iter().filter(|m| m.role.id == "young_child") {
            let unminded: Vec<u64> = (7 * 4..23 * 4)
                .map(|q| q * 15 * M)
                .filter(|t| adults.iter().all(|a| day.is_out(a, *t)))
                .collect();
            if let (Some(first), Some(last)) = (unminded.first(), unminded.last()) {
                day.outs.push(Out {
                    who: m.id.clone(),
                    to: Destination::School,
                    leave: first.saturating_sub(15 * M),
                    back: last + 15 * M,
                    take: vec![],
                });
            }
        }
    }

    /// A breakdown now and then (`rare.breakdown` in 28 days, when none is
    /// waiting for its repair), found by a grown-up at home; the repair
    /// technician booked for their next working day, let in by whoever is
    /// home, the robot if nobody is.
    fn repair_calls(
        &mut self,
        day: u32,
        weekday: Weekday,
        breaks: bool,
        members: &[Member],
        repairs: &mut Repairs,
        out: &mut Day,
    ) {
        let (Some(tech), Some(v)) = (
            self.visitor_of_kind(VisitorKind::Technician),
            schedules::schedules().visitor(VisitorKind::Technician),
        ) else {
            return;
        };
        if let Some(device) = repairs.booked_by(day) {
            if v.days.contains(&weekday) {
                let arrive = draw_in(&mut self.cal, window_secs(&v.arrive));
                let leave = arrive + (40 + self.cal.random_range(0..=6) * 5) * M;
                out.repair = Some((tech, arrive, leave, device));
                repairs.booking_kept();
            }
            return;
        }
        if !breaks || !repairs.may_break() {
            return;
        }
        let Some(device) = repairs.breakable().choose(&mut self.cal).cloned() else {
            return;
        };
        let at = [8 * H + 15 * M, 13 * H + 15 * M, 19 * H + 15 * M]
            .into_iter()
            .find(|t| {
                members
                    .iter()
                    .any(|m| m.role.adult && out.home_during(&m.id, *t, t + 20 * M))
            });
        let Some(at) = at else { return };
        let booked = (day + 1..day + 8)
            .find(|d| v.days.contains(&Weekday::of_day(*d, self.first_weekday)))
            .unwrap_or(day + 1);
        out.breakdown = Some((at, device.clone(), booked));
        repairs.book(booked, device);
    }

    /// The visitor of `kind` the scene has, if any.
    pub(super) fn visitor_of_kind(&self, kind: VisitorKind) -> Option<Id> {
        self.visitors
            .iter()
            .find(|(_, v)| v.kind == kind)
            .map(|(id, _)| id.clone())
    }

    /// The courier who calls with parcels, if the scene has one.
    pub(super) fn courier(&self) -> Option<Id> {
        self.visitor_of_kind(VisitorKind::Courier)
    }

    /// Visitors on their days, `per_month` times in 28 days on average,
    /// when a grown-up is home for the whole call.
    fn visits(&mut self, members: &[Member], weekday: Weekday, day: &mut Day) {
        for (who, v) in self.visitors.clone() {
            if v.per_month <= 0.0 || !v.days.contains(&weekday) {
                continue;
            }
            let p = (v.per_month / (4.0 * v.days.len() as f64)).min(1.0);
            if !self.cal.random_bool(p) {
                continue;
            }
            let arrive = draw_in(&mut self.cal, window_secs(&v.arrive));
            let leave = draw_in(&mut self.cal, window_secs(&v.leave)).max(arrive + 45 * M);
            let hosted = members
                .iter()
                .any(|m| m.role.adult && day.home_during(&m.id, arrive, leave));
            if hosted {
                day.visits.push((who, arrive, leave));
            }
        }
    }

    /// A party now and then (`rare.party` in 28 days) on a guest's evening
    /// (Friday or Saturday), when a grown-up is home all evening (a call
    /// already drawn for the evening joins it): the household's friends and
    /// family and the party guests
    /// come a few minutes apart and go a few minutes apart.
    fn plan_party(&mut self, members: &[Member], weekday: Weekday, day: &mut Day) {
        let Some(v) = schedules::schedules().visitor(VisitorKind::Guest) else {
            return;
        };
        if !v.days.contains(&weekday) {
            return;
        }
        let p = schedules::schedules().rare.party / (4.0 * v.days.len() as f64);
        if !self.cal.random_bool(p.min(1.0)) {
            return;
        }
        let start = draw_in(&mut self.cal, window_secs(&v.arrive));
        let end = draw_in(&mut self.cal, window_secs(&v.leave));
        let hosted = members
            .iter()
            .any(|m| m.role.adult && day.home_during(&m.id, start - 30 * M, end + 30 * M));
        // A call already drawn for today becomes the party's.
        if !hosted
            || day
                .visits
                .iter()
                .any(|(_, a, l)| *a < start - 30 * M || *l > end + 30 * M)
        {
            return;
        }
        let guests: Vec<Id> = self
            .visitors
            .iter()
            .filter(|(_, v)| {
                matches!(
                    v.kind,
                    VisitorKind::Guest | VisitorKind::Friend | VisitorKind::Grandparent
                )
            })
            .map(|(id, _)| id.clone())
            .collect();
        if guests.len() < 2 {
            return;
        }
        day.visits.clear();
        // The household stays in for its party (work and school aside).
        day.outs.retain(|o| {
            matches!(
                o.to,
                Destination::Work | Destination::School | Destination::Trip
            ) || o.back <= start - 30 * M
                || o.leave >= end
        });
        for (i, g) in guests.into_iter().enumerate() {
            let i = i as u64;
            day.visits.push((g, start + i * 10 * M, end - i * 5 * M));
        }
        day.party = Some((start, end));
    }

    /// A departure to `to` given up on the day (just in from elsewhere,
    /// kept busy): a shop given up is done the next day it can.
    pub(super) fn gave_up(&mut self, to: Destination) {
        if matches!(to, Destination::Shopping | Destination::Errand) {
            self.shop_owed = true;
        }
    }

    /// Whether the staples have run out well before the next shop: two of
    /// the breakfast foods on the list, three days or more since the last
    /// shop, and the weekly one not due tomorrow.
    fn top_up_due(&self, day: u32, list: &[String]) -> bool {
        let cat = crate::catalogue::builtin();
        let staples = list
            .iter()
            .filter(|c| {
                cat.category(c)
                    .is_some_and(|k| k.roles.contains(&crate::scene::Role::BreakfastFood))
            })
            .count();
        staples >= 2
            && day >= self.last_shop + 3
            && !self.week.contains(&(day + 1, Chore::Groceries))
    }

    /// The weekly shop (or, `top_up`, a quick one for the staples run out):
    /// an adult home at the time goes, the weekly shop with a pharmacy stop
    /// some weeks; Saturday mornings, weekday evenings. Whether one could go.
    fn shop(
        &mut self,
        today: u32,
        members: &[Member],
        people: &[Person],
        day: &mut Day,
        top_up: bool,
    ) -> bool {
        let weekend = day.weekend();
        let (leave, len) = match (weekend, top_up) {
            (true, false) => (10 * H + self.cal.random_range(0..=8) * 5 * M, 75 * M),
            (false, false) => (
                18 * H + 45 * M + self.cal.random_range(0..=3) * 5 * M,
                50 * M,
            ),
            // A top-up after dinner on a weekday (the corner shop is open).
            (true, true) => (11 * H + self.cal.random_range(0..=12) * 5 * M, 25 * M),
            (false, true) => (20 * H + self.cal.random_range(0..=6) * 5 * M, 25 * M),
        };
        let len = len + self.cal.random_range(0..=4) * 5 * M;
        let pharmacy = !top_up
            && self
                .cal
                .random_bool(schedules::schedules().household.pharmacy);
        // Not while a visitor is here (the host stays in).
        let back = leave + len + 30 * M;
        if day.visits.iter().any(|(_, a, l)| leave < *l && back > *a) {
            return false;
        }
        let free: Vec<&Member> = members
            .iter()
            .filter(|m| m.role.adult && day.home_during(&m.id, leave, back))
            .collect();
        let Some(m) = free.choose(&mut self.cal) else {
            return false;
        };
        let who = m.id.clone();
        self.last_shop = today;
        day.outs.push(Out {
            take: take_of(
                people,
                &who,
                &["keys".into(), "wallet".into(), "bag".into(), "phone".into()],
            ),
            who,
            to: if pharmacy {
                Destination::Errand
            } else {
                Destination::Shopping
            },
            leave,
            back: leave + len,
        });
        true
    }
}

/// Their own things of `categories` (the first of each they own, or
/// today's where look-alikes gave a choice).
fn take_of(people: &[Person], who: &Id, categories: &[String]) -> Vec<Id> {
    let p = person(people, who);
    categories
        .iter()
        .filter_map(|c| {
            let v = p.owned.get(c)?;
            Some(p.today.get(c).unwrap_or(v.first()?).clone())
        })
        .collect()
}

/// A time in the window `(a, b)` (seconds of the day), on the five minutes.
fn draw_in(cal: &mut ChaCha8Rng, (a, b): (u64, u64)) -> u64 {
    a + cal.random_range(0..=(b - a) / (5 * M)) * 5 * M
}

/// "17:30" of seconds of the day.
pub(super) fn hhmm(t: u64) -> String {
    format!("{:02}:{:02}", t / H, t % H / M)
}
