//! A device's state fields: added, replaced or removed, a kept value
//! carried into a changed schema, every field checked against its schema.

use std::collections::BTreeMap;

use crate::ids::Id;
use crate::scene::index::{Indexed, Kind};
use crate::scene::model::FieldDef;
use crate::scene::validate::check_field;

use crate::editor::checks::expect_kind;
use crate::editor::command::{Edit, Prop};
use crate::editor::error::EditError;

pub fn set(
    s: Indexed<'_>,
    device: Id,
    name: String,
    field: Option<FieldDef>,
) -> Result<Vec<Edit>, EditError> {
    expect_kind(s, &device, &[Kind::Device], "a device")?;
    let d = s.device(&device).expect("a device");
    let mut fields = d.fields.clone();
    match field {
        Some(f) => {
            let f = carry_value(fields.get(&name), f);
            fields.insert(name, f);
            check_fields(&device, &fields)?;
        }
        None => {
            if fields.remove(&name).is_none() {
                return Err(EditError::BadField {
                    device,
                    name,
                    why: "no such field".into(),
                });
            }
        }
    }
    Ok(vec![Edit::set(&device, Prop::Fields(fields))])
}

/// A field's new schema `new`, its value carried along when only the
/// schema changed (the value is the old one): clamped into the bounds, or
/// the first option. A changed value, or a different type, is kept as
/// given for [`check_fields`] to judge.
fn carry_value(old: Option<&FieldDef>, new: FieldDef) -> FieldDef {
    use FieldDef::*;
    match (old, new) {
        (Some(Int { value: v, .. }), Int { value, min, max }) if *v == value && min <= max => Int {
            value: value.clamp(min, max),
            min,
            max,
        },
        (Some(Float { value: v, .. }), Float { value, min, max })
            if *v == value && min <= max && value.is_finite() =>
        {
            Float {
                value: value.clamp(min, max),
                min,
                max,
            }
        }
        (Some(Timer { value: v, .. }), Timer { value, max }) if *v == value => Timer {
            value: value.min(max),
            max,
        },
        (Some(Enum { value: v, .. }), Enum { value, options })
            if *v == value && !options.contains(&value) && !options.is_empty() =>
        {
            Enum {
                value: options[0].clone(),
                options,
            }
        }
        (_, new) => new,
    }
}

/// Every field well named and within its schema.
pub fn check_fields(device: &Id, fields: &BTreeMap<String, FieldDef>) -> Result<(), EditError> {
    for (name, f) in fields {
        let bad = |why: String| EditError::BadField {
            device: device.clone(),
            name: name.clone(),
            why,
        };
        if !Id::is_well_formed(name) {
            return Err(bad("names are lower-case letters, digits and _".into()));
        }
        check_field(f).map_err(bad)?;
    }
    Ok(())
}
