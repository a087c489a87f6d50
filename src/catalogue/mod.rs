//! The household catalogue (`assets/catalogue.ron`): household kinds, room
//! types, furniture and device kinds with their sizes, surfaces and typed
//! field schemas, object categories with where they are found and the words
//! that tell look-alikes apart, and the [`Role`]s each kind plays. The one
//! source the procedural scene generator ([`crate::procgen`]), the offline
//! generation backend (by role, through [`Roles`]) and the editor's palette
//! share.
//!
//! Parsing works on strings (the default is embedded in the binary);
//! reading another catalogue file is [`crate::store`]'s job.

mod belongs;
mod lookalikes;
mod roles;
pub mod schedules;
mod unknown;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::scene::{FieldDef, Openable, Role, Surface, validate::check_field};

pub use belongs::{
    Belongs, crossed_bedrooms, is_bedroom, only_off_bedrooms, reached_only_from, room_kind,
};
pub use lookalikes::add_lookalikes;
pub use roles::Roles;
pub use schedules::{Destination, Schedules, Weekday, schedules};
pub use unknown::{UnknownKind, nearest_kind, unknown_kinds};

/// The embedded catalogue's RON text.
pub const DEFAULT_SOURCE: &str = include_str!("../../assets/catalogue.ron");

/// The embedded catalogue, parsed and checked once.
pub fn builtin() -> &'static Catalogue {
    static CATALOGUE: OnceLock<Catalogue> = OnceLock::new();
    CATALOGUE.get_or_init(|| {
        parse("assets/catalogue.ron", DEFAULT_SOURCE).expect("the embedded catalogue is valid")
    })
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Catalogue {
    pub households: Vec<HouseholdKind>,
    pub rooms: Vec<RoomType>,
    pub furniture: Vec<FurnitureKind>,
    pub devices: Vec<DeviceKind>,
    pub objects: Vec<ObjectCategory>,
    pub people: People,
}

/// A kind of household the scene generator makes (`studio`, `apartment`,
/// `house`): how many rooms, people and objects, and which room types.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HouseholdKind {
    pub kind: String,
    /// Room count, inclusive.
    pub rooms: (u32, u32),
    /// Humans, inclusive.
    pub people: (u32, u32),
    /// Objects, inclusive.
    pub objects: (u32, u32),
    /// Room types every such household has, the entry first. Bedrooms for
    /// the people are added after these.
    pub required: Vec<String>,
    /// Where people sleep: one for a couple, one more per other person.
    pub bedroom: String,
    /// Room types drawn (without repeats, in this order of preference) to
    /// fill up to the room count.
    pub extra: Vec<String>,
}

/// A type of room, with the fixtures it usually holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoomType {
    pub kind: String,
    pub name: String,
    /// Floor area in square metres, inclusive.
    pub area: (f32, f32),
    /// Its place in the floor plan (ProcTHOR's public and private zones).
    pub zone: Zone,
    /// What a private or service room opens onto: its one door leads to a
    /// room of one of these zones (hall or public). Empty for halls and
    /// public rooms, which join each other.
    #[serde(default)]
    pub opens_onto: Vec<Zone>,
    /// Room types it may instead open onto as their en-suite (a bathroom
    /// onto a bedroom), while another room of its type opens onto the rest.
    #[serde(default)]
    pub en_suite_of: Vec<String>,
    /// Room types it shares a door with whenever the household has both
    /// (the kitchen and the dining room).
    #[serde(default)]
    pub adjoins: Vec<String>,
    /// Room types it would rather open onto, where it can (a pantry off
    /// the kitchen).
    #[serde(default)]
    pub prefers: Vec<String>,
    /// A room others pass through (hallway, entrance): doors prefer it.
    #[serde(default)]
    pub hub: bool,
    /// Belongs at the far end of the plan, away from the entry and the
    /// hubs (a garage).
    #[serde(default)]
    pub outer: bool,
    /// Furniture and device kinds it always holds, most important first.
    pub fixtures: Vec<String>,
    /// Kinds it holds with probability one half, if they fit.
    #[serde(default)]
    pub optional: Vec<String>,
}

