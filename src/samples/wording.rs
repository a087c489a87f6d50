//! Acts, requests and answers in words: verb phrases in three tenses, a
//! request's task, and an answer's short text with its hedge.

use crate::ids::Id;
use crate::trace::{Location, Value};

use super::model::{Act, Answer, Progress, Source, UNKNOWN_TEXT};
use super::text::{Namer, capital, field_words};

/// The form of a verb phrase.
#[derive(Clone, Copy, PartialEq)]
pub enum Tense {
    /// "open the fridge"
    Base,
    /// "opened the fridge"
    Past,
    /// "opens the fridge"
    Third,
}

/// "Alice opened the fridge", "Bob set the volume of the tv to 25".
pub fn act_phrase(n: &Namer, actor: &Id, act: &Act) -> String {
    format!("{} {}", n.name(actor), verb_phrase(n, act, Tense::Past))
}

/// An [`Act`] in words.
pub fn verb_phrase(n: &Namer, act: &Act, tense: Tense) -> String {
    let name = |i: &Option<Id>| i.as_ref().map(|i| n.name(i)).unwrap_or_default();
    let (o, t) = (name(&act.object), name(&act.target));
    let v = |base: &str, past: &str, third: &str| match tense {
        Tense::Base => base.to_string(),
        Tense::Past => past.to_string(),
        Tense::Third => third.to_string(),
    };
    match (act.skill.as_ref(), &act.value) {
        ("open", _) => format!("{} {t}", v("open", "opened", "opens")),
        ("close", _) => format!("{} {t}", v("close", "closed", "closes")),
        ("pick", _) => format!("{} {o}", v("pick up", "picked up", "picks up")),
        ("place", Some(Value::Location(l))) => {
            format!("{} {o} {}", v("put", "put", "puts"), n.location(l))
        }
        ("handoff", _) => format!("{} {o} to {t}", v("hand", "handed", "hands")),
        ("leave", Some(Value::Text(to))) if to == "home" => v("go home", "went home", "goes home"),
        ("leave", Some(Value::Text(to))) => {
            format!("{} {}", v("go out", "went out", "goes out"), outing(to))
        }
        // Neutral between the household coming home and a visitor coming in.
        ("arrive", _) => v("come in", "came in", "comes in"),
        ("find_broken", _) => format!("{} {t} broken", v("find", "found", "finds")),
        ("repair", _) => format!("{} {t}", v("repair", "repaired", "repairs")),
        ("set_device_state", value) => {
            let field = act.field.as_ref().map(|f| f.as_str()).unwrap_or("");
            match (field, value) {
                ("power", Some(Value::Bool(on))) => format!(
                    "{} {t} {}",
                    v("switch", "switched", "switches"),
                    if *on { "on" } else { "off" }
                ),
                (f, Some(val)) => set_phrase(n, &v("set", "set", "sets"), &t, f, val),
                (f, None) => format!(
                    "{} the {} of {t}",
                    v("change", "changed", "changes"),
                    f.replace('_', " ")
                ),
            }
        }
        (s, _) => format!("{} {o}{t}", s.replace('_', " ")),
    }
}

/// Where someone went, after "went out": "to work", "shopping".
pub fn outing(to: &str) -> &'static str {
    match to {
        "work" => "to work",
        "school" => "to school",
        "shopping" => "shopping",
        "errand" => "on errands",
        "exercise" => "to exercise",
        "social" => "to see friends",
        "appointment" => "to an appointment",
        "trip" => "on a trip",
        "home" => "home",
        _ => "",
    }
}

/// "a, b and c".
pub fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// "put the white shirt in the wardrobe", "switch the washing machine off":
/// a request's task. A place its words did not say is not said back
/// (`said` false): "put the clothes away" asked "put the white shirt away".
pub fn request_phrase(n: &Namer, entity: &Id, attr: &Id, value: &Value, said: bool) -> String {
    match (attr.as_str(), value) {
        ("location", Value::Location(Location::HeldBy(_))) if !said => {
            format!("bring {} over", n.name(entity))
        }
        ("location", _) if !said => format!("put {} away", n.name(entity)),
        ("location", Value::Location(Location::HeldBy(a))) => {
            format!("bring {} to {}", n.name(entity), n.name(a))
        }
        ("location", v) => format!("put {} {}", n.name(entity), n.value("location", v)),
        ("power", Value::Bool(on)) => {
            format!(
                "switch {} {}",
                n.name(entity),
                if *on { "on" } else { "off" }
            )
        }
        (f, v) => set_phrase(n, "set", &n.name(entity), f, v),
    }
}

