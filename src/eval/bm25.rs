//! Okapi BM25 over the robot's narrated events (k1 = 1.2, b = 0.75): the
//! flat text retrieval baseline.

use std::collections::{BTreeMap, BTreeSet};

/// Lower-cased alphanumeric words, ids split on `_`.
pub fn tokens(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

#[derive(Default)]
pub struct Bm25 {
    docs: Vec<(u64, BTreeMap<String, u32>, usize)>,
    /// The documents each word is in (indexes into `docs`): a query scores
    /// only the documents that share a word with it.
    postings: BTreeMap<String, Vec<usize>>,
    total_len: usize,
}

impl Bm25 {
    pub fn add(&mut self, id: u64, text: &str) {
        let mut tf: BTreeMap<String, u32> = BTreeMap::new();
        let words = tokens(text);
        for w in &words {
            *tf.entry(w.clone()).or_default() += 1;
        }
        for w in tf.keys() {
            self.postings
                .entry(w.clone())
                .or_default()
                .push(self.docs.len());
        }
        self.total_len += words.len();
        self.docs.push((id, tf, words.len()));
    }

    /// The `k` best documents for `query`, best first; ties go to the
    /// later event.
    pub fn top(&self, query: &str, k: usize) -> Vec<u64> {
        let n = self.docs.len() as f64;
        if n == 0.0 {
            return vec![];
        }
        let avg = self.total_len as f64 / n;
        let q = tokens(query);
        let sharing: BTreeSet<usize> = q
            .iter()
            .filter_map(|w| self.postings.get(w))
            .flatten()
            .copied()
            .collect();
        let mut scored: Vec<(f64, u64)> = sharing
            .into_iter()
            .map(|d| {
                let (id, tf, len) = &self.docs[d];
                let s: f64 = q
                    .iter()
                    .filter_map(|w| {
                        let f = f64::from(*tf.get(w)?);
                        let df = self.postings[w].len() as f64;
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
}
