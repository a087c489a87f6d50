//! An evening in: the tv at the preferred volume, a chat, a snack.

use super::leisure;
use super::prelude::*;

/// Answers to "how was your day" that only a day at work or school has.
const WORK_DAY_ANSWERS: [&str; 2] = ["Long meeting, I'm tired.", "Good! I finished early."];

pub(super) struct Evening;

impl Activity for Evening {
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
            sim,
            interrupted,
            established,
            ..
        } = x;
        let seats = leisure::seats(s, r);
        if interrupted {
            turns.push(turn(
                host,
                say(
                    &[],
                    "Too tired for a film tonight, I'm going to read instead.".into(),
                ),
            ));
            if !seats.is_empty() {
                house.sit_down(x, &seats, turns);
            }
            return Ok(());
        }
        let p = house.person(host).clone();
        if let Some(tv) = r.device(Role::Entertainment).cloned() {
            turns.push(turn(host, operate(tv.clone(), "power", Value::Bool(true))));
            turns.push(turn(
                host,
                operate(tv.clone(), "volume", Value::Int(p.tv_volume)),
            ));
            if established || house.rng.random_bool(0.3) {
                house
                    .stated
                    .push(format!("{} likes the tv volume at {}", p.name, p.tv_volume));
                let claim = preference(host, &tv, "volume", Value::Int(p.tv_volume));
                turns.push(turn(
                    host,
                    say_claims(
                        &[],
                        format!("Volume {} is just right for me.", p.tv_volume),
                        vec![claim],
                    ),
                ));
            }
        }
        if let Some(light) = r.device(Role::Light).cloned() {
            turns.push(turn(
                host,
                operate(light.clone(), "brightness", Value::Int(p.brightness)),
            ));
        }
        // The afternoon's strays go back, then everyone settles in for
        // the evening (and stays until bedtime).
        house.put_back_strays(x, turns);
        house.open_parcels(x, turns);
        if !seats.is_empty() {
            house.sit_down(x, &seats, turns);
        }
        if let (Some(b), Some(sofa)) = (
            r.objects(Role::Comfort).first().cloned(),
            r.fixture(Role::Seating).cloned(),
        ) {
            turns.push(turn(
                host,
                say(
                    &[robot],
                    format!(
                        "Robot, bring the {} to {}, please.",
                        describe(s, &b),
                        place_words(s, &sofa, Some(host))
                    ),
                ),
            ));
            turns.push(turn(
                robot,
                Goal::Fetch {
                    object: b,
                    to: Dest::On(sofa),
                },
            ));
        }
        if let Some(other) = humans.iter().find(|h| *h != host).cloned() {
            let name = house.person(&other).name.clone();
            // Each question with the answers that fit it.
            let qa: &[(&str, &[&str])] = &[
                (
                    "How was your day, {n}?",
                    &[
                        "Busy, but fine.",
                        "Long meeting, I'm tired.",
                        "Not bad. And you?",
                    ],
                ),
                (
                    "Did you have a good day, {n}?",
                    &["Good! I finished early.", "Not bad. And you?"],
                ),
                (
                    "Anything happen today, {n}?",
                    &["Nothing much, a quiet one.", "Long meeting, I'm tired."],
                ),
                (
                    "{n}, are you staying up for the film?",
                    &["Only for a bit, I'm worn out.", "Yes, save me a seat."],
                ),
            ];
            // A day at work or school (out to it, or at the desk at home)
            // is the one that had a meeting or finished early.
            let today = &house.calendar.today;
            let worked = today.at_desk.contains(&other)
                || (today.outs.iter()).any(|o| o.who == other && o.to.is_duty());
            let (q, answers) = *pick(&mut house.rng, qa);
            let q = q.replace("{n}", &name);
            let answers: Vec<&str> = (answers.iter().copied())
                .filter(|a| worked || !WORK_DAY_ANSWERS.contains(a))
                .collect();
            let a = answers
                .choose(&mut house.rng)
                .copied()
                .unwrap_or("Quiet, I stayed in.");
            turns.push(turn(host, say(&[&other], q)));
            turns.push(turn(&other, say(&[host], a.to_string())));
        }
        // A snack or a drink brought to the sofa; it goes back at bedtime.
        let snacks: Vec<Id> = r
            .objects(Role::Snack)
            .iter()
            .filter(|&o| set_down(sim, o) && house.edible(x, o))
            .cloned()
            .collect();
        let table = r
            .fixture(Role::LoungeTable)
            .or(r.fixture(Role::Seating))
            .cloned();
        if let (Some(snack), Some(table)) = (snacks.choose(&mut house.rng).cloned(), table) {
            let asker = humans.choose(&mut house.rng).expect("non-empty").clone();
            let text = pick(
                &mut house.rng,
                &[
                    "Robot, could you bring the {o} to {t}?",
                    "Robot, the {o} please, on {t}.",
                    "I'd love the {o}. Robot, can you put it on {t}?",
                ],
            )
            .replace("{o}", &describe(s, &snack))
            .replace("{t}", &place_words(s, &table, Some(&asker)));
            turns.push(turn(&asker, say(&[robot], text)));
            turns.push(turn(
                robot,
                Goal::Fetch {
                    object: snack,
                    to: Dest::On(table),
                },
            ));
        }
        Ok(())
    }
}
