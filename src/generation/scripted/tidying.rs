//! Tidying while the robot charges: things go into closed containers out of
//! its sight, and are reported in dialogue (sometimes wrongly).

use super::prelude::*;

pub(super) struct Tidy;

impl Activity for Tidy {
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
            ref host,
            interrupted,
            ..
        } = x;
        // Send the robot away first, so what follows happens out of its sight.
        if let Some(dock) = r.fixture(Role::RobotDock) {
            turns.push(turn(
                host,
                say(&[robot], "Robot, go and charge for a while.".into()),
            ));
            turns.push(turn(
                robot,
                Goal::GoTo {
                    target: dock.clone(),
                },
            ));
        }
        house.put_back_strays(x, turns);
        let candidates: Vec<&crate::scene::ObjectDef> = s
            .objects
            .iter()
            .filter(|o| r.has(&o.id, Role::EverydayItem))
            // Not what is out of the house (lost, at work).
            .filter(|o| !super::outside::outside_now(x.sim, &o.id))
            // Not out of a machine that is running (a scarf in the wash).
            .filter(|o| {
                !matches!(x.sim.location(&o.id), Some(Location::In(c))
                    if x.sim.field(&c, "power") == Some(Value::Bool(true)))
            })
            .collect();
        // Not the fridge: it keeps food, not glasses and remotes.
        let containers: Vec<Id> = closed_containers(&s)
            .into_iter()
            .filter(|c| !r.has(c, Role::ColdStorage))
            .collect();
        let tops = surfaces(&s);
        let n = if interrupted {
            1
        } else {
            2 + house.rng.random_range(0..2)
        };
        // The moves axis scales the round; the default draws and moves as ever.
        let n = if house.difficulty.moves == 1.0 {
            n
        } else {
            (n as f64 * house.difficulty.moves).round() as i32
        };
        let mut for_robot = vec![];
        let mut misplaced: Option<(Id, Id)> = None;
        let mut tidied: Vec<&Id> = vec![];
        for _ in 0..n {
            let Some(o) = candidates.choose(&mut house.rng) else {
                break;
            };
            // Each thing once a round: tidied twice, it would be reported
            // in two places in one breath (lint `said_two_ways`).
            if tidied.contains(&&o.id) {
                continue;
            }
            tidied.push(&o.id);
            // Things go where their kind belongs (the catalogue's places,
            // or where they started); now and then one goes somewhere odd
            // on purpose, which the plan records so a question can be
            // about it. A household without room for it does not tidy it.
            let homes: Vec<Id> = house
                .belongs
                .homes(&o.id)
                .unwrap_or_default()
                .iter()
                .filter(|h| !r.has(h, Role::ColdStorage))
                .cloned()
                .collect();
            let inside: Vec<&Id> = homes
                .iter()
                .filter(|h| containers.contains(h) && x.sim.free_space(h, true) > 0)
                .collect();
            let on: Vec<&Id> = homes
                .iter()
                .filter(|h| tops.contains(h) && x.sim.free_space(h, false) > 0)
                .collect();
            let odd: Vec<&Id> = containers
                .iter()
                .filter(|c| !homes.contains(c) && x.sim.free_space(c, true) > 0)
                .collect();
            let dest = if !interrupted && misplaced.is_none() && house.rng.random_bool(0.1) {
                odd.choose(&mut house.rng).map(|c| {
                    misplaced = Some(((*c).clone(), o.id.clone()));
                    Dest::In((*c).clone())
                })
            } else {
                None
            };
            let dest = match dest {
                Some(d) => d,
                None if !inside.is_empty() && (on.is_empty() || house.rng.random_bool(0.6)) => {
                    Dest::In((*inside.choose(&mut house.rng).expect("not empty")).clone())
                }
                None => match on.choose(&mut house.rng) {
                    Some(top) => Dest::On((*top).clone()),
                    None => continue,
                },
            };
            turns.push(turn(
                host,
                Goal::Fetch {
                    object: o.id.clone(),
                    to: dest.clone(),
                },
            ));
            // A report of where it went: usually right, sometimes misremembered.
            let (told, actual) = match &dest {
                Dest::In(r) | Dest::On(r) => (r.clone(), r.clone()),
                Dest::Actor(a) => (a.clone(), a.clone()),
            };
            let told = if house.rng.random_bool(0.25) {
                containers
                    .iter()
                    .chain(tops.iter())
                    .filter(|c| **c != actual)
                    .collect::<Vec<_>>()
                    .choose(&mut house.rng)
                    .map(|c| (*c).clone())
                    .unwrap_or(told)
            } else {
                told
            };
            // In or on as the place told of holds things: a misremembered
            // drawer is "in the drawer", never "on" it.
            let (holds_in, holds_on) = (containers.contains(&told), tops.contains(&told));
            let rel = if holds_in && (!holds_on || matches!(dest, Dest::In(_))) {
                Location::In(told.clone())
            } else {
                Location::On(told.clone())
            };
            let listener = humans.iter().find(|h| *h != host).cloned();
            let text = pick(
                &mut house.rng,
                &[
                    "I put the {o} {r} {c}.",
                    "If anyone needs the {o}, {it's} {r} {c}.",
                    "The {o} {is} {r} {c} now.",
                ],
            );
            let name = describe(s, &o.id);
            // Said of "the black sunglasses" as of "the mug".
            let (its, is) = if crate::catalogue::plural(&name) {
                ("they're", "are")
            } else {
                ("it's", "is")
            };
            let text = text
                .replace("{o}", &name)
                .replace("{it's}", its)
                .replace("{is}", is)
                .replace(
                    "{r}",
                    if matches!(rel, Location::In(_)) {
                        "in"
                    } else {
                        "on"
                    },
                )
                .replace("{c}", &place_words(s, &told, Some(host)));
            let claim = Claim::fact(o.id.clone(), Id::new("location"), Value::Location(rel));
            // Told to whoever is about now, or kept for the robot.
            match listener {
                Some(l) if house.rng.random_bool(0.5) => turns.push(turn(
                    host,
                    Goal::Say {
                        to: vec![l],
                        text,
                        claims: vec![claim],
                    },
                )),
                _ => for_robot.push((text, claim)),
            }
        }
        if let Some((at, object)) = misplaced {
            house.misplacements.push(Misplacement {
                session: x.session.id.clone(),
                actor: host.clone(),
                object,
                at,
                why: "put away somewhere it does not belong, in a hurry".into(),
            });
        }
        // Then the robot is found and told the rest.
        if !for_robot.is_empty() {
            turns.push(turn(
                host,
                Goal::GoTo {
                    target: robot.clone(),
                },
            ));
            let (texts, claims): (Vec<String>, Vec<Claim>) = for_robot.into_iter().unzip();
            // Run on after the colon: "so you know: the scarf is …", but "I".
            let news = texts.join(" ");
            let mut chars = news.chars();
            let news = match chars.next() {
                Some(f) if !news.starts_with("I ") => f.to_lowercase().chain(chars).collect(),
                _ => news,
            };
            turns.push(turn(
                host,
                say_claims(&[robot], format!("Robot, so you know: {news}"), claims),
            ));
        }
        // The morning's housework of those at home all day: after the tidy,
        // one dusts and wipes down, another does the ironing.
        if x.session.params.dust {
            let retired: Vec<Id> = x
                .humans
                .iter()
                .filter(|h| house.retired(h))
                .cloned()
                .collect();
            for (i, who) in retired.iter().enumerate() {
                let minutes = 40 + house.rng.random_range(0..4) * 5;
                let what = if i == 0 {
                    "Now for the dusting."
                } else {
                    "I'll do the ironing."
                };
                turns.push(turn(who, say(&[], what.into())));
                turns.push(turn(who, wait(minutes * 60)));
            }
        }
        Ok(())
    }
}
