//! Waking up: washing, the kitchen, the lights.

use super::*;

impl Scripted {
    pub(super) fn wake_up(&mut self, x: &Stage, turns: &mut Vec<Turn>) -> Result<(), GenError> {
        let r = x.roles;
        let humans = x.humans.clone();
        let host = x.host.clone();
        let sim = x.sim;
        let session = x.session;
        let bath = r.fixture(Role::Washbasin).cloned();
        for h in &humans {
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
                    .max(u64::from(session.day - 1) * DAY + self.person(h).wake)
                    + self.jitter(15),
            );
            turns.push(t);
            // A wash or shower behind closed doors: 5 to 15 minutes.
            let doors = room_doors(x.s, bath.as_ref().and_then(|b| sim.room_of(b)).as_ref());
            for d in &doors {
                turns.push(turn(
                    h,
                    Goal::SetOpen {
                        target: d.clone(),
                        open: false,
                    },
                ));
            }
            turns.push(turn(
                h,
                Goal::Wait {
                    seconds: 5 * M + self.jitter(10),
                },
            ));
            for d in doors
                .iter()
                .filter(|d| x.s.doors.iter().any(|x| &x.id == *d && x.open))
            {
                turns.push(turn(
                    h,
                    Goal::SetOpen {
                        target: d.clone(),
                        open: true,
                    },
                ));
            }
            if let Some(c) = r.fixture(Role::PrepSurface) {
                turns.push(turn(h, Goal::GoTo { target: c.clone() }));
            }
        }
        if let Some(light) = r.device(Role::Light) {
            turns.push(turn(
                &host,
                Goal::Operate {
                    device: light.clone(),
                    field: Id::new("power"),
                    value: Value::Bool(true),
                },
            ));
        }
        Ok(())
    }
}
