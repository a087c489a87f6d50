//! The one trait a question family implements, and what its methods are
//! given and give back: what a standing question's answer reads, what of
//! a memory with typed tracks an answer needs, and what a family's own
//! checks see.

use rand_chacha::ChaCha8Rng;

use crate::generation::MemoryTarget;
use crate::ids::Id;
use crate::sim::Simulation;
use crate::trace::Key;

use crate::samples::answered::Answered;
use crate::samples::candidates::{At, Candidate};
use crate::samples::index::{Heard, Index};
use crate::samples::model::{Act, Answer, Certainty, Cutoff, Family, QaSample, Query, certainty};
use crate::samples::text::Namer;
use crate::samples::wording::answer_words;

/// What a question family does with its questions, from mining to
/// export: its module's entry in the table (`table.rs`), whose line says
/// what the family is (its name, the [`Query`] kinds it asks, its
/// templates, its tags). Methods keyed by a query are asked of the family
/// that asks it; those keyed by a sample, of the sample's family. A family
/// may ask no query of its own: hidden state is the current-state
/// question's when its answer may have changed, unanswerable asks other
/// families' questions with a false premise.
pub trait QuestionFamily: Sync {
    /// Its questions at a cutoff (a family whose questions do not stand).
    fn candidates<'c>(&self, _at: &At<'c, '_>, _rng: &mut ChaCha8Rng) -> Vec<Candidate<'c>> {
        vec![]
    }

    /// The questions a claim the robot heard raises (a standing family's).
    fn heard<'c>(&self, _ix: &'c Index, _n: &'c Namer, _h: &'c Heard) -> Vec<Candidate<'c>> {
        vec![]
    }

    /// What the answer to `q`, one of its standing questions, reads: it is
    /// answered again when that changes.
    fn reads(&self, _q: &Query) -> Reads {
        Reads::default()
    }

    /// A standing question's answer at cutoff `at`; `None` while it is
    /// not to be asked.
    fn settle(&self, ix: &Index, at: &Cutoff, q: &Query, _unseen: Unseen) -> Option<Answered> {
        let a = self.reference(ix, at, q)?;
        (a.answer != Answer::Unknown).then_some(a)
    }

    /// The family one of its questions answered `a` is filed under, when
    /// not its own.
    fn filed(&self, _a: &Answer) -> Option<Family> {
        None
    }

    /// Its false premises: whether nothing the robot perceived before
    /// `cutoff` bears on `q` (no observation or claim of the state, no
    /// claim by that person, no act by that actor). Then the answer is
    /// [`Answer::Unknown`]. A question that may never be unanswerable says
    /// no (its answer may still be unsettled).
    fn unsupported(&self, _ix: &Index, _cutoff: u64, _q: &Query) -> bool {
        false
    }

    /// The answer to `q` at `cutoff` where something bears on it; `None`
    /// when the history does not settle it.
    fn answer(&self, _ix: &Index, _cutoff: &Cutoff, _q: &Query) -> Option<Answered> {
        None
    }

    /// The reference answer: [`Answer::Unknown`] exactly when
    /// [`unsupported`](QuestionFamily::unsupported), else
    /// [`answer`](QuestionFamily::answer).
    fn reference(&self, ix: &Index, cutoff: &Cutoff, q: &Query) -> Option<Answered> {
        if self.unsupported(ix, cutoff.event, q) {
            return Some(Answered {
                answer: Answer::Unknown,
                evidence: vec![],
            });
        }
        self.answer(ix, cutoff, q)
    }

    /// Whether `a`, the answer to `q` at a cutoff, is its answer at every
    /// later cutoff too (a request seen done stays done): a standing
    /// question is then not answered again as what it reads grows.
    fn lasts(&self, _q: &Query, _a: &Answer) -> bool {
        false
    }

    /// How many entries before `cutoff` the one list behind `q`'s answer
    /// has, for a question answered from one such list (a habit): while it
    /// does not grow, the answer stays the same.
    fn basis(&self, _ix: &Index, _q: &Query, _cutoff: u64) -> Option<usize> {
        None
    }

    /// What was true: the answer `all`, the index of an observer of every
    /// event, gives.
    fn world(&self, all: &Index, cutoff: &Cutoff, q: &Query) -> Option<Answer> {
        self.reference(all, cutoff, q).map(|a| a.answer.surely())
    }

    /// An answer to `q` in words: what every built-in reader says (a value
    /// named as the attribute `q` names, else as a place).
    fn answer_text(&self, n: &Namer, q: &Query, a: &Answer, options: &[String]) -> String {
        let attr = q.attr().map_or("location", |a| a.as_str());
        answer_words(n, attr, a, options)
    }

    /// What qualifies an answer to `q`, apart from its words (when a
    /// stale state was last seen); `a` with the events it stands on.
    fn hedge(&self, _ix: &Index, n: &Namer, _q: &Query, a: &Answered) -> Option<String> {
        crate::samples::wording::hedge(n, &a.answer)
    }

    /// The moment an answer to `q` refers to besides itself (when a
    /// request is due), in trace seconds.
    fn answer_time(&self, _ix: &Index, _q: &Query) -> Option<u64> {
        None
    }

    /// What of a memory with typed tracks the answer to `q` reads.
    fn needs<'q>(&self, _q: &'q Query) -> Vec<Track<'q>> {
        vec![]
    }

    /// What `q`, one of its questions, exercises, where that is not the
    /// family's tag in the table.
    fn memory_target(&self, _q: &Query) -> Option<MemoryTarget> {
        None
    }

    /// LoCoMo's category of `q`, where not the family's.
    fn locomo_category(&self, _q: &Query) -> Option<u8> {
        None
    }

    /// LongMemEval's type of `q`, where not the family's.
    fn lme_type(&self, _q: &Query) -> Option<&'static str> {
        None
    }

    /// Its own checks of `q`, one of its questions, against the simulation
    /// at the cutoff; whether they covered the world answer (else it is
    /// checked against the all-seeing index).
    fn check(&self, _q: &QaSample, _at: &CheckAt, _fail: &mut dyn FnMut(String)) -> bool {
        false
    }
}

