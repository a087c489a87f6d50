//! The prompt files of `prompts/`, embedded, and their placeholders filled.

use std::collections::BTreeMap;

use sha2::{Digest, Sha256};

/// The prompt files, embedded; their hashes go into the manifest.
pub const PROMPTS: [(&str, &str); 10] = [
    ("projects", include_str!("../../prompts/projects.md")),
    ("day_beats", include_str!("../../prompts/day_beats.md")),
    ("sessions", include_str!("../../prompts/sessions.md")),
    ("director", include_str!("../../prompts/director.md")),
    ("actor", include_str!("../../prompts/actor.md")),
    ("words", include_str!("../../prompts/words.md")),
    ("notes", include_str!("../../prompts/notes.md")),
    ("rephrase", include_str!("../../prompts/rephrase.md")),
    ("answer", include_str!("../../prompts/answer.md")),
    ("judge", include_str!("../../prompts/judge.md")),
];

/// The worked examples of the generation stages, from a home that is not
/// the one simulated: a stage's prompt shows one of them, chosen by the
/// trace's seed.
pub const EXAMPLES: &str = include_str!("../../prompts/examples.json");

/// `prompt name → SHA-256` of every prompt file (the examples as
/// `examples`).
pub fn prompt_hashes() -> BTreeMap<String, String> {
    PROMPTS
        .iter()
        .chain([&("examples", EXAMPLES)])
        .map(|(n, t)| (n.to_string(), format!("{:x}", Sha256::digest(t.as_bytes()))))
        .collect()
}

fn examples(stage: &str) -> Vec<serde_json::Value> {
    let all: serde_json::Value = serde_json::from_str(EXAMPLES).expect("examples.json is JSON");
    all[stage].as_array().cloned().unwrap_or_default()
}

/// The example `stage`'s prompt shows in a trace of `seed`, as one line
/// of JSON: the examples rotate by seed.
pub fn example(stage: &str, seed: u64) -> String {
    let all = examples(stage);
    if all.is_empty() {
        return String::new();
    }
    let salt = stage
        .bytes()
        .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)));
    let at = (seed.wrapping_add(salt) % all.len() as u64) as usize;
    all[at].to_string()
}

/// Words of a text, lower case, for comparing texts.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric() && c != '_')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Whether `text` repeats `of`: the same words, or all but a fifth of
/// the words of an `of` of four words or more.
pub fn repeats(text: &str, of: &str) -> bool {
    let (mine, theirs) = (words(text), words(of));
    if mine.is_empty() {
        return false;
    }
    if mine == theirs {
        return true;
    }
    let shared = theirs.iter().filter(|w| mine.contains(w)).count();
    theirs.len() >= 4 && shared * 5 >= theirs.len() * 4
}

/// Whether `text` repeats a text of one of `stage`'s examples (any of
/// them, not only the one shown).
pub fn echoes_example(stage: &str, text: &str) -> bool {
    let mut theirs = vec![];
    for e in examples(stage) {
        strings_in(&e, &mut theirs);
    }
    theirs.iter().any(|t| repeats(text, t))
}

/// The free texts of an example (sentences, not ids or keywords).
fn strings_in(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(s) if s.contains(' ') => out.push(s.clone()),
        serde_json::Value::Array(a) => a.iter().for_each(|x| strings_in(x, out)),
        serde_json::Value::Object(o) => o.values().for_each(|x| strings_in(x, out)),
        _ => {}
    }
}

/// A prompt with its `{{name}}` placeholders filled.
pub fn fill(stage: &str, values: &[(&str, &str)]) -> String {
    let mut text = PROMPTS
        .iter()
        .find(|(n, _)| *n == stage)
        .map(|(_, t)| t.to_string())
        .expect("a known prompt");
    for (k, v) in values {
        text = text.replace(&format!("{{{{{k}}}}}"), v);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_generation_stage_has_examples_that_rotate_by_seed() {
        for stage in ["projects", "day_beats", "actor", "notes"] {
            let all = examples(stage);
            assert!(all.len() >= 3, "{stage}: {} examples", all.len());
            let shown: std::collections::BTreeSet<String> =
                (0..12).map(|seed| example(stage, seed)).collect();
            assert_eq!(
                shown.len(),
                all.len(),
                "{stage}: every example is shown for some seed"
            );
            assert_eq!(example(stage, 5), example(stage, 5));
            assert!(fill(stage, &[]).contains("{{example}}"), "{stage}");
        }
        // The stages that write a slot of the day show it in the example's place.
        for stage in ["sessions", "director", "words"] {
            assert!(examples(stage).is_empty() && !fill(stage, &[]).contains("{{example}}"));
        }
    }

    #[test]
    fn echoes_are_texts_of_an_example_and_nothing_else() {
        assert!(echoes_example(
            "notes",
            "Tomas sowed basil; Noor revised all afternoon."
        ));
        assert!(echoes_example(
            "notes",
            "tomas sowed basil and noor revised all afternoon"
        ));
        assert!(echoes_example(
            "day_beats",
            "Revision goes on after a day off."
        ));
        assert!(!echoes_example(
            "notes",
            "alice made coffee and sat down with bob"
        ));
        assert!(!echoes_example("notes", ""));
        // A short text shares words with everything: only the same words echo.
        assert!(!echoes_example("actor", "The basil"));
        assert!(echoes_example("actor", "the basil is coming up at last"));
    }
}
