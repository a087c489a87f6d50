//! The prompt files of `prompts/`, embedded, and their placeholders filled.

use std::collections::BTreeMap;

use sha2::{Digest, Sha256};

/// The prompt files, embedded; their hashes go into the manifest.
pub const PROMPTS: [(&str, &str); 9] = [
    ("projects", include_str!("../../prompts/projects.md")),
    ("day_beats", include_str!("../../prompts/day_beats.md")),
    ("sessions", include_str!("../../prompts/sessions.md")),
    ("director", include_str!("../../prompts/director.md")),
    ("actor", include_str!("../../prompts/actor.md")),
    ("notes", include_str!("../../prompts/notes.md")),
    ("rephrase", include_str!("../../prompts/rephrase.md")),
    ("answer", include_str!("../../prompts/answer.md")),
    ("judge", include_str!("../../prompts/judge.md")),
];

/// `prompt name → SHA-256` of every prompt file.
pub fn prompt_hashes() -> BTreeMap<String, String> {
    PROMPTS
        .iter()
        .map(|(n, t)| (n.to_string(), format!("{:x}", Sha256::digest(t.as_bytes()))))
        .collect()
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
