//! The values of the world's attributes as traces hold them: a place, a
//! device setting, a position, open or closed.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::ids::Id;

/// A value of an attribute: a device field, an open flag, an object's
/// location or an actor's position.
///
/// Written untagged; read by its own visitor (what `#[serde(untagged)]`
/// would accept, without buffering every value first: reading a trace is
/// mostly reading values).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Value {
    Bool(bool),
    Int(i64),
    Float(f64),
    Text(String),
    Location(Location),
    Position(Position),
}

/// By kind and contents, as `==` compares them (a float by its bits, 0.0
/// and -0.0 as one): what makes an ask key (`samples::asked`).
impl std::hash::Hash for Value {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        std::mem::discriminant(self).hash(h);
        match self {
            Value::Bool(b) => b.hash(h),
            Value::Int(i) => i.hash(h),
            Value::Float(f) => (if *f == 0.0 { 0.0f64 } else { *f }).to_bits().hash(h),
            Value::Text(t) => t.hash(h),
            Value::Location(l) => l.hash(h),
            Value::Position(p) => p.hash(h),
        }
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> serde::de::Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a bool, number, string, location ({\"on\": id}) or position ({\"room\": id})")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, i: i64) -> Result<Value, E> {
        Ok(Value::Int(i))
    }

    fn visit_u64<E>(self, u: u64) -> Result<Value, E> {
        // As untagged would: an integer too large for i64 is a float.
        Ok(i64::try_from(u).map_or(Value::Float(u as f64), Value::Int))
    }

    fn visit_f64<E>(self, x: f64) -> Result<Value, E> {
        Ok(Value::Float(x))
    }

    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::Text(s.to_string()))
    }

    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::Text(s))
    }

    /// A location is a map of one entry (`on`, `in`, `held_by`,
    /// `carried_by`, or `outside: true`); else a position, with a `room`
    /// and perhaps `near` (other keys ignored).
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut entries: Vec<(String, Option<Id>)> = Vec::new();
        let mut outside = None;
        while let Some(k) = map.next_key::<String>()? {
            if matches!(
                k.as_str(),
                "on" | "in" | "held_by" | "carried_by" | "room" | "near"
            ) {
                let v = map.next_value::<Option<Id>>()?;
                entries.push((k, v));
            } else if k == "outside" {
                outside = Some(map.next_value::<serde_json::Value>()?);
                entries.push((k, None));
            } else {
                map.next_value::<serde::de::IgnoredAny>()?;
                entries.push((k, None));
            }
        }
        if let [(k, id)] = entries.as_slice() {
            match (k.as_str(), id.clone()) {
                ("on", Some(id)) => return Ok(Value::Location(Location::On(id))),
                ("in", Some(id)) => return Ok(Value::Location(Location::In(id))),
                ("held_by", Some(id)) => return Ok(Value::Location(Location::HeldBy(id))),
                ("carried_by", Some(id)) => {
                    return Ok(Value::Location(Location::CarriedBy(id)));
                }
                ("outside", _) if outside == Some(serde_json::Value::Bool(true)) => {
                    return Ok(Value::Location(Location::Outside));
                }
                _ => {}
            }
        }
        let field = |name: &str| entries.iter().find(|(k, _)| k == name).map(|(_, v)| v);
        match field("room") {
            Some(Some(room)) => Ok(Value::Position(Position {
                room: room.clone(),
                near: field("near").cloned().flatten(),
            })),
            _ => Err(serde::de::Error::custom(
                "data did not match any variant of untagged enum Value",
            )),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) => write!(f, "{x}"),
            Value::Text(s) => f.write_str(s),
            Value::Location(l) => write!(f, "{l}"),
            Value::Position(p) => write!(f, "{p}"),
        }
    }
}

/// Where an object is. On the wire a map of one entry: `{"on": id}`,
/// `{"in": id}`, `{"held_by": actor}`, `{"carried_by": actor}` (in a
/// pocket or bag, out of the hands: what a person takes out of the house
/// or brings in) or `{"outside": true}` (beyond the front door with no one:
/// a parcel not yet delivered, a laptop left at work).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Location {
    On(Id),
    In(Id),
    HeldBy(Id),
    CarriedBy(Id),
    Outside,
}

impl Location {
    /// Whether the object is in someone's hands or bag.
    pub fn holder(&self) -> Option<&Id> {
        match self {
            Location::HeldBy(a) | Location::CarriedBy(a) => Some(a),
            _ => None,
        }
    }
}

/// The wire shape of a [`Location`].
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum LocationWire {
    On(Id),
    In(Id),
    HeldBy(Id),
    CarriedBy(Id),
    Outside(OutsideFlag),
}

/// `true`, the one value of `{"outside": true}`.
#[derive(Clone, Copy)]
struct OutsideFlag;

impl Serialize for OutsideFlag {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bool(true)
    }
}

impl<'de> Deserialize<'de> for OutsideFlag {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match bool::deserialize(d)? {
            true => Ok(OutsideFlag),
            false => Err(serde::de::Error::custom("\"outside\" is only ever true")),
        }
    }
}

