//! The editor's UI driven as a person would, with `egui_kittest` (widgets
//! found by their AccessKit labels and values, no GPU): select, edit in the
//! inspector, undo and redo, rename, delete with referrers, drag on the
//! plan, drop an object, the door tool, files and unsaved changes, Try it.

#![cfg(feature = "gui")]

use std::time::{Duration, Instant};

use bevy_egui::egui::accesskit::Role;
use bevy_egui::egui::{self, Key, Modifiers, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::{By, Queryable};
use hearth::editor::{Edit, Prop};
use hearth::gui::edit::{Dialog, EditorState, Tried, show};
use hearth::ids::Id;
use hearth::scene::{self, Placement, Scene};

fn harness(state: EditorState) -> Harness<'static, EditorState> {
    Harness::builder()
        .with_size(egui::vec2(1500.0, 950.0))
        .build_ui_state(|ui, st: &mut EditorState| show(ui.ctx(), st), state)
}

fn apartment() -> Scene {
    scene::default_scene()
}

fn room_name(st: &EditorState, id: &str) -> String {
    let r = st.doc.scene().rooms.iter().find(|r| r.id.as_str() == id);
    r.unwrap().name.clone()
}

/// Replaces the text of the field showing `value` and presses Enter.
fn retype(h: &mut Harness<'_, EditorState>, value: &str, new: &str) {
    let field = || By::new().value(value).role(Role::TextInput);
    h.get(field()).click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get(field()).type_text(new);
    h.run();
    h.key_press(Key::Enter);
    h.run();
}

#[test]
fn outline_selects_inspector_edits_and_undo_redo_restore() {
    let original = apartment();
    let mut h = harness(EditorState::new(original.clone(), None));
    h.get_by_label("Living room (living_room)").click();
    h.run();
    h.get_by_label("living_room").click();
    h.run();
    assert_eq!(h.state().selection, Some(Id::new("living_room")));
    h.get_by_label("Room living_room");

    retype(&mut h, "Living room", "Lounge");
    assert_eq!(room_name(h.state(), "living_room"), "Lounge");
    assert!(h.state().doc.is_modified());
    assert_eq!(h.state().doc.undo_depth(), 1, "one commit, one step");

    h.get_by_label("⟲ Undo").click();
    h.run();
    assert_eq!(h.state().doc.scene(), &original);
    assert!(!h.state().doc.is_modified());

    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    assert_eq!(room_name(h.state(), "living_room"), "Lounge");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(h.state().doc.scene(), &original);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Y);
    h.run();
    assert_eq!(room_name(h.state(), "living_room"), "Lounge");
}

#[test]
fn renaming_an_id_in_the_inspector_renames_every_reference() {
    let mut st = EditorState::new(apartment(), None);
    st.select(Some(Id::new("fridge_1")));
    let inside: Vec<Id> = (st.doc.scene().objects.iter())
        .filter(|o| o.at == Placement::In(Id::new("fridge_1")))
        .map(|o| o.id.clone())
        .collect();
    assert!(!inside.is_empty());
    let mut h = harness(st);
    retype(&mut h, "fridge_1", "big_fridge");
    let s = h.state().doc.scene();
    assert!(s.furniture.iter().any(|f| f.id.as_str() == "big_fridge"));
    for id in &inside {
        let o = s.objects.iter().find(|o| &o.id == id).unwrap();
        assert_eq!(o.at, Placement::In(Id::new("big_fridge")), "{id}");
    }
    assert_eq!(h.state().selection, Some(Id::new("big_fridge")));
    assert!(h.state().doc.problems().is_empty());
}

#[test]
fn an_id_already_taken_is_refused_in_words() {
    let mut st = EditorState::new(apartment(), None);
    st.select(Some(Id::new("fridge_1")));
    let before = st.doc.scene().clone();
    let mut h = harness(st);
    retype(&mut h, "fridge_1", "kitchen");
    assert_eq!(h.state().doc.scene(), &before);
    assert!(h.state().status.contains("kitchen"), "{}", h.state().status);
}

