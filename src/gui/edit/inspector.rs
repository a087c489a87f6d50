//! The inspector: every field of the selection with a widget for its type.
//! Each change becomes one edit; text is committed on Enter or leaving the
//! field, and a dragged number is one undo step per drag.

use std::collections::BTreeMap;

use bevy_egui::egui::{self, Ui};

use super::state::{Dialog, EditorState};
use crate::editor::{Edit, Prop, referrers};
use crate::ids::Id;
use crate::scene::index::Kind;
use crate::scene::{ActorKind, FieldDef, Openable, Placement, Role, Surface};

/// A one-line text field; returns the new text once it is committed.
fn text(ui: &mut Ui, st: &mut EditorState, key: &str, current: &str) -> Option<String> {
    let mut value = st
        .buffers
        .get(key)
        .cloned()
        .unwrap_or_else(|| current.to_string());
    let r = ui.add(
        egui::TextEdit::singleline(&mut value)
            .id_salt(key)
            .desired_width(170.0),
    );
    if r.has_focus() || r.changed() {
        st.buffers.insert(key.to_string(), value.clone());
    }
    if r.lost_focus() {
        st.buffers.remove(key);
        if value != current {
            return Some(value);
        }
    }
    None
}

/// A number that is edited by dragging or typing. A drag is one undo
/// step: the group opens when it starts and closes when it stops.
fn number<T: egui::emath::Numeric>(
    ui: &mut Ui,
    st: &mut EditorState,
    value: T,
    range: std::ops::RangeInclusive<T>,
    speed: f64,
) -> Option<T> {
    let mut v = value;
    let r = ui.add(egui::DragValue::new(&mut v).range(range).speed(speed));
    if r.drag_started() {
        st.doc.begin_group();
    }
    if r.drag_stopped() {
        st.doc.end_group();
    }
    (r.changed() && v != value).then_some(v)
}

fn row(ui: &mut Ui, label: &str, add: impl FnOnce(&mut Ui)) {
    ui.label(label);
    add(ui);
    ui.end_row();
}

/// The ids of `kind` in the scene, for choosers.
pub(super) fn ids_of(st: &EditorState, kind: Kind) -> Vec<Id> {
    let s = st.doc.scene();
    match kind {
        Kind::Room => s.rooms.iter().map(|e| e.id.clone()).collect(),
        Kind::Furniture => s.furniture.iter().map(|e| e.id.clone()).collect(),
        Kind::Device => s.devices.iter().map(|e| e.id.clone()).collect(),
        Kind::Actor => s.actors.iter().map(|e| e.id.clone()).collect(),
        Kind::Door => s.doors.iter().map(|e| e.id.clone()).collect(),
        Kind::Object => s.objects.iter().map(|e| e.id.clone()).collect(),
    }
}

/// A chooser among `options` (with "none" when `none` is given).
fn choose(
    ui: &mut Ui,
    salt: &str,
    current: Option<&Id>,
    options: &[Id],
    none: Option<&str>,
) -> Option<Option<Id>> {
    let shown = current.map_or(none.unwrap_or("").to_string(), |c| c.to_string());
    let mut picked = None;
    egui::ComboBox::from_id_salt(salt)
        .selected_text(shown)
        .width(170.0)
        .show_ui(ui, |ui| {
            if let Some(n) = none
                && ui.selectable_label(current.is_none(), n).clicked()
            {
                picked = Some(None);
            }
            for o in options {
                if ui
                    .selectable_label(current == Some(o), o.as_str())
                    .clicked()
                {
                    picked = Some(Some(o.clone()));
                }
            }
        });
    picked.filter(|p| p.as_ref() != current)
}

