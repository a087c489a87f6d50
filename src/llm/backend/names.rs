//! The scene's real names, and the reply schema of each generation stage
//! narrowed to them: its ids as `enum`s, the days as bounds, the items
//! wanted.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use crate::generation::{MemoryTarget, ProjectType};
use crate::ids::Id;
use crate::llm::reply::{self, bound, keyword, one_of, schema_of};
use crate::scene::{FieldDef, Scene};
use crate::trace::request::SKILLS;

fn wire_names<T: serde::Serialize>(xs: &[T]) -> Vec<String> {
    xs.iter()
        .map(|k| {
            serde_json::to_value(k)
                .expect("enum")
                .as_str()
                .expect("a name")
                .to_string()
        })
        .collect()
}

fn strings(xs: &[&str]) -> Vec<String> {
    xs.iter().map(|x| x.to_string()).collect()
}

const BEATS: [&str; 5] = [
    "established",
    "continued",
    "interrupted",
    "recovered",
    "completed",
];

/// The fields of a step each skill reads (the executor's arguments): the
/// actor schema has a form per skill with these required. Every skill but
/// [`SCRIPTED_SKILLS`].
pub const SKILL_FIELDS: &[(&str, &[&str])] = &[
    ("navigate_to", &["target"]),
    ("inspect", &["target"]),
    ("pick", &["object"]),
    ("place", &["object", "target", "relation"]),
    ("open", &["target"]),
    ("close", &["target"]),
    ("set_device_state", &["device", "field", "value"]),
    ("handoff", &["object", "to"]),
    ("say", &["text", "to"]),
    ("wait", &["seconds"]),
];

/// Skills a model is not offered: leaving and coming back, breakdowns and
/// repairs follow the household's calendar, and food used up (and the
/// shopping list) its pantry, which the script keeps.
pub const SCRIPTED_SKILLS: &[&str] = &["leave", "arrive", "find_broken", "repair", "use", "write"];

/// A step's schema as one form per skill: the fields the skill reads
/// required (not null), the others null. What a skill needs is then the
/// schema's to state, so a constrained decoder cannot leave it out.
/// `set_device_state` has a form per device field (`settings`): the device,
/// one of its own fields, and a value that field takes, so a model cannot
/// set a TV's `mode` or a kettle's `volume`.
fn per_skill(step: &mut Value, settings: &[(String, String, Value)]) {
    let forms = SKILL_FIELDS
        .iter()
        .flat_map(|(skill, takes)| {
            let mut form = step.clone();
            let props = form["properties"]
                .as_object_mut()
                .expect("a step has fields");
            for (name, p) in props.iter_mut() {
                if name == "skill" {
                    p["enum"] = json!([skill]);
                } else if !takes.contains(&name.as_str()) {
                    *p = json!({"type": "null"});
                } else if name == "to" && *skill == "handoff" {
                    p["type"] = json!("array");
                    p["minItems"] = json!(1);
                    p["maxItems"] = json!(1);
                } else {
                    not_null(p);
                }
            }
            if *skill != "set_device_state" || settings.is_empty() {
                return vec![form];
            }
            settings
                .iter()
                .map(|(device, field, value)| {
                    let mut f = form.clone();
                    f["properties"]["device"]["enum"] = json!([device]);
                    f["properties"]["field"]["enum"] = json!([field]);
                    f["properties"]["value"] = value.clone();
                    f
                })
                .collect()
        })
        .collect();
    *step = json!({ "anyOf": Value::Array(forms) });
}

/// An actor schema without the device settings that would change nothing:
/// each field's value as `now` gives it (`None`: unknown) is taken out of
/// its form, and a form left with no value goes. A constrained decoder
/// then cannot spend a call on switching off a lamp that is off.
pub fn without_no_ops(schema: &mut Value, now: impl Fn(&str, &str) -> Option<Value>) {
    let Some(forms) = schema["properties"]["steps"]["items"]["anyOf"].as_array_mut() else {
        return;
    };
    forms.retain_mut(|f| {
        let p = &mut f["properties"];
        if p["skill"]["enum"] != json!(["set_device_state"]) {
            return true;
        }
        let (Some(d), Some(k)) = (
            p["device"]["enum"][0].as_str(),
            p["field"]["enum"][0].as_str(),
        ) else {
            return true;
        };
        let Some(current) = now(d, k) else {
            return true;
        };
        let v = &mut p["value"];
        if v["type"] == "boolean" && v.get("enum").is_none() {
            v["enum"] = json!([true, false]);
        }
        match v.get_mut("enum").and_then(Value::as_array_mut) {
            Some(options) => {
                options.retain(|o| {
                    o != &current && o.as_f64().zip(current.as_f64()).is_none_or(|(a, b)| a != b)
                });
                !options.is_empty()
            }
            None => true,
        }
    });
}