#[test]
fn deleting_a_receptacle_lists_what_refers_to_it_and_asks() {
    let original = apartment();
    let mut st = EditorState::new(original.clone(), None);
    st.select(Some(Id::new("fridge_1")));
    let mut h = harness(st);
    h.get_by_label("🗑 Delete").click();
    h.run();
    let Some(Dialog::Delete { referrers, .. }) = h.state().dialog.clone() else {
        panic!("no delete dialog: {:?}", h.state().dialog);
    };
    assert!(
        referrers.iter().any(|r| r.as_str() == "milk_1"),
        "{referrers:?}"
    );
    h.get_by_label("Delete furniture fridge_1?");
    // Cancel changes nothing.
    h.get_by_label("Cancel").click();
    h.run();
    assert_eq!(h.state().doc.scene(), &original);
    // Delete, moving the food (and the list on top) onto the dining table.
    h.get_by_label("🗑 Delete").click();
    h.run();
    h.get_by_label("move its objects to").click();
    h.run();
    h.get_by_label("dining_table_1").click();
    h.run();
    h.get_by_label("Delete, move objects to dining_table_1")
        .click();
    h.run();
    let s = h.state().doc.scene();
    assert!(!s.furniture.iter().any(|f| f.id.as_str() == "fridge_1"));
    let milk = s
        .objects
        .iter()
        .find(|o| o.id.as_str() == "milk_1")
        .unwrap();
    assert!(
        matches!(&milk.at, Placement::On(c) | Placement::In(c) if c.as_str() == "dining_table_1"),
        "{:?}",
        milk.at
    );
    assert_eq!(h.state().selection, None);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(h.state().doc.scene(), &original);
}

/// The centre of a fixture on screen, from the last frame's plan.
fn screen_of_fixture(st: &EditorState, id: &str) -> Pos2 {
    let s = st.doc.scene();
    let pos = (s
        .furniture
        .iter()
        .find(|f| f.id.as_str() == id)
        .map(|f| f.pos))
    .or_else(|| {
        s.devices
            .iter()
            .find(|d| d.id.as_str() == id)
            .map(|d| d.pos)
    })
    .unwrap();
    st.to_screen(pos.0, pos.1).unwrap()
}

fn drag(h: &mut Harness<'_, EditorState>, from: Pos2, to: Pos2) {
    h.hover_at(from);
    h.run();
    h.drag_at(from);
    h.run();
    for i in 1..=6 {
        h.hover_at(from + (to - from) * (i as f32 / 6.0));
        h.run();
    }
    h.drop_at(to);
    h.run();
}

