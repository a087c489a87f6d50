//! A load of washing with the preferred programme, and the robot asked to
//! empty the machine and put every piece away later.

use super::prelude::*;

pub(super) struct Laundry;

impl Activity for Laundry {
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
            session,
            interrupted,
            established,
            ..
        } = x;
        let (Some(washer), Some(basket)) = (
            r.device(Role::Laundry).cloned(),
            r.fixture(Role::LaundryBasket).cloned(),
        ) else {
            return Ok(());
        };
        let load: Vec<Id> = s
            .objects
            .iter()
            .filter(|o| r.has(&o.id, Role::Clothes))
            .filter(|o| sim.location(&o.id) == Some(Location::In(basket.clone())))
            .map(|o| o.id.clone())
            .take(4)
            .collect();
        if interrupted || load.len() < 2 {
            let text = pick(
                &mut house.rng,
                &[
                    "The basket is nearly empty, the laundry can wait.",
                    "Not enough for a load yet.",
                    "I'll do the washing another day.",
                ],
            );
            turns.push(turn(host, say(&[], text.to_string())));
            return Ok(());
        }
        for o in &load {
            turns.push(turn(
                host,
                Goal::Fetch {
                    object: o.clone(),
                    to: Dest::In(washer.clone()),
                },
            ));
        }
        // A measure of detergent, while there is some.
        let detergent = s.objects.iter().find(|o| {
            o.category == "detergent"
                && matches!(sim.location(&o.id), Some(Location::On(_) | Location::In(_)))
                && sim.level(&o.id).is_some_and(|n| n > 0)
        });
        // The last of it said, on the shopping list, and the empty bottle
        // in the bin (left on its shelf for the rubbish where none has room).
        if let Some(d) = detergent {
            let used = [(d.id.clone(), host.clone())];
            if house.finish(x, &used, turns).contains(&d.id)
                && let Some(bin) = bin_with_room(x, 1)
            {
                turns.push(turn(
                    host,
                    Goal::Fetch {
                        object: d.id.clone(),
                        to: Dest::In(bin),
                    },
                ));
            }
        }
        let p = house.person(host).clone();
        let (programme, temperature) = p.laundry.clone();
        for (field, value) in [
            ("power", Value::Bool(true)),
            ("program", Value::Text(programme.clone())),
            ("temperature", Value::Int(temperature)),
        ] {
            if s.device(&washer)
                .is_some_and(|d| d.fields.contains_key(field))
            {
                turns.push(turn(host, operate(washer.clone(), field, value)));
            }
        }
        if established || house.rng.random_bool(0.3) {
            house.stated.push(format!(
                "{} washes on {programme} at {temperature} degrees",
                p.name
            ));
            let text = pick(
                &mut house.rng,
                &[
                    "{p} at {t} degrees, that's how I always wash.",
                    "Always {p} at {t}, nothing hotter.",
                ],
            )
            .replace("{p}", &programme)
            .replace("{t}", &temperature.to_string());
            let claims = vec![
                preference(host, &washer, "program", Value::Text(programme.clone())),
                preference(host, &washer, "temperature", Value::Int(temperature)),
            ];
            turns.push(turn(host, say_claims(&[], text, claims)));
        }
        // The robot is asked to empty the machine once the programme is
        // done (its cycle in the catalogue, after loading): switch it off,
        // then each piece to where it lives. A commitment session may take
        // up what is due `EARLY` after it, so the due time allows for that.
        // From when the host is free to load it (an earlier session may
        // still be keeping them, or have run past this one's start), with
        // 40 minutes for loading.
        let cycle = cycle_secs(s, &washer, &programme).unwrap_or(2 * H);
        let begin = (x.sim.busy_until(host).unwrap_or(0))
            .max(session.start)
            .max(sim.now());
        let due = (begin + 40 * M + cycle + EARLY).div_ceil(5 * M) * 5 * M;
        if due / DAY == session.start / DAY {
            let mut goals = vec![operate(washer.clone(), "power", Value::Bool(false))];
            goals.extend(load.iter().map(|o| Goal::Fetch {
                object: o.clone(),
                to: home_of_clothes(s, r, &house.belongs, o),
            }));
            let claims = goals.iter().filter_map(|g| request_claim(g, due)).collect();
            for goal in goals {
                house.commitments.ask(host, &session.id, due, goal);
            }
            let text = format!(
                "Robot, the wash will be done by {}: please switch the machine off and put the clothes away.",
                &crate::trace::clock_time(due)[..5]
            );
            turns.push(turn(host, say_claims(&[robot], text, claims)));
            let ack = pick(&mut house.rng, &["Okay, I will.", "Will do.", "Noted."]);
            turns.push(turn(robot, say(&[host], ack.to_string())));
        }
        Ok(())
    }
}
