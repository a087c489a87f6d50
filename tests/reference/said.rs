//! What people told the robot: how they like things (preference), who
//! said what and whether it was seen since (source-aware), what they asked
//! it to do, by when, and whether it is done (commitment). Claims are the
//! structured `claims` of `say` events the robot heard.

use std::collections::BTreeMap;

use hearth::ids::Id;
use hearth::samples::{Answer, Cutoff, Progress, Source};
use hearth::trace::request::Action;
use hearth::trace::{ClaimMode, Value};

use super::{Eyes, Got, Reference, Said, Unsettled, time_answer};

/// How long after its time a request not seen done counts as overdue.
pub const GRACE: u64 = 3600;

impl<'a> Reference<'a> {
    /// The claims of `mode` about `entity.attr` heard before `c`.
    fn claims(&self, eyes: Eyes, mode: ClaimMode, entity: &Id, attr: &Id, c: u64) -> Vec<Said<'a>> {
        self.heard(eyes, c)
            .into_iter()
            .filter(|h| h.claim.mode == mode && h.claim.entity == *entity && h.claim.attr == *attr)
            .collect()
    }

    /// How `holder` last said they like `entity.attr`.
    pub fn preference(
        &self,
        eyes: Eyes,
        holder: &Id,
        entity: &Id,
        attr: &Id,
        c: u64,
    ) -> Result<Got, Unsettled> {
        let said = self.claims(eyes, ClaimMode::Preference, entity, attr, c);
        Ok(
            match said
                .iter()
                .rfind(|h| h.claim.holder.as_ref() == Some(holder))
            {
                Some(h) => Got::new(
                    Answer::Value {
                        value: h.claim.value.clone(),
                    },
                    [h.event.id],
                ),
                None => Got::unknown(),
            },
        )
    }

    /// The one person whose latest word on `entity.attr` is that they like
    /// it `value`.
    pub fn who_prefers(
        &self,
        eyes: Eyes,
        entity: &Id,
        attr: &Id,
        value: &Value,
        c: u64,
    ) -> Result<Got, Unsettled> {
        let mut latest: BTreeMap<&Id, &Said> = BTreeMap::new();
        let said = self.claims(eyes, ClaimMode::Preference, entity, attr, c);
        for h in &said {
            if let Some(holder) = &h.claim.holder {
                latest.insert(holder, h);
            }
        }
        let who: Vec<_> = latest
            .iter()
            .filter(|(_, h)| h.claim.value == *value)
            .collect();
        match who[..] {
            [(holder, h)] => Ok(Got::new(
                Answer::Actor {
                    actor: (*holder).clone(),
                    stale: false,
                },
                [h.event.id],
            )),
            _ => Err(format!("{} people like it so", who.len())),
        }
    }

    /// Who told the robot `entity.attr = value` (its own words are not
    /// something it was told): one person, with every time they said it.
    pub fn who_said(
        &self,
        eyes: Eyes,
        entity: &Id,
        attr: &Id,
        value: &Value,
        c: u64,
    ) -> Result<Got, Unsettled> {
        let said: Vec<Said> = self
            .claims(eyes, ClaimMode::Fact, entity, attr, c)
            .into_iter()
            .filter(|h| h.claim.value == *value && *h.speaker != self.robot)
            .collect();
        let mut speakers: Vec<&Id> = said.iter().map(|h| h.speaker).collect();
        speakers.sort();
        speakers.dedup();
        match speakers[..] {
            [who] => Ok(Got::new(
                Answer::Actor {
                    actor: who.clone(),
                    stale: false,
                },
                said.iter().map(|h| h.event.id),
            )),
            _ => Err(format!("{} people said it", speakers.len())),
        }
    }

    /// The one claim about `entity` in the utterance `event`, heard before `c`.
    fn claim_in(&self, eyes: Eyes, event: u64, entity: &Id, c: u64) -> Result<Said<'a>, Unsettled> {
        let about: Vec<Said> = self
            .heard(eyes, c)
            .into_iter()
            .filter(|h| h.event.id == event && h.claim.entity == *entity)
            .collect();
        match <[Said; 1]>::try_from(about) {
            Ok([h]) => Ok(h),
            Err(v) => Err(format!(
                "{} claims about it heard in event {event}",
                v.len()
            )),
        }
    }

    /// Whether the claim made at `claim` was seen so since, seen
    /// otherwise, or only told; not asked once it was seen both ways
    /// (there, then moved), when two of the three are true.
    pub fn seen_or_told(
        &self,
        eyes: Eyes,
        claim: u64,
        entity: &Id,
        c: u64,
    ) -> Result<Got, Unsettled> {
        let h = self.claim_in(eyes, claim, entity, c)?;
        if h.claim.mode != ClaimMode::Fact {
            return Err("not a report".into());
        }
        let seen = self.sightings(eyes, entity, &h.claim.attr, c);
        // Seen so by the robot itself, still in view when told.
        if let Some((s, v)) = seen.iter().rfind(|(e, _)| *e < claim)
            && *v == h.claim.value
            && self.current(entity, &h.claim.attr, *s, v, claim)
        {
            return Err("the robot saw it so itself when told".into());
        }
        let since: Vec<(u64, Value)> = seen.into_iter().filter(|(e, _)| *e > claim).collect();
        let so = since.iter().filter(|(_, v)| *v == h.claim.value).count();
        let source = match (so, since.len()) {
            (_, 0) => Source::Told,
            (n, all) if n == all => Source::Seen,
            (0, _) => Source::Contradicted,
            (n, all) => {
                return Err(format!("seen so {n} times and otherwise {} since", all - n));
            }
        };
        // The evidence: the claim, and the latest sight of it since.
        Ok(Got::new(
            Answer::Source { source },
            std::iter::once(claim).chain(since.last().map(|(e, _)| *e)),
        ))
    }

    /// What `speaker` last told the robot `entity.attr` is.
    pub fn according_to(
        &self,
        eyes: Eyes,
        speaker: &Id,
        entity: &Id,
        attr: &Id,
        c: u64,
    ) -> Result<Got, Unsettled> {
        let said = self.claims(eyes, ClaimMode::Fact, entity, attr, c);
        Ok(match said.iter().rfind(|h| h.speaker == speaker) {
            Some(h) => Got::new(
                Answer::Value {
                    value: h.claim.value.clone(),
                },
                [h.event.id],
            ),
            None => Got::unknown(),
        })
    }

    /// The request about `entity` made in utterance `request`.
    fn request(
        &self,
        eyes: Eyes,
        request: u64,
        entity: &Id,
        c: u64,
    ) -> Result<Said<'a>, Unsettled> {
        let h = self.claim_in(eyes, request, entity, c)?;
        if h.claim.mode != ClaimMode::Request {
            return Err("not a request".into());
        }
        Ok(h)
    }

    /// What was asked of the robot about `entity`: the value asked for.
    pub fn asked(&self, eyes: Eyes, request: u64, entity: &Id, c: u64) -> Result<Got, Unsettled> {
        let h = self.request(eyes, request, entity, c)?;
        Ok(Got::new(
            Answer::Value {
                value: h.claim.value.clone(),
            },
            [request],
        ))
    }

    /// By when: the time the request's words say, and only then.
    pub fn due(&self, eyes: Eyes, request: u64, entity: &Id, c: u64) -> Result<Got, Unsettled> {
        let h = self.request(eyes, request, entity, c)?;
        let due = h.claim.due.ok_or("no time kept")?;
        let Action::Say { text, .. } = &h.event.action else {
            unreachable!("claims are said")
        };
        if !says(text, due) {
            return Err(format!("{text:?} does not say {}", clock(due)));
        }
        Ok(Got::new(time_answer(due), [request]))
    }

    /// Done (the requested value seen since), pending (before its time),
    /// overdue (an hour past a time the request said, not seen done); in
    /// between, and late for a request that said no time, unsettled.
    pub fn status(
        &self,
        eyes: Eyes,
        request: u64,
        entity: &Id,
        cutoff: &Cutoff,
    ) -> Result<Got, Unsettled> {
        let c = cutoff.event;
        let h = self.request(eyes, request, entity, c)?;
        let due = h.claim.due.ok_or("no time kept")?;
        let seen = self.sightings(eyes, entity, &h.claim.attr, c);
        if seen
            .iter()
            .rfind(|(e, _)| *e < request)
            .is_some_and(|(_, v)| *v == h.claim.value)
        {
            return Err("asked for what was last seen so already".into());
        }
        let done: Vec<u64> = seen
            .into_iter()
            .filter(|(e, v)| *e > request && *v == h.claim.value)
            .map(|(e, _)| e)
            .collect();
        let status = |status| Answer::Status { status };
        if !done.is_empty() {
            return Ok(Got::either(
                status(Progress::Done),
                done.into_iter().map(|e| vec![request, e]),
            ));
        }
        if cutoff.t < due {
            Ok(Got::new(status(Progress::Pending), [request]))
        } else if cutoff.t >= due + GRACE {
            let Action::Say { text, .. } = &h.event.action else {
                unreachable!("claims are said")
            };
            if !says(text, due) {
                return Err(format!("late by a time {text:?} does not say"));
            }
            Ok(Got::new(status(Progress::Overdue), [request]))
        } else {
            Err("due, within the hour of grace".into())
        }
    }
}

