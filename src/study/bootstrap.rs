//! The household bootstrap: a 95% interval for an accuracy pooled over
//! households, by resampling households (not questions, which share a
//! household's layout, people and habits and so are not independent).
//!
//! Method: the estimate is the share of questions answered exactly, pooled
//! over the households (Σ correct / Σ asked). Each of `B` resamples draws
//! as many households as there are, with replacement (ChaCha8 from the
//! seed), and recomputes the pooled share; the interval is the 2.5th and
//! 97.5th percentiles of those shares (linear interpolation between order
//! statistics). One set of draws serves every cell, so cells are compared
//! on the same resamples. A resample whose households asked no question of
//! a cell does not count for that cell.

use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

/// An accuracy with its interval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stat {
    /// Questions asked, and households that asked any.
    pub n: u64,
    pub households: usize,
    pub mean: f64,
    pub lo: f64,
    pub hi: f64,
}

/// `B` draws of household indexes.
#[derive(Debug, Clone)]
pub struct Resamples {
    households: usize,
    draws: Vec<Vec<usize>>,
}

impl Resamples {
    pub fn new(households: usize, resamples: usize, seed: u64) -> Self {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let draws = if households == 0 {
            vec![]
        } else {
            (0..resamples)
                .map(|_| {
                    (0..households)
                        .map(|_| rng.random_range(0..households))
                        .collect()
                })
                .collect()
        };
        Resamples { households, draws }
    }

    /// The pooled share of `counts` (correct, asked) per household, with
    /// its interval; `None` if no household asked any.
    pub fn stat(&self, counts: &[(u64, u64)]) -> Option<Stat> {
        assert_eq!(counts.len(), self.households, "one count per household");
        let pooled = |idx: &mut dyn Iterator<Item = usize>| {
            let (k, n) = idx.fold((0, 0), |(k, n), i| (k + counts[i].0, n + counts[i].1));
            (n > 0).then(|| k as f64 / n as f64)
        };
        let mean = pooled(&mut (0..counts.len()))?;
        let mut shares: Vec<f64> = self
            .draws
            .iter()
            .filter_map(|d| pooled(&mut d.iter().copied()))
            .collect();
        shares.sort_by(f64::total_cmp);
        let (lo, hi) = if shares.is_empty() {
            (mean, mean)
        } else {
            (quantile(&shares, 0.025), quantile(&shares, 0.975))
        };
        Some(Stat {
            n: counts.iter().map(|c| c.1).sum(),
            households: counts.iter().filter(|c| c.1 > 0).count(),
            mean,
            lo,
            hi,
        })
    }
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
    fn quantiles_interpolate() {
        let v = [0.0, 1.0, 2.0, 3.0, 4.0];
        assert_eq!(quantile(&v, 0.0), 0.0);
        assert_eq!(quantile(&v, 1.0), 4.0);
        assert!((quantile(&v, 0.025) - 0.1).abs() < 1e-12);
        assert_eq!(quantile(&[2.5], 0.975), 2.5);
    }
}
