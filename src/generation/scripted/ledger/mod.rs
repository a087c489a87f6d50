//! What the scripted household keeps from session to session, a ledger
//! per concern, each an owned type with its own state and rules (and
//! tests): the robot's commitments, breakdowns and repairs, books lent to
//! visitors, the doorstep (parcels, groceries, what is carried in and out),
//! the pantry (food used up, the shopping list, the rubbish) and the news
//! the robot keeps for the first one home. The calendar's own state is
//! [`super::calendar::Calendar`].

mod commitments;
mod doorstep;
mod loans;
mod news;
mod pantry;
mod repairs;

pub(super) use commitments::{Commitments, EARLY};
pub(super) use doorstep::Doorstep;
pub(super) use loans::Loans;
pub(super) use news::News;
pub(super) use pantry::Pantry;
pub(super) use repairs::Repairs;
