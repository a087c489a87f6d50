//! Events as the robot perceived them, in words: the text memory agents
//! and exported benchmarks read ("Alice opened the fridge. The robot saw:
//! the oat milk is in the fridge.").

use crate::ids::Id;
use crate::trace::request::Action;
use crate::trace::{Event, Value};

use super::answer::act_of;
use super::mine::{Tense, verb_phrase};
use super::text::{Namer, capital};

/// An utterance's words, or an action narrated, then what it revealed to
/// `observer`.
pub fn narrate(n: &Namer, e: &Event, observer: &Id) -> String {
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
        (a, None) => format!("{} {}.", capital(&who), past_phrase(n, a)),
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
            text.push_str(&format!(
                " {} saw: {}.",
                capital(&n.name(observer)),
                facts.join("; ")
            ));
        }
    }
    text
}

fn past_phrase(n: &Namer, a: &Action) -> String {
    match a {
        Action::NavigateTo { target } => format!("went to {}", n.name(target)),
        Action::Inspect { target } => format!("looked closely at {}", n.name(target)),
        Action::Wait { seconds } => format!("waited {} minutes", seconds.div_ceil(60)),
        a => act_of(a).map_or_else(
            || a.skill_name().into(),
            |act| verb_phrase(n, &act, Tense::Past),
        ),
    }
}

fn base_phrase(n: &Namer, a: &Action) -> String {
    match a {
        Action::NavigateTo { target } => format!("go to {}", n.name(target)),
        Action::Inspect { target } => format!("look closely at {}", n.name(target)),
        Action::Wait { seconds } => format!("wait {seconds} seconds"),
        a => act_of(a).map_or_else(
            || a.skill_name().into(),
            |act| verb_phrase(n, &act, Tense::Base),
        ),
    }
}