/// "set the coffee machine to cappuccino": a choice of setting names
/// itself, where "set the drink of the coffee machine to cappuccino" is
/// how nobody talks; "set the volume of the TV to 25".
fn set_phrase(n: &Namer, verb: &str, device: &str, field: &str, v: &Value) -> String {
    let words = n.value(field, v);
    match v {
        Value::Text(_) => format!("{verb} {device} to {words}"),
        _ => format!("{verb} the {} of {device} to {words}", field_words(field)),
    }
}

/// Whether the words of a request, `text` said by `speaker`, name the
/// value it asks for: "put my laptop on the desk in my room" names the
/// desk, "put the clothes away" no place, "switch the machine off" the
/// off. A gold answer of what was asked says only what was said.
pub fn says_value(n: &Namer, text: &str, speaker: &Id, attr: &str, value: &Value) -> bool {
    let text = text.to_lowercase();
    let has = |w: &str| text.split(|c: char| !c.is_alphanumeric()).any(|t| t == w);
    match (attr, value) {
        (_, Value::Location(Location::On(r) | Location::In(r))) => n
            .kind_of(r)
            .and_then(|k| k.rsplit(' ').next())
            .is_some_and(|w| has(&w.to_lowercase())),
        (_, Value::Location(Location::HeldBy(a) | Location::CarriedBy(a))) => {
            (a == speaker && has("me")) || text.contains(&n.name(a).to_lowercase())
        }
        (_, Value::Location(Location::Outside)) => has("out") || has("outside"),
        ("open", Value::Bool(true)) => has("open"),
        ("open", Value::Bool(false)) => has("close") || has("shut"),
        (_, Value::Bool(on)) => has(if *on { "on" } else { "off" }),
        (_, v) => text.contains(&n.value(attr, v).to_lowercase()),
    }
}

/// An answer in words, its values named as attribute `attr`'s (each
/// family's [`super::families::QuestionFamily::answer_text`] says which).
pub fn answer_words(n: &Namer, attr: &str, a: &Answer, options: &[String]) -> String {
    match a {
        Answer::Value { value } => capital(&n.value(attr, value)) + ".",
        // Stale or not, the value in the same words: when it was seen is
        // the hedge's, not the answer's.
        Answer::LastSeen { value, .. } => capital(&n.value(attr, value)) + ".",
        Answer::Time { t, .. } => capital(&n.when(*t)) + ".",
        Answer::Actor { actor, .. } => format!("{}.", capital(&n.name(actor))),
        Answer::Action {
            skill,
            target,
            setting,
        } => {
            let t = target.as_ref().map(|t| n.name(t)).unwrap_or_default();
            match (skill.as_str(), setting.as_deref()) {
                (_, Some((f, Value::Bool(on)))) if f.as_str() == "power" => {
                    format!("Switched {t} {}.", if *on { "on" } else { "off" })
                }
                (_, Some((f, v))) => capital(&set_phrase(n, "set", &t, f, v)) + ".",
                ("navigate_to", _) => format!("Went to {t}."),
                ("inspect", _) => format!("Looked at {t}."),
                ("pick", _) => format!("Picked up {t}."),
                ("place", _) => format!("Put {t} down."),
                ("open", _) => format!("Opened {t}."),
                ("close", _) => format!("Closed {t}."),
                ("handoff", _) => format!("Handed {t} over."),
                ("leave", _) => "Went out.".into(),
                ("arrive", _) => "Came in.".into(),
                ("find_broken", _) => format!("Found {t} broken."),
                ("repair", _) => format!("Repaired {t}."),
                ("use", _) => format!("Used some of {t}."),
                ("write", _) => format!("Wrote on {t}."),
                (s, _) => capital(&format!("{} {t}.", s.replace('_', " "))),
            }
        }
        Answer::Choice { option } => {
            let i = usize::from(option == "B");
            format!("({option}) {}.", options.get(i).map_or("", String::as_str))
        }
        Answer::Source { source } => match source {
            Source::Seen => "The robot has seen it so itself since.".into(),
            Source::Contradicted => {
                "The robot has since seen otherwise: the report is wrong or out of date.".into()
            }
            Source::Told => "The robot was only told; it has not seen it since.".into(),
        },
        // As people say how often: "Once.", "Twice.", "3 times.".
        Answer::Count { count: 1 } => "Once.".into(),
        Answer::Count { count: 2 } => "Twice.".into(),
        Answer::Count { count } => format!("{count} times."),
        Answer::Status { status } => match status {
            Progress::Done => "Done.".into(),
            Progress::Pending => "Still to do; it is not due yet.".into(),
            Progress::Overdue => "Overdue: it was due and has not been seen done.".into(),
        },
        Answer::People { people } if people.is_empty() => "Nobody.".into(),
        Answer::People { people } => {
            let names: Vec<String> = people.iter().map(|p| n.name(p)).collect();
            capital(&and_list(&names)) + "."
        }
        Answer::Days { days } => {
            let names: Vec<String> = days.iter().map(|d| format!("{}s", d.name())).collect();
            and_list(&names) + "."
        }
        Answer::Unknown => UNKNOWN_TEXT.into(),
    }
}

