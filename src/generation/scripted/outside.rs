//! Life beyond the front door, as the calendar plans it: people leave
//! (saying where to and when they will be back) and come home, the robot
//! alone at home puts things back and tells the first one home what it
//! did, and the weekly clean runs the floor cleaner.
//!
//! Going through the door is the executor's `leave` and `arrive`: what
//! is taken goes with them and comes back with them, or now and then stays
//! at work, brought home the next time.

use super::calendar::hhmm;
use super::prelude::*;
use crate::trace::request::Destination;

/// How often a work or school bag thing is left behind (an arrival in 25).
const LEFT_BEHIND: f64 = 0.04;

/// How often a visitor goes home with a book of the host's (a call in three).
const LEND: f64 = 0.35;

/// What may be lost while out (never the bag everything else is in).
const LOSABLE: [&str; 4] = ["keys", "wallet", "phone", "notebook"];

/// How long someone is home before going out again (seconds): longer than
/// the lint's `straight_back_out` allows.
const SETTLE_IN: u64 = 15 * M;

/// The home's way out: its first exterior door.
pub(super) fn front_door(s: Indexed<'_>) -> Option<Id> {
    s.doors
        .iter()
        .find(|d| d.is_exterior())
        .map(|d| d.id.clone())
}

/// Whether `o` is beyond the front door (outside, or with someone out).
pub(super) fn outside_now(sim: &Simulation, o: &Id) -> bool {
    match sim.location(o) {
        Some(Location::Outside) => true,
        Some(Location::CarriedBy(a) | Location::HeldBy(a)) => sim.is_out(&a),
        _ => false,
    }
}

fn phrase(to: &str) -> &'static str {
    match to {
        "work" => "to work",
        "school" => "to school",
        "shopping" => "to do the shopping",
        "errand" => "to the shops and the pharmacy",
        "exercise" => "for a run",
        "social" => "out to see friends",
        "appointment" => "to my appointment",
        "trip" => "away for a few days",
        _ => "out",
    }
}

impl Scripted {
    /// On the way out (free at `from`), an errand for the robot while the
    /// house is empty: one of their desk things brought to their desk
    /// before they are back (a commitment, with its request claim).
    fn ask_while_out(&mut self, x: &Stage, who: &Id, from: u64, turns: &mut Vec<Turn>) {
        let p = self.person(who).clone();
        let own = desk_of(x.s, x.roles.fixtures(Role::WorkDesk), who, &p.name).cloned();
        let desk = own
            .clone()
            .or_else(|| x.roles.fixture(Role::WorkDesk).cloned());
        let things: Vec<Id> = p
            .owned
            .values()
            .flatten()
            .filter(|o| x.roles.has(o, Role::DeskExtra))
            .filter(|o| set_down(x.sim, o) && x.sim.location(o) != desk.clone().map(Location::On))
            .cloned()
            .collect();
        let (Some(desk), Some(thing)) = (desk, things.choose(&mut self.rng).cloned()) else {
            return;
        };
        // Due before they are back (a run of an hour leaves little time).
        let back = match x.session.params.back {
            Some(Back::At(c)) => c.secs(),
            _ => None,
        }
        .map_or(u64::MAX, |b| x.session.start / DAY * DAY + b);
        // From when they are free to go, not when the session was planned
        // (a departure that slipped would ask for a time already past).
        let due = (from + 2 * H).min(back.saturating_sub(15 * M));
        if due < from + 30 * M {
            return;
        }
        let goal = Goal::Fetch {
            object: thing.clone(),
            to: Dest::On(desk.clone()),
        };
        let text = format!(
            "Robot, while I'm out, please put my {} on {} by {}.",
            describe(x.s, &thing),
            desk_words(x.s, &desk, own.is_some()),
            hhmm(due % DAY)
        );
        let claims = request_claim(&goal, due).into_iter().collect();
        self.commitments.ask(who, &x.session.id, due, goal);
        turns.push(turn(
            who,
            Goal::GoTo {
                target: x.robot.clone(),
            },
        ));
        turns.push(turn(who, say_claims(&[x.robot], text, claims)));
        turns.push(turn(x.robot, say(&[who], "Okay, I'll see to it.".into())));
    }

