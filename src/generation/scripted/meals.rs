//! Breakfast and lunch: the morning drink (stated as a preference), food from
//! cold storage to the table, and the robot clearing up.

use super::prelude::*;

impl Scripted {
    pub(super) fn meal(&mut self, x: &Stage, turns: &mut Vec<Turn>) -> Result<(), GenError> {
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
        let table = r
            .fixture(Role::DiningSurface)
            .or(r.fixture(Role::PrepSurface))
            .or(r.fixture(Role::WorkDesk))
            .cloned();
        let Some(table) = table else { return Ok(()) };
        if let Some(coffee) = r.device(Role::HotDrinks).cloned() {
            turns.push(turn(
                host,
                operate(coffee.clone(), "power", Value::Bool(true)),
            ));
            let p = self.person(host).clone();
            if let (Some(drink), true) = (
                &p.drink,
                s.device(&coffee)
                    .is_some_and(|d| d.fields.contains_key("drink")),
            ) {
                turns.push(turn(
                    host,
                    operate(coffee.clone(), "drink", Value::Text(drink.clone())),
                ));
                if established || self.rng.random_bool(0.25) {
                    // Words for the moment: morning words only at breakfast.
                    let (when, lines) = if x.session.kind.is(SessionKind::Breakfast) {
                        (
                            "in the morning",
                            &[
                                "I always have {a} in the morning.",
                                "{A} for me, like every day.",
                                "Nothing beats my morning {d}.",
                            ],
                        )
                    } else {
                        (
                            "with lunch",
                            &[
                                "{A} with lunch, as always.",
                                "{A} for me, like every day.",
                                "Lunch isn't lunch without {a}.",
                            ],
                        )
                    };
                    let one = crate::catalogue::one_of(drink);
                    let text = pick(&mut self.rng, lines)
                        .replace("{d}", drink)
                        .replace("{a}", &one)
                        .replace("{A}", &crate::catalogue::capital(&one));
                    self.stated
                        .push(format!("{} drinks {} {when}", p.name, drink));
                    let claim = preference(host, &coffee, "drink", Value::Text(drink.clone()));
                    turns.push(turn(host, say_claims(&[robot], text, vec![claim])));
                }
            }
            if let Some(mug) = p.mug.as_ref().filter(|_| sim.free_space(&table, false) > 0) {
                turns.push(turn(
                    host,
                    Goal::Fetch {
                        object: mug.clone(),
                        to: Dest::On(table.clone()),
                    },
                ));
            }
            turns.push(turn(host, operate(coffee, "power", Value::Bool(false))));
        }
        // What went off goes in the bin first.
        self.throw_out_gone_off(x, turns);
        // One of each kind of breakfast food, look-alikes (two milks)
        // being a choice someone states.
        let mut kinds: Vec<&str> = vec![];
        for o in r.objects(Role::BreakfastFood) {
            let c = category_of(s, o);
            if !kinds.contains(&c) {
                kinds.push(c);
            }
        }
        // As much food as the table has room for (the mug is on it too).
        let room = sim.free_space(&table, false) as usize;
        let mugs =
            usize::from(r.device(Role::HotDrinks).is_some() && self.person(host).mug.is_some());
        kinds.truncate(room.saturating_sub(mugs).min(3));
        let mut back: Vec<(Id, Dest)> = vec![];
        let mut used: Vec<(Id, Id)> = vec![];
        for (n, cat) in kinds.iter().enumerate() {
            // Of what is in the house (not food still to be bought).
            let items: Vec<Id> = r
                .objects(Role::BreakfastFood)
                .iter()
                .filter(|o| category_of(s, o) == *cat)
                .filter(|o| set_down(sim, o) && self.edible(x, o))
                .cloned()
                .collect();
            let Some(item) = items.choose(&mut self.rng).cloned() else {
                continue;
            };
            // What does not go to the fridge goes back where it was.
            match sim.location(&item) {
                Some(Location::On(at)) => back.push((item.clone(), Dest::On(at))),
                Some(Location::In(at)) => back.push((item.clone(), Dest::In(at))),
                _ => {}
            }
            let who = humans[(n + 1) % humans.len()].clone();
            turns.push(turn(
                &who,
                Goal::Fetch {
                    object: item.clone(),
                    to: Dest::On(table.clone()),
                },
            ));
            used.push((item.clone(), who.clone()));
            if items.len() > 1 && self.rng.random_bool(0.4) {
                let name = self.person(&who).name.clone();
                self.stated
                    .push(format!("{name} takes {}", describe(s, &item)));
                turns.push(turn(
                    &who,
                    say(
                        &[],
                        format!(
                            "I'll take the {}, please, not the other one.",
                            describe(s, &item)
                        ),
                    ),
                ));
            }
            if n >= 2 {
                break;
            }
        }
        let (lo, hi) = if x.session.kind.is(SessionKind::Breakfast) {
            (10, 30)
        } else {
            (15, 40)
        };
        self.sit_and_eat(x, &table, lo, hi, turns);
        // What was finished is said, and goes on the list.
        let finished = self.finish(x, &used, turns);
        // The robot clears up once everyone is done: what is finished to
        // the bin, food (every perishable, whatever came from the fridge)
        // back to the fridge, the mug to the dishwasher.
        // A full bin leaves them to be cleared as usual, for the rubbish.
        if let Some(bin) = bin_with_room(x, finished.len()) {
            for o in finished {
                turns.push(turn(
                    robot,
                    Goal::Fetch {
                        object: o,
                        to: Dest::In(bin.clone()),
                    },
                ));
            }
        }
        // Binned now (finished, or found gone off): not cleared again.
        let bin = r.fixture(Role::Waste);
        let binned: Vec<Id> = (turns.iter())
            .filter_map(|t| match &t.goal {
                Goal::Fetch {
                    object,
                    to: Dest::In(b),
                } if Some(b) == bin => Some(object.clone()),
                _ => None,
            })
            .collect();
        let fridge = r.fixture(Role::ColdStorage).cloned();
        for o in s.objects.iter().filter(|o| {
            fridge.is_some()
                && !binned.contains(&o.id)
                && (r.has(&o.id, Role::Perishable)
                    || matches!(&o.at, Placement::In(f) if Some(f) == fridge.as_ref()))
        }) {
            if matches!(sim.location(&o.id), Some(Location::On(ref t)) if *t == table)
                || turns
                    .iter()
                    .any(|t| matches!(&t.goal, Goal::Fetch { object, .. } if *object == o.id))
            {
                turns.push(turn(
                    robot,
                    Goal::Fetch {
                        object: o.id.clone(),
                        to: Dest::In(fridge.clone().expect("checked")),
                    },
                ));
            }
        }
        for (o, to) in back.into_iter().filter(|(o, _)| !binned.contains(o)) {
            let cold = matches!(&to, Dest::In(f) if Some(f) == fridge.as_ref());
            if !cold && !r.has(&o, Role::Perishable) {
                turns.push(turn(robot, Goal::Fetch { object: o, to }));
            }
        }
        // The mug to the dishwasher, or (none) back to its place.
        let mug = self.person(host).mug.clone();
        let to = match r.device(Role::DishWashing) {
            Some(dw) => Some(Dest::In(dw.clone())),
            None => mug.as_ref().and_then(|m| self.home_of(sim, s, m)),
        };
        if let (Some(mug), Some(to)) = (mug, to) {
            turns.push(turn(robot, Goal::Fetch { object: mug, to }));
        }
        Ok(())
    }

