//! Local repair of replies that are almost JSON, so a small model's usual
//! slips cost no extra call: a Markdown code fence or prose around the
//! object, raw control characters inside strings, trailing commas. What
//! cannot be repaired is re-asked with the parse error.

use serde_json::Value;

/// The JSON object in `content`, and whether it had to be repaired.
pub fn parse(content: &str) -> Result<(Value, bool), String> {
    let first = match serde_json::from_str(content.trim()) {
        Ok(v) => return Ok((v, false)),
        Err(e) => e,
    };
    // Every stage replies with an object: take the outermost braces, which
    // drops fences and prose on either side.
    let (Some(start), Some(end)) = (content.find('{'), content.rfind('}')) else {
        return Err(format!("not JSON ({first})"));
    };
    if end < start {
        return Err(format!("not JSON ({first})"));
    }
    serde_json::from_str(&clean(&content[start..=end]))
        .map(|v| (v, true))
        .map_err(|_| format!("not JSON ({first})"))
}

/// Escapes control characters inside strings and drops commas that close
/// an object or array.
fn clean(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len() + 8);
    let (mut in_str, mut escaped) = (false, false);
    for (i, &c) in chars.iter().enumerate() {
        if in_str {
            match c {
                _ if escaped => {
                    escaped = false;
                    out.push(c);
                }
                '\\' => {
                    escaped = true;
                    out.push(c);
                }
                '"' => {
                    in_str = false;
                    out.push(c);
                }
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                c => out.push(c),
            }
        } else {
            match c {
                '"' => {
                    in_str = true;
                    out.push(c);
                }
                ',' if matches!(
                    chars[i + 1..].iter().find(|c| !c.is_whitespace()),
                    Some('}' | ']')
                ) => {}
                c => out.push(c),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn repairs_the_usual_slips_and_nothing_else() {
        assert_eq!(parse(" {\"a\": 1} ").unwrap(), (json!({"a": 1}), false));
        for (text, want) in [
            ("```json\n{\"a\": 1}\n```", json!({"a": 1})),
            (
                "Sure! Here it is:\n{\"a\": [1, 2,],}\nHope this helps.",
                json!({"a": [1, 2]}),
            ),
            (
                "{\"t\": \"line one\nline\ttwo\u{7}\"}",
                json!({"t": "line one\nline\ttwo\u{7}"}),
            ),
            // Commas and braces inside strings are text, not syntax.
            (
                "{\"t\": \"a,}\", \"u\": \"\\\"x,]\\\"\",}",
                json!({"t": "a,}", "u": "\"x,]\""}),
            ),
        ] {
            assert_eq!(parse(text).unwrap(), (want, true), "{text:?}");
        }
        for bad in ["{\"a\": 1", "no json here", "} {", "{\"a\": tru}", ""] {
            let e = parse(bad).unwrap_err();
            assert!(e.starts_with("not JSON ("), "{bad:?}: {e}");
        }
    }
}
