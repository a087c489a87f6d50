//! Names and phrases for questions and answers: every entity is named so
//! that a reader of the scene can tell which one is meant.

use std::borrow::Cow;
use std::collections::BTreeMap;

pub use crate::catalogue::{capital, plural};
use crate::ids::Id;
use crate::scene::{Fixture, Kind, Scene, SceneIndex, fixtures};
use crate::trace::{DAY, LEVEL, Location, TEXT, Value, clock_time, day_of};

pub struct Namer<'a> {
    scene: &'a Scene,
    names: Cow<'a, Names>,
}

/// What naming needs besides the scene, worked out once per scene: kept
/// by a reader that names things again and again (an agent answering).
#[derive(Debug, Clone)]
pub struct Names {
    index: SceneIndex,
    /// For each furniture, then each device (scene order): how many
    /// fixtures there are of its kind, and of its kind in its room. A
    /// fixture is named by its kind alone when it is the only one.
    same: Vec<(usize, usize)>,
}

impl Names {
    pub fn new(scene: &Scene) -> Self {
        let mut kinds: BTreeMap<(&str, Option<&Id>), usize> = BTreeMap::new();
        for f in fixtures(scene) {
            *kinds.entry((f.kind, None)).or_default() += 1;
            *kinds.entry((f.kind, Some(f.room))).or_default() += 1;
        }
        let same = fixtures(scene)
            .map(|f| (kinds[&(f.kind, None)], kinds[&(f.kind, Some(f.room))]))
            .collect();
        Names {
            index: SceneIndex::new(scene),
            same,
        }
    }
}

/// A device field as questions name it: a thermostat's `target` is its
/// target temperature.
pub fn field_words(attr: &str) -> String {
    match attr {
        "target" => "target temperature".into(),
        _ => attr.replace('_', " "),
    }
}

impl<'a> Namer<'a> {
    pub fn new(scene: &'a Scene) -> Self {
        Namer {
            scene,
            names: Cow::Owned(Names::new(scene)),
        }
    }

    /// A namer of `scene` from its `names`, made by the caller once.
    pub fn with(scene: &'a Scene, names: &'a Names) -> Self {
        Namer {
            scene,
            names: Cow::Borrowed(names),
        }
    }

    /// Whether `id` is furniture or a device whose room holds another of
    /// its kind: "the nightstand" said in that room does not say which.
    pub fn shares_kind_in_room(&self, id: &Id) -> bool {
        let nth = match self.names.index.get(id) {
            Some((Kind::Furniture, i)) => i,
            Some((Kind::Device, i)) => self.scene.furniture.len() + i,
            _ => return false,
        };
        self.names.same[nth].1 > 1
    }

    /// What a fixture is, without article or room: "wardrobe", "coffee
    /// table"; `None` for anything else.
    pub fn kind_of(&self, id: &Id) -> Option<&str> {
        self.names
            .index
            .over(self.scene)
            .fixture(id)
            .map(|f| f.kind)
    }

    /// Whether `id` is a room.
    pub fn is_room(&self, id: &Id) -> bool {
        matches!(self.names.index.get(id), Some((Kind::Room, _)))
    }

    /// "Alice", "the robot", "the blue mug", "the fridge", "the nightstand in
    /// the master bedroom".
    pub fn name(&self, id: &Id) -> String {
        let s = self.scene;
        // One lookup: names are asked for every event narrated.
        let (f, nth): (Fixture, usize) = match self.names.index.get(id) {
            Some((Kind::Actor, i)) => {
                let a = &s.actors[i];
                return if a.kind == crate::scene::ActorKind::Robot {
                    "the robot".into()
                } else {
                    a.name.clone()
                };
            }
            Some((Kind::Object, i)) => {
                let d = crate::catalogue::bought::in_a_sentence(&s.objects[i].description);
                return format!("the {d}");
            }
            Some((Kind::Room, i)) => {
                let r = &s.rooms[i];
                return crate::catalogue::room_said(&r.name);
            }
            Some((Kind::Door, i)) => {
                let d = &s.doors[i];
                return format!(
                    "the door between {} and {}",
                    self.name(&d.rooms.0),
                    self.name(&d.rooms.1)
                );
            }
            Some((Kind::Furniture, i)) => ((&s.furniture[i]).into(), i),
            Some((Kind::Device, i)) => ((&s.devices[i]).into(), s.furniture.len() + i),
            None => return id.to_string(),
        };
        let room = || self.name(f.room);
        crate::catalogue::fixture_said(f.kind, room, f.description, self.names.same[nth])
    }

