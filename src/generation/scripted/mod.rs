//! The built-in offline backend: rule- and template-driven household life,
//! deterministic from the seed. Humans keep routines with natural variation,
//! state preferences and later act on them, ask the robot for things now
//! and later (commitments), report where things are (sometimes wrongly),
//! tidy things away while the robot is elsewhere, use devices in person
//! and remotely, and hand things over.

use std::collections::BTreeMap;

use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use std::sync::Arc;

use crate::catalogue::{Belongs, Roles, Weekday};
use crate::ids::Id;
use crate::scene::{FieldDef, Indexed, Openable, Placement, Role, Scene, SceneIndex, Surface};
use crate::sim::Simulation;
use crate::trace::{Claim, ClaimMode, DAY, Difficulty, Event, Location, Value};

use super::*;
use goals::*;
use lookup::*;

mod bedtime;
mod calendar;
mod day_plan;
use day_plan::Planned;
mod commitments;
mod cooking;
mod devices;
mod evening;
mod goals;
mod homes;
mod laundry;
mod leisure;
mod lookalikes;
mod lookup;
mod meals;
mod medication;
mod outside;
mod party;
mod presence;
mod repairs;
mod requests;
mod tidying;
mod wake_up;
mod work;

/// A human's preferences and routines, chosen from the seed once.
#[derive(Debug, Clone)]
struct Person {
    id: Id,
    name: String,
    mug: Option<Id>,
    drink: Option<String>,
    tv_volume: i64,
    brightness: i64,
    night_target: f64,
    wake: u64,
    /// Washing programme and temperature.
    laundry: (String, i64),
    /// Everything this person uses, as (category → objects they own).
    owned: BTreeMap<String, Vec<Id>>,
    /// With look-alikes: which of their own of a category they use today
    /// (category → object), drawn each morning; else the first of each.
    today: BTreeMap<String, Id>,
}

pub struct Scripted {
    rng: ChaCha8Rng,
    /// The look-alike axis's own draws (which mug today), on a stream of
    /// their own so the household's other draws stay as they are.
    kin: ChaCha8Rng,
    /// The scene's fixtures, devices and objects by role; shared so that a
    /// stage can hold it while drawing from `rng`.
    roles: Arc<Roles>,
    /// Where each object belongs (the catalogue's places in this scene).
    belongs: Belongs,
    /// Objects put somewhere odd on purpose (`plan.json`).
    misplacements: Vec<Misplacement>,
    people: Vec<Person>,
    commitments: Vec<Commitment>,
    stated: Vec<String>,
    /// Due times (trace seconds) that already have a commitment session.
    scheduled: std::collections::BTreeSet<u64>,
    difficulty: Difficulty,
    /// Today's blocks (start, end; trace seconds) with the robot docked away.
    away: Vec<(u64, u64)>,
    /// The calendar's own draws ([`calendar::CAL_STREAM`]).
    cal: ChaCha8Rng,
    /// The weekday of day 1.
    first_weekday: Weekday,
    /// Each human's role, in scene order.
    members: Vec<calendar::Member>,
    /// This week's chore days, as (day, chore).
    week: std::collections::BTreeSet<(u32, calendar::Chore)>,
    /// Today, as the calendar planned it.
    today: calendar::Day,
    /// The last day the calendar planned, kept so that asking for it
    /// again (an LLM's prompt, then the script's fallback) draws nothing.
    planned: Option<(u32, calendar::Day, Vec<Planned>)>,
    /// A trip away of the whole household: (first day, last day).
    trip: Option<(u32, u32)>,
    /// What the robot did alone at home, told at the next arrival:
    /// (trace seconds, object, where it went).
    report: Vec<(u64, Id, Dest)>,
    /// Things left out of the house (at work), by whom: brought home at
    /// their next arrival.
    left_out: BTreeMap<Id, Id>,
    /// When each person last came in (trace seconds).
    came_in: BTreeMap<Id, u64>,
    /// Parcels still to be delivered, in scene order.
    parcels: Vec<Id>,
    /// Parcels on the doorstep: (trace seconds left there, parcel).
    doorstep: Vec<(u64, Id)>,
    /// Food waiting outside to be bought, in scene order.
    groceries: Vec<Id>,
    /// Devices that may break down (`rare.breakdown`), in scene order.
    breakable: Vec<Id>,
    /// A repair booked: (day, device).
    repair_booked: Option<(u32, Id)>,
    /// The device broken down and not yet repaired: nobody uses it.
    out_of_order: Option<Id>,
    /// What else the robot, alone at home, tells the first one back:
    /// (trace seconds, words).
    news: Vec<(u64, String)>,
    /// Books lent to a visitor (visitor → book), back at their next call.
    lent: BTreeMap<Id, Id>,
    /// Who may call, with how often and when (`assets/schedules.ron`).
    visitors: Vec<(Id, crate::catalogue::schedules::Visitor)>,
}

