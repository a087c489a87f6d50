//! A validator for the JSON-schema subset hearth's prompts use: `type` (a
//! name or a list, with `null`), `properties`, `required`,
//! `additionalProperties: false`, `items`, `enum`, `anyOf`, `minItems`,
//! `maxItems`, `minimum`, `maximum`, `maxLength` and `pattern` (from the
//! fixed family [`Pattern`], so that neither this validator nor the mock
//! that decodes like a constrained server needs a regex engine). Every
//! reply is checked on arrival,
//! whatever the server promised, and [`repair`]ed item by item when it
//! breaks the schema: a server that constrains only the shape of a reply
//! (a grammar) still sends numbers out of bounds and names slightly off.

use rand::Rng;
use serde_json::Value;

/// The keywords [`validate`] checks: a stage schema using another one
/// states a rule nobody enforces (a test walks every stage's schema).
pub const KEYWORDS: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "anyOf",
    "minItems",
    "maxItems",
    "minimum",
    "maximum",
    "maxLength",
    "pattern",
    "description",
];

/// The string patterns hearth's schemas use, each a regular expression a
/// constrained decoder (llama.cpp's grammar, vLLM, OpenAI) honours, and
/// which hearth checks and samples without a regex engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pattern {
    /// `HH:MM` from 00:00 to 22:59: a session's start inside the day.
    Clock,
    /// A snake_case word: a session's kind, a project's id.
    Word,
}

impl Pattern {
    pub const ALL: [Pattern; 2] = [Pattern::Clock, Pattern::Word];

    pub fn regex(self) -> &'static str {
        match self {
            Pattern::Clock => "^([01][0-9]|2[0-2]):[0-5][0-9]$",
            Pattern::Word => "^[a-z][a-z0-9_]{0,23}$",
        }
    }

    /// The family member written as `regex`.
    pub fn of(regex: &str) -> Option<Pattern> {
        Self::ALL.into_iter().find(|p| p.regex() == regex)
    }

    pub fn matches(self, s: &str) -> bool {
        let b = s.as_bytes();
        match self {
            Pattern::Clock => {
                b.len() == 5
                    && b[2] == b':'
                    && matches!(
                        (b[0], b[1]),
                        (b'0' | b'1', b'0'..=b'9') | (b'2', b'0'..=b'2')
                    )
                    && (b'0'..=b'5').contains(&b[3])
                    && b[4].is_ascii_digit()
            }
            Pattern::Word => {
                (1..=24).contains(&b.len())
                    && b[0].is_ascii_lowercase()
                    && b[1..]
                        .iter()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'_')
            }
        }
    }

    /// A string the pattern allows, as a constrained decoder might write.
    pub fn sample(self, rng: &mut impl Rng) -> String {
        match self {
            Pattern::Clock => format!(
                "{:02}:{:02}",
                rng.random_range(0..23),
                rng.random_range(0..60)
            ),
            Pattern::Word => {
                let n = rng.random_range(1..=8);
                (0..n)
                    .map(|i| {
                        let c = rng.random_range(0..27u8);
                        if c == 26 && i > 0 {
                            '_'
                        } else {
                            (b'a' + c % 26) as char
                        }
                    })
                    .collect()
            }
        }
    }

    /// `s` brought into the pattern where that is plain: `7:30` is `07:30`,
    /// `Bed Time` is `bed_time`.
    fn mend(self, s: &str) -> Option<String> {
        let out = match self {
            Pattern::Clock => {
                let (h, m) = s.trim().split_once(':')?;
                let (h, m): (u32, u32) = (h.trim().parse().ok()?, m.get(..2)?.parse().ok()?);
                format!("{h:02}:{m:02}")
            }
            Pattern::Word => s.trim().to_lowercase().replace([' ', '-'], "_"),
        };
        self.matches(&out).then_some(out)
    }
}

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
    if let Some(text) = v.as_str() {
        if let Some(max) = schema.get("maxLength").and_then(Value::as_u64)
            && text.chars().count() as u64 > max
        {
            out.push(format!("{path}: {v} is longer than {max} characters"));
        }
        if let Some(p) = schema.get("pattern").and_then(Value::as_str) {
            match Pattern::of(p) {
                Some(pat) if !pat.matches(text) => {
                    out.push(format!("{path}: {v} does not match {p}"))
                }
                Some(_) => {}
                None => out.push(format!(
                    "{path}: the schema's pattern {p} is not one hearth checks"
                )),
            }
        }
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

/// What [`repair`] made of a value.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Repaired {
    /// The value brought into the schema, or `None` when nothing of it is usable.
    pub value: Option<Value>,
    /// Values changed to fit: numbers clamped, names mapped, fields dropped
    /// or filled with null.
    pub fixed: u64,
    /// Array items dropped because they could not be made to fit, each
    /// with its path and why.
    pub dropped: Vec<String>,
}