    /// "on the dining table", "in the wardrobe", "in Alice's hands".
    pub fn location(&self, l: &Location) -> String {
        match l {
            Location::On(r) => format!("on {}", self.name(r)),
            Location::In(r) => format!("in {}", self.name(r)),
            Location::HeldBy(a) => format!("in {}'s hands", self.name(a)),
            Location::CarriedBy(a) => format!("with {}", self.name(a)),
            Location::Outside => "out of the house".into(),
        }
    }

    /// A value of `attr` in words: "on", "closed", "in the drawer", "25".
    pub fn value(&self, attr: &str, v: &Value) -> String {
        match (attr, v) {
            (_, Value::Location(l)) => self.location(l),
            ("open", Value::Bool(b)) => (if *b { "open" } else { "closed" }).into(),
            ("broken", Value::Bool(b)) => (if *b { "broken" } else { "working" }).into(),
            (LEVEL, Value::Int(0)) => "none left: it is finished".into(),
            (LEVEL, Value::Int(1)) => "one serving left".into(),
            (LEVEL, Value::Int(n)) => format!("{n} servings left"),
            (TEXT, Value::Text(t)) if t.trim().is_empty() => "nothing: it is blank".into(),
            (TEXT, Value::Text(t)) => t.clone(),
            (_, Value::Bool(b)) => (if *b { "on" } else { "off" }).into(),
            ("timer", Value::Int(secs)) => crate::catalogue::duration_said(*secs),
            // An option named after a kind: the TV's input "tv" is "TV".
            (_, Value::Text(t)) => crate::catalogue::kind_said(t),
            (_, v) => v.to_string(),
        }
    }

    /// "day 2 at 14:05".
    pub fn when(&self, t: u64) -> String {
        format!("day {} at {}", day_of(t), &clock_time(t)[..5])
    }

    /// "the volume of the TV", "the fridge (open or closed)": a device field.
    pub fn attribute(&self, entity: &Id, attr: &str) -> String {
        match attr {
            "open" => format!("{} (open or closed)", self.name(entity)),
            "power" => format!("{} (on or off)", self.name(entity)),
            "broken" => format!("{} (working or broken)", self.name(entity)),
            LEVEL => format!("what is left of {}", self.name(entity)),
            TEXT => format!("what is written on {}", self.name(entity)),
            // "the brightness of the ceiling light in the dining room", not
            // "the ceiling light in the dining room brightness".
            "playing" => format!("what is playing on {}", self.name(entity)),
            field => format!("the {} of {}", field_words(field), self.name(entity)),
        }
    }
}