fn roles_text(roles: &[Role]) -> String {
    roles
        .iter()
        .map(|r| r.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Parses "hot_drinks, light" into roles, or says which word is unknown.
fn parse_roles(s: &str) -> Result<Vec<Role>, String> {
    s.split(',')
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .map(|w| {
            serde_json::from_value(serde_json::Value::String(w.to_string())).map_err(|_| {
                format!("{w:?} is not a role (see \"Roles, not kind names\" in docs/households.md)")
            })
        })
        .collect()
}

/// The inspector panel for the selection.
pub fn inspector(ui: &mut Ui, st: &mut EditorState) {
    let Some(id) = st.selection.clone() else {
        scene_info(ui, st);
        return;
    };
    let Some(kind) = st.doc.lookup().kind_of(&id) else {
        st.selection = None;
        return;
    };
    ui.heading(format!("{} {}", kind_name(kind), id));
    let problems: Vec<String> = st
        .doc
        .problems_of(&id)
        .map(|p| format!("{}: {}", p.code, p.message))
        .collect();
    for p in &problems {
        ui.colored_label(egui::Color32::from_rgb(200, 30, 30), p);
    }
    let mut edits: Vec<Edit> = Vec::new();
    egui::Grid::new("inspector")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            row(ui, "id", |ui| {
                if let Some(to) = text(ui, st, "id", id.as_str()) {
                    edits.push(Edit::Rename {
                        from: id.clone(),
                        to: Id::new(to.trim()),
                    });
                }
            });
            match kind {
                Kind::Room => room(ui, st, &id, &mut edits),
                Kind::Door => door(ui, st, &id, &mut edits),
                Kind::Furniture | Kind::Device => fixture(ui, st, &id, &mut edits),
                Kind::Object => object(ui, st, &id, &mut edits),
                Kind::Actor => actor(ui, st, &id, &mut edits),
            }
        });
    if kind == Kind::Device {
        fields(ui, st, &id, &mut edits);
    }
    ui.separator();
    if ui
        .button("🗑 Delete")
        .on_hover_text("Delete (Del)")
        .clicked()
    {
        ask_delete(st, &id);
    }
    for edit in edits {
        let renamed = match &edit {
            Edit::Rename { to, .. } => Some(to.clone()),
            _ => None,
        };
        if st.apply(edit)
            && let Some(to) = renamed
        {
            st.select(Some(to));
        }
    }
}

/// Delete: straight away when nothing refers to it, otherwise ask.
pub fn ask_delete(st: &mut EditorState, id: &Id) {
    let by = referrers(st.doc.scene(), id);
    if by.is_empty() {
        if st.apply(Edit::Remove {
            id: id.clone(),
            policy: Default::default(),
        }) {
            st.select(None);
        }
    } else {
        st.dialog = Some(Dialog::Delete {
            id: id.clone(),
            referrers: by,
            move_to: None,
        });
    }
}

pub fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Room => "Room",
        Kind::Door => "Door",
        Kind::Furniture => "Furniture",
        Kind::Device => "Device",
        Kind::Object => "Object",
        Kind::Actor => "Actor",
    }
}

fn scene_info(ui: &mut Ui, st: &mut EditorState) {
    ui.heading("Scene");
    ui.label("Nothing selected: click something on the plan or in the outline.");
    let s = st.doc.scene().clone();
    let mut edit = None;
    egui::Grid::new("scene_info").num_columns(2).show(ui, |ui| {
        row(ui, "scene id", |ui| {
            if let Some(v) = text(ui, st, "scene id", s.id.as_str()) {
                edit = Some(Edit::SetSceneInfo {
                    id: Id::new(v.trim()),
                    name: s.name.clone(),
                    description: s.description.clone(),
                });
            }
        });
        row(ui, "name", |ui| {
            if let Some(v) = text(ui, st, "scene name", &s.name) {
                edit = Some(Edit::SetSceneInfo {
                    id: s.id.clone(),
                    name: v,
                    description: s.description.clone(),
                });
            }
        });
        row(ui, "description", |ui| {
            if let Some(v) = text(ui, st, "scene description", &s.description) {
                edit = Some(Edit::SetSceneInfo {
                    id: s.id.clone(),
                    name: s.name.clone(),
                    description: v,
                });
            }
        });
    });
    if let Some(e) = edit {
        st.apply(e);
    }
}

fn set(id: &Id, prop: Prop) -> Edit {
    Edit::Set {
        id: id.clone(),
        prop,
    }
}

