//! Standing questions for a sweep through a trace's cutoffs: the state of
//! each attribute the robot saw, what a value was before it was overwritten,
//! and the questions each claim heard raises. They last from cutoff to
//! cutoff, so they are kept, not rebuilt: a question is made when what it is
//! about first comes before a cutoff, and answered again only when a list
//! its answer reads grew (or, for a request, its due time passed). A cutoff
//! then costs what arrived since the last one and a look at the live
//! questions' flags, not the whole past answered again.

use std::collections::BTreeMap;

// Bevy's maps hash with a fixed foldhash, cheaper than std's SipHash on
// these keys; they are only looked up, never iterated into output.
use bevy::platform::collections::{HashMap, HashSet};

use crate::ids::Id;
use crate::trace::{ClaimMode, Value};

use super::answer::{Answered, GRACE};
use super::asked::{AskKey, ask_key};
use super::candidates::Candidate;
use super::families::{FAMILIES, current_state, of, overwritten_state, owner};
use super::index::{Heard, Index, Key, Place, Seen};
use super::model::{Answer, Cutoff, Family, Query};
use super::text::Namer;

/// One distinct standing question and its answer as of the last cutoff.
struct Entry {
    query: Query,
    /// The answer and the family it falls in (a state question's answer
    /// decides between current and hidden); `None` while the history
    /// does not settle it.
    found: Option<(Answered, Family)>,
    /// Whether something its answer reads changed since it was answered.
    dirty: bool,
    /// Whether its answer is for good ([`QuestionFamily::lasts`]): then
    /// nothing it reads is taken in again.
    ///
    /// [`QuestionFamily::lasts`]: super::families::QuestionFamily::lasts
    lasts: bool,
}

/// What a cutoff's look at every live question reads of an entry, kept
/// apart from it in a few bytes: the looks then read a short list, not
/// each entry's query and answer, which grow with the months.
#[derive(Clone, Copy, Default)]
struct Flags {
    /// Whether its ask key (query, answer and for lasting knowledge the
    /// day) was asked already.
    asked: bool,
    /// The family its answer falls in, while it has one.
    family: Option<Family>,
    /// Whether its answer is a value seen (a current view).
    value: bool,
}

/// A place in a family's candidate order: the question as worded from its
/// source, and the entry answering it (a question heard twice is one entry).
struct Slot<'c> {
    /// Boxed: a look at every slot reads only the entries.
    candidate: Box<Candidate<'c>>,
    entry: usize,
}

/// An attribute the robot saw at some time in the trace.
struct Watched<'c> {
    seen: &'c [Seen],
    changes: &'c [(u64, Value)],
    /// Its state question (in `Standing::state`) and the entries reading
    /// what the robot saw of it.
    readers: Vec<usize>,
}

/// A request's status question: its answer changes with the time too.
struct Timed {
    entry: usize,
    due: u64,
    phase: u8,
}

pub(super) struct Standing<'c> {
    ix: &'c Index<'c>,
    n: &'c Namer<'c>,
    entries: Vec<Entry>,
    /// Each entry's flags.
    flags: Vec<Flags>,
    /// Entries to answer again at the next cutoff.
    dirty: Vec<usize>,
    /// Every attribute the robot saw in the trace, in key order, with its
    /// state question (slot `i` of `state` is key `i`).
    watched: Vec<Watched<'c>>,
    state: Vec<Slot<'c>>,
    by_key: HashMap<&'c Key, usize>,
    /// Each key's places (changes of the value seen), how many are before
    /// the cutoff and whether one of those is in a bin; and the
    /// overwritten-state questions of the places whose value was taken
    /// only once so far, by (key, place).
    places: Vec<(&'c Key, &'c [Place], usize, bool)>,
    /// Every sight and change of a watched attribute and every place, in
    /// event order: (event, position in `watched` or `places`, what it
    /// is). A cutoff reads what came since the last one from it, not the
    /// lists of every attribute (their number grows with the months).
    timeline: Vec<(u64, u32, u8)>,
    /// How much of `timeline` is before the current cutoff.
    timeline_at: usize,
    before: BTreeMap<(usize, usize), Slot<'c>>,
    /// Claims heard before the cutoff, and their questions by family.
    heard: usize,
    claims: BTreeMap<Family, Vec<Slot<'c>>>,
    /// The entry of each distinct claim question (by its query).
    by_query: HashMap<String, usize>,
    /// Entries reading the claims of a (mode, entity, attribute).
    claim_readers: BTreeMap<(ClaimMode, &'c Id, &'c Id), Vec<usize>>,
    timed: Vec<Timed>,
    /// Entries asked today whose key holds the day.
    asked_today: Vec<usize>,
    day: u32,
    /// Asked of the household ([`super::Asking::Household`]): attributes
    /// the robot did not see even in its first view of the house have a
    /// state question too, whose answer is unknown until it sees them.
    household: HashSet<&'c Key>,
    /// Asked of the household: the two state families are drawn together.
    pooled: bool,
    /// How many events that can unsettle a current view came before the
    /// last cutoff ([`Index::unsettling`]).
    unsettled: usize,
}

