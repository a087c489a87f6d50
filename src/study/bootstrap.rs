//! The household bootstrap: a 95% interval for an accuracy pooled over
//! households, by resampling *scenes* (not questions, which share a
//! household's layout, people and habits, and not seeds of one scene, which
//! share its layout and people too).
//!
//! Method: the estimate is the share of questions answered exactly, pooled
//! over the households (Σ correct / Σ asked). Households are grouped in
//! clusters, one per scene: the seeds of a built-in scene are one cluster,
//! each generated household (its own scene) is one. Each of `B` resamples
//! draws as many clusters as there are, with replacement (ChaCha8 from the
//! seed), takes every household of each drawn cluster, and recomputes the
//! pooled share; the interval is the 2.5th and 97.5th percentiles of those
//! shares (linear interpolation between order statistics). One set of draws
//! serves every cell, so cells, and agents, are compared on the same
//! resamples: the paired interval of a difference between two agents is the
//! percentile interval of the per-resample differences of their pooled
//! shares over the same questions. A resample whose households asked no
//! question of a cell does not count for that cell.
//!
//! A percentile interval over few clusters is too narrow (its resamples
//! take few distinct values, and a cluster bootstrap under-covers with few
//! clusters: Cameron, Gelbach and Miller 2008, "Bootstrap-based improvements
//! for inference with clustered errors"): a statistic over fewer than
//! [`MIN_CLUSTERS`] clusters carries `few_clusters`, and reports say so.

use std::collections::BTreeMap;

use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

/// Below this many clusters a percentile interval is too narrow to trust.
pub const MIN_CLUSTERS: usize = 10;

/// An accuracy (or a difference of two) with its interval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stat {
    /// Questions asked, households that asked any, and their clusters.
    pub n: u64,
    pub households: usize,
    #[serde(default)]
    pub clusters: usize,
    pub mean: f64,
    pub lo: f64,
    pub hi: f64,
}

impl Stat {
    /// Too few clusters for the interval to mean what it says.
    pub fn few_clusters(&self) -> bool {
        self.clusters < MIN_CLUSTERS
    }
}

/// `B` draws of clusters, each expanded to its households' indexes.
#[derive(Debug, Clone)]
pub struct Resamples {
    cluster_of: Vec<usize>,
    draws: Vec<Vec<usize>>,
}

impl Resamples {
    /// Each household a cluster of its own.
    pub fn new(households: usize, resamples: usize, seed: u64) -> Self {
        Self::clustered(&(0..households).collect::<Vec<_>>(), resamples, seed)
    }

    /// Households clustered by `keys` (one per household; households with
    /// equal keys are resampled together), clusters numbered in order of
    /// first appearance.
    pub fn clustered<K: Ord>(keys: &[K], resamples: usize, seed: u64) -> Self {
        let mut number = BTreeMap::new();
        let cluster_of: Vec<usize> = keys
            .iter()
            .map(|k| {
                let next = number.len();
                *number.entry(k).or_insert(next)
            })
            .collect();
        let mut members = vec![Vec::new(); number.len()];
        for (h, c) in cluster_of.iter().enumerate() {
            members[*c].push(h);
        }
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let draws = if members.is_empty() {
            vec![]
        } else {
            (0..resamples)
                .map(|_| {
                    (0..members.len())
                        .flat_map(|_| members[rng.random_range(0..members.len())].iter().copied())
                        .collect()
                })
                .collect()
        };
        Resamples { cluster_of, draws }
    }

    /// The pooled share of `counts` (correct, asked) per household, with
    /// its interval; `None` if no household asked any.
    pub fn stat(&self, counts: &[(u64, u64)]) -> Option<Stat> {
        self.interval(counts, |idx| pooled(counts, idx))
    }

    /// The paired difference `a - b` of two agents' pooled shares over the
    /// same questions (`a[h].1 == b[h].1`), on the same resamples.
    pub fn difference(&self, a: &[(u64, u64)], b: &[(u64, u64)]) -> Option<Stat> {
        assert!(
            a.iter().zip(b).all(|(x, y)| x.1 == y.1),
            "a paired difference needs the same questions"
        );
        self.interval(a, |idx: &mut dyn Iterator<Item = usize>| {
            let idx: Vec<usize> = idx.collect();
            Some(pooled(a, &mut idx.iter().copied())? - pooled(b, &mut idx.iter().copied())?)
        })
    }

    /// The statistic `f` over all households and its percentile interval
    /// over the resamples; `counts` says who asked.
    fn interval(
        &self,
        counts: &[(u64, u64)],
        f: impl Fn(&mut dyn Iterator<Item = usize>) -> Option<f64>,
    ) -> Option<Stat> {
        assert_eq!(
            counts.len(),
            self.cluster_of.len(),
            "one count per household"
        );
        let mean = f(&mut (0..counts.len()))?;
        let mut values: Vec<f64> = self
            .draws
            .iter()
            .filter_map(|d| f(&mut d.iter().copied()))
            .collect();
        values.sort_by(f64::total_cmp);
        let (lo, hi) = if values.is_empty() {
            (mean, mean)
        } else {
            (quantile(&values, 0.025), quantile(&values, 0.975))
        };
        let asked = || (0..counts.len()).filter(|h| counts[*h].1 > 0);
        let mut clusters: Vec<usize> = asked().map(|h| self.cluster_of[h]).collect();
        clusters.sort_unstable();
        clusters.dedup();
        Some(Stat {
            n: counts.iter().map(|c| c.1).sum(),
            households: asked().count(),
            clusters: clusters.len(),
            mean,
            lo,
            hi,
        })
    }
}

