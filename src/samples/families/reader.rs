//! What the words-only reader (`eval::words`) knows of a question when it
//! guesses what is asked: the words, the options, the time of asking, the
//! names it found, and the events it retrieved. Each family says how its
//! questions are told by a [`Reading`]: a cue in the words, and how the
//! query is then read from them and the events.

use crate::catalogue::schedules::Destination;
use crate::ids::Id;
use crate::scene::{Scene, SceneIndex};
use crate::trace::request::Action;
use crate::trace::{BROKEN, Claim, ClaimMode, Event, LEVEL, TEXT, clock_time};

use crate::samples::act::act_of;
use crate::samples::model::{Act, Cutoff, Query};

/// How a family's questions are told from their words. The reader tries
/// every family's readings in `rank` order (lowest first); the first whose
/// cue the question has is how it is read, whatever `parse` then finds.
#[derive(Clone, Copy)]
pub struct Reading {
    pub rank: u8,
    pub cue: fn(&Read) -> bool,
    pub parse: fn(&Read) -> Option<Query>,
}

/// A question as the words-only reader has it.
pub struct Read<'r> {
    pub question: &'r str,
    pub options: &'r [String],
    pub cutoff: &'r Cutoff,
    /// The question lower-cased, its punctuation blanked, padded with
    /// spaces: what cues are looked for in.
    pub text: String,
    /// The first person and the first thing the question names.
    pub person: Option<Id>,
    pub thing: Option<Id>,
    pub robot: Option<&'r Id>,
    /// The retrieved events, most relevant first.
    pub top: &'r [&'r Event],
    /// Every event the reader remembers, in order.
    pub events: &'r [Event],
    pub scene: Option<&'r Scene>,
    pub index: &'r SceneIndex,
    /// The remembered event that best matches some words (an option).
    pub best: &'r dyn Fn(&str) -> Option<&'r Event>,
}

impl Read<'_> {
    /// Whether the question has any of `cues`.
    pub fn has(&self, cues: &[&str]) -> bool {
        cues.iter().any(|c| self.text.contains(c))
    }

    /// Whether `e` is about the thing the question names, if it names one.
    pub fn about(&self, e: &Event) -> bool {
        self.thing.as_ref().is_none_or(|t| mentions_entity(e, t))
    }

    /// The retrieved action by `who` (or anyone), most relevant first.
    pub fn act_by(&self, who: Option<&Id>) -> Option<(&Event, Act)> {
        self.top
            .iter()
            .filter(|e| who.is_none_or(|p| &e.actor == p))
            .find_map(|e| Some((*e, act_of(&e.action)?)))
    }

    /// The first retrieved claim of `mode` (about the thing named, if one
    /// is), with its event.
    pub fn claim(&self, mode: ClaimMode) -> Option<(u64, Claim)> {
        self.top.iter().find_map(|e| match &e.action {
            Action::Say { claims, .. } => claims
                .iter()
                .find(|c| c.mode == mode && self.thing.as_ref().is_none_or(|t| &c.entity == t))
                .map(|c| (e.id, c.clone())),
            _ => None,
        })
    }

    /// The attribute asked about: a field of the device named that the
    /// question names, else open or closed, on or off, or where.
    pub fn attr(&self) -> Id {
        let field = self.thing.as_ref().and_then(|t| {
            let d = self.index.over(self.scene?).device(t)?;
            d.fields
                .keys()
                .find(|f| self.text.contains(&format!(" {} ", f.replace('_', " "))))
                .cloned()
        });
        if let Some(f) = field {
            return Id::new(&f);
        }
        Id::new(
            if self.has(&[" working", " broken", " out of order", " fixed"]) {
                BROKEN
            } else if self.has(&[" much ", " servings "]) {
                LEVEL
            } else if self.has(&[" written "]) {
                TEXT
            } else if self.has(&[" open ", " closed ", " shut "]) {
                "open"
            } else if self.has(&[" on or off ", " switched ", " running ", " off "]) {
                "power"
            } else {
                "location"
            },
        )
    }

    /// Where the question says someone went, if it says.
    pub fn going(&self) -> Option<Destination> {
        Destination::ALL
            .into_iter()
            .filter(|d| *d != Destination::Home)
            .find(|d| self.text.contains(d.phrase()) || self.text.contains(d.away()))
    }

    /// The day the question names: today, yesterday, or "day D".
    pub fn day(&self) -> Option<u32> {
        let text = &self.text;
        if text.contains(" today ") {
            Some(self.cutoff.day)
        } else if text.contains(" yesterday ") {
            self.cutoff.day.checked_sub(1)
        } else {
            text.split(" day ")
                .nth(1)?
                .split_whitespace()
                .next()?
                .parse()
                .ok()
        }
    }

    /// The first "day D at HH:MM" in the question.
    pub fn moment(&self) -> Option<(u32, String)> {
        let question = self.question;
        question.match_indices("day ").find_map(|(i, _)| {
            let mut w = question[i + 4..].split_whitespace();
            let day = w.next()?.parse().ok()?;
            (w.next()? == "at").then_some(())?;
            let at: String = w.next()?.chars().take(5).collect();
            (at.len() == 5 && at.as_bytes()[2] == b':').then_some((day, at))
        })
    }

    /// The retrieved event at the moment the question gives, by the person
    /// it names if one was retrieved, else by anyone.
    pub fn at_moment(&self) -> Option<&Event> {
        let (day, at) = self.moment()?;
        let when = |e: &Event| e.day == day && clock_time(e.t).starts_with(&at);
        let by = |e: &Event| self.person.as_ref().is_none_or(|p| &e.actor == p);
        self.top
            .iter()
            .find(|e| by(e) && when(e))
            .or_else(|| self.top.iter().find(|e| when(e)))
            .copied()
    }
}

/// Whether `e` is about `entity`: its action's arguments or a claim.
fn mentions_entity(e: &Event, entity: &Id) -> bool {
    match &e.action {
        Action::Say { claims, .. } => claims.iter().any(|c| &c.entity == entity),
        a => act_of(a).is_some_and(|x| {
            x.object.as_ref() == Some(entity) || x.target.as_ref() == Some(entity)
        }),
    }
}