    /// Through the door with what they carry and what they left out
    /// before (a laptop left at work comes home next time), now and then
    /// leaving a work thing behind; then the new things and what lives by
    /// the door put where they belong.
    fn come_in(&mut self, x: &Stage, who: &Id, door: Id, turns: &mut Vec<Turn>) {
        let from = x.session.params.from.map(Destination::name);
        let from_work = matches!(from, Some("work" | "school"));
        self.doorstep.came_in(who, x.session.start.max(x.sim.now()));
        let mut bring = x.sim.carried_by(who);
        // The rubbish they took out stays out (in the bins outside).
        bring.retain(|o| !self.pantry.taken_out(o));
        let left = self.doorstep.bring_back(who);
        if from_work && self.rng.random_bool(LEFT_BEHIND) {
            let work_thing = |o: &Id| matches!(category_of(x.s, o), "laptop" | "book" | "charger");
            if let Some(i) = bring.iter().position(work_thing) {
                self.doorstep.leave_out(bring.remove(i), who);
            }
        }
        // Now and then something is lost while out, for good (`rare.lost_item`
        // times in 28 days for the household): not brought in, and no
        // longer theirs to use.
        let arrivals = self
            .calendar
            .today
            .outs
            .iter()
            .filter(|o| o.back < DAY)
            .count();
        let lost_p = crate::catalogue::schedules().rare.lost_item / (28.0 * arrivals.max(1) as f64);
        let losable = |o: &Id| LOSABLE.contains(&category_of(x.s, o));
        let lost = if self.rng.random_bool(lost_p.min(1.0)) {
            bring.iter().position(losable).map(|i| bring.remove(i))
        } else {
            None
        };
        bring.extend(left);
        // A parcel left on the doorstep since, and the shopping.
        let now = x.session.start;
        let parcels = self.doorstep.take_in(now);
        let shopped = matches!(from, Some("shopping" | "errand"));
        let mut crossed: Vec<String> = vec![];
        let food: Vec<Id> = if shopped {
            let list = self.pantry.list().to_vec();
            let keeps = |c: &str| {
                crate::catalogue::builtin()
                    .category(c)
                    .and_then(|k| k.keeps)
                    .unwrap_or(0)
            };
            let (mut food, listed) =
                self.doorstep
                    .shop(&mut self.rng, crate::trace::day_of(now), &list, keeps);
            for (kind, thing) in listed {
                self.pantry.bought(&kind);
                food.push(thing);
                crossed.push(kind);
            }
            food
        } else {
            vec![]
        };
        bring.extend(parcels.iter().cloned());
        bring.extend(food.iter().cloned());
        turns.push(turn(
            who,
            Goal::Arrive {
                door: door.clone(),
                bring: bring.clone(),
            },
        ));
        if let Some(o) = &lost {
            let text = format!(
                "Oh no, I've lost my {} somewhere. It's gone, I'll have to get a new one.",
                describe(x.s, o)
            );
            let claim = Claim::fact(
                o.clone(),
                Id::new("location"),
                Value::Location(Location::Outside),
            );
            turns.push(turn(who, say_claims(&[], text, vec![claim])));
            let p = self.person_mut(who);
            for v in p.owned.values_mut() {
                v.retain(|t| t != o);
            }
            p.today.retain(|_, t| t != o);
        }
        if let Some(p) = parcels.first() {
            let whose =
                x.s.object(p)
                    .and_then(|o| o.owner.clone())
                    .filter(|o| o != who)
                    .map(|o| format!(" for {}", self.person(&o).name))
                    .unwrap_or_default();
            turns.push(turn(
                who,
                say(&[], format!("There was a parcel on the doorstep{whose}.")),
            ));
        }
        if !food.is_empty() {
            let list: Vec<String> = food
                .iter()
                .map(|f| crate::catalogue::bought::plain(&describe(x.s, f)).to_string())
                .collect();
            turns.push(turn(
                who,
                say(&[], format!("I got the shopping: {}.", list.join(", "))),
            ));
        }
        // Put away: the parcel and the shopping, and what lives by the
        // door (keys on the shoe cabinet, the umbrella on the rack); the
        // rest stays in the bag (a laptop until it is wanted at the desk,
        // the phone in a pocket), as it does, and leaves desks free.
        let hall = x.s.door(&door).and_then(|d| d.inside_room()).cloned();
        // Home from the day, the light as they like it, said as a
        // preference (the evening sets the same).
        let evening = x.session.start % DAY >= 16 * H;
        if from_work
            && evening
            && let Some(light) = x.roles.device(Role::Light).cloned()
            && has_field(x.s, &light, "brightness")
            && self.rng.random_bool(0.5)
        {
            let b = self.person(who).brightness;
            let text = format!(
                "{} at {b}, that's how I like it after a long day.",
                capital(&place_words(x.s, &light, Some(who)))
            );
            let claim = preference(who, &light, "brightness", Value::Int(b));
            turns.push(turn(
                who,
                operate(light.clone(), "power", Value::Bool(true)),
            ));
            turns.push(turn(who, say_claims(&[], text, vec![claim])));
            turns.push(turn(who, operate(light, "brightness", Value::Int(b))));
        }
        let mut taken = BTreeMap::new();
        for o in bring {
            let new = parcels.contains(&o) || food.contains(&o);
            let Some(to) = self.put_away(x, &o, new, hall.as_ref(), &mut taken) else {
                continue;
            };
            let (Dest::On(at) | Dest::In(at) | Dest::Actor(at)) = &to;
            if new || x.sim.room_of(at) == hall {
                turns.push(turn(who, Goal::Fetch { object: o, to }));
            }
        }
        // What was bought crossed off the list (a kind still wanted, two
        // finished and one bought, stays on).
        crossed.retain(|k| !self.pantry.list().contains(k));
        if let Some(list) = shopping_list(x).filter(|_| !crossed.is_empty()) {
            let goal = Goal::Write {
                object: list,
                add: vec![],
                cross_off: crossed,
            };
            turns.push(turn(who, goal));
        }
    }