    /// Whether `o` may be eaten now: not finished, not past its
    /// best-before day.
    pub(super) fn edible(&self, x: &Stage, o: &Id) -> bool {
        let today = crate::trace::day_of(x.session.start.max(x.sim.now()));
        !self.pantry.finished(o)
            && x.s.object(o).is_none_or(|d| {
                crate::catalogue::bought::best_before(&d.description).is_none_or(|b| b >= today)
            })
    }

    /// Food in the house past its best-before day (things bought over
    /// the months say theirs) is found by the host and thrown out: said,
    /// on the list, in the bin.
    pub(super) fn throw_out_gone_off(&mut self, x: &Stage, turns: &mut Vec<Turn>) {
        let today = crate::trace::day_of(x.session.start.max(x.sim.now()));
        let mut binned = 0;
        for o in &x.s.objects {
            let off =
                crate::catalogue::bought::best_before(&o.description).is_some_and(|d| d < today);
            if !off || self.pantry.finished(&o.id) || !set_down(x.sim, &o.id) {
                continue;
            }
            let text = pick(
                &mut self.rng,
                &[
                    "The {o} has gone off. In the bin it goes; {c} on the list.",
                    "Ugh, the {o} is past its best-before. We need more {c}.",
                ],
            )
            .replace("{o}", crate::catalogue::bought::plain(&o.description))
            .replace("{c}", &o.category);
            turns.push(turn(&x.host, say(&[], text)));
            write_down(x, &x.host, &o.category, turns);
            self.pantry.spoil(&o.id, &o.category);
            Arc::make_mut(&mut self.roles).forget(&o.id);
            // Else (no bin, or a full one) it waits where it is for the
            // rubbish to go out.
            if let Some(bin) = bin_with_room(x, binned + 1) {
                binned += 1;
                turns.push(turn(
                    &x.host,
                    Goal::Fetch {
                        object: o.id.clone(),
                        to: Dest::In(bin),
                    },
                ));
            }
        }
    }

