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

/// A document: its event, its words' frequencies (by number, sorted) and
/// its length.
type Doc = (u64, Vec<(usize, u32)>, usize);

#[derive(Default)]
pub struct Bm25 {
    /// Each word's number.
    words: HashMap<String, usize>,
    /// By word number: the documents it is in (indexes into `docs`), its
    /// highest frequency in any of them and their shortest length, which
    /// bound its share of a score.
    postings: Vec<Posting>,
    docs: Vec<Doc>,
    total_len: usize,
}

#[derive(Default)]
struct Posting {
    docs: Vec<usize>,
    max_tf: u32,
    min_len: usize,
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

    fn offer(&mut self, x: (f64, u64)) {
        let at = self.top.partition_point(|y| Self::before(y, &x));
        if at < self.k {
            self.top.insert(at, x);
            self.top.truncate(self.k);
        }
    }

    /// The score a document must beat to enter, once there are `k`.
    fn floor(&self) -> Option<f64> {
        (self.top.len() == self.k).then(|| self.top[self.k - 1].0)
    }
}

impl Bm25 {
    pub fn add(&mut self, id: u64, text: &str) {
        let words = tokens(text);
        let mut tf: BTreeMap<usize, u32> = BTreeMap::new();
        for w in &words {
            let next = self.words.len();
            let n = *self.words.entry(w.clone()).or_insert(next);
            if n == self.postings.len() {
                self.postings.push(Posting {
                    min_len: usize::MAX,
                    ..Posting::default()
                });
            }
            *tf.entry(n).or_default() += 1;
        }
        for (&w, &f) in &tf {
            let p = &mut self.postings[w];
            p.docs.push(self.docs.len());
            p.max_tf = p.max_tf.max(f);
            p.min_len = p.min_len.min(words.len());
        }
        self.total_len += words.len();
        self.docs.push((id, tf.into_iter().collect(), words.len()));
    }

    /// The `k` best documents for `query`, best first; ties go to the
    /// later event.
    ///
    /// Exact, but not exhaustive (max-score pruning): the query's words
    /// are taken by their highest possible share of a score, largest
    /// first, and a document is scored when first met in a word's list;
    /// once the shares of the words left cannot lift an unmet document
    /// over the k-th best, the rest are skipped. Common words ("the",
    /// "robot") carry little weight, so their long lists are seldom read.
    pub fn top(&self, query: &str, k: usize) -> Vec<u64> {
        let n = self.docs.len() as f64;
        if n == 0.0 || k == 0 {
            return vec![];
        }
        let avg = self.total_len as f64 / n;
        // The query's known words, in order (repeats count), with idf.
        let q: Vec<(usize, f64)> = tokens(query)
            .iter()
            .filter_map(|w| {
                let w = *self.words.get(w)?;
                let df = self.postings[w].docs.len() as f64;
                Some((w, ((n - df + 0.5) / (df + 0.5) + 1.0).ln()))
            })
            .collect();
        let weight = |f: f64, len: usize| f * 2.2 / (f + 1.2 * (0.25 + 0.75 * len as f64 / avg));
        // A document first met in a word's list is in none of the lists
        // read before it: only the words not yet read can score (the rest
        // are skipped as absent, so the sum is the same, in the same order).
        let mut unread: Vec<bool> = vec![true; q.len()];
        let score = |d: usize, unread: &[bool]| -> f64 {
            let (_, tf, len) = &self.docs[d];
            q.iter()
                .zip(unread)
                .filter(|(_, u)| **u)
                .filter_map(|((w, idf), _)| {
                    let i = tf.binary_search_by_key(w, |(x, _)| *x).ok()?;
                    let f = f64::from(tf[i].1);
                    // As written, so that the rounding is the same as ever.
                    Some(idf * f * 2.2 / (f + 1.2 * (0.25 + 0.75 * *len as f64 / avg)))
                })
                .sum()
        };
        // Each word's bound: its count in the query times its largest
        // weight (the highest frequency in the shortest document).
        let mut bounds: BTreeMap<usize, f64> = BTreeMap::new();
        for (w, idf) in &q {
            let p = &self.postings[*w];
            *bounds.entry(*w).or_default() += idf * weight(f64::from(p.max_tf), p.min_len);
        }
        let mut lists: Vec<(f64, usize)> = bounds.into_iter().map(|(w, b)| (b, w)).collect();
        lists.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut left: f64 = lists.iter().map(|(b, _)| b).sum();
        let mut best = Best { k, top: vec![] };
        let mut met = vec![false; self.docs.len()];
        for (bound, w) in lists {
            // A margin for rounding: skip only what surely cannot enter.
            if best.floor().is_some_and(|f| left * (1.0 + 1e-9) < f) {
                break;
            }
            left -= bound;
            for &d in &self.postings[w].docs {
                if !std::mem::replace(&mut met[d], true) {
                    let s = score(d, &unread);
                    if s > 0.0 {
                        best.offer((s, self.docs[d].0));
                    }
                }
            }
            for (u, (x, _)) in unread.iter_mut().zip(&q) {
                if *x == w {
                    *u = false;
                }
            }
        }
        best.top.into_iter().map(|(_, id)| id).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn exhaustive(b: &Bm25, query: &str, k: usize) -> Vec<u64> {
        let n = b.docs.len() as f64;
        let avg = b.total_len as f64 / n;
        let q = tokens(query);
        let mut scored: Vec<(f64, u64)> = b
            .docs
            .iter()
            .map(|(id, tf, len)| {
                let s: f64 = q
                    .iter()
                    .filter_map(|w| {
                        let w = b.words.get(w)?;
                        let f = f64::from(tf.iter().find(|(x, _)| x == w)?.1);
                        let df = b.postings[*w].docs.len() as f64;
                        let idf = ((n - df + 0.5) / (df + 0.5) + 1.0).ln();
                        Some(idf * f * 2.2 / (f + 1.2 * (0.25 + 0.75 * *len as f64 / avg)))
                    })
                    .sum();
                (s, *id)
            })
            .filter(|(s, _)| *s > 0.0)
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.cmp(&a.1)));
        scored.into_iter().take(k).map(|(_, id)| id).collect()
    }

    #[test]
    fn pruning_gives_the_exhaustive_ranking() {
        use rand::{Rng, SeedableRng};
        // Common words in most documents, rare ones in few, repeats and ties.
        let common = ["the", "robot", "saw", "in", "on"];
        let rare = ["mug", "fridge", "alice", "bob", "lamp", "sofa", "tv", "key"];
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut b = Bm25::default();
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
            b.add(id, &words.join(" "));
        }
        for query in [
            "where is the mug",
            "the the robot",
            "alice alice fridge on the sofa",
            "key",
            "nothing here",
            "tv lamp bob in the",
        ] {
            for k in [1, 5, 50] {
                assert_eq!(
                    b.top(query, k),
                    exhaustive(&b, query, k),
                    "{query:?} top {k}"
                );
            }
        }
        assert!(b.top("mug", 0).is_empty());
    }
}
