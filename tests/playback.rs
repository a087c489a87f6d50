//! Playback: the state and the robot's view at any event equal the
//! executor's, seeking is the same forwards and backwards, and a damaged
//! trace is refused.

mod common;

use common::generated as trace;

use hearth::ids::Id;
use hearth::playback::{KEYFRAME_EVERY, Playback};
use hearth::sim::Simulation;
use hearth::trace::request::{Action, Request};

#[test]
fn state_and_robot_view_at_every_event_equal_the_executors() {
    for scene_id in ["family_apartment", "large_house"] {
        let (scene, events) = trace(scene_id, 3, 2);
        assert!(events.len() > 2 * KEYFRAME_EVERY);
        let pb = Playback::new(scene.clone(), events.clone()).unwrap();
        let mut sim = Simulation::new(scene).unwrap();
        for n in 0..=events.len() {
            if n > 0 {
                sim.replay_event(&events[n - 1]).unwrap();
            }
            assert_eq!(
                pb.state_at(n),
                sim.state(),
                "{scene_id}: state after {n} events"
            );
            let believed: Vec<_> = sim
                .beliefs("robot")
                .unwrap()
                .iter()
                .map(|(k, b)| (k.clone(), b.value.clone()))
                .collect();
            let view: Vec<_> = pb
                .beliefs_at(n)
                .into_iter()
                .map(|(k, (v, _))| (k, v))
                .collect();
            assert_eq!(view, believed, "{scene_id}: robot's view after {n} events");
        }
    }
}

#[test]
fn seeking_is_order_independent_and_history_is_complete() {
    let (scene, events) = trace("family_apartment", 1, 2);
    let pb = Playback::new(scene, events.clone()).unwrap();
    let points: Vec<usize> = (0..=pb.len()).step_by(37).collect();
    let forward: Vec<_> = points.iter().map(|n| pb.state_at(*n)).collect();
    let mut backward: Vec<_> = points.iter().rev().map(|n| pb.state_at(*n)).collect();
    backward.reverse();
    assert_eq!(forward, backward);
    assert_eq!(pb.state_at(pb.len() + 10), pb.state_at(pb.len()));
    let mug = hearth::ids::Id::new("mug_1");
    let history = pb.history(&mug, pb.len());
    let moves = events
        .iter()
        .filter(|e| e.outcome.is_ok() && e.changes.iter().any(|c| c.entity == mug))
        .count();
    assert_eq!(history.len(), moves);
    assert_eq!(pb.at_time(0), 0);
    assert_eq!(pb.at_time(u64::MAX), pb.len());
}

#[test]
fn a_trace_that_does_not_replay_is_refused() {
    let (scene, mut events) = trace("studio", 0, 1);
    let i = events
        .iter()
        .position(|e| e.outcome.is_ok() && !e.changes.is_empty())
        .unwrap();
    events[i].changes.clear();
    let err = Playback::new(scene, events).err().expect("refused");
    assert!(
        err.to_string().contains(&format!("event {}", i + 1)),
        "{err}"
    );
}

#[test]
fn a_fork_is_the_replayed_state_and_goes_on_the_same_way() {
    let (scene, events) = trace("family_apartment", 2, 2);
    let mut sim = Simulation::new(scene.clone()).unwrap();
    for (i, e) in events.iter().enumerate() {
        sim.replay_event(e).unwrap();
        if i % 97 != 50 {
            continue;
        }
        // The fork carries on exactly as a replay from the first event would.
        let mut fork = sim.fork();
        assert_eq!(fork.state(), sim.state(), "state after {} events", i + 1);
        assert_eq!(fork.beliefs("robot"), sim.beliefs("robot"));
        assert_eq!(fork.now(), sim.now());
        for later in &events[i + 1..(i + 40).min(events.len())] {
            fork.replay_event(later).unwrap();
        }
        // ... and leaves the original untouched.
        let mut again = Simulation::replay(scene.clone(), &events[..=i]).unwrap();
        assert_eq!(again.state(), sim.state());
        for later in &events[i + 1..(i + 40).min(events.len())] {
            again.replay_event(later).unwrap();
        }
        assert_eq!(again.state(), fork.state());
    }
}

#[test]
fn a_spare_put_in_a_state_goes_on_as_a_fork_would() {
    let (scene, events) = trace("family_apartment", 2, 3);
    let mut sim = Simulation::new(scene.clone()).unwrap();
    let mut spare: Option<Simulation> = None;
    let (mut checked, mut diverged) = (0, 0);
    // The things no event of the trace moves.
    let still: Vec<Id> = (scene.objects.iter())
        .map(|o| o.id.clone())
        .filter(|o| {
            !events
                .iter()
                .any(|e| e.changes.iter().any(|c| c.entity == *o))
        })
        .collect();
    assert!(!still.is_empty());
    for (i, e) in events.iter().enumerate() {
        sim.replay_event(e).unwrap();
        if i % 89 != 40 {
            continue;
        }
        // The spare was left wherever the last use took it (later events
        // replayed into it), and is put in this state again.
        let reused = sim.fork_into(&mut spare);
        assert_eq!(reused.state(), sim.state(), "state after {} events", i + 1);
        assert_eq!(reused.beliefs("robot"), sim.beliefs("robot"));
        assert_eq!(reused.now(), sim.now());
        let mut fork = sim.fork();
        for later in &events[i + 1..(i + 60).min(events.len())] {
            reused.replay_event(later).unwrap();
            fork.replay_event(later).unwrap();
        }
        assert_eq!(reused.state(), fork.state());
        // Everyone's beliefs: a copy from the same world copies only what
        // either changed, and the spare's replay changed them.
        for a in &scene.actors {
            assert_eq!(
                reused.beliefs(a.id.as_str()),
                fork.beliefs(a.id.as_str()),
                "{}",
                a.id
            );
        }
        // And something the trace never did, as a plan run on the spare
        // does (the robot picks up a thing no one moves): the next copy
        // must undo it, though the world copied from never changed it.
        let thing = &still[checked % still.len()];
        for action in [
            Action::NavigateTo {
                target: thing.clone(),
            },
            Action::Pick {
                object: thing.clone(),
            },
        ] {
            let actor = Id::new("robot");
            reused.execute(Request {
                actor,
                action,
                at: None,
            });
        }
        diverged += usize::from(reused.state() != fork.state());
        checked += 1;
    }
    assert!(checked > 5, "only {checked} states checked");
    assert!(
        diverged > 2,
        "the spare went its own way only {diverged} times"
    );
}
