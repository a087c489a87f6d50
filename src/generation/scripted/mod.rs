//! The built-in offline backend: rule- and template-driven household life,
//! deterministic from the seed. Humans keep routines with natural variation,
//! state preferences and later act on them, ask the robot for things now
//! and later (commitments), report where things are (sometimes wrongly),
//! tidy things away while the robot is elsewhere, use devices in person
//! and remotely, and hand things over.

//!
//! The household's state is [`Scripted`] (`household.rs`) with a ledger
//! per concern (`ledger/`, `calendar.rs`); each session kind is directed
//! by an [`activity::Activity`] registered in `table.rs`; the pipeline's
//! stages are `backend.rs`.

mod activity;
mod backend;
mod bedtime;
mod calendar;
mod commitments;
mod cooking;
mod day_plan;
mod devices;
mod evening;
mod goals;
mod homes;
mod household;
mod laundry;
mod ledger;
mod leisure;
mod lookalikes;
mod lookup;
mod meals;
mod medication;
mod outside;
mod party;
mod people;
mod prelude;
mod presence;
mod repairs;
mod requests;
mod stage;
mod stock;
mod table;
mod tidying;
mod wake_up;
mod work;

pub use household::Scripted;
pub use stock::provision;