    /// Parcels in the house whose owner is at home now are opened: what
    /// was inside is not followed, the box goes in the bin and out with
    /// the rubbish, and it is nobody's to ask for any more.
    pub(super) fn open_parcels(&mut self, x: &Stage, turns: &mut Vec<Turn>) {
        let mut opened = 0;
        for p in self.doorstep.unopened().to_vec() {
            // A full bin waits for the rubbish to go out.
            let Some(bin) = bin_with_room(x, opened + 1) else {
                return;
            };
            let owner = x.s.object(&p).and_then(|o| o.owner.clone());
            let Some(owner) = owner.filter(|o| x.humans.contains(o)) else {
                continue;
            };
            if !set_down(x.sim, &p) {
                continue;
            }
            let text = pick(
                &mut self.rng,
                &[
                    "Let me open my {p}. Just what I ordered!",
                    "Finally, my {p}. The box can go in the bin.",
                    "I'll open my {p} now.",
                ],
            )
            .replace("{p}", &describe(x.s, &p));
            turns.push(turn(&owner, say(&[], text)));
            turns.push(turn(
                &owner,
                Goal::Fetch {
                    object: p.clone(),
                    to: Dest::In(bin.clone()),
                },
            ));
            opened += 1;
            self.doorstep.opened(&p);
            self.pantry.throw(&p);
            Arc::make_mut(&mut self.roles).forget(&p);
            for v in self.person_mut(&owner).owned.values_mut() {
                v.retain(|t| t != &p);
            }
        }
    }

    /// Where a thing brought in goes: its place in the home, or, for a
    /// new thing with no place of its kind here (a studio without a hall
    /// table), down by the door rather than round in the bag.
    fn put_away(
        &self,
        x: &Stage,
        o: &Id,
        new: bool,
        hall: Option<&Id>,
        taken: &mut BTreeMap<Dest, u32>,
    ) -> Option<Dest> {
        if let Some(home) = self.home_after(x.sim, x.s, o, taken) {
            return Some(home);
        }
        if !new {
            return None;
        }
        // By the door, else (the hall full: parcels waiting for their
        // owner) on the first top with room, not kept in hand.
        let room = |f: &&crate::scene::FurnitureDef| x.sim.free_space(&f.id, false) > 0;
        let spot = (x.s.furniture.iter())
            .filter(|f| Some(&f.room) == hall)
            .chain(x.s.furniture.iter().filter(room))
            .map(|f| (Dest::On(f.id.clone()), x.sim.free_space(&f.id, false)))
            .find(|(d, free)| *free > taken.get(d).copied().unwrap_or(0))?
            .0;
        *taken.entry(spot.clone()).or_default() += 1;
        Some(spot)
    }

