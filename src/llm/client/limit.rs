//! How many requests are in flight: a fixed number, or (`auto`) as many as
//! the servers are seen to serve at once. A server that serves one request
//! at a time queues the rest, and a queued request's timeout runs while it
//! waits, so more in flight than the server serves only buys timeouts.
//!
//! `auto` starts at what the servers report about their slots (llama.cpp's
//! `/props`), else at one. It learns from reply times: a request's speed
//! is its work (completion tokens, plus a tenth of the prompt's) over its
//! time; a request served alone gives the baseline, and the requests that
//! overlapped at a limit of `L` show how much slower they ran. `L` over
//! that slowdown is how many the servers actually serve at once: near `L`,
//! one more is tried; below, the limit drops to it. A `429`/`503` or a
//! timeout while others were in flight lowers it at once. Upward probes
//! back off (twice as many replies before the next) each time one fails.

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Solo replies before the first probe upward.
const PATIENCE: usize = 4;

/// How a request ended, for the limit.
pub enum Outcome {
    /// Served, with its work (tokens, see the module comment).
    Served {
        work: f64,
    },
    /// `429` or `503`: the server is full.
    Busy,
    TimedOut,
    /// Anything else: says nothing about the server's slots.
    Other,
}

pub struct Limiter {
    auto: bool,
    cap: usize,
    /// A probe upward is not tried when a request queued behind one solo
    /// reply might time out.
    timeout: Duration,
    state: Mutex<State>,
    wake: tokio::sync::Notify,
}

struct State {
    limit: usize,
    in_flight: usize,
    /// Requests started so far: one that saw none start while it ran, and
    /// none in flight when it began, was served alone.
    started: u64,
    /// Work per second and seconds of a request served alone (averaged).
    solo: Option<(f64, f64)>,
    /// Slowdowns of overlapped replies at the current limit.
    round: Vec<f64>,
    /// Solo replies since the limit last changed, and how many to wait for
    /// before a probe upward.
    calm: usize,
    patience: usize,
}

/// One request's place in flight.
pub struct Ticket {
    start: Instant,
    started: u64,
    alone: bool,
}

impl Limiter {
    pub fn new(auto: bool, cap: usize, timeout: Duration) -> Self {
        let cap = cap.max(1);
        Limiter {
            auto,
            cap,
            timeout,
            state: Mutex::new(State {
                limit: if auto { 1 } else { cap },
                in_flight: 0,
                started: 0,
                solo: None,
                round: Vec::new(),
                calm: 0,
                patience: PATIENCE,
            }),
            wake: tokio::sync::Notify::new(),
        }
    }

    /// The servers reported `slots` at once: the limit starts there and
    /// never goes above it.
    pub fn slots(&self, slots: usize) {
        if self.auto {
            let mut s = self.state.lock().expect("limit lock");
            s.limit = slots.clamp(1, self.cap);
            s.patience = usize::MAX;
        }
    }

    /// The limit now.
    pub fn limit(&self) -> usize {
        self.state.lock().expect("limit lock").limit
    }

    /// Waits for a place in flight.
    pub async fn acquire(&self) -> Ticket {
        loop {
            let woken = self.wake.notified();
            tokio::pin!(woken);
            woken.as_mut().enable();
            {
                let mut s = self.state.lock().expect("limit lock");
                if s.in_flight < s.limit {
                    let alone = s.in_flight == 0;
                    s.in_flight += 1;
                    s.started += 1;
                    return Ticket {
                        start: Instant::now(),
                        started: s.started,
                        alone,
                    };
                }
            }
            woken.await;
        }
    }

    /// Gives the place back, learning from how the request ended.
    pub fn release(&self, t: Ticket, outcome: Outcome) {
        let mut s = self.state.lock().expect("limit lock");
        let others = s.in_flight - 1;
        s.in_flight -= 1;
        if self.auto {
            let elapsed = t.start.elapsed().as_secs_f64().max(1e-6);
            let alone = t.alone && s.started == t.started;
            learn(
                &mut s,
                self.cap,
                self.timeout,
                outcome,
                elapsed,
                alone,
                others,
            );
        }
        drop(s);
        self.wake.notify_waiters();
    }
}

