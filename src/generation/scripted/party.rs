//! A party now and then (`rare.party`): the music goes on before the
//! guests come and off once they have gone; each guest's call is a visit
//! (`outside.rs`).

use super::prelude::*;

/// How loud a party is (the speaker's volume, where it has one).
const PARTY_VOLUME: i64 = 45;

/// Music on, said aloud: who is coming, and when.
pub(super) struct Party;

impl Activity for Party {
    fn direct(&self, _: &mut Scripted, x: &Stage, turns: &mut Vec<Turn>) -> Result<(), GenError> {
        let who = &x.host;
        let Some(speaker) = x.roles.device(Role::Audio).cloned() else {
            turns.push(turn(
                who,
                say(&[], "People are coming over tonight!".into()),
            ));
            return Ok(());
        };
        if has_field(x.s, &speaker, "power") {
            turns.push(turn(
                who,
                operate(speaker.clone(), "power", Value::Bool(true)),
            ));
        }
        if has_option(x.s, &speaker, "playing", "pop") {
            turns.push(turn(
                who,
                operate(speaker.clone(), "playing", Value::Text("pop".into())),
            ));
        }
        if has_field(x.s, &speaker, "volume") {
            turns.push(turn(
                who,
                operate(speaker.clone(), "volume", Value::Int(PARTY_VOLUME)),
            ));
        }
        turns.push(turn(
            who,
            say(
                &[],
                "Party tonight! Music on, everyone's on their way.".into(),
            ),
        ));
        Ok(())
    }
}

/// The guests have gone: music off.
pub(super) struct PartyEnd;

impl Activity for PartyEnd {
    fn direct(&self, _: &mut Scripted, x: &Stage, turns: &mut Vec<Turn>) -> Result<(), GenError> {
        let who = &x.host;
        if let Some(speaker) = x.roles.device(Role::Audio).cloned()
            && x.sim.field(speaker.as_str(), "power") == Some(Value::Bool(true))
        {
            turns.push(turn(who, operate(speaker, "power", Value::Bool(false))));
        }
        turns.push(turn(
            who,
            say(
                &[],
                "What a lovely party. The rest can wait until tomorrow.".into(),
            ),
        ));
        Ok(())
    }
}
