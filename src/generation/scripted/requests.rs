//! Someone asks the robot to bring them something of theirs.

use super::prelude::*;

pub(super) struct FindRequest;

impl Activity for FindRequest {
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
            ref host,
            sim,
            ..
        } = x;
        let asker = host.clone();
        let owned: Vec<Id> = house
            .person(&asker)
            .owned
            .values()
            .flatten()
            .filter(|o| !r.has(o, Role::Medicine) && !r.has(o, Role::Clothes))
            .cloned()
            .collect();
        let Some(obj) = owned.choose(&mut house.rng).cloned() else {
            return Ok(());
        };
        // Only what is put down in the house: not in someone's hands or
        // bag, nor out of the house (a laptop left at school).
        // Nor anything finished (in the bin, or gone with the rubbish).
        if !set_down(sim, &obj) || house.pantry.finished(&obj) {
            return Ok(());
        }
        let text = pick(
            &mut house.rng,
            &[
                "Robot, could you bring me my {o}?",
                "Robot, I need my {o}, please.",
                "Can you fetch my {o} for me?",
                "Robot, where did my {o} go? Bring it to me, please.",
            ],
        )
        .replace("{o}", &describe(s, &obj));
        turns.push(turn(
            &asker,
            Goal::Say {
                to: vec![robot.clone()],
                text,
                claims: vec![],
            },
        ));
        turns.push(turn(
            robot,
            Goal::Fetch {
                object: obj.clone(),
                to: Dest::Actor(asker.clone()),
            },
        ));
        turns.push(turn(
            &asker,
            say(
                &[robot],
                pick(
                    &mut house.rng,
                    &["Thanks!", "Perfect, thank you.", "Great."],
                )
                .to_string(),
            ),
        ));
        // Food is eaten, and what is left goes back to the fridge.
        if let (true, Some(fridge)) = (r.has(&obj, Role::Perishable), r.fixture(Role::ColdStorage))
        {
            let seconds = house.rng.random_range(10..=20) * M;
            turns.push(turn(&asker, wait(seconds)));
            turns.push(turn(
                &asker,
                Goal::Fetch {
                    object: obj,
                    to: Dest::In(fridge.clone()),
                },
            ));
            return Ok(());
        }
        // Put down nearby where such a thing belongs, else used for a
        // while and put back in its place.
        let back = surfaces(&s)
            .into_iter()
            .filter(|f| {
                sim.room_of(f) == sim.room_of(&asker)
                    && house.belongs.fits(&obj, f)
                    && sim.free_space(f, false) > 0
            })
            .collect::<Vec<_>>();
        let to = match back.choose(&mut house.rng) {
            Some(b) => Some(Dest::On(b.clone())),
            None => {
                let seconds = house.rng.random_range(10..=20) * M;
                turns.push(turn(&asker, wait(seconds)));
                house.home_of(sim, s, &obj)
            }
        };
        if let Some(to) = to {
            turns.push(turn(&asker, Goal::Fetch { object: obj, to }));
        }
        Ok(())
    }
}
