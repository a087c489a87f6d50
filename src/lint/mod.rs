//! Plausibility checks over a trace: things a household does not do
//! (walking through closed doors, perishables out overnight, an oven on with
//! nothing in it, the robot clearing plates from under people eating). The
//! executor keeps a trace *possible*; these rules ask whether it is
//! *plausible*, so a memory benchmark does not inherit the oddities.
//!
//! Rules walk the events over the exact state (the scene's initial state
//! with each accepted event's changes applied). Each has a stable code; a
//! finding names the event, its time and the entities involved. No I/O.

mod habits;
mod outside;

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use thiserror::Error;

use crate::catalogue::Roles;
use crate::ids::Id;
use crate::scene::{ActorKind, Indexed, OUTSIDE, Openable, Role, Scene, SceneIndex, Surface};
use crate::sim::Simulation;
use crate::trace::request::{Action, Destination};
use crate::trace::{DAY, Event, Location, RejectionCode, State, Value, clock_time};

/// The rules, in report order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    ClosedDoorCrossed,
    TwoPlacesAtOnce,
    MovedFromOtherHands,
    ChangeMismatch,
    RobotLeftOpen,
    TakenWhileInUse,
    FoodBackTooSoon,
    PerishableOutOvernight,
    MealAtNight,
    RanEmpty,
    SetWhileOff,
    CycleCutShort,
    SpokeOutOfEarshot,
    WordsOffTime,
    PingPongWalk,
    DoorWithoutPassing,
    CrossedBedroom,
    LeftOutOfPlace,
    AimlessWalking,
    ActedWhileOut,
    SeenWhileOut,
    UsedWhileOutside,
    VisitorNeverLeft,
    OutOvernight,
    StraightBackOut,
    OpenCloseLoop,
    SwitchLoop,
    RefusedAgain,
}

impl Rule {
    pub const ALL: [Rule; 28] = [
        Rule::ClosedDoorCrossed,
        Rule::TwoPlacesAtOnce,
        Rule::MovedFromOtherHands,
        Rule::ChangeMismatch,
        Rule::RobotLeftOpen,
        Rule::TakenWhileInUse,
        Rule::FoodBackTooSoon,
        Rule::PerishableOutOvernight,
        Rule::MealAtNight,
        Rule::RanEmpty,
        Rule::SetWhileOff,
        Rule::CycleCutShort,
        Rule::SpokeOutOfEarshot,
        Rule::WordsOffTime,
        Rule::PingPongWalk,
        Rule::DoorWithoutPassing,
        Rule::CrossedBedroom,
        Rule::LeftOutOfPlace,
        Rule::AimlessWalking,
        Rule::ActedWhileOut,
        Rule::SeenWhileOut,
        Rule::UsedWhileOutside,
        Rule::VisitorNeverLeft,
        Rule::OutOvernight,
        Rule::StraightBackOut,
        Rule::OpenCloseLoop,
        Rule::SwitchLoop,
        Rule::RefusedAgain,
    ];