/// A room's zone. Halls and public rooms form the connected core of a
/// plan, reached from the entry without passing through anyone's room;
/// private and service rooms are leaves off it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Zone {
    /// Entrance, hallway: passed through.
    Hall,
    /// Living, kitchen, dining room: shared by the household.
    Public,
    /// Bedrooms, bathrooms, study: a door people close.
    Private,
    /// Laundry, pantry, garage: off the kitchen, a hall or a public room.
    Service,
}

impl Zone {
    /// Halls and public rooms: the rooms others walk through.
    pub fn is_core(self) -> bool {
        matches!(self, Zone::Hall | Zone::Public)
    }
}

/// Where a fixture goes in its room.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Mount {
    /// Stands on the floor against a wall; never overlaps other floor
    /// fixtures or a doorway.
    #[default]
    Floor,
    /// Hangs on a wall (thermostat, cabinet above a worktop): may be above
    /// floor fixtures.
    Wall,
    /// On the ceiling, at the middle of the room.
    Ceiling,
    /// Stands on a fixture of one of these kinds in the same room (a coffee
    /// machine on the counter); on the floor if there is none.
    OnTop(Vec<String>),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FurnitureKind {
    pub kind: String,
    /// Other names for the same kind ("refrigerator" for "fridge"): scenes
    /// using them get the same roles.
    #[serde(default)]
    pub aliases: Vec<String>,
    /// Width (along the wall), depth, height in metres.
    pub size: (f32, f32, f32),
    #[serde(default)]
    pub surfaces: Vec<Surface>,
    #[serde(default)]
    pub openable: Openable,
    #[serde(default)]
    pub mount: Mount,
    #[serde(default)]
    pub roles: Vec<Role>,
    /// Descriptions to pick from.
    pub descriptions: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeviceKind {
    pub kind: String,
    #[serde(default)]
    pub aliases: Vec<String>,
    pub size: (f32, f32, f32),
    /// Operable from anywhere (app, voice assistant).
    #[serde(default)]
    pub remote: bool,
    /// The typed state fields and their initial values.
    pub fields: BTreeMap<String, FieldDef>,
    #[serde(default)]
    pub surfaces: Vec<Surface>,
    #[serde(default)]
    pub openable: Openable,
    #[serde(default)]
    pub mount: Mount,
    #[serde(default)]
    pub roles: Vec<Role>,
    pub descriptions: Vec<String>,
    /// Minutes each option of the `program` field runs for (a wash, a
    /// dishwasher cycle): how long the machine is left alone once started.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub cycles: BTreeMap<String, u32>,
}

impl DeviceKind {
    /// Seconds the `program` option runs for, if the catalogue says.
    pub fn cycle_secs(&self, program: &str) -> Option<u64> {
        self.cycles.get(program).map(|m| u64::from(*m) * 60)
    }
}

/// Where objects of a category are found: on or in a receptacle kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Spot {
    On(String),
    In(String),
}

