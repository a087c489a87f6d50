//! The morning medicine the robot brings, and where it is put back.

use super::*;

impl Scripted {
    pub(super) fn medication(&mut self, x: &Stage, turns: &mut Vec<Turn>) -> Result<(), GenError> {
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
        let name = self.person(&owner).name.clone();
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
            &mut self.rng,
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
                    &mut self.rng,
                    &["Thank you.", "Thanks, robot.", "Oh right, thanks!"],
                )
                .to_string(),
            ),
        ));
        // Put back wherever it lives, which changes from day to day.
        let at = s.object(&med).map(|o| &o.at);
        let home = match at {
            Some(Placement::In(r)) if self.rng.random_bool(0.7) => Dest::In(r.clone()),
            Some(Placement::On(r)) if self.rng.random_bool(0.7) => Dest::On(r.clone()),
            // Somewhere else it may live (a nightstand, a shelf), never
            // where medicine does not belong.
            _ => match (
                surfaces(&s)
                    .into_iter()
                    .filter(|t| self.belongs.fits(&med, t))
                    .collect::<Vec<_>>()
                    .choose(&mut self.rng),
                at,
            ) {
                (Some(top), _) => Dest::On(top.clone()),
                // No surface to move it to: back where it was.
                (None, Some(Placement::In(r))) => Dest::In(r.clone()),
                (None, Some(Placement::On(r) | Placement::HeldBy(r))) => Dest::On(r.clone()),
                (None, None) => return Ok(()),
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