/// What a line of [`Standing::timeline`] is: a sight or a change of a
/// watched attribute, or a place.
const SEEN: u8 = 0;
const CHANGE: u8 = 1;
const PLACE: u8 = 2;

/// Whether the ask keys of `f` hold the day (see [`ask_key`]).
fn day_keyed(f: Family) -> bool {
    of(f).lasting
}

/// The questions a claim heard raises, family by family.
fn heard_candidates<'c>(ix: &'c Index, n: &'c Namer, h: &'c Heard) -> Vec<Candidate<'c>> {
    FAMILIES
        .iter()
        .flat_map(|f| f.entry.heard(ix, n, h))
        .collect()
}

/// How far past its due time a request is: before, in the grace period,
/// after it.
fn phase(t: u64, due: u64) -> u8 {
    if t < due {
        0
    } else if t < due + GRACE {
        1
    } else {
        2
    }
}

/// Advances `at` over the entries of `list` before `cutoff`; whether it moved.
fn advance<T>(list: &[T], at: &mut usize, cutoff: u64, event: impl Fn(&T) -> u64) -> bool {
    let from = *at;
    while *at < list.len() && event(&list[*at]) < cutoff {
        *at += 1;
    }
    *at != from
}

impl<'c> Standing<'c> {
    /// Standing questions of the robot's index `ix`; with `household` (the
    /// keys the robot did not see at the start), also the state of those.
    pub(super) fn new(ix: &'c Index<'c>, n: &'c Namer<'c>, household: Option<&'c [Key]>) -> Self {
        let mut s = Standing {
            ix,
            n,
            entries: Vec::new(),
            flags: Vec::new(),
            dirty: Vec::new(),
            watched: Vec::new(),
            state: Vec::new(),
            by_key: HashMap::new(),
            places: (ix.all_places(u64::MAX))
                .map(|(k, p)| (k, p, 0, false))
                .collect(),
            before: BTreeMap::new(),
            heard: 0,
            claims: BTreeMap::new(),
            by_query: HashMap::new(),
            claim_readers: BTreeMap::new(),
            timed: Vec::new(),
            asked_today: Vec::new(),
            day: 0,
            household: household.into_iter().flatten().collect(),
            pooled: household.is_some(),
            unsettled: 0,
            timeline: Vec::new(),
            timeline_at: 0,
        };
        let mut keys: BTreeMap<&'c Key, &'c [Seen]> = ix
            .tables
            .seen
            .iter()
            .map(|(k, seen)| (k, seen.as_slice()))
            .collect();
        for k in household.into_iter().flatten() {
            keys.entry(k).or_insert(&[]);
        }
        for (key, seen) in keys {
            let candidate = current_state::candidate(n, &key.0, &key.1);
            let entry = s.entry(&candidate);
            s.by_key.insert(key, s.watched.len());
            s.watched.push(Watched {
                seen,
                changes: ix.changes_of(key),
                readers: vec![entry],
            });
            s.state.push(Slot {
                candidate: Box::new(candidate),
                entry,
            });
        }
        for (k, w) in s.watched.iter().enumerate() {
            let k = k as u32;
            s.timeline.extend(w.seen.iter().map(|x| (x.event, k, SEEN)));
            s.timeline
                .extend(w.changes.iter().map(|x| (x.0, k, CHANGE)));
        }
        for (k, (_, p, _, _)) in s.places.iter().enumerate() {
            let k = k as u32;
            s.timeline.extend(p.iter().map(|x| (x.event, k, PLACE)));
        }
        s.timeline.sort_unstable_by_key(|t| t.0);
        s
    }

    /// A new entry for `c`'s question, to be answered at the next cutoff.
    fn entry(&mut self, c: &Candidate) -> usize {
        let i = self.entries.len();
        self.entries.push(Entry {
            query: c.query.clone(),
            found: None,
            dirty: true,
            lasts: false,
        });
        self.flags.push(Flags::default());
        self.dirty.push(i);
        i
    }

