//! Events as the robot perceived them, in words: the text memory agents
//! and exported benchmarks read ("Alice opened the fridge. The robot saw:
//! the oat milk is in the fridge.").

use crate::ids::Id;
use crate::trace::request::Action;
use crate::trace::{Event, LEVEL, TEXT, Value, listed};

use super::act::act_of;
use super::phrasing::{fill, pick};
use super::text::{Namer, capital};
use super::wording::{Tense, and_list, outing, verb_phrase};

/// An utterance's words, or an action narrated, then what it revealed to
/// `observer`. The wording is one of several, picked by the event's id and
/// time, so every reader (agents, exports, the LLM answerer) narrates an
/// event alike while questions and their evidence share few words.
pub fn narrate(n: &Namer, e: &Event, observer: &Id) -> String {
    let key = e.id.wrapping_mul(0x1_0000_0001).wrapping_add(e.t);
    let who = n.name(&e.actor);
    let mut text = match (&e.action, e.outcome.rejection()) {
        (Action::Say { text, .. }, _) => text.clone(),
        // The executor's reasons are the actor's feedback; a bystander only
        // sees that it did not work.
        (a, Some(r)) if &e.actor == observer => format!(
            "{} tried to {} but could not: {}.",
            capital(&who),
            base_phrase(n, a),
            r.message
        ),
        (a, Some(_)) => format!(
            "{} tried to {} but could not.",
            capital(&who),
            base_phrase(n, a)
        ),
        (_, None) => format!("{} {}.", capital(&who), past_phrase(n, e, key)),
    };
    if e.revealed_to.contains(observer) && !e.reveals.is_empty() {
        let facts: Vec<String> = e
            .reveals
            .iter()
            .filter(|f| f.attr.as_str() != "position")
            .map(|f| match (f.attr.as_str(), &f.value) {
                ("location", v) => format!("{} is {}", n.name(&f.entity), n.value("location", v)),
                ("open", v) => format!("{} is {}", n.name(&f.entity), n.value("open", v)),
                (attr, Value::Bool(_)) if attr == "power" => {
                    format!("{} is {}", n.name(&f.entity), n.value(attr, &f.value))
                }
                (attr, v) => format!(
                    "the {} of {} is {}",
                    attr.replace('_', " "),
                    n.name(&f.entity),
                    n.value(attr, v)
                ),
            })
            .collect();
        if !facts.is_empty() {
            let saw = pick(&["saw", "noticed", "could see", "spotted"], key ^ 1);
            text.push_str(&format!(
                " {} {saw}: {}.",
                capital(&n.name(observer)),
                facts.join("; ")
            ));
        }
    }
    text
}

