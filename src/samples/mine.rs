//! Mining Memory-QA samples: at each cutoff (the start of a session), the
//! candidate questions of every family that the robot's history settles,
//! one chosen per family with the seeded RNG, worded from templates, and
//! an unanswerable question where the share allows.

use std::collections::BTreeSet;

// Bevy's maps hash with a fixed foldhash, cheaper than std's SipHash on
// these keys; they are only looked up, never iterated into output.
use bevy::platform::collections::HashSet;

use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::trace::Event;

use super::answer::{Answered, Memo, answer, moment};
use super::asked::{AskKey, ask_key, unanswerable_key};
use super::candidates::{Acts, At, Candidate, Firsts, Tally, act_key, humans};
use super::cutoff::{cutoffs, evidence_age};
use super::families::beliefs::LeftSomewhere;
use super::families::unanswerable::{
    Keyed, Sources, Sweep, absent_variants, looks_like, unseen_at_start,
};
use super::families::{FAMILIES, answer_text, of, owner};
use super::index::Index;
use super::model::*;
use super::phrasing::Phrase;
use super::standing::Standing;
use super::text::Namer;
use super::wording::MISSED;
use super::world;

/// Mixed into the seed for the phrasing stream.
const PHRASING_STREAM: u64 = 0x7068_7261_7365;

/// The share of QA samples that are unanswerable (at most; as LongMemEval
/// has 6% abstention questions and LoCoMo 22% adversarial ones).
pub const UNANSWERABLE_SHARE: (usize, usize) = (1, 10);

/// Mixed into the seed for the unanswerable family's choices and
/// phrasings: streams of their own, so that adding the family changed no
/// other family's questions.
const UNANSWERABLE_STREAM: u64 = 0x0061_6273_7461_696e;
const UNANSWERABLE_WORDS: u64 = 0x6162_7377_6f72_6473;

