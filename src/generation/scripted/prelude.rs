//! What the activities and helpers of the scripted backend have at hand:
//! the core's types, the pipeline's stage types, the household and its
//! constants, and the small builders of goals and lookups in a scene.

pub(super) use std::collections::BTreeMap;
pub(super) use std::sync::Arc;

pub(super) use rand::Rng;
pub(super) use rand::seq::IndexedRandom;

pub(super) use super::activity::Activity;
pub(super) use super::goals::*;
pub(super) use super::household::{H, M, Scripted, pick};
pub(super) use super::ledger::EARLY;
pub(super) use super::lookup::*;
pub(super) use super::stage::Stage;
pub(super) use crate::catalogue::{Roles, Weekday, capital};
pub(super) use crate::generation::*;
pub(super) use crate::ids::Id;
pub(super) use crate::scene::{FieldDef, Indexed, Placement, Role, Surface};
pub(super) use crate::sim::Simulation;
pub(super) use crate::trace::{Claim, DAY, Event, Location, Value};
