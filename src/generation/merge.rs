//! A frame session's turns, merged (see [`super::frame`]): the turns a
//! backend writes take the place of the calendar's where they are about
//! the same things, the calendar's leaving and coming back stay as they
//! are, and what the writer leaves out the script still does.

use crate::ids::Id;
use crate::scene::{Indexed, Scene};

use super::{Goal, Turn};

/// Whether a turn is the calendar's to keep as it is: leaving, coming
/// back, the robot's dock.
pub fn anchored(goal: &Goal) -> bool {
    matches!(
        goal,
        Goal::Leave { .. } | Goal::Arrive { .. } | Goal::Standby { .. }
    )
}

/// The things a goal is about, by id.
pub fn about(goal: &Goal) -> Vec<&Id> {
    match goal {
        Goal::Fetch { object, to } => {
            let dest = match to {
                super::Dest::Actor(a) | super::Dest::On(a) | super::Dest::In(a) => a,
            };
            vec![object, dest]
        }
        Goal::Operate { device, .. } => vec![device],
        Goal::GoTo { target }
        | Goal::Inspect { target }
        | Goal::Use { object: target }
        | Goal::Write { object: target, .. }
        | Goal::SetOpen { target, .. } => {
            vec![target]
        }
        _ => vec![],
    }
}

/// The kind of thing an id is (an object's category, a device's or a
/// furniture's kind), for "the same sort of thing".
fn sort_of<'a>(s: Indexed<'a>, id: &Id) -> Option<&'a str> {
    s.object(id)
        .map(|o| o.category.as_str())
        .or_else(|| s.device(id).map(|d| d.kind.as_str()))
        .or_else(|| s.furniture(id).map(|f| f.kind.as_str()))
}

/// Ids of `known` that `text` names, in order of appearance.
pub fn named<'a>(text: &str, known: &'a [Id]) -> Vec<&'a Id> {
    let mut out = vec![];
    for w in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
        if let Some(id) = known.iter().find(|k| k.as_str() == w)
            && !out.contains(&id)
        {
            out.push(id);
        }
    }
    out
}

/// What [`merge`] made of a frame session's turns.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Merged {
    pub turns: Vec<Turn>,
    /// Written turns that took the place of one of the calendar's.
    pub replaced: usize,
    /// Written turns added beside the calendar's.
    pub added: usize,
    /// Written turns dropped: their actor is not in the house.
    pub dropped: Vec<String>,
    /// The calendar's words made the speaker's to say ([`say_slot`]).
    pub spoken: usize,
}

/// A calendar turn saying something that carries no fact, as the
/// speaker's to say in their own words: an intention naming who it is to
/// and what the household would say, with the calendar's words as what
/// the script says if the writer gives none.
pub fn say_slot(t: Turn) -> Turn {
    let Goal::Say { to, text, .. } = &t.goal else {
        return t;
    };
    let to: Vec<&str> = to.iter().map(Id::as_str).collect();
    let to = if to.is_empty() {
        "whoever is here".to_string()
    } else {
        to.join(" and ")
    };
    Turn {
        goal: Goal::Intent {
            text: format!("say something to {to}, as the household would say \"{text}\""),
            fallback: Some(Box::new(t.goal.clone())),
        },
        ..t
    }
}

/// The words a say slot's intention stands for: the calendar's `Say`.
pub fn said_in(goal: &Goal) -> Option<(&Vec<Id>, &String)> {
    match goal {
        Goal::Intent {
            fallback: Some(g), ..
        } => match &**g {
            Goal::Say { to, text, .. } => Some((to, text)),
            _ => None,
        },
        _ => None,
    }
}