    fn touch(&mut self, entry: usize) {
        let e = &mut self.entries[entry];
        if !e.dirty && !e.lasts {
            e.dirty = true;
            self.dirty.push(entry);
        }
    }

    /// Goes on to `cutoff` (later than the last): takes in what came
    /// before it and answers again the questions it changed. `asked` holds
    /// the ask keys asked so far.
    pub(super) fn advance(&mut self, cutoff: &Cutoff, asked: &HashSet<AskKey>) {
        let c = cutoff.event;
        let ix = self.ix;
        if cutoff.day != self.day {
            // Yesterday's keys do not hold today.
            for i in std::mem::take(&mut self.asked_today) {
                self.flags[i].asked = false;
            }
            self.day = cutoff.day;
        }
        // What came since the last cutoff, by attribute and what it is.
        let from = self.timeline_at;
        self.timeline_at += self.timeline[from..].partition_point(|t| t.0 < c);
        let mut moved: Vec<(u32, u8)> = (self.timeline[from..self.timeline_at].iter())
            .map(|&(_, k, what)| (k, what))
            .collect();
        moved.sort_unstable();
        moved.dedup();
        // What the robot saw of each attribute, and the truth of it.
        let mut touched = Vec::new();
        for &(k, what) in &moved {
            match what {
                SEEN => touched.extend(&self.watched[k as usize].readers),
                // Only the state question reads the truth.
                CHANGE => touched.push(self.state[k as usize].entry),
                _ => {}
            }
        }
        // The robot moved, docked or saw someone walk off: a current view
        // may now be possibly out of date.
        let unsettled = ix.unsettling(c);
        if unsettled != self.unsettled {
            self.unsettled = unsettled;
            touched.extend(
                (self.state.iter())
                    .map(|s| s.entry)
                    .filter(|e| self.flags[*e].value),
            );
        }
        for e in touched {
            self.touch(e);
        }
        // Overwritten values: a new place asks what was before it, until
        // its value comes again.
        // (Made after the loop, which holds the places; a value that comes
        // again before the cutoff drops a place made in the same advance.)
        let mut new = BTreeMap::new();
        let room = ix.stockroom();
        // Only the places that came since the last cutoff: the others
        // have nothing new.
        for k in moved.iter().filter(|m| m.1 == PLACE).map(|m| m.0 as usize) {
            let (key, p, at, binned) = &mut self.places[k];
            let (key, p, from): (&'c Key, &'c [Place], usize) = (*key, *p, *at);
            advance(p, at, c, |x| x.event);
            let at = *at;
            *binned |= p[from..at].iter().any(|x| room.in_bin(&x.value));
            let binned = *binned;
            for (i, place) in p.iter().enumerate().take(at).skip(from) {
                if let Some(j) = place.prev_same {
                    if new.remove(&(k, j)).is_none() {
                        self.before.remove(&(k, j));
                    }
                } else if i > 0 && overwritten_state::asks(&key.1, &place.value) {
                    let c = overwritten_state::candidate(ix, self.n, &key.0, &key.1, p, i);
                    new.insert((k, i), Box::new(c));
                }
            }
            // Not of a thing thrown out, once the robot saw it in the bin:
            // where the finished cheddar was before it went on the table
            // is no household's question weeks on (and, never moved
            // again, its questions would stand for good: half the
            // family's over eight weeks).
            if from < at && binned {
                new.retain(|(kk, _), _| *kk != k);
                self.before.retain(|(kk, _), _| *kk != k);
            }
        }
        for ((k, i), candidate) in new {
            let entry = self.entry(&candidate);
            self.before.insert((k, i), Slot { candidate, entry });
        }
        // Claims heard.
        let heard = ix.heard_before(c);
        for h in &heard[self.heard..] {
            let readers = self
                .claim_readers
                .get(&(h.claim.mode, &h.claim.entity, &h.claim.attr))
                .cloned()
                .unwrap_or_default();
            for r in readers {
                self.touch(r);
            }
            // A state nobody showed the robot is no longer unknown once it
            // is told of it (asked of the household).
            let key = (h.claim.entity.clone(), h.claim.attr.clone());
            if self.household.contains(&key)
                && let Some(&w) = self.by_key.get(&key)
            {
                self.touch(self.state[w].entry);
            }
            for candidate in heard_candidates(ix, self.n, h) {
                let q = serde_json::to_string(&candidate.query).unwrap_or_default();
                let entry = match self.by_query.get(&q) {
                    Some(e) => *e,
                    None => {
                        let e = self.entry(&candidate);
                        self.by_query.insert(q, e);
                        self.subscribe(e, &candidate.query, h);
                        e
                    }
                };
                self.claims.entry(candidate.family).or_default().push(Slot {
                    candidate: Box::new(candidate),
                    entry,
                });
            }
        }
        self.heard = heard.len();
        // Requests that fell due or overdue.
        let mut timed = std::mem::take(&mut self.timed);
        timed.retain_mut(|t| {
            let now = phase(cutoff.t, t.due);
            if now != t.phase {
                t.phase = now;
                self.touch(t.entry);
            }
            now < 2
        });
        self.timed = timed;
        self.answer(cutoff, asked);
    }

