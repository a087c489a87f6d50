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
pub mod bought;
mod lookalikes;
mod model;
mod parse;
mod roles;
pub mod schedules;
mod unknown;
mod words;

pub use belongs::{
    Belongs, crossed_bedrooms, is_bedroom, only_off_bedrooms, reached_only_from, room_kind,
};
pub use lookalikes::add_lookalikes;
pub use model::{
    Catalogue, DeviceKind, FurnitureKind, HouseholdKind, Mount, ObjectCategory, People, RoomType,
    Spot, Zone,
};
pub use parse::{CatalogueError, CatalogueProblem, DEFAULT_SOURCE, builtin, parse};
pub use roles::Roles;
pub use schedules::{Destination, Schedules, Weekday, schedules};
pub use unknown::{UnknownKind, nearest_kind, unknown_kinds};
pub use words::{
    article, capital, duration_said, fixture_said, kind_said, one_of, plural, room_said,
};