/// A frame session's turns, `written` (each an [`Goal::Intent`]) in the
/// place of the `calendar`'s. A written turn takes the place of the first
/// of its actor's calendar turns about a thing it names or a thing of the
/// same sort (the model chose another mug), and the calendar's goal goes
/// with it as what the script pursues if the writer's steps leave it
/// unmet. The calendar's leaving, coming back and docking stay; so does
/// what someone says that carries facts (a request, a report, a
/// preference: what the questions are about). What else the calendar has
/// someone say becomes theirs to say in their own words ([`say_slot`]),
/// and the rest of the calendar's turns are still done. A written turn
/// about no turn of the calendar's comes after its actor arrives and
/// before they leave; one for an actor not in the house (`inside` says
/// who is) is dropped.
pub fn merge(
    scene: &Scene,
    calendar: Vec<Turn>,
    written: Vec<Turn>,
    inside: &dyn Fn(&Id) -> bool,
    known: &[Id],
) -> Merged {
    let index = crate::scene::SceneIndex::new(scene);
    let s = index.over(scene);
    let arrives = |who: &Id| {
        calendar
            .iter()
            .any(|t| &t.actor == who && matches!(t.goal, Goal::Arrive { .. }))
    };
    let mut out = Merged::default();
    let written: Vec<Turn> = written
        .into_iter()
        .filter(|t| {
            let ok = inside(&t.actor) || arrives(&t.actor);
            if !ok {
                out.dropped.push(format!("{} is not in the house", t.actor));
            }
            ok
        })
        .collect();
    // The calendar's turns, with the written turn (index) that takes each
    // one's place.
    let mut slots: Vec<(Turn, Option<usize>)> = calendar
        .into_iter()
        .map(|t| match &t.goal {
            Goal::Say { claims, .. } if claims.is_empty() => {
                out.spoken += 1;
                (say_slot(t), None)
            }
            _ => (t, None),
        })
        .collect();
    let mut placed = vec![false; written.len()];
    for (i, w) in written.iter().enumerate() {
        let Goal::Intent { text, .. } = &w.goal else {
            continue;
        };
        let names = named(text, known);
        let sorts: Vec<&str> = names.iter().filter_map(|n| sort_of(s, n)).collect();
        let slot = slots.iter().position(|(t, by)| {
            by.is_none()
                && t.actor == w.actor
                && !anchored(&t.goal)
                && !matches!(t.goal, Goal::Intent { .. })
                && about(&t.goal)
                    .iter()
                    .any(|a| names.contains(a) || sort_of(s, a).is_some_and(|k| sorts.contains(&k)))
        });
        if let Some(at) = slot {
            slots[at].1 = Some(i);
            placed[i] = true;
        }
    }
    let mut turns: Vec<Turn> = slots
        .into_iter()
        .map(|(t, by)| match by {
            None => t,
            Some(i) => {
                out.replaced += 1;
                let Goal::Intent { text, .. } = &written[i].goal else {
                    unreachable!("only intents take a place")
                };
                Turn {
                    actor: t.actor,
                    goal: Goal::Intent {
                        text: text.clone(),
                        fallback: Some(Box::new(t.goal)),
                    },
                    not_before: t.not_before,
                    otherwise: t.otherwise,
                }
            }
        })
        .collect();
    // The rest in their order, each after the last written turn placed
    // so far and its actor's arrival, and before their leaving.
    let mut after = 0;
    for (i, w) in written.into_iter().enumerate() {
        if placed[i] {
            if let Some(p) = turns.iter().position(|t| {
                t.actor == w.actor && matches!(&t.goal, Goal::Intent { text, .. } if Some(text) == intent_text(&w.goal))
            }) {
                after = after.max(p + 1);
            }
            continue;
        }
        let arrival = turns
            .iter()
            .position(|t| t.actor == w.actor && matches!(t.goal, Goal::Arrive { .. }))
            .map_or(0, |p| p + 1);
        let leaving = turns
            .iter()
            .position(|t| t.actor == w.actor && matches!(t.goal, Goal::Leave { .. }))
            .unwrap_or(turns.len());
        let at = after.max(arrival);
        if at > leaving {
            out.dropped.push(format!("{} has left by then", w.actor));
            continue;
        }
        turns.insert(at, w);
        out.added += 1;
        after = at + 1;
    }
    out.turns = turns;
    out
}

