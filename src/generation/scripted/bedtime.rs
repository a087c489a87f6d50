//! Bedtime: food back to cold storage, washing up, worn clothes to the
//! basket, glasses to the nightstand, the night temperature, lights off.

use super::prelude::*;

pub(super) struct Bedtime;

impl Activity for Bedtime {
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
            established,
            ..
        } = x;
        // Whatever came out of the fridge and is still out (the evening's
        // snack, wherever it ended up) goes back before bed.
        if let Some(fridge) = r.fixture(Role::ColdStorage) {
            for o in s.objects.iter().filter(|o| {
                !house.pantry.finished(&o.id)
                    && (r.has(&o.id, Role::Perishable)
                        || matches!(&o.at, Placement::In(f) if f == fridge))
                    && matches!(sim.location(&o.id), Some(Location::On(_) | Location::In(_)))
                    && sim.location(&o.id) != Some(Location::In(fridge.clone()))
            }) {
                turns.push(turn(
                    host,
                    Goal::Fetch {
                        object: o.id.clone(),
                        to: Dest::In(fridge.clone()),
                    },
                ));
            }
        }
        let basket = r.fixture(Role::LaundryBasket).cloned();
        // A full basket takes no more tonight (clothes would end up on
        // the bathroom counter until morning).
        let mut basket_room = basket.as_ref().map_or(0, |b| sim.free_space(b, true));
        for h in humans {
            let sink = washbasin_for(s, r, h);
            if let Some(sink) = &sink {
                turns.push(turn(
                    h,
                    Goal::GoTo {
                        target: sink.clone(),
                    },
                ));
                // Teeth and a wash: 5 to 9 minutes.
                turns.push(turn(h, wait(5 * M + house.jitter(4))));
            }
            // Worn clothes into the basket, most nights.
            let worn: Vec<Id> = s
                .objects
                .iter()
                .filter(|o| o.owner.as_ref() == Some(h))
                .filter(|o| r.has(&o.id, Role::Clothes))
                .filter(|o| {
                    !matches!(sim.location(&o.id), Some(Location::In(ref r))
                        if Some(r) == basket.as_ref()
                            || s.device(r).is_some())
                })
                .map(|o| o.id.clone())
                .collect();
            if let (Some(basket), Some(w)) = (&basket, worn.choose(&mut house.rng))
                && house.rng.random_bool(0.6)
                && basket_room > 0
            {
                basket_room -= 1;
                turns.push(turn(
                    h,
                    Goal::Fetch {
                        object: w.clone(),
                        to: Dest::In(basket.clone()),
                    },
                ));
            }
        }
        for h in humans {
            let p = house.person(h).clone();
            if let Some(g) = p.first_of_each(r, Role::Eyewear).first() {
                let stand = named_for(s, r.fixtures(Role::Bedside), &p.name).cloned();
                // On a full nightstand (not already theirs), they stay
                // where they are.
                if let Some(stand) = stand.filter(|st| {
                    sim.free_space(st, false) > 0
                        || sim.location(g) == Some(Location::On(st.clone()))
                }) {
                    turns.push(turn(
                        h,
                        Goal::Fetch {
                            object: g.clone(),
                            to: Dest::On(stand),
                        },
                    ));
                }
            }
        }
        // Strays last, once glasses have left the desks for the nightstands.
        house.put_back_strays(x, turns);
        // A thermostat's night setting (a heater with only a mode has none).
        if let Some(th) = r
            .device(Role::Climate)
            .filter(|d| has_field(x.s, d, "target"))
            .cloned()
        {
            let p = house.person(host).clone();
            turns.push(turn(
                host,
                operate(th.clone(), "target", Value::Float(p.night_target)),
            ));
            if established || house.rng.random_bool(0.3) {
                house.stated.push(format!(
                    "{} wants {} degrees at night",
                    p.name, p.night_target
                ));
                let claim = preference(host, &th, "target", Value::Float(p.night_target));
                turns.push(turn(
                    host,
                    say_claims(
                        &[],
                        format!(
                            "{} degrees at night, that's how I sleep best.",
                            p.night_target
                        ),
                        vec![claim],
                    ),
                ));
            }
        }
        if let Some(v) = r.device(Role::FloorCleaning)
            && has_option(s, v, "mode", "docked")
        {
            turns.push(turn(
                robot,
                operate(v.clone(), "mode", Value::Text("docked".into())),
            ));
        }
        if let Some(dock) = r.fixture(Role::RobotDock) {
            turns.push(turn(
                robot,
                Goal::GoTo {
                    target: dock.clone(),
                },
            ));
        }
        if let Some(light) = r.device(Role::Light) {
            turns.push(turn(
                host,
                operate(light.clone(), "power", Value::Bool(false)),
            ));
        }
        for h in humans {
            let bed = s.actor(h).and_then(|a| a.near.clone());
            if let Some(bed) = bed {
                turns.push(turn(
                    h,
                    Goal::GoTo {
                        target: bed.clone(),
                    },
                ));
                // Bedroom doors are closed for the night (doors inside the
                // bedroom's suite, an en-suite's, stay as they are; a
                // studio's main room is no bedroom to shut).
                let room = s
                    .furniture(&bed)
                    .map(|f| &f.room)
                    .filter(|r| crate::catalogue::is_bedroom(s, r));
                for door in room_doors(&s, room).into_iter().filter(|d| {
                    s.door(d).is_some_and(|x| {
                        ![&x.rooms.0, &x.rooms.1]
                            .into_iter()
                            .any(|r| crate::catalogue::only_off_bedrooms(s, r))
                    })
                }) {
                    turns.push(turn(
                        h,
                        Goal::SetOpen {
                            target: door,
                            open: false,
                        },
                    ));
                }
            }
        }
        Ok(())
    }
}