fn learn(
    s: &mut State,
    cap: usize,
    timeout: Duration,
    outcome: Outcome,
    elapsed: f64,
    alone: bool,
    others: usize,
) {
    let lower = |s: &mut State, to: usize| {
        if to < s.limit {
            tracing::debug!("LLM concurrency {} -> {to}", s.limit);
            s.limit = to.max(1);
        }
        s.round.clear();
        s.calm = 0;
        s.patience = s.patience.saturating_mul(2);
    };
    match outcome {
        Outcome::Busy => lower(s, (others + 1).min(s.limit).saturating_sub(1)),
        Outcome::TimedOut if others > 0 => lower(s, s.limit / 2),
        Outcome::TimedOut | Outcome::Other => {}
        Outcome::Served { work } => {
            let speed = work.max(1.0) / elapsed;
            if alone {
                s.solo = Some(match s.solo {
                    None => (speed, elapsed),
                    Some((v, t)) => (0.7 * v + 0.3 * speed, 0.7 * t + 0.3 * elapsed),
                });
                s.calm += 1;
                let (_, secs) = s.solo.expect("just set");
                let safe = Duration::from_secs_f64(secs * 3.0) < timeout;
                if s.calm >= s.patience && s.limit < cap && safe && s.in_flight == 0 {
                    s.limit += 1;
                    s.calm = 0;
                    s.round.clear();
                    tracing::debug!("LLM concurrency: trying {}", s.limit);
                }
                return;
            }
            let Some((solo, _)) = s.solo else { return };
            s.round.push((solo / speed).max(1.0));
            if s.round.len() < 2 * s.limit {
                return;
            }
            let slowdown = s.round.iter().sum::<f64>() / s.round.len() as f64;
            let served = s.limit as f64 / slowdown;
            s.round.clear();
            if served > s.limit as f64 - 0.5 {
                if s.limit < cap && s.patience != usize::MAX {
                    s.limit += 1;
                    s.patience = PATIENCE;
                    tracing::debug!("LLM concurrency: trying {}", s.limit);
                }
            } else {
                lower(s, served.round() as usize);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> State {
        State {
            limit: 1,
            in_flight: 0,
            started: 0,
            solo: None,
            round: vec![],
            calm: 0,
            patience: PATIENCE,
        }
    }

    const T: Duration = Duration::from_secs(100);

    #[test]
    fn a_serial_server_is_probed_then_kept_at_one() {
        let mut s = state();
        for _ in 0..PATIENCE {
            learn(&mut s, 8, T, Outcome::Served { work: 10.0 }, 1.0, true, 0);
        }
        assert_eq!(s.limit, 2);
        // Two in flight on a server serving one: one waits the other's time.
        for e in [1.0, 2.0, 1.5, 2.0] {
            learn(&mut s, 8, T, Outcome::Served { work: 10.0 }, e, false, 1);
        }
        assert_eq!(s.limit, 1);
        assert_eq!(s.patience, 2 * PATIENCE);
    }

    #[test]
    fn a_parallel_server_is_climbed_up_to_the_cap() {
        let mut s = state();
        for _ in 0..PATIENCE {
            learn(&mut s, 3, T, Outcome::Served { work: 10.0 }, 1.0, true, 0);
        }
        for _ in 0..20 {
            learn(&mut s, 3, T, Outcome::Served { work: 10.0 }, 1.1, false, 1);
        }
        assert_eq!(s.limit, 3);
    }

    #[test]
    fn refusals_and_timeouts_with_others_in_flight_lower_the_limit() {
        let mut s = state();
        s.limit = 6;
        learn(&mut s, 8, T, Outcome::Busy, 0.1, false, 3);
        assert_eq!(s.limit, 3);
        learn(&mut s, 8, T, Outcome::TimedOut, 9.0, false, 2);
        assert_eq!(s.limit, 1);
        // Alone, a timeout says nothing about slots.
        learn(&mut s, 8, T, Outcome::TimedOut, 9.0, true, 0);
        assert_eq!(s.limit, 1);
        // A reply slower than a third of the timeout is not probed past.
        s.patience = 1;
        learn(&mut s, 8, T, Outcome::Served { work: 10.0 }, 40.0, true, 0);
        assert_eq!(s.limit, 1);
    }
}