fn room(ui: &mut Ui, st: &mut EditorState, id: &Id, edits: &mut Vec<Edit>) {
    let Some(r) = st.doc.lookup().room(id).cloned() else {
        return;
    };
    row(ui, "name", |ui| {
        if let Some(v) = text(ui, st, "name", &r.name) {
            edits.push(set(id, Prop::Name(v)));
        }
    });
    let mut rect = r.rect;
    let mut changed = false;
    row(ui, "x, y (m)", |ui| {
        ui.horizontal(|ui| {
            for v in [&mut rect.x, &mut rect.y] {
                if let Some(n) = number(ui, st, *v, -100.0..=100.0, 0.05) {
                    *v = n;
                    changed = true;
                }
            }
        });
    });
    row(ui, "width, depth (m)", |ui| {
        ui.horizontal(|ui| {
            for v in [&mut rect.w, &mut rect.h] {
                if let Some(n) = number(ui, st, *v, 0.5..=60.0, 0.05) {
                    *v = n;
                    changed = true;
                }
            }
        });
    });
    if changed {
        edits.push(Edit::ResizeRoom {
            id: id.clone(),
            rect,
        });
    }
    row(ui, "height (m)", |ui| {
        if let Some(h) = number(ui, st, r.height, 1.8..=6.0, 0.05) {
            edits.push(set(id, Prop::Height(h)));
        }
    });
}

fn door(ui: &mut Ui, st: &mut EditorState, id: &Id, edits: &mut Vec<Edit>) {
    let Some(d) = st.doc.lookup().door(id).cloned() else {
        return;
    };
    let rooms = ids_of(st, Kind::Room);
    row(ui, "between", |ui| {
        ui.vertical(|ui| {
            if let Some(Some(a)) = choose(ui, "door_a", Some(&d.rooms.0), &rooms, None) {
                edits.push(set(id, Prop::Rooms((a, d.rooms.1.clone()))));
            }
            if let Some(Some(b)) = choose(ui, "door_b", Some(&d.rooms.1), &rooms, None) {
                edits.push(set(id, Prop::Rooms((d.rooms.0.clone(), b))));
            }
        });
    });
    row(ui, "at (m)", |ui| {
        ui.horizontal(|ui| {
            let x = number(ui, st, d.at.0, -100.0..=100.0, 0.05);
            let y = number(ui, st, d.at.1, -100.0..=100.0, 0.05);
            if x.is_some() || y.is_some() {
                edits.push(Edit::MoveDoor {
                    id: id.clone(),
                    to: (x.unwrap_or(d.at.0), y.unwrap_or(d.at.1)),
                });
            }
        });
    });
    let (mut openable, mut open) = (d.openable, d.open);
    row(ui, "door leaf", |ui| {
        ui.horizontal(|ui| {
            let a = ui.checkbox(&mut openable, "can close").changed();
            let b = ui
                .add_enabled(openable, egui::Checkbox::new(&mut open, "starts open"))
                .changed();
            if a || b {
                edits.push(set(
                    id,
                    Prop::Doorway {
                        openable,
                        open: open || !openable,
                    },
                ));
            }
        });
    });
}