/// Whether `text` says the time of day of `t`, as people say it: in
/// figures ("20:30", "8:30", "8pm", "8 am") or in words after "at", "by"
/// or "until" ("at eight", "by half past seven", "until a quarter to
/// nine", "noon", "midnight"). An hour of 1 to 12 without am or pm is
/// either half of the day ("8:30" is 08:30 or 20:30, "08:30" only the
/// first); "7pm" is never 07:00, nor "by 8:30" 08:00. A deadline nobody
/// said is no answer.
pub fn says_time(text: &str, t: u64) -> bool {
    const WORDS: [&str; 12] = [
        "twelve", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven",
    ];
    let text = text.to_lowercase();
    let (h, m) = ((t % DAY / 3600) as usize, (t % 3600 / 60) as usize);
    let h12 = h % 12;
    let said = |hour: usize| [format!("{hour}"), WORDS[hour % 12].to_string()];
    let mut forms = vec![format!("{h:02}:{m:02}"), format!("{h}:{m:02}")];
    if h12 != h || h % 12 == 0 {
        forms.push(format!("{}:{m:02}", if h12 == 0 { 12 } else { h12 }));
    }
    let spoken: Vec<String> = match m {
        0 => {
            let mut v: Vec<String> = said(h12).into();
            v.push(format!("{}", if h12 == 0 { 12 } else { h12 }));
            if h == 12 {
                forms.push("noon".into());
            }
            if h == 0 {
                forms.push("midnight".into());
            }
            // "7pm" is 19:00, never 07:00.
            let half = if h < 12 { "am" } else { "pm" };
            for w in &v {
                forms.push(format!("{w} o'clock"));
                forms.push(format!("{w}{half}"));
                forms.push(format!("{w} {half}"));
            }
            v
        }
        15 => said(h12).map(|w| format!("quarter past {w}")).into(),
        30 => said(h12).map(|w| format!("half past {w}")).into(),
        45 => said((h12 + 1) % 12)
            .map(|w| format!("quarter to {w}"))
            .into(),
        _ => vec![],
    };
    for w in &spoken {
        for pre in ["at ", "by ", "until ", "at a ", "by a ", "until a "] {
            forms.push(format!("{pre}{w}"));
        }
    }
    // A form counts where it stands as words of its own ("at eight", not
    // "at eighteen"; "8:30", not "18:30"; "by 8", not "by 8:30"), and not
    // with the other half of the day after it ("at 7", not "at 7 am" for
    // 19:00).
    let other_half = if h < 12 { "pm" } else { "am" };
    forms.iter().any(|f| {
        text.match_indices(f.as_str()).any(|(i, _)| {
            let before = text[..i].chars().next_back();
            let rest = &text[i + f.len()..];
            let mut after = rest.chars();
            let next = after.next();
            let minutes = next == Some(':') && after.next().is_some_and(|c| c.is_ascii_digit());
            let half = rest.trim_start().strip_prefix(other_half);
            !before.is_some_and(|c| c.is_alphanumeric())
                && !next.is_some_and(|c| c.is_alphanumeric())
                && !minutes
                && half.is_none_or(|r| r.starts_with(|c: char| c.is_alphanumeric()))
        })
    })
}

#[cfg(test)]
mod said_times {
    use super::says_time;

    const fn at(h: u64, m: u64) -> u64 {
        86_400 + h * 3600 + m * 60
    }

    #[test]
    fn a_time_said_in_figures_or_words_is_found() {
        for (text, t) in [
            ("Please put my book on my desk by 10:20.", at(10, 20)),
            (
                "bring my sunglasses to my desk tomorrow at eight.",
                at(8, 0),
            ),
            ("Run the dishwasher at 20:30, please.", at(20, 30)),
            ("Run it by 8:30 tonight.", at(20, 30)),
            ("Switch the oven on at 7pm.", at(19, 0)),
            ("Have it ready by half past seven.", at(19, 30)),
            ("Wake me at a quarter to seven.", at(6, 45)),
            ("Done by noon, please.", at(12, 0)),
            ("Leave it there until 9 o'clock.", at(21, 0)),
        ] {
            assert!(says_time(text, t), "{text}");
        }
    }

    #[test]
    fn a_time_nobody_said_is_not_found() {
        for (text, t) in [
            (
                "Robot, after dinner run the dishwasher on eco, please.",
                at(20, 35),
            ),
            ("Put my book on my desk by 10:20.", at(10, 25)),
            ("Run it at 18:30.", at(8, 30)),
            (
                "Bring the eight eggs in, at eighteen minutes past.",
                at(8, 0),
            ),
            ("Have it ready by half past seven.", at(7, 45)),
            ("Put it on the desk later.", at(12, 0)),
            ("Switch the oven on at 7pm.", at(7, 0)),
            ("Wake me at 7 am.", at(19, 0)),
            ("Have it done by 8:30.", at(8, 0)),
            ("At ten pm, please.", at(10, 0)),
        ] {
            assert!(!says_time(text, t), "{text}");
        }
    }
}