    /// The stable snake_case code.
    pub fn code(self) -> &'static str {
        match self {
            Rule::ClosedDoorCrossed => "closed_door_crossed",
            Rule::TwoPlacesAtOnce => "two_places_at_once",
            Rule::MovedFromOtherHands => "moved_from_other_hands",
            Rule::ChangeMismatch => "change_mismatch",
            Rule::RobotLeftOpen => "robot_left_open",
            Rule::TakenWhileInUse => "taken_while_in_use",
            Rule::FoodBackTooSoon => "food_back_too_soon",
            Rule::PerishableOutOvernight => "perishable_out_overnight",
            Rule::MealAtNight => "meal_at_night",
            Rule::RanEmpty => "ran_empty",
            Rule::SetWhileOff => "set_while_off",
            Rule::CycleCutShort => "cycle_cut_short",
            Rule::SpokeOutOfEarshot => "spoke_out_of_earshot",
            Rule::WordsOffTime => "words_off_time",
            Rule::PingPongWalk => "ping_pong_walk",
            Rule::DoorWithoutPassing => "door_without_passing",
            Rule::CrossedBedroom => "crossed_bedroom",
            Rule::LeftOutOfPlace => "left_out_of_place",
            Rule::AimlessWalking => "aimless_walking",
            Rule::ActedWhileOut => "acted_while_out",
            Rule::SeenWhileOut => "seen_while_out",
            Rule::UsedWhileOutside => "used_while_outside",
            Rule::VisitorNeverLeft => "visitor_never_left",
            Rule::OutOvernight => "out_overnight",
            Rule::StraightBackOut => "straight_back_out",
            Rule::OpenCloseLoop => "open_close_loop",
            Rule::SwitchLoop => "switch_loop",
            Rule::RefusedAgain => "refused_again",
        }
    }

    /// What the rule catches, for `--help` and docs/lint.md.
    pub fn about(self) -> &'static str {
        match self {
            Rule::ClosedDoorCrossed => "a walk passes a door that is closed",
            Rule::TwoPlacesAtOnce => "an actor starts an action before its previous one ended",
            Rule::MovedFromOtherHands => "an object leaves the hands of someone who did not act",
            Rule::ChangeMismatch => "a change's old value is not the state it changes",
            Rule::RobotLeftOpen => "the robot walks out of a room leaving open what it opened",
            Rule::TakenWhileInUse => "the robot takes an object from a person busy beside it",
            Rule::FoodBackTooSoon => {
                "food goes back into cold storage under 10 minutes after it came out"
            }
            Rule::PerishableOutOvernight => "a perishable is out of cold storage at 03:00",
            Rule::MealAtNight => "food is taken out or moved between 00:00 and 05:00",
            Rule::RanEmpty => "an oven, dishwasher or washer ran with nothing inside",
            Rule::SetWhileOff => "a program or timer is set on a device that is off",
            Rule::CycleCutShort => "a machine is stopped or opened before its program is over",
            Rule::SpokeOutOfEarshot => "an utterance to someone out of earshot (rejected)",
            Rule::WordsOffTime => "morning words said after noon, or night words before noon",
            Rule::PingPongWalk => {
                "an actor walks back and forth between the same two spots three or more times with nothing done"
            }
            Rule::DoorWithoutPassing => {
                "a door is opened or closed with nobody walking through it within 5 minutes (nor the actor on the way in or out)"
            }
            Rule::CrossedBedroom => "a walk crosses someone else's bedroom on the way elsewhere",
            Rule::LeftOutOfPlace => {
                "an object is left 4 hours or overnight where its category does not belong (unless planned)"
            }
            Rule::AimlessWalking => "six or more walks in a row that change nothing",
            Rule::ActedWhileOut => {
                "someone out of the house does something there (anything but arrive or wait)"
            }
            Rule::SeenWhileOut => "someone out of the house perceives an event in it",
            Rule::UsedWhileOutside => {
                "an object outside the house (or carried by someone out) is acted on"
            }
            Rule::VisitorNeverLeft => {
                "someone who started outside came in and is still in at the end of the trace"
            }
            Rule::OutOvernight => {
                "someone is out at 03:00, gone for other than a trip, work or home"
            }
            Rule::StraightBackOut => {
                "someone of the household comes in and goes out again within 10 minutes"
            }
            Rule::OpenCloseLoop => {
                "an actor opens and shuts the same thing three times or more in a row with nothing else done"
            }
            Rule::SwitchLoop => {
                "an actor sets the same device field three times or more in a row with nothing else done (a lamp on, off, on)"
            }
            Rule::RefusedAgain => {
                "an actor asks for the same thing three times or more in a row and is refused each time for the same reason"
            }
        }
    }
}

/// One implausible thing in a trace.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    pub rule: &'static str,
    /// The event it is about (None: the state at a time, e.g. 03:00).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<u64>,
    pub t: u64,
    pub time: String,
    pub entities: Vec<Id>,
    pub message: String,
    /// Walks in a back-and-forth (`ping_pong_walk`), else 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub walks: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

#[derive(Debug, Error, PartialEq)]
pub enum LintError {
    #[error("the scene has {0} problems; lint needs a valid scene")]
    Scene(usize),
}