    /// Who answers the door at `now`: the first of the household who is
    /// in, else the robot unless it is docked away; `None` if nobody can.
    pub(super) fn at_the_door(&self, x: &Stage, now: u64) -> Option<Id> {
        let home = self
            .calendar
            .members
            .iter()
            .map(|m| &m.id)
            .find(|h| !x.sim.is_out(h));
        match home {
            Some(h) => Some(h.clone()),
            None => (!self.is_away(now)).then(|| x.robot.clone()),
        }
    }
}

pub(super) struct Leave;

impl Activity for Leave {
    fn direct(
        &self,
        house: &mut Scripted,
        x: &Stage,
        turns: &mut Vec<Turn>,
    ) -> Result<(), GenError> {
        let p = &x.session.params;
        let (Some(who), Some(dest)) = (p.who.clone(), p.to) else {
            return Ok(());
        };
        let to = dest.name();
        let back = p
            .back
            .map_or_else(|| "later".to_string(), |b| b.to_string());
        let back = back.as_str();
        // Just in (their arrival slipped behind the house's sessions):
        // they stop at home a while first, and give up going out for
        // anything but work or school.
        let now = x.session.start.max(x.sim.now());
        let settled = house
            .doorstep
            .last_in(&who)
            .map(|t| t + SETTLE_IN)
            .filter(|t| *t > now);
        if settled.is_some() && !matches!(to, "work" | "school") {
            house.calendar.gave_up(dest);
            return Ok(());
        }
        // Kept busy at home past the time they meant to be back (a long
        // breakfast before a morning run): they do not go.
        let free = now
            .max(x.sim.busy_until(&who).unwrap_or(0))
            .max(settled.unwrap_or(0));
        let due = match p.back {
            Some(Back::At(c)) => c.secs(),
            _ => None,
        }
        .map(|b| x.session.start / DAY * DAY + b);
        if due.is_some_and(|b| b <= free + 15 * M) {
            house.calendar.gave_up(dest);
            return Ok(());
        }
        // A short outing names no time: the house may keep them past it
        // (a long breakfast before a run), and the words would be wrong.
        let short = due.is_some_and(|b| b < x.session.start + 90 * M);
        let text = if back == "later" {
            format!("I'm off {}. Look after the house!", phrase(to))
        } else if short {
            format!("I'm off {}, not for long.", phrase(to))
        } else {
            pick(
                &mut house.rng,
                &[
                    "I'm off {to}, back around {back}.",
                    "Bye! Going {to}; I'll be back about {back}.",
                    "Off {to} now. See you around {back}.",
                ],
            )
            .replace("{to}", phrase(to))
            .replace("{back}", back)
        };
        turns.push(Turn {
            not_before: settled,
            ..turn(&who, say(&[], text))
        });
        if back != "later" && !short && house.rng.random_bool(0.35) {
            house.ask_while_out(x, &who, free, turns);
        }
        // The calendar's list, less what is not here to take (lost, lent,
        // left at work).
        let mut take: Vec<Id> = p
            .take
            .iter()
            .flatten()
            .filter(|o| !outside_now(x.sim, o))
            .cloned()
            .collect();
        // The rubbish goes out with whoever leaves first, last of what
        // they take: the first of it picked up from the bin, the rest
        // taken from where they then stand (into the bag with it).
        let rubbish: Vec<Id> = house
            .pantry
            .rubbish()
            .iter()
            .filter(|o| set_down(x.sim, o))
            .cloned()
            .collect();
        if !rubbish.is_empty() && front_door(x.s).is_some() {
            let text = pick(
                &mut house.rng,
                &[
                    "I'll take the rubbish out on my way.",
                    "I'm taking the rubbish out as I go.",
                    "The bin's got rubbish in it; I'll take it out.",
                ],
            );
            turns.push(turn(&who, say(&[], text.to_string())));
            take.extend(rubbish);
        }
        if let Some(door) = front_door(x.s) {
            turns.push(turn(
                &who,
                Goal::Leave {
                    door,
                    to: dest,
                    take,
                },
            ));
        }
        Ok(())
    }
}

