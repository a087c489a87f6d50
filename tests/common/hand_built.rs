//! A hand-built household day and a half, run through `hearth run`, where
//! the right answer of every family is known (tests of samples and agents).

use hearth::samples::Cutoff;
use hearth::samples::cutoff::cutoff_at;
use hearth::store::{Trace, read_trace};
use hearth::trace::Event;

use super::*;

/// The hand-built household day and a half. Comments say what each part
/// is for; the tests below name the events by what they do.
pub const SCRIPT: &str = r#"
{"session": "s1"}
{"actor": "robot", "skill": "navigate_to", "args": {"target": "dining_table_1"}, "at": 25200}
{"actor": "alice", "skill": "navigate_to", "args": {"target": "dining_table_1"}, "at": 25200}
# A preference, said to the robot.
{"actor": "alice", "skill": "say", "args": {"text": "I like my coffee as a cappuccino.", "to": ["robot"], "claims": [{"entity": "coffee_machine_1", "attr": "drink", "value": "cappuccino", "mode": "preference", "holder": "alice"}]}}
{"actor": "alice", "skill": "navigate_to", "args": {"target": "coffee_machine_1"}}
{"actor": "alice", "skill": "set_device_state", "args": {"device": "coffee_machine_1", "field": "drink", "value": "cappuccino"}}
{"actor": "alice", "skill": "navigate_to", "args": {"target": "counter_1"}}
# The glass moves from the counter to the table in front of the robot.
{"actor": "alice", "skill": "pick", "args": {"object": "cup_2"}}
{"actor": "alice", "skill": "navigate_to", "args": {"target": "dining_table_1"}}
{"actor": "alice", "skill": "place", "args": {"object": "cup_2", "target": "dining_table_1", "relation": "on"}}
{"session": "s2"}
{"actor": "robot", "skill": "navigate_to", "args": {"target": "charging_dock_1"}, "at": 36000}
# A hidden move: into the closed cabinet while the robot is in the hallway.
{"actor": "alice", "skill": "pick", "args": {"object": "cup_2"}, "at": 36600}
{"actor": "alice", "skill": "navigate_to", "args": {"target": "cabinet_1"}}
{"actor": "alice", "skill": "open", "args": {"target": "cabinet_1"}}
{"actor": "alice", "skill": "place", "args": {"object": "cup_2", "target": "cabinet_1", "relation": "in"}}
{"actor": "alice", "skill": "close", "args": {"target": "cabinet_1"}}
# A false report, and a request that is never done.
{"actor": "alice", "skill": "navigate_to", "args": {"target": "robot"}}
{"actor": "alice", "skill": "say", "args": {"text": "I left the green-rimmed glass on the pantry shelf.", "to": ["robot"], "claims": [{"entity": "cup_2", "attr": "location", "value": {"on": "pantry_shelf_1"}}]}}
{"actor": "alice", "skill": "say", "args": {"text": "And put the tv remote on the sofa by noon, please.", "to": ["robot"], "claims": [{"entity": "remote_1", "attr": "location", "value": {"on": "sofa_1"}, "mode": "request", "due": 43200}]}}
# A request for tomorrow morning.
{"actor": "bob", "skill": "say", "args": {"text": "Robot, bring my sunglasses to my desk tomorrow at eight.", "to": ["robot"], "claims": [{"entity": "glasses_2", "attr": "location", "value": {"on": "desk_study"}, "mode": "request", "due": 115200}]}}
{"session": "s3"}
{"actor": "robot", "skill": "navigate_to", "args": {"target": "console_table_1"}, "at": 111600}
{"actor": "robot", "skill": "pick", "args": {"object": "glasses_2"}}
{"actor": "robot", "skill": "navigate_to", "args": {"target": "desk_study"}}
{"actor": "robot", "skill": "place", "args": {"object": "glasses_2", "target": "desk_study", "relation": "on"}}
{"session": "s4"}
{"actor": "robot", "skill": "navigate_to", "args": {"target": "dining_table_1"}, "at": 115200}
{"actor": "bob", "skill": "navigate_to", "args": {"target": "coffee_machine_1"}, "at": 115200}
{"actor": "bob", "skill": "set_device_state", "args": {"device": "coffee_machine_1", "field": "drink", "value": "espresso"}}
{"actor": "alice", "skill": "navigate_to", "args": {"target": "coffee_machine_1"}, "at": 115300}
{"actor": "alice", "skill": "set_device_state", "args": {"device": "coffee_machine_1", "field": "drink", "value": "cappuccino"}}
{"session": "s5"}
{"actor": "robot", "skill": "navigate_to", "args": {"target": "cabinet_1"}, "at": 118800}
{"actor": "robot", "skill": "open", "args": {"target": "cabinet_1"}}
{"session": "s6"}
{"actor": "robot", "skill": "wait", "args": {"seconds": 60}, "at": 122400}
"#;

/// Runs a request script (JSON lines) through `hearth run` and reads the
/// trace back.
pub fn run_script(text: &str) -> (tempfile::TempDir, Trace) {
    let t = tmp();
    let script = write(t.path(), "script.jsonl", text);
    let out = t.path().join("trace");
    hearth(&["run", "--script", s(&script), "--out", s(&out)]).ok();
    let trace = read_trace(&out).unwrap();
    (t, trace)
}

/// Runs the script through `hearth run` and reads the trace back.
pub fn hand_built() -> (tempfile::TempDir, Trace) {
    let (t, trace) = run_script(SCRIPT);
    let rejected: Vec<&Event> = trace.events.iter().filter(|e| !e.outcome.is_ok()).collect();
    assert!(rejected.is_empty(), "the script is valid: {rejected:#?}");
    (t, trace)
}

/// The event of `actor` doing `skill` that `pred` picks.
pub fn find(events: &[Event], actor: &str, skill: &str, pred: impl Fn(&Event) -> bool) -> u64 {
    events
        .iter()
        .find(|e| e.actor.as_str() == actor && e.action.skill_name() == skill && pred(e))
        .unwrap_or_else(|| panic!("no {actor} {skill}"))
        .id
}

/// The cutoff at the start of `session`.
pub fn at_session(events: &[Event], session: &str) -> Cutoff {
    cutoff_at(
        events
            .iter()
            .find(|e| e.session.as_deref() == Some(session))
            .unwrap(),
    )
}