/// An actor schema narrowed to the things a turn is about (`about`, ids):
/// each form's target, object and device are among them, and a form left
/// with none goes; saying and waiting stay. Nothing about: as it is.
pub fn narrow_to(schema: &mut Value, about: &[String]) {
    if about.is_empty() {
        return;
    }
    let Some(forms) = schema["properties"]["steps"]["items"]["anyOf"].as_array_mut() else {
        return;
    };
    forms.retain_mut(|f| {
        for field in ["target", "object", "device"] {
            // `get_mut`, not indexing: indexing a missing key would add it.
            let Some(options) = f
                .get_mut("properties")
                .and_then(|p| p.get_mut(field))
                .and_then(|p| p.get_mut("enum"))
                .and_then(Value::as_array_mut)
            else {
                continue;
            };
            options.retain(|o| o.as_str().is_some_and(|o| about.iter().any(|a| a == o)));
            if options.is_empty() {
                return false;
            }
        }
        true
    });
}

/// The values a device field takes, as a schema: its options, `true` or
/// `false`, or its range (and the values themselves when there are few:
/// llama.cpp's grammar honours an enum but not `minimum`/`maximum`).
fn field_values(f: &FieldDef) -> Value {
    let range = |lo: f64, hi: f64| json!({"type": "number", "minimum": lo, "maximum": hi});
    match f {
        FieldDef::Bool(_) => json!({"type": "boolean"}),
        FieldDef::Enum { options, .. } => json!({"type": "string", "enum": options}),
        FieldDef::Int { min, max, .. } => {
            let mut r = json!({"type": "integer", "minimum": min, "maximum": max});
            if max - min <= 20 {
                r["enum"] = json!((*min..=*max).collect::<Vec<_>>());
            }
            r
        }
        FieldDef::Float { min, max, .. } => range(*min, *max),
        FieldDef::Timer { max, .. } => json!({"type": "integer", "minimum": 0, "maximum": max}),
    }
}

/// `p` without its null: a type list loses `null`, an enum its null
/// option, `anyOf` its null form.
fn not_null(p: &mut Value) {
    if let Some(t) = p.get_mut("type")
        && let Some(a) = t.as_array()
    {
        let rest: Vec<Value> = a.iter().filter(|x| *x != "null").cloned().collect();
        *t = if rest.len() == 1 {
            rest[0].clone()
        } else {
            Value::Array(rest)
        };
    }
    if let Some(e) = p.get_mut("enum").and_then(Value::as_array_mut) {
        e.retain(|x| !x.is_null());
    }
    if let Some(f) = p.get_mut("anyOf").and_then(Value::as_array_mut) {
        f.retain(|x| x.get("type") != Some(&json!("null")));
    }
}

/// The scene's real names, for the stage schemas and the checks.
pub struct Names {
    actors: Vec<String>,
    /// Everything a step may target: rooms, doors, furniture, devices,
    /// objects and actors.
    targets: Vec<String>,
    /// What a project may be about: the same without actors.
    pub(super) things: Vec<String>,
    objects: Vec<String>,
    devices: Vec<String>,
    /// Every device field name and every option of an enum field.
    fields: Vec<String>,
    options: Vec<String>,
    /// The lowest and highest value of any numeric device field.
    range: (f64, f64),
    /// Each device's fields with the values they take, in scene order.
    settings: Vec<(String, String, Value)>,
    known: BTreeSet<String>,
}