/// Home again: the person says so, and the robot (if about) tells
/// them what it did while the house was empty, with claims.
pub(super) struct Arrive;

impl Activity for Arrive {
    fn direct(
        &self,
        house: &mut Scripted,
        x: &Stage,
        turns: &mut Vec<Turn>,
    ) -> Result<(), GenError> {
        let Some(who) = x.session.params.who.clone() else {
            return Ok(());
        };
        // They never went (kept busy past their time).
        if !x.sim.is_out(&who) {
            return Ok(());
        }
        if let Some(door) = front_door(x.s) {
            house.come_in(x, &who, door, turns);
        }
        let text = pick(
            &mut house.rng,
            &["I'm home!", "Hello, I'm back.", "Home at last."],
        );
        turns.push(turn(&who, say(&[], text.to_string())));
        if house.news.is_empty() || house.is_away(x.session.start) {
            return Ok(());
        }
        let (report, mut said) = house.news.take();
        let mut claims = vec![];
        for (t, object, dest) in &report {
            let (rel, at, loc) = match dest {
                Dest::On(r) => ("on", r, Location::On(r.clone())),
                Dest::In(r) => ("in", r, Location::In(r.clone())),
                Dest::Actor(_) => continue,
            };
            // A parcel the robot took in is news; a thing put back is not.
            let whose = || {
                let owner = x.s.object(object)?.owner.clone()?;
                Some(if owner == who {
                    " for you".to_string()
                } else {
                    format!(" for {}", house.person(&owner).name)
                })
            };
            said.push((
                *t,
                if x.roles.has(object, Role::Delivery) {
                    format!(
                        "at {} the courier brought a {}{} and I put it {rel} {}",
                        hhmm(t % DAY),
                        describe(x.s, object),
                        whose().unwrap_or_default(),
                        place_words(x.s, at, Some(&who))
                    )
                } else {
                    format!(
                        "at {} I put the {} {rel} {}",
                        hhmm(t % DAY),
                        describe(x.s, object),
                        place_words(x.s, at, Some(&who))
                    )
                },
            ));
            claims.push(Claim::fact(
                object.clone(),
                Id::new("location"),
                Value::Location(loc),
            ));
        }
        if said.is_empty() {
            return Ok(());
        }
        said.sort_by_key(|(t, _)| *t);
        let said: Vec<String> = said.into_iter().map(|(_, w)| w).collect();
        turns.push(turn(
            x.robot,
            Goal::GoTo {
                target: who.clone(),
            },
        ));
        turns.push(turn(
            x.robot,
            say_claims(
                &[&who],
                format!("Welcome back. While nobody was home, {}.", said.join("; ")),
                claims,
            ),
        ));
        Ok(())
    }
}

/// Nobody home: the robot puts back what was left out.
pub(super) struct RobotTidy;

impl Activity for RobotTidy {
    fn direct(
        &self,
        house: &mut Scripted,
        x: &Stage,
        turns: &mut Vec<Turn>,
    ) -> Result<(), GenError> {
        let mut mine = vec![];
        house.put_back_strays(x, &mut mine);
        for mut t in mine {
            t.actor = x.robot.clone();
            turns.push(t);
        }
        Ok(())
    }
}

/// The weekly clean: the floor cleaner runs, then goes back to its dock.
pub(super) struct Vacuum;

impl Activity for Vacuum {
    fn direct(
        &self,
        house: &mut Scripted,
        x: &Stage,
        turns: &mut Vec<Turn>,
    ) -> Result<(), GenError> {
        let r = x.roles;
        let Some(v) = r.device(Role::FloorCleaning) else {
            return Ok(());
        };
        if !has_option(x.s, v, "mode", "cleaning") {
            return Ok(());
        }
        let who = &x.host;
        turns.push(turn(who, say(&[], "Time for the weekly clean.".into())));
        turns.push(turn(
            who,
            operate(v.clone(), "mode", Value::Text("cleaning".into())),
        ));
        turns.push(turn(who, wait(25 * M + house.jitter(20))));
        if has_option(x.s, v, "mode", "docked") {
            turns.push(turn(
                who,
                operate(v.clone(), "mode", Value::Text("docked".into())),
            ));
        }
        Ok(())
    }
}