fn past_phrase(n: &Namer, e: &Event, key: u64) -> String {
    let name = |i: &Option<Id>| i.as_ref().map(|i| n.name(i)).unwrap_or_default();
    let say = |ways: &[&str], slots: &[(&str, String)]| fill(pick(ways, key), slots);
    match &e.action {
        Action::Use { object } => {
            // Seen to empty it: the last of it.
            let last = e
                .changes
                .iter()
                .any(|c| &c.entity == object && c.attr.as_str() == LEVEL && c.new == Value::Int(0));
            let ways: &[&str] = if last {
                &["used the last of {o}", "finished {o}"]
            } else {
                &["used some of {o}", "took some of {o}"]
            };
            say(ways, &[("o", n.name(object))])
        }
        Action::Write { object, .. } => {
            let o = n.name(object);
            // What the writing changed, as seen: the items added or
            // crossed off (the list is written whole, comma-separated).
            let items = |v: &Value| -> Vec<String> {
                match v {
                    Value::Text(t) => listed(t).map(String::from).collect(),
                    _ => vec![],
                }
            };
            let seen = e
                .changes
                .iter()
                .find(|c| &c.entity == object && c.attr.as_str() == TEXT);
            let (added, crossed) = seen.map_or((vec![], vec![]), |c| {
                let (old, new) = (items(&c.old), items(&c.new));
                let minus = |a: &[String], b: &[String]| -> Vec<String> {
                    a.iter().filter(|x| !b.contains(x)).cloned().collect()
                };
                (minus(&new, &old), minus(&old, &new))
            });
            let slots = [("o", o), ("i", and_list(&added)), ("x", and_list(&crossed))];
            match (added.is_empty(), crossed.is_empty()) {
                (false, _) => say(
                    &["added {i} to {o}", "wrote {i} on {o}", "put {i} on {o}"],
                    &slots,
                ),
                (true, false) => say(&["crossed {x} off {o}", "struck {x} off {o}"], &slots),
                (true, true) => say(&["wrote on {o}"], &slots),
            }
        }
        Action::NavigateTo { target } => say(
            &[
                "went to {t}",
                "walked over to {t}",
                "headed to {t}",
                "made for {t}",
            ],
            &[("t", n.name(target))],
        ),
        Action::Inspect { target } if n.is_room(target) => say(
            &["looked around {t}", "had a look round {t}"],
            &[("t", n.name(target))],
        ),
        Action::Inspect { target } => say(
            &[
                "looked closely at {t}",
                "inspected {t}",
                "took a close look at {t}",
                "examined {t}",
            ],
            &[("t", n.name(target))],
        ),
        Action::Wait {
            seconds,
            standby: true,
        } => say(
            &[
                "went into standby for {m}",
                "switched its sensors off for {m}",
            ],
            &[("m", minutes(*seconds))],
        ),
        Action::Wait { seconds, .. } => say(
            &["waited {m}", "waited for {m}", "paused for {m}"],
            &[("m", minutes(*seconds))],
        ),
        a => {
            let Some(act) = act_of(a) else {
                return a.skill_name().into();
            };
            let (o, t) = (name(&act.object), name(&act.target));
            let f = act
                .field
                .as_ref()
                .map_or(String::new(), |f| f.replace('_', " "));
            let slots = [("o", o), ("t", t), ("f", f)];
            match (act.skill.as_ref(), &act.value) {
                ("open", _) => say(
                    &[
                        "opened {t}",
                        "pulled {t} open",
                        "opened up {t}",
                        "got {t} open",
                    ],
                    &slots,
                ),
                ("close", _) => say(
                    &["closed {t}", "shut {t}", "pushed {t} shut", "closed up {t}"],
                    &slots,
                ),
                ("pick", _) => say(
                    &["picked up {o}", "took {o}", "grabbed {o}", "lifted {o}"],
                    &slots,
                ),
                ("place", Some(Value::Location(l))) => fill(
                    pick(
                        &[
                            "put {o} {l}",
                            "placed {o} {l}",
                            "set {o} down {l}",
                            "left {o} {l}",
                        ],
                        key,
                    ),
                    &[("o", slots[0].1.clone()), ("l", n.location(l))],
                ),
                ("handoff", _) => say(
                    &["handed {o} to {t}", "gave {o} to {t}", "passed {o} to {t}"],
                    &slots,
                ),
                ("leave", Some(Value::Text(to))) if to == "home" => say(
                    &["went home", "left for home", "said goodbye and left"],
                    &slots,
                ),
                ("leave", Some(Value::Text(to))) => fill(
                    pick(
                        &[
                            "went out {w} by {t}",
                            "left {w} through {t}",
                            "headed out {w}",
                        ],
                        key,
                    ),
                    &[("w", outing(to).into()), ("t", slots[1].1.clone())],
                ),
                ("arrive", _) => say(
                    &["came in through {t}", "came in by {t}", "let themselves in"],
                    &slots,
                ),
                ("set_device_state", Some(Value::Bool(on)))
                    if act.field.as_deref() == Some("power") =>
                {
                    let ways: &[&str] = if *on {
                        &["switched {t} on", "turned {t} on", "powered {t} on"]
                    } else {
                        &["switched {t} off", "turned {t} off", "powered {t} off"]
                    };
                    say(ways, &slots)
                }
                ("set_device_state", Some(v)) => fill(
                    pick(
                        &[
                            "set the {f} of {t} to {v}",
                            "changed the {f} of {t} to {v}",
                            "adjusted the {f} on {t} to {v}",
                            "turned the {f} of {t} to {v}",
                        ],
                        key,
                    ),
                    &[
                        ("f", slots[2].1.clone()),
                        ("t", slots[1].1.clone()),
                        ("v", n.value(act.field.as_deref().unwrap_or(""), v)),
                    ],
                ),
                _ => verb_phrase(n, &act, Tense::Past),
            }
        }
    }
}

/// "1 minute", "17 minutes": a wait, to the minute begun.
fn minutes(seconds: u64) -> String {
    match seconds.div_ceil(60) {
        1 => "1 minute".into(),
        m => format!("{m} minutes"),
    }
}

fn base_phrase(n: &Namer, a: &Action) -> String {
    match a {
        Action::NavigateTo { target } => format!("go to {}", n.name(target)),
        Action::Inspect { target } if n.is_room(target) => {
            format!("look around {}", n.name(target))
        }
        Action::Inspect { target } => format!("look closely at {}", n.name(target)),
        Action::Wait {
            seconds,
            standby: true,
        } => format!("go into standby for {seconds} seconds"),
        Action::Wait { seconds, .. } => format!("wait {seconds} seconds"),
        Action::Use { object } => format!("use some of {}", n.name(object)),
        Action::Write { object, .. } => format!("write on {}", n.name(object)),
        a => act_of(a).map_or_else(
            || a.skill_name().into(),
            |act| verb_phrase(n, &act, Tense::Base),
        ),
    }
}
