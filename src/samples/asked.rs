//! What makes two samples the same question: the miner asks no question
//! twice with the same answer.

use std::io::Write;

use super::families;
use super::model::{Answer, Cutoff, Family, Query};

/// The ask key of `q` answered `a` at `cutoff` in `family`: the query and
/// its answer, and for knowledge that lasts (preferences, habits, what was
/// overwritten) also the day, so that it is asked again at longer
/// retention.
pub fn ask_key(q: &Query, a: &Answer, family: Family, cutoff: &Cutoff) -> String {
    let day = if families::of(family).lasting {
        cutoff.day
    } else {
        0
    };
    // One buffer, written in place: keys are made for every candidate.
    let mut key = Vec::with_capacity(256);
    let _ = serde_json::to_writer(&mut key, q);
    key.push(b'|');
    let _ = serde_json::to_writer(&mut key, a);
    let _ = write!(key, "|{day}");
    String::from_utf8(key).unwrap_or_default()
}
