//! Property test: random request streams over every built-in scene never
//! break the world's invariants, and a rejected request changes nothing.

use hearth::scene;
use hearth::sim::Simulation;
use hearth::sim::stress::RandomRequests;
use hearth::trace::{Location, RejectionCode, Value};
use proptest::prelude::*;

/// 3 scenes x 18 cases x 2000 requests = 108,000 requests per run.
const REQUESTS_PER_CASE: usize = 2000;

fn check_stream(scene_id: &str, seed: u64) -> Result<(), TestCaseError> {
    let src = scene::BUILTIN
        .iter()
        .find(|(id, _)| *id == scene_id)
        .unwrap()
        .1;
    let mut sim = Simulation::new(scene::parse(scene_id, src).unwrap()).unwrap();
    let mut requests = RandomRequests::new(&sim, seed);
    let mut accepted = 0;
    let mut outings = 0;
    for i in 0..REQUESTS_PER_CASE {
        let req = requests.next(&sim);
        let before = sim.state();
        let event = sim.execute(req.clone());
        let after = sim.state();
        prop_assert_eq!(event.id, i as u64 + 1);
        if event.outcome.is_ok() {
            accepted += 1;
            outings += usize::from(matches!(event.action.skill_name(), "leave" | "arrive"));
            // Every change is real and nothing else moved.
            for c in &event.changes {
                prop_assert_eq!(
                    before.get(&(c.entity.clone(), c.attr.clone())),
                    Some(&c.old)
                );
                prop_assert_eq!(after.get(&(c.entity.clone(), c.attr.clone())), Some(&c.new));
            }
            let changed = before
                .iter()
                .filter(|(k, v)| after.get(*k) != Some(*v))
                .count();
            prop_assert_eq!(
                changed,
                event.changes.len(),
                "unrecorded change by {:?}",
                req
            );
        } else {
            prop_assert!(event.changes.is_empty());
            prop_assert!(
                before == after,
                "rejected request {:?} changed the world",
                req
            );
        }
        // Nothing inside a closed container is ever shown.
        let closed = |c: &hearth::ids::Id| {
            after.get(&(c.clone(), "open".into())) == Some(&Value::Bool(false))
        };
        for f in &event.reveals {
            if let Value::Location(Location::In(c)) = &f.value {
                prop_assert!(
                    !closed(c),
                    "event {} reveals {} inside closed {}",
                    event.id,
                    f.entity,
                    c
                );
            }
        }
        prop_assert!(
            event.observers.contains(&event.actor)
                || event
                    .outcome
                    .rejection()
                    .is_some_and(|r| r.code == RejectionCode::UnknownActor)
        );
        // Nobody out of the house perceives anything of it.
        for o in event.observers.iter().chain(&event.revealed_to) {
            if o != &event.actor {
                prop_assert!(
                    !sim.is_out(o),
                    "{} is out but observed event {}",
                    o,
                    event.id
                );
            }
        }
        if let Err(errors) = sim.check_invariants() {
            return Err(TestCaseError::fail(format!(
                "after {:?}:\n{}",
                req,
                errors.join("\n")
            )));
        }
    }
    // People go out and come back, carrying things both ways.
    prop_assert!(outings >= 10, "only {} leave/arrive accepted", outings);
    // The stream must exercise the executor, not just its rejections.
    prop_assert!(
        accepted > REQUESTS_PER_CASE / 5,
        "only {} of {} accepted",
        accepted,
        REQUESTS_PER_CASE
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 18, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn family_apartment_keeps_invariants(seed in any::<u64>()) {
        check_stream("family_apartment", seed)?;
    }

    #[test]
    fn studio_keeps_invariants(seed in any::<u64>()) {
        check_stream("studio", seed)?;
    }

    #[test]
    fn large_house_keeps_invariants(seed in any::<u64>()) {
        check_stream("large_house", seed)?;
    }
}