const NIGHT_CHECK: u64 = 3 * 3600;
const MIN_MEAL: u64 = 10 * 60;
/// Refused this many times in a row for the same request and reason.
const REFUSED: usize = 3;

/// Runs every rule over a trace; findings in event order, then rule order.
pub fn lint(scene: &Scene, events: &[Event]) -> Result<Vec<Finding>, LintError> {
    lint_planned(scene, events, &BTreeSet::new())
}

/// [`lint`], with the (object, receptacle) placements the plan made on
/// purpose (`plan.json`'s `misplacements`), which are not out of place.
pub fn lint_planned(
    scene: &Scene,
    events: &[Event],
    deliberate: &BTreeSet<(Id, Id)>,
) -> Result<Vec<Finding>, LintError> {
    let sim = Simulation::new(scene.clone()).map_err(|p| LintError::Scene(p.len()))?;
    let index = SceneIndex::new(scene);
    let mut w = Walk::new(index.over(scene), sim.state(), deliberate);
    for e in events {
        w.event(e);
    }
    w.finish(events.last().map_or(0, |e| e.t + e.dur));
    Ok(w.out)
}

/// Findings per rule code, every rule listed (zeros included).
pub fn counts(findings: &[Finding]) -> BTreeMap<&'static str, usize> {
    let mut c: BTreeMap<&'static str, usize> = Rule::ALL.iter().map(|r| (r.code(), 0)).collect();
    for f in findings {
        *c.entry(f.rule).or_default() += 1;
    }
    c
}

struct Walk<'a> {
    scene: Indexed<'a>,
    state: State,
    out: Vec<Finding>,
    location: Id,
    position: Id,
    open: Id,
    power: Id,
    robots: BTreeSet<Id>,
    /// Door id → the two rooms it joins.
    doors: Vec<(Id, Id, Id)>,
    cold: BTreeSet<Id>,
    perishable: BTreeSet<Id>,
    /// Fixtures and devices that are normally kept closed.
    kept_closed: BTreeSet<Id>,
    /// Devices with an inside and a power switch (oven, dishwasher, washer).
    vessels: BTreeSet<Id>,
    /// Each actor's last accepted event: (id, start, end).
    last: BTreeMap<Id, (u64, u64, u64)>,
    /// Who last put each object down.
    placed_by: BTreeMap<Id, Id>,
    /// Normally-closed things the robot opened and has not closed: → event.
    robot_opened: BTreeMap<Id, u64>,
    /// Perishables out of cold storage: → (event, time) they came out.
    out_since: BTreeMap<Id, (u64, u64)>,
    /// Vessels switched on: → (event, time, had something inside).
    running: BTreeMap<Id, (u64, u64, bool)>,
    /// Devices whose programs have cycles: → program → seconds.
    cycles: BTreeMap<Id, BTreeMap<String, u64>>,
    /// Programs under way: device → (event, program, start, seconds).
    cycling: BTreeMap<Id, (u64, String, u64, u64)>,
    next_night: u64,
    habits: habits::Habits,
    /// Actors who start outside (visitors), and their latest arrival event.
    visitors: BTreeMap<Id, Option<u64>>,
    /// Each person's latest departure: (event, where to).
    left_for: BTreeMap<Id, (u64, Destination)>,
    /// Each person's latest arrival: (event, when they were in).
    came_in: BTreeMap<Id, (u64, u64)>,
    /// Each actor's run of refusals of one request: (the request and the
    /// reason, times, first event, reported).
    refused: BTreeMap<Id, (String, usize, u64, bool)>,
}