const H: u64 = 3600;
const M: u64 = 60;
/// A commitment session also takes up commitments due this soon after it.
const EARLY: u64 = 30 * M;
/// Kinds of device that break down now and then and are repaired (used
/// by nothing but their own fields: nothing waits inside them).
const BREAKABLE: [&str; 2] = ["tv", "coffee machine"];
/// The stream of [`Scripted::kin`].
const KIN_STREAM: u64 = 0x6b696e;

fn pick<'a, T>(rng: &mut ChaCha8Rng, xs: &'a [T]) -> &'a T {
    xs.choose(rng).expect("non-empty template list")
}

impl Scripted {
    pub fn new(scene: &Scene, seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let roles = Arc::new(Roles::builtin(scene));
        let index = SceneIndex::new(scene);
        let ix = index.over(scene);
        let coffee = roles.device(Role::HotDrinks);
        let drinks: Vec<String> = coffee
            .and_then(|d| ix.device(d))
            .and_then(|d| {
                d.fields.values().find_map(|f| {
                    if let FieldDef::Enum { options, .. } = f {
                        Some(options.clone())
                    } else {
                        None
                    }
                })
            })
            .unwrap_or_default();
        let programmes: Vec<String> = roles
            .device(Role::Laundry)
            .and_then(|d| ix.device(d))
            .and_then(|d| match d.fields.get("program") {
                Some(FieldDef::Enum { options, .. }) => Some(options.clone()),
                _ => None,
            })
            .unwrap_or_else(|| vec!["cotton".into()]);
        let people = scene
            .actors
            .iter()
            .filter(|a| a.kind == crate::scene::ActorKind::Human)
            .map(|a| {
                let mut owned: BTreeMap<String, Vec<Id>> = BTreeMap::new();
                for o in scene
                    .objects
                    .iter()
                    .filter(|o| o.owner.as_ref() == Some(&a.id))
                {
                    owned
                        .entry(o.category.clone())
                        .or_default()
                        .push(o.id.clone());
                }
                let vessels = roles.objects(Role::DrinkVessel);
                let mug = scene
                    .objects
                    .iter()
                    .find(|o| o.owner.as_ref() == Some(&a.id) && vessels.contains(&o.id))
                    .map(|o| o.id.clone())
                    .or_else(|| vessels.first().cloned());
                Person {
                    id: a.id.clone(),
                    name: a.name.clone(),
                    mug,
                    drink: drinks.choose(&mut rng).cloned(),
                    tv_volume: rng.random_range(2..8) * 5,
                    brightness: rng.random_range(3..9) * 10,
                    night_target: f64::from(rng.random_range(36..42)) / 2.0,
                    wake: 6 * H + 30 * M + rng.random_range(0..6) * 10 * M,
                    laundry: (
                        programmes.choose(&mut rng).cloned().unwrap_or_default(),
                        *[30, 40, 60].choose(&mut rng).expect("non-empty"),
                    ),
                    owned,
                    today: BTreeMap::new(),
                }
            })
            .collect();
        let mut kin = ChaCha8Rng::seed_from_u64(seed);
        kin.set_stream(KIN_STREAM);
        let mut cal = ChaCha8Rng::seed_from_u64(seed);
        cal.set_stream(calendar::CAL_STREAM);
        let sched = crate::catalogue::schedules();
        // The household is who starts at home; who starts outside may call.
        let members = scene
            .actors
            .iter()
            .filter(|a| a.kind == crate::scene::ActorKind::Human && !a.is_visitor())
            .map(|a| calendar::Member {
                id: a.id.clone(),
                role: sched.role_of(scene, a).clone(),
            })
            .collect();
        let visitors = scene
            .actors
            .iter()
            .filter_map(|a| Some((a.id.clone(), sched.visitor_of(a)?.clone())))
            .collect();
        // What starts beyond the front door: parcels, and food to be bought.
        let outside = |parcel: bool| -> Vec<Id> {
            scene
                .objects
                .iter()
                .filter(|o| {
                    o.at == Placement::Outside && roles.has(&o.id, Role::Delivery) == parcel
                })
                .map(|o| o.id.clone())
                .collect()
        };
        Scripted {
            cal,
            first_weekday: Weekday::Mon,
            members,
            week: Default::default(),
            today: Default::default(),
            planned: None,
            trip: None,
            report: vec![],
            left_out: BTreeMap::new(),
            came_in: BTreeMap::new(),
            parcels: outside(true),
            doorstep: vec![],
            groceries: outside(false),
            lent: BTreeMap::new(),
            breakable: scene
                .devices
                .iter()
                .filter(|d| BREAKABLE.contains(&d.kind.as_str()))
                .map(|d| d.id.clone())
                .collect(),
            repair_booked: None,
            out_of_order: None,
            news: vec![],
            visitors,
            rng,
            kin,
            roles,
            belongs: Belongs::new(scene, crate::catalogue::builtin()),
            misplacements: vec![],
            people,
            commitments: vec![],
            stated: vec![],
            scheduled: Default::default(),
            difficulty: Difficulty::default(),
            away: vec![],
        }
    }