/// Σ correct / Σ asked over the households `idx`; `None` if none asked.
fn pooled(counts: &[(u64, u64)], idx: &mut dyn Iterator<Item = usize>) -> Option<f64> {
    let (k, n) = idx.fold((0, 0), |(k, n), i| (k + counts[i].0, n + counts[i].1));
    (n > 0).then(|| k as f64 / n as f64)
}

/// The `p` quantile of sorted `v`, interpolating between order statistics.
fn quantile(v: &[f64], p: f64) -> f64 {
    let x = p * (v.len() - 1) as f64;
    let (i, f) = (x.floor() as usize, x.fract());
    match v.get(i + 1) {
        Some(next) => v[i] + f * (next - v[i]),
        None => v[i],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pooled_mean_and_interval() {
        let r = Resamples::new(4, 1000, 7);
        let s = r.stat(&[(9, 10), (1, 10), (5, 10), (5, 10)]).unwrap();
        assert_eq!((s.n, s.households), (40, 4));
        assert!((s.mean - 0.5).abs() < 1e-12);
        assert!(
            s.lo < 0.5 && s.hi > 0.5 && s.lo >= 0.1 && s.hi <= 0.9,
            "{s:?}"
        );
        // Households that agree leave no spread.
        let same = r.stat(&[(3, 4), (3, 4), (6, 8), (0, 0)]).unwrap();
        assert!((same.lo - 0.75).abs() < 1e-12 && (same.hi - 0.75).abs() < 1e-12);
        assert_eq!(same.households, 3);
        // Same seed, same interval; nothing asked, nothing to say.
        assert_eq!(
            Resamples::new(4, 1000, 7).stat(&[(9, 10), (1, 10), (5, 10), (5, 10)]),
            Some(s)
        );
        assert_eq!(r.stat(&[(0, 0); 4]), None);
        assert_eq!(Resamples::new(0, 1000, 7).stat(&[]), None);
    }

    #[test]
    fn seeds_of_one_scene_resample_together() {
        // Five seeds of a scene the agent always gets right, five of one it
        // always gets wrong: as ten households the interval is narrow, as
        // the two scenes they are it spans everything.
        let counts: Vec<(u64, u64)> = (0..10).map(|h| (if h < 5 { 10 } else { 0 }, 10)).collect();
        let scenes: Vec<&str> = (0..10)
            .map(|h| if h < 5 { "studio" } else { "house" })
            .collect();
        let free = Resamples::new(10, 2000, 3).stat(&counts).unwrap();
        let tied = Resamples::clustered(&scenes, 2000, 3)
            .stat(&counts)
            .unwrap();
        assert_eq!((free.clusters, tied.clusters), (10, 2));
        assert!((free.mean - 0.5).abs() < 1e-12 && (tied.mean - 0.5).abs() < 1e-12);
        assert!(free.lo > 0.1 && free.hi < 0.9, "{free:?}");
        assert_eq!((tied.lo, tied.hi), (0.0, 1.0), "{tied:?}");
        assert!(tied.few_clusters() && !free.few_clusters());
        // Only clusters that asked count.
        let mut quiet = counts.clone();
        quiet[5..].fill((0, 0));
        let s = Resamples::clustered(&scenes, 200, 3).stat(&quiet).unwrap();
        assert_eq!((s.households, s.clusters), (5, 1));
    }

    #[test]
    fn paired_difference_sees_what_overlapping_intervals_hide() {
        // Households differ a lot; agent a gets one more right in each.
        let b: Vec<(u64, u64)> = (0..12).map(|h| (h % 10, 10)).collect();
        let a: Vec<(u64, u64)> = b.iter().map(|(k, n)| (k + 1, *n)).collect();
        let r = Resamples::new(12, 2000, 5);
        let (sa, sb) = (r.stat(&a).unwrap(), r.stat(&b).unwrap());
        assert!(
            sa.lo < sb.hi,
            "the marginal intervals overlap: {sa:?} {sb:?}"
        );
        let d = r.difference(&a, &b).unwrap();
        assert!((d.mean - 0.1).abs() < 1e-12);
        assert!(
            (d.lo - 0.1).abs() < 1e-12 && (d.hi - 0.1).abs() < 1e-12,
            "{d:?}"
        );
        // A difference that is noise straddles zero.
        let c: Vec<(u64, u64)> = b
            .iter()
            .enumerate()
            .map(|(h, (k, n))| (if h % 2 == 0 { k + 1 } else { k - k.min(&1) }, *n))
            .collect();
        let d = r.difference(&c, &b).unwrap();
        assert!(d.lo < 0.0 && d.hi > 0.0, "{d:?}");
        assert_eq!(r.difference(&[(0, 0); 12], &[(0, 0); 12]), None);
    }

    #[test]
    fn quantiles_interpolate() {
        let v = [0.0, 1.0, 2.0, 3.0, 4.0];
        assert_eq!(quantile(&v, 0.0), 0.0);
        assert_eq!(quantile(&v, 1.0), 4.0);
        assert!((quantile(&v, 0.025) - 0.1).abs() < 1e-12);
        assert_eq!(quantile(&[2.5], 0.975), 2.5);
    }
}