/// A visitor calls: in through the front door, greeted by whoever is
/// home, and sits down with them until it is time to go.
pub(super) struct Visit;

impl Activity for Visit {
    fn direct(
        &self,
        house: &mut Scripted,
        x: &Stage,
        turns: &mut Vec<Turn>,
    ) -> Result<(), GenError> {
        let p = &x.session.params;
        let (Some(who), Some(door)) = (p.who.clone(), front_door(x.s)) else {
            return Ok(());
        };
        if !x.sim.is_out(&who) {
            return Ok(());
        }
        let until = p
            .until_clock()
            .map_or(x.session.start + H, |u| x.session.start / DAY * DAY + u);
        let name = house.person(&who).name.clone();
        let host = x.host.clone();
        let host_name = house.person(&host).name.clone();
        // What was lent them comes back (it left with them last time).
        let back = house
            .loans
            .lent_to(&who)
            .filter(|b| x.sim.location(b).and_then(|l| l.holder().cloned()) == Some(who.clone()))
            .cloned();
        turns.push(turn(
            &who,
            Goal::Arrive {
                door: door.clone(),
                bring: back.iter().cloned().collect(),
            },
        ));
        let hello = pick(
            &mut house.rng,
            &[
                "Hello, anyone home? It's {me}.",
                "Hi {host}! Only me, {me}.",
                "Hello! {me} here, I let myself in.",
            ],
        )
        .replace("{me}", &name)
        .replace("{host}", &host_name);
        turns.push(turn(&who, say(&[], hello)));
        turns.push(turn(
            &host,
            Goal::GoTo {
                target: who.clone(),
            },
        ));
        let welcome = pick(
            &mut house.rng,
            &[
                "Come in, {me}! Lovely to see you.",
                "{me}! Come in, sit down.",
                "Hello {me}, you're just in time.",
            ],
        )
        .replace("{me}", &name);
        turns.push(turn(&host, say(&[&who], welcome)));
        if let Some(book) = back {
            house.loans.returned(&who);
            let whose = match x.s.object(&book).and_then(|o| o.owner.clone()) {
                Some(o) if o != host => format!("{}'s", house.person(&o).name),
                _ => "your".into(),
            };
            let text = format!(
                "I brought {whose} {} back. Thank you for lending it to me!",
                describe(x.s, &book)
            );
            turns.push(turn(&who, say(&[&host], text)));
            turns.push(turn(
                &who,
                Goal::Fetch {
                    object: book.clone(),
                    to: Dest::Actor(host.clone()),
                },
            ));
            let hall = x.s.door(&door).and_then(|d| d.inside_room()).cloned();
            if let Some(to) = house.put_away(x, &book, true, hall.as_ref(), &mut BTreeMap::new()) {
                turns.push(turn(&host, Goal::Fetch { object: book, to }));
            }
        }
        if let Some(seat) = x.roles.fixture(Role::Seating) {
            turns.push(turn(
                &who,
                Goal::GoTo {
                    target: seat.clone(),
                },
            ));
        }
        // The call lasts until a few minutes before they go.
        let stay = until.saturating_sub(x.session.start + 10 * M);
        if stay > 0 {
            turns.push(turn(&who, wait(stay)));
        }
        Ok(())
    }
}

/// The visitor goes home.
pub(super) struct VisitEnd;