/// `HH:MM` of trace time `t`.
fn clock(t: u64) -> String {
    format!("{:02}:{:02}", t % 86_400 / 3600, t % 3600 / 60)
}

/// Whether `text` says the time of day of `t` (hour and minute), as
/// people say it: "20:30" or "8:30", "at eight", "by half past seven",
/// "until a quarter to nine", "eight o'clock", "8pm", "noon", "midnight".
/// An hour said without am or pm may be either.
pub fn says(text: &str, t: u64) -> bool {
    let (h, m) = ((t % 86_400 / 3600) as u32, (t % 3600 / 60) as u32);
    said_times(text).into_iter().any(|(hour, minute, half)| {
        minute == m
            && match half {
                Some(pm) => hour % 12 + if pm { 12 } else { 0 } == h,
                None => hour % 12 == h % 12,
            }
    })
}

/// The times of day `text` says: (hour, minute, whether pm if said).
fn said_times(text: &str) -> Vec<(u32, u32, Option<bool>)> {
    const NUMBERS: [&str; 13] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve",
    ];
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower
        .split(|ch: char| !(ch.is_alphanumeric() || ch == ':' || ch == '\''))
        .map(|w| w.trim_end_matches(':'))
        .filter(|w| !w.is_empty())
        .collect();
    let hour_word = |w: &str| -> Option<u32> {
        NUMBERS
            .iter()
            .position(|n| *n == w)
            .map(|i| i as u32)
            .or_else(|| w.parse().ok())
            .filter(|h| (1..=12).contains(h))
    };
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let next = |k: usize| words.get(i + k).copied().unwrap_or("");
        // Figures: 20:30, 8:30.
        if let Some((a, b)) = w.split_once(':')
            && let (Ok(hour), Ok(minute)) = (a.parse::<u32>(), b.parse::<u32>())
            && b.len() == 2
            && hour < 24
            && minute < 60
        {
            let half = match next(1) {
                "am" => Some(false),
                "pm" => Some(true),
                _ => None,
            };
            // "20:30", "08:30" and "0:30" are the 24-hour clock; "8:30",
            // "10:20" or "12:30" either half.
            let clock = (a.starts_with('0') || hour > 12).then_some(hour >= 12);
            out.push((hour, minute, half.or(clock)));
            continue;
        }
        // 8pm, 8 am.
        for (suffix, pm) in [("am", false), ("pm", true)] {
            if let Some(n) = w.strip_suffix(suffix).and_then(hour_word) {
                out.push((n, 0, Some(pm)));
            } else if next(1) == suffix
                && let Some(n) = hour_word(w)
            {
                out.push((n, 0, Some(pm)));
            }
        }
        match *w {
            "noon" | "midday" => out.push((12, 0, Some(true))),
            "midnight" => out.push((0, 0, Some(false))),
            _ => {}
        }
        // In words after at, by or until: "at eight", "by half past
        // seven", "until a quarter to nine", "at eight o'clock".
        if matches!(*w, "at" | "by" | "until") {
            let mut k = 1;
            if next(k) == "a" {
                k += 1;
            }
            let said = match (next(k), next(k + 1), next(k + 2)) {
                ("quarter", "past", n) => hour_word(n).map(|h| (h, 15)),
                ("half", "past", n) => hour_word(n).map(|h| (h, 30)),
                ("quarter", "to", n) => hour_word(n).map(|h| ((h + 11) % 12, 45)),
                // "at 7 am" is the am or pm above.
                (_, "am" | "pm", _) => None,
                (n, _, _) => hour_word(n).map(|h| (h, 0)),
            };
            if let Some((hour, minute)) = said {
                out.push((hour, minute, None));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::says;

    const H: u64 = 3600;

    #[test]
    fn times_said_in_figures_and_words() {
        assert!(says(
            "Robot, the wash will be done by 10:20: please",
            10 * H + 1200
        ));
        assert!(says(
            "please put my book on my desk by 20:30.",
            20 * H + 1800
        ));
        assert!(!says(
            "please put my book on my desk by 20:30.",
            8 * H + 1800
        ));
        assert!(says(
            "bring my mug to my desk tomorrow at a quarter to eight.",
            86_400 + 7 * H + 2700
        ));
        assert!(says("by half past seven", 19 * H + 1800));
        assert!(says("at eight", 20 * H));
        assert!(says("by 8pm", 20 * H));
        assert!(!says("by 8pm", 8 * H));
        assert!(!says("Wake me at 7 am.", 19 * H));
        assert!(says("Wake me at 7 am.", 7 * H));
        assert!(!says(
            "Robot, after dinner run the dishwasher on eco, please.",
            20 * H + 1800
        ));
        assert!(!says("at eighteen", 18 * H));
        assert!(!says("by 18:30", 8 * H + 1800));
    }
}