impl Names {
    pub fn new(s: &Scene) -> Self {
        let ids = |xs: Vec<&Id>| xs.into_iter().map(|i| i.to_string()).collect::<Vec<_>>();
        let actors = ids(s.actors.iter().map(|a| &a.id).collect());
        let things = ids(s
            .rooms
            .iter()
            .map(|r| &r.id)
            .chain(s.doors.iter().map(|d| &d.id))
            .chain(s.furniture.iter().map(|f| &f.id))
            .chain(s.devices.iter().map(|d| &d.id))
            .chain(s.objects.iter().map(|o| &o.id))
            .collect());
        let sorted = |xs: Vec<String>| {
            xs.into_iter()
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect::<Vec<_>>()
        };
        let fields = sorted(
            s.devices
                .iter()
                .flat_map(|d| d.fields.keys().map(|f| f.to_string()))
                .collect(),
        );
        let options = sorted(
            s.devices
                .iter()
                .flat_map(|d| d.fields.values())
                .filter_map(|f| match f {
                    FieldDef::Enum { options, .. } => Some(options.clone()),
                    _ => None,
                })
                .flatten()
                .collect(),
        );
        let targets: Vec<String> = things.iter().chain(&actors).cloned().collect();
        let range = s
            .devices
            .iter()
            .flat_map(|d| d.fields.values())
            .filter_map(|f| match f {
                FieldDef::Int { min, max, .. } => Some((*min as f64, *max as f64)),
                FieldDef::Float { min, max, .. } => Some((*min, *max)),
                FieldDef::Timer { max, .. } => Some((0.0, *max as f64)),
                _ => None,
            })
            .fold((0.0f64, 1.0f64), |(lo, hi), (a, b)| (lo.min(a), hi.max(b)));
        let settings = s
            .devices
            .iter()
            .flat_map(|d| {
                d.fields
                    .iter()
                    .map(|(f, def)| (d.id.to_string(), f.to_string(), field_values(def)))
            })
            .collect();
        Names {
            settings,
            known: targets.iter().cloned().collect(),
            objects: ids(s.objects.iter().map(|o| &o.id).collect()),
            devices: ids(s.devices.iter().map(|d| &d.id).collect()),
            actors,
            targets,
            things,
            fields,
            options,
            range,
        }
    }

    /// The reply schema of a generation stage: derived from its reply type,
    /// with the scene's names as `enum`s; `projects` are the ids a session
    /// or beat may name, `days` the trace's, `want` the items asked for.
    pub fn schema(&self, stage: &str, projects: &[String], days: u32, want: u64) -> Value {
        let mut s = match stage {
            "projects" => {
                let mut s = schema_of::<reply::ProjectsReply>();
                one_of(&mut s, "kind", &wire_names(&ProjectType::ALL));
                one_of(&mut s, "participants", &self.actors);
                one_of(&mut s, "entities", &self.things);
                one_of(&mut s, "memory_targets", &wire_names(&MemoryTarget::ALL));
                // Bounds, and the days themselves: llama.cpp's grammar
                // honours an enum but not `minimum`/`maximum`.
                let all: Vec<u64> = (1..=u64::from(days.max(1))).collect();
                for day in ["start_day", "end_day"] {
                    bound(&mut s, day, "maximum", days.into());
                    keyword(&mut s, day, "enum", &json!(all));
                }
                bound(&mut s, "participants", "maxItems", self.actors.len() as u64);
                bound(&mut s, "projects", "minItems", 1);
                bound(&mut s, "projects", "maxItems", want);
                s
            }
            "day_beats" => {
                let mut s = schema_of::<reply::BeatsReply>();
                one_of(&mut s, "project", projects);
                one_of(&mut s, "beat", &strings(&BEATS));
                bound(&mut s, "beats", "minItems", 1);
                bound(&mut s, "beats", "maxItems", want);
                s
            }
            "sessions" => {
                let mut s = schema_of::<reply::SessionsReply>();
                one_of(&mut s, "project", projects);
                one_of(&mut s, "participants", &self.actors);
                bound(&mut s, "participants", "maxItems", self.actors.len() as u64);
                bound(&mut s, "sessions", "minItems", 1);
                bound(&mut s, "sessions", "maxItems", want);
                s
            }
            "director" => {
                let mut s = schema_of::<reply::DirectorReply>();
                one_of(&mut s, "actor", &self.actors);
                bound(&mut s, "turns", "minItems", 1);
                bound(&mut s, "turns", "maxItems", want);
                s
            }
            "actor" => {
                let mut s = schema_of::<reply::ActorReply>();
                one_of(&mut s, "skill", &strings(SKILLS));
                one_of(&mut s, "target", &self.targets);
                one_of(&mut s, "object", &self.objects);
                one_of(&mut s, "relation", &strings(&["on", "in"]));
                one_of(&mut s, "device", &self.devices);
                one_of(&mut s, "field", &self.fields);
                one_of(&mut s, "to", &self.actors);
                one_of(&mut s, "then", &strings(&["continue", "done", "give_up"]));
                bound(&mut s, "to", "maxItems", self.actors.len() as u64);
                let options = self.options.clone();
                let (lo, hi) = self.range;
                reply::narrow(&mut s, "value", &|p| {
                    *p = json!({"anyOf": [{"type": "string", "enum": options}, {"type": "number", "minimum": lo, "maximum": hi}, {"type": "boolean"}, {"type": "null"}]});
                });
                bound(&mut s, "steps", "maxItems", want);
                per_skill(&mut s["properties"]["steps"]["items"], &self.settings);
                s
            }
            "notes" => schema_of::<reply::NotesReply>(),
            "words" => schema_of::<reply::WordsReply>(),
            other => panic!("no schema for stage {other}"),
        };
        if let Value::Object(o) = &mut s {
            o.remove("description");
        }
        s
    }