fn fixture(ui: &mut Ui, st: &mut EditorState, id: &Id, edits: &mut Vec<Edit>) {
    // Furniture and devices alike; a device has `remote` too.
    let Some(f) = st.doc.lookup().fixture(id) else {
        return;
    };
    let (fkind, room, pos, size, openable, remote) = (
        f.kind.to_string(),
        f.room.clone(),
        f.pos,
        f.size,
        f.openable,
        f.remote,
    );
    let (surfaces, description, roles) = (
        f.surfaces.to_vec(),
        f.description.to_string(),
        f.roles.to_vec(),
    );
    row(ui, "kind", |ui| {
        if let Some(v) = text(ui, st, "kind", &fkind) {
            edits.push(set(id, Prop::Kind(v.trim().to_string())));
        }
    });
    row(ui, "room", |ui| {
        ui.label(room.as_str())
            .on_hover_text("drag it on the plan to move it to another room");
    });
    row(ui, "position (m)", |ui| {
        ui.horizontal(|ui| {
            let x = number(ui, st, pos.0, -100.0..=100.0, 0.05);
            let y = number(ui, st, pos.1, -100.0..=100.0, 0.05);
            if x.is_some() || y.is_some() {
                edits.push(Edit::MoveFixture {
                    id: id.clone(),
                    to: (x.unwrap_or(pos.0), y.unwrap_or(pos.1)),
                });
            }
        });
    });
    row(ui, "size w×d×h (m)", |ui| {
        ui.horizontal(|ui| {
            let mut s2 = size;
            let mut changed = false;
            for v in [&mut s2.0, &mut s2.1, &mut s2.2] {
                if let Some(n) = number(ui, st, *v, 0.05..=10.0, 0.02) {
                    *v = n;
                    changed = true;
                }
            }
            if changed {
                edits.push(Edit::ResizeFixture {
                    id: id.clone(),
                    size: s2,
                });
            }
        });
    });
    row(ui, "surfaces", |ui| {
        ui.vertical(|ui| {
            let mut list = surfaces.clone();
            let mut changed = false;
            let mut remove = None;
            for (i, sf) in list.iter_mut().enumerate() {
                ui.horizontal(|ui| {
                    let (mut inside, mut cap) = match *sf {
                        Surface::On(n) => (false, n),
                        Surface::In(n) => (true, n),
                    };
                    changed |= ui.selectable_value(&mut inside, false, "on").changed();
                    changed |= ui.selectable_value(&mut inside, true, "in").changed();
                    if let Some(n) = number(ui, st, cap, 1..=200, 0.2) {
                        cap = n;
                        changed = true;
                    }
                    ui.label("objects");
                    if ui
                        .small_button("✖")
                        .on_hover_text("remove this surface")
                        .clicked()
                    {
                        remove = Some(i);
                    }
                    *sf = if inside {
                        Surface::In(cap)
                    } else {
                        Surface::On(cap)
                    };
                });
            }
            if let Some(i) = remove {
                list.remove(i);
                changed = true;
            }
            if ui.small_button("+ surface").clicked() {
                list.push(Surface::On(4));
                changed = true;
            }
            if changed {
                edits.push(set(id, Prop::Surfaces(list)));
            }
        });
    });
    row(ui, "opens", |ui| {
        let mut o = openable;
        ui.horizontal(|ui| {
            ui.selectable_value(&mut o, Openable::No, "no");
            ui.selectable_value(&mut o, Openable::Closed, "closed");
            ui.selectable_value(&mut o, Openable::Open, "open");
        });
        if o != openable {
            edits.push(set(id, Prop::Openable(o)));
        }
    });
    if let Some(remote) = remote {
        row(ui, "remote", |ui| {
            let mut r = remote;
            if ui
                .checkbox(&mut r, "operable from anywhere (app, voice)")
                .changed()
            {
                edits.push(set(id, Prop::Remote(r)));
            }
        });
    }
    row(ui, "description", |ui| {
        if let Some(v) = text(ui, st, "description", &description) {
            edits.push(set(id, Prop::Description(v)));
        }
    });
    roles_row(ui, st, id, &roles, edits);
}

fn roles_row(ui: &mut Ui, st: &mut EditorState, id: &Id, roles: &[Role], edits: &mut Vec<Edit>) {
    row(ui, "extra roles", |ui| {
        if let Some(v) = text(ui, st, "roles", &roles_text(roles)) {
            match parse_roles(&v) {
                Ok(r) => edits.push(set(id, Prop::Roles(r))),
                Err(e) => st.status = e,
            }
        }
    });
}

fn object(ui: &mut Ui, st: &mut EditorState, id: &Id, edits: &mut Vec<Edit>) {
    let Some(o) = st.doc.lookup().object(id).cloned() else {
        return;
    };
    row(ui, "category", |ui| {
        if let Some(v) = text(ui, st, "category", &o.category) {
            edits.push(set(id, Prop::Category(v.trim().to_string())));
        }
    });
    row(ui, "description", |ui| {
        if let Some(v) = text(ui, st, "description", &o.description) {
            edits.push(set(id, Prop::Description(v)));
        }
    });
    let actors = ids_of(st, Kind::Actor);
    row(ui, "owner", |ui| {
        if let Some(owner) = choose(ui, "owner", o.owner.as_ref(), &actors, Some("nobody")) {
            edits.push(set(id, Prop::Owner(owner)));
        }
    });
    let outside = Id::new(crate::scene::OUTSIDE);
    let (on, inside) = match &o.at {
        Placement::On(r) => (r, Some(false)),
        Placement::In(r) => (r, Some(true)),
        Placement::HeldBy(a) => (a, None),
        Placement::Outside => (&outside, None),
    };
    let mut holders = ids_of(st, Kind::Furniture);
    holders.extend(ids_of(st, Kind::Device));
    holders.extend(actors);
    row(ui, "placed", |ui| {
        ui.horizontal(|ui| {
            if let Some(inside) = inside {
                let mut i = inside;
                ui.selectable_value(&mut i, false, "on");
                ui.selectable_value(&mut i, true, "in");
                if i != inside {
                    edits.push(Edit::PlaceObject {
                        id: id.clone(),
                        on: on.clone(),
                        inside: Some(i),
                    });
                }
            } else {
                ui.label("held by");
            }
            if let Some(Some(to)) = choose(ui, "placed_on", Some(on), &holders, None) {
                edits.push(Edit::PlaceObject {
                    id: id.clone(),
                    on: to,
                    inside: None,
                });
            }
        });
    });
    roles_row(ui, st, id, &o.roles, edits);
}