/// Mines QA samples at every cutoff: at most one per family per cutoff,
/// never the same question with the same answer twice; each with its world
/// answer ([`super::world`]).
pub fn mine_qa(ix: &Index, seed: u64, ask: Asking) -> Vec<QaSample> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // A stream of its own, so that the wording never changes which
    // questions are asked.
    let mut words = ChaCha8Rng::seed_from_u64(seed ^ PHRASING_STREAM);
    let namer = Namer::new(ix.scene);
    // Only looked up: a hash set.
    let mut asked: HashSet<AskKey> = HashSet::new();
    let cuts = cutoffs(ix);
    // Room for the most a sweep asks (one a family a cutoff, the false
    // premises' row among them): the samples are not copied again as the
    // list grows (at 56 days they are megabytes, far past the cache);
    // room never written is address space, not memory.
    let mut out = Vec::with_capacity(cuts.len() * FAMILIES.len());
    let humans = humans(ix);
    let everything = Index::all_seeing(ix.scene, ix.events, ix.tables.initial.clone());
    let household = ask == Asking::Household;
    // Where acts and habits are drawn from: what the robot perceived, or
    // everything that happened.
    let drawn = if household { &everything } else { ix };
    let firsts = Firsts::new(drawn, ix, &humans);
    let all_acts: Vec<(&Event, &Act)> = drawn.acts(u64::MAX).collect();
    let mut world_memo = Memo::default();
    let keys: Vec<String> = all_acts.iter().map(|(e, a)| act_key(e, a)).collect();
    let saw: Vec<bool> = all_acts.iter().map(|(e, _)| ix.robot_saw(e)).collect();
    let mut tally = Tally::default();
    let mut memo = Memo::default();
    let mut abstain = ChaCha8Rng::seed_from_u64(seed ^ UNANSWERABLE_STREAM);
    let mut abstain_words = ChaCha8Rng::seed_from_u64(seed ^ UNANSWERABLE_WORDS);
    let absent = absent_variants(ix.scene);
    let unseen_at_start = unseen_at_start(ix);
    let sources = Sources {
        absent: &absent,
        unseen_at_start: &unseen_at_start,
        humans: &humans,
    };
    // Unanswerable samples are numbered apart (`u0001_abs`), so that the
    // other families keep their ids.
    let (mut answerable, mut unanswerable) = (0, 0);
    let mut standing = Standing::new(ix, &namer, household.then_some(&unseen_at_start[..]));
    let mut sweep = Sweep::default();
    let mut left = LeftSomewhere::new(ix.located());
    for cutoff in cuts {
        let upto = all_acts.partition_point(|(e, _)| e.id < cutoff.event);
        tally.advance(&keys, upto);
        let acts = Acts {
            acts: &all_acts[..upto],
            keys: &keys[..upto],
            saw: &saw[..upto],
            tally: &tally,
        };
        standing.advance(&cutoff, &asked);
        let at = At {
            ix,
            n: &namer,
            cutoff: &cutoff,
            acts: &acts,
            firsts: &firsts,
            humans: &humans,
            left: &left.at(ix.stockroom(), cutoff.event),
        };
        // Every family's in table order (their draws come from one stream),
        // each kept in its own list: not moved again into one list of all
        // (the candidates grow with the months, and each is a few hundred
        // bytes to copy).
        let lists: Vec<Vec<Candidate>> = (FAMILIES.iter())
            .map(|f| f.entry.candidates(&at, &mut rng))
            .collect();
        for (f, candidates) in FAMILIES.iter().zip(&lists) {
            let family = f.family;
            debug_assert!(
                candidates.iter().all(|c| c.family == family),
                "a family lists only its own questions"
            );
            let (chosen, a) = if f.standing {
                // Asked of the household, the state questions of a cutoff
                // are two draws among all of them, so stale and unknown
                // answers come as often as the robot missed the changes.
                let open = standing.open(family);
                if open.is_empty() {
                    continue;
                }
                let (c, entry) = open[rng.random_range(0..open.len())];
                // Only answered entries are open.
                let Some((a, fam)) = standing.found(entry).cloned() else {
                    continue;
                };
                let chosen = Chosen::new(c, fam, &mut words);
                standing.asked(entry);
                (chosen, a)
            } else {
                // The first settled and not asked yet ([`first_taken`]):
                // a uniform draw that answers a few candidates, not all of
                // them, whose number grows with the months.
                let found = first_taken((0..candidates.len()).collect(), &mut rng, |i| {
                    let c = &candidates[i];
                    let a = memo.answer(ix, &cutoff, &c.query)?;
                    // Asked of the household, what happened out of the
                    // robot's sight, where nothing it perceived bears on
                    // it, is not known, if an observer of every event
                    // knows it (never a choice between two: that would
                    // invite a guess).
                    if a.answer == Answer::Unknown
                        && (!household
                            || !c.options.is_empty()
                            || !world_memo
                                .answer(&everything, &cutoff, &c.query)
                                .is_some_and(|w| w.answer != Answer::Unknown))
                    {
                        return None;
                    }
                    let key = ask_key(&c.query, &a.answer, c.family, &cutoff);
                    (!asked.contains(&key)).then_some(a)
                });
                let Some((i, a)) = found else {
                    continue;
                };
                let c = &candidates[i];
                (Chosen::new(c, family, &mut words), a)
            };
            asked.insert(ask_key(&chosen.query, &a.answer, chosen.family, &cutoff));
            answerable += 1;
            // The robot missed it (asked of the household): an abstention
            // question, as LongMemEval marks them.
            let missed = a.answer == Answer::Unknown;
            let id = format!("q{answerable:04}{}", if missed { "_abs" } else { "" });
            let mut s = sample(ix, &namer, &cutoff, chosen, a, id);
            if missed {
                s.hedge = Some(MISSED.into());
            }
            out.push(s);
        }
        // An unanswerable question where that keeps them at most
        // UNANSWERABLE_SHARE of the questions so far: a kind drawn among
        // those with a candidate not asked yet, then one of its candidates.
        let (num, den) = UNANSWERABLE_SHARE;
        if (unanswerable + 1) * den > (answerable + unanswerable + 1) * num {
            continue;
        }
        // A kind is open with one candidate not asked yet, found by reading
        // it up to the first; only the kind drawn is read whole (the
        // candidates grow with the months, each a key to make).
        let kinds = sweep.candidates(ix, &sources, cutoff.event, unanswerable_key);
        let not_asked = |k: usize| kinds[k].iter().filter(|u| !asked.contains(&u.key));
        let open: Vec<usize> = (0..kinds.len())
            .filter(|&k| not_asked(k).next().is_some())
            .collect();
        let Some(&kind) = open.choose(&mut abstain) else {
            continue;
        };
        let kind: Vec<_> = not_asked(kind).collect();
        let Keyed {
            premise: u,
            query: q,
            key,
            ..
        } = kind[abstain.random_range(0..kind.len())];
        let Some(a) = answer(ix, &cutoff, q).filter(|a| a.answer == Answer::Unknown) else {
            continue;
        };
        let w = u.word(ix, &namer, &sources, cutoff.event);
        asked.insert(key.clone());
        standing.asked_elsewhere(q);
        unanswerable += 1;
        let phrasing = abstain_words.random_range(0..w.phrase.ways.len());
        let mut s = sample(
            ix,
            &namer,
            &cutoff,
            Chosen {
                family: looks_like(q),
                template: w.template,
                query: q.clone(),
                phrase: w.phrase,
                phrasing,
                options: vec![],
            },
            a,
            format!("u{unanswerable:04}_abs"),
        );
        // Its template names the generator (`unanswerable/where_is`), its
        // family the questions it looks like.
        s.template = format!("{}/{}", Family::Unanswerable.name(), w.template);
        s.hedge = Some(w.why);
        s.adversarial_answer = (!w.adversarial.is_empty()).then_some(w.adversarial);
        out.push(s);
    }
    world::settle(&everything, &namer, &mut out);
    out
}