    /// The same backend with day 1 on `weekday` (a Monday by default).
    pub fn starting_on(mut self, weekday: Weekday) -> Self {
        self.first_weekday = weekday;
        self
    }

    /// The same backend with the difficulty axes it acts on (robot presence
    /// and moves; look-alikes are in the scene).
    pub fn with_difficulty(mut self, difficulty: Difficulty) -> Self {
        self.difficulty = difficulty;
        self
    }

    fn person_mut(&mut self, id: &Id) -> &mut Person {
        self.people
            .iter_mut()
            .find(|p| &p.id == id)
            .expect("a human of the scene")
    }

    fn person(&self, id: &Id) -> &Person {
        self.people
            .iter()
            .find(|p| &p.id == id)
            .expect("a human of the scene")
    }

    fn jitter(&mut self, minutes: u64) -> u64 {
        self.rng.random_range(0..=minutes) * M
    }
}

impl Person {
    /// The owned object of each category playing `role` in use today (the
    /// first, unless look-alikes gave a choice), in category order (a
    /// laptop and a notebook, not two notebooks).
    fn first_of_each(&self, r: &Roles, role: Role) -> Vec<Id> {
        self.owned
            .iter()
            .filter_map(|(c, v)| {
                let first = v.iter().find(|o| r.has(o, role))?;
                Some(self.today.get(c).unwrap_or(first))
            })
            .cloned()
            .collect()
    }
}

impl Backend for Scripted {
    fn name(&self) -> &str {
        "scripted"
    }