impl Serialize for Location {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.clone() {
            Location::On(r) => LocationWire::On(r),
            Location::In(r) => LocationWire::In(r),
            Location::HeldBy(a) => LocationWire::HeldBy(a),
            Location::CarriedBy(a) => LocationWire::CarriedBy(a),
            Location::Outside => LocationWire::Outside(OutsideFlag),
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Location {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match LocationWire::deserialize(d)? {
            LocationWire::On(r) => Location::On(r),
            LocationWire::In(r) => Location::In(r),
            LocationWire::HeldBy(a) => Location::HeldBy(a),
            LocationWire::CarriedBy(a) => Location::CarriedBy(a),
            LocationWire::Outside(_) => Location::Outside,
        })
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::On(r) => write!(f, "on {r}"),
            Location::In(r) => write!(f, "in {r}"),
            Location::HeldBy(a) => write!(f, "held by {a}"),
            Location::CarriedBy(a) => write!(f, "carried by {a}"),
            Location::Outside => write!(f, "outside the house"),
        }
    }
}

/// Where an actor is: a room, and the furniture or device it stands at.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Position {
    pub room: Id,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub near: Option<Id>,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.near {
            Some(n) => write!(f, "{} at {n}", self.room),
            None => write!(f, "{}", self.room),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Value` as `#[serde(untagged)]` derives it: what its own reader must match.
    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(untagged)]
    enum Untagged {
        Bool(bool),
        Int(i64),
        Float(f64),
        Text(String),
        Location(Location),
        Position(Position),
    }

    impl From<Untagged> for Value {
        fn from(u: Untagged) -> Value {
            match u {
                Untagged::Bool(b) => Value::Bool(b),
                Untagged::Int(i) => Value::Int(i),
                Untagged::Float(x) => Value::Float(x),
                Untagged::Text(s) => Value::Text(s),
                Untagged::Location(l) => Value::Location(l),
                Untagged::Position(p) => Value::Position(p),
            }
        }
    }

    #[test]
    fn values_read_as_untagged_reads_them() {
        for js in [
            "true",
            "-3",
            "42",
            "18446744073709551615",
            "2.5",
            "1e3",
            "\"warm\"",
            "\"\"",
            r#"{"on":"table_1"}"#,
            r#"{"in":"fridge_1"}"#,
            r#"{"held_by":"alice"}"#,
            r#"{"carried_by":"alice"}"#,
            r#"{"outside":true}"#,
            r#"{"outside":false}"#,
            r#"{"outside":"alice"}"#,
            r#"{"outside":true,"room":"kitchen"}"#,
            r#"{"room":"kitchen"}"#,
            r#"{"room":"kitchen","near":"sink_1"}"#,
            r#"{"near":"sink_1","room":"kitchen"}"#,
            r#"{"room":"kitchen","near":null}"#,
            r#"{"room":"kitchen","other":[1,{"x":2}]}"#,
            r#"{"on":"table_1","room":"kitchen"}"#,
            // Not values: both refuse them.
            "null",
            "[1,2]",
            "{}",
            r#"{"on":null}"#,
            r#"{"on":3}"#,
            r#"{"under":"table_1"}"#,
            r#"{"near":"sink_1"}"#,
            r#"{"room":null}"#,
        ] {
            let ours = serde_json::from_str::<Value>(js).ok();
            let derived = serde_json::from_str::<Untagged>(js).ok().map(Value::from);
            assert_eq!(ours, derived, "{js}");
        }
        // Written as ever, so read back the same.
        let v = Value::Position(Position {
            room: Id::new("kitchen"),
            near: None,
        });
        let js = serde_json::to_string(&v).unwrap();
        assert_eq!(js, r#"{"room":"kitchen"}"#);
        assert_eq!(serde_json::from_str::<Value>(&js).unwrap(), v);
    }

    #[test]
    fn values_serialize_as_plain_json() {
        let v = Value::Location(Location::HeldBy(Id::new("robot")));
        assert_eq!(serde_json::to_string(&v).unwrap(), r#"{"held_by":"robot"}"#);
        let back: Value = serde_json::from_str(r#"{"in":"fridge_1"}"#).unwrap();
        assert_eq!(back, Value::Location(Location::In(Id::new("fridge_1"))));
        let p: Value = serde_json::from_str(r#"{"room":"kitchen","near":"counter_1"}"#).unwrap();
        assert!(matches!(p, Value::Position(_)));
        assert_eq!(serde_json::from_str::<Value>("3").unwrap(), Value::Int(3));
        assert_eq!(
            serde_json::from_str::<Value>("3.5").unwrap(),
            Value::Float(3.5)
        );
    }

    #[test]
    fn locations_outside_have_their_wire_forms() {
        for (loc, js) in [
            (
                Location::CarriedBy(Id::new("bob")),
                r#"{"carried_by":"bob"}"#,
            ),
            (Location::Outside, r#"{"outside":true}"#),
            (Location::HeldBy(Id::new("bob")), r#"{"held_by":"bob"}"#),
        ] {
            assert_eq!(serde_json::to_string(&loc).unwrap(), js);
            assert_eq!(serde_json::from_str::<Location>(js).unwrap(), loc);
            let v = Value::Location(loc);
            assert_eq!(serde_json::from_str::<Value>(js).unwrap(), v);
        }
        let p: Value = serde_json::from_str(r#"{"room":"outside"}"#).unwrap();
        assert!(
            matches!(p, Value::Position(Position { room, near: None }) if room.as_str() == "outside")
        );
        assert!(serde_json::from_str::<Location>(r#"{"outside":false}"#).is_err());
    }
}
