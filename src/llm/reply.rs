//! Typed replies: every stage's reply is a serde struct here, and its JSON
//! Schema is derived from that struct (`schemars`), then narrowed to the
//! scene (its ids and device options as `enum`s, the days as bounds, the
//! number of items wanted). The client checks and repairs a reply against
//! that schema; the backend then reads it by deserializing into the same
//! struct, so the schema the model sees and the reading cannot drift.

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// The longest sentence a reply field takes: enough for what it says,
/// not for a small model's run-on text.
pub const TEXT: u32 = 120;

/// `projects`: the long-running threads of the household.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct ProjectsReply {
    pub projects: Vec<ProjectItem>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct ProjectItem {
    /// A short id, such as p1.
    #[schemars(regex(pattern = r"^[a-z][a-z0-9_]{0,23}$"))]
    pub id: String,
    pub kind: String,
    #[schemars(length(max = 60))]
    pub title: String,
    /// People and the robot taking part (at least one).
    #[schemars(length(min = 1))]
    pub participants: Vec<String>,
    /// Objects, furniture and devices the project is about.
    #[schemars(length(max = 6))]
    pub entities: Vec<String>,
    #[schemars(length(min = 1, max = 4))]
    pub memory_targets: Vec<String>,
    #[schemars(range(min = 1))]
    pub start_day: i64,
    #[schemars(range(min = 1))]
    pub end_day: i64,
    #[schemars(length(max = 3), inner(length(max = TEXT)))]
    pub constraints: Vec<String>,
}

/// `day_beats`: how each active project moves on one day.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct BeatsReply {
    pub beats: Vec<BeatItem>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct BeatItem {
    pub project: String,
    pub beat: String,
    #[schemars(length(max = TEXT))]
    pub summary: String,
}

/// `sessions`: the episodes of one day.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SessionsReply {
    pub sessions: Vec<SessionItem>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SessionItem {
    /// HH:MM, 24-hour, before 23:00.
    #[schemars(regex(pattern = r"^([01][0-9]|2[0-2]):[0-5][0-9]$"))]
    pub start: String,
    #[schemars(regex(pattern = r"^[a-z][a-z0-9_]{0,23}$"))]
    pub kind: String,
    pub project: Option<String>,
    #[schemars(length(max = TEXT))]
    pub intent: String,
    /// People and the robot taking part (at least one).
    #[schemars(length(min = 1))]
    pub participants: Vec<String>,
}

/// `director`: a session staged as turns.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct DirectorReply {
    /// What happens in the session this time, in one sentence.
    #[schemars(length(max = TEXT))]
    pub intent: String,
    pub turns: Vec<TurnItem>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct TurnItem {
    pub actor: String,
    #[schemars(length(max = TEXT))]
    pub intention: String,
}

/// `actor`: the next steps of one turn, and what comes after them.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct ActorReply {
    pub steps: Vec<Step>,
    pub then: String,
    #[schemars(length(max = TEXT))]
    pub reason: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Step {
    pub skill: String,
    pub target: Option<String>,
    pub object: Option<String>,
    pub relation: Option<String>,
    pub device: Option<String>,
    pub field: Option<String>,
    /// An option of the field, a number or a boolean.
    pub value: Option<Value>,
    pub to: Option<Vec<String>>,
    #[schemars(length(max = TEXT))]
    pub text: Option<String>,
    /// A wait of at most an hour.
    #[schemars(range(min = 1, max = 3600))]
    pub seconds: Option<i64>,
}

/// `words`: what someone says, in the model's words, where the calendar
/// has them say something that carries no fact.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct WordsReply {
    #[schemars(length(max = TEXT))]
    pub text: String,
}

/// `notes`: what is carried over to the next day.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct NotesReply {
    #[schemars(length(max = 5), inner(length(max = TEXT)))]
    pub preferences: Vec<String>,
    #[schemars(length(max = 5), inner(length(max = TEXT)))]
    pub open_plans: Vec<String>,
    #[schemars(length(max = 400))]
    pub summary: String,
}

/// `rephrase`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct RephraseReply {
    #[schemars(length(max = 300))]
    pub question: String,
}

/// `answer`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct AnswerReply {
    #[schemars(length(max = 300))]
    pub answer: String,
}

/// `judge`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct JudgeReply {
    #[schemars(range(min = 0, max = 3))]
    pub score: i64,
    #[schemars(length(max = 200))]
    pub reason: String,
}

/// The schema of `T` in the subset the client checks: inline (no `$ref`),
/// every field required and no others (what strict structured output
/// asks), without titles, formats or defaults.
pub fn schema_of<T: JsonSchema>() -> Value {
    let settings = SchemaSettings::draft07().with(|s| {
        s.inline_subschemas = true;
        s.meta_schema = None;
    });
    let mut v = settings
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value();
    tidy(&mut v);
    v
}

