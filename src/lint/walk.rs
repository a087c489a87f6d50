//! The walk over a trace: the exact state kept event by event, and the
//! rules checked as it goes (the habits and the outings have files of
//! their own).

use std::collections::{BTreeMap, BTreeSet};

use crate::catalogue::Roles;
use crate::ids::Id;
use crate::scene::{Indexed, OUTSIDE, Openable, Role, Scene, SceneIndex, Surface};
use crate::sim::Simulation;
use crate::trace::request::{Action, Destination};
use crate::trace::{
    BROKEN, Claim, ClaimMode, DAY, Event, LEVEL, Location, RejectionCode, State, Value, clock_time,
};

use super::habit_log::Habits;
use super::rule::{Finding, LintError, Rule};

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

pub(super) struct Walk<'a> {
    pub(super) scene: Indexed<'a>,
    pub(super) state: State,
    pub(super) out: Vec<Finding>,
    pub(super) location: Id,
    pub(super) position: Id,
    pub(super) open: Id,
    pub(super) power: Id,
    pub(super) robots: BTreeSet<Id>,
    /// Door id → the two rooms it joins.
    pub(super) doors: Vec<(Id, Id, Id)>,
    pub(super) cold: BTreeSet<Id>,
    pub(super) perishable: BTreeSet<Id>,
    /// Bins: a perishable thrown out is not left out.
    pub(super) waste: BTreeSet<Id>,
    /// Things in a bin, until taken out of the house.
    pub(super) binned: BTreeSet<Id>,
    /// Fixtures and devices that are normally kept closed.
    pub(super) kept_closed: BTreeSet<Id>,
    /// Devices with an inside and a power switch (oven, dishwasher, washer).
    pub(super) vessels: BTreeSet<Id>,
    /// Each actor's last accepted event: (id, start, end).
    pub(super) last: BTreeMap<Id, (u64, u64, u64)>,
    /// Who last put each object down.
    pub(super) placed_by: BTreeMap<Id, Id>,
    /// Normally-closed things the robot opened and has not closed: → event.
    pub(super) robot_opened: BTreeMap<Id, u64>,
    /// Perishables out of cold storage: → (event, time) they came out.
    pub(super) out_since: BTreeMap<Id, (u64, u64)>,
    /// Vessels switched on: → (event, time, had something inside).
    pub(super) running: BTreeMap<Id, (u64, u64, bool)>,
    /// Devices whose programs have cycles: → program → seconds.
    pub(super) cycles: BTreeMap<Id, BTreeMap<String, u64>>,
    /// Programs under way: device → (event, program, start, seconds).
    pub(super) cycling: BTreeMap<Id, (u64, String, u64, u64)>,
    pub(super) next_night: u64,
    pub(super) habits: Habits,
    /// Actors who start outside (visitors), and their latest arrival event.
    pub(super) visitors: BTreeMap<Id, Option<u64>>,
    /// Each person's latest departure: (event, where to).
    pub(super) left_for: BTreeMap<Id, (u64, Destination)>,
    /// Each person's latest arrival: (event, when they were in).
    pub(super) came_in: BTreeMap<Id, (u64, u64)>,
    /// Each actor's run of refusals of one request: (the request and the
    /// reason, times, first event, reported).
    pub(super) refused: BTreeMap<Id, (String, usize, u64, bool)>,
    /// Each broken device and who saw it broken.
    pub(super) known_broken: BTreeMap<Id, BTreeSet<Id>>,
}

