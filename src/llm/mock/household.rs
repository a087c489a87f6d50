//! Stand-in household models behind the mock server: replies built from
//! the scene, sensible ([`household`]), decoded through the schema as a
//! constrained server does ([`constrained`]), one error-laden step a call
//! ([`stepwise`]), or slightly out of the schema ([`grammar`]).

use serde_json::{Value, json};

use super::decode::decode;
use super::messages::{MockReply, MockRequest};

/// How the stand-in household LLM plays the actors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    /// Several steps a reply and "done" in the same reply.
    Sensible,
    /// One step a call, an invented id first, "done" in a call of its own.
    Stepwise,
}

/// What the stand-in household knows of the scene.
struct Household {
    style: Style,
    humans: Vec<String>,
    robot: String,
    place: String,
    /// The scene's first object (the stepwise actor puts it down without
    /// holding it).
    object: String,
    kinds: Vec<Value>,
    targets: Vec<Value>,
}

/// A step in the actor reply's shape, every unused field null.
fn step(skill: &str, set: Value) -> Value {
    let mut s = json!({"skill": skill, "target": null, "object": null, "relation": null,
        "device": null, "field": null, "value": null, "to": null, "text": null, "seconds": null});
    for (k, v) in set.as_object().expect("fields") {
        s[k] = v.clone();
    }
    s
}

fn actor_reply(steps: Vec<Value>, then: &str) -> Value {
    json!({"steps": steps, "then": then, "reason": null})
}

/// The text after `label` up to `end`, in `text`.
fn between<'a>(text: &'a str, label: &str, end: &str) -> &'a str {
    text.split(label)
        .nth(1)
        .and_then(|r| r.split(end).next())
        .unwrap_or("")
}

impl Household {
    fn new(scene: &crate::scene::Scene, style: Style) -> Self {
        use crate::generation::{MemoryTarget, ProjectType};
        Household {
            style,
            humans: scene
                .actors
                .iter()
                .filter(|a| a.kind == crate::scene::ActorKind::Human)
                .map(|a| a.id.to_string())
                .collect(),
            robot: scene
                .robots()
                .first()
                .map(|r| r.to_string())
                .unwrap_or_default(),
            place: scene
                .furniture
                .first()
                .map(|f| f.id.to_string())
                .unwrap_or_default(),
            object: scene
                .objects
                .first()
                .map(|o| o.id.to_string())
                .unwrap_or_default(),
            kinds: ProjectType::ALL
                .iter()
                .map(|k| serde_json::to_value(k).expect("enum"))
                .collect(),
            targets: MemoryTarget::ALL
                .iter()
                .map(|k| serde_json::to_value(k).expect("enum"))
                .collect(),
        }
    }