fn tidy(v: &mut Value) {
    match v {
        Value::Object(o) => {
            for k in ["title", "format", "default", "$schema"] {
                o.remove(k);
            }
            if let Some(props) = o.get_mut("properties").and_then(Value::as_object_mut) {
                // Property names are not keywords: a field may be `title`.
                props.values_mut().for_each(tidy);
                let all: Vec<Value> = props.keys().map(|k| json!(k)).collect();
                o.insert("required".into(), Value::Array(all));
                o.insert("additionalProperties".into(), Value::Bool(false));
            }
            o.iter_mut()
                .filter(|(k, _)| *k != "properties")
                .for_each(|(_, x)| tidy(x));
        }
        Value::Array(a) => a.iter_mut().for_each(tidy),
        _ => {}
    }
}

/// Applies `f` to the schema of every property named `name`, at any depth
/// (to its items when it is an array of strings).
pub fn narrow(schema: &mut Value, name: &str, f: &dyn Fn(&mut Value)) {
    match schema {
        Value::Object(o) => {
            if let Some(p) = o
                .get_mut("properties")
                .and_then(|p| p.as_object_mut())
                .and_then(|p| p.get_mut(name))
            {
                let is_array = p["type"] == "array"
                    || p["type"]
                        .as_array()
                        .is_some_and(|t| t.contains(&json!("array")));
                if is_array {
                    f(&mut p["items"]);
                } else {
                    f(p);
                }
            }
            o.values_mut().for_each(|x| narrow(x, name, f));
        }
        Value::Array(a) => a.iter_mut().for_each(|x| narrow(x, name, f)),
        _ => {}
    }
}

/// Restricts the property `name` to `options` (and null, if it may be null).
pub fn one_of(schema: &mut Value, name: &str, options: &[String]) {
    narrow(schema, name, &|p| {
        let mut opts: Vec<Value> = options.iter().map(|o| json!(o)).collect();
        if p["type"]
            .as_array()
            .is_some_and(|t| t.contains(&json!("null")))
        {
            opts.push(Value::Null);
        }
        p["enum"] = Value::Array(opts);
    });
}

/// Sets `key` (`maximum`, `minItems`, `maxItems`) of the property `name`
/// itself (not its items).
pub fn bound(schema: &mut Value, name: &str, key: &str, n: u64) {
    keyword(schema, name, key, &json!(n));
}

/// Sets `key` to `value` in the schema of every property named `name`
/// (itself, not its items), at any depth.
pub fn keyword(schema: &mut Value, name: &str, key: &str, value: &Value) {
    if let Value::Object(o) = schema {
        if let Some(p) = o
            .get_mut("properties")
            .and_then(|p| p.as_object_mut())
            .and_then(|p| p.get_mut(name))
        {
            p[key] = value.clone();
        }
        o.values_mut().for_each(|x| keyword(x, name, key, value));
    } else if let Value::Array(a) = schema {
        a.iter_mut().for_each(|x| keyword(x, name, key, value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::schema::validate;

    #[test]
    fn schemas_come_from_the_types_and_narrow_to_the_scene() {
        let mut s = schema_of::<SessionsReply>();
        assert_eq!(s["required"], json!(["sessions"]));
        let item = &s["properties"]["sessions"]["items"];
        assert_eq!(item["additionalProperties"], json!(false));
        assert_eq!(
            item["required"],
            json!(["intent", "kind", "participants", "project", "start"])
        );
        assert_eq!(
            item["properties"]["project"]["type"],
            json!(["string", "null"])
        );
        one_of(&mut s, "participants", &["alice".into(), "robot".into()]);
        one_of(&mut s, "project", &["p1".into()]);
        bound(&mut s, "sessions", "maxItems", 2);
        let ok = json!({"sessions": [{"start": "08:00", "kind": "k", "project": null,
            "intent": "i", "participants": ["alice"]}]});
        assert!(validate(&s, &ok).is_empty(), "{:?}", validate(&s, &ok));
        let bad = json!({"sessions": [{"start": "08:00", "kind": "k", "project": "p2",
            "intent": "i", "participants": ["bob"]}]});
        assert_eq!(validate(&s, &bad).len(), 2, "{:?}", validate(&s, &bad));
        // Whatever validates reads into the type.
        let read: SessionsReply = serde_json::from_value(ok).unwrap();
        assert_eq!(read.sessions[0].participants, ["alice"]);

        let p = schema_of::<ProjectsReply>();
        let item = &p["properties"]["projects"]["items"]["properties"];
        assert_eq!(item["title"], json!({"type": "string", "maxLength": 60}));
        let start = &s["properties"]["sessions"]["items"]["properties"]["start"];
        assert_eq!(
            start["pattern"],
            json!(crate::llm::schema::Pattern::Clock.regex())
        );
        let a = schema_of::<ActorReply>();
        let step = &a["properties"]["steps"]["items"]["properties"];
        assert_eq!(step["seconds"]["minimum"], json!(1));
        assert_eq!(step["seconds"]["type"], json!(["integer", "null"]));
        assert_eq!(step["to"]["type"], json!(["array", "null"]));
        let j = schema_of::<JudgeReply>();
        assert_eq!(
            (
                &j["properties"]["score"]["minimum"],
                &j["properties"]["score"]["maximum"]
            ),
            (&json!(0), &json!(3))
        );
    }
}