    /// Words of `text` that look like ids (`kitchen_table_9`: numbered, or
    /// starting like a real id, `nightstand_carol`) but name nothing in the
    /// home, each with the nearest real ones. Other snake_case words pass.
    pub fn invented(&self, text: &str) -> Vec<String> {
        let id_like = |w: &str| {
            let (head, tail) = w.split_once('_').unwrap_or((w, ""));
            w.rsplit('_')
                .next()
                .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()))
                || (!tail.is_empty()
                    && self
                        .known
                        .iter()
                        .any(|k| k.starts_with(&format!("{head}_"))))
        };
        text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| {
                w.contains('_') && Id::is_well_formed(w) && !self.known.contains(*w) && id_like(w)
            })
            .map(|w| {
                let near = crate::ids::nearest(w, &self.known_ids(), 3);
                let near: Vec<&str> = near.iter().map(Id::as_str).collect();
                format!("{w} (closest: {})", near.join(", "))
            })
            .collect()
    }

    /// Every id of the home and its people, as ids.
    pub fn ids(&self) -> Vec<Id> {
        self.targets.iter().map(|t| Id::new(t)).collect()
    }

    fn known_ids(&self) -> Vec<Id> {
        self.known.iter().map(|k| Id::new(k)).collect()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::Names;
    use crate::llm::backend::stages::{SESSIONS, STEPS, projects_wanted};

    #[test]
    fn stage_schemas_name_the_scene_and_the_items_wanted() {
        let s = crate::scene::parse("family_apartment", crate::scene::default_source()).unwrap();
        let names = Names::new(&s);
        let p = names.schema("projects", &[], 3, projects_wanted(3));
        let projects = &p["properties"]["projects"];
        assert_eq!(
            (&projects["minItems"], &projects["maxItems"]),
            (&json!(1), &json!(5))
        );
        let item = &projects["items"]["properties"];
        assert_eq!(item["start_day"]["minimum"], json!(1));
        assert_eq!(item["end_day"]["maximum"], json!(3));
        assert!(
            item["participants"]["items"]["enum"]
                .as_array()
                .unwrap()
                .contains(&json!("robot"))
        );
        assert!(
            item["kind"]["enum"]
                .as_array()
                .unwrap()
                .contains(&json!("meal_preparation"))
        );
        assert_eq!(projects_wanted(1), 3);
        assert_eq!(projects_wanted(30), 8);
        let a = names.schema("actor", &[], 3, STEPS);
        // A form per skill: what the skill reads required, the rest null.
        let forms = a["properties"]["steps"]["items"]["anyOf"]
            .as_array()
            .unwrap();
        let skill = |f: &Value| {
            f["properties"]["skill"]["enum"][0]
                .as_str()
                .unwrap()
                .to_string()
        };
        let settings: usize = s.devices.iter().map(|d| d.fields.len()).sum();
        assert_eq!(
            forms.len(),
            crate::trace::request::SKILLS.len() - super::SCRIPTED_SKILLS.len() - 1 + settings
        );
        let go = &forms[0]["properties"];
        assert_eq!(go["skill"]["enum"], json!(["navigate_to"]));
        let targets = go["target"]["enum"].as_array().unwrap();
        assert!(!targets.contains(&Value::Null) && targets.contains(&json!("sofa_1")));
        assert_eq!(go["target"]["type"], json!("string"));
        assert_eq!(go["object"], json!({"type": "null"}));
        // A form per device field: the device, its field, what it takes.
        let sets: Vec<&Value> = forms
            .iter()
            .filter(|f| skill(f) == "set_device_state")
            .map(|f| &f["properties"])
            .collect();
        assert_eq!(sets.len(), settings);
        for d in &s.devices {
            for (field, def) in &d.fields {
                let set = sets
                    .iter()
                    .find(|p| {
                        p["device"]["enum"] == json!([d.id]) && p["field"]["enum"] == json!([field])
                    })
                    .unwrap_or_else(|| panic!("no form for {}.{field}", d.id));
                let v = &set["value"];
                match def {
                    crate::scene::FieldDef::Enum { options, .. } => {
                        assert_eq!(v["enum"], json!(options))
                    }
                    crate::scene::FieldDef::Bool(_) => assert_eq!(v, &json!({"type": "boolean"})),
                    crate::scene::FieldDef::Float { .. } => assert_eq!(v["type"], "number"),
                    _ => assert_eq!(v["type"], "integer", "{}.{field}", d.id),
                }
            }
        }
        // Settings that would change nothing are not offered.
        let mut now = a.clone();
        super::without_no_ops(&mut now, |d, f| match (d, f) {
            ("tv_1", "power") => Some(json!(false)),
            ("dishwasher_1", "program") => Some(json!("eco")),
            ("tv_1", "volume") => Some(json!(15)),
            _ => None,
        });
        let now_forms = now["properties"]["steps"]["items"]["anyOf"]
            .as_array()
            .unwrap();
        let value = |d: &str, f: &str| {
            now_forms
                .iter()
                .map(|x| &x["properties"])
                .find(|p| p["device"]["enum"] == json!([d]) && p["field"]["enum"] == json!([f]))
                .map(|p| p["value"].clone())
        };
        assert_eq!(value("tv_1", "power").unwrap()["enum"], json!([true]));
        assert_eq!(
            value("dishwasher_1", "program").unwrap()["enum"],
            json!(["quick", "intensive"])
        );
        // A range too wide to list stays a range.
        assert_eq!(value("tv_1", "volume").unwrap()["maximum"], json!(100));
        assert_eq!(now_forms.len(), forms.len());
        let hand = &forms.iter().find(|f| skill(f) == "handoff").unwrap()["properties"]["to"];
        assert_eq!(
            (&hand["minItems"], &hand["maxItems"]),
            (&json!(1), &json!(1))
        );
        let s = names.schema("sessions", &["p1".into()], 3, SESSIONS);
        assert_eq!(
            s["properties"]["sessions"]["items"]["properties"]["project"]["enum"],
            json!(["p1", null])
        );
    }
}

