//! Planning `set_device_state`: a device field set to a value its schema allows.

use super::plan::{Doer, Plan};
use super::step::Op;
use super::view::WorldView;
use crate::ids::Id;
use crate::sim::world::{schema_text, with_value};
use crate::trace::{Rejection, RejectionCode, Value};

const DEVICE_SECS: u64 = 2;

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
        let e = self.resolve(device, "device", |e| self.devices.contains(e))?;
        let Ok(dev) = self.devices.get(e) else {
            return Err(Rejection::new(
                RejectionCode::NotADevice,
                format!("{device} has no state to set"),
                format!(
                    "devices: {}",
                    self.suggest(device.as_str(), |e| self.devices.contains(e))
                ),
            ));
        };
        let Some((name, old)) = dev.fields.get_key_value(field) else {
            let names: Vec<&str> = dev.fields.keys().map(Id::as_str).collect();
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
}
