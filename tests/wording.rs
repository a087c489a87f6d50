//! Wording checks (docs/samples.md, "Gold answers a careful reader agrees
//! with"): every question and answer template, filled over generated homes
//! of every kind and both ways of asking, read for the faults an annotator
//! marks wrong: self-reference ("before Ben put it with Ben"), a verb that
//! does not agree with its thing ("the headphones is"), someone asked about
//! who could not have done it (the courier putting the brie away), a
//! deadline, an hour or a place nobody said, and the robot as its own
//! source.

mod common;

use hearth::catalogue;
use hearth::procgen::{self, SceneSpec};
use hearth::samples::{self, Answer, Asking, QaSample, Sample};
use hearth::scene::{ActorKind, Scene};
use hearth::trace::request::Action;
use hearth::trace::{DAY, Event, Location, Value};

/// Homes no other test reads: every kind, two seeds each.
fn homes() -> Vec<(Scene, Vec<Event>)> {
    let mut out = Vec::new();
    for (kind, seed) in [
        ("studio", 31),
        ("studio", 32),
        ("apartment", 33),
        ("apartment", 34),
        ("house", 35),
        ("house", 36),
    ] {
        let scene = procgen::generate(&SceneSpec::new(kind, seed), catalogue::builtin()).unwrap();
        let (events, _) = common::days_of(&scene, seed, 4);
        out.push((scene, events));
    }
    out
}

fn qa(scene: &Scene, events: &[Event], seed: u64) -> Vec<QaSample> {
    [Asking::Robot, Asking::Household]
        .into_iter()
        .flat_map(|ask| samples::mine_asking(scene, events, seed, ask))
        .filter_map(|s| match s {
            Sample::Qa(q) => Some(q),
            Sample::Plan(_) => None,
        })
        .collect()
}

/// The faults of one question, in words.
fn faults(scene: &Scene, events: &[Event], q: &QaSample) -> Vec<String> {
    let text = format!(
        "{} {} {}",
        q.question,
        q.answer_text,
        q.hedge.as_deref().unwrap_or("")
    );
    let event = |id: u64| events.iter().find(|e| e.id == id).unwrap();
    let mut out = Vec::new();
    let people: Vec<(&str, bool)> = scene
        .actors
        .iter()
        .filter(|a| a.kind == ActorKind::Human)
        .map(|a| (a.name.as_str(), a.is_visitor()))
        .collect();
    // Self-reference: a person doing something "with" themselves.
    for (name, _) in &people {
        for verb in ["put it with", "put them with", "moved it with"] {
            if text.contains(&format!("{name} {verb} {name}"))
                || text.contains(&format!("before {name} {verb} {name}"))
            {
                out.push(format!("self-reference: {name}"));
            }
        }
    }
    // A word said twice ("switch the speaker on on day 5").
    let words: Vec<&str> = text.split_whitespace().collect();
    for w in words.windows(2) {
        if w[0] == w[1] && ["on", "the", "a", "to", "of", "in", "off"].contains(&w[0]) {
            out.push(format!("doubled: {:?}", w[0]));
        }
    }
    if text.contains("from the robot that") || text.contains("the robot told the robot") {
        out.push("the robot as its own source".into());
    }
    // Agreement: a thing's name and the verb beside it.
    for o in &scene.objects {
        let name = format!("the {}", o.description);
        let (wrong, right) = if samples::plural(&name) {
            (["is", "was", "has"], "plural")
        } else {
            (["are", "were", "have"], "singular")
        };
        for w in wrong {
            if text.contains(&format!("{name} {w} ")) || text.contains(&format!(" {w} {name}")) {
                out.push(format!("agreement: {right} {name:?} with {w:?}"));
            }
        }
        // A plural thing that "gets put" or "goes".
        if right == "plural" {
            for w in ["gets", "goes", "belongs", "sits", "ends"] {
                if text.contains(&format!("{name} {w} ")) {
                    out.push(format!("agreement: plural {name:?} with {w:?}"));
                }
            }
        }
    }
    // False premises are asked of the people who live there.
    if q.template.starts_with("unanswerable/") {
        for (name, visitor) in &people {
            if *visitor && q.question.contains(name) {
                out.push(format!("false premise about caller {name}"));
            }
        }
    }
    // A deadline somebody said, an hour within half an hour of what it
    // stands for.
    match (q.template.as_str(), &q.answer) {
        ("commitment/when_due", Answer::Time { t, .. }) => match &event(q.evidence[0]).action {
            Action::Say { text, .. } if samples::says_time(text, *t) => {}
            Action::Say { text, .. } => out.push(format!("deadline nobody said: {text:?}")),
            a => out.push(format!("deadline from {a:?}")),
        },
        // What was asked, only where it was said: "put the clothes away"
        // asked no place, so "in the wardrobe" is no gold of it.
        (
            "commitment/what_asked",
            Answer::Value {
                value: Value::Location(Location::On(at) | Location::In(at)),
            },
        ) => {
            let kind = scene.furniture.iter().map(|f| (&f.id, &f.kind));
            let kind = kind.chain(scene.devices.iter().map(|d| (&d.id, &d.kind)));
            let noun = kind.filter(|(id, _)| *id == at).map(|(_, k)| k).next();
            let noun = noun.and_then(|k| k.rsplit(' ').next()).unwrap_or("?");
            match &event(q.evidence[0]).action {
                Action::Say { text, .. } if text.to_lowercase().contains(noun) => {}
                a => out.push(format!("a place nobody said ({noun}): {a:?}")),
            }
        }
        // What someone did, said as a person would: "Picked up the mug.",
        // not "Pick the mug." or "Handoff the box.".
        ("temporal/what_next", Answer::Action { .. }) => {
            const DID: [&str; 12] = [
                "Went ",
                "Looked ",
                "Picked ",
                "Put ",
                "Opened ",
                "Closed ",
                "Handed ",
                "Came ",
                "Switched ",
                "Set ",
                "Went out",
                "Used some of ",
            ];
            if !DID.iter().any(|d| q.answer_text.starts_with(d)) {
                out.push(format!("not a past tense: {:?}", q.answer_text));
            }
        }
        ("routine/usual_hour", Answer::Value { value }) => {
            let hour = serde_json::to_value(value).unwrap().as_i64().unwrap() * 60;
            for id in &q.evidence {
                let at = (event(*id).t % DAY / 60) as i64;
                let off = (at - hour).abs().min(1440 - (at - hour).abs());
                if off > 30 {
                    out.push(format!("hour {hour} for an act at minute {at}"));
                }
            }
        }
        _ => {}
    }
    // "Anyone" is the household.
    if q.template == "counting/how_many_anyone"
        && q.evidence
            .iter()
            .any(|id| event(*id).actor.as_str() == "robot")
    {
        out.push("the robot's own act counted under anyone".into());
    }
    out
}