/// Brings `value` into `schema` where that is unambiguous, keeping every
/// usable part: numbers outside `minimum`/`maximum` are clamped, a string
/// outside its `enum` is mapped to the one option it plainly means (case,
/// spacing, a known name with a suffix), unknown fields are dropped, a
/// missing nullable field becomes null, and an array item that still does
/// not fit is dropped while the others stay. `value` is `None` only when
/// the whole value is unusable.
pub fn repair(schema: &Value, value: &Value) -> Repaired {
    let mut r = Repaired::default();
    r.value = fix(schema, value, "$", &mut r);
    r
}

fn nullable(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::Array(a)) => a.iter().any(|t| t == "null"),
        Some(Value::String(t)) => t == "null",
        _ => schema
            .get("anyOf")
            .and_then(Value::as_array)
            .is_some_and(|f| f.iter().any(nullable)),
    }
}

fn fix(schema: &Value, v: &Value, path: &str, r: &mut Repaired) -> Option<Value> {
    if validate(schema, v).is_empty() {
        return Some(v.clone());
    }
    if let Some(forms) = schema.get("anyOf").and_then(Value::as_array) {
        // The first form the value can be made to fit, without counting
        // the failed attempts.
        return forms.iter().find_map(|f| {
            let mut trial = Repaired::default();
            let out = fix(f, v, path, &mut trial)?;
            r.fixed += trial.fixed;
            r.dropped.extend(trial.dropped);
            Some(out)
        });
    }
    let types: Vec<&str> = match schema.get("type") {
        Some(Value::String(s)) => vec![s.as_str()],
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
        _ => vec![],
    };
    let fits = |t: &str| types.is_empty() || types.contains(&t);
    let out = match v {
        Value::Number(_) if fits("integer") || fits("number") => {
            let mut n = v.as_f64()?;
            if !fits("number") && n.fract() != 0.0 {
                n = n.round();
                r.fixed += 1;
            }
            if let Some(min) = schema.get("minimum").and_then(Value::as_f64)
                && n < min
            {
                n = min;
                r.fixed += 1;
            }
            if let Some(max) = schema.get("maximum").and_then(Value::as_f64)
                && n > max
            {
                n = max;
                r.fixed += 1;
            }
            if n.fract() == 0.0 && n.abs() < 9e15 {
                Value::from(n as i64)
            } else {
                Value::from(n)
            }
        }
        Value::String(s) if fits("string") => {
            let mut s = match schema.get("enum").and_then(Value::as_array) {
                Some(options) if !options.contains(v) => {
                    r.fixed += 1;
                    near_miss(s, options)?
                }
                _ => s.clone(),
            };
            if let Some(p) = schema
                .get("pattern")
                .and_then(Value::as_str)
                .and_then(Pattern::of)
                && !p.matches(&s)
            {
                s = p.mend(&s)?;
                r.fixed += 1;
            }
            if let Some(max) = schema.get("maxLength").and_then(Value::as_u64)
                && s.chars().count() as u64 > max
            {
                s = s.chars().take(max as usize).collect();
                r.fixed += 1;
            }
            Value::String(s)
        }
        Value::Object(o) if fits("object") => {
            let props = schema.get("properties").and_then(Value::as_object);
            let closed = schema.get("additionalProperties") == Some(&Value::Bool(false));
            let mut out = serde_json::Map::new();
            for (k, x) in o {
                match props.and_then(|p| p.get(k)) {
                    Some(s) => match fix(s, x, &format!("{path}.{k}"), r) {
                        Some(x) => {
                            out.insert(k.clone(), x);
                        }
                        None if nullable(s) => {
                            r.dropped.push(format!(
                                "{path}.{k}: {}; set to null",
                                validate(s, x).join("; ")
                            ));
                            out.insert(k.clone(), Value::Null);
                        }
                        None => return None,
                    },
                    None if closed => r.fixed += 1,
                    None => {
                        out.insert(k.clone(), x.clone());
                    }
                }
            }
            for k in schema
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
            {
                if out.contains_key(k) {
                    continue;
                }
                let s = props.and_then(|p| p.get(k))?;
                let empty = if nullable(s) {
                    Value::Null
                } else if s.get("type") == Some(&Value::from("array"))
                    && s.get("minItems").and_then(Value::as_u64).unwrap_or(0) == 0
                {
                    Value::Array(vec![])
                } else {
                    return None;
                };
                r.fixed += 1;
                out.insert(k.into(), empty);
            }
            Value::Object(out)
        }
        Value::Array(a) if fits("array") => {
            let items = schema.get("items");
            let mut out = Vec::new();
            for (i, x) in a.iter().enumerate() {
                let at = format!("{path}[{i}]");
                // An item's fixes count only if the item is kept.
                let mut trial = Repaired::default();
                match items.map_or(Some(x.clone()), |s| fix(s, x, &at, &mut trial)) {
                    Some(x) => {
                        out.push(x);
                        r.fixed += trial.fixed;
                        r.dropped.extend(trial.dropped);
                    }
                    None => r.dropped.push(format!(
                        "{at}: {}",
                        items.map(|s| validate(s, x).join("; ")).unwrap_or_default()
                    )),
                }
            }
            if let Some(max) = schema.get("maxItems").and_then(Value::as_u64)
                && out.len() as u64 > max
            {
                for i in max..out.len() as u64 {
                    r.dropped
                        .push(format!("{path}[{i}]: more than {max} items"));
                }
                out.truncate(max as usize);
            }
            if (out.len() as u64) < schema.get("minItems").and_then(Value::as_u64).unwrap_or(0) {
                return None;
            }
            Value::Array(out)
        }
        _ => return None,
    };
    validate(schema, &out).is_empty().then_some(out)
}