impl<'a> Walk<'a> {
    pub(super) fn new(scene: Indexed<'a>, state: State, deliberate: &BTreeSet<(Id, Id)>) -> Self {
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
            robots: scene.robots().into_iter().collect(),
            doors: scene
                .doors
                .iter()
                .map(|d| (d.id.clone(), d.rooms.0.clone(), d.rooms.1.clone()))
                .collect(),
            cold: roles.fixtures(Role::ColdStorage).iter().cloned().collect(),
            perishable: roles.objects(Role::Perishable).iter().cloned().collect(),
            waste: roles.fixtures(Role::Waste).iter().cloned().collect(),
            binned: BTreeSet::new(),
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
            habits: Habits::new(&scene, deliberate),
            visitors: scene
                .actors
                .iter()
                .filter(|a| a.room.as_str() == OUTSIDE)
                .map(|a| (a.id.clone(), None))
                .collect(),
            left_for: BTreeMap::new(),
            came_in: BTreeMap::new(),
            refused: BTreeMap::new(),
            known_broken: BTreeMap::new(),
        };
        for p in w.perishable.clone() {
            if !w.in_cold(&p) {
                w.out_since.insert(p, (0, 0));
            }
        }
        w
    }

    pub(super) fn find(
        &mut self,
        rule: Rule,
        e: Option<&Event>,
        t: u64,
        entities: Vec<Id>,
        message: String,
    ) {
        self.found(rule, e.map(|e| e.id), t, entities, message);
    }

    /// [`Walk::find`] by the event's id (none: the state at a time).
    pub(super) fn found(
        &mut self,
        rule: Rule,
        event: Option<u64>,
        t: u64,
        entities: Vec<Id>,
        message: String,
    ) {
        self.out.push(Finding {
            rule: rule.code(),
            event,
            t,
            time: clock_time(t),
            entities,
            message,
            walks: 0,
        });
    }

    pub(super) fn get(&self, entity: &Id, attr: &Id) -> Option<&Value> {
        self.state.get(&(entity.clone(), attr.clone()))
    }

    pub(super) fn loc(&self, object: &Id) -> Option<&Location> {
        match self.get(object, &self.location) {
            Some(Value::Location(l)) => Some(l),
            _ => None,
        }
    }

    pub(super) fn in_cold(&self, object: &Id) -> bool {
        matches!(self.loc(object), Some(Location::In(f)) if self.cold.contains(f))
    }

    pub(super) fn room_of_actor(&self, actor: &Id) -> Option<Id> {
        match self.get(actor, &self.position) {
            Some(Value::Position(p)) => Some(p.room.clone()),
            _ => None,
        }
    }

    /// The room a fixture or device stands in.
    pub(super) fn room_of_fixture(&self, id: &Id) -> Option<&Id> {
        self.scene.fixture(id).map(|f| f.room)
    }

    pub(super) fn is_open(&self, id: &Id) -> bool {
        !matches!(self.get(id, &self.open), Some(Value::Bool(false)))
    }

    pub(super) fn powered(&self, device: &Id) -> bool {
        matches!(self.get(device, &self.power), Some(Value::Bool(true)))
    }

    /// Perishables out of cold storage at each 03:00 before `t`.
    pub(super) fn nights_until(&mut self, t: u64) {
        while self.next_night <= t {
            let at = self.next_night;
            let out: Vec<(Id, u64)> = self
                .out_since
                .iter()
                .map(|(o, (ev, _))| (o.clone(), *ev))
                .collect();
            for (o, ev) in out {
                // Beyond the front door (not bought yet, or taken along)
                // or in the bin (finished) is not left out at home.
                match self.loc(&o) {
                    Some(Location::Outside | Location::CarriedBy(_)) => continue,
                    Some(Location::In(b)) if self.waste.contains(b) => continue,
                    _ => {}
                }
                let where_ = self.loc(&o).map_or("?".into(), |l| l.to_string());
                let day = at / DAY + 1;
                let why = format!("{o} is out of cold storage ({where_}) at 03:00 of day {day}");
                let event = (ev > 0).then_some(ev);
                self.found(
                    Rule::PerishableOutOvernight,
                    event,
                    at,
                    vec![o.clone()],
                    why,
                );
            }
            self.out_overnight(at);
            self.next_night += DAY;
        }
    }

    /// The same request refused for the same reason, again and again: an
    /// actor that does not act on what it is told.
    pub(super) fn refused_again(&mut self, e: &Event, code: RejectionCode) {
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

    pub(super) fn event(&mut self, e: &Event) {
        self.nights_until(e.t);
        self.habits_until(e.t);
        self.health(e);
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

    /// Who knows which device is broken (they saw it break, or saw it
    /// broken since), and a use of it by one of them.
    fn health(&mut self, e: &Event) {
        let broken = |attr: &Id| attr.as_str() == BROKEN;
        if let Some(rej) = e.outcome.rejection() {
            if let (RejectionCode::Empty, Action::Use { object }) = (rej.code, &e.action) {
                self.find(
                    Rule::EmptyUsed,
                    Some(e),
                    e.t,
                    vec![e.actor.clone(), object.clone()],
                    format!("{} tried to use {object}, which is empty", e.actor),
                );
            }
            if let (RejectionCode::DeviceBroken, Action::SetDeviceState { device, field, .. }) =
                (rej.code, &e.action)
                && self
                    .known_broken
                    .get(device)
                    .is_some_and(|k| k.contains(&e.actor))
            {
                self.find(
                    Rule::BrokenDeviceUsed,
                    Some(e),
                    e.t,
                    vec![e.actor.clone(), device.clone()],
                    format!(
                        "{} tried to set {device}.{field}, which they knew was broken",
                        e.actor
                    ),
                );
            }
            return;
        }
        for c in e.changes.iter().filter(|c| broken(&c.attr)) {
            if c.new == Value::Bool(true) {
                let knows = self.known_broken.entry(c.entity.clone()).or_default();
                knows.extend(e.observers.iter().cloned());
            } else {
                self.known_broken.remove(&c.entity);
            }
        }
        for f in (e.reveals.iter()).filter(|f| broken(&f.attr) && f.value == Value::Bool(true)) {
            if let Some(knows) = self.known_broken.get_mut(&f.entity) {
                knows.extend(e.revealed_to.iter().cloned());
            }
        }
    }

    /// Food put out after the best-before day its description gives; a
    /// thing thrown in the bin put somewhere in the house again.
    fn stock(&mut self, e: &Event) {
        for c in e.changes.iter().filter(|c| c.attr.as_str() == "location") {
            let Value::Location(to) = &c.new else {
                continue;
            };
            let o = &c.entity;
            match to {
                Location::In(b) if self.waste.contains(b) => {
                    self.binned.insert(o.clone());
                }
                Location::On(at) | Location::In(at) => {
                    if self.binned.remove(o) {
                        let why = format!("{} put {o}, thrown in the bin, {to}", e.actor);
                        self.find(Rule::RubbishReused, Some(e), e.t, vec![o.clone()], why);
                    }
                    let best_before = self
                        .scene
                        .object(o)
                        .and_then(|d| crate::catalogue::bought::best_before(&d.description));
                    if let Some(b) = best_before.filter(|b| e.day > *b && !self.cold.contains(at)) {
                        let why = format!("{o}, best before day {b}, put {to} on day {}", e.day);
                        self.find(Rule::FoodPastBestBefore, Some(e), e.t, vec![o.clone()], why);
                    }
                }
                Location::Outside => {
                    self.binned.remove(o);
                }
                _ => {}
            }
        }
    }

    /// Places said of things that the place cannot hold them so: "on the
    /// drawer", "in the bookshelf".
    fn places_said(&mut self, e: &Event, claims: &[Claim]) {
        for c in claims {
            let Value::Location(at @ (Location::On(place) | Location::In(place))) = &c.value else {
                continue;
            };
            let inside = matches!(at, Location::In(_));
            let surfaces = (self.scene.furniture(place).map(|f| &f.surfaces))
                .or_else(|| self.scene.device(place).map(|d| &d.surfaces));
            if surfaces.is_some_and(|h| !h.iter().any(|x| matches!(x, Surface::In(_)) == inside)) {
                let (rel, way) = if inside {
                    ("in", "inside")
                } else {
                    ("on", "on top")
                };
                let why = format!(
                    "{} said {} is {rel} {place}, which holds nothing {way}",
                    e.actor, c.entity
                );
                let things = vec![c.entity.clone(), place.clone()];
                self.find(Rule::ImpossiblePlaceSaid, Some(e), e.t, things, why);
            }
        }
    }

    /// One utterance stating the same fact with two values: no listener
    /// can tell which is meant. Preferences (whose) and requests (what is
    /// wanted, beside what is) may differ from a fact; only facts count.
    fn said_two_ways(&mut self, e: &Event, claims: &[Claim]) {
        let facts: Vec<&Claim> = claims
            .iter()
            .filter(|c| c.mode == ClaimMode::Fact)
            .collect();
        for (i, a) in facts.iter().enumerate() {
            let Some(b) = facts[..i]
                .iter()
                .find(|b| b.entity == a.entity && b.attr == a.attr && b.value != a.value)
            else {
                continue;
            };
            let why = format!(
                "{} said {}.{} is {} and {} in one breath",
                e.actor, a.entity, a.attr, b.value, a.value
            );
            self.find(Rule::SaidTwoWays, Some(e), e.t, vec![a.entity.clone()], why);
        }
    }

    pub(super) fn accepted(&mut self, e: &Event) {
        self.outings(e);
        self.stock(e);
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
        if let Action::Say { claims, .. } = &e.action {
            self.places_said(e, claims);
            self.said_two_ways(e, claims);
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
            Action::Say { text, .. } if words_off_time(text, tod) => {
                self.find(
                    Rule::WordsOffTime,
                    Some(e),
                    e.t,
                    vec![e.actor.clone()],
                    format!("{} said {text:?} at {}", e.actor, &e.time),
                );
            }
            _ => {}
        }
        self.habits_event(e);
        for c in &e.changes {
            let key = (c.entity.clone(), c.attr.clone());
            // A thing's level is absent until its first use (read as
            // full, which only the change knows).
            let agrees = match self.state.value(&key) {
                Some(v) => *v == c.old,
                None => c.attr.as_str() == LEVEL,
            };
            if !agrees {
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
    pub(super) fn cycle_change(&mut self, e: &Event, device: &Id, attr: &Id, new: &Value) {
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

    pub(super) fn cut_short(&mut self, e: &Event, device: &Id, how: &str) {
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

    pub(super) fn has_inside(&self, vessel: &Id) -> bool {
        self.state.iter().any(|((_, a), v)| {
            a == &self.location && matches!(v, Value::Location(Location::In(r)) if r == vessel)
        })
    }

    pub(super) fn stopped(&mut self, e: Option<&Event>, vessel: &Id, t: u64) {
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

    pub(super) fn moved(&mut self, e: &Event, object: &Id, old: &Value, new: &Value, tod: u64) {
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

    pub(super) fn walk(&mut self, e: &Event) {
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

    pub(super) fn robot_pick(&mut self, e: &Event, object: &Id) {
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

    pub(super) fn finish(&mut self, end: u64) {
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
