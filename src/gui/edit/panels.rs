//! The editor's frame: menu bar, palette and outline, inspector, problems,
//! dialogs and shortcuts around the plan.

use bevy_egui::egui::{self, Key, KeyboardShortcut, LayerId, Modifiers, Ui, UiBuilder};

use super::canvas::canvas;
use super::inspector::{ask_delete, ids_of, inspector, kind_name};
use super::state::{After, Dialog, EditorState, Tool, Tried, shown};
use crate::catalogue;
use crate::editor::{Edit, OnRemove, new_id};
use crate::ids::Id;
use crate::scene::index::Kind;
use crate::scene::{ActorKind, Placement};

const UNDO: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Z);
const REDO: KeyboardShortcut =
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::Z);
const REDO_Y: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Y);
const SAVE: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::S);

/// Draws one frame of the editor into `ctx` and acts on what was done.
pub fn show(ctx: &egui::Context, st: &mut EditorState) {
    st.poll_try();
    // Light, like the plan, whatever the desktop prefers.
    if ctx.theme() != egui::Theme::Light {
        ctx.set_theme(egui::Theme::Light);
    }
    shortcuts(ctx, st);
    let mut root = Ui::new(
        ctx.clone(),
        "editor".into(),
        UiBuilder::new()
            .layer_id(LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    egui::Panel::top("menu").show(&mut root, |ui| menu(ui, st));
    egui::Panel::bottom("problems")
        .resizable(true)
        .default_size(100.0)
        .show(&mut root, |ui| problems(ui, st));
    egui::Panel::left("palette")
        .resizable(true)
        .default_size(230.0)
        .show(&mut root, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                palette(ui, st);
                ui.separator();
                outline(ui, st);
            });
        });
    egui::Panel::right("inspector")
        .resizable(true)
        .default_size(330.0)
        .show(&mut root, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| inspector(ui, st));
        });
    egui::CentralPanel::no_frame().show(&mut root, |ui| canvas(ui, st));
    dialogs(ctx, st);
    if st.trying().is_some() {
        ctx.request_repaint_after(std::time::Duration::from_millis(100));
    }
}

fn shortcuts(ctx: &egui::Context, st: &mut EditorState) {
    if st.dialog.is_some() {
        return;
    }
    // Redo before undo: Ctrl+Shift+Z also matches Ctrl+Z logically.
    let typing = ctx.egui_wants_keyboard_input();
    let (redo, undo, save, delete, escape) = ctx.input_mut(|i| {
        (
            i.consume_shortcut(&REDO) || i.consume_shortcut(&REDO_Y),
            i.consume_shortcut(&UNDO),
            i.consume_shortcut(&SAVE),
            !typing && i.key_pressed(Key::Delete),
            i.key_pressed(Key::Escape),
        )
    });
    if redo {
        st.redo();
    } else if undo {
        st.undo();
    }
    if save {
        st.save();
    }
    if delete && let Some(id) = st.selection.clone() {
        ask_delete(st, &id);
    }
    if escape {
        st.tool = Tool::Select;
        st.select(None);
    }
}