#[test]
fn filled_templates_read_as_a_careful_annotator_would_want() {
    let mut asked = 0;
    let mut found = Vec::new();
    let mut plural_things = 0;
    for (seed, (scene, events)) in homes().iter().enumerate() {
        plural_things += scene
            .objects
            .iter()
            .filter(|o| samples::plural(&format!("the {}", o.description)))
            .count();
        for q in qa(scene, events, seed as u64) {
            asked += 1;
            for f in faults(scene, events, &q) {
                found.push(format!("{} {}: {} ({f})", scene.id, q.id, q.question));
            }
        }
    }
    assert!(asked > 2000, "{asked} questions");
    // The homes have things named in the plural for the agreement check
    // to bite on.
    assert!(plural_things >= 6, "{plural_things}");
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// The checks catch what they look for: each fault planted in a question
/// that was right is found.
#[test]
fn the_checks_find_each_fault_planted() {
    let (scene, events) = homes().swap_remove(2);
    let qs = qa(&scene, &events, 2);
    let plant = |template: &str, edit: &dyn Fn(&mut QaSample)| {
        let mut q = qs
            .iter()
            .find(|q| q.template == template)
            .unwrap_or_else(|| panic!("no {template}"))
            .clone();
        assert!(faults(&scene, &events, &q).is_empty(), "{}", q.question);
        edit(&mut q);
        faults(&scene, &events, &q)
    };
    let person = scene
        .actors
        .iter()
        .find(|a| a.kind == ActorKind::Human && !a.is_visitor())
        .unwrap()
        .name
        .clone();
    let caller = scene
        .actors
        .iter()
        .find(|a| a.is_visitor())
        .unwrap()
        .name
        .clone();
    let plural = scene
        .objects
        .iter()
        .map(|o| format!("the {}", o.description))
        .find(|n| samples::plural(n))
        .expect("a thing named in the plural");
    let found = plant("overwritten_state/before_change", &|q| {
        q.question = format!("Where was the mug before {person} put it with {person}?")
    });
    assert!(
        found.iter().any(|f| f.starts_with("self-reference")),
        "{found:?}"
    );
    let found = plant("current_state/where_is", &|q| {
        q.question = format!("Do you know where {plural} is right now?")
    });
    assert!(
        found.iter().any(|f| f.starts_with("agreement")),
        "{found:?}"
    );
    let found = plant("temporal/what_next", &|q| {
        q.answer_text = "Handoff the large box.".into()
    });
    assert!(
        found.iter().any(|f| f.starts_with("not a past tense")),
        "{found:?}"
    );
    let found = plant("unanswerable/when_last", &|q| {
        q.question = format!("When did {caller} last put the milk in the fridge?")
    });
    assert!(found.iter().any(|f| f.contains("caller")), "{found:?}");
    let found = plant("routine/usual_hour", &|q| {
        let Answer::Value { value } = &q.answer else {
            unreachable!()
        };
        let h = serde_json::to_value(value).unwrap().as_i64().unwrap();
        q.answer = Answer::Value {
            value: serde_json::from_value(serde_json::json!((h + 2) % 24)).unwrap(),
        };
    });
    assert!(found.iter().any(|f| f.starts_with("hour")), "{found:?}");
    let found = plant("commitment/what_asked", &|q| {
        let said = match &events
            .iter()
            .find(|e| e.id == q.evidence[0])
            .unwrap()
            .action
        {
            Action::Say { text, .. } => text.to_lowercase(),
            _ => unreachable!(),
        };
        let unsaid = scene.furniture.iter().find(|f| !said.contains(&f.kind));
        q.answer = Answer::Value {
            value: Value::Location(Location::On(unsaid.unwrap().id.clone())),
        };
    });
    assert!(
        found.iter().any(|f| f.starts_with("a place nobody said")),
        "{found:?}"
    );
    let found = plant("counting/how_many_anyone", &|q| {
        let robot = events.iter().find(|e| e.actor.as_str() == "robot").unwrap();
        q.evidence.push(robot.id);
    });
    assert!(found.iter().any(|f| f.contains("anyone")), "{found:?}");
    let found = plant("counting/how_many_anyone", &|q| {
        q.question = "How often did anyone switch the smart speaker on on day 5?".into();
    });
    assert!(found.iter().any(|f| f.starts_with("doubled")), "{found:?}");
}
