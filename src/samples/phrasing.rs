//! Several ways to say each question and each narrated action, so that a
//! question's words are not a copy of its evidence's words (a memory that
//! matches strings should not pass for one that understands them).
//!
//! The phrasings stay in code, not in `assets/`: they describe no
//! household, and each is bound to the code that fills it (which slots a
//! template has, in which tense); a test fills every one and checks no slot
//! is left or unknown. Slots are `{name}`; the first letter of a filled
//! question is capitalised.

use super::text::capital;

/// A question before its words are chosen: the template's key and slots.
#[derive(Debug, Clone, PartialEq)]
pub struct Phrase {
    pub key: &'static str,
    pub slots: Vec<(&'static str, String)>,
}

impl Phrase {
    pub fn new(key: &'static str, slots: &[(&'static str, &str)]) -> Self {
        Phrase {
            key,
            slots: slots.iter().map(|(k, v)| (*k, v.to_string())).collect(),
        }
    }

    /// The `i`-th phrasing (modulo their number), filled.
    pub fn render(&self, i: usize) -> String {
        let ways = questions(self.key);
        assert!(!ways.is_empty(), "no phrasings for {:?}", self.key);
        capital(&fill(ways[i % ways.len()], &self.slots))
    }
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

/// The phrasings of question template `key` (at least five each).
pub fn questions(key: &str) -> &'static [&'static str] {
    match key {
        "where_is" => &[
            "Where is {thing}?",
            "Where can {thing} be found now?",
            "Do you know where {thing} is right now?",
            "I am looking for {thing}. Where is it?",
            "Where has {thing} ended up?",
        ],
        "is_open" => &[
            "Is {thing} open or closed?",
            "Has {thing} been left open, or is it shut?",
            "Right now, would I find {thing} open or closed?",
            "Is {thing} standing open at the moment, or is it closed?",
            "Open or shut: how is {thing} now?",
        ],
        "is_on" => &[
            "Is {thing} on or off?",
            "Is {thing} running right now, or is it off?",
            "Has {thing} been left on, or is it switched off?",
            "Would I find {thing} switched on or off?",
            "On or off: what state is {thing} in now?",
        ],
        "device_field" => &[
            "What is the {field} of {thing} set to?",
            "What {field} is {thing} on right now?",
            "Which {field} does {thing} have at the moment?",
            "What's the current {field} setting on {thing}?",
            "If I checked {thing} now, what {field} would it show?",
        ],
        "before_moved_by" => &[
            "Where was {thing} before {who} put it {place}?",
            "Before {who} put {thing} {place}, where had it been?",
            "{who} put {thing} {place}. Where was it before that?",
            "Where did {thing} sit before {who} put it {place}?",
            "Where had {thing} been kept until {who} put it {place}?",
        ],
        "before_moved" => &[
            "Where was {thing} before it was {place}?",
            "Before {thing} ended up {place}, where was it?",
            "Where was {thing} prior to being {place}?",
            "Where had {thing} been until it was {place}?",
            "{thing} was moved {place} at some point. Where was it before?",
        ],
        "before_changed" => &[
            "What was {what} before it was changed to {value}?",
            "Before it changed to {value}, what was {what}?",
            "{what} was changed to {value}. What was it before?",
            "What had {what} been before it became {value}?",
            "What was {what} previously, prior to the change to {value}?",
        ],
        "when_last" => &[
            "When did {who} last {act}?",
            "When was the last time {who} {acted}?",
            "At what time did {who} most recently {act}?",
            "Tell me when {who} last {acted}.",
            "{who} {acted} at some point. When was the latest time?",
        ],
        "which_first" => &[
            "Which happened first: (A) {a}, or (B) {b}?",
            "Which came earlier: (A) {a}, or (B) {b}?",
            "Of these two, which happened before the other: (A) {a}, or (B) {b}?",
            "(A) {a}; (B) {b}. Which of these was first?",
            "Think back: was it (A) {a} that happened first, or (B) {b}?",
        ],
        "who_home" => &[
            "Who was home when {done} ({when})?",
            "When {done} ({when}), who was in the house?",
            "{done} ({when}). Who was at home then?",
            "Which of the household were home at the moment {done} ({when})?",
            "Think of when {done} ({when}): who was in?",
        ],
        "out_days" => &[
            "On which days of the week does {who} usually go {going}?",
            "Which days does {who} normally go {going}?",
            "What days of the week is {who} usually out {away}?",
            "{who} goes {going} on some days. Which ones, usually?",
            "On a normal week, which days does {who} go {going}?",
        ],
        "while_out" => &[
            "Who {changed} {thing} while {who} was {away} {day}?",
            "While {who} was {away} {day}, who {changed} {thing}?",
            "{who} was {away} {day}. Who {changed} {thing} in the meantime?",
            "Someone {changed} {thing} while {who} was {away} {day}. Who was it?",
            "Think of {who} {away} {day}: who {changed} {thing} then?",
        ],
        "what_next" => &[
            "Right after {done}, what was the next thing {who} did?",
            "Once {done}, what did {who} do next?",
            "{done}. What did {who} do straight after that?",
            "What was the next thing {who} did after {done}?",
            "After {done}, what did {who} go on to do?",
        ],
        "who_prefers" => &[
            "Who in the household likes the {attr} of {thing} to be {value}?",
            "Which member of the household prefers {thing} with its {attr} at {value}?",
            "Who wants the {attr} of {thing} set to {value}?",
            "Someone likes the {attr} of {thing} at {value}. Who is it?",
            "Whose preference is a {attr} of {value} for {thing}?",
        ],
        "likes_drink" => &[
            "What does {who} like to drink from {thing}?",
            "Which drink does {who} prefer from {thing}?",
            "When {who} uses {thing}, what drink do they want?",
            "What should {thing} make for {who}?",
            "What is {who}'s favourite drink from {thing}?",
        ],
        "likes_volume" => &[
            "At what volume does {who} like {thing}?",
            "How loud does {who} like {thing} to be?",
            "What volume does {who} prefer on {thing}?",
            "Which volume suits {who} on {thing}?",
            "What is {who}'s preferred volume for {thing}?",
        ],
        "likes_night" => &[
            "What temperature does {who} want {thing} set to at night?",
            "At night, what temperature does {who} like on {thing}?",
            "What is {who}'s preferred night-time temperature on {thing}?",
            "How warm does {who} want {thing} set overnight?",
            "Which temperature should {thing} be at night, for {who}?",
        ],
        "likes_field" => &[
            "What {field} does {who} prefer for {thing}?",
            "What {field} does {who} like {thing} to have?",
            "Which {field} would {who} choose for {thing}?",
            "What is {who}'s preferred {field} on {thing}?",
            "How does {who} like the {field} of {thing} set?",
        ],
        "who_said" => &[
            "Who told the robot that {thing} is {told}?",
            "Who said {thing} was {told}?",
            "From whom did the robot hear that {thing} is {told}?",
            "Someone mentioned that {thing} is {told}. Who was it?",
            "Whose word is it that {thing} is {told}?",
        ],
        "seen_or_told" => &[
            "{who} said {thing} was {told}. Has the robot seen that itself since, seen otherwise, or only been told?",
            "According to {who}, {thing} was {told}. Has the robot since confirmed it, seen the opposite, or only heard it?",
            "{who} reported {thing} {told}. Did the robot see that for itself afterwards, see something different, or only hear it?",
            "{who} mentioned that {thing} was {told}. Has the robot checked with its own eyes since, seen otherwise, or only been told?",
            "The robot heard from {who} that {thing} was {told}. Seen since, seen otherwise, or only told?",
        ],
        "according_to" => &[
            "According to what {who} last said, where is {thing}?",
            "Where did {who} last say {thing} is?",
            "Going by {who}'s latest word, where is {thing}?",
            "If what {who} said most recently is right, where is {thing}?",
            "What did {who} most recently tell the robot about where {thing} is?",
        ],
        "what_asked" => &[
            "On {when}, what did {who} ask the robot to do with {thing}?",
            "What did {who} want done with {thing} when they asked on {when}?",
            "{who} made a request about {thing} on {when}. What was it?",
            "What was {who}'s request about {thing} on {when}?",
            "On {when}, {who} asked the robot for something involving {thing}. What?",
        ],
        "when_due" => &[
            "By when did {who} want the robot to {task}?",
            "What deadline did {who} give the robot to {task}?",
            "{who} asked the robot to {task}. By what time?",
            "When should the robot {task}, going by {who}'s request?",
            "How soon did {who} need the robot to {task}?",
        ],
        "is_done" => &[
            "{who} asked the robot to {task}. Is it done, still to do, or overdue?",
            "Has the robot done what {who} asked (to {task}), or is it still pending or overdue?",
            "{who}'s request to {task}: done, pending, or overdue?",
            "Where does {who}'s request to {task} stand: done, still to do, or late?",
            "Did the robot {task} as {who} asked, or is that still pending or overdue?",
        ],
        "usual_value" => &[
            "What does {who} usually set the {field} of {thing} to?",
            "What {field} does {who} normally put {thing} on?",
            "When {who} adjusts {thing}, what {field} do they usually pick?",
            "What's {who}'s usual {field} setting on {thing}?",
            "Typically, what {field} does {who} choose for {thing}?",
        ],
        "who_usually" => &[
            "Who usually {does}?",
            "Who is the one who normally {does}?",
            "In this household, who typically {does}?",
            "Which person most often {does}?",
            "Who tends to be the one that {does}?",
        ],
        "usual_place" => &[
            "Where does {thing} usually go?",
            "Where is {thing} normally kept?",
            "Where does {thing} belong?",
            "When someone puts {thing} away, where does it usually end up?",
            "What is the usual place for {thing}?",
        ],
        "usual_hour" => &[
            "At about what hour of the day does {who} usually {act}?",
            "Around what time does {who} normally {act}?",
            "When in the day does {who} tend to {act}?",
            "At what hour does {who} typically {act}?",
            "Roughly what time of day does {who} {act}, as a rule?",
        ],
        "how_many_robot" => &[
            "How many times did the robot {act} {day}?",
            "How often did the robot {act} {day}?",
            "{day}, how many times did the robot {act}?",
            "What is the number of times the robot had to {act} {day}?",
            "How many times {day} did the robot {act}?",
        ],
        "how_many" => &[
            "How many times did the robot see {who} {act} {day}?",
            "How often did {who} {act} {day}, as far as the robot saw?",
            "{day}, how many times did the robot watch {who} {act}?",
            "As the robot saw it, how many times did {who} {act} {day}?",
            "What number of times did the robot see {who} {act} {day}?",
        ],
        _ => &[],
    }
}