    fn projects(&mut self, cx: &Context) -> Result<Vec<Project>, GenError> {
        let s = cx.scene;
        let r = Arc::clone(&self.roles);
        let humans = &cx.humans;
        let first = humans.first().cloned().unwrap_or_else(|| cx.robot.clone());
        let second = humans.get(1).cloned().unwrap_or_else(|| first.clone());
        let last = humans.last().cloned().unwrap_or_else(|| first.clone());
        let ids = |xs: &[Option<&Id>]| {
            xs.iter()
                .flatten()
                .map(|i| (*i).clone())
                .collect::<Vec<_>>()
        };
        use MemoryTarget::*;
        use ProjectType::*;
        let end = cx.days;
        let deadline = end.clamp(1, 3);
        let mk = |n: usize,
                  kind,
                  title: String,
                  participants: Vec<Id>,
                  entities: Vec<Id>,
                  targets: Vec<MemoryTarget>,
                  start: u32,
                  end: u32,
                  constraints: Vec<String>| Project {
            id: format!("p{n}"),
            kind,
            title,
            participants,
            entities,
            memory_targets: targets,
            start_day: start,
            end_day: end,
            constraints,
        };
        let meds: Vec<Id> = r.objects(Role::Medicine).to_vec();
        let med_owner = medication(s, &r, humans)
            .map(|(owner, _)| owner)
            .unwrap_or_else(|| first.clone());
        let p = self.person(&first).name.clone();
        let mut projects = vec![
            mk(
                1,
                HouseholdRoutine,
                "Morning coffee and breakfast".into(),
                humans.clone(),
                ids(&[
                    r.device(Role::HotDrinks),
                    r.fixture(Role::DiningSurface)
                        .or(r.fixture(Role::PrepSurface)),
                ]),
                vec![Routine, ObjectLocation],
                1,
                end,
                vec!["breakfast between 06:30 and 08:00".into()],
            ),
            mk(
                2,
                RoutineSupport,
                format!("{}'s daily medication", self.person(&med_owner).name),
                vec![med_owner.clone(), cx.robot.clone()],
                meds,
                vec![TemporalState, Routine, SocialContext],
                1,
                end,
                vec!["medicine every morning around 08:30".into()],
            ),
            mk(
                3,
                HouseholdOrganization,
                "Putting things away".into(),
                humans.clone(),
                closed_containers(s),
                vec![ObjectLocation, HiddenState],
                1,
                end,
                vec![],
            ),
            mk(
                4,
                HealthLifestyle,
                "Comfortable temperature at night".into(),
                humans.clone(),
                ids(&[r.device(Role::Climate)]),
                vec![Preference, DeviceState],
                1,
                end,
                vec![],
            ),
            mk(
                5,
                MealPreparation,
                "Cooking dinner".into(),
                humans.clone(),
                ids(&[
                    r.device(Role::Cooking),
                    r.fixture(Role::ColdStorage),
                    r.device(Role::DishWashing),
                ]),
                vec![DeviceState, PlanningDependency, ObjectLocation],
                1,
                end,
                vec!["dishwasher runs after dinner".into()],
            ),
            mk(
                6,
                WorkStudySupport,
                format!("{}'s project deadline", self.person(&last).name),
                vec![last.clone(), cx.robot.clone()],
                self.person(&last)
                    .owned
                    .values()
                    .flatten()
                    .cloned()
                    .collect(),
                vec![PlanningDependency, TemporalState, ObjectLocation],
                1,
                deadline,
                vec![format!("due on day {deadline}")],
            ),
            mk(
                7,
                DigitalDeviceCoordination,
                "TV, lights and speaker".into(),
                vec![first.clone(), second.clone()],
                ids(&[
                    r.device(Role::Entertainment),
                    r.device(Role::Light),
                    r.device(Role::Audio),
                ]),
                vec![DeviceState, HiddenState],
                1,
                end,
                vec![],
            ),
            mk(
                8,
                FamilyComfort,
                format!("Evenings in with {p}"),
                humans.clone(),
                r.objects(Role::Comfort).to_vec(),
                vec![Preference, SocialContext],
                1,
                end,
                vec![],
            ),
        ];
        if let (Some(washer), Some(basket)) =
            (r.device(Role::Laundry), r.fixture(Role::LaundryBasket))
        {
            projects.push(mk(
                9,
                HouseholdRoutine,
                "Keeping up with the laundry".into(),
                humans.clone(),
                vec![washer.clone(), basket.clone()],
                vec![ObjectLocation, HiddenState, DeviceState, PlanningDependency],
                1,
                end,
                vec!["clothes are put away once the wash is done".into()],
            ));
        }
        Ok(projects)
    }

    fn day_beats(
        &mut self,
        _cx: &Context,
        projects: &[Project],
        day: u32,
    ) -> Result<Vec<DayBeat>, GenError> {
        let mut out = Vec::new();
        for p in projects {
            if day < p.start_day || day > p.end_day {
                continue;
            }
            let beat = if day == p.start_day {
                Beat::Established
            } else if day == p.end_day && p.kind == ProjectType::WorkStudySupport {
                Beat::Completed
            } else if self.rng.random_bool(0.15) {
                Beat::Interrupted
            } else if out
                .iter()
                .any(|b: &DayBeat| b.project == p.id && b.beat == Beat::Interrupted)
            {
                Beat::Recovered
            } else {
                Beat::Continued
            };
            let summary = format!("{}: {:?}", p.title, beat).to_lowercase();
            out.push(DayBeat {
                day,
                project: p.id.clone(),
                beat,
                summary,
            });
        }
        Ok(out)
    }

