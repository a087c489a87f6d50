//! Free time: after lunch (once the host has put the morning's strays
//! back) and in the evening people sit down in the living room (the seats
//! beside the tv first) with a book, the tv or a hobby, and stay there
//! until something calls them away.

use super::prelude::*;

impl Scripted {
    /// Everyone takes a seat, the host first, one seat each while there
    /// are enough, in the order of `seats`.
    pub(super) fn sit_down(&mut self, x: &Stage, seats: &[Id], turns: &mut Vec<Turn>) {
        let mut order = x.humans.clone();
        order.sort_by_key(|h| *h != x.host);
        for (i, h) in order.iter().enumerate() {
            turns.push(turn(
                h,
                Goal::GoTo {
                    target: seats[i % seats.len()].clone(),
                },
            ));
        }
    }
}

/// The seats people sit on for free time: those in the tv's room first,
/// then the rest, in scene order.
pub(super) fn seats(s: Indexed<'_>, r: &Roles) -> Vec<Id> {
    let room_of = |id: &Id| s.fixture(id).map(|f| f.room);
    let tv_room = r.device(Role::Entertainment).and_then(room_of);
    let mut seats: Vec<Id> = r.fixtures(Role::Seating).to_vec();
    seats.sort_by_key(|f| room_of(f) != tv_room);
    seats
}

pub(super) struct Leisure;

impl Activity for Leisure {
    fn direct(
        &self,
        house: &mut Scripted,
        x: &Stage,
        turns: &mut Vec<Turn>,
    ) -> Result<(), GenError> {
        let seats = seats(x.s, x.roles);
        if seats.is_empty() {
            return Ok(());
        }
        let what = *pick(
            &mut house.rng,
            &[
                "I'm going to read for a while.",
                "Time for my book.",
                "I'll sit down for a bit.",
                "A quiet hour, finally.",
            ],
        );
        // The morning's strays go back first (the next round is at five).
        house.put_back_strays(x, turns);
        // A retired person at home spends the afternoon in front of the tv
        // (ATUS: about four and a half hours of tv a day after 65).
        let retired = x.humans.iter().find(|h| house.retired(h));
        // Seated first, then the tv on with the remote, so the afternoon
        // on the sofa is spent watching it.
        let remote = |d: &&Id| x.s.device(d).is_some_and(|d| d.remote);
        match (retired, x.roles.device(Role::Entertainment).filter(remote)) {
            (Some(who), Some(tv)) => {
                let (who, tv) = (who.clone(), tv.clone());
                turns.push(turn(
                    &who,
                    say(&[], "Let's see what's on this afternoon.".into()),
                ));
                house.sit_down(x, &seats, turns);
                turns.push(turn(&who, operate(tv, "power", Value::Bool(true))));
            }
            _ => {
                turns.push(turn(&x.host, say(&[], what.into())));
                house.sit_down(x, &seats, turns);
            }
        }
        Ok(())
    }
}
