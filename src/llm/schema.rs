//! A validator for the JSON-schema subset hearth's prompts use: `type` (a
//! name or a list, with `null`), `properties`, `required`,
//! `additionalProperties: false`, `items`, `enum`, `minItems`, `maxItems`,
//! `minimum`, `maximum`. Every reply is checked on arrival, whatever the
//! server promised.

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
        let list: Vec<String> = options.iter().map(Value::to_string).collect();
        out.push(format!("{path}: {v} is not one of {}", list.join(", ")));
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
}
