//! How many requests are in flight: a fixed number, or (`auto`) as many as
//! the servers are seen to serve at once. A server that serves one request
//! at a time queues the rest, and a queued request's timeout runs while it
//! waits, so more in flight than the server serves only buys timeouts.
//!
//! `auto` starts at what the servers report about their slots (llama.cpp's
//! `/props`), else at one, and learns from throughput: replies per second
//! of server time (idle time left out) over a window at the current limit.
//! Now and then it tries one more in flight; the trial is kept only if
//! throughput rose at least halfway to what one more slot would give
//! (`L+1` over `L`), else the limit goes back and trials back off (twice
//! as many replies before the next). Reply sizes vary, hence the margin.
//! A `429`/`503`, or a timeout while others were in flight, lowers the
//! limit at once; no trial is made when a request queued behind the others
//! might time out.

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Replies at a limit before a trial of one more.
const PATIENCE: usize = 8;

/// How a request ended, for the limit.
pub enum Outcome {
    Served,
    /// `429` or `503`: the server is full.
    Busy,
    TimedOut,
    /// Anything else: says nothing about the server's slots.
    Other,
}

pub struct Limiter {
    auto: bool,
    cap: usize,
    timeout: Duration,
    state: Mutex<State>,
    wake: tokio::sync::Notify,
}

struct State {
    limit: usize,
    in_flight: usize,
    /// Replies per second at the limit last kept.
    base: Option<f64>,
    /// Whether the limit is on trial.
    trial: bool,
    /// The window: replies served, server time (idle left out).
    served: usize,
    busy: Duration,
    /// When the window's busy time last started counting, if anything is
    /// in flight.
    since: Option<Instant>,
    /// Replies since the limit last changed, and how many to wait for
    /// before a trial.
    calm: usize,
    patience: usize,
    /// Set once the servers reported their slots: no trials above them.
    reported: bool,
    /// Whether the first window (the warm-up) is over.
    warm: bool,
}

impl State {
    fn new(limit: usize) -> Self {
        State {
            limit,
            in_flight: 0,
            base: None,
            trial: false,
            served: 0,
            busy: Duration::ZERO,
            since: None,
            calm: 0,
            patience: PATIENCE,
            reported: false,
            warm: false,
        }
    }

    /// Server time in the window so far.
    fn busy(&self, now: Instant) -> Duration {
        self.busy + self.since.map_or(Duration::ZERO, |t| now - t)
    }

    fn restart(&mut self, now: Instant) {
        self.served = 0;
        self.busy = Duration::ZERO;
        self.since = (self.in_flight > 0).then_some(now);
    }
}

/// One request's place in flight.
pub struct Ticket(());

impl Limiter {
    pub fn new(auto: bool, cap: usize, timeout: Duration) -> Self {
        let cap = cap.max(1);
        Limiter {
            auto,
            cap,
            timeout,
            state: Mutex::new(State::new(if auto { 1 } else { cap })),
            wake: tokio::sync::Notify::new(),
        }
    }

