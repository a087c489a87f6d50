//! A validator for the JSON-schema subset hearth's prompts use: `type` (a
//! name or a list, with `null`), `properties`, `required`,
//! `additionalProperties: false`, `items`, `enum`, `anyOf`, `minItems`,
//! `maxItems`, `minimum`, `maximum`. Every reply is checked on arrival,
//! whatever the server promised.

use serde_json::Value;

/// Problems with `value` against `schema`, each with its JSON path.
pub fn validate(schema: &Value, value: &Value) -> Vec<String> {
    let mut out = Vec::new();
    check(schema, value, "$", &mut out);
    out
}

fn type_ok(t: &str, v: &Value) -> bool {
    match t {
        "null" => v.is_null(),
        "boolean" => v.is_boolean(),
        "integer" => v.as_i64().is_some() || v.as_u64().is_some(),
        "number" => v.is_number(),
        "string" => v.is_string(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        _ => false,
    }
}

fn check(schema: &Value, v: &Value, path: &str, out: &mut Vec<String>) {
    if let Some(forms) = schema.get("anyOf").and_then(Value::as_array) {
        let tries: Vec<Vec<String>> = forms.iter().map(|f| validate(f, v)).collect();
        if tries.iter().all(|p| !p.is_empty()) {
            // The form of the right type says best what is wrong.
            let best = tries
                .iter()
                .min_by_key(|p| p.len())
                .cloned()
                .unwrap_or_default();
            let why: Vec<String> = best.iter().map(|p| p.replacen('$', path, 1)).collect();
            out.push(format!(
                "{path}: {v} fits no allowed form ({})",
                why.join("; ")
            ));
        }
    }
    if let Some(t) = schema.get("type") {
        let types: Vec<&str> = match t {
            Value::String(s) => vec![s.as_str()],
            Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
            _ => vec![],
        };
        if !types.iter().any(|t| type_ok(t, v)) {
            out.push(format!(
                "{path}: expected {}, got {}",
                types.join(" or "),
                kind(v)
            ));
            return;
        }
    }
    if let Some(options) = schema.get("enum").and_then(Value::as_array)
        && !options.contains(v)
    {
        out.push(format!(
            "{path}: {v} is not one of {}",
            options_for(v, options)
        ));
    }
    if let Some(n) = v.as_f64() {
        if let Some(min) = schema.get("minimum").and_then(Value::as_f64)
            && n < min
        {
            out.push(format!("{path}: {n} is below the minimum {min}"));
        }
        if let Some(max) = schema.get("maximum").and_then(Value::as_f64)
            && n > max
        {
            out.push(format!("{path}: {n} is above the maximum {max}"));
        }
    }
    match v {
        Value::Object(o) => {
            let props = schema.get("properties").and_then(Value::as_object);
            for r in schema
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
            {
                if !o.contains_key(r) {
                    out.push(format!("{path}: missing required field {r:?}"));
                }
            }
            for (k, x) in o {
                match props.and_then(|p| p.get(k)) {
                    Some(s) => check(s, x, &format!("{path}.{k}"), out),
                    None if schema.get("additionalProperties") == Some(&Value::Bool(false)) => {
                        out.push(format!("{path}: unexpected field {k:?}"))
                    }
                    None => {}
                }
            }
        }
        Value::Array(a) => {
            if let Some(min) = schema.get("minItems").and_then(Value::as_u64)
                && (a.len() as u64) < min
            {
                out.push(format!("{path}: {} items, at least {min} needed", a.len()));
            }
            if let Some(max) = schema.get("maxItems").and_then(Value::as_u64)
                && a.len() as u64 > max
            {
                out.push(format!("{path}: {} items, at most {max} allowed", a.len()));
            }
            if let Some(items) = schema.get("items") {
                for (i, x) in a.iter().enumerate() {
                    check(items, x, &format!("{path}[{i}]"), out);
                }
            }
        }
        _ => {}
    }
}

/// The allowed values, or for a long list of names the five nearest to
/// what was given (an invented id gets the real ones it was closest to).
fn options_for(v: &Value, options: &[Value]) -> String {
    let list = |xs: &[&Value]| {
        xs.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    if options.len() <= 12 {
        return list(&options.iter().collect::<Vec<_>>());
    }
    let wanted = v.as_str().unwrap_or_default();
    let mut near: Vec<(usize, &Value)> = options
        .iter()
        .map(|o| {
            (
                crate::ids::edit_distance(wanted, o.as_str().unwrap_or_default()),
                o,
            )
        })
        .collect();
    near.sort_by_key(|(d, o)| (*d, o.to_string()));
    let near: Vec<&Value> = near.into_iter().take(5).map(|(_, o)| o).collect();
    format!(
        "the {} allowed values; closest: {}",
        options.len(),
        list(&near)
    )
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn checks_the_subset() {
        let s = json!({
            "type": "object",
            "additionalProperties": false,
            "required": ["a", "b"],
            "properties": {
                "a": {"type": "integer", "minimum": 1},
                "b": {"type": "array", "items": {"type": "string", "enum": ["x", "y"]}, "maxItems": 2},
                "c": {"type": ["string", "null"]}
            }
        });
        assert!(validate(&s, &json!({"a": 1, "b": ["x"], "c": null})).is_empty());
        let bad = validate(&s, &json!({"a": 0, "b": ["z", "x", "y"], "d": 1}));
        assert_eq!(bad.len(), 4, "{bad:?}");
        assert!(bad.iter().any(|e| e.contains("$.a: 0 is below")));
        assert!(
            bad.iter()
                .any(|e| e.contains("$.b[0]: \"z\" is not one of"))
        );
        assert!(bad.iter().any(|e| e.contains("at most 2")));
        assert!(bad.iter().any(|e| e.contains("unexpected field \"d\"")));
        assert_eq!(
            validate(&s, &json!({"b": []})),
            vec!["$: missing required field \"a\""]
        );
        assert_eq!(
            validate(&s, &json!([1])),
            vec!["$: expected object, got array"]
        );
    }

    #[test]
    fn any_of_and_long_enums_say_what_would_fit() {
        let s = json!({"anyOf": [{"type": "string", "enum": ["on", "off"]}, {"type": "number"}, {"type": "null"}]});
        for ok in [json!("on"), json!(3.5), json!(null)] {
            assert!(validate(&s, &ok).is_empty(), "{ok}");
        }
        assert_eq!(
            validate(&s, &json!("dim")),
            vec!["$: \"dim\" fits no allowed form ($: \"dim\" is not one of \"on\", \"off\")"]
        );
        assert_eq!(validate(&s, &json!(true)).len(), 1);
        let ids: Vec<String> = (0..20)
            .map(|i| format!("mug_{i}"))
            .chain(["dining_table_1".into()])
            .collect();
        let e = validate(&json!({"enum": ids}), &json!("dining_table_9"));
        assert_eq!(
            e,
            vec![
                "$: \"dining_table_9\" is not one of the 21 allowed values; closest: \"dining_table_1\", \"mug_19\", \"mug_9\", \"mug_0\", \"mug_1\""
            ]
        );
    }
}
