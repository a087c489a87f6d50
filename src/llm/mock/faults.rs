//! What real servers and small models get wrong, injected into a mock
//! handler's replies ([`with_fault`]), and a model that never answers
//! usably ([`unusable`]).

use std::time::Duration;

use serde_json::{Value, json};

use super::messages::{MockReply, MockRequest};

/// A stand-in for a model that never answers usably: prose, whatever it
/// is asked.
pub fn unusable() -> impl Fn(&MockRequest) -> MockReply + Send + Sync + 'static {
    |_: &MockRequest| MockReply::content("I am sorry, I cannot help with that.")
}

/// What real servers and small models do, injected into a handler's
/// replies by [`with_fault`]. Faults in content apply to first asks only:
/// a re-ask gets the handler's own reply.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Fault {
    /// `json_schema` refused with this status (500, 422, ...), the body
    /// naming the response format.
    RefuseSchema(u16),
    /// Raw newlines and tabs inside the reply's strings.
    ControlChars,
    /// The JSON in a code fence, with prose around it and trailing commas.
    Fenced,
    /// Sessions name a person the home does not have, the director's
    /// intention a thing it does not have, actors an invented target.
    InventedIds,
    /// A session with no participants, and one starting at 25:30.
    EmptyParticipants,
    /// Every `every`-th request waits `delay` before answering.
    Stall { every: usize, delay: Duration },
    /// `stage` never answers with JSON.
    Garbage(&'static str),
}

/// `handler` with `fault` injected.
pub fn with_fault(
    handler: impl Fn(&MockRequest) -> MockReply + Send + Sync + 'static,
    fault: Fault,
) -> impl Fn(&MockRequest) -> MockReply + Send + Sync + 'static {
    move |req: &MockRequest| {
        let stage = req.stage();
        match fault {
            Fault::RefuseSchema(status) if req.format() == "json_schema" => {
                return MockReply::status(
                    status,
                    "{\"error\":{\"message\":\"response_format: json_schema is not supported by this server\"}}",
                );
            }
            Fault::Garbage(s) if s == stage => {
                return MockReply::content("I am sorry, I cannot help with that.");
            }
            Fault::Stall { every, delay } if every > 0 && req.n % every == every - 1 => {
                return handler(req).after(delay);
            }
            _ => {}
        }
        let reply = handler(req);
        if req.is_reask() {
            return reply;
        }
        reply.map_content(|c| {
            let Ok(mut v) = serde_json::from_str::<Value>(c) else {
                return c.to_string();
            };
            match fault {
                Fault::ControlChars => {
                    for k in ["summary", "intent", "title", "intention", "text"] {
                        strings_named(&mut v, k, &mut |s| {
                            *s = format!("{s}\nsecond line\twith a tab")
                        });
                    }
                    // Serialized escapes become the raw characters a small
                    // model writes.
                    return v.to_string().replace("\\n", "\n").replace("\\t", "\t");
                }
                Fault::Fenced => {
                    let body = v.to_string().replacen('}', ",}", 1).replacen(']', ",]", 1);
                    return format!("Sure! Here is the JSON:\n```json\n{body}\n```\nLet me know.");
                }
                Fault::InventedIds => match stage.as_str() {
                    "sessions" => v["sessions"][0]["participants"][0] = json!("grandma_9"),
                    "director" => {
                        v["turns"][0]["intention"] = json!("bring the cake_tin_4 over here")
                    }
                    // One step of several: the rest of the reply stands.
                    "actor" if v["steps"].as_array().is_some_and(|s| s.len() > 1) => {
                        if let Some(s) = v["steps"].get_mut(0) {
                            s["target"] = json!("sofa_9");
                            s["skill"] = json!("navigate_to");
                        }
                    }
                    _ => {}
                },
                Fault::EmptyParticipants if stage == "sessions" => {
                    v["sessions"][1]["participants"] = json!([]);
                    v["sessions"][2]["start"] = json!("25:30");
                }
                _ => {}
            }
            v.to_string()
        })
    }
}

/// Applies `f` to every string under a key named `key`, at any depth.
fn strings_named(v: &mut Value, key: &str, f: &mut dyn FnMut(&mut String)) {
    match v {
        Value::Object(o) => {
            for (k, x) in o.iter_mut() {
                match x {
                    Value::String(s) if k == key => f(s),
                    x => strings_named(x, key, f),
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| strings_named(x, key, f)),
        _ => {}
    }
}