    /// The servers reported `slots` at once: the limit is that, and only
    /// refusals and timeouts lower it.
    pub fn slots(&self, slots: usize) {
        if self.auto {
            let mut s = self.state.lock().expect("limit lock");
            s.limit = slots.clamp(1, self.cap);
            s.reported = true;
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
                    if s.in_flight == 0 {
                        s.since = Some(Instant::now());
                    }
                    s.in_flight += 1;
                    return Ticket(());
                }
            }
            woken.await;
        }
    }

    /// Gives the place back, learning from how the request ended.
    pub fn release(&self, _: Ticket, outcome: Outcome) {
        let now = Instant::now();
        let mut s = self.state.lock().expect("limit lock");
        s.in_flight -= 1;
        let others = s.in_flight;
        if s.in_flight == 0
            && let Some(t) = s.since.take()
        {
            s.busy += now - t;
        }
        if self.auto {
            learn(&mut s, self.cap, self.timeout, outcome, others, now);
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
    others: usize,
    now: Instant,
) {
    let set = |s: &mut State, to: usize, why: &str| {
        let to = to.clamp(1, cap);
        if to != s.limit {
            tracing::debug!("LLM concurrency {} -> {to} ({why})", s.limit);
            s.limit = to;
        }
        s.trial = false;
        s.calm = 0;
        s.restart(now);
    };
    let back_off = |s: &mut State| s.patience = s.patience.saturating_mul(2);
    match outcome {
        Outcome::Busy => {
            back_off(s);
            let to = (others + 1).min(s.limit).saturating_sub(1);
            set(s, to, "the server answered busy");
        }
        Outcome::TimedOut if others > 0 => {
            back_off(s);
            let to = s.limit / 2;
            set(s, to, "a request timed out behind others");
        }
        Outcome::TimedOut | Outcome::Other => {}
        Outcome::Served => {
            s.served += 1;
            s.calm += 1;
            let window = 2 * s.limit + 2;
            if s.served < window {
                return;
            }
            let rate = s.served as f64 / s.busy(now).as_secs_f64().max(1e-6);
            if s.trial {
                let l = s.limit as f64;
                let base = s.base.unwrap_or(rate);
                // Halfway between no gain and one more slot's worth.
                if rate >= base * (1.0 + 0.5 / (l - 1.0)) {
                    s.base = Some(rate);
                    s.patience = PATIENCE;
                    let to = s.limit;
                    set(s, to, "kept");
                } else {
                    back_off(s);
                    let to = s.limit - 1;
                    set(s, to, "no faster");
                }
                return;
            }
            // The first window warms the server up (its prompt cache is
            // cold): it sets no baseline.
            let warm = s.warm;
            s.warm = true;
            if warm {
                s.base = Some(s.base.map_or(rate, |b| 0.5 * b + 0.5 * rate));
            }
            let calm = s.calm;
            s.restart(now);
            s.calm = calm;
            // One more in flight must not wait past the timeout.
            let Some(base) = s.base else { return };
            let queued = (s.limit + 1) as f64 / base;
            if !s.reported
                && s.limit < cap
                && s.calm >= s.patience
                && queued < timeout.as_secs_f64() / 2.0
            {
                tracing::debug!("LLM concurrency: trying {}", s.limit + 1);
                s.limit += 1;
                s.trial = true;
                s.calm = 0;
                s.restart(now);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: Duration = Duration::from_secs(100);

    /// `n` replies of a server serving `slots` at once, each taking `secs`
    /// of its time, with the limit's requests always waiting.
    fn serve(s: &mut State, n: usize, slots: usize, secs: f64, t: &mut Instant) {
        for _ in 0..n {
            s.in_flight = s.limit;
            s.since.get_or_insert(*t);
            let served = s.limit.min(slots) as f64;
            *t += Duration::from_secs_f64(secs / served);
            s.in_flight -= 1;
            learn(s, 8, T, Outcome::Served, s.in_flight, *t);
        }
    }

    #[test]
    fn a_serial_server_is_tried_then_kept_at_one() {
        let (mut s, mut t) = (State::new(1), Instant::now());
        serve(&mut s, 40, 1, 1.0, &mut t);
        assert_eq!(s.limit, 1);
        assert!(s.patience > PATIENCE, "a trial was made and failed");
    }

    #[test]
    fn a_parallel_server_is_climbed_up_to_its_slots_and_the_cap() {
        let (mut s, mut t) = (State::new(1), Instant::now());
        serve(&mut s, 200, 3, 1.0, &mut t);
        assert_eq!(s.limit, 3);
        let (mut s, mut t) = (State::new(1), Instant::now());
        serve(&mut s, 400, 16, 1.0, &mut t);
        assert_eq!(s.limit, 8);
    }

    #[test]
    fn refusals_and_timeouts_with_others_in_flight_lower_the_limit() {
        let now = Instant::now();
        let mut s = State::new(6);
        learn(&mut s, 8, T, Outcome::Busy, 3, now);
        assert_eq!(s.limit, 3);
        learn(&mut s, 8, T, Outcome::TimedOut, 2, now);
        assert_eq!(s.limit, 1);
        // Alone, a timeout says nothing about slots.
        learn(&mut s, 8, T, Outcome::TimedOut, 0, now);
        assert_eq!(s.limit, 1);
        // Replies so slow that one queued behind another would time out:
        // no trial.
        let mut t = now;
        serve(&mut s, 100, 4, 40.0, &mut t);
        assert_eq!(s.limit, 1);
    }
}