fn intent_text(g: &Goal) -> Option<&String> {
    match g {
        Goal::Intent { text, .. } => Some(text),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generation::Dest;
    use crate::trace::{Claim, ClaimMode, Value};

    fn id(s: &str) -> Id {
        Id::new(s)
    }

    fn intent(actor: &str, text: &str) -> Turn {
        Turn {
            actor: id(actor),
            goal: Goal::Intent {
                text: text.into(),
                fallback: None,
            },
            not_before: None,
            otherwise: None,
        }
    }

    fn turn(actor: &str, goal: Goal) -> Turn {
        Turn {
            actor: id(actor),
            goal,
            not_before: None,
            otherwise: None,
        }
    }

    fn scene() -> Scene {
        crate::scene::parse("family_apartment", crate::scene::default_source()).unwrap()
    }

    fn known(s: &Scene) -> Vec<Id> {
        s.objects
            .iter()
            .map(|o| o.id.clone())
            .chain(s.furniture.iter().map(|f| f.id.clone()))
            .chain(s.devices.iter().map(|d| d.id.clone()))
            .chain(s.actors.iter().map(|a| a.id.clone()))
            .collect()
    }

    #[test]
    fn written_turns_take_the_calendars_place_and_the_rest_is_still_done() {
        let s = scene();
        let fetch = Goal::Fetch {
            object: id("mug_1"),
            to: Dest::On(id("dining_table_1")),
        };
        let claim = Claim {
            entity: id("mug_1"),
            attr: id("location"),
            value: Value::Text("x".into()),
            mode: ClaimMode::Fact,
            holder: None,
            due: None,
        };
        let calendar = vec![
            turn(
                "alice",
                Goal::Say {
                    to: vec![],
                    text: "Morning!".into(),
                    claims: vec![],
                },
            ),
            turn("alice", fetch.clone()),
            turn(
                "bob",
                Goal::Say {
                    to: vec![id("robot")],
                    text: "The mug is on the table.".into(),
                    claims: vec![claim],
                },
            ),
            turn("bob", Goal::Wait { seconds: 600 }),
            turn(
                "lily",
                Goal::Leave {
                    door: id("front_door"),
                    to: crate::trace::request::Destination::School,
                    take: vec![],
                },
            ),
        ];
        let written = vec![
            // Another mug: the same sort of thing takes the place.
            intent("alice", "pour coffee into mug_2 and sit at dining_table_1"),
            intent("bob", "tell alice about the weather"),
            intent("lily", "wave goodbye to alice"),
            intent("carol", "ring the bell"),
        ];
        let inside = |a: &Id| a.as_str() != "carol";
        let m = merge(&s, calendar, written, &inside, &known(&s));
        assert_eq!((m.replaced, m.added, m.spoken), (1, 2, 1));
        assert_eq!(m.dropped, vec!["carol is not in the house".to_string()]);
        let goals: Vec<(&str, &Goal)> = m
            .turns
            .iter()
            .map(|t| (t.actor.as_str(), &t.goal))
            .collect();
        // Alice's small talk is hers to say in her words; Bob's words with
        // a fact stay the calendar's; Lily's goodbye comes before she leaves.
        assert_eq!(
            said_in(goals[0].1).map(|(_, t)| t.as_str()),
            Some("Morning!")
        );
        assert!(matches!(goals[1].1, Goal::Intent { fallback: Some(f), .. } if **f == fetch));
        assert!(goals.iter().any(
            |(a, g)| *a == "bob" && matches!(g, Goal::Say { claims, .. } if !claims.is_empty())
        ));
        assert!(
            goals
                .iter()
                .any(|(a, g)| *a == "bob" && matches!(g, Goal::Wait { .. }))
        );
        let wave = goals
            .iter()
            .position(|(a, g)| *a == "lily" && matches!(g, Goal::Intent { .. }))
            .unwrap();
        let leave = goals
            .iter()
            .position(|(_, g)| matches!(g, Goal::Leave { .. }))
            .unwrap();
        assert!(wave < leave, "{goals:?}");
    }

    #[test]
    fn a_written_turn_after_an_arrival_comes_after_it() {
        let s = scene();
        let calendar = vec![
            turn(
                "bob",
                Goal::Arrive {
                    door: id("front_door"),
                    bring: vec![],
                },
            ),
            turn(
                "robot",
                Goal::Say {
                    to: vec![id("bob")],
                    text: "Welcome back.".into(),
                    claims: vec![],
                },
            ),
        ];
        let m = merge(
            &s,
            calendar,
            vec![intent("bob", "hang keys_1 on coat_rack_1")],
            &|a: &Id| a.as_str() != "bob",
            &known(&s),
        );
        assert!(m.dropped.is_empty());
        assert!(matches!(m.turns[0].goal, Goal::Arrive { .. }));
        assert!(
            matches!(m.turns[1].goal, Goal::Intent { .. }),
            "{:?}",
            m.turns
        );
        // The robot's welcome is its to say in its words.
        assert!(said_in(&m.turns[2].goal).is_some());
    }
}
