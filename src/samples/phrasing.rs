//! Several ways to say each question and each narrated action, so that a
//! question's words are not a copy of its evidence's words (a memory that
//! matches strings should not pass for one that understands them).
//!
//! The phrasings stay in code, not in `assets/`: they describe no
//! household, and each is bound to the code that fills it (which slots a
//! template has, in which tense); a test fills every one and checks no slot
//! is left or unknown. Slots are `{name}`; the first letter of a filled
//! question is capitalised. Each family keeps its own question templates
//! (`super::families`); here is what they are made of.

use std::borrow::Cow;

use super::text::{capital, plural};

/// A family's question templates: each key with its phrasings (at least
/// five each, told apart by the seed).
pub type Phrasings = &'static [(&'static str, &'static [&'static str])];

/// The phrasings of template `key` in `table` (none if it has no such key).
pub fn ways(table: Phrasings, key: &str) -> &'static [&'static str] {
    table
        .iter()
        .find(|(k, _)| *k == key)
        .map_or(&[], |(_, ways)| ways)
}

/// A question before its words are chosen: the template's key, its
/// phrasings and its slots.
#[derive(Debug, Clone, PartialEq)]
pub struct Phrase {
    pub key: &'static str,
    pub ways: &'static [&'static str],
    pub slots: Vec<(&'static str, String)>,
}

impl Phrase {
    /// Template `key` of `table`, with its slots filled by `slots`.
    pub fn new(table: Phrasings, key: &'static str, slots: &[(&'static str, &str)]) -> Self {
        Phrase {
            key,
            ways: ways(table, key),
            slots: slots.iter().map(|(k, v)| (*k, v.to_string())).collect(),
        }
    }

    /// The `i`-th phrasing (modulo their number), filled.
    pub fn render(&self, i: usize) -> String {
        assert!(!self.ways.is_empty(), "no phrasings for {:?}", self.key);
        let way = self.ways[i % self.ways.len()];
        let many = self.slots.iter().any(|(k, v)| *k == "thing" && plural(v));
        capital(&fill(&agree(way, many), &self.slots))
    }
}

/// A template's verbs and pronouns for `{thing}` in the plural ("Where are
/// the glasses?", "before Bob put them on the desk"): the words next to
/// the slot, and the pronouns the templates use for it. "Whose word is it"
/// and "Who was it?" are about no thing and stay.
pub fn agree(template: &str, plural: bool) -> Cow<'_, str> {
    const NEXT_TO: [(&str, &str); 13] = [
        ("{thing} is", "{thing} are"),
        ("{thing} gets", "{thing} get"),
        ("{thing} was", "{thing} were"),
        ("{thing} has", "{thing} have"),
        ("is {thing}", "are {thing}"),
        ("Is {thing}", "Are {thing}"),
        ("was {thing}", "were {thing}"),
        ("has {thing}", "have {thing}"),
        ("Has {thing}", "Have {thing}"),
        ("does {thing}", "do {thing}"),
        ("{thing} usually goes", "{thing} usually go"),
        ("{thing} belongs", "{thing} belong"),
        ("{thing} sits", "{thing} sit"),
    ];
    const PRONOUNS: [(&str, &str); 16] = [
        ("Where is it?", "Where are they?"),
        ("where was it?", "where were they?"),
        ("Where was it before", "Where were they before"),
        ("had it been", "had they been"),
        ("before it was", "before they were"),
        ("until it was", "until they were"),
        ("does it usually", "do they usually"),
        ("or is it ", "or are they "),
        ("is it closed", "are they closed"),
        ("is it off", "are they off"),
        ("put it ", "put them "),
        ("picked it up", "picked them up"),
        ("took it", "took them"),
        ("left with it", "left with them"),
        ("would it show", "would they show"),
        ("have it ", "have them "),
    ];
    if !plural {
        return Cow::Borrowed(template);
    }
    let mut out = template.to_string();
    for (one, many) in NEXT_TO.iter().chain(&PRONOUNS) {
        out = out.replace(one, many);
    }
    Cow::Owned(out)
}

/// Fills `{slot}`s; a slot without a value stays as written (a test keeps
/// that from happening).
pub fn fill(template: &str, slots: &[(&str, String)]) -> String {
    let mut out = template.to_string();
    for (k, v) in slots {
        out = out.replace(&format!("{{{k}}}"), v);
    }
    out
}

/// One of `ways`, picked by `key` (an event's own numbers), so that every
/// reader narrates the same event the same way without a shared seed.
pub fn pick<'a>(ways: &[&'a str], key: u64) -> &'a str {
    // SplitMix64's finaliser: neighbouring events land far apart.
    let mut z = key.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    ways[(z % ways.len() as u64) as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_spread_and_repeat() {
        let ways = ["a", "b", "c", "d"];
        let picked: Vec<&str> = (0..400).map(|k| pick(&ways, k)).collect();
        for w in ways {
            let n = picked.iter().filter(|p| **p == w).count();
            assert!((60..140).contains(&n), "{w}: {n} of 400");
        }
        assert_eq!(pick(&ways, 17), pick(&ways, 17));
    }
}