    fn sessions(
        &mut self,
        cx: &Context,
        projects: &[Project],
        beats: &[DayBeat],
        day: u32,
        _notes: Option<&DayNotes>,
    ) -> Result<Vec<Session>, GenError> {
        use SessionKind as K;
        let base = u64::from(day - 1) * DAY;
        // The scripted projects have fixed ids (see `projects`).
        let beat = |id: &str| {
            let p = projects.iter().find(|p| p.id == id)?;
            let b = beats.iter().find(|b| b.project == p.id).map(|b| b.beat);
            Some((p.id.clone(), b))
        };
        if self.difficulty.lookalikes > 0 {
            self.choose_kin();
        }
        let (today, mut plan) = self.plan_day(cx, day);
        // Today's parcel: brought by the courier (a delivery session), or,
        // where no courier calls, left on the doorstep.
        match (today.delivery, self.parcels.is_empty()) {
            (Some(t), false) => {
                let parcel = self.parcels.remove(0);
                match plan.iter_mut().find(|p| p.kind == K::Delivery) {
                    Some(p) => {
                        p.params.insert("parcel".into(), parcel.to_string());
                    }
                    None => self.doorstep.push((base + t, parcel)),
                }
            }
            _ => plan.retain(|p| p.kind != K::Delivery),
        }
        self.today = today;
        // Commitments due today get a session per due time.
        let mut due: Vec<u64> = self
            .commitments
            .iter()
            .filter(|c| c.status == CommitmentStatus::Open && c.due / DAY + 1 == u64::from(day))
            .map(|c| c.due % DAY)
            .collect();
        due.sort_unstable();
        due.dedup();
        self.scheduled.extend(due.iter().map(|at| base + at));
        plan.extend(due.into_iter().map(|at| Planned::new(at, K::Commitment)));
        let away = self.away_blocks();
        plan.extend(away.iter().map(|b| Planned::new(b.0, K::RobotAway)));
        plan.extend(away.iter().map(|b| Planned::new(b.1, K::RobotBack)));
        self.away = away.iter().map(|b| (base + b.0, base + b.1)).collect();
        plan.sort_by_key(|p| p.at);
        let mut out = Vec::new();
        let mut last_start = base;
        for (i, p) in plan.into_iter().enumerate() {
            let kind = p.kind;
            let (pid, b) = match p.project.map(beat) {
                // A project this scene has no room for (no washing machine).
                Some(None) => continue,
                Some(Some((id, b))) => (Some(id), b),
                None => (None, None),
            };
            // A block away, a departure or an arrival starts on time: the
            // clock of the day is theirs, not the household's.
            let start = if matches!(
                kind,
                K::RobotAway
                    | K::RobotBack
                    | K::Leave
                    | K::Arrive
                    | K::Visit
                    | K::VisitEnd
                    | K::Delivery
                    | K::Repair
            ) {
                (base + p.at).max(last_start + M)
            } else {
                (base + p.at + self.jitter(20)).max(last_start + 5 * M)
            };
            last_start = start;
            let mut params = p.params;
            if kind == K::RobotAway
                && let Some(end) = self.away.iter().find(|b| b.0 == base + p.at).map(|b| b.1)
            {
                params.insert("until".into(), end.to_string());
            }
            if let Some(b) = b {
                params.insert("beat".into(), format!("{b:?}").to_lowercase());
            }
            let participants = match kind.row().who {
                Who::Robot => vec![cx.robot.clone()],
                Who::Home => self.today.home_at(&cx.humans, p.at),
                Who::Named => params
                    .get("who")
                    .map(|w| vec![Id::new(w)])
                    .unwrap_or_default(),
            };
            if participants.is_empty() {
                continue;
            }
            out.push(Session {
                id: format!("d{day}s{:02}", i + 1),
                day,
                start,
                kind: kind.name().into(),
                project: pid,
                intent: kind.intent().into(),
                participants,
                params,
                turns: vec![],
                source: None,
                directed: None,
            });
        }
        for (n, s) in out.iter_mut().enumerate() {
            s.id = format!("d{day}s{:02}", n + 1);
        }
        Ok(out)
    }

