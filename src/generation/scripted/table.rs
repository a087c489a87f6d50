//! Each session kind's activity, a line each, in the order of the kinds'
//! table (`generation/kinds.rs`): adding a kind is a line there, an
//! activity, and a line here.

use super::activity::Activity;
use super::bedtime::Bedtime;
use super::commitments::DueCommitments;
use super::cooking::Cooking;
use super::devices::RemoteDevices;
use super::evening::Evening;
use super::laundry::Laundry;
use super::leisure::Leisure;
use super::meals::{Breakfast, Lunch};
use super::medication::Medication;
use super::outside::{Arrive, Delivery, Leave, RobotTidy, Vacuum, Visit, VisitEnd};
use super::party::{Party, PartyEnd};
use super::presence::{RobotAway, RobotBack};
use super::repairs::{Breakdown, Repair};
use super::requests::FindRequest;
use super::tidying::Tidy;
use super::wake_up::WakeUp;
use super::work::Work;
use crate::generation::SessionKind as K;

/// The activities, by kind.
pub(super) const ACTIVITIES: [(K, &dyn Activity); 27] = [
    (K::WakeUp, &WakeUp),
    (K::Breakfast, &Breakfast),
    (K::Medication, &Medication),
    (K::Tidy, &Tidy),
    (K::FindRequest, &FindRequest),
    (K::Lunch, &Lunch),
    (K::Leisure, &Leisure),
    (K::Work, &Work),
    (K::Laundry, &Laundry),
    (K::Cooking, &Cooking),
    (K::Evening, &Evening),
    (K::RemoteDevices, &RemoteDevices),
    (K::Bedtime, &Bedtime),
    (K::Commitment, &DueCommitments),
    (K::RobotAway, &RobotAway),
    (K::RobotBack, &RobotBack),
    (K::Leave, &Leave),
    (K::Arrive, &Arrive),
    (K::RobotTidy, &RobotTidy),
    (K::Vacuum, &Vacuum),
    (K::Visit, &Visit),
    (K::VisitEnd, &VisitEnd),
    (K::Delivery, &Delivery),
    (K::Breakdown, &Breakdown),
    (K::Repair, &Repair),
    (K::Party, &Party),
    (K::PartyEnd, &PartyEnd),
];

/// The activity of `kind`.
pub(super) fn activity(kind: K) -> &'static dyn Activity {
    ACTIVITIES
        .iter()
        .find(|(k, _)| *k == kind)
        .map(|(_, a)| *a)
        .expect("every kind has its activity")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_one_activity_in_the_kinds_order() {
        let kinds: Vec<K> = ACTIVITIES.iter().map(|(k, _)| *k).collect();
        assert_eq!(kinds, K::ALL.to_vec());
    }
}