/// Every question template key.
pub const QUESTION_KEYS: [&str; 30] = [
    "where_is",
    "is_open",
    "is_on",
    "device_field",
    "before_moved_by",
    "before_moved",
    "before_changed",
    "when_last",
    "which_first",
    "what_next",
    "who_prefers",
    "likes_drink",
    "likes_volume",
    "likes_night",
    "likes_field",
    "who_said",
    "seen_or_told",
    "according_to",
    "what_asked",
    "when_due",
    "is_done",
    "usual_value",
    "who_usually",
    "usual_place",
    "usual_hour",
    "how_many_robot",
    "how_many",
    "who_home",
    "out_days",
    "while_out",
];

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
    fn every_template_has_five_distinct_well_formed_phrasings() {
        for key in QUESTION_KEYS {
            let ways = questions(key);
            assert!(ways.len() >= 5, "{key}: {} phrasings", ways.len());
            let distinct: std::collections::BTreeSet<&&str> = ways.iter().collect();
            assert_eq!(distinct.len(), ways.len(), "{key}: a phrasing repeats");
            // A template's slots are those its phrasings use; the miner
            // fills them all (the samples tests find no brace in a question).
            let slots = |t: &str| -> std::collections::BTreeSet<String> {
                t.split('{')
                    .skip(1)
                    .filter_map(|s| s.split_once('}').map(|(k, _)| k.to_string()))
                    .collect()
            };
            let want: std::collections::BTreeSet<String> =
                ways.iter().flat_map(|w| slots(w)).collect();
            for w in ways {
                assert!(!slots(w).is_empty(), "{key}: {w:?} names nothing");
                let slots: Vec<(&str, String)> =
                    want.iter().map(|k| (k.as_str(), "x".to_string())).collect();
                let filled = fill(w, &slots);
                assert!(!filled.contains('{') && !filled.contains('}'), "{filled}");
            }
        }
        assert!(questions("no_such_template").is_empty());
    }

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
