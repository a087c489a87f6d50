//! Procedural households (`hearth scene generate`): a valid scene from a
//! seed and a household kind of the catalogue. Rooms tile a footprint and
//! are all reachable through doors on shared walls; furniture stands inside
//! its room against a wall, clear of doorways and of other furniture;
//! devices carry the catalogue's field schemas; objects sit on or in
//! receptacles where such things are found, with look-alikes told apart by
//! their descriptions; people have names, roles, bedrooms and their own
//! things, and the robot starts at its dock. Same seed and options, same
//! scene, byte for byte.

mod furnish;
mod generate;
mod household;
pub mod layout;
mod spec;
mod stock;

pub use generate::generate;
pub use spec::{ProcgenError, SceneSpec};
