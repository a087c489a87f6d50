//! The viewer's floor plan: the shared [`Plan`] in the state at the cursor,
//! actors walking mid-event; in the robot's view, the world as it believes
//! it with differences marked.

use std::collections::{BTreeMap, BTreeSet};

use bevy_egui::egui::{self, Rect};

use crate::gui::geometry::{actor_points, locations, object_points, walk};
use crate::gui::plan::{Fit, Plan};
use crate::ids::Id;
use crate::trace::Key;
use crate::trace::Value;

use super::state::{Cursor, Model};

/// Paints the plan. `robot`: draw beliefs and mark where they are wrong.
pub fn plan(
    ui: &mut egui::Ui,
    area: Rect,
    model: &Model,
    cursor: &Cursor,
    robot: bool,
    highlight: &BTreeSet<Id>,
) {
    let scene = model.pb.lookup();
    let truth = model.pb.state_at(cursor.n);
    let believed: BTreeMap<Key, Value> = (model.pb.beliefs_at(cursor.n).into_iter())
        .map(|(k, (v, _))| (k, v))
        .collect();
    let mut plan = Plan::of_state(scene, if robot { &believed } else { &truth });
    // Actors walking mid-event, in the truth.
    let mut actors = actor_points(scene, &truth);
    if cursor.frac > 0.0
        && let Some(e) = model.pb.events.get(cursor.n)
        && e.outcome.is_ok()
        && e.action.skill_name() == "navigate_to"
    {
        let after = model.pb.state_at(cursor.n + 1);
        if let (Some(from), Some(to)) = (
            actors.get(&e.actor).copied(),
            actor_points(scene, &after).get(&e.actor).copied(),
        ) {
            actors.insert(e.actor.clone(), walk(&scene, e, from, to, cursor.frac));
        }
    }
    if robot {
        // Others where the robot last saw them; itself where it is.
        if let Some(p) = actors.get(&model.pb.robot) {
            plan.actors.insert(model.pb.robot.clone(), *p);
        }
        let true_at = locations(&truth);
        let true_points = object_points(scene, &true_at, &actors);
        let believed_at = locations(&believed);
        plan.objects = object_points(scene, &believed_at, &plan.actors);
        for id in plan.objects.keys() {
            if believed_at.get(id) != true_at.get(id) {
                plan.wrong
                    .insert(id.clone(), true_points.get(id).map(|(p, _)| *p));
            }
        }
        for d in &scene.devices {
            let key = |f: &str| (d.id.clone(), Id::new(f));
            if (d.fields.keys()).any(|f| {
                believed
                    .get(&key(f))
                    .is_some_and(|b| truth.get(&key(f)) != Some(b))
            }) {
                plan.wrong.insert(d.id.clone(), None);
            }
        }
        plan.legend =
            "robot's view: beliefs drawn; red = believed wrongly (line to the truth)".into();
    } else {
        plan.objects = object_points(scene, &locations(&truth), &actors);
        plan.actors = actors;
        plan.legend = "truth: filled = on, ring = inside a container; yellow device = on".into();
    }
    plan.highlight = highlight.clone();
    plan.paint(&ui.painter_at(area), &Fit::new(&scene, area), area);
}