#[cfg(test)]
mod narrowing {
    use serde_json::{Value, json};

    use super::{Names, narrow_to};

    /// Every `enum` in `v` is a list of options.
    fn enums_are_lists(v: &Value) -> bool {
        match v {
            Value::Object(o) => o
                .iter()
                .all(|(k, x)| (k != "enum" || x.is_array()) && enums_are_lists(x)),
            Value::Array(a) => a.iter().all(enums_are_lists),
            _ => true,
        }
    }

    #[test]
    fn an_actor_schema_narrows_to_what_the_turn_names_and_stays_a_schema() {
        let s = crate::scene::parse("family_apartment", crate::scene::default_source()).unwrap();
        let names = Names::new(&s);
        let full = names.schema("actor", &[], 3, 4);
        let mut narrow = full.clone();
        narrow_to(
            &mut narrow,
            &["mug_1".into(), "dining_table_1".into(), "tv_1".into()],
        );
        assert!(enums_are_lists(&narrow), "{narrow}");
        let forms = narrow["properties"]["steps"]["items"]["anyOf"]
            .as_array()
            .unwrap();
        let full_forms = full["properties"]["steps"]["items"]["anyOf"]
            .as_array()
            .unwrap();
        assert!(forms.len() < full_forms.len());
        for f in forms {
            let p = &f["properties"];
            for field in ["target", "object", "device"] {
                if let Some(options) = p[field]["enum"].as_array() {
                    assert!(
                        options
                            .iter()
                            .all(|o| ["mug_1", "dining_table_1", "tv_1"]
                                .contains(&o.as_str().unwrap())),
                        "{f}"
                    );
                }
            }
        }
        // Placing the mug on the table, the tv's fields, saying and waiting
        // are offered; the oven is not.
        let skills: Vec<&Value> = forms
            .iter()
            .map(|f| &f["properties"]["skill"]["enum"][0])
            .collect();
        for skill in [
            "place",
            "pick",
            "set_device_state",
            "say",
            "wait",
            "navigate_to",
        ] {
            assert!(skills.contains(&&json!(skill)), "{skill}");
        }
        assert!(!narrow.to_string().contains("oven_1"));
        // Whatever a constrained decoder writes under it is valid.
        for seed in 0..20 {
            let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed);
            let v = crate::llm::mock::decode(&narrow, None, &mut rng, 0.5);
            assert_eq!(
                crate::llm::schema::validate(&narrow, &v),
                Vec::<String>::new()
            );
        }
        // Nothing named: as it was.
        let mut same = full.clone();
        narrow_to(&mut same, &[]);
        assert_eq!(same, full);
    }
}
