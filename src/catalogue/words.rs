//! How the names of things are said: whether a name is plural, so that
//! what is said of it agrees ("the black sunglasses are on the desk").
//! Dialogue (generation) and questions (samples) share it.

/// A kind as it is written in a sentence: "TV", "TV stand" (kinds are
/// ids, lower case).
pub fn kind_said(kind: &str) -> String {
    kind.split(' ')
        .map(|w| if w == "tv" { "TV" } else { w })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A name with its article: "the kitchen", but "hallway 2" (a numbered
/// room is named like one) and "Bob's room" (a possessive is its own).
pub fn article(common: &str, proper: &str) -> String {
    if proper.contains("'s ") {
        proper.to_string()
    } else if proper
        .rsplit(' ')
        .next()
        .is_some_and(|w| w.bytes().all(|b| b.is_ascii_digit()))
    {
        common.to_string()
    } else {
        format!("the {common}")
    }
}

/// A room as a sentence names it: "the kitchen", "hallway 2", "Bob's room".
pub fn room_said(name: &str) -> String {
    article(&name.to_lowercase(), name)
}

/// A fixture as a sentence names it, told apart from the others of its
/// kind: "the sofa" when it is the only one; "the nightstand in Lily's
/// room" when it is the only one of its room (`room` says the room); else
/// its description ("Priya's small bedside table with a drawer", "the
/// tall walnut bookshelf"). `same` is how many fixtures there are of its
/// kind, and of its kind in its room. Questions and dialogue name places
/// alike, so what was said is what is asked.
pub fn fixture_said(
    kind: &str,
    room: impl FnOnce() -> String,
    description: &str,
    (same_kind, same_room): (usize, usize),
) -> String {
    let kind = kind_said(kind);
    if same_kind == 1 {
        format!("the {kind}")
    } else if same_room == 1 {
        format!("the {kind} in {}", room())
    } else {
        article(description, description)
    }
}

/// A timer's seconds said as a cook would: "45 minutes", "1 hour 30
/// minutes", "off".
pub fn duration_said(seconds: i64) -> String {
    let (h, m) = (seconds / 3600, seconds % 3600 / 60);
    let unit = |n: i64, one: &str| format!("{n} {one}{}", if n == 1 { "" } else { "s" });
    match (h, m) {
        (0, 0) if seconds <= 0 => "off".into(),
        (0, 0) => unit(seconds, "second"),
        (0, m) => unit(m, "minute"),
        (h, 0) => unit(h, "hour"),
        (h, m) => format!("{} {}", unit(h, "hour"), unit(m, "minute")),
    }
}

/// Upper-cases the first letter.
pub fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// One of a thing said with its article: "an espresso", "a cappuccino",
/// and a cup of what is poured rather than counted ("a cup of tea", "a
/// cup of hot water").
pub fn one_of(name: &str) -> String {
    const POURED: [&str; 6] = ["tea", "water", "coffee", "milk", "juice", "cocoa"];
    let head = name.split_whitespace().last().unwrap_or(name);
    if POURED.contains(&head) {
        format!("a cup of {name}")
    } else if name.starts_with(['a', 'e', 'i', 'o', 'u']) {
        format!("an {name}")
    } else {
        format!("a {name}")
    }
}

/// Whether a thing's name is plural ("the round wire glasses", "the car
/// keys on a steel ring"; not "the box of six eggs" or "the short glass
/// with bubbles"): its head noun, the last word before what qualifies it.
pub fn plural(name: &str) -> bool {
    const ALWAYS: [&str; 14] = [
        "glasses",
        "sunglasses",
        "scissors",
        "jeans",
        "trousers",
        "shorts",
        "pyjamas",
        "headphones",
        "earphones",
        "tongs",
        "pliers",
        "binoculars",
        "leggings",
        "clothes",
    ];
    const SINGULAR: [&str; 12] = [
        "bus", "lens", "news", "series", "species", "gas", "canvas", "atlas", "cactus", "iris",
        "hummus", "couscous",
    ];
    let head_part = [
        " with ", " of ", " for ", " about ", " on ", " in ", " from ", " to ",
    ]
    .iter()
    .filter_map(|sep| name.find(sep))
    .min()
    .map_or(name, |i| &name[..i]);
    let Some(head) = head_part.split_whitespace().last() else {
        return false;
    };
    let head = head
        .trim_end_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase();
    ALWAYS.contains(&head.as_str())
        || (head.ends_with('s')
            && !head.ends_with("ss")
            && !head.ends_with("'s")
            && !SINGULAR.contains(&head.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_and_timers_are_said_as_written() {
        assert_eq!(kind_said("tv"), "TV");
        assert_eq!(kind_said("tv stand"), "TV stand");
        assert_eq!(kind_said("coffee machine"), "coffee machine");
        assert_eq!(duration_said(2700), "45 minutes");
        assert_eq!(duration_said(60), "1 minute");
        assert_eq!(duration_said(5400), "1 hour 30 minutes");
        assert_eq!(duration_said(7200), "2 hours");
        assert_eq!(duration_said(0), "off");
        assert_eq!(duration_said(30), "30 seconds");
    }

    #[test]
    fn a_numbered_room_takes_no_article() {
        assert_eq!(article("hallway 2", "Hallway 2"), "hallway 2");
        assert_eq!(article("kitchen", "Kitchen"), "the kitchen");
        assert_eq!(article("bob's room", "Bob's room"), "Bob's room");
        assert_eq!(article("room 2b", "Room 2b"), "the room 2b");
    }

    #[test]
    fn one_of_a_drink_takes_its_article() {
        for (drink, said) in [
            ("espresso", "an espresso"),
            ("lungo", "a lungo"),
            ("cappuccino", "a cappuccino"),
            ("tea", "a cup of tea"),
            ("herbal tea", "a cup of herbal tea"),
            ("hot water", "a cup of hot water"),
        ] {
            assert_eq!(one_of(drink), said);
        }
    }

    #[test]
    fn plural_names_are_told_by_their_head_noun() {
        for many in [
            "the round wire glasses",
            "the black over-ear headphones",
            "the car keys on a steel ring",
            "the blue jeans",
            "the orange-handled scissors",
            "the grey work trousers",
        ] {
            assert!(plural(many), "{many}");
        }
        for one in [
            "the box of six eggs",
            "the short glass with bubbles",
            "the fleece blanket with stars",
            "the pair of striped socks",
            "the illustrated book about dinosaurs",
            "the leather notebook for work notes",
            "Lucas's lamp",
            "the kettle",
        ] {
            assert!(!plural(one), "{one}");
        }
    }
}