    /// Registers what the answer of `entry`, the query `q` asked of the
    /// claim `h`, reads: the claims of its key, what the robot saw of the
    /// claimed attribute, the time.
    fn subscribe(&mut self, entry: usize, q: &Query, h: &'c Heard) {
        let (mode, entity, attr) = (h.claim.mode, &h.claim.entity, &h.claim.attr);
        let reads = owner(q).entry.reads(q);
        if reads.claims {
            let readers = self.claim_readers.entry((mode, entity, attr)).or_default();
            readers.push(entry);
        }
        if reads.seen
            && let Some(&w) = self.by_key.get(&(entity.clone(), attr.clone()))
        {
            self.watched[w].readers.push(entry);
        }
        if reads.due
            && let Some(due) = h.claim.due
        {
            self.timed.push(Timed {
                entry,
                due,
                // Answered at the first cutoff anyway.
                phase: u8::MAX,
            });
        }
    }

    /// Answers the changed entries again.
    fn answer(&mut self, cutoff: &Cutoff, asked: &HashSet<AskKey>) {
        let ix = self.ix;
        for i in std::mem::take(&mut self.dirty) {
            let e = &self.entries[i];
            let household = |k: &Key| self.household.contains(k);
            let owner = owner(&e.query);
            let found = owner
                .entry
                .settle(ix, cutoff, &e.query, &household)
                .map(|a| {
                    let f = owner.entry.filed(&a.answer).unwrap_or(owner.family);
                    (a, f)
                });
            let was_asked = found
                .as_ref()
                .is_some_and(|(a, f)| asked.contains(&ask_key(&e.query, &a.answer, *f, cutoff)));
            if was_asked && found.as_ref().is_some_and(|(_, f)| day_keyed(*f)) {
                self.asked_today.push(i);
            }
            self.flags[i] = Flags {
                asked: was_asked,
                family: found.as_ref().map(|(_, f)| *f),
                value: matches!(
                    found,
                    Some((
                        Answered {
                            answer: Answer::Value { .. },
                            ..
                        },
                        _
                    ))
                ),
            };
            let e = &mut self.entries[i];
            e.lasts = (found.as_ref()).is_some_and(|(a, _)| owner.entry.lasts(&e.query, &a.answer));
            e.found = found;
            e.dirty = false;
        }
    }

