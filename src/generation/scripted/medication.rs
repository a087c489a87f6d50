//! The morning medicine the robot brings, and where it is put back.

use super::prelude::*;

pub(super) struct Medication;

impl Activity for Medication {
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
            interrupted,
            ..
        } = x;
        let Some((owner, med)) = medication(&s, r, humans) else {
            return Ok(());
        };
        let name = house.person(&owner).name.clone();
        if interrupted {
            turns.push(turn(
                &owner,
                say(
                    &[robot],
                    "I already took my medicine today, no need to bring it.".into(),
                ),
            ));
            return Ok(());
        }
        turns.push(turn(
            robot,
            Goal::Fetch {
                object: med.clone(),
                to: Dest::Actor(owner.clone()),
            },
        ));
        let text = pick(
            &mut house.rng,
            &[
                "Here is your {m}, {n}.",
                "{n}, time for your {m}.",
                "Your {m}, {n}, as every morning.",
            ],
        )
        .replace("{m}", &describe(s, &med))
        .replace("{n}", &name);
        turns.push(turn(robot, say(&[&owner], text)));
        turns.push(turn(
            &owner,
            say(
                &[robot],
                pick(
                    &mut house.rng,
                    &["Thank you.", "Thanks, robot.", "Oh right, thanks!"],
                )
                .to_string(),
            ),
        ));
        // Put back where it lives; now and then on another top where
        // medicine is kept (a nightstand, a shelf), so where it is changes
        // from day to day.
        let tops = surfaces(&s);
        let others: Vec<Id> = house
            .belongs
            .homes(&med)
            .unwrap_or_default()
            .iter()
            .filter(|h| tops.contains(h) && x.sim.free_space(h, false) > 0)
            .cloned()
            .collect();
        let home = match others.choose(&mut house.rng) {
            Some(top) if house.rng.random_bool(0.3) => Dest::On(top.clone()),
            _ => match house.home_of(x.sim, s, &med) {
                Some(d) => d,
                None => return Ok(()),
            },
        };
        turns.push(turn(
            &owner,
            Goal::Fetch {
                object: med,
                to: home,
            },
        ));
        Ok(())
    }
}