impl<'a> Walk<'a> {
    fn new(scene: Indexed<'a>, state: State, deliberate: &BTreeSet<(Id, Id)>) -> Self {
        let roles = Roles::builtin(&scene);
        let inside = |s: &[Surface]| s.iter().any(|s| matches!(s, Surface::In(_)));
        let mut w = Walk {
            scene,
            state,
            out: vec![],
            location: Id::new("location"),
            position: Id::new("position"),
            open: Id::new("open"),
            power: Id::new("power"),
            robots: scene
                .actors
                .iter()
                .filter(|a| a.kind == ActorKind::Robot)
                .map(|a| a.id.clone())
                .collect(),
            doors: scene
                .doors
                .iter()
                .map(|d| (d.id.clone(), d.rooms.0.clone(), d.rooms.1.clone()))
                .collect(),
            cold: roles.fixtures(Role::ColdStorage).iter().cloned().collect(),
            perishable: roles.objects(Role::Perishable).iter().cloned().collect(),
            kept_closed: scene
                .furniture
                .iter()
                .filter(|f| f.openable == Openable::Closed)
                .map(|f| f.id.clone())
                .chain(
                    scene
                        .devices
                        .iter()
                        .filter(|d| d.openable == Openable::Closed)
                        .map(|d| d.id.clone()),
                )
                .collect(),
            vessels: scene
                .devices
                .iter()
                .filter(|d| inside(&d.surfaces) && d.fields.contains_key("power"))
                .map(|d| d.id.clone())
                .collect(),
            last: BTreeMap::new(),
            placed_by: BTreeMap::new(),
            robot_opened: BTreeMap::new(),
            out_since: BTreeMap::new(),
            running: BTreeMap::new(),
            cycles: scene
                .devices
                .iter()
                .filter_map(|d| {
                    let k = crate::catalogue::builtin().device_kind(&d.kind)?;
                    let c: BTreeMap<String, u64> = k
                        .cycles
                        .keys()
                        .filter_map(|p| Some((p.clone(), k.cycle_secs(p)?)))
                        .collect();
                    (!c.is_empty()).then(|| (d.id.clone(), c))
                })
                .collect(),
            cycling: BTreeMap::new(),
            next_night: NIGHT_CHECK,
            habits: habits::Habits::new(&scene, deliberate),
            visitors: scene
                .actors
                .iter()
                .filter(|a| a.room.as_str() == OUTSIDE)
                .map(|a| (a.id.clone(), None))
                .collect(),
            left_for: BTreeMap::new(),
            came_in: BTreeMap::new(),
            refused: BTreeMap::new(),
        };
        for p in w.perishable.clone() {
            if !w.in_cold(&p) {
                w.out_since.insert(p, (0, 0));
            }
        }
        w
    }

    fn find(&mut self, rule: Rule, e: Option<&Event>, t: u64, entities: Vec<Id>, message: String) {
        self.out.push(Finding {
            rule: rule.code(),
            event: e.map(|e| e.id),
            t,
            time: clock_time(t),
            entities,
            message,
            walks: 0,
        });
    }

    fn get(&self, entity: &Id, attr: &Id) -> Option<&Value> {
        self.state.get(&(entity.clone(), attr.clone()))
    }

    fn loc(&self, object: &Id) -> Option<&Location> {
        match self.get(object, &self.location) {
            Some(Value::Location(l)) => Some(l),
            _ => None,
        }
    }

    fn in_cold(&self, object: &Id) -> bool {
        matches!(self.loc(object), Some(Location::In(f)) if self.cold.contains(f))
    }

    fn room_of_actor(&self, actor: &Id) -> Option<Id> {
        match self.get(actor, &self.position) {
            Some(Value::Position(p)) => Some(p.room.clone()),
            _ => None,
        }
    }

    /// The room a fixture or device stands in.
    fn room_of_fixture(&self, id: &Id) -> Option<&Id> {
        self.scene.fixture(id).map(|f| f.room)
    }

    fn is_open(&self, id: &Id) -> bool {
        !matches!(self.get(id, &self.open), Some(Value::Bool(false)))
    }

    fn powered(&self, device: &Id) -> bool {
        matches!(self.get(device, &self.power), Some(Value::Bool(true)))
    }

    /// Perishables out of cold storage at each 03:00 before `t`.
    fn nights_until(&mut self, t: u64) {
        while self.next_night <= t {
            let at = self.next_night;
            let out: Vec<(Id, u64)> = self
                .out_since
                .iter()
                .map(|(o, (ev, _))| (o.clone(), *ev))
                .collect();
            for (o, ev) in out {
                // Beyond the front door (not bought yet, or taken along)
                // is not left out at home.
                if matches!(
                    self.loc(&o),
                    Some(Location::Outside | Location::CarriedBy(_))
                ) {
                    continue;
                }
                let where_ = self.loc(&o).map_or("?".into(), |l| l.to_string());
                let day = at / DAY + 1;
                self.out.push(Finding {
                    rule: Rule::PerishableOutOvernight.code(),
                    event: (ev > 0).then_some(ev),
                    t: at,
                    time: clock_time(at),
                    entities: vec![o.clone()],
                    message: format!("{o} is out of cold storage ({where_}) at 03:00 of day {day}"),
                    walks: 0,
                });
            }
            self.out_overnight(at);
            self.next_night += DAY;
        }
    }