fn actor(ui: &mut Ui, st: &mut EditorState, id: &Id, edits: &mut Vec<Edit>) {
    let Some(a) = st.doc.lookup().actor(id).cloned() else {
        return;
    };
    row(ui, "name", |ui| {
        if let Some(v) = text(ui, st, "name", &a.name) {
            edits.push(set(id, Prop::Name(v)));
        }
    });
    row(ui, "kind", |ui| {
        let mut k = a.kind;
        ui.horizontal(|ui| {
            ui.selectable_value(&mut k, ActorKind::Human, "human");
            ui.selectable_value(&mut k, ActorKind::Robot, "robot");
        });
        if k != a.kind {
            edits.push(set(id, Prop::ActorKind(k)));
        }
    });
    row(ui, "role", |ui| {
        if let Some(v) = text(ui, st, "role", &a.role) {
            edits.push(set(id, Prop::Role(v)));
        }
    });
    row(ui, "hands", |ui| {
        if let Some(h) = number(ui, st, a.hands, 0..=4, 0.05) {
            edits.push(set(id, Prop::Hands(h)));
        }
    });
    row(ui, "speed (m/s)", |ui| {
        if let Some(v) = number(ui, st, a.speed, 0.1..=3.0, 0.01) {
            edits.push(set(id, Prop::Speed(v)));
        }
    });
    let rooms = ids_of(st, Kind::Room);
    row(ui, "starts in", |ui| {
        if let Some(Some(r)) = choose(ui, "start_room", Some(&a.room), &rooms, None) {
            edits.push(Edit::StartActor {
                id: id.clone(),
                at: r,
            });
        }
    });
    let s = st.doc.scene();
    let here: Vec<Id> = (s
        .furniture
        .iter()
        .filter(|f| f.room == a.room)
        .map(|f| f.id.clone()))
    .chain(
        s.devices
            .iter()
            .filter(|d| d.room == a.room)
            .map(|d| d.id.clone()),
    )
    .collect();
    row(ui, "next to", |ui| {
        if let Some(near) = choose(
            ui,
            "near",
            a.near.as_ref(),
            &here,
            Some("the middle of the room"),
        ) {
            edits.push(match near {
                Some(f) => Edit::StartActor {
                    id: id.clone(),
                    at: f,
                },
                None => set(id, Prop::Near(None)),
            });
        }
    });
}

