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

use super::names::{Names, SCRIPTED_SKILLS, SKILL_FIELDS};

/// Ids in order, each once.
pub fn ids_in(xs: &[String]) -> Vec<Id> {
    let mut seen = BTreeSet::new();
    xs.iter()
        .filter(|s| seen.insert(s.as_str()))
        .map(|s| Id::new(s))
        .collect()
}

/// Every rule of the stages' checks that JSON Schema can state, as
/// `(stage, path, keyword)` in the schema sent for that stage (`*`: the
/// items of an array), so a constrained decoder cannot break it: ids and
/// options by `enum`, times by `pattern`, non-empty lists by `minItems`,
/// numbers by bounds. A test holds every stage's schema to this list both
/// ways; lengths (`maxLength`, `maxItems`, `maximum`) every slot has.
#[cfg(test)]
pub const IN_SCHEMA: &[(&str, &str, &str)] = &[
    ("projects", "projects", "minItems"),
    ("projects", "projects.*.id", "pattern"),
    ("projects", "projects.*.kind", "enum"),
    ("projects", "projects.*.participants", "minItems"),
    ("projects", "projects.*.participants.*", "enum"),
    ("projects", "projects.*.entities.*", "enum"),
    ("projects", "projects.*.memory_targets", "minItems"),
    ("projects", "projects.*.memory_targets.*", "enum"),
    ("projects", "projects.*.start_day", "enum"),
    ("projects", "projects.*.start_day", "minimum"),
    ("projects", "projects.*.end_day", "enum"),
    ("projects", "projects.*.end_day", "minimum"),
    ("day_beats", "beats", "minItems"),
    ("day_beats", "beats.*.project", "enum"),
    ("day_beats", "beats.*.beat", "enum"),
    ("sessions", "sessions", "minItems"),
    ("sessions", "sessions.*.start", "pattern"),
    ("sessions", "sessions.*.kind", "pattern"),
    ("sessions", "sessions.*.project", "enum"),
    ("sessions", "sessions.*.participants", "minItems"),
    ("sessions", "sessions.*.participants.*", "enum"),
    ("director", "turns", "minItems"),
    ("director", "turns.*.actor", "enum"),
    ("actor", "steps.*.skill", "enum"),
    ("actor", "steps.*.target", "enum"),
    ("actor", "steps.*.object", "enum"),
    ("actor", "steps.*.relation", "enum"),
    ("actor", "steps.*.device", "enum"),
    ("actor", "steps.*.field", "enum"),
    ("actor", "steps.*.value", "enum"),
    ("actor", "steps.*.value", "minimum"),
    ("actor", "steps.*.to", "minItems"),
    ("actor", "steps.*.to.*", "enum"),
    ("actor", "steps.*.seconds", "minimum"),
    ("actor", "then", "enum"),
];

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

fn fields_of(skill: &str) -> &'static [&'static str] {
    const ALL: &[&str] = &[
        "target", "object", "relation", "device", "field", "value", "to", "text", "seconds",
    ];
    // An unknown skill keeps every field, for the executor to name.
    SKILL_FIELDS
        .iter()
        .find(|(s, _)| *s == skill)
        .map_or(ALL, |(_, f)| f)
}