    fn answer(&self, req: &MockRequest) -> MockReply {
        let text = req.text();
        let (robot, place) = (&self.robot, &self.place);
        let h0 = self.humans.first().unwrap_or(robot);
        // As many items as the schema allows, within what the stage has.
        let most = |name: &str| {
            req.bound(name, "maxItems")
                .and_then(Value::as_u64)
                .map_or(usize::MAX, |n| n as usize)
        };
        let reply = match req.stage().as_str() {
            "projects" => {
                let last = req
                    .bound("end_day", "maximum")
                    .cloned()
                    .unwrap_or(json!(30));
                json!({"projects": self.kinds.iter().zip(&self.targets).take(most("projects")).enumerate().map(|(i, (k, t))| json!({
                "id": format!("p{}", i + 1), "kind": k, "title": format!("thread {}", i + 1),
                "participants": [h0, robot], "entities": [place], "memory_targets": [t],
                "start_day": 1, "end_day": last, "constraints": []
            })).collect::<Vec<_>>()})
            }
            "day_beats" => {
                let active: Vec<Value> = match req.bound("project", "enum") {
                    Some(Value::Array(ids)) => ids.clone(),
                    _ => (1..=8).map(|i| json!(format!("p{i}"))).collect(),
                };
                json!({"beats": active.iter().map(|p| json!({
                    "project": p, "beat": "continued", "summary": "goes on"
                })).collect::<Vec<_>>()})
            }
            "sessions" if self.style == Style::Stepwise => json!({"sessions": [
                {"start": "08:00", "kind": "breakfast", "project": "p1", "intent": "breakfast", "participants": [h0, robot]},
                {"start": "05:30", "kind": "night_walk", "project": null, "intent": "a walk before dawn", "participants": [h0]},
                {"start": "19:00", "kind": "board_game", "project": "p8", "intent": "a board game", "participants": [h0, robot]}
            ]}),
            "sessions" => {
                // In the free time the prompt lists, as a sensible model
                // would: a session of its own kind for each person free,
                // with the robot.
                let kinds = ["chat", "reading", "plant_care", "phone_call", "board_game"];
                let projects: Vec<Value> = match req.bound("project", "enum") {
                    Some(Value::Array(ids)) => {
                        ids.iter().filter(|p| p.is_string()).cloned().collect()
                    }
                    _ => (1..=6).map(|i| json!(format!("p{i}"))).collect(),
                };
                let free = between(&text, "Free time at home:\n", "\n\n");
                let sessions: Vec<Value> = free
                    .lines()
                    .filter_map(|l| {
                        let (who, spans) = l.split_once(": ")?;
                        let start = spans.split(['-', ',']).next()?.trim();
                        (self.humans.iter().any(|h| h == who)).then(|| (who.to_string(), start.to_string()))
                    })
                    .take(most("sessions"))
                    .enumerate()
                    .map(|(i, (who, at))| {
                        let kind = kinds[i % kinds.len()];
                        let project = projects.get(i % projects.len().max(1)).cloned();
                        json!({"start": at, "kind": kind, "project": project,
                            "intent": format!("{who} has a {} by {place}", kind.replace('_', " ")), "participants": [who, robot]})
                    })
                    .collect();
                json!({ "sessions": sessions })
            }
            "director" => {
                let mut turns = vec![
                    json!({"actor": h0, "intention": format!("walk over to {place} and put {} down there", self.object)}),
                    json!({"actor": robot, "intention": "look around and say hello"}),
                ];
                if self.style == Style::Stepwise && !req.is_reask() {
                    turns.push(
                        json!({"actor": "nobody_7", "intention": "an actor the scene does not have"}),
                    );
                }
                json!({ "intent": format!("{h0} and {robot} meet at {place}"), "turns": turns })
            }
            "actor" => {
                // The prompt as first sent: a re-ask appends the reply itself.
                let prompt = req.body["messages"][1]["content"].as_str().unwrap_or("");
                self.actor(prompt, req.is_reask(), req.schema())
            }
            "words" => {
                // Its own words, never the calendar's line back.
                let who = between(&text, "Stage: words.\n\n", " is in ");
                json!({"text": format!("Right then, {who} here, all good.")})
            }
            "notes" => {
                json!({"preferences": [format!("{h0} likes a quiet morning")], "open_plans": [], "summary": "A quiet day."})
            }
            "answer" => {
                let first = text
                    .split("Records:")
                    .nth(1)
                    .and_then(|r| r.trim().lines().next())
                    .unwrap_or("nothing");
                json!({"answer": format!("From the records: {first}")})
            }
            "judge" => {
                let field = |name: &str| {
                    text.split(name)
                        .nth(1)
                        .and_then(|r| r.lines().next())
                        .unwrap_or("")
                        .trim()
                        .trim_end_matches('.')
                        .to_lowercase()
                };
                let (reference, answer) = (field("Reference answer:"), field("Answer to grade:"));
                // The reference as whole words: "on" is not in "i don't know".
                let has = |hay: &str, needle: &str| {
                    hay.match_indices(needle).any(|(i, _)| {
                        let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
                        !word(hay[..i].chars().next_back())
                            && !word(hay[i + needle.len()..].chars().next())
                    })
                };
                let score = if !reference.is_empty() && has(&answer, &reference) {
                    3
                } else if answer.is_empty() {
                    0
                } else {
                    1
                };
                json!({"score": score, "reason": "compared with the reference"})
            }
            "rephrase" => {
                let q = text
                    .split("Question: ")
                    .nth(1)
                    .and_then(|r| r.lines().next())
                    .unwrap_or("");
                json!({"question": format!("Robot, {}", q.trim())})
            }
            other => return MockReply::status(400, &format!("unknown stage {other:?}")),
        };
        MockReply::json_for(req, &reply)
    }

    fn actor(&self, text: &str, reask: bool, schema: &Value) -> Value {
        let (robot, place) = (&self.robot, &self.place);
        let me = text
            .rsplit("You play ")
            .next()
            .and_then(|r| r.split('.').next())
            .unwrap_or("");
        let history = between(text, "What you have done this turn:", "\n\n");
        let go = step("navigate_to", json!({ "target": place }));
        let hello = step("say", json!({"text": "Hello!", "to": []}));
        if self.style == Style::Sensible {
            if text.contains("Your last step was rejected") || history.contains(" say ") {
                return actor_reply(vec![], "done");
            }
            // What the schema offers: someone's words only, or steps about
            // the things the turn names.
            let forms: Vec<&Value> = schema["properties"]["steps"]["items"]["anyOf"]
                .as_array()
                .map(|f| f.iter().map(|f| &f["properties"]).collect())
                .unwrap_or_default();
            let offers = |skill: &str| {
                forms.is_empty() || forms.iter().any(|f| f["skill"]["enum"] == json!([skill]))
            };
            if !offers("navigate_to") && offers("say") {
                return actor_reply(vec![hello], "done");
            }
            let target = forms
                .iter()
                .find(|f| f["skill"]["enum"] == json!(["navigate_to"]))
                .and_then(|f| f["target"]["enum"].as_array())
                .filter(|t| !t.contains(&json!(place)))
                .and_then(|t| t.first())
                .and_then(Value::as_str)
                .unwrap_or(place);
            let mut steps = vec![];
            if !text.contains(&format!("near {target}.")) {
                steps.push(step("navigate_to", json!({ "target": target })));
            }
            steps.push(hello);
            steps.push(step("wait", json!({"seconds": 60})));
            return actor_reply(steps, "done");
        }
        let walked =
            history.contains("navigate_to") || text.contains("left out, it changes nothing");
        // A model that does not learn: it puts down what it does not hold,
        // and asks for it again when told why not.
        let put = step(
            "place",
            json!({"object": self.object, "target": place, "relation": "on"}),
        );
        if reask && !walked {
            // Twice, as a small model does: the second walk, to where it
            // then is, changes nothing (left out, not sent).
            actor_reply(vec![go.clone(), go], "continue")
        } else if walked && me == robot && !history.contains(" say ") {
            actor_reply(vec![hello], "continue")
        } else if walked && me != robot {
            actor_reply(vec![put], "continue")
        } else if walked {
            actor_reply(vec![], "done")
        } else {
            actor_reply(
                vec![step("navigate_to", json!({"target": "kitchen_table_9"}))],
                "continue",
            )
        }
    }
}