    /// The same request refused for the same reason, again and again: an
    /// actor that does not act on what it is told.
    fn refused_again(&mut self, e: &Event, code: RejectionCode) {
        let key = format!(
            "{} {}",
            serde_json::to_string(&e.action).unwrap_or_default(),
            code.code()
        );
        let r = self
            .refused
            .entry(e.actor.clone())
            .or_insert_with(|| (key.clone(), 0, e.id, false));
        if r.0 != key {
            *r = (key, 0, e.id, false);
        }
        r.1 += 1;
        if r.1 >= REFUSED && !r.3 {
            r.3 = true;
            let (n, first) = (r.1, r.2);
            self.find(
                Rule::RefusedAgain,
                Some(e),
                e.t,
                vec![e.actor.clone()],
                format!(
                    "{} asked to {} {n} times in a row since event {first}, refused each time ({})",
                    e.actor,
                    e.action.skill_name(),
                    code.code()
                ),
            );
        }
    }

    fn event(&mut self, e: &Event) {
        self.nights_until(e.t);
        self.habits_until(e.t);
        let Some(rej) = e.outcome.rejection() else {
            self.refused.remove(&e.actor);
            self.accepted(e);
            return;
        };
        self.refused_again(e, rej.code);
        if rej.code == RejectionCode::NotInEarshot {
            self.find(
                Rule::SpokeOutOfEarshot,
                Some(e),
                e.t,
                vec![e.actor.clone()],
                format!(
                    "{} spoke to someone who could not hear: {}",
                    e.actor, rej.message
                ),
            );
        }
    }

    fn accepted(&mut self, e: &Event) {
        self.outings(e);
        let robot = self.robots.contains(&e.actor);
        let end = e.t + e.dur;
        if let Some(&(prev, _, prev_end)) = self.last.get(&e.actor)
            && e.t < prev_end
        {
            self.find(
                Rule::TwoPlacesAtOnce,
                Some(e),
                e.t,
                vec![e.actor.clone()],
                format!(
                    "{} starts event {} before event {prev} ends at {}",
                    e.actor,
                    e.id,
                    clock_time(prev_end)
                ),
            );
        }
        let tod = e.t % DAY;
        match &e.action {
            Action::NavigateTo { .. } => self.walk(e),
            Action::Pick { object } if robot => self.robot_pick(e, object),
            Action::Open { target } => {
                self.cut_short(e, target, "opened");
                if robot && self.kept_closed.contains(target) {
                    self.robot_opened.insert(target.clone(), e.id);
                }
            }
            Action::SetDeviceState { device, field, .. }
                if (field == "program" || field == "timer") && !self.powered(device) =>
            {
                self.find(
                    Rule::SetWhileOff,
                    Some(e),
                    e.t,
                    vec![device.clone()],
                    format!("{} set {device}.{field} while it is off", e.actor),
                );
            }
            Action::Say { text, .. } => {
                if words_off_time(text, tod) {
                    self.find(
                        Rule::WordsOffTime,
                        Some(e),
                        e.t,
                        vec![e.actor.clone()],
                        format!("{} said {text:?} at {}", e.actor, &e.time),
                    );
                }
            }
            _ => {}
        }
        self.habits_event(e);
        for c in &e.changes {
            let key = (c.entity.clone(), c.attr.clone());
            if self.state.get(&key) != Some(&c.old) {
                let was = self
                    .state
                    .get(&key)
                    .map_or("nothing".into(), |v| v.to_string());
                self.find(
                    Rule::ChangeMismatch,
                    Some(e),
                    e.t,
                    vec![c.entity.clone()],
                    format!(
                        "{}.{} changes from {} but was {was}",
                        c.entity, c.attr, c.old
                    ),
                );
            }
            if c.attr == self.location {
                self.moved(e, &c.entity, &c.old, &c.new, tod);
            }
            if c.attr == self.open && c.new == Value::Bool(false) {
                self.robot_opened.remove(&c.entity);
            }
            if self.cycles.contains_key(&c.entity) {
                self.cycle_change(e, &c.entity, &c.attr, &c.new);
            }
            if c.attr == self.power && self.vessels.contains(&c.entity) {
                match c.new {
                    Value::Bool(true) => {
                        let has = self.has_inside(&c.entity);
                        self.running.insert(c.entity.clone(), (e.id, e.t, has));
                    }
                    _ => self.stopped(Some(e), &c.entity, e.t),
                }
            }
            self.state.insert(key, c.new.clone());
        }
        // After the move: what is inside a running vessel now counts.
        let inside: Vec<Id> = self
            .running
            .keys()
            .filter(|v| self.has_inside(v))
            .cloned()
            .collect();
        for v in inside {
            if let Some(r) = self.running.get_mut(&v) {
                r.2 = true;
            }
        }
        self.last.insert(e.actor.clone(), (e.id, e.t, end));
    }

