//! Breakdowns and repairs (`rare.breakdown`): a device stops working
//! (`find_broken`: the executor refuses it from then on) and is left
//! alone; the repair technician, booked for a working day, is let in by
//! whoever is home (the robot if nobody is), finds the fault, mends it
//! (`repair`), tests the device and goes. The robot tells the first one
//! home.

use super::calendar::hhmm;
use super::outside::front_door;
use super::prelude::*;
use crate::sim::world::BROKEN;
use crate::trace::request::Destination;

/// What the technician finds, one drawn per repair.
const FAULTS: [&str; 4] = [
    "a blown fuse in the power board",
    "a loose connector on the main board",
    "a failed power supply, which I've replaced",
    "a stuck relay, now replaced",
];

/// A grown-up finds the device dead: it is switched off if it was on,
/// looked at, and the repair booked, said aloud.
pub(super) struct Breakdown;

impl Activity for Breakdown {
    fn direct(
        &self,
        house: &mut Scripted,
        x: &Stage,
        turns: &mut Vec<Turn>,
    ) -> Result<(), GenError> {
        let p = &x.session.params;
        let Some(device) = p.device.clone() else {
            return Ok(());
        };
        let when = p.repair.map_or("soon", Weekday::name);
        let kind = place_words(x.s, &device, Some(&x.host));
        let who = &x.host;
        turns.push(turn(
            who,
            Goal::GoTo {
                target: device.clone(),
            },
        ));
        turns.push(turn(
            who,
            Goal::Inspect {
                target: device.clone(),
            },
        ));
        if x.sim.field(device.as_str(), "power") == Some(Value::Bool(true)) {
            turns.push(turn(
                who,
                operate(device.clone(), "power", Value::Bool(false)),
            ));
        }
        turns.push(turn(
            who,
            operate(device.clone(), BROKEN, Value::Bool(true)),
        ));
        let text = format!(
            "{} has stopped working: it won't switch on at all. I've booked the repair technician for {when}.",
            capital(&kind)
        );
        // Said as a fact about its health, so that a listener knows
        // since when it has been out of order without having seen it go.
        let dead = Claim::fact(device.clone(), Id::new(BROKEN), Value::Bool(true));
        turns.push(turn(who, say_claims(&[], text, vec![dead])));
        house.repairs.broke(device);
        Ok(())
    }
}

/// The technician calls: let in, shown the device, at it until a few
/// minutes before they go, then a test run and the fault in words.
pub(super) struct Repair;

impl Activity for Repair {
    fn direct(
        &self,
        house: &mut Scripted,
        x: &Stage,
        turns: &mut Vec<Turn>,
    ) -> Result<(), GenError> {
        let p = &x.session.params;
        let (Some(tech), Some(device), Some(door)) =
            (p.who.clone(), p.device.clone(), front_door(x.s))
        else {
            return Ok(());
        };
        if house.repairs.out_of_order() != Some(&device) || !x.sim.is_out(&tech) {
            return Ok(());
        }
        let now = x.session.start.max(x.sim.now());
        let Some(by) = house.at_the_door(x, now) else {
            // Nobody to let them in: booked again for the next day.
            house.repairs.book(x.session.day + 1, device);
            return Ok(());
        };
        // Said by the technician, who owns nothing here.
        let kind = place_words(x.s, &device, None);
        let name = house.person(&tech).name.clone();
        turns.push(turn(
            &tech,
            Goal::Arrive {
                door: door.clone(),
                bring: vec![],
            },
        ));
        turns.push(turn(
            &by,
            Goal::GoTo {
                target: tech.clone(),
            },
        ));
        turns.push(turn(
            &tech,
            say(
                &[&by],
                format!("Hello, I'm {name}, the repair technician. I'm here about {kind}."),
            ),
        ));
        let welcome = if &by == x.robot {
            format!("Hello. Nobody is home, but I can show you {kind}. This way.")
        } else {
            "Come in, thank you for coming. It's this way.".to_string()
        };
        turns.push(turn(&by, say(&[&tech], welcome)));
        turns.push(turn(
            &tech,
            Goal::GoTo {
                target: device.clone(),
            },
        ));
        turns.push(turn(
            &tech,
            Goal::Inspect {
                target: device.clone(),
            },
        ));
        let until = p
            .until_clock()
            .map_or(x.session.start + H, |u| x.session.start / DAY * DAY + u);
        let work = until.saturating_sub(x.session.start + 10 * M).max(15 * M);
        turns.push(turn(&tech, wait(work)));
        turns.push(turn(
            &tech,
            operate(device.clone(), BROKEN, Value::Bool(false)),
        ));
        if has_field(x.s, &device, "power") {
            turns.push(turn(
                &tech,
                operate(device.clone(), "power", Value::Bool(true)),
            ));
            turns.push(turn(
                &tech,
                operate(device.clone(), "power", Value::Bool(false)),
            ));
        }
        let fault = *pick(&mut house.rng, &FAULTS);
        let mended = Claim::fact(device.clone(), Id::new(BROKEN), Value::Bool(false));
        turns.push(turn(
            &tech,
            say_claims(
                &[&by],
                format!("All done: {kind} works again. It was {fault}."),
                vec![mended],
            ),
        ));
        turns.push(turn(
            &tech,
            Goal::Leave {
                door,
                to: Destination::Work,
                take: vec![],
            },
        ));
        if &by == x.robot {
            house.news.tell(
                now,
                format!(
                    "at {} the repair technician came and fixed {kind} ({fault})",
                    hhmm(now % DAY)
                ),
            );
        }
        house.repairs.fixed();
        Ok(())
    }
}
