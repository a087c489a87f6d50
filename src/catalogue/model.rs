//! The catalogue's types: household kinds, room types, furniture and
//! device kinds, object categories, people; lookups by name or alias.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::scene::{FieldDef, Openable, Role, Surface};

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
    /// Can break down (`rare.breakdown` in assets/schedules.ron): found
    /// broken (`find_broken`) and repaired by the technician.
    #[serde(default)]
    pub breaks: bool,
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
    /// Food and supplies that are used up: how many uses (a meal's
    /// servings) one lasts before it is finished and thrown out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub servings: Option<u32>,
    /// Days a bought one keeps (its best-before, from the week bought).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keeps: Option<u32>,
    /// What tells later ones of the kind apart when more come in over the
    /// months (a parcel's sender, a detergent's scent); food bought is
    /// told apart by its best-before day.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<String>,
    /// Written on (`write`: its `text`): the shopping list.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub writable: bool,
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
