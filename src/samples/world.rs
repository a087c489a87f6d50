//! What was true, beside what the robot could know. A question's reference
//! answer is what the robot perceived (the last place it saw the keys, the
//! last time it saw Bob cook); its world answer is what an observer who
//! perceived every event would give (where the keys are, when Bob last
//! cooked). They differ exactly where the robot missed something, so world
//! accuracy, scored against the world answer, is what the robot's absences
//! cost a household: it falls as the robot sees less of the day, for every
//! reader, the oracle included.

use super::answer::same_answer;
use super::families::{answer_text, of, owner};
use super::index::Index;
use super::model::{Answer, Family, QaSample};
use super::text::Namer;

/// Whether a family asks about the household rather than about the robot's
/// own knowledge: not where it learnt something (source-aware), and not
/// whether it knows at all (unanswerable).
pub fn asks_the_world(f: Family) -> bool {
    of(f).world
}

/// Sets each question's [`QaSample::world`]: the answer from every event
/// before its cutoff, where it differs from the reference answer. A state's
/// world answer is its true value at the cutoff.
/// `all` is the all-seeing index of the trace. A question the robot
/// missed (reference answer unknown) takes its world answer, worded, as
/// its adversarial answer: what only a guess could give.
pub fn settle(all: &Index, n: &Namer, qa: &mut [QaSample]) {
    for q in qa.iter_mut().filter(|q| asks_the_world(q.family)) {
        let world = owner(&q.query).entry.world(all, &q.cutoff, &q.query);
        q.world = world.filter(|w| *w != Answer::Unknown && !same_answer(w, &q.answer));
        // A false premise keeps its own trap (a value it was not).
        if q.answer == Answer::Unknown && !q.is_unanswerable() {
            q.adversarial_answer = q
                .world
                .as_ref()
                .map(|w| answer_text(n, &q.query, w, &q.options));
        }
    }
}