#[test]
fn dragging_a_fixture_moves_it_in_one_undo_step_snapped_to_the_grid() {
    let original = apartment();
    let mut h = harness(EditorState::new(original.clone(), None));
    let sofa = original
        .furniture
        .iter()
        .find(|f| f.id.as_str() == "sofa_1")
        .unwrap()
        .pos;
    let from = screen_of_fixture(h.state(), "sofa_1");
    // A click on the plan selects what is under the pointer.
    h.drag_at(from);
    h.run();
    h.drop_at(from);
    h.run();
    assert_eq!(h.state().selection, Some(Id::new("sofa_1")));
    let to = h.state().to_screen(sofa.0 - 0.63, sofa.1 - 0.5).unwrap();
    drag(&mut h, from, to);
    let st = h.state();
    let moved = st
        .doc
        .scene()
        .furniture
        .iter()
        .find(|f| f.id.as_str() == "sofa_1")
        .unwrap()
        .pos;
    assert!(
        (moved.0 - (sofa.0 - 0.63)).abs() < 0.16 && (moved.1 - (sofa.1 - 0.5)).abs() < 0.16,
        "{sofa:?} -> {moved:?}"
    );
    for v in [moved.0, moved.1] {
        let tenths = v * 10.0;
        let on_grid = (tenths - tenths.round()).abs() < 1e-3;
        let on_wall = st
            .doc
            .scene()
            .rooms
            .iter()
            .any(|r| (v - r.rect.x).abs() < 2.0 && !on_grid);
        assert!(
            on_grid || on_wall,
            "{v} is neither on the grid nor against a wall"
        );
    }
    assert_eq!(st.doc.undo_depth(), 1, "one drag, one step");
    // Its frames merged into one inverse: the sofa's place before the drag.
    assert!(
        matches!(st.doc.last_step(), Some(Edit::Set { id, prop: Prop::Pos(p) })
            if id.as_str() == "sofa_1" && *p == sofa),
        "{:?}",
        st.doc.last_step()
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(h.state().doc.scene(), &original);
}

#[test]
fn dropping_an_object_on_a_receptacle_places_it_there() {
    let mut st = EditorState::new(apartment(), None);
    st.snap = false;
    let mut h = harness(st);
    // Find where the remote is drawn: on its receptacle.
    let remote_on = (h.state().doc.scene().objects.iter())
        .find(|o| o.id.as_str() == "remote_1")
        .map(|o| o.at.clone())
        .unwrap();
    let Placement::On(holder) = remote_on else {
        panic!("{remote_on:?}")
    };
    assert_ne!(holder.as_str(), "dining_table_1");
    let plan = hearth::gui::plan::Plan::of_scene(h.state().doc.lookup());
    let p = plan.objects[&Id::new("remote_1")].0;
    let from = h.state().to_screen(p.x, p.y).unwrap();
    let to = screen_of_fixture(h.state(), "dining_table_1");
    drag(&mut h, from, to);
    let s = h.state().doc.scene();
    let o = s
        .objects
        .iter()
        .find(|o| o.id.as_str() == "remote_1")
        .unwrap();
    assert_eq!(
        o.at,
        Placement::On(Id::new("dining_table_1")),
        "status: {}",
        h.state().status
    );
}

#[test]
fn the_door_tool_puts_a_door_on_the_shared_wall() {
    let mut h = harness(EditorState::untitled());
    h.get_by_label("Door tool").click();
    h.run();
    // Off the wall by 0.2 m: snapped onto x = 5.
    let p = h.state().to_screen(5.2, 3.2).unwrap();
    h.hover_at(p);
    h.run();
    h.drag_at(p);
    h.run();
    h.drop_at(p);
    h.run();
    let s = h.state().doc.scene();
    let d = s
        .doors
        .iter()
        .find(|d| d.id.as_str() == "door_1")
        .expect("a new door");
    assert!(
        (d.at.0 - 5.0).abs() < 1e-4 && (d.at.1 - 3.2).abs() < 1e-3,
        "{:?}",
        d.at
    );
    assert!(
        h.state().doc.problems().is_empty(),
        "{:?}",
        h.state().doc.problems()
    );
    // Away from any shared wall: refused in words, nothing added.
    h.get_by_label("Door tool").click();
    h.run();
    let n = h.state().doc.scene().doors.len();
    let p = h.state().to_screen(2.0, 2.0).unwrap();
    h.drag_at(p);
    h.run();
    h.drop_at(p);
    h.run();
    assert_eq!(h.state().doc.scene().doors.len(), n);
    assert!(h.state().status.contains("wall"), "{}", h.state().status);
}

#[test]
fn saving_is_atomic_equal_and_warns_before_writing_an_invalid_scene() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("home.ron");
    std::fs::write(&path, scene::default_source()).unwrap();
    let st = EditorState::open(&path).unwrap();
    let opened = st.doc.scene().clone();
    let mut h = harness(st);
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    let saved = hearth::store::load_scene(&path).unwrap();
    assert_eq!(saved, opened, "open and save untouched keeps the scene");
    assert!(
        std::fs::read_dir(dir.path()).unwrap().count() == 1,
        "no temp file left"
    );

    // An invalid scene: a dialog lists the problems first.
    h.state_mut().apply(Edit::Set {
        id: Id::new("door_bathroom"),
        prop: Prop::Pos((3.0, 3.0)),
    });
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert!(matches!(h.state().dialog, Some(Dialog::SaveInvalid { .. })));
    h.get_by_label("Save a scene with problems?");
    assert!(
        h.get_all_by_label_contains("door_not_on_wall").count() >= 2,
        "listed in the dialog and the panel"
    );
    h.get_by_label("Cancel").click();
    h.run();
    assert_eq!(
        hearth::store::load_scene(&path).unwrap(),
        opened,
        "cancel wrote nothing"
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    h.get_by_label("Save anyway").click();
    h.run();
    let err = hearth::store::load_scene(&path).unwrap_err().to_string();
    assert!(err.contains("door_not_on_wall"), "{err}");
    assert!(!h.state().doc.is_modified());
}

#[test]
fn unsaved_changes_are_asked_about_before_new_and_quit() {
    let mut h = harness(EditorState::new(apartment(), None));
    h.state_mut().apply(Edit::Set {
        id: Id::new("living_room"),
        prop: Prop::Name("Den".into()),
    });
    h.get_by_label("New").click();
    h.run();
    h.get_by_label("Unsaved changes");
    h.get_by_label("Cancel").click();
    h.run();
    assert_eq!(room_name(h.state(), "living_room"), "Den");
    // Closing the window asks the same way.
    h.state_mut().request(hearth::gui::edit::After::Quit);
    h.run();
    assert!(!h.state().quit);
    h.get_by_label("Discard changes").click();
    h.run();
    assert!(h.state().quit);
    // Unmodified: New goes straight to the template.
    let mut h = harness(EditorState::new(apartment(), None));
    h.get_by_label("New").click();
    h.run();
    assert_eq!(h.state().doc.scene().id.as_str(), "my_home");
    assert_eq!(h.state().path, None);
}

#[test]
fn try_it_generates_a_day_in_the_background_and_reports_it() {
    let mut h = harness(EditorState::untitled());
    h.get_by_label("▶ Try it").click();
    h.step();
    let started = Instant::now();
    while h.state().tried.is_none() {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "Try it never finished"
        );
        std::thread::sleep(Duration::from_millis(20));
        h.step();
    }
    match h.state().tried.clone().unwrap() {
        Tried::Done { out, summary } => {
            assert!(summary.contains("events"), "{summary}");
            assert!(hearth::store::read_trace(&out).unwrap().events.len() > 10);
        }
        Tried::Failed(why) => panic!("{why}"),
    }
    h.get_by_label("Open in viewer");
}

