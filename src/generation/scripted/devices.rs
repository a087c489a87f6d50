//! Devices switched from another room.

use super::prelude::*;

pub(super) struct RemoteDevices;

impl Activity for RemoteDevices {
    fn direct(
        &self,
        house: &mut Scripted,
        x: &Stage,
        turns: &mut Vec<Turn>,
    ) -> Result<(), GenError> {
        let &Stage {
            s,
            roles: r,
            ref humans,
            ref host,
            ..
        } = x;
        // Someone else changes devices from wherever they are.
        let other = humans
            .iter()
            .rev()
            .find(|h| *h != host)
            .cloned()
            .unwrap_or(host.clone());
        for (role, field, value) in [
            (Role::Entertainment, "power", Value::Bool(false)),
            (Role::Light, "power", Value::Bool(false)),
            (
                Role::Audio,
                "power",
                Value::Bool(house.rng.random_bool(0.5)),
            ),
        ] {
            if let Some(d) = r.device(role)
                && s.device(d).is_some_and(|x| x.remote)
                && house.rng.random_bool(0.7)
            {
                turns.push(turn(&other, operate(d.clone(), field, value)));
            }
        }
        if let Some(v) = r.device(Role::FloorCleaning)
            && has_option(s, v, "mode", "cleaning")
        {
            turns.push(turn(
                &other,
                operate(v.clone(), "mode", Value::Text("cleaning".into())),
            ));
        }
        Ok(())
    }
}