/// The check of a question whose answer is hedged wherever the robot could
/// have missed something (a last time, who changed a thing while someone
/// was out): said surely, it is the truth, so no world answer differs.
pub fn sure_is_true(q: &QaSample, fail: &mut dyn FnMut(String)) {
    if certainty(&q.answer) == Certainty::Sure
        && let Some(w) = &q.world
    {
        fail(format!("said surely, but every event gives {w:?}"));
    }
}

/// Whether the robot did not see a key at the start, asked of the
/// household (the standing state question of such a key is asked before
/// it is seen).
pub type Unseen<'a> = &'a dyn Fn(&Key) -> bool;

/// What a standing question's answer reads besides its own key's
/// observations: the claims of the claim's key, what the robot saw of the
/// claimed attribute since, the time (a request falling due).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Reads {
    pub claims: bool,
    pub seen: bool,
    pub due: bool,
}

impl Reads {
    /// The claims of its key.
    pub const CLAIMS: Reads = Reads {
        claims: true,
        seen: false,
        due: false,
    };
}

/// A part of a memory with typed tracks (ObsMem's): what it brings to a
/// question whose answer reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Track<'q> {
    /// Every observation of every attribute: the state track.
    States,
    /// Where the robot and those it perceived went, and when it docked:
    /// what tells a current view from one that may have changed since.
    Whereabouts,
    /// The observations of one attribute.
    State(&'q Id, &'q Id),
    /// The observations of a thing's place.
    Place(&'q Id),
    /// The events of an act.
    Act(&'q Act),
    /// The claims heard about an attribute: reports and preferences.
    Claims(&'q Id, &'q Id),
    /// The operations of a device's field.
    Device(&'q Id, &'q Id),
    /// The place actions of an object.
    Placed(&'q Id),
    /// A person's departures.
    Leaves(&'q Id),
    /// One event.
    Event(u64),
    /// What the actor of an event did from it on.
    ActorFrom(u64),
    /// The observations of any attribute of an entity after an event.
    SeenSince(&'q Id, u64),
    /// The requests about an entity heard after an event.
    RequestsSince(&'q Id, u64),
    /// Each person's last sign of presence up to an event.
    PresenceAt(u64),
}

impl Track<'_> {
    /// Whether it is a whole track, which only grows: its index can be
    /// kept and extended from question to question.
    pub fn whole(&self) -> bool {
        !matches!(
            self,
            Track::Event(_)
                | Track::ActorFrom(_)
                | Track::SeenSince(..)
                | Track::RequestsSince(..)
                | Track::PresenceAt(_)
        )
    }
}

/// What a family's own checks of a question see: the trace's index and
/// the simulation just before the question's cutoff.
pub struct CheckAt<'a> {
    pub ix: &'a Index<'a>,
    pub sim: &'a Simulation,
}