fn menu(ui: &mut Ui, st: &mut EditorState) {
    ui.horizontal_wrapped(|ui| {
        if ui.button("New").clicked() {
            st.request(After::New);
        }
        if ui.button("Open…").clicked() {
            st.dialog = Some(Dialog::Open {
                path: String::new(),
            });
        }
        if ui.button("Save").on_hover_text("Ctrl+S").clicked() {
            st.save();
        }
        if ui.button("Save as…").clicked() {
            let path = st
                .path
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default();
            st.dialog = Some(Dialog::SaveAs { path });
        }
        ui.separator();
        if ui
            .add_enabled(st.doc.can_undo(), egui::Button::new("⟲ Undo"))
            .on_hover_text("Ctrl+Z")
            .clicked()
        {
            st.undo();
        }
        if ui
            .add_enabled(st.doc.can_redo(), egui::Button::new("⟳ Redo"))
            .on_hover_text("Ctrl+Shift+Z or Ctrl+Y")
            .clicked()
        {
            st.redo();
        }
        ui.separator();
        ui.selectable_value(&mut st.tool, Tool::Select, "Select");
        ui.selectable_value(&mut st.tool, Tool::Door, "Door tool");
        ui.checkbox(&mut st.snap, "Snap (0.1 m, walls)");
        if ui
            .button("⛶ Fit")
            .on_hover_text("show the whole scene")
            .clicked()
        {
            st.reset_view();
        }
        ui.separator();
        let running = st.trying();
        if ui
            .add_enabled(running.is_none(), egui::Button::new("▶ Try it"))
            .on_hover_text("generate a 1-day offline trace of this scene")
            .clicked()
        {
            st.try_it();
        }
        if let Some(t) = running {
            ui.spinner();
            ui.label(format!("generating a day… {:.1} s", t.as_secs_f32()));
        }
        match st.tried.clone() {
            Some(Tried::Done { out, summary }) => {
                ui.label(summary);
                if ui.button("Open in viewer").clicked() {
                    match std::env::current_exe().and_then(|exe| {
                        std::process::Command::new(exe)
                            .arg("view")
                            .arg(&out)
                            .spawn()
                    }) {
                        Ok(_) => st.status = format!("opened {} in the viewer", out.display()),
                        Err(e) => {
                            st.status = format!(
                                "could not start the viewer: {e}; run: hearth view {}",
                                out.display()
                            )
                        }
                    }
                }
            }
            Some(Tried::Failed(why)) => {
                ui.colored_label(
                    egui::Color32::from_rgb(200, 30, 30),
                    format!("Try it failed: {why}"),
                );
            }
            None => {}
        }
    });
    ui.horizontal(|ui| {
        ui.strong(st.title());
        let n = st.doc.problems().len();
        if n == 0 {
            ui.colored_label(egui::Color32::from_rgb(40, 140, 60), "valid");
        } else {
            ui.colored_label(
                egui::Color32::from_rgb(200, 30, 30),
                format!("{n} problem(s)"),
            );
        }
        ui.label(format!("{} undo step(s)", st.doc.undo_depth()));
        if !st.status.is_empty() {
            ui.separator();
            ui.label(&st.status);
        }
    });
}

/// The room the palette adds into: the selected room, or the room of the
/// selected thing, or the first room.
fn target_room(st: &EditorState) -> Option<Id> {
    let s = st.doc.lookup();
    let sel = st.selection.as_ref()?;
    match s.kind_of(sel)? {
        Kind::Room => Some(sel.clone()),
        Kind::Furniture | Kind::Device => s.fixture(sel).map(|f| f.room.clone()),
        Kind::Actor => s.actor(sel).map(|a| a.room.clone()),
        _ => None,
    }
    .or_else(|| s.rooms.first().map(|r| r.id.clone()))
}

/// Applies the addition `make` gives for a new thing named after `stem`,
/// and selects it; its id, if it was added.
fn add(st: &mut EditorState, stem: &str, make: impl FnOnce(Option<Id>) -> Edit) -> Option<Id> {
    let id = new_id(st.doc.lookup(), stem);
    st.apply(make(Some(id.clone()))).then(|| {
        st.select(Some(id.clone()));
        id
    })
}