    /// A serving of each thing of `used` (thing, who brought it) eaten
    /// (`use`): those finished are said to be by whoever brought them, go
    /// on the shopping list, and play no part in the house's meals again.
    pub(super) fn finish(
        &mut self,
        x: &Stage,
        used: &[(Id, Id)],
        turns: &mut Vec<Turn>,
    ) -> Vec<Id> {
        let mut finished = vec![];
        for (o, who) in used {
            let category = category_of(x.s, o);
            // The servings left, as the world keeps them.
            let Some(left) = x.sim.level(o) else {
                continue;
            };
            if left > 0 {
                turns.push(turn(who, Goal::Use { object: o.clone() }));
            }
            if !self.pantry.use_one(o, category, left) {
                continue;
            }
            let text = pick(
                &mut self.rng,
                &[
                    "That's the last of the {o}. I'll put {c} on the shopping list.",
                    "The {o} is finished; I'll add {c} to the list.",
                    "No more {o} after this one; we need {c}.",
                ],
            )
            .replace("{o}", crate::catalogue::bought::plain(&describe(x.s, o)))
            .replace("{c}", category);
            turns.push(turn(who, say(&[], text)));
            write_down(x, who, category, turns);
            Arc::make_mut(&mut self.roles).forget(o);
            finished.push(o.clone());
        }
        finished
    }

    /// Everyone sits down at `table` and eats for `lo` to `hi` minutes
    /// (each their own pace); the robot's clearing waits for them.
    pub(super) fn sit_and_eat(
        &mut self,
        x: &Stage,
        table: &Id,
        lo: u64,
        hi: u64,
        turns: &mut Vec<Turn>,
    ) {
        for h in &x.humans {
            turns.push(turn(
                h,
                Goal::GoTo {
                    target: table.clone(),
                },
            ));
            let seconds = self.rng.random_range(lo..=hi) * M;
            turns.push(turn(h, wait(seconds)));
        }
    }
}

/// Breakfast: coffee, food from the fridge, the robot clears up.
pub(super) struct Breakfast;

impl Activity for Breakfast {
    fn direct(
        &self,
        house: &mut Scripted,
        x: &Stage,
        turns: &mut Vec<Turn>,
    ) -> Result<(), GenError> {
        house.meal(x, turns)
    }
}

/// Lunch starts with things put back (strays of the morning).
pub(super) struct Lunch;

impl Activity for Lunch {
    fn direct(
        &self,
        house: &mut Scripted,
        x: &Stage,
        turns: &mut Vec<Turn>,
    ) -> Result<(), GenError> {
        house.put_back_strays(x, turns);
        house.meal(x, turns)
    }
}

/// `kind` written on the shopping list by `who`, where the house has one
/// (else it was only said).
fn write_down(x: &Stage, who: &Id, kind: &str, turns: &mut Vec<Turn>) {
    if let Some(list) = shopping_list(x) {
        let add = vec![kind.to_string()];
        let goal = Goal::Write {
            object: list,
            add,
            cross_off: vec![],
        };
        turns.push(turn(who, goal));
    }
}
