//! Decoding through a JSON schema, as a server that constrains decoding
//! does: what a stand-in model wants where the schema allows it, else a
//! value drawn from what it allows.

use serde_json::{Value, json};

/// A value `schema` allows: `want` where the schema allows it, else (and
/// with the chance `poor` anyway) one drawn from what it allows. Covers
/// the keywords hearth's schemas use (`crate::llm::schema::KEYWORDS`).
pub fn decode(schema: &Value, want: Option<&Value>, rng: &mut impl rand::Rng, poor: f64) -> Value {
    use crate::llm::schema::{Pattern, validate};
    let want = if rng.random_bool(poor) { None } else { want };
    if let Some(forms) = schema.get("anyOf").and_then(Value::as_array) {
        let form = match want.and_then(|w| forms.iter().find(|f| validate(f, w).is_empty())) {
            Some(f) => f,
            None => &forms[rng.random_range(0..forms.len())],
        };
        return decode(form, want, rng, poor);
    }
    if let Some(options) = schema.get("enum").and_then(Value::as_array) {
        return match want {
            Some(w) if options.contains(w) => w.clone(),
            _ => options[rng.random_range(0..options.len())].clone(),
        };
    }
    let types: Vec<&str> = match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
        _ => vec!["null"],
    };
    let kind_of = |v: &Value| match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    let ty = match want.map(kind_of) {
        Some(k) if types.contains(&k) => k,
        Some("integer") if types.contains(&"number") => "number",
        _ => types[rng.random_range(0..types.len())],
    };
    let want = want.filter(
        |w| matches!((kind_of(w), ty), (a, b) if a == b || (a == "integer" && b == "number")),
    );
    let bound = |k: &str| schema.get(k).and_then(Value::as_f64);
    match ty {
        "null" => Value::Null,
        "boolean" => want
            .cloned()
            .unwrap_or_else(|| Value::Bool(rng.random_bool(0.5))),
        "integer" | "number" => {
            let lo = bound("minimum").unwrap_or(0.0);
            let hi = bound("maximum").unwrap_or(lo + 3600.0).min(lo + 3600.0);
            let n = want.and_then(Value::as_f64).map_or_else(
                || rng.random_range(lo as i64..=hi as i64) as f64,
                |n| n.clamp(lo, hi),
            );
            if ty == "integer" || n.fract() == 0.0 {
                json!(n as i64)
            } else {
                json!(n)
            }
        }
        "string" => {
            let pattern = schema
                .get("pattern")
                .and_then(Value::as_str)
                .and_then(Pattern::of);
            let text = match (want.and_then(Value::as_str), pattern) {
                (Some(w), Some(p)) if p.matches(w) => w.to_string(),
                (_, Some(p)) => p.sample(rng),
                (Some(w), None) => w.to_string(),
                (None, None) => {
                    ["", "ok", "something", "the thing, later"][rng.random_range(0..4)].to_string()
                }
            };
            let max = schema
                .get("maxLength")
                .and_then(Value::as_u64)
                .unwrap_or(u64::MAX);
            Value::String(text.chars().take(max as usize).collect())
        }
        "array" => {
            let items = schema.get("items").cloned().unwrap_or(Value::Null);
            let min = schema.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
            let max = schema.get("maxItems").and_then(Value::as_u64).unwrap_or(8) as usize;
            let mut out: Vec<Value> = match want.and_then(Value::as_array) {
                Some(a) => a
                    .iter()
                    .map(|x| decode(&items, Some(x), rng, poor))
                    .collect(),
                None => {
                    let n = rng.random_range(min..=max.min(min + 3).max(min));
                    (0..n).map(|_| decode(&items, None, rng, poor)).collect()
                }
            };
            while out.len() < min {
                out.push(decode(&items, None, rng, poor));
            }
            out.truncate(max);
            Value::Array(out)
        }
        _ => {
            let props = schema.get("properties").and_then(Value::as_object);
            Value::Object(
                props
                    .into_iter()
                    .flatten()
                    .map(|(k, s)| (k.clone(), decode(s, want.and_then(|w| w.get(k)), rng, poor)))
                    .collect(),
            )
        }
    }
}
