//! Work or homework at the desk, and a request for later (a commitment).

use super::prelude::*;

pub(super) struct Work;

impl Activity for Work {
    fn direct(
        &self,
        house: &mut Scripted,
        x: &Stage,
        turns: &mut Vec<Turn>,
    ) -> Result<(), GenError> {
        let &Stage {
            s,
            roles: r,
            robot,
            ref humans,
            session,
            cx,
            ..
        } = x;
        // The one the calendar sat at the desk, else the last at home.
        let worker = session
            .params
            .who
            .clone()
            .filter(|w| humans.contains(w))
            .unwrap_or_else(|| humans.last().expect("non-empty").clone());
        let p = house.person(&worker).clone();
        // Their own desk, else any to work at (then not called "my desk").
        let own = desk_of(s, r.fixtures(Role::WorkDesk), &worker, &p.name).cloned();
        let desk = own.clone().or_else(|| r.fixture(Role::WorkDesk).cloned());
        let Some(desk) = desk else { return Ok(()) };
        for o in p.first_of_each(r, Role::WorkGear) {
            {
                turns.push(turn(
                    &worker,
                    Goal::Fetch {
                        object: o.clone(),
                        to: Dest::On(desk.clone()),
                    },
                ));
            }
        }
        if let Some(lamp) = r.device(Role::TaskLight).or(r.device(Role::Light)) {
            turns.push(turn(
                &worker,
                operate(lamp.clone(), "power", Value::Bool(true)),
            ));
        }
        turns.push(turn(
            &worker,
            Goal::GoTo {
                target: desk.clone(),
            },
        ));
        turns.push(turn(&worker, wait(30 * M + house.jitter(30))));
        // Some days the work moves to the sofa, laptop and all.
        let laptop = p.first_of_each(r, Role::WorkGear).first().cloned();
        let couch = r
            .fixture(Role::Seating)
            .or(r.fixture(Role::DiningSurface))
            .cloned();
        if let (Some(laptop), Some(couch)) = (laptop, couch)
            && house.rng.random_bool(0.4)
        {
            let text = pick(
                &mut house.rng,
                &["I'll finish this on {c}.", "My back hurts, moving to {c}."],
            )
            .replace("{c}", &place_words(s, &couch, Some(&worker)));
            turns.push(turn(&worker, say(&[], text)));
            turns.push(turn(
                &worker,
                Goal::Fetch {
                    object: laptop.clone(),
                    to: Dest::On(couch),
                },
            ));
            // Done there, it goes back to the desk.
            turns.push(turn(&worker, wait(20 * M + house.jitter(20))));
            turns.push(turn(
                &worker,
                Goal::Fetch {
                    object: laptop,
                    to: Dest::On(desk.clone()),
                },
            ));
        }
        // A commitment for later: today or tomorrow morning.
        let things: Vec<Id> = p
            .owned
            .values()
            .flatten()
            .filter(|o| r.has(o, Role::DeskExtra))
            // Not one on the desk already: asked for, it would be done
            // before anyone did it.
            .filter(|o| x.sim.location(o) != Some(Location::On(desk.clone())))
            .cloned()
            .collect();
        if let Some(thing) = things.choose(&mut house.rng).cloned() {
            let tomorrow = house.rng.random_bool(0.5) && session.day < cx.days;
            let due = if tomorrow {
                u64::from(session.day) * DAY + 7 * H + 45 * M
            } else {
                session.start + 2 * H
            };
            let when = if tomorrow {
                "tomorrow at a quarter to eight".to_string()
            } else {
                format!("at {}", &crate::trace::clock_time(due)[..5])
            };
            let text = format!(
                "Robot, please bring my {} to {} {when}.",
                describe(s, &thing),
                desk_words(s, &desk, own.is_some())
            );
            let goal = Goal::Fetch {
                object: thing,
                to: Dest::On(desk.clone()),
            };
            let claims = request_claim(&goal, due).into_iter().collect();
            house.commitments.ask(&worker, &session.id, due, goal);
            turns.push(turn(&worker, say_claims(&[robot], text, claims)));
            turns.push(turn(
                robot,
                say(
                    &[&worker],
                    pick(
                        &mut house.rng,
                        &[
                            "Okay, I will.",
                            "Noted, I'll do it.",
                            "Sure, I'll remember.",
                        ],
                    )
                    .to_string(),
                ),
            ));
        }
        Ok(())
    }
}
