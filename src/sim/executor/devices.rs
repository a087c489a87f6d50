//! Planning `set_device_state` (a device field set to a value its schema
//! allows) and a device's health: `find_broken` and `repair`.

use bevy::prelude::*;

use super::plan::{Doer, Plan};
use super::step::Op;
use super::view::WorldView;
use crate::ids::Id;
use crate::scene::FieldDef;
use crate::sim::world::{BROKEN, Device, schema_text, with_value};
use crate::trace::{Rejection, RejectionCode, Value};

const DEVICE_SECS: u64 = 2;
/// Trying a dead device and looking it over.
const FIND_BROKEN_SECS: u64 = 10;
/// The fix itself, after the technician's work (a wait) and before the
/// test run.
const REPAIR_SECS: u64 = 120;

impl WorldView<'_, '_> {
    /// Setting `device`'s `field` to `value`, at the device unless it is remote.
    pub(super) fn set_device_state(
        &self,
        d: Doer,
        device: &Id,
        field: &str,
        value: &Value,
    ) -> Result<Plan, Rejection> {
        let Doer { actor, at, .. } = d;
        let (e, dev) = self.device(device)?;
        if field == BROKEN {
            return Err(Rejection::new(
                RejectionCode::NotSettable,
                format!("{device}.{BROKEN} is not set by hand"),
                format!("a fault is found with find_broken and cleared with repair ({device})"),
            ));
        }
        let Some((name, old)) = dev.fields.get_key_value(field) else {
            let names: Vec<&str> = (dev.fields.keys())
                .map(Id::as_str)
                .filter(|f| *f != BROKEN)
                .collect();
            return Err(Rejection::new(
                RejectionCode::UnknownField,
                format!("{device} has no field {field}"),
                format!("fields of {device}: {}", names.join(", ")),
            ));
        };
        let new = with_value(old, value).map_err(|why| {
            Rejection::new(
                RejectionCode::ValueOutOfSchema,
                format!("{device}.{field} cannot be {value}: {why}"),
                format!("{field} takes {}", schema_text(old)),
            )
        })?;
        if !dev.remote && at.near != Some(e) {
            return Err(self.not_near(actor, e, &format!("set {field}")));
        }
        if broken(dev) {
            return Err(Rejection::new(
                RejectionCode::DeviceBroken,
                format!("{device} is broken and does not respond"),
                format!(
                    "it works again once repaired (repair {device}); use another device meanwhile"
                ),
            ));
        }
        if &new == old {
            return Err(Rejection::new(
                RejectionCode::NoChange,
                format!("{device}.{field} is already {value}"),
                "nothing to do".into(),
            ));
        }
        Ok(Plan::new(
            DEVICE_SECS,
            vec![Op::SetField {
                device: e,
                field: name.clone(),
                old: old.clone(),
                new,
            }],
        ))
    }

    /// `find_broken` (`broken` true) or `repair` (false): at the device,
    /// remote or not, and a change of its health.
    pub(super) fn set_broken(&self, d: Doer, device: &Id, to: bool) -> Result<Plan, Rejection> {
        let (e, dev) = self.device(device)?;
        let verb = if to { "find it broken" } else { "repair it" };
        if d.at.near != Some(e) {
            return Err(self.not_near(d.actor, e, verb));
        }
        let was = broken(dev);
        if was == to {
            let state = if to { "broken already" } else { "not broken" };
            return Err(Rejection::new(
                RejectionCode::NoChange,
                format!("{device} is {state}"),
                "nothing to do".into(),
            ));
        }
        Ok(Plan::new(
            if to { FIND_BROKEN_SECS } else { REPAIR_SECS },
            vec![Op::SetField {
                device: e,
                field: Id::new(BROKEN),
                old: FieldDef::Bool(was),
                new: FieldDef::Bool(to),
            }],
        ))
    }

    /// The device `device` names.
    fn device(&self, device: &Id) -> Result<(Entity, &Device), Rejection> {
        let e = self.resolve(device, "device", |e| self.devices.contains(e))?;
        self.devices.get(e).map(|dev| (e, dev)).map_err(|_| {
            Rejection::new(
                RejectionCode::NotADevice,
                format!("{device} has no state to set"),
                format!(
                    "devices: {}",
                    self.suggest(device.as_str(), |e| self.devices.contains(e))
                ),
            )
        })
    }
}

/// Whether a device is out of order.
fn broken(dev: &Device) -> bool {
    dev.fields.get(BROKEN) == Some(&FieldDef::Bool(true))
}