fn palette(ui: &mut Ui, st: &mut EditorState) {
    let cat = catalogue::builtin();
    ui.heading("Add");
    // Rooms: a catalogue room type, to the right of the house.
    ui.horizontal(|ui| {
        let names: Vec<&str> = cat.rooms.iter().map(|r| r.kind.as_str()).collect();
        egui::ComboBox::from_id_salt("room_type")
            .selected_text(names.get(st.palette.room).copied().unwrap_or(""))
            .show_index(ui, &mut st.palette.room, names.len(), |i| names[i]);
        if ui.button("+ room").clicked() {
            let t = &cat.rooms[st.palette.room.min(cat.rooms.len() - 1)];
            st.frame_on = add(st, &t.kind, |id| Edit::AddRoomFromCatalogue {
                kind: t.kind.clone(),
                at: None,
                id,
            });
        }
    });
    if ui
        .selectable_label(st.tool == Tool::Door, "+ door (click a shared wall)")
        .clicked()
    {
        st.tool = Tool::Door;
    }
    let room = target_room(st);
    let into = room.as_ref().map_or("no room".into(), |r| r.to_string());
    // Furniture and devices from the catalogue.
    ui.horizontal(|ui| {
        let kinds: Vec<String> = (cat.furniture.iter().map(|f| f.kind.clone()))
            .chain(cat.devices.iter().map(|d| d.kind.clone()))
            .collect();
        egui::ComboBox::from_id_salt("fixture_kind")
            .selected_text(kinds.get(st.palette.fixture).cloned().unwrap_or_default())
            .show_index(ui, &mut st.palette.fixture, kinds.len(), |i| {
                kinds[i].clone()
            });
        if ui
            .button("+ fixture")
            .on_hover_text(format!("into {into}"))
            .clicked()
            && let Some(room) = room.clone()
        {
            let kind = &kinds[st.palette.fixture.min(kinds.len() - 1)];
            add(st, kind, |id| Edit::AddFixtureFromCatalogue {
                kind: kind.clone(),
                room,
                pos: None,
                id,
            });
        }
    });
    // Objects onto the selected receptacle.
    ui.horizontal(|ui| {
        let cats: Vec<&str> = cat.objects.iter().map(|o| o.category.as_str()).collect();
        egui::ComboBox::from_id_salt("object_category")
            .selected_text(cats.get(st.palette.object).copied().unwrap_or(""))
            .show_index(ui, &mut st.palette.object, cats.len(), |i| cats[i]);
        if ui
            .button("+ object")
            .on_hover_text("onto the selected receptacle")
            .clicked()
        {
            let on = st.selection.clone().filter(|s| {
                matches!(
                    st.doc.lookup().kind_of(s),
                    Some(Kind::Furniture | Kind::Device)
                )
            });
            match on {
                None => st.status = "select a receptacle (furniture or a device) first".into(),
                Some(on) => {
                    let category = cats[st.palette.object.min(cats.len() - 1)];
                    add(st, category, |id| Edit::AddObjectFromCatalogue {
                        category: category.to_string(),
                        on,
                        inside: None,
                        id,
                    });
                }
            }
        }
    });
    ui.horizontal(|ui| {
        for (label, kind) in [
            ("+ person", ActorKind::Human),
            ("+ robot", ActorKind::Robot),
        ] {
            if ui
                .button(label)
                .on_hover_text(format!("into {into}"))
                .clicked()
                && let Some(room) = room.clone()
            {
                let stem = if kind == ActorKind::Robot {
                    "robot"
                } else {
                    "person"
                };
                add(st, stem, |id| Edit::AddActorOfKind { kind, at: room, id });
            }
        }
    });
}