/// What qualifies an answer, apart from its words: when a stale state
/// was last seen.
pub fn hedge(n: &Namer, a: &Answer) -> Option<String> {
    match a {
        Answer::LastSeen { seen_at, .. } => Some(format!(
            "Last seen {}; it may have changed since.",
            n.when(*seen_at)
        )),
        _ => None,
    }
}

/// Why a household question the robot missed is not known.
pub const MISSED: &str = "The robot did not see or hear anything that settles it.";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene;

    #[test]
    fn a_request_says_its_value_only_in_words_that_name_it() {
        let s = scene::parse("family_apartment", scene::default_source()).unwrap();
        let n = Namer::new(&s);
        let (bob, lily) = (Id::new("bob"), Id::new("lily"));
        let on = |f: &str| Value::Location(Location::On(Id::new(f)));
        let says = |text: &str, attr: &str, v: &Value| says_value(&n, text, &bob, attr, v);
        let desk = on("desk_lily");
        assert!(says(
            "Please put my book on the desk by 10:30.",
            "location",
            &desk
        ));
        assert!(!says("Please put the clothes away.", "location", &desk));
        // A word, not a part of one: "desktop" names no desk.
        assert!(!says("Leave it by the desktop.", "location", &desk));
        let wardrobe = Value::Location(Location::In(Id::new("wardrobe_lily")));
        assert!(says(
            "Hang it in the WARDROBE, please.",
            "location",
            &wardrobe
        ));
        assert!(!says("Put it in her room.", "location", &wardrobe));
        let to = |a: &Id| Value::Location(Location::HeldBy(a.clone()));
        assert!(says("Bring me my glasses.", "location", &to(&bob)));
        assert!(says("Bring the glasses to Lily.", "location", &to(&lily)));
        assert!(!says("Bring the glasses over.", "location", &to(&lily)));
        assert!(says(
            "Switch the machine off.",
            "power",
            &Value::Bool(false)
        ));
        assert!(!says(
            "Switch the machine off.",
            "power",
            &Value::Bool(true)
        ));
        assert!(says("Close the fridge.", "open", &Value::Bool(false)));
        assert!(!says("Close the fridge.", "open", &Value::Bool(true)));
        let eco = Value::Text("eco".into());
        assert!(says("After dinner set it to eco, please.", "program", &eco));
        assert!(!says("After dinner run it, please.", "program", &eco));
        // Said back: as asked, where the place was not said.
        let (book, dw) = (Id::new("book_1"), Id::new("dishwasher_1"));
        let location = Id::new("location");
        let task = |v: &Value, said| request_phrase(&n, &book, &location, v, said);
        let put = task(&desk, true);
        assert!(
            put.starts_with("put the hardback novel") && put.contains(" desk"),
            "{put}"
        );
        assert!(
            task(&desk, false).ends_with(" away"),
            "{}",
            task(&desk, false)
        );
        assert!(task(&to(&lily), false).ends_with(" over"));
        let program = request_phrase(&n, &dw, &Id::new("program"), &eco, true);
        assert_eq!(program, "set the dishwasher to eco");
    }
}