    /// The questions of `family` that may be asked at the cutoff, in
    /// candidate order: answered, in the family, not asked yet. Each with
    /// its entry, for [`Standing::found`] and [`Standing::asked`].
    ///
    /// Asked of the household, the two state families are one draw: where
    /// a thing is, whether or not the robot's view of it is current.
    pub(super) fn open(&self, family: Family) -> Vec<(&Candidate<'c>, usize)> {
        let state = matches!(family, Family::CurrentState | Family::HiddenState);
        let slots: Box<dyn Iterator<Item = &Slot<'c>>> = match family {
            _ if state => Box::new(self.state.iter()),
            Family::OverwrittenState => Box::new(self.before.values()),
            f => Box::new(self.claims.get(&f).into_iter().flatten()),
        };
        let pooled = state && self.pooled;
        slots
            .filter(|s| {
                let e = self.flags[s.entry];
                !e.asked
                    && e.family.is_some_and(|f| {
                        f == family
                            || (pooled && matches!(f, Family::CurrentState | Family::HiddenState))
                    })
            })
            .map(|s| (&*s.candidate, s.entry))
            .collect()
    }

    /// Marks asked the household's state question of `q`, asked as
    /// another family (an unanswerable one, with the same ask key) while
    /// its answer is unknown.
    pub(super) fn asked_elsewhere(&mut self, q: &Query) {
        let Some(&w) = current_state::key(q).and_then(|k| self.by_key.get(&k)) else {
            return;
        };
        let entry = self.state[w].entry;
        if self.entries[entry]
            .found
            .as_ref()
            .is_some_and(|(a, _)| a.answer == Answer::Unknown)
        {
            self.asked(entry);
        }
    }

    /// The answer of an open entry and the family it falls in.
    pub(super) fn found(&self, entry: usize) -> Option<&(Answered, Family)> {
        self.entries[entry].found.as_ref()
    }

    /// Marks `entry` asked (with its answer as of this cutoff).
    pub(super) fn asked(&mut self, entry: usize) {
        let e = &mut self.flags[entry];
        e.asked = true;
        if e.family.is_some_and(day_keyed) {
            self.asked_today.push(entry);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples::answer::answer;
    use crate::samples::cutoff::cutoffs;
    use crate::samples::index::only_once;
    use crate::trace::Location;

    /// The open questions of `family` worked out from scratch at a cutoff,
    /// as mining did before they were kept: every state key, every place
    /// taken once, every claim heard, each answered at the cutoff.
    fn from_scratch(
        ix: &Index,
        n: &Namer,
        cutoff: &Cutoff,
        family: Family,
        asked: &HashSet<AskKey>,
    ) -> Vec<Query> {
        let c = cutoff.event;
        let mut all: Vec<Candidate> = Vec::new();
        let mut keys: Vec<&Key> = ix.tables.seen.keys().collect();
        keys.sort();
        for (entity, attr) in keys {
            let seen = ix.seen_before(&(entity.clone(), attr.clone()), c);
            match seen.last() {
                // Nor what is left of a thing last seen finished.
                Some(s) if attr.as_str() == crate::trace::LEVEL && s.value == Value::Int(0) => {}
                Some(s) if !matches!(&s.value, Value::Location(Location::HeldBy(h)) if *h == ix.robot) => {
                    all.push(current_state::candidate(n, entity, attr))
                }
                _ => {}
            }
        }
        for ((entity, attr), p) in ix.all_places(c) {
            // Nothing of a thing the robot has seen in the bin.
            if p.iter().any(|x| ix.stockroom().in_bin(&x.value)) {
                continue;
            }
            for i in (1..p.len())
                .filter(|&i| only_once(p, i) && overwritten_state::asks(attr, &p[i].value))
            {
                all.push(overwritten_state::candidate(ix, n, entity, attr, p, i));
            }
        }
        for h in ix.heard_before(c) {
            all.extend(heard_candidates(ix, n, h));
        }
        all.into_iter()
            .filter_map(|cand| {
                let a = answer(ix, cutoff, &cand.query).filter(|a| a.answer != Answer::Unknown)?;
                let owner = owner(&cand.query);
                let f = owner.entry.filed(&a.answer).unwrap_or(owner.family);
                (f == family && !asked.contains(&ask_key(&cand.query, &a.answer, f, cutoff)))
                    .then_some(cand.query)
            })
            .collect()
    }

    #[test]
    fn kept_questions_are_those_worked_out_at_each_cutoff() {
        let (scene, events) = crate::samples::sweep::four_days();
        let ix = Index::new(&scene, &events);
        let n = Namer::new(&scene);
        let mut standing = Standing::new(&ix, &n, None);
        let mut asked = HashSet::new();
        let mut open = 0;
        for (k, cutoff) in cutoffs(&ix).iter().enumerate() {
            standing.advance(cutoff, &asked);
            for family in FAMILIES.iter().filter(|r| r.standing).map(|r| r.family) {
                let kept: Vec<(Query, usize)> = standing
                    .open(family)
                    .into_iter()
                    .map(|(c, e)| (c.query.clone(), e))
                    .collect();
                let queries: Vec<Query> = kept.iter().map(|(q, _)| q.clone()).collect();
                assert_eq!(
                    queries,
                    from_scratch(&ix, &n, cutoff, family, &asked),
                    "{family:?} at cutoff {}",
                    cutoff.event
                );
                open += kept.len();
                // Ask one now and then, so that asked keys (and the day in
                // some of them) come into play.
                if let Some((q, e)) = kept.get(k % 3) {
                    let (a, f) = standing.found(*e).cloned().expect("open means answered");
                    asked.insert(ask_key(q, &a.answer, f, cutoff));
                    standing.asked(*e);
                }
            }
        }
        assert!(open > 100, "only {open} open questions");
    }
}