/// Everything in the scene, by room, as selectable labels.
fn outline(ui: &mut Ui, st: &mut EditorState) {
    ui.heading("Outline");
    let s = st.doc.scene().clone();
    let mut picked = None;
    let mut label = |ui: &mut Ui, id: &Id, text: String| {
        if ui
            .selectable_label(st.selection.as_ref() == Some(id), text)
            .clicked()
        {
            picked = Some(id.clone());
        }
    };
    for r in &s.rooms {
        egui::CollapsingHeader::new(format!("{} ({})", r.name, r.id))
            .id_salt(r.id.as_str())
            .show(ui, |ui| {
                label(ui, &r.id, r.id.to_string());
                let fixtures = (s
                    .furniture
                    .iter()
                    .filter(|f| f.room == r.id)
                    .map(|f| (&f.id, &f.kind)))
                .chain(
                    s.devices
                        .iter()
                        .filter(|d| d.room == r.id)
                        .map(|d| (&d.id, &d.kind)),
                );
                for (fid, kind) in fixtures {
                    label(ui, fid, format!("{fid} · {kind}"));
                    ui.indent(fid.as_str(), |ui| {
                        for o in s.objects.iter().filter(
                            |o| matches!(&o.at, Placement::On(x) | Placement::In(x) if x == fid),
                        ) {
                            label(ui, &o.id, o.id.to_string());
                        }
                    });
                }
                for a in s.actors.iter().filter(|a| a.room == r.id) {
                    label(ui, &a.id, format!("{} · {:?}", a.id, a.kind).to_lowercase());
                }
            });
    }
    egui::CollapsingHeader::new(format!("Doors ({})", s.doors.len())).show(ui, |ui| {
        for d in &s.doors {
            label(ui, &d.id, format!("{} · {}–{}", d.id, d.rooms.0, d.rooms.1));
        }
    });
    if let Some(id) = picked {
        st.select(Some(id.clone()));
        st.frame_on = Some(id);
    }
}

fn problems(ui: &mut Ui, st: &mut EditorState) {
    let list = st.doc.problems().to_vec();
    ui.horizontal(|ui| {
        ui.strong(format!("Problems ({})", list.len()));
        if list.is_empty() {
            ui.label("none: `hearth scene check` would accept this scene");
        }
    });
    egui::ScrollArea::vertical()
        .auto_shrink(false)
        .show(ui, |ui| {
            for p in &list {
                let text = match &p.id {
                    Some(id) => format!("{} · {}: {}", p.code, id, p.message),
                    None => format!("{}: {}", p.code, p.message),
                };
                let r = ui.selectable_label(
                    p.id.is_some() && p.id == st.selection,
                    egui::RichText::new(text).color(egui::Color32::from_rgb(190, 30, 30)),
                );
                if r.clicked()
                    && let Some(id) = &p.id
                    && st.doc.lookup().kind_of(id).is_some()
                {
                    st.select(Some(id.clone()));
                    st.frame_on = Some(id.clone());
                }
            }
        });
}