    /// A machine's program starts when it is chosen on a running machine,
    /// or when the machine is switched on with a program chosen.
    fn cycle_change(&mut self, e: &Event, device: &Id, attr: &Id, new: &Value) {
        let program = match (attr.as_str(), new) {
            ("power", Value::Bool(true)) => match self.get(device, &Id::new("program")) {
                Some(Value::Text(p)) => p.clone(),
                _ => return,
            },
            ("power", _) => return self.cut_short(e, device, "switched off"),
            ("program", Value::Text(p)) if self.powered(device) => p.clone(),
            _ => return,
        };
        if let Some(secs) = self.cycles.get(device).and_then(|c| c.get(&program)) {
            let run = (e.id, program, e.t, *secs);
            self.cycling.insert(device.clone(), run);
        }
    }

    fn cut_short(&mut self, e: &Event, device: &Id, how: &str) {
        let Some((ev, program, start, secs)) = self.cycling.remove(device) else {
            return;
        };
        if e.t < start + secs {
            self.find(
                Rule::CycleCutShort,
                Some(e),
                e.t,
                vec![device.clone()],
                format!(
                    "{} {how} {device} {} min into its {} min {program} cycle (started in event {ev})",
                    e.actor,
                    (e.t - start) / 60,
                    secs / 60
                ),
            );
        }
    }

    fn has_inside(&self, vessel: &Id) -> bool {
        self.state.iter().any(|((_, a), v)| {
            a == &self.location && matches!(v, Value::Location(Location::In(r)) if r == vessel)
        })
    }

    fn stopped(&mut self, e: Option<&Event>, vessel: &Id, t: u64) {
        if let Some((_, since, had)) = self.running.remove(vessel)
            && !had
            && !self.has_inside(vessel)
        {
            self.find(
                Rule::RanEmpty,
                e,
                t,
                vec![vessel.clone()],
                format!(
                    "{vessel} ran from {} with nothing inside",
                    &clock_time(since)[..5]
                ),
            );
        }
    }

    fn moved(&mut self, e: &Event, object: &Id, old: &Value, new: &Value, tod: u64) {
        if let Value::Location(Location::HeldBy(h)) = old
            && h != &e.actor
            && !matches!(e.action, Action::Handoff { .. })
        {
            self.find(
                Rule::MovedFromOtherHands,
                Some(e),
                e.t,
                vec![object.clone(), h.clone()],
                format!("{} moved {object} out of {h}'s hands", e.actor),
            );
        }
        if let Value::Location(Location::On(_) | Location::In(_)) = new {
            self.placed_by.insert(object.clone(), e.actor.clone());
        }
        if !self.perishable.contains(object) {
            return;
        }
        if tod < 5 * 3600 {
            self.find(
                Rule::MealAtNight,
                Some(e),
                e.t,
                vec![object.clone()],
                format!("{} moved {object} at {}", e.actor, &e.time),
            );
        }
        let was_cold = matches!(old, Value::Location(Location::In(f)) if self.cold.contains(f));
        let now_cold = matches!(new, Value::Location(Location::In(f)) if self.cold.contains(f));
        if was_cold && !now_cold {
            self.out_since.insert(object.clone(), (e.id, e.t));
        } else if now_cold
            && !was_cold
            && let Some((ev, since)) = self.out_since.remove(object)
            && ev > 0
            && e.t < since + MIN_MEAL
        {
            self.find(
                Rule::FoodBackTooSoon,
                Some(e),
                e.t,
                vec![object.clone()],
                format!(
                    "{object} went back into cold storage {} s after it came out (event {ev})",
                    e.t - since
                ),
            );
        }
    }

