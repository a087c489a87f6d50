//! Planning `say`: words to those in earshot, and the claims they carry.

use super::plan::{Doer, Plan};
use super::view::WorldView;
use crate::ids::Id;
use crate::trace::{Claim, Rejection, RejectionCode};

/// Speech rate for utterance durations: 150 words a minute.
const WORDS_PER_SEC: f64 = 2.5;

impl WorldView<'_, '_> {
    /// Saying `text` to `to`, claiming `claims`; it takes as long as the words.
    pub(super) fn say(
        &self,
        d: Doer,
        text: &str,
        to: &[Id],
        claims: &[Claim],
    ) -> Result<Plan, Rejection> {
        let Doer { who, at, .. } = d;
        if text.trim().is_empty() {
            return Err(Rejection::new(
                RejectionCode::EmptyUtterance,
                format!("{who} said nothing"),
                "give the words in text".into(),
            ));
        }
        let hearers = self.earshot(at.room);
        for addressee in to {
            let a = self.resolve(addressee, "actor", |e| self.is_actor(e))?;
            let Ok((_, their_at, _, _)) = self.actors.get(a) else {
                return Err(Rejection::new(
                    RejectionCode::NotAnActor,
                    format!("{addressee} is not an actor"),
                    "address people or robots".into(),
                ));
            };
            if !hearers.contains(&their_at.room) {
                return Err(Rejection::new(
                    RejectionCode::NotInEarshot,
                    format!(
                        "{addressee} is in {} and cannot hear {who}",
                        self.id(their_at.room)
                    ),
                    format!("navigate_to {addressee} first, or leave them out of to"),
                ));
            }
        }
        for c in claims {
            let e = self.resolve(&c.entity, "entity", |_| true)?;
            if !self.has_attr(e, &c.attr) {
                return Err(Rejection::new(
                    RejectionCode::BadClaim,
                    format!("{} has no attribute {}", c.entity, c.attr),
                    "claim location of objects, position of actors, open of openables, or a device field".into(),
                ));
            }
        }
        let words = text.split_whitespace().count() as f64;
        Ok(Plan::new(
            (words / WORDS_PER_SEC).ceil().max(1.0) as u64,
            vec![],
        ))
    }
}