    fn direct(
        &mut self,
        cx: &Context,
        session: &Session,
        sim: &Simulation,
    ) -> Result<Vec<Turn>, GenError> {
        let r = Arc::clone(&self.roles);
        let robot = &cx.robot;
        let interrupted = session
            .params
            .get("beat")
            .is_some_and(|b| b == "interrupted");
        let established = session
            .params
            .get("beat")
            .is_some_and(|b| b == "established");
        // Those at home now, by the calendar and in fact (a departure or
        // arrival that slipped behind a session is still to happen); with
        // nobody in, the robot's sessions still name the household (whose
        // commitments, whose things).
        // With nobody home by the calendar, whoever is in (a departure
        // slipped behind) hosts; with nobody in, the household is named.
        let inside: Vec<Id> = cx
            .humans
            .iter()
            .filter(|h| !sim.is_out(h))
            .cloned()
            .collect();
        let mut home = self.today.home_at(&cx.humans, session.start % DAY);
        home.retain(|h| inside.contains(h));
        let humans = match (home.is_empty(), inside.is_empty()) {
            (false, _) => home,
            (true, false) => inside,
            (true, true) => cx.humans.clone(),
        };
        if humans.is_empty() {
            return Ok(vec![]);
        }
        let mut turns = Vec::new();
        let host = humans[self.rng.random_range(0..humans.len())].clone();
        // Cooking, the wash and the weekly clean are a grown-up's, when
        // one is home (the same draw either way).
        let chore = matches!(
            SessionKind::parse(&session.kind),
            Some(
                SessionKind::Cooking
                    | SessionKind::Laundry
                    | SessionKind::Vacuum
                    | SessionKind::Breakdown
            )
        );
        let adult = |h: &Id| self.members.iter().any(|m| &m.id == h && m.role.adult);
        let host = match humans.iter().find(|h| adult(h)) {
            Some(a) if chore && !adult(&host) => a.clone(),
            _ => host,
        };
        // The morning's dusting is the retired person's, who is home all day.
        let host = match humans.iter().find(|h| self.retired(h)) {
            Some(r) if session.params.contains_key("dust") => r.clone(),
            _ => host,
        };
        let x = Stage {
            s: sim.lookup(),
            roles: &r,
            robot,
            humans,
            host,
            sim,
            session,
            cx,
            interrupted,
            established,
        };
        use SessionKind as K;
        let kind = SessionKind::parse(&session.kind);
        match kind {
            Some(K::WakeUp) => self.wake_up(&x, &mut turns)?,
            Some(K::Breakfast) => self.meal(&x, &mut turns)?,
            // Lunch starts with things put back (strays of the morning).
            Some(K::Lunch) => {
                self.put_back_strays(&x, &mut turns);
                self.meal(&x, &mut turns)?
            }
            Some(K::Medication) => self.medication(&x, &mut turns)?,
            Some(K::Tidy) => self.tidy(&x, &mut turns)?,
            Some(K::FindRequest) => self.find_request(&x, &mut turns)?,
            Some(K::Work) => self.work(&x, &mut turns)?,
            Some(K::Laundry) => self.laundry(&x, &mut turns)?,
            Some(K::Commitment) => self.commitment(&x, &mut turns)?,
            Some(K::Cooking) => self.cooking(&x, &mut turns)?,
            Some(K::Evening) => self.evening(&x, &mut turns)?,
            Some(K::Leisure) => self.leisure(&x, &mut turns)?,
            Some(K::RemoteDevices) => self.remote_devices(&x, &mut turns)?,
            Some(K::Bedtime) => self.bedtime(&x, &mut turns)?,
            Some(K::RobotAway) => self.robot_away(&x, &mut turns),
            Some(K::RobotBack) => presence::robot_back(&x, &mut turns),
            Some(K::Leave) => self.leave(&x, &mut turns),
            Some(K::Arrive) => self.arrive(&x, &mut turns),
            Some(K::RobotTidy) => self.robot_tidy(&x, &mut turns),
            Some(K::Vacuum) => self.vacuum(&x, &mut turns),
            Some(K::Visit) => self.visit(&x, &mut turns),
            Some(K::VisitEnd) => self.visit_end(&x, &mut turns),
            Some(K::Delivery) => self.deliver(&x, &mut turns),
            Some(K::Breakdown) => self.breakdown(&x, &mut turns),
            Some(K::Repair) => self.repair(&x, &mut turns),
            Some(K::Party) => self.party(&x, &mut turns),
            Some(K::PartyEnd) => self.party_end(&x, &mut turns),
            None => {}
        }
        // Nothing is fetched that is beyond the front door (food not yet
        // bought, a laptop left at work), except by who brings it in.
        if !matches!(kind, Some(K::Arrive | K::Delivery)) {
            turns.retain(|t| !matches!(&t.goal, Goal::Fetch { object, .. } if outside::outside_now(x.sim, object)));
        }
        // A device out of order is left alone until it is repaired.
        if let Some(broken) = &self.out_of_order
            && kind != Some(K::Repair)
        {
            turns.retain(|t| !matches!(&t.goal, Goal::Operate { device, .. } if device == broken));
        }
        if kind != Some(K::RobotAway) && self.is_away(session.start) {
            presence::without_robot(&mut turns, robot);
            // Nothing asked of it now reached it (kept, for unique ids, as failed).
            for c in self
                .commitments
                .iter_mut()
                .filter(|c| c.asked_in == session.id)
            {
                c.status = CommitmentStatus::Failed;
            }
        }
        Ok(turns)
    }