impl Activity for VisitEnd {
    fn direct(
        &self,
        house: &mut Scripted,
        x: &Stage,
        turns: &mut Vec<Turn>,
    ) -> Result<(), GenError> {
        let p = &x.session.params;
        let (Some(who), Some(door)) = (p.who.clone(), front_door(x.s)) else {
            return Ok(());
        };
        if x.sim.is_out(&who) {
            return Ok(());
        }
        let bye = pick(
            &mut house.rng,
            &[
                "I'd better be going. Thank you, it was lovely.",
                "Right, I'm off home. See you soon!",
                "Time I went. Bye, everyone!",
            ],
        );
        turns.push(turn(&who, say(&[], bye.to_string())));
        // Now and then the host lends them a book of theirs, which leaves
        // the house with them until their next call.
        let host = x.host.clone();
        let lend = house
            .person(&host)
            .owned
            .get("book")
            .and_then(|b| b.first())
            .filter(|b| set_down(x.sim, b) && !outside_now(x.sim, b))
            .cloned();
        if let Some(book) = lend.filter(|_| !house.loans.has(&who) && house.rng.random_bool(LEND)) {
            let name = house.person(&who).name.clone();
            let text = format!(
                "Wait, {name}: take my {} with you, you'll love it.",
                describe(x.s, &book)
            );
            turns.push(turn(&host, say(&[&who], text)));
            turns.push(turn(
                &host,
                Goal::Fetch {
                    object: book.clone(),
                    to: Dest::Actor(who.clone()),
                },
            ));
            turns.push(turn(
                &who,
                say(&[&host], "Thank you! I'll bring it back next time.".into()),
            ));
            house.loans.lend(&who, book);
        }
        let take = house.loans.lent_to(&who).cloned().into_iter().collect();
        turns.push(turn(
            &who,
            Goal::Leave {
                door,
                to: Destination::Home,
                take,
            },
        ));
        Ok(())
    }
}

/// The courier rings with a parcel: whoever of the household is home
/// takes it in, the robot when nobody is (and tells the first one
/// home); with the robot docked away too, it is left on the doorstep.
pub(super) struct Delivery;

impl Activity for Delivery {
    fn direct(
        &self,
        house: &mut Scripted,
        x: &Stage,
        turns: &mut Vec<Turn>,
    ) -> Result<(), GenError> {
        let p = &x.session.params;
        let (Some(courier), Some(parcel), Some(door)) =
            (p.who.clone(), p.parcel.clone(), front_door(x.s))
        else {
            return Ok(());
        };
        let now = x.session.start.max(x.sim.now());
        let Some(by) = house.at_the_door(x, now) else {
            house.doorstep.leave(x.session.start, parcel);
            return Ok(());
        };
        if !x.sim.is_out(&courier) || x.sim.location(&parcel) != Some(Location::Outside) {
            return Ok(());
        }
        let owner =
            x.s.object(&parcel)
                .and_then(|o| o.owner.clone())
                .map(|o| house.person(&o).name.clone());
        turns.push(turn(
            &courier,
            Goal::Arrive {
                door: door.clone(),
                bring: vec![parcel.clone()],
            },
        ));
        // The bell brings whoever takes it in to the door.
        turns.push(turn(
            &by,
            Goal::GoTo {
                target: courier.clone(),
            },
        ));
        let hello = match &owner {
            Some(n) => format!("Delivery! A parcel for {n}."),
            None => "Delivery! A parcel for this address.".into(),
        };
        turns.push(turn(&courier, say(&[&by], hello)));
        turns.push(turn(
            &courier,
            Goal::Fetch {
                object: parcel.clone(),
                to: Dest::Actor(by.clone()),
            },
        ));
        let thanks = if &by == x.robot {
            "Thank you. I'll take it in."
        } else {
            pick(&mut house.rng, &["Thanks!", "Thank you, that's great."])
        };
        turns.push(turn(&by, say(&[&courier], thanks.to_string())));
        turns.push(turn(
            &courier,
            Goal::Leave {
                door: door.clone(),
                to: Destination::Work,
                take: vec![],
            },
        ));
        let hall = x.s.door(&door).and_then(|d| d.inside_room()).cloned();
        let Some(to) = house.put_away(x, &parcel, true, hall.as_ref(), &mut BTreeMap::new()) else {
            return Ok(());
        };
        if &by == x.robot {
            house.news.put(now, parcel.clone(), to.clone());
        }
        house.doorstep.received(parcel.clone());
        turns.push(turn(&by, Goal::Fetch { object: parcel, to }));
        Ok(())
    }
}