impl Spot {
    pub fn kind(&self) -> &str {
        match self {
            Spot::On(k) | Spot::In(k) => k,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectCategory {
    pub category: String,
    #[serde(default)]
    pub aliases: Vec<String>,
    #[serde(default)]
    pub roles: Vec<Role>,
    /// Receptacles it is found on or in, most typical first.
    pub found: Vec<Spot>,
    /// Room types it belongs in (a book in the living room or the study,
    /// not on the kitchen counter); empty: wherever its receptacles are.
    #[serde(default)]
    pub rooms: Vec<String>,
    /// Belongs to someone (an owner is set).
    #[serde(default)]
    pub personal: bool,
    /// Every person has one (a mug, a towel); otherwise `count` of them.
    #[serde(default)]
    pub each: bool,
    /// How many a household has, inclusive (ignored with `each`).
    #[serde(default = "one_to_two")]
    pub count: (u32, u32),
    /// Descriptions telling look-alikes apart (colour, material, pattern,
    /// brand); objects of one category take different ones.
    pub variants: Vec<String>,
}

fn one_to_two() -> (u32, u32) {
    (1, 2)
}

/// Names and roles for the humans of generated households.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct People {
    pub names: Vec<String>,
    /// Roles of the first two people (the adults).
    pub adults: Vec<String>,
    /// Roles of everyone after them.
    pub others: Vec<String>,
}

impl Catalogue {
    pub fn household(&self, kind: &str) -> Option<&HouseholdKind> {
        self.households.iter().find(|h| h.kind == kind)
    }

    pub fn room(&self, kind: &str) -> Option<&RoomType> {
        self.rooms.iter().find(|r| r.kind == kind)
    }

    pub fn furniture_kind(&self, kind: &str) -> Option<&FurnitureKind> {
        self.furniture
            .iter()
            .find(|f| named(&f.kind, &f.aliases, kind))
    }

    pub fn device_kind(&self, kind: &str) -> Option<&DeviceKind> {
        self.devices
            .iter()
            .find(|d| named(&d.kind, &d.aliases, kind))
    }

    pub fn category(&self, category: &str) -> Option<&ObjectCategory> {
        self.objects
            .iter()
            .find(|o| named(&o.category, &o.aliases, category))
    }

    /// The roles a furniture or device kind plays (by name or alias).
    pub fn fixture_roles(&self, kind: &str) -> &[Role] {
        self.furniture_kind(kind)
            .map(|f| f.roles.as_slice())
            .or_else(|| self.device_kind(kind).map(|d| d.roles.as_slice()))
            .unwrap_or(&[])
    }

    /// The roles an object category plays (by name or alias).
    pub fn object_roles(&self, category: &str) -> &[Role] {
        self.category(category).map_or(&[], |c| c.roles.as_slice())
    }

    /// Household kind names, for help and errors.
    pub fn household_kinds(&self) -> Vec<&str> {
        self.households.iter().map(|h| h.kind.as_str()).collect()
    }

    /// The kind a generated household of `seed` has when `kind` is asked
    /// for: `kind` itself, or with `mixed` the catalogue's kinds in turn by
    /// seed (as `hearth batch --scenes gen:..` draws them).
    pub fn kind_for_seed<'a>(&'a self, kind: &'a str, seed: u64) -> &'a str {
        if kind != "mixed" || self.households.is_empty() {
            return kind;
        }
        &self.households[seed as usize % self.households.len()].kind
    }
}

fn named(kind: &str, aliases: &[String], name: &str) -> bool {
    kind.eq_ignore_ascii_case(name) || aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
}

/// One thing wrong with a catalogue, located at the name it is about.
#[derive(Debug, Clone, PartialEq)]
pub struct CatalogueProblem {
    pub line: usize,
    pub col: usize,
    pub message: String,
}

#[derive(Debug, Error)]
pub enum CatalogueError {
    #[error(transparent)]
    Syntax(#[from] crate::located::SyntaxError),
    #[error("{origin}: {} problem(s){}", problems.len(), problems.iter().map(|p| format!("\n  {origin}:{}:{}: {}", p.line, p.col, p.message)).collect::<String>())]
    Invalid {
        origin: String,
        problems: Vec<CatalogueProblem>,
    },
}

/// Parses and checks a catalogue. `origin` names the source in errors.
/// Every problem is reported at once, at `file:line:col` of the name it is
/// about: unknown kinds referenced, names defined twice, empty choices,
/// bad ranges, device fields outside their schema.
pub fn parse(origin: &str, src: &str) -> Result<Catalogue, CatalogueError> {
    let cat: Catalogue = crate::located::parse_ron(ron::Options::default(), origin, src)?;
    let problems = check(&cat);
    checked(origin, src, cat, problems)
}

/// `value` if there are no `problems` ((name, message) pairs), else every
/// problem located at its name in `src`.
pub(crate) fn checked<T>(
    origin: &str,
    src: &str,
    value: T,
    problems: Vec<(String, String)>,
) -> Result<T, CatalogueError> {
    let problems: Vec<CatalogueProblem> = problems
        .into_iter()
        .map(|(name, message)| {
            let (line, col) = locate(src, &name);
            CatalogueProblem { line, col, message }
        })
        .collect();
    if problems.is_empty() {
        Ok(value)
    } else {
        Err(CatalogueError::Invalid {
            origin: origin.to_string(),
            problems,
        })
    }
}

/// Where `"name"` first appears in the source (1-based), or 1:1.
fn locate(src: &str, name: &str) -> (usize, usize) {
    let quoted = format!("\"{name}\"");
    src.find(&quoted).map_or((1, 1), |offset| {
        let before = &src[..offset];
        let line = before.matches('\n').count() + 1;
        let col = before.len() - before.rfind('\n').map_or(0, |n| n + 1) + 1;
        (line, col)
    })
}

/// Problems as (the name to locate, message).
fn check(c: &Catalogue) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut bad = |name: &str, msg: String| out.push((name.to_string(), msg));
    let range = |(a, b): (u32, u32)| a <= b;
    let fixture_kinds: BTreeSet<String> = c
        .furniture
        .iter()
        .flat_map(|f| std::iter::once(&f.kind).chain(&f.aliases))
        .chain(
            c.devices
                .iter()
                .flat_map(|d| std::iter::once(&d.kind).chain(&d.aliases)),
        )
        .map(|k| k.to_lowercase())
        .collect();
    let mut seen = BTreeSet::new();
    let names = c
        .furniture
        .iter()
        .flat_map(|f| std::iter::once(&f.kind).chain(&f.aliases))
        .chain(
            c.devices
                .iter()
                .flat_map(|d| std::iter::once(&d.kind).chain(&d.aliases)),
        );
    for n in names {
        if !seen.insert(n.to_lowercase()) {
            bad(n, format!("kind or alias {n:?} is defined twice"));
        }
    }
    let mut seen = BTreeSet::new();
    for o in &c.objects {
        for n in std::iter::once(&o.category).chain(&o.aliases) {
            if !seen.insert(n.to_lowercase()) {
                bad(n, format!("category or alias {n:?} is defined twice"));
            }
        }
    }
    for d in &c.devices {
        let options = match d.fields.get("program") {
            Some(FieldDef::Enum { options, .. }) => options.as_slice(),
            _ => &[],
        };
        for p in d.cycles.keys().filter(|p| !options.contains(p)) {
            bad(
                &d.kind,
                format!(
                    "device {}: cycle {p:?} is not an option of its program",
                    d.kind
                ),
            );
        }
    }
    let room_kinds: BTreeSet<&str> = c.rooms.iter().map(|r| r.kind.as_str()).collect();
    for h in &c.households {
        if !range(h.rooms) || h.rooms.0 == 0 || !range(h.people) || !range(h.objects) {
            bad(
                &h.kind,
                format!(
                    "household {}: a range is empty or starts at 0 rooms",
                    h.kind
                ),
            );
        }
        for r in h.required.iter().chain(&h.extra).chain([&h.bedroom]) {
            if !room_kinds.contains(r.as_str()) {
                bad(
                    r,
                    format!(
                        "household {} names room type {r:?}, which is not in rooms",
                        h.kind
                    ),
                );
            }
        }
        if let Some(entry) = h.required.first().and_then(|r| c.room(r))
            && !entry.zone.is_core()
        {
            bad(
                &entry.kind,
                format!(
                    "household {}: its entry {} must be a hall or public room",
                    h.kind, entry.kind
                ),
            );
        }
        if (h.required.len() as u32) + 1 > h.rooms.1 {
            bad(
                &h.kind,
                format!(
                    "household {}: its required rooms and a bedroom need more rooms than {}",
                    h.kind, h.rooms.1
                ),
            );
        }
    }
    for r in &c.rooms {
        if r.zone.is_core() != r.opens_onto.is_empty() || r.opens_onto.iter().any(|z| !z.is_core())
        {
            bad(
                &r.kind,
                format!(
                    "room type {}: a private or service room opens onto Hall or Public rooms; a hall or public room lists no opens_onto",
                    r.kind
                ),
            );
        }
        for k in r.en_suite_of.iter().chain(&r.adjoins).chain(&r.prefers) {
            if !room_kinds.contains(k.as_str()) {
                bad(k, format!("room type {}: {k:?} is not a room type", r.kind));
            }
        }
        if !(r.area.0 > 0.0 && r.area.0 <= r.area.1) {
            bad(
                &r.kind,
                format!(
                    "room type {}: area range must be positive and ordered",
                    r.kind
                ),
            );
        }
        for k in r.fixtures.iter().chain(&r.optional) {
            if !fixture_kinds.contains(&k.to_lowercase()) {
                bad(
                    k,
                    format!(
                        "room type {} holds {k:?}, which is no furniture or device kind",
                        r.kind
                    ),
                );
            }
        }
    }
    let sizes = c
        .furniture
        .iter()
        .map(|f| (&f.kind, f.size, &f.descriptions, &f.surfaces, &f.mount))
        .chain(
            c.devices
                .iter()
                .map(|d| (&d.kind, d.size, &d.descriptions, &d.surfaces, &d.mount)),
        );
    for (kind, size, descriptions, surfaces, mount) in sizes {
        if !(size.0 > 0.0 && size.1 > 0.0 && size.2 > 0.0) {
            bad(kind, format!("{kind}: sizes must be positive"));
        }
        if descriptions.is_empty() {
            bad(kind, format!("{kind}: give at least one description"));
        }
        if surfaces
            .iter()
            .any(|s| matches!(s, Surface::On(0) | Surface::In(0)))
        {
            bad(kind, format!("{kind}: a surface with capacity 0"));
        }
        if let Mount::OnTop(under) = mount {
            for u in under {
                if !fixture_kinds.contains(&u.to_lowercase()) {
                    bad(kind, format!("{kind} stands on {u:?}, which is no kind"));
                }
            }
        }
    }
    for d in &c.devices {
        if d.fields.is_empty() {
            bad(
                &d.kind,
                format!("device {}: needs at least one field", d.kind),
            );
        }
        for (name, f) in &d.fields {
            if let Err(e) = check_field(f) {
                bad(&d.kind, format!("device {} field {name}: {e}", d.kind));
            }
        }
    }
    for o in &c.objects {
        if o.found.is_empty() {
            bad(
                &o.category,
                format!("category {}: say where it is found", o.category),
            );
        }
        for s in &o.found {
            if !fixture_kinds.contains(&s.kind().to_lowercase()) {
                bad(
                    s.kind(),
                    format!(
                        "category {} is found at {:?}, which is no kind",
                        o.category,
                        s.kind()
                    ),
                );
            }
        }
        for r in &o.rooms {
            if !room_kinds.contains(r.as_str()) {
                bad(
                    r,
                    format!(
                        "category {} belongs in room type {r:?}, which is not in rooms",
                        o.category
                    ),
                );
            }
        }
        let distinct: BTreeSet<&String> = o.variants.iter().collect();
        if o.variants.is_empty() || distinct.len() != o.variants.len() {
            bad(
                &o.category,
                format!(
                    "category {}: variants must be non-empty and distinct",
                    o.category
                ),
            );
        }
        if !range(o.count) || (!o.each && o.count.1 as usize > o.variants.len()) {
            bad(
                &o.category,
                format!(
                    "category {}: count range empty or larger than its variants",
                    o.category
                ),
            );
        }
        if o.each && !o.personal {
            bad(
                &o.category,
                format!("category {}: `each` needs `personal`", o.category),
            );
        }
    }
    if c.people.names.len() < 8 || c.people.adults.is_empty() || c.people.others.is_empty() {
        bad(
            "people",
            "people: give at least 8 names and roles for adults and others".into(),
        );
    }
    out
}
