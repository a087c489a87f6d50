//! Waking up: washing, the kitchen, the lights.

use super::prelude::*;

pub(super) struct WakeUp;

impl Activity for WakeUp {
    fn direct(
        &self,
        house: &mut Scripted,
        x: &Stage,
        turns: &mut Vec<Turn>,
    ) -> Result<(), GenError> {
        let &Stage {
            roles: r,
            ref humans,
            ref host,
            sim,
            session,
            ..
        } = x;
        for h in humans {
            let bath = washbasin_for(x.s, r, h);
            let mut t = turn(
                h,
                Goal::GoTo {
                    target: bath
                        .clone()
                        .unwrap_or_else(|| sim.room_of(h).expect("in a room")),
                },
            );
            t.not_before = Some(
                session
                    .start
                    .max(u64::from(session.day - 1) * DAY + house.person(h).wake)
                    + house.jitter(15),
            );
            turns.push(t);
            // A shower and getting ready behind closed doors: 12 to 20 minutes.
            // The door they come in by (a second door of the bathroom is
            // someone else's way).
            let bath_room = bath.as_ref().and_then(|b| sim.room_of(b));
            let came_from = bath.as_ref().and_then(|b| {
                let (rooms, _) = sim.way(h, b)?;
                match rooms.len() {
                    0 => None,
                    1 => sim.room_of(h),
                    n => Some(rooms[n - 2].clone()),
                }
            });
            let doors: Vec<Id> = room_doors(&x.s, bath_room.as_ref())
                .into_iter()
                .filter(|d| {
                    x.s.door(d).is_some_and(|door| {
                        Some(&door.rooms.0) == came_from.as_ref()
                            || Some(&door.rooms.1) == came_from.as_ref()
                    })
                })
                .collect();
            for d in &doors {
                turns.push(turn(
                    h,
                    Goal::SetOpen {
                        target: d.clone(),
                        open: false,
                    },
                ));
            }
            turns.push(turn(h, wait(12 * M + house.jitter(8))));
            // Bathrooms are shut only while in use.
            for d in &doors {
                turns.push(turn(
                    h,
                    Goal::SetOpen {
                        target: d.clone(),
                        open: true,
                    },
                ));
            }
            // Then to the counter, to make their breakfast: 5 to 10 minutes.
            if let Some(c) = r.fixture(Role::PrepSurface) {
                turns.push(turn(h, Goal::GoTo { target: c.clone() }));
                turns.push(turn(h, wait(5 * M + house.jitter(5))));
            }
        }
        if let Some(light) = r.device(Role::Light) {
            turns.push(turn(
                host,
                operate(light.clone(), "power", Value::Bool(true)),
            ));
        }
        Ok(())
    }
}