/// A device's typed fields: value within its schema, the schema itself,
/// and adding or removing fields.
fn fields(ui: &mut Ui, st: &mut EditorState, id: &Id, edits: &mut Vec<Edit>) {
    let Some(d) = st.doc.lookup().device(id).cloned() else {
        return;
    };
    ui.separator();
    ui.strong("State fields");
    let set_field = |name: &str, f: Option<FieldDef>| Edit::SetField {
        device: id.clone(),
        name: name.to_string(),
        field: f,
    };
    egui::Grid::new("fields")
        .num_columns(3)
        .striped(true)
        .show(ui, |ui| {
            for (name, f) in &d.fields {
                ui.label(name);
                let mut changed: Option<FieldDef> = None;
                ui.horizontal_wrapped(|ui| match f.clone() {
                    FieldDef::Bool(b) => {
                        let mut v = b;
                        if ui.checkbox(&mut v, "").changed() {
                            changed = Some(FieldDef::Bool(v));
                        }
                    }
                    FieldDef::Int { value, min, max } => {
                        if let Some(v) = number(ui, st, value, min..=max, 0.2) {
                            changed = Some(FieldDef::Int { value: v, min, max });
                        }
                        ui.label("in");
                        // The model clamps the value into moved bounds.
                        if let Some(m) = number(ui, st, min, i64::MIN / 2..=max, 0.2) {
                            changed = Some(FieldDef::Int { value, min: m, max });
                        }
                        ui.label("..");
                        if let Some(m) = number(ui, st, max, min..=i64::MAX / 2, 0.2) {
                            changed = Some(FieldDef::Int { value, min, max: m });
                        }
                    }
                    FieldDef::Float { value, min, max } => {
                        if let Some(v) = number(ui, st, value, min..=max, 0.05) {
                            changed = Some(FieldDef::Float { value: v, min, max });
                        }
                        ui.label("in");
                        if let Some(m) = number(ui, st, min, -1e6..=max, 0.05) {
                            changed = Some(FieldDef::Float { value, min: m, max });
                        }
                        ui.label("..");
                        if let Some(m) = number(ui, st, max, min..=1e6, 0.05) {
                            changed = Some(FieldDef::Float { value, min, max: m });
                        }
                    }
                    FieldDef::Enum { value, options } => {
                        let ids: Vec<Id> = options.iter().map(|o| Id::new(o)).collect();
                        if let Some(Some(v)) = choose(
                            ui,
                            &format!("enum_{name}"),
                            Some(&Id::new(&value)),
                            &ids,
                            None,
                        ) {
                            changed = Some(FieldDef::Enum {
                                value: v.to_string(),
                                options: options.clone(),
                            });
                        }
                        if let Some(text) =
                            text(ui, st, &format!("options_{name}"), &options.join(", "))
                        {
                            let opts: Vec<String> = text
                                .split(',')
                                .map(|s| s.trim().to_string())
                                .filter(|s| !s.is_empty())
                                .collect();
                            // The model repairs a value the options lost.
                            changed = Some(FieldDef::Enum {
                                value: value.clone(),
                                options: opts,
                            });
                        }
                    }
                    FieldDef::Timer { value, max } => {
                        if let Some(v) = number(ui, st, value, 0..=max, 1.0) {
                            changed = Some(FieldDef::Timer { value: v, max });
                        }
                        ui.label("s, up to");
                        if let Some(m) = number(ui, st, max, 1..=7 * 86_400, 10.0) {
                            changed = Some(FieldDef::Timer { value, max: m });
                        }
                    }
                });
                if ui
                    .small_button("✖")
                    .on_hover_text(format!("remove the field {name}"))
                    .clicked()
                {
                    edits.push(set_field(name, None));
                }
                if let Some(f) = changed {
                    edits.push(set_field(name, Some(f)));
                }
                ui.end_row();
            }
        });
    ui.horizontal(|ui| {
        let key = "new_field";
        let mut name = st.buffers.get(key).cloned().unwrap_or_default();
        ui.add(
            egui::TextEdit::singleline(&mut name)
                .id_salt(key)
                .hint_text("new field")
                .desired_width(90.0),
        );
        st.buffers.insert(key.to_string(), name.clone());
        let name = name.trim().to_string();
        let defaults: BTreeMap<&str, FieldDef> = BTreeMap::from([
            ("bool", FieldDef::Bool(false)),
            (
                "int",
                FieldDef::Int {
                    value: 0,
                    min: 0,
                    max: 10,
                },
            ),
            (
                "float",
                FieldDef::Float {
                    value: 0.0,
                    min: 0.0,
                    max: 1.0,
                },
            ),
            (
                "enum",
                FieldDef::Enum {
                    value: "off".into(),
                    options: vec!["off".into(), "on".into()],
                },
            ),
            (
                "timer",
                FieldDef::Timer {
                    value: 0,
                    max: 3600,
                },
            ),
        ]);
        for (ty, def) in defaults {
            if ui.small_button(format!("+ {ty}")).clicked() {
                if name.is_empty() || d.fields.contains_key(&name) {
                    st.status = "give the new field a name the device does not have yet".into();
                } else {
                    edits.push(set_field(&name, Some(def)));
                    st.buffers.remove(key);
                }
            }
        }
    });
}