#[test]
fn try_it_on_an_invalid_scene_says_why_in_words() {
    let mut st = EditorState::untitled();
    st.apply(Edit::Set {
        id: Id::new("sofa_1"),
        prop: Prop::Pos((40.0, 1.0)),
    });
    let mut h = harness(st);
    h.get_by_label("▶ Try it").click();
    h.run();
    let Some(Tried::Failed(why)) = h.state().tried.clone() else {
        panic!("{:?}", h.state().tried)
    };
    assert!(why.contains("problem") && why.contains("sofa_1"), "{why}");
    h.get_by_label_contains("Try it failed");
}

#[test]
fn the_palette_adds_from_the_catalogue_into_the_selected_room() {
    let mut st = EditorState::untitled();
    st.select(Some(Id::new("kitchen")));
    let mut h = harness(st);
    let before = h.state().doc.scene().furniture.len() + h.state().doc.scene().devices.len();
    h.get_by_label("+ fixture").click();
    h.run();
    let s = h.state().doc.scene();
    assert_eq!(s.furniture.len() + s.devices.len(), before + 1);
    let added = h
        .state()
        .selection
        .clone()
        .expect("the new fixture is selected");
    let room = (s
        .furniture
        .iter()
        .find(|f| f.id == added)
        .map(|f| f.room.clone()))
    .or_else(|| {
        s.devices
            .iter()
            .find(|d| d.id == added)
            .map(|d| d.room.clone())
    });
    assert_eq!(room, Some(Id::new("kitchen")));
    // An object needs a receptacle selected: first refused, then added onto it.
    h.state_mut().select(Some(Id::new("kitchen")));
    h.get_by_label("+ object").click();
    h.run();
    assert!(
        h.state().status.contains("receptacle"),
        "{}",
        h.state().status
    );
    h.state_mut().select(Some(Id::new("counter_1")));
    h.run();
    let n = h.state().doc.scene().objects.len();
    h.get_by_label("+ object").click();
    h.run();
    let s = h.state().doc.scene();
    assert_eq!(s.objects.len(), n + 1);
    assert_eq!(
        s.objects.last().unwrap().at,
        Placement::On(Id::new("counter_1"))
    );
    assert_eq!(h.state().doc.undo_depth(), 2, "each addition is one step");
    // A room of the chosen type east of the house, and a person in it.
    let rooms = h.state().doc.scene().rooms.len();
    h.get_by_label("+ room").click();
    h.run();
    let s = h.state().doc.scene();
    assert_eq!(s.rooms.len(), rooms + 1);
    let room = s.rooms.last().unwrap().id.clone();
    assert_eq!(h.state().selection, Some(room.clone()));
    h.get_by_label("+ person").click();
    h.run();
    let s = h.state().doc.scene();
    let person = s.actors.last().unwrap();
    assert_eq!(
        (person.room.clone(), person.role.as_str()),
        (room, "resident")
    );
    assert_eq!(h.state().doc.undo_depth(), 4);
}