/// An actor reply's steps as requests in the executor's schema; a step it
/// cannot read is dropped, with why.
pub fn steps_of(actor: &Id, steps: &[reply::Step]) -> (Vec<Request>, Vec<String>) {
    let (mut ok, mut problems) = (Vec::new(), Vec::new());
    for (i, step) in steps.iter().enumerate() {
        if SCRIPTED_SKILLS.contains(&step.skill.as_str()) {
            problems.push(format!(
                "steps[{i}]: {} follows the calendar, which the script keeps; choose another skill",
                step.skill
            ));
            continue;
        }
        let mut args = serde_json::to_value(step).expect("steps serialize");
        let args = args.as_object_mut().expect("a step is an object");
        // Only the fields the skill takes: a small model fills them all.
        let takes = fields_of(&step.skill);
        args.retain(|k, v| takes.contains(&k.as_str()) && !v.is_null());
        // A handoff goes to one person: the first of the list.
        if step.skill == "handoff"
            && let Some(first) = args.get("to").and_then(|t| t.get(0)).cloned()
        {
            args.insert("to".into(), first);
        }
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

    use crate::llm::backend::stages::{SESSIONS, STEPS, TURNS, projects_wanted};
    use crate::llm::schema::{KEYWORDS, Pattern, validate};
    use rand::SeedableRng;

    const STAGES: [&str; 7] = [
        "projects",
        "day_beats",
        "sessions",
        "director",
        "actor",
        "words",
        "notes",
    ];

    fn stage_schemas() -> Vec<(&'static str, serde_json::Value)> {
        let s = crate::scene::parse("family_apartment", crate::scene::default_source()).unwrap();
        let names = Names::new(&s);
        let p = vec!["p1".to_string(), "p2".to_string()];
        STAGES
            .iter()
            .map(|st| {
                let want = match *st {
                    "projects" => projects_wanted(3),
                    "sessions" => SESSIONS,
                    "director" => TURNS,
                    "actor" => STEPS,
                    _ => 2,
                };
                (*st, names.schema(st, &p, 3, want))
            })
            .collect()
    }

    /// Every `(path, keyword)` of `schema` that states a rule, and every
    /// slot left without a length or bound.
    fn walk(
        s: &serde_json::Value,
        path: &str,
        rules: &mut BTreeSet<(String, String)>,
        loose: &mut Vec<String>,
    ) {
        let o = s.as_object().expect("a schema is an object");
        for k in o.keys() {
            assert!(
                KEYWORDS.contains(&k.as_str()),
                "{path}: keyword {k} is not checked"
            );
            if ["enum", "pattern", "minItems", "minimum"].contains(&k.as_str()) {
                rules.insert((path.to_string(), k.clone()));
            }
        }
        if let Some(p) = o.get("pattern").and_then(|p| p.as_str()) {
            assert!(Pattern::of(p).is_some(), "{path}: pattern {p}");
        }
        if let Some(forms) = o.get("anyOf").and_then(|f| f.as_array()) {
            forms.iter().for_each(|f| walk(f, path, rules, loose));
            return;
        }
        let types: Vec<&str> = match &o["type"] {
            serde_json::Value::String(t) => vec![t.as_str()],
            serde_json::Value::Array(a) => a.iter().filter_map(|t| t.as_str()).collect(),
            _ => vec![],
        };
        let has = |k: &str| o.contains_key(k) || o.contains_key("enum");
        for t in types {
            let ok = match t {
                "string" => has("pattern") || has("maxLength"),
                "integer" | "number" => has("minimum") && has("maximum"),
                "array" => has("maxItems"),
                _ => true,
            };
            if !ok {
                loose.push(format!("{path} ({t})"));
            }
        }
        for (k, x) in o
            .get("properties")
            .and_then(|p| p.as_object())
            .into_iter()
            .flatten()
        {
            let at = if path.is_empty() {
                k.clone()
            } else {
                format!("{path}.{k}")
            };
            walk(x, &at, rules, loose);
        }
        if let Some(items) = o.get("items") {
            walk(items, &format!("{path}.*"), rules, loose);
        }
    }

    #[test]
    fn every_rule_schema_can_state_is_in_every_stage_schema() {
        for (stage, schema) in stage_schemas() {
            let (mut rules, mut loose) = (BTreeSet::new(), vec![]);
            walk(&schema, "", &mut rules, &mut loose);
            let listed: BTreeSet<(String, String)> = IN_SCHEMA
                .iter()
                .filter(|(st, ..)| *st == stage)
                .map(|(_, p, k)| (p.to_string(), k.to_string()))
                .collect();
            // Both ways: each listed rule is in the schema, and the schema
            // states no rule the list does not name.
            assert_eq!(rules, listed, "{stage}");
            assert!(
                loose.is_empty(),
                "{stage}: no length or bound for {loose:?}"
            );
        }
    }

    #[test]
    fn the_checks_and_the_schema_refuse_the_same_sessions() {
        let (_, schema) = stage_schemas().remove(2);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let good = crate::llm::mock::decode(&schema, None, &mut rng, 0.0);
        for (field, bad, want) in [
            ("start", json!("23:00"), "is not a time inside the day"),
            ("start", json!(""), "is not a time inside the day"),
            ("start", json!("7 pm"), "is not a time inside the day"),
            ("participants", json!([]), "has no participants"),
        ] {
            let mut v = good.clone();
            v["sessions"][0][field] = bad.clone();
            assert!(
                !validate(&schema, &v).is_empty(),
                "the schema lets {field} {bad} pass"
            );
            let item: reply::SessionItem =
                serde_json::from_value(v["sessions"][0].clone()).unwrap();
            let p = session_problems(0, &item);
            assert!(p.iter().any(|p| p.contains(want)), "{field} {bad}: {p:?}");
        }
        let item: reply::SessionItem = serde_json::from_value(good["sessions"][0].clone()).unwrap();
        assert!(session_problems(0, &item).is_empty());
    }

    #[test]
    fn a_constrained_decoder_writes_only_what_the_schemas_allow() {
        for (stage, schema) in stage_schemas() {
            for seed in 0..60 {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                let v = crate::llm::mock::decode(&schema, None, &mut rng, 0.5);
                assert_eq!(
                    validate(&schema, &v),
                    Vec::<String>::new(),
                    "{stage} {seed}: {v}"
                );
            }
        }
    }

    #[test]
    fn every_skill_has_a_step_form() {
        let skills: Vec<&str> = SKILL_FIELDS.iter().map(|(s, _)| *s).collect();
        let offered: Vec<&str> = crate::trace::request::SKILLS
            .iter()
            .copied()
            .filter(|s| !SCRIPTED_SKILLS.contains(s))
            .collect();
        assert_eq!(skills, offered);
    }

    #[test]
    fn actor_steps_are_read_or_dropped_with_why() {
        let alice = Id::new("alice");
        let (ok, problems) = steps_of(&alice, &[step("leave", None)]);
        assert!(
            ok.is_empty() && problems[0].contains("calendar"),
            "{problems:?}"
        );
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