/// Of the candidates `untried`, the first that `take` takes (with what
/// it gives), tried in a seeded random order: a uniform draw among those
/// it would take, trying only as many as it takes to find one.
fn first_taken<T>(
    mut untried: Vec<usize>,
    rng: &mut ChaCha8Rng,
    mut take: impl FnMut(usize) -> Option<T>,
) -> Option<(usize, T)> {
    while !untried.is_empty() {
        let i = untried.swap_remove(rng.random_range(0..untried.len()));
        if let Some(t) = take(i) {
            return Some((i, t));
        }
    }
    None
}

/// The candidate chosen, worded.
struct Chosen {
    family: Family,
    template: &'static str,
    query: Query,
    phrase: Phrase,
    phrasing: usize,
    options: Vec<String>,
}

impl Chosen {
    /// `c`, asked as a question of `family`, worded with the next of `words`.
    fn new(c: &Candidate, family: Family, words: &mut ChaCha8Rng) -> Self {
        let phrase = (c.phrase)();
        Chosen {
            family,
            template: c.template,
            query: c.query.clone(),
            phrasing: words.random_range(0..phrase.ways.len()),
            phrase,
            options: c.options.clone(),
        }
    }
}

fn sample(
    ix: &Index,
    namer: &Namer,
    cutoff: &Cutoff,
    c: Chosen,
    a: Answered,
    id: String,
) -> QaSample {
    let phrasing = c.phrasing;
    let sessions: BTreeSet<String> = a
        .evidence
        .iter()
        .filter_map(|e| ix.session_of(*e).map(String::from))
        .collect();
    QaSample {
        id,
        family: c.family,
        memory_target: of(c.family).memory_target_of(&c.query),
        template: format!("{}/{}", c.family.name(), c.template),
        phrasing,
        cutoff: cutoff.clone(),
        answer_text: answer_text(namer, &c.query, &a.answer, &c.options),
        hedge: owner(&c.query).entry.hedge(ix, namer, &c.query, &a),
        answer_time: answer_time(ix, &c.query, &a.answer),
        adversarial_answer: None,
        question: c.phrase.render(phrasing),
        template_question: None,
        options: c.options,
        query: c.query,
        answer: a.answer,
        world: None,
        evidence_age: evidence_age(ix, &a.evidence, cutoff),
        evidence: a.evidence,
        sessions: sessions.into_iter().collect(),
    }
}

/// The moment an answer refers to besides itself: when a stale state was
/// last seen, when a request is due.
fn answer_time(ix: &Index, q: &Query, a: &Answer) -> Option<Moment> {
    let t = match a {
        Answer::LastSeen { seen_at, .. } => *seen_at,
        _ => owner(q).entry.answer_time(ix, q)?,
    };
    Some(moment(t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_draw_is_uniform_among_those_taken_and_stops_at_the_first() {
        let takes = [1, 4, 5, 8];
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut chosen = [0u32; 10];
        for _ in 0..8000 {
            let mut tried = vec![];
            let (i, ()) = first_taken((0..10).collect(), &mut rng, |i| {
                tried.push(i);
                takes.contains(&i).then_some(())
            })
            .expect("four are taken");
            // Each tried once, the last the one taken, none before it taken.
            let (last, before) = tried.split_last().expect("one tried");
            assert_eq!(*last, i);
            assert!(before.iter().all(|t| !takes.contains(t)), "{tried:?}");
            let mut once = tried.clone();
            once.sort_unstable();
            once.dedup();
            assert_eq!(once.len(), tried.len(), "{tried:?}");
            chosen[i] += 1;
        }
        // A quarter each (8000 draws: a standard deviation of 39).
        for (i, n) in chosen.iter().enumerate() {
            if takes.contains(&i) {
                assert!(n.abs_diff(2000) < 150, "{i}: {n} of 8000");
            } else {
                assert_eq!(*n, 0, "{i} is never taken");
            }
        }
        // None taken: every one tried, once.
        let mut tried = vec![];
        let none = first_taken((0..10).collect(), &mut rng, |i| {
            tried.push(i);
            None::<()>
        });
        tried.sort_unstable();
        assert_eq!((none, tried), (None, (0..10).collect::<Vec<_>>()));
    }
}