fn dialogs(ctx: &egui::Context, st: &mut EditorState) {
    let Some(dialog) = st.dialog.clone() else {
        return;
    };
    let modal = egui::Modal::new(egui::Id::new("dialog")).show(ctx, |ui| {
        ui.set_max_width(460.0);
        match dialog {
            Dialog::Delete {
                id,
                referrers,
                move_to,
            } => {
                let kind = st.doc.lookup().kind_of(&id).map_or("Thing", kind_name);
                ui.heading(format!("Delete {} {id}?", kind.to_lowercase()));
                ui.label(format!("{} thing(s) refer to it:", referrers.len()));
                ui.label(
                    referrers
                        .iter()
                        .map(Id::as_str)
                        .collect::<Vec<_>>()
                        .join(", "),
                );
                let receptacles: Vec<Id> = [Kind::Furniture, Kind::Device, Kind::Actor]
                    .into_iter()
                    .flat_map(|k| ids_of(st, k))
                    .filter(|r| r != &id)
                    .collect();
                let mut target = move_to.clone();
                ui.horizontal(|ui| {
                    egui::ComboBox::from_label("move its objects to")
                        .selected_text(target.as_ref().map_or("…".to_string(), |t| t.to_string()))
                        .show_ui(ui, |ui| {
                            for r in &receptacles {
                                ui.selectable_value(&mut target, Some(r.clone()), r.as_str());
                            }
                        });
                });
                if target != move_to {
                    st.dialog = Some(Dialog::Delete {
                        id: id.clone(),
                        referrers: referrers.clone(),
                        move_to: target.clone(),
                    });
                }
                ui.horizontal(|ui| {
                    let mut policy = None;
                    if ui
                        .button("Delete with them")
                        .on_hover_text(
                            "doors, fixtures, objects and actors that depend on it go too",
                        )
                        .clicked()
                    {
                        policy = Some(OnRemove::Cascade);
                    }
                    if let Some(t) = &target
                        && ui.button(format!("Delete, move objects to {t}")).clicked()
                    {
                        policy = Some(OnRemove::MoveTo(t.clone()));
                    }
                    if ui.button("Cancel").clicked() {
                        st.dialog = None;
                    }
                    if let Some(policy) = policy {
                        st.dialog = None;
                        if st.apply(Edit::Remove {
                            id: id.clone(),
                            policy,
                        }) {
                            st.select(None);
                        }
                    }
                });
            }
            Dialog::SaveInvalid { path } => {
                let list = st.doc.problems().to_vec();
                ui.heading("Save a scene with problems?");
                ui.label(format!(
                    "`hearth scene check` will reject {} until these are fixed:",
                    shown(&path)
                ));
                for p in list.iter().take(12) {
                    ui.label(format!("• {}: {}", p.code, p.message));
                }
                if list.len() > 12 {
                    ui.label(format!("… and {} more", list.len() - 12));
                }
                ui.horizontal(|ui| {
                    if ui.button("Save anyway").clicked() {
                        st.dialog = None;
                        st.write(&path);
                    }
                    if ui.button("Cancel").clicked() {
                        st.dialog = None;
                    }
                });
            }
            Dialog::Unsaved { then } => {
                ui.heading("Unsaved changes");
                ui.label(format!("{} has changes that are not saved.", st.title()));
                ui.horizontal(|ui| {
                    if ui.button("Save").clicked() {
                        st.dialog = None;
                        st.save();
                        if !st.doc.is_modified() {
                            st.proceed(then.clone());
                        }
                    }
                    if ui.button("Discard changes").clicked() {
                        st.proceed(then.clone());
                    }
                    if ui.button("Cancel").clicked() {
                        st.dialog = None;
                    }
                });
            }
            Dialog::SaveAs { path } | Dialog::Open { path } => {
                let saving = matches!(st.dialog, Some(Dialog::SaveAs { .. }));
                ui.heading(if saving { "Save as" } else { "Open a scene" });
                let mut p = path.clone();
                let r = ui.add(
                    egui::TextEdit::singleline(&mut p)
                        .hint_text("path/to/home.ron")
                        .desired_width(400.0),
                );
                if ui.memory(|m| m.focused().is_none()) {
                    r.request_focus();
                }
                let enter =
                    (r.lost_focus() || r.has_focus()) && ui.input(|i| i.key_pressed(Key::Enter));
                st.dialog = Some(if saving {
                    Dialog::SaveAs { path: p.clone() }
                } else {
                    Dialog::Open { path: p.clone() }
                });
                ui.horizontal(|ui| {
                    let ok = ui
                        .add_enabled(
                            !p.trim().is_empty(),
                            egui::Button::new(if saving { "Save" } else { "Open" }),
                        )
                        .clicked()
                        || (enter && !p.trim().is_empty());
                    if ui.button("Cancel").clicked() {
                        st.dialog = None;
                    } else if ok {
                        let path = std::path::PathBuf::from(p.trim());
                        st.dialog = None;
                        if saving && st.doc.problems().is_empty() {
                            st.write(&path);
                        } else if saving {
                            st.dialog = Some(Dialog::SaveInvalid { path });
                        } else {
                            st.request(After::Open(path));
                        }
                    }
                });
            }
        }
    });
    if modal.should_close()
        && st.dialog.is_some()
        && !matches!(st.dialog, Some(Dialog::Unsaved { .. }))
    {
        st.dialog = None;
    }
}
