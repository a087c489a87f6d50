//! Cutoffs: where questions are asked (the start of every session after
//! the warm-up), and how old a sample's evidence is there.

use crate::trace::{Event, clock_time};

use super::index::Index;
use super::model::Cutoff;

/// Sessions at the start of a trace with too little history to ask about.
const WARM_UP_SESSIONS: usize = 3;

/// The cutoffs: the first event of every session after the warm-up.
pub fn cutoffs(ix: &Index) -> Vec<Cutoff> {
    let mut out = Vec::new();
    let mut last: Option<&str> = None;
    let mut sessions = 0;
    for e in ix.events {
        if e.session.as_deref() != last {
            last = e.session.as_deref();
            sessions += 1;
            if sessions > WARM_UP_SESSIONS {
                out.push(cutoff_at(e));
            }
        }
    }
    out
}

/// The cutoff at `e`: a question asked there knows the events before it.
pub fn cutoff_at(e: &Event) -> Cutoff {
    Cutoff {
        event: e.id,
        t: e.t,
        day: e.day,
        time: clock_time(e.t),
    }
}

/// Seconds from the latest of `evidence` to `cutoff`.
pub fn evidence_age(ix: &Index, evidence: &[u64], cutoff: &Cutoff) -> Option<u64> {
    let latest = evidence
        .iter()
        .filter_map(|e| ix.event(*e))
        .map(|e| e.t)
        .max()?;
    Some(cutoff.t.saturating_sub(latest))
}
