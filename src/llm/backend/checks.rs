//! Reply checks: what a stage's reply must say to make sense for the home
//! (times inside the day, participants present, steps the executor can
//! read), each problem named so the model can be told.

use std::collections::BTreeSet;

use serde_json::json;

use crate::generation::Goal;
use crate::ids::Id;
use crate::llm::reply;
use crate::trace::DAY;
use crate::trace::request::Request;

use super::names::Names;

/// Ids in order, each once.
pub fn ids_in(xs: &[String]) -> Vec<Id> {
    let mut seen = BTreeSet::new();
    xs.iter()
        .filter(|s| seen.insert(s.as_str()))
        .map(|s| Id::new(s))
        .collect()
}

/// "HH:MM" → seconds since midnight.
pub fn clock(s: &str) -> Option<u64> {
    let (h, m) = s.trim().split_once(':')?;
    let (h, m): (u64, u64) = (h.parse().ok()?, m.get(..2).unwrap_or(m).parse().ok()?);
    (h < 24 && m < 60).then_some(h * 3600 + m * 60)
}

/// The latest start a session may have: an hour before midnight.
pub const LAST_START: u64 = DAY - 3600;

/// What is wrong with one planned session.
pub fn session_problems(i: usize, s: &reply::SessionItem) -> Vec<String> {
    let mut out = Vec::new();
    if clock(&s.start).is_none_or(|t| t >= LAST_START) {
        out.push(format!(
            "sessions[{i}].start {:?} is not a time inside the day (HH:MM, 00:00 to 22:59)",
            s.start
        ));
    }
    if s.participants.is_empty() {
        out.push(format!(
            "sessions[{i}] ({}) has no participants; name at least one person or the robot",
            s.kind
        ));
    }
    out
}

/// An actor reply's steps as requests in the executor's schema; a step it
/// cannot read is dropped, with why.
pub fn steps_of(actor: &Id, steps: &[reply::Step]) -> (Vec<Request>, Vec<String>) {
    let (mut ok, mut problems) = (Vec::new(), Vec::new());
    for (i, step) in steps.iter().enumerate() {
        let mut args = serde_json::to_value(step).expect("steps serialize");
        let args = args.as_object_mut().expect("a step is an object");
        args.retain(|k, v| k != "skill" && !v.is_null());
        let line = json!({"actor": actor, "skill": step.skill, "args": args});
        match Request::from_json(&line.to_string()) {
            Ok(r) => ok.push(r),
            Err(e) => problems.push(format!("steps[{i}]: {e}")),
        }
    }
    (ok, problems)
}

/// What the script can do for an intention the model gave no usable steps
/// for: go to the first thing of the home it names.
pub fn intent_goal(names: &Names, text: &str) -> Option<Goal> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .find(|w| names.things.iter().any(|t| t == w))
        .map(|w| Goal::GoTo { target: Id::new(w) })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::llm::backend::names::Names;

    #[test]
    fn invented_names_are_id_shaped_words_the_home_lacks() {
        let s = crate::scene::parse("family_apartment", crate::scene::default_source()).unwrap();
        let names = Names::new(&s);
        let bad = names.invented(
            "take mug_1 and the kitchen_table_9 to nightstand_carol, say good_night at desk_lily.",
        );
        assert_eq!(bad.len(), 2, "{bad:?}");
        assert!(bad[0].starts_with("kitchen_table_9 (closest: "), "{bad:?}");
        assert!(
            bad[1].starts_with("nightstand_carol (closest: nightstand_"),
            "{bad:?}"
        );
        assert!(names.invented("walk over to sofa_1, then relax").is_empty());
        assert_eq!(
            intent_goal(&names, "walk over to sofa_1, then relax"),
            Some(Goal::GoTo {
                target: Id::new("sofa_1")
            })
        );
        assert_eq!(intent_goal(&names, "relax a while"), None);
    }

    fn step(skill: &str, target: Option<&str>) -> reply::Step {
        serde_json::from_value(json!({"skill": skill, "target": target, "object": null, "relation": null, "device": null,
            "field": null, "value": null, "to": null, "text": null, "seconds": null}))
        .unwrap()
    }

    #[test]
    fn actor_steps_are_read_or_dropped_with_why() {
        let alice = Id::new("alice");
        let (ok, problems) = steps_of(
            &alice,
            &[step("navigate_to", Some("sofa_1")), step("inspect", None)],
        );
        assert_eq!(ok.len(), 1);
        assert_eq!(problems.len(), 1);
        assert!(problems[0].starts_with("steps[1]: "), "{problems:?}");
        assert_eq!(steps_of(&alice, &[]), (vec![], vec![]));
    }

    #[test]
    fn sessions_outside_the_day_or_without_people_are_named() {
        let item = |start: &str, people: &[&str]| reply::SessionItem {
            start: start.into(),
            kind: "tidy".into(),
            project: None,
            intent: String::new(),
            participants: people.iter().map(|p| p.to_string()).collect(),
        };
        assert!(session_problems(0, &item("22:59", &["alice"])).is_empty());
        for (start, people, want) in [
            (
                "23:00",
                &["alice"][..],
                "sessions[3].start \"23:00\" is not a time inside the day",
            ),
            ("7 pm", &["alice"][..], "sessions[3].start \"7 pm\""),
            ("08:00", &[][..], "sessions[3] (tidy) has no participants"),
        ] {
            let p = session_problems(3, &item(start, people));
            assert_eq!(p.len(), 1);
            assert!(p[0].starts_with(want), "{p:?}");
        }
    }
}
