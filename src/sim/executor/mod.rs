//! The executor: validates a request against the world and plans its
//! effects (`plan_request`), then applies them (`apply_step`). A rejected
//! request plans nothing, so it changes nothing.
//!
//! [`WorldView`] is the world as validation (and perception) read it;
//! `dispatch` checks a request's actor and time and hands its skill to the
//! file planning that family of skills (`outings`: `leave` and `arrive`).

mod apply;
mod devices;
mod dispatch;
mod inspect;
mod movement;
mod objects;
mod openables;
mod outings;
mod plan;
mod speech;
mod step;
mod view;

pub use apply::apply_step;
pub use dispatch::plan_request;
pub use step::{Op, Reveal, Step};
pub use view::WorldView;