    fn act(
        &mut self,
        cx: &Context,
        sim: &Simulation,
        turn: &Turn,
        progress: &TurnProgress,
    ) -> Result<Proposal, GenError> {
        let robot = turn.actor == cx.robot;
        let sloppy = self.rng.random_bool(if robot { 0.08 } else { 0.04 });
        Ok(errand::next_in(
            sim,
            Some(&self.belongs),
            &turn.actor,
            &turn.goal,
            progress,
            sloppy,
            robot,
        ))
    }

    fn follow_ups(
        &mut self,
        cx: &Context,
        after: &Session,
        _sim: &Simulation,
    ) -> Result<Vec<Session>, GenError> {
        let day_end = u64::from(after.day) * DAY;
        let mut due: Vec<u64> = self
            .commitments
            .iter()
            .filter(|c| c.status == CommitmentStatus::Open)
            .map(|c| c.due)
            .filter(|d| *d > after.start && *d < day_end && !self.scheduled.contains(d))
            .collect();
        due.sort_unstable();
        due.dedup();
        Ok(due
            .into_iter()
            .map(|at| {
                self.scheduled.insert(at);
                Session {
                    id: format!("d{}c{:02}", after.day, self.scheduled.len()),
                    day: after.day,
                    start: at,
                    kind: SessionKind::Commitment.name().into(),
                    project: None,
                    intent: SessionKind::Commitment.intent().into(),
                    participants: vec![cx.robot.clone()],
                    params: BTreeMap::from([("asked_in".into(), after.id.clone())]),
                    turns: vec![],
                    source: None,
                    directed: None,
                }
            })
            .collect())
    }

    fn turn_done(&mut self, session: &Session, turn: &Turn, result: &Result<(), String>) {
        let kind = SessionKind::parse(&session.kind);
        if kind == Some(SessionKind::RobotTidy)
            && result.is_ok()
            && let Goal::Fetch { object, to } = &turn.goal
        {
            self.report
                .push((session.start, object.clone(), to.clone()));
        }
        if kind != Some(SessionKind::Commitment) {
            return;
        }
        if let Some(c) = self.commitments.iter_mut().find(|c| {
            c.status == CommitmentStatus::Open
                && c.goal == turn.goal
                && c.due <= session.start + EARLY
        }) {
            c.status = if result.is_ok() {
                CommitmentStatus::Done
            } else {
                CommitmentStatus::Failed
            };
        }
    }

    fn misplacements(&mut self) -> Vec<Misplacement> {
        self.misplacements.clone()
    }

    fn notes(
        &mut self,
        _cx: &Context,
        day: u32,
        events: &[Event],
        sim: &Simulation,
    ) -> Result<DayNotes, GenError> {
        let mut preferences = self.stated.clone();
        preferences.sort();
        preferences.dedup();
        Ok(DayNotes {
            preferences,
            commitments: self.commitments.clone(),
            ..day_notes(day, events, sim)
        })
    }
}

/// What every activity's director sees: the session and who is in it.
pub(super) struct Stage<'a> {
    pub s: Indexed<'a>,
    pub roles: &'a Roles,
    pub robot: &'a Id,
    pub humans: Vec<Id>,
    /// The human hosting the session (drawn per session).
    pub host: Id,
    pub sim: &'a Simulation,
    pub session: &'a Session,
    pub cx: &'a Context<'a>,
    pub interrupted: bool,
    pub established: bool,
}
