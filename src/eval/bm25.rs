//! Okapi BM25 over the robot's narrated events (k1 = 1.2, b = 0.75): the
//! flat text retrieval baseline.

use std::collections::{BTreeMap, HashMap};

/// Lower-cased alphanumeric words, ids split on `_`.
pub fn tokens(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Documents are read in blocks of this many, latest block first.
const BLOCK: usize = 128;

/// The longest document of each tier but the last: a household's
/// narrations are short acts (a median of 13 words) and long sights of a
/// whole room (a tenth over 300), and a long document's share of a score
/// is a fraction of a short one's, so a tier of long ones is mostly
/// passed over whole once the short ones have set the k-th best.
const TIERS: [u32; 4] = [10, 20, 60, 150];

#[derive(Default)]
pub struct Bm25 {
    /// Each word's number.
    words: HashMap<String, usize>,
    /// By word number: how many events' texts it is in.
    df: Vec<usize>,
    /// The distinct texts by length, shortest first (see [`TIERS`]).
    tiers: [Tier; TIERS.len() + 1],
    /// Each distinct text, as its words' numbers and frequencies: its
    /// number in its tier (of its length). A household says the same
    /// things day after day ("Ana took the milk."), and texts of the same
    /// words score alike, so each is scored once for all the events it
    /// narrates: the texts grow slower than the events over the weeks.
    texts: HashMap<Box<[(usize, u32)]>, u32>,
    /// Events added.
    events: usize,
    /// Their words.
    total_len: usize,
}

/// Distinct texts of one range of lengths.
#[derive(Default)]
struct Tier {
    /// By word number: the texts it is in and its frequency in each,
    /// in order, and what bounds its share of a score in each block.
    postings: Vec<Posting>,
    /// By text: its latest event and its length.
    docs: Vec<(u64, u32)>,
    /// By text: the earlier events it narrated, oldest first.
    earlier: Vec<Vec<u64>>,
    /// By block: its latest event.
    newest: Vec<u64>,
}

#[derive(Default)]
struct Posting {
    docs: Vec<(u32, u32)>,
    blocks: Vec<Block>,
    /// What bounds its share of any score.
    front: Front,
}

/// A word's documents in one block: where they start in its list, and
/// what bounds its share of a score there.
struct Block {
    block: usize,
    start: usize,
    front: Front,
    /// Its frequency in each document of the block, once it is in
    /// [`DENSE`] of them: a candidate's is then read, not searched for.
    /// A byte each, so that the reads touch few cache lines; a block where
    /// a frequency is over 255 has none.
    dense: Option<Box<[u8; BLOCK]>>,
}

/// Documents of a block a word is in before its frequencies are also kept
/// by document.
const DENSE: usize = 16;

/// The (frequency, length) pairs no other of a word's documents beats on
/// both (higher frequency, shorter document): a share of a score grows
/// with the one and falls with the other, so its largest is at one of them.
#[derive(Default)]
struct Front(Vec<(u32, u32)>);

impl Front {
    fn add(&mut self, f: u32, len: u32) {
        if !self.0.iter().any(|&(g, l)| g >= f && l <= len) {
            self.0.retain(|&(g, l)| !(f >= g && len <= l));
            self.0.push((f, len));
        }
    }

    /// The largest share `part` gives any of them.
    fn best(&self, part: impl Fn(u32, u32) -> f64) -> f64 {
        self.0
            .iter()
            .map(|&(f, len)| part(f, len))
            .fold(0.0, f64::max)
    }
}

/// The `k` best of the scored documents so far, best first.
struct Best {
    k: usize,
    top: Vec<(f64, u64)>,
}

impl Best {
    /// Best first; ties go to the later event.
    fn before(a: &(f64, u64), b: &(f64, u64)) -> bool {
        b.0.total_cmp(&a.0).then(b.1.cmp(&a.1)).is_lt()
    }

    /// Whether `x` is among the k best so far.
    fn offer(&mut self, x: (f64, u64)) -> bool {
        // Most offers lose to the k-th best: one comparison, not a search.
        if self.top.len() == self.k && !Self::before(&x, &self.top[self.k - 1]) {
            return false;
        }
        let at = self.top.partition_point(|y| Self::before(y, &x));
        self.top.insert(at, x);
        self.top.truncate(self.k);
        true
    }

    /// The k-th best, once there are `k`.
    fn last(&self) -> Option<(f64, u64)> {
        (self.top.len() == self.k).then(|| self.top[self.k - 1])
    }
}

impl Bm25 {
    pub fn add(&mut self, id: u64, text: &str) {
        let words = tokens(text);
        let len = u32::try_from(words.len()).expect("a document of fewer than 2^32 words");
        let mut tf: BTreeMap<usize, u32> = BTreeMap::new();
        for w in words {
            let next = self.words.len();
            let n = *self.words.entry(w).or_insert(next);
            if n == self.df.len() {
                self.df.push(0);
                for t in &mut self.tiers {
                    t.postings.push(Posting::default());
                }
            }
            *tf.entry(n).or_default() += 1;
        }
        for &w in tf.keys() {
            self.df[w] += 1;
        }
        self.events += 1;
        self.total_len += len as usize;
        let t = TIERS.iter().take_while(|&&most| len > most).count();
        let key: Box<[(usize, u32)]> = tf.into_iter().collect();
        let tier = &mut self.tiers[t];
        if let Some(&d) = self.texts.get(&key) {
            // Said before: the text now stands for its latest event.
            let (latest, _) = &mut tier.docs[d as usize];
            tier.earlier[d as usize].push(std::mem::replace(latest, id));
            let newest = &mut tier.newest[d as usize / BLOCK];
            *newest = (*newest).max(id);
            return;
        }
        let d = u32::try_from(tier.docs.len()).expect("fewer than 2^32 documents");
        self.texts.insert(key.clone(), d);
        let block = tier.docs.len() / BLOCK;
        for &(w, f) in &key {
            let p = &mut tier.postings[w];
            p.docs.push((d, f));
            match p.blocks.last_mut() {
                Some(b) if b.block == block => {
                    b.front.add(f, len);
                    let here = &p.docs[b.start..];
                    let byte = |f: u32| u8::try_from(f).ok();
                    match &mut b.dense {
                        Some(dense) => match byte(f) {
                            Some(f) => dense[d as usize % BLOCK] = f,
                            None => b.dense = None,
                        },
                        None if here.len() >= DENSE => {
                            let mut dense = Box::new([0; BLOCK]);
                            let fits = here.iter().all(|&(d, f)| {
                                byte(f).map(|f| dense[d as usize % BLOCK] = f).is_some()
                            });
                            b.dense = fits.then_some(dense);
                        }
                        None => {}
                    }
                }
                _ => p.blocks.push(Block {
                    block,
                    start: p.docs.len() - 1,
                    front: Front(vec![(f, len)]),
                    dense: None,
                }),
            }
            p.front.add(f, len);
        }
        tier.docs.push((id, len));
        tier.earlier.push(vec![]);
        match tier.newest.get_mut(block) {
            Some(x) => *x = (*x).max(id),
            None => tier.newest.push(id),
        }
    }

    /// The `k` best documents for `query`, best first; ties go to the
    /// later event.
    ///
    /// Exact, but not exhaustive. Every bound is summed as a score is, in
    /// the query's order, from shares each never below the real one; every
    /// step is monotone, so a bound is never below a score it bounds.
    /// - Which tiers are read: each tier of lengths, shortest first, as
    ///   below with its own bounds, towards the same k best; in a tier of
    ///   long documents no word may lead once the short ones have set the
    ///   k-th best, and the tier is passed over whole.
    /// - Which blocks are read (MaxScore over the whole history): the words
    ///   least able to score anywhere stop leading while a document with
    ///   only such words could not reach the k-th best so far; the blocks
    ///   the leading words are in are read, latest first, and the others'
    ///   postings looked up there.
    /// - Which blocks are scored (block-max): not one whose best possible
    ///   score does not beat the k-th best so far (a tie loses to the
    ///   later event, already read).
    /// - Which documents are scored (MaxScore within the block): those of
    ///   the words that could lift a document into the k best alone; the
    ///   other words are looked up for those documents only.
    ///
    /// Reading the blocks best bound first instead was tried: more work,
    /// as the bounds are loosest where many documents mix.
    pub fn top(&self, query: &str, k: usize) -> Vec<u64> {
        let n = self.events as f64;
        if n == 0.0 || k == 0 {
            return vec![];
        }
        let avg = self.total_len as f64 / n;
        // The query's known words, in order (repeats count).
        let known: Vec<usize> = tokens(query)
            .iter()
            .filter_map(|w| self.words.get(w).copied())
            .collect();
        // Its distinct words, with idf; each query word's place among them.
        let mut words = known.clone();
        words.sort_unstable();
        words.dedup();
        let slot: Vec<usize> = known
            .iter()
            .map(|w| words.binary_search(w).expect("a query word"))
            .collect();
        let idf: Vec<f64> = words
            .iter()
            .map(|w| {
                let df = self.df[*w] as f64;
                ((n - df + 0.5) / (df + 0.5) + 1.0).ln()
            })
            .collect();
        let part = |idf: f64, f: u32, len: u32| -> f64 {
            let f = f64::from(f);
            idf * f * 2.2 / (f + 1.2 * (0.25 + 0.75 * f64::from(len) / avg))
        };
        let mut best = Best { k, top: vec![] };
        // Shortest first: they set the k-th best the longer ones must beat.
        for tier in &self.tiers {
            tier.read(&words, &slot, &idf, &part, &mut best);
        }
        best.top.into_iter().map(|(_, id)| id).collect()
    }
}

impl Tier {
    /// Offers `best` this tier's documents that could be among its k best
    /// (see [`Bm25::top`]).
    fn read(
        &self,
        words: &[usize],
        slot: &[usize],
        idf: &[f64],
        part: &dyn Fn(f64, u32, u32) -> f64,
        best: &mut Best,
    ) {
        // The bound of a document with only the words `counts` takes, from
        // the shares `of` them.
        let bound = |of: &[f64], counts: &dyn Fn(usize) -> bool| -> f64 {
            slot.iter().filter(|&&i| counts(i)).map(|&i| of[i]).sum()
        };
        // Each word's largest share anywhere; the words by it, least first.
        let most: Vec<f64> = (0..words.len())
            .map(|i| {
                self.postings[words[i]]
                    .front
                    .best(|f, len| part(idf[i], f, len))
            })
            .collect();
        let mut by_most: Vec<usize> = (0..words.len()).collect();
        by_most.sort_by(|&a, &b| most[a].total_cmp(&most[b]));
        let mut leads = vec![true; words.len()];
        let mut led_for = f64::NEG_INFINITY;
        // Each distinct word's next block to read, counting down; the
        // entry of each word in this block and its largest share.
        let mut next: Vec<usize> = words
            .iter()
            .map(|w| self.postings[*w].blocks.len())
            .collect();
        let mut here: Vec<Option<&Block>> = vec![None; words.len()];
        let mut share = vec![0.0; words.len()];
        let mut acc = [0.0f64; BLOCK];
        let mut cand = [false; BLOCK];
        // Each candidate's length, read once from the tier's list.
        let mut len = [0u32; BLOCK];
        let mut list: Vec<usize> = Vec::with_capacity(BLOCK);
        let mut order: Vec<usize> = Vec::with_capacity(words.len());
        let mut lazy = vec![false; words.len()];
        loop {
            if let Some((f, _)) = best.last()
                && f > led_for
            {
                led_for = f;
                for &i in &by_most {
                    if leads[i] {
                        leads[i] = false;
                        if bound(&most, &|j| !leads[j]) >= f {
                            leads[i] = true;
                            break;
                        }
                    }
                }
            }
            let Some(block) = (0..words.len())
                .filter(|&i| leads[i] && next[i] > 0)
                .map(|i| self.postings[words[i]].blocks[next[i] - 1].block)
                .max()
            else {
                break;
            };
            for (i, w) in words.iter().enumerate() {
                // Past the later blocks a word not leading is in, skipped
                // (searched for only when there are some: a common word is
                // in every block).
                let blocks = &self.postings[*w].blocks;
                if next[i] > 0 && blocks[next[i] - 1].block > block {
                    next[i] = blocks[..next[i]].partition_point(|b| b.block <= block);
                }
                here[i] = next[i]
                    .checked_sub(1)
                    .map(|j| &blocks[j])
                    .filter(|b| b.block == block);
                if let Some(b) = here[i] {
                    share[i] = b.front.best(|f, len| part(idf[i], f, len));
                    next[i] -= 1;
                }
            }
            // Whether a document whose score is at most `bound` could
            // still be among the k best: not once there are k and it
            // neither beats the k-th nor ties it with a later event.
            let open = |best: &Best, bound: f64| {
                best.last()
                    .is_none_or(|(f, id)| bound > f || (bound == f && self.newest[block] > id))
            };
            if !open(best, bound(&share, &|i| here[i].is_some())) {
                continue;
            }
            // The words least able to score here are lazy while the largest
            // score of a document with only such words stays out of the k
            // best; only the documents another word is in are candidates.
            order.clear();
            order.extend((0..words.len()).filter(|&i| here[i].is_some()));
            order.sort_by(|&a, &b| share[a].total_cmp(&share[b]));
            // The longest run of `order` that can be lazy, found by halving:
            // a bound only grows as words join it (each share is at least
            // 0, and rounding keeps the order of sums), so the runs that
            // can are the ones up to some length.
            let run = |lazy: &mut [bool], m: usize| {
                lazy.fill(false);
                order[..m].iter().for_each(|&i| lazy[i] = true);
            };
            let (mut can, mut cannot) = (0, order.len() + 1);
            while cannot - can > 1 {
                let m = (can + cannot) / 2;
                run(&mut lazy, m);
                if open(best, bound(&share, &|j| lazy[j])) {
                    cannot = m;
                } else {
                    can = m;
                }
            }
            run(&mut lazy, can);
            let base = block * BLOCK;
            let span = |i: usize, b: &Block| {
                let p = &self.postings[words[i]];
                &p.docs[b.start..p.blocks.get(next[i] + 1).map_or(p.docs.len(), |x| x.start)]
            };
            for i in (0..words.len()).filter(|&i| !lazy[i]) {
                for &(d, _) in here[i].map_or(&[][..], |b| span(i, b)) {
                    let j = d as usize - base;
                    if !cand[j] {
                        cand[j] = true;
                        list.push(j);
                        len[j] = self.docs[d as usize].1;
                    }
                }
            }
            // Scored word by word in the query's order, as a sum is, so
            // that the rounding is the same as ever.
            for &i in slot {
                let Some(b) = here[i] else { continue };
                let docs = span(i, b);
                if let (true, Some(dense)) = (lazy[i], &b.dense) {
                    for &j in &list {
                        if dense[j] > 0 {
                            acc[j] += part(idf[i], u32::from(dense[j]), len[j]);
                        }
                    }
                } else if !lazy[i] || list.len() * 4 >= docs.len() {
                    for &(d, f) in docs {
                        let j = d as usize - base;
                        if cand[j] {
                            acc[j] += part(idf[i], f, len[j]);
                        }
                    }
                } else {
                    for &j in &list {
                        if let Ok(x) = docs.binary_search_by_key(&((base + j) as u32), |p| p.0) {
                            acc[j] += part(idf[i], docs[x].1, len[j]);
                        }
                    }
                }
            }
            for j in list.drain(..) {
                // The text's events, latest first, while they make the k
                // best (an earlier one loses a tie to a later).
                let d = base + j;
                let mut ids =
                    std::iter::once(self.docs[d].0).chain(self.earlier[d].iter().rev().copied());
                while ids.next().is_some_and(|id| best.offer((acc[j], id))) {}
                (acc[j], cand[j]) = (0.0, false);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn ranks_by_rare_shared_words() {
        let mut b = Bm25::default();
        b.add(1, "Alice went to the fridge.");
        b.add(2, "Bob put the red mug in the cabinet.");
        b.add(3, "Alice put the blue mug on the table.");
        assert_eq!(b.top("where is the red mug", 2), vec![2, 3]);
        assert_eq!(b.top("fridge", 5), vec![1]);
        assert!(b.top("nothing matches", 5).is_empty());
    }

    /// Every document scored, as before the pruning: the reference.
    fn exhaustive(docs: &[(u64, &str)], query: &str, k: usize) -> Vec<u64> {
        let docs: Vec<(u64, Vec<String>)> = docs.iter().map(|(id, t)| (*id, tokens(t))).collect();
        let n = docs.len() as f64;
        let avg = docs.iter().map(|(_, w)| w.len()).sum::<usize>() as f64 / n;
        let q = tokens(query);
        let dfs: Vec<f64> = q
            .iter()
            .map(|w| docs.iter().filter(|(_, d)| d.contains(w)).count() as f64)
            .collect();
        let mut scored: Vec<(f64, u64)> = docs
            .iter()
            .map(|(id, words)| {
                let s: f64 = q
                    .iter()
                    .zip(&dfs)
                    .filter_map(|(w, &df)| {
                        let f = words.iter().filter(|x| *x == w).count() as f64;
                        (f > 0.0).then(|| {
                            let idf = ((n - df + 0.5) / (df + 0.5) + 1.0).ln();
                            idf * f * 2.2 / (f + 1.2 * (0.25 + 0.75 * words.len() as f64 / avg))
                        })
                    })
                    .sum();
                (s, *id)
            })
            .filter(|(s, _)| *s > 0.0)
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.cmp(&a.1)));
        scored.into_iter().take(k).map(|(_, id)| id).collect()
    }

    /// `b` ranks each of `queries` at each of `ks` as scoring every one
    /// of `docs` does.
    fn ranks_as_exhaustive(b: &Bm25, docs: &[(u64, String)], queries: &[&str], ks: &[usize]) {
        let docs: Vec<(u64, &str)> = docs.iter().map(|(i, t)| (*i, t.as_str())).collect();
        for query in queries {
            for &k in ks {
                assert_eq!(
                    b.top(query, k),
                    exhaustive(&docs, query, k),
                    "{query:?} top {k}"
                );
            }
        }
    }

    #[test]
    fn pruning_gives_the_exhaustive_ranking() {
        use rand::{Rng, SeedableRng};
        // Common words in most documents, rare ones in few, repeats and ties.
        let common = ["the", "robot", "saw", "in", "on"];
        let rare = ["mug", "fridge", "alice", "bob", "lamp", "sofa", "tv", "key"];
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut b = Bm25::default();
        let mut docs = vec![];
        for id in 1..=400u64 {
            let words: Vec<&str> = (0..rng.random_range(1..9))
                .map(|_| {
                    if rng.random_bool(0.6) {
                        common[rng.random_range(0..common.len())]
                    } else {
                        rare[rng.random_range(0..rare.len())]
                    }
                })
                .collect();
            docs.push((id, words.join(" ")));
            b.add(id, &words.join(" "));
        }
        ranks_as_exhaustive(
            &b,
            &docs,
            &[
                "where is the mug",
                "the the robot",
                "alice alice fridge on the sofa",
                "key",
                "nothing here",
                "tv lamp bob in the",
            ],
            &[1, 5, 50],
        );
        assert!(b.top("mug", 0).is_empty());
    }

    #[test]
    fn a_word_said_over_255_times_in_a_document_is_counted_whole() {
        // A word's frequencies are kept a byte each once it is in many of
        // a block's documents; a frequency past a byte drops them, when it
        // comes after they were made and before, and the ranking is still
        // exact. Every document long, so all are in one tier.
        let filler = ["word"; 160].join(" ");
        let mut b = Bm25::default();
        let mut docs = vec![];
        for id in 0..3 * BLOCK as u64 {
            let milk = match id {
                40 | 140 => 300,
                141 => 256,
                _ => 1 + id % 3,
            };
            let text = format!(
                "the {} fridge {id} {filler}",
                ["milk"; 300][..milk as usize].join(" ")
            );
            b.add(id, &text);
            docs.push((id, text));
        }
        let queries = ["milk", "the milk fridge", "fridge 140 milk", "milk 7"];
        ranks_as_exhaustive(&b, &docs, &queries, &[1, 3, 10]);
        let t = &b.tiers[TIERS.len()];
        assert_eq!(t.docs.len(), 3 * BLOCK, "one tier");
        let blocks = &t.postings[b.words["milk"]].blocks;
        let dense: Vec<bool> = blocks.iter().map(|x| x.dense.is_some()).collect();
        assert_eq!(
            dense,
            [false, false, true],
            "bytes only where every frequency fits"
        );
    }

    #[test]
    fn long_queries_over_many_blocks_give_the_exhaustive_ranking() {
        use rand::{Rng, SeedableRng};
        // A household's narrations: the same few phrasings day after day,
        // so that most blocks hold every word of a long query somewhere,
        // and the lazy words are looked up for a few candidates alone.
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let who = ["alice", "bob", "lily", "the robot"];
        let what = ["put", "picked up", "set", "opened", "closed"];
        let thing = [
            "the milk",
            "the sourdough loaf",
            "the red mug",
            "the kettle",
            "the oven",
        ];
        let place = [
            "in the fridge",
            "on the counter",
            "in the bin",
            "on the table",
            "",
        ];
        let mut b = Bm25::default();
        let mut docs = vec![];
        for id in 1..=3000u64 {
            let mut text = format!(
                "{} {} {} {}",
                who[rng.random_range(0..who.len())],
                what[rng.random_range(0..what.len())],
                thing[rng.random_range(0..thing.len())],
                place[rng.random_range(0..place.len())]
            );
            if rng.random_bool(0.3) {
                text += &format!(" marked best before day {}", id / 60);
            }
            b.add(id, &text);
            docs.push((id, text));
        }
        ranks_as_exhaustive(
            &b,
            &docs,
            &[
                "When did alice last put the milk marked best before day 12 in the fridge?",
                "Which came first: (A) bob put the red mug on the table, or (B) lily opened the oven?",
                "Who was home when the robot put the sourdough loaf in the bin (day 40)?",
                "the the the milk",
                "how many times did the robot set the kettle",
            ],
            &[1, 5, 20],
        );
    }

    #[test]
    fn documents_of_every_length_give_the_exhaustive_ranking() {
        use rand::{Rng, SeedableRng};
        // Short acts among long sights of a room, in every tier, so that
        // the k best can be in any of them and long ones tie short ones.
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let things = [
            "the milk",
            "the red mug",
            "the kettle",
            "the oat milk",
            "the book",
            "the lamp",
            "the blue shirt",
            "the keys",
            "the bread",
            "the tv remote",
        ];
        let places = [
            "on the table",
            "in the fridge",
            "on the shelf",
            "in the drawer",
        ];
        let mut b = Bm25::default();
        let mut docs = vec![];
        for id in 1..=2500u64 {
            let text = match rng.random_range(0..4) {
                0 => format!("alice took {}", things[rng.random_range(0..things.len())]),
                1 => "bob waited".to_string(),
                _ => {
                    let mut t = String::from("the robot saw");
                    for _ in 0..rng.random_range(1..90) {
                        t += &format!(
                            " {} is {};",
                            things[rng.random_range(0..things.len())],
                            places[rng.random_range(0..places.len())]
                        );
                    }
                    t
                }
            };
            b.add(id, &text);
            docs.push((id, text));
        }
        let lengths: BTreeSet<u32> = b.tiers.iter().flat_map(|t| &t.docs).map(|d| d.1).collect();
        assert!(b.tiers.iter().all(|t| !t.docs.is_empty()), "{lengths:?}");
        ranks_as_exhaustive(
            &b,
            &docs,
            &[
                "Where is the oat milk now?",
                "what did alice take",
                "bob",
                "the red mug on the shelf in the drawer",
                "the the the is",
            ],
            &[1, 5, 30],
        );
    }

    #[test]
    fn texts_said_again_rank_as_every_event_scored() {
        // A household's routine: a few texts said over and over in a
        // seeded order, between texts said once; each repeat counts in
        // the words' document frequencies and ranks at its own event.
        let routine = [
            "Ana took the milk.",
            "Ben opened the fridge.",
            "Ana put the milk in the fridge.",
            "The robot saw: the fridge is closed; the milk is in the fridge.",
            "Ben said the milk is nearly finished.",
        ];
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut b = Bm25::default();
        let mut docs = vec![];
        for id in 1..=1500u64 {
            let text = match rng.random_range(0..9usize) {
                r @ 0..5 => routine[r].to_string(),
                r => format!("Ben moved mug {} to shelf {r} near the milk.", id % 40),
            };
            b.add(id, &text);
            docs.push((id, text));
        }
        ranks_as_exhaustive(
            &b,
            &docs,
            &[
                "milk",
                "the milk in the fridge",
                "is the milk finished",
                "mug 7",
                "shelf",
            ],
            &[1, 5, 30],
        );
    }

    #[test]
    fn ties_over_many_blocks_go_to_the_latest() {
        // Hundreds of equal scores across blocks: the k latest win, and
        // a longer or rarer document anywhere still ranks where it should.
        let mut b = Bm25::default();
        let mut docs = vec![];
        for id in 1..=700u64 {
            let text = match id % 97 {
                0 => "Ana poured the milk and the milk was cold.",
                13 => "Ben took the milk from the fridge in the kitchen.",
                _ if id % 2 == 0 => "Ana took the milk.",
                _ => "Ben sat on the sofa.",
            };
            docs.push((id, text));
            b.add(id, text);
        }
        for (query, k) in [
            ("milk", 5),
            ("the milk", 12),
            ("fridge milk", 3),
            ("sofa", 40),
        ] {
            assert_eq!(
                b.top(query, k),
                exhaustive(&docs, query, k),
                "{query:?} top {k}"
            );
        }
        assert_eq!(b.top("fridge", 2), vec![692, 595]);
    }
}
