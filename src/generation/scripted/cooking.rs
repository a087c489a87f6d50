//! Cooking dinner, and the dishwasher asked for after dinner.

use super::prelude::*;

impl Scripted {
    /// "Robot, after dinner set the dishwasher to eco", as a commitment: the
    /// program is what is asked for, not the run.
    fn dishwasher_request(
        &mut self,
        x: &Stage,
        cook: &Id,
        turns: &mut Vec<Turn>,
    ) -> Result<(), GenError> {
        let &Stage {
            s,
            roles: r,
            robot,
            session,
            ..
        } = x;
        if let Some(dw) = r.device(Role::DishWashing).cloned() {
            // A program it is not on: asked for what already holds, the
            // request would be done before anyone did it.
            let now = x.sim.field(dw.as_str(), "program");
            let programs: Vec<String> = match s.device(&dw).and_then(|d| d.fields.get("program")) {
                Some(FieldDef::Enum { options, .. }) => options
                    .iter()
                    .filter(|o| now.as_ref() != Some(&Value::Text((*o).clone())))
                    .cloned()
                    .collect(),
                _ => vec![],
            };
            if let Some(program) = programs.choose(&mut self.rng).cloned() {
                let due = session.start + 2 * H + 30 * M;
                let text = format!(
                    "Robot, after dinner set {} to {program}, please.",
                    place_words(s, &dw, Some(cook))
                );
                let goal = operate(dw.clone(), "program", Value::Text(program));
                let claims = request_claim(&goal, due).into_iter().collect();
                self.commitments.ask(cook, &session.id, due, goal);
                turns.push(turn(cook, say_claims(&[robot], text, claims)));
            }
        }
        Ok(())
    }
}

pub(super) struct Cooking;

impl Activity for Cooking {
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
            ..
        } = x;
        let Some(oven) = r.device(Role::Cooking).cloned() else {
            return Ok(());
        };
        let cook = host.clone();
        house.throw_out_gone_off(x, turns);
        let counter = r.fixture(Role::PrepSurface).cloned();
        let fridge = r.fixture(Role::ColdStorage).cloned();
        let table = r.fixture(Role::DiningSurface).or(counter.as_ref()).cloned();
        // What goes into the oven: food from the fridge, as much as the
        // table has room for once it is cooked.
        let room = table
            .as_ref()
            .map_or(0, |t| x.sim.free_space(t, false) as usize);
        let food: Vec<Id> = match (&fridge, &counter) {
            (Some(fridge), Some(_)) => s
                .objects
                .iter()
                .filter(|o| r.has(&o.id, Role::Ingredient) && house.edible(x, &o.id))
                .filter(|o| x.sim.location(&o.id) == Some(Location::In(fridge.clone())))
                .map(|o| o.id.clone())
                .collect::<Vec<_>>()
                .choose_multiple(&mut house.rng, room.min(2))
                .cloned()
                .collect(),
            _ => vec![],
        };
        let inside = s
            .device(&oven)
            .is_some_and(|d| d.surfaces.iter().any(|x| matches!(x, Surface::In(_))));
        if !inside || food.is_empty() {
            // Nothing to cook in it: no dinner from the oven tonight.
            return house.dishwasher_request(x, &cook, turns);
        }
        for o in &food {
            turns.push(turn(
                &cook,
                Goal::Fetch {
                    object: o.clone(),
                    to: Dest::In(oven.clone()),
                },
            ));
        }
        turns.push(turn(
            &cook,
            operate(oven.clone(), "power", Value::Bool(true)),
        ));
        let fields = s
            .device(&oven)
            .map(|d| d.fields.clone())
            .unwrap_or_default();
        if let Some(FieldDef::Int { min, max, .. }) = fields.get("temperature") {
            // A dinner temperature (160 to 220), within what the oven offers.
            let t = house.rng.random_range(16..=22) * 10;
            turns.push(turn(
                &cook,
                operate(oven.clone(), "temperature", Value::Int(t.clamp(*min, *max))),
            ));
        }
        // 20 to 45 minutes in the oven, in five-minute steps.
        let cook_secs = house.rng.random_range(4..=9) * 5 * M;
        if let Some(FieldDef::Timer { max, .. }) = fields.get("timer") {
            turns.push(turn(
                &cook,
                operate(
                    oven.clone(),
                    "timer",
                    Value::Int(cook_secs.min(u64::from(*max)) as i64),
                ),
            ));
        }
        turns.push(turn(&cook, wait(cook_secs)));
        turns.push(turn(&cook, operate(oven, "power", Value::Bool(false))));
        let table = table.expect("a counter at least");
        for o in &food {
            turns.push(turn(
                &cook,
                Goal::Fetch {
                    object: o.clone(),
                    to: Dest::On(table.clone()),
                },
            ));
        }
        house.sit_and_eat(x, &table, 15, 40, turns);
        // Leftovers back to the fridge once everyone is done, what was
        // finished to the bin (kept in the fridge where there is none).
        let used: Vec<(Id, Id)> = food.iter().map(|o| (o.clone(), cook.clone())).collect();
        let finished = house.finish(x, &used, turns);
        let bin = bin_with_room(x, finished.len());
        for o in &food {
            let to = match &bin {
                Some(b) if finished.contains(o) => b.clone(),
                _ => fridge.clone().expect("checked"),
            };
            turns.push(turn(
                robot,
                Goal::Fetch {
                    object: o.clone(),
                    to: Dest::In(to),
                },
            ));
        }
        house.dishwasher_request(x, &cook, turns)
    }
}