    fn walk(&mut self, e: &Event) {
        let Some(from) = self.room_of_actor(&e.actor) else {
            return;
        };
        let mut rooms = vec![from.clone()];
        rooms.extend(e.via.iter().cloned());
        for pair in rooms.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            if a == b {
                continue;
            }
            let joining: Vec<Id> = self
                .doors
                .iter()
                .filter(|(_, x, y)| (x == a && y == b) || (x == b && y == a))
                .map(|(d, _, _)| d.clone())
                .collect();
            if !joining.is_empty() && joining.iter().all(|d| !self.is_open(d)) {
                self.find(
                    Rule::ClosedDoorCrossed,
                    Some(e),
                    e.t,
                    [vec![e.actor.clone()], joining.clone()].concat(),
                    format!(
                        "{} walked from {a} to {b} through closed {}",
                        e.actor,
                        joining
                            .iter()
                            .map(Id::as_str)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
            }
        }
        // The robot walking out of a room leaves behind what it opened there.
        if self.robots.contains(&e.actor) && e.via.last().is_some_and(|to| *to != from) {
            let left: Vec<(Id, u64)> = self
                .robot_opened
                .iter()
                .filter(|(f, _)| self.room_of_fixture(f) == Some(&from) && self.is_open(f))
                .map(|(f, ev)| (f.clone(), *ev))
                .collect();
            for (f, ev) in left {
                self.robot_opened.remove(&f);
                self.find(
                    Rule::RobotLeftOpen,
                    Some(e),
                    e.t,
                    vec![e.actor.clone(), f.clone()],
                    format!(
                        "{} left {from} with {f} open (opened in event {ev})",
                        e.actor
                    ),
                );
            }
        }
    }

    fn robot_pick(&mut self, e: &Event, object: &Id) {
        let Some(user) = self.placed_by.get(object).cloned() else {
            return;
        };
        if self.robots.contains(&user) {
            return;
        }
        let Some(&(ev, _, busy_until)) = self.last.get(&user) else {
            return;
        };
        if busy_until > e.t && self.room_of_actor(&user) == self.room_of_actor(&e.actor) {
            self.find(
                Rule::TakenWhileInUse,
                Some(e),
                e.t,
                vec![object.clone(), user.clone()],
                format!(
                    "{} took {object} while {user}, who put it down, is busy beside it until {} (event {ev})",
                    e.actor,
                    &clock_time(busy_until)[..5]
                ),
            );
        }
    }

    fn finish(&mut self, end: u64) {
        // The night after the last day counts too: a trace ends at bedtime.
        let last_night = (end / DAY + 1) * DAY + NIGHT_CHECK;
        self.nights_until(last_night);
        self.habits_finish();
        for v in self.running.keys().cloned().collect::<Vec<_>>() {
            self.stopped(None, &v, end);
        }
        self.visitors_stayed(end);
    }
}

/// Whether `text`, said at second `tod` of the day, has morning words
/// after noon or night words before it.
pub fn words_off_time(text: &str, tod: u64) -> bool {
let lower = text.to_lowercase();
let morning = lower.contains("morning")
    && !["tomorrow morning", "this morning", "yesterday morning"]
        .iter()
        .any(|p| lower.contains(p));
let night = ["tonight", "good night", "this evening"]
    .iter()
    .any(|p| lower.contains(p));
let hour = (tod % DAY) / 3600;
(morning && hour >= 12) || (night && hour < 12)
}