#[test]
fn dropping_an_actor_in_a_room_starts_it_there() {
    let mut st = EditorState::untitled();
    st.snap = false;
    let mut h = harness(st);
    let plan = hearth::gui::plan::Plan::of_scene(h.state().doc.lookup());
    let p = plan.actors[&Id::new("alex")];
    let from = h.state().to_screen(p.x, p.y).unwrap();
    // Bare kitchen floor, away from its fixtures.
    let to = h.state().to_screen(6.5, 3.0).unwrap();
    drag(&mut h, from, to);
    let a = h
        .state()
        .doc
        .scene()
        .actors
        .iter()
        .find(|a| a.id.as_str() == "alex")
        .unwrap();
    assert_eq!(
        (a.room.as_str(), a.near.clone()),
        ("kitchen", None),
        "status: {}",
        h.state().status
    );
    assert_eq!(h.state().doc.undo_depth(), 1);
}

#[test]
fn save_as_asks_for_a_path_for_a_new_scene() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new_home.ron");
    let mut h = harness(EditorState::untitled());
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert!(matches!(h.state().dialog, Some(Dialog::SaveAs { .. })));
    h.get_by_label("Save as");
    h.get(By::new().role(Role::TextInput).value(""))
        .type_text(path.to_str().unwrap());
    h.run();
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(h.state().dialog, None);
    assert_eq!(h.state().path.as_deref(), Some(path.as_path()));
    let saved = hearth::store::load_scene(&path).unwrap();
    assert_eq!(&saved, h.state().doc.scene());
    assert!(
        h.state().title().ends_with("new_home.ron"),
        "{}",
        h.state().title()
    );
}

#[test]
fn the_title_shows_paths_relative_to_the_working_directory() {
    let cwd = std::env::current_dir().unwrap();
    let inside = cwd.join("scenes").join("family_apartment.ron");
    let st = EditorState::new(apartment(), Some(inside));
    assert_eq!(st.title(), "scenes/family_apartment.ron");
    let st = EditorState::new(apartment(), Some("/elsewhere/home.ron".into()));
    assert_eq!(st.title(), "/elsewhere/home.ron");
    let st = EditorState::new(apartment(), Some("home.ron".into()));
    assert_eq!(st.title(), "home.ron");
}