/// A stand-in household LLM that answers sensibly: valid replies built
/// from the scene, each actor's turn in one reply (walk over, say hello,
/// wait, done), decoded as a constrained server would ([`constrained`]
/// with no poor choices). For the tests, the benchmark and trying the LLM
/// path offline.
pub fn household(
    scene: &crate::scene::Scene,
) -> impl Fn(&MockRequest) -> MockReply + Send + Sync + 'static {
    constrained(scene, 0, 0.0)
}

/// A stand-in for a model behind a server that constrains decoding to the
/// schema it is sent (llama.cpp's grammar, vLLM, OpenAI's strict mode):
/// what the sensible household would say, decoded through the schema, so
/// every value is one the schema allows (its enums, patterns, lengths,
/// bounds and item counts), never a near miss; and at every value, with
/// the seeded chance `poor`, a valid but semantically poor choice instead
/// (any option, an empty sentence, a random time, fewer items), as a small
/// model makes. A request without a schema gets the household's reply.
pub fn constrained(
    scene: &crate::scene::Scene,
    seed: u64,
    poor: f64,
) -> impl Fn(&MockRequest) -> MockReply + Send + Sync + 'static {
    use rand::SeedableRng;
    use sha2::{Digest, Sha256};
    let h = Household::new(scene, Style::Sensible);
    move |req: &MockRequest| {
        let schema = req.schema().clone();
        let reply = h.answer(req);
        if schema.is_null() || reply.status != 200 {
            return reply;
        }
        // Seeded by the request, so the same call decodes the same way.
        let digest = Sha256::digest(format!("{seed}:{}", req.body));
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(u64::from_le_bytes(
            digest[..8].try_into().expect("8 bytes"),
        ));
        let content = reply.body_content();
        let want = serde_json::from_str::<Value>(&content).ok();
        MockReply::json_for(req, &decode(&schema, want.as_ref(), &mut rng, poor))
    }
}

/// A stand-in household LLM that injects errors: one step per call, each
/// actor first naming an id that does not exist, the director an actor
/// the scene does not have, and "done" in a call of its own; so every turn
/// exercises re-asks and the closed loop.
pub fn stepwise(
    scene: &crate::scene::Scene,
) -> impl Fn(&MockRequest) -> MockReply + Send + Sync + 'static {
    let h = Household::new(scene, Style::Stepwise);
    move |req: &MockRequest| h.answer(req)
}

/// A stand-in for a small model behind a grammar-constrained server
/// (llama.cpp, Ollama): the household's replies, always well-formed, but
/// in every item the numbers out of bounds (days 0 and 99, waits of 0 s)
/// and the names slightly off (`Alice`, `P1`, `Meal Preparation`,
/// `sofa_1_area`), on re-asks too. Everything in them is usable after
/// repair.
pub fn grammar(
    scene: &crate::scene::Scene,
) -> impl Fn(&MockRequest) -> MockReply + Send + Sync + 'static {
    let h = Household::new(scene, Style::Sensible);
    move |req: &MockRequest| {
        h.answer(req).map_content(|c| {
            let Ok(mut v) = serde_json::from_str::<Value>(c) else {
                return c.to_string();
            };
            off_by_a_little(&mut v, "");
            v.to_string()
        })
    }
}

/// `Meal Preparation` for `meal_preparation`, `Alice` for `alice`.
fn title_case(s: &str) -> String {
    s.split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Puts every number and name of a reply slightly out of the schema.
fn off_by_a_little(v: &mut Value, key: &str) {
    match v {
        Value::Object(o) => o.iter_mut().for_each(|(k, x)| off_by_a_little(x, k)),
        Value::Array(a) => a.iter_mut().for_each(|x| off_by_a_little(x, key)),
        Value::Number(_) => {
            *v = match key {
                "start_day" | "seconds" => json!(0),
                "end_day" => json!(99),
                _ => v.clone(),
            }
        }
        Value::String(s) => {
            *v = json!(match key {
                "kind" | "memory_targets" | "participants" | "actor" | "to" | "beat" | "skill" => {
                    title_case(s)
                }
                "project" => s.to_uppercase(),
                "target" | "entities" | "object" | "device" => format!("{s}_area"),
                _ => return,
            })
        }
        _ => {}
    }
}
