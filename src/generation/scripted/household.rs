//! The scripted household's state, kept from session to session: its
//! draws, the scene's roles and where things belong, the people as the
//! script plays them, the difficulty it acts on, and its ledgers (the
//! calendar, commitments, the doorstep, repairs, loans, the robot's
//! news). The activities (`activity.rs`) read and change it; the
//! pipeline's stages are `backend.rs`.

use std::collections::BTreeMap;
use std::sync::Arc;

use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::calendar::{self, Calendar, Day, Planned};
use super::ledger::{Commitments, Doorstep, Loans, News, Pantry, Repairs};
use super::people::{Person, person};
use super::stock::Stocked;
use crate::catalogue::{Belongs, Roles, Weekday};
use crate::generation::{Context, Misplacement};
use crate::ids::Id;
use crate::scene::{FieldDef, Placement, Role, Scene, SceneIndex};
use crate::trace::Difficulty;

/// The built-in offline backend's household: see the module's doc.
pub struct Scripted {
    pub(super) rng: ChaCha8Rng,
    /// The look-alike axis's own draws (which mug today), on a stream of
    /// their own so the household's other draws stay as they are.
    pub(super) kin: ChaCha8Rng,
    /// The scene's fixtures, devices and objects by role; shared so that a
    /// stage can hold it while drawing from `rng`.
    pub(super) roles: Arc<Roles>,
    /// Where each object belongs (the catalogue's places in this scene).
    pub(super) belongs: Belongs,
    /// Objects put somewhere odd on purpose (`plan.json`).
    pub(super) misplacements: Vec<Misplacement>,
    pub(super) people: Vec<Person>,
    /// Preferences stated aloud (the day's notes).
    pub(super) stated: Vec<String>,
    pub(super) difficulty: Difficulty,
    /// Today's blocks (start, end; trace seconds) with the robot docked away.
    pub(super) away: Vec<(u64, u64)>,
    /// The robot docked for the block under way (a block whose start the
    /// day's sessions ran past is skipped, and so is its "I'm back").
    pub(super) docked: bool,
    /// The days of the week, who is out when, chores, calls, rare events.
    pub(super) calendar: Calendar,
    /// What the robot was asked to do later.
    pub(super) commitments: Commitments,
    /// Parcels, groceries, what is carried in and out.
    pub(super) doorstep: Doorstep,
    /// Food used up, the shopping list, the rubbish.
    pub(super) pantry: Pantry,
    /// Devices broken down and their repair.
    pub(super) repairs: Repairs,
    /// Books lent to visitors.
    pub(super) loans: Loans,
    /// What the robot, alone at home, tells the first one back.
    pub(super) news: News,
}

pub(super) const H: u64 = 3600;
pub(super) const M: u64 = 60;
/// Kinds of device that break down now and then and are repaired (used
/// by nothing but their own fields: nothing waits inside them).
/// The stream of [`Scripted::kin`].
const KIN_STREAM: u64 = 0x6b696e;

pub(super) fn pick<'a, T>(rng: &mut ChaCha8Rng, xs: &'a [T]) -> &'a T {
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
                    // Hot water is for tea, nobody's favourite drink.
                    drink: drinks
                        .iter()
                        .filter(|d| *d != "hot water")
                        .collect::<Vec<_>>()
                        .choose(&mut rng)
                        .map(|d| d.to_string()),
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
        // What starts beyond the front door: parcels, food to be bought,
        // and the shop's stock for the months.
        let stock = Stocked::of(scene, crate::catalogue::builtin());
        let outside = |parcel: bool| -> Vec<Id> {
            scene
                .objects
                .iter()
                .filter(|o| {
                    o.at == Placement::Outside
                        && roles.has(&o.id, Role::Delivery) == parcel
                        && !stock.iter().any(|s| s.id == o.id)
                })
                .map(|o| o.id.clone())
                .collect()
        };
        Scripted {
            calendar: Calendar::new(scene, seed),
            doorstep: Doorstep::new(outside(true), outside(false), stock.clone()),
            pantry: Pantry::default(),
            repairs: Repairs::new(
                scene
                    .devices
                    .iter()
                    .filter(|d| {
                        crate::catalogue::builtin()
                            .device_kind(&d.kind)
                            .is_some_and(|k| k.breaks)
                    })
                    .map(|d| d.id.clone())
                    .collect(),
            ),
            loans: Loans::default(),
            news: News::default(),
            rng,
            kin,
            roles,
            belongs: Belongs::new(scene, crate::catalogue::builtin()),
            misplacements: vec![],
            people,
            commitments: Commitments::default(),
            stated: vec![],
            difficulty: Difficulty::default(),
            away: vec![],
            docked: false,
        }
    }

    /// The same backend with day 1 on `weekday` (a Monday by default).
    pub fn starting_on(mut self, weekday: Weekday) -> Self {
        self.calendar.first_weekday = weekday;
        self
    }

    /// The same backend with the difficulty axes it acts on (robot presence
    /// and moves; look-alikes are in the scene).
    pub fn with_difficulty(mut self, difficulty: Difficulty) -> Self {
        self.difficulty = difficulty;
        self
    }

    pub(super) fn person_mut(&mut self, id: &Id) -> &mut Person {
        self.people
            .iter_mut()
            .find(|p| &p.id == id)
            .expect("a human of the scene")
    }

    pub(super) fn person(&self, id: &Id) -> &Person {
        person(&self.people, id)
    }

    /// What the calendar's draws need of the rest of the household.
    pub(super) fn plan_day(&mut self, cx: &Context, day: u32) -> (Day, Vec<Planned>) {
        let h = calendar::Household {
            roles: &self.roles,
            repairs: &mut self.repairs,
            people: &self.people,
            list: self.pantry.list(),
        };
        self.calendar.plan_day(cx, day, h)
    }

    /// Day `day` of the calendar, in words, for a model that writes the
    /// day (the LLM backend's prompts): the same calendar the script
    /// keeps, so a model's days have the shape of the script's.
    pub fn calendar(&mut self, cx: &Context, day: u32) -> Vec<String> {
        let h = calendar::Household {
            roles: &self.roles,
            repairs: &mut self.repairs,
            people: &self.people,
            list: self.pantry.list(),
        };
        self.calendar.words(cx, day, h)
    }

    /// Whether `who` is a retired member of the household.
    pub(super) fn retired(&self, who: &Id) -> bool {
        self.calendar.retired(who)
    }

    pub(super) fn jitter(&mut self, minutes: u64) -> u64 {
        self.rng.random_range(0..=minutes) * M
    }
}
