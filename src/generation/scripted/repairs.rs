//! Breakdowns and repairs (`rare.breakdown`): a device stops working and
//! is left alone; the repair technician, booked for a working day, is let
//! in by whoever is home (the robot if nobody is), finds the fault, tests
//! the device and goes. The robot tells the first one home.

use super::calendar::hhmm;
use super::outside::front_door;
use super::*;
use crate::trace::request::Destination;

/// What the technician finds, one drawn per repair.
const FAULTS: [&str; 4] = [
    "a blown fuse in the power board",
    "a loose connector on the main board",
    "a failed power supply, which I've replaced",
    "a stuck relay, now replaced",
];

impl Scripted {
    /// A grown-up finds the device dead: it is switched off if it was on,
    /// looked at, and the repair booked, said aloud.
    pub(super) fn breakdown(&mut self, x: &Stage, turns: &mut Vec<Turn>) {
        let p = &x.session.params;
        let Some(device) = p.get("device").map(|d| Id::new(d)) else {
            return;
        };
        let when = p.get("repair").cloned().unwrap_or_else(|| "soon".into());
        let kind = kind_name(x.s, &device);
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
        let text = format!(
            "The {kind} has stopped working: it won't switch on at all. I've booked the repair technician for {when}."
        );
        turns.push(turn(who, say(&[], text)));
        self.out_of_order = Some(device);
    }

    /// The technician calls: let in, shown the device, at it until a few
    /// minutes before they go, then a test run and the fault in words.
    pub(super) fn repair(&mut self, x: &Stage, turns: &mut Vec<Turn>) {
        let p = &x.session.params;
        let (Some(tech), Some(device), Some(door)) = (
            p.get("who").map(|w| Id::new(w)),
            p.get("device").map(|d| Id::new(d)),
            front_door(x.s),
        ) else {
            return;
        };
        if self.out_of_order.as_ref() != Some(&device) || !x.sim.is_out(&tech) {
            return;
        }
        let now = x.session.start.max(x.sim.now());
        let Some(by) = self.at_the_door(x, now) else {
            // Nobody to let them in: booked again for the next day.
            self.repair_booked = Some((x.session.day + 1, device));
            return;
        };
        let kind = kind_name(x.s, &device);
        let name = self.person(&tech).name.clone();
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
                format!("Hello, I'm {name}, the repair technician. I'm here about the {kind}."),
            ),
        ));
        let welcome = if &by == x.robot {
            format!("Hello. Nobody is home, but I can show you the {kind}. This way.")
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
            .get("until")
            .and_then(|u| crate::catalogue::schedules::clock_secs(u))
            .map_or(x.session.start + H, |u| x.session.start / DAY * DAY + u);
        let work = until.saturating_sub(x.session.start + 10 * M).max(15 * M);
        turns.push(turn(&tech, wait(work)));
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
        let fault = *pick(&mut self.rng, &FAULTS);
        turns.push(turn(
            &tech,
            say(
                &[&by],
                format!("All done: the {kind} works again. It was {fault}."),
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
            self.news.push((
                now,
                format!(
                    "at {} the repair technician came and fixed the {kind} ({fault})",
                    hhmm(now % DAY)
                ),
            ));
        }
        self.out_of_order = None;
    }
}