/// The one option `s` plainly means: equal but for case, spacing, hyphens
/// and quotes, or a known name followed by a suffix (`alice's`,
/// `sofa_1 (living room)`, `sofa_1_area`), the longest such name when one
/// is a prefix of another. A suffix joined by `_` counts only after a
/// specific name (with a `_` or a digit) and without digits of its own:
/// `kitchen_table_9` is not the `kitchen`, `sofa_1_2` not `sofa_1`.
fn near_miss(s: &str, options: &[Value]) -> Option<String> {
    let norm = |x: &str| {
        x.trim()
            .trim_matches(|c| c == '"' || c == '\'' || c == '`')
            .to_lowercase()
            .replace([' ', '-'], "_")
    };
    let want = norm(s);
    let names: Vec<&str> = options.iter().filter_map(Value::as_str).collect();
    let same: Vec<&str> = names.iter().copied().filter(|o| norm(o) == want).collect();
    match same[..] {
        [one] => return Some(one.to_string()),
        [_, _, ..] => return None,
        [] => {}
    }
    let lower = s.trim().to_lowercase();
    let suffixed = |o: &str| {
        let o = norm(o);
        let specific = o.contains('_') || o.bytes().any(|b| b.is_ascii_digit());
        let spaced = lower
            .strip_prefix(&o)
            .is_some_and(|rest| rest.starts_with([' ', '\'', '.', ',', '(', ':']));
        let joined = want.strip_prefix(&o).is_some_and(|rest| {
            rest.starts_with(['\'', '.', ',', '('])
                || (specific && rest.starts_with('_') && !rest.bytes().any(|b| b.is_ascii_digit()))
        });
        spaced || joined
    };
    names
        .iter()
        .copied()
        .filter(|o| suffixed(o))
        .max_by_key(|o| o.len())
        .map(String::from)
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
    fn repair_clamps_maps_and_drops_item_by_item() {
        let s = json!({
            "type": "object",
            "additionalProperties": false,
            "required": ["xs", "note"],
            "properties": {
                "note": {"type": ["string", "null"]},
                "xs": {"type": "array", "minItems": 1, "items": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["day", "who"],
                    "properties": {
                        "day": {"type": "integer", "minimum": 1, "maximum": 7},
                        "who": {"type": "string", "enum": ["alice", "sofa_1", "sofa_12", "meal_preparation"]},
                    }
                }}
            }
        });
        let r = repair(
            &s,
            &json!({"xs": [
                {"day": 0, "who": "Alice"},
                {"day": 9.4, "who": "sofa_1_living_room", "extra": true},
                {"day": 3, "who": "Meal Preparation"},
                {"day": 2, "who": "carol"},
                {"day": 2, "who": "sofa_1_2"},
            ]}),
        );
        assert_eq!(
            r.value.unwrap(),
            json!({"note": null, "xs": [
                {"day": 1, "who": "alice"},
                {"day": 7, "who": "sofa_1"},
                {"day": 3, "who": "meal_preparation"},
            ]})
        );
        // Clamp, name; round, clamp, name, unknown field; name; null note.
        assert_eq!(r.fixed, 8);
        assert_eq!(r.dropped.len(), 2, "{:?}", r.dropped);
        assert!(r.dropped[0].starts_with("$.xs[3]: $.who: \"carol\" is not one of"));
        // Nothing usable left: no value.
        let r = repair(&s, &json!({"xs": [{"day": 1, "who": "bob"}]}));
        assert_eq!((r.value, r.dropped.len()), (None, 1));
        assert_eq!(repair(&s, &json!([1])).value, None);
        // A valid value comes back untouched.
        let ok = json!({"xs": [{"day": 1, "who": "alice"}], "note": "hi"});
        assert_eq!(
            repair(&s, &ok),
            Repaired {
                value: Some(ok),
                fixed: 0,
                dropped: vec![]
            }
        );
    }

    #[test]
    fn patterns_and_lengths_are_checked_mended_and_sampled() {
        let s = json!({"type": "object", "additionalProperties": false, "required": ["at", "kind"],
            "properties": {"at": {"type": "string", "pattern": Pattern::Clock.regex()},
                           "kind": {"type": "string", "pattern": Pattern::Word.regex(), "maxLength": 5}}});
        assert!(validate(&s, &json!({"at": "22:59", "kind": "tidy"})).is_empty());
        for (at, kind, n) in [
            ("23:00", "tidy", 1),
            ("", "Tidy Up", 3),
            ("7:5", "x", 1),
            ("08:00", "breakfast", 1),
        ] {
            assert_eq!(
                validate(&s, &json!({"at": at, "kind": kind})).len(),
                n,
                "{at} {kind}"
            );
        }
        let r = repair(&s, &json!({"at": "7:30", "kind": "Wake Up"}));
        assert_eq!(r.value, Some(json!({"at": "07:30", "kind": "wake_"})));
        assert_eq!(repair(&s, &json!({"at": "23:30", "kind": "x"})).value, None);
        assert!(
            validate(&json!({"type": "string", "pattern": "^a+$"}), &json!("a"))[0]
                .contains("not one hearth checks")
        );
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(3);
        for _ in 0..500 {
            for p in Pattern::ALL {
                let x = p.sample(&mut rng);
                assert!(p.matches(&x), "{p:?} {x}");
            }
        }
        for bad in ["23:00", "24:00", "07:60", "7:30", "07:3a", "007:30"] {
            assert!(!Pattern::Clock.matches(bad), "{bad}");
        }
        for bad in ["", "Tidy", "_x", "a b", "abcdefghijklmnopqrstuvwxy"] {
            assert!(!Pattern::Word.matches(bad), "{bad}");
        }
    }

    #[test]
    fn near_misses_map_only_when_unambiguous() {
        let opts: Vec<Value> = ["Mug_1", "mug_1", "bed", "bed_alice"]
            .iter()
            .map(|s| json!(s))
            .collect();
        assert_eq!(near_miss("MUG_1", &opts), None);
        assert_eq!(
            near_miss("bed alice's", &opts).as_deref(),
            Some("bed_alice")
        );
        assert_eq!(
            near_miss("Bed_Alice (by the window)", &opts).as_deref(),
            Some("bed_alice")
        );
        assert_eq!(near_miss("bed, the big one", &opts).as_deref(), Some("bed"));
        // Not after a bare word, not with another number.
        assert_eq!(near_miss("bed_bob", &opts), None);
        assert_eq!(near_miss("mug_1_2", &opts), None);
        assert_eq!(near_miss("be", &opts), None);
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
