//! The 3D view: rooms as floors with low walls, furniture and devices as
//! boxes, actors as capsules, objects as small cubes, under an orbit camera
//! (drag to turn, scroll to zoom). Moved from the playback state each frame.

use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
use bevy::prelude::*;

use crate::ids::Id;
use crate::trace::Value;

use super::state::{Cursor, Mode, Model, View};
use crate::gui::geometry::*;

#[derive(Resource)]
pub struct Orbit {
    pub yaw: f32,
    pub pitch: f32,
    pub distance: f32,
    pub target: Vec3,
}

impl Default for Orbit {
    fn default() -> Self {
        Orbit {
            yaw: -0.6,
            pitch: 0.9,
            distance: 18.0,
            target: Vec3::ZERO,
        }
    }
}

#[derive(Component)]
pub struct ActorMesh(pub Id);
#[derive(Component)]
pub struct ObjectMesh(pub Id);
#[derive(Component)]
pub struct DeviceMesh(pub Id, pub Handle<StandardMaterial>);
#[derive(Component)]
pub struct MainCamera;

/// Scene metres (x, y on the plan, height) to world space (y up).
fn world(p: Vec2, height: f32) -> Vec3 {
    Vec3::new(p.x, height, p.y)
}

pub fn setup(
    mut commands: Commands,
    model: Res<Model>,
    mut orbit: ResMut<Orbit>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let scene = &model.pb.scene;
    let (lo, hi) = bounds(scene);
    orbit.target = world((lo + hi) / 2.0, 0.0);
    orbit.distance = (hi - lo).length() * 1.1;
    // No tone-mapping LUTs: they would pull in more Bevy features for little gain here.
    commands.spawn((
        Camera3d::default(),
        bevy::core_pipeline::tonemapping::Tonemapping::None,
        MainCamera,
        Transform::default(),
    ));
    commands.spawn((
        DirectionalLight {
            illuminance: 9000.0,
            shadow_maps_enabled: false,
            ..default()
        },
        Transform::from_xyz(3.0, 10.0, 4.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.insert_resource(GlobalAmbientLight {
        brightness: 600.0,
        ..default()
    });
    let mut boxed = |commands: &mut Commands, centre: Vec3, size: Vec3, colour: Color| {
        commands.spawn((
            Mesh3d(meshes.add(Cuboid::new(size.x, size.y, size.z))),
            MeshMaterial3d(materials.add(colour)),
            Transform::from_translation(centre),
        ));
    };
    for r in &scene.rooms {
        let (a, b) = (
            Vec2::new(r.rect.x, r.rect.y),
            Vec2::new(r.rect.x + r.rect.w, r.rect.y + r.rect.h),
        );
        boxed(
            &mut commands,
            world((a + b) / 2.0, -0.025),
            Vec3::new(r.rect.w, 0.05, r.rect.h),
            Color::srgb(0.92, 0.9, 0.84),
        );
        // Low walls along the edges, so the rooms read from above.
        let h = 0.6;
        for (c, s) in [
            (
                Vec2::new((a.x + b.x) / 2.0, a.y),
                Vec3::new(r.rect.w, h, 0.06),
            ),
            (
                Vec2::new((a.x + b.x) / 2.0, b.y),
                Vec3::new(r.rect.w, h, 0.06),
            ),
            (
                Vec2::new(a.x, (a.y + b.y) / 2.0),
                Vec3::new(0.06, h, r.rect.h),
            ),
            (
                Vec2::new(b.x, (a.y + b.y) / 2.0),
                Vec3::new(0.06, h, r.rect.h),
            ),
        ] {
            boxed(
                &mut commands,
                world(c, h / 2.0),
                s,
                Color::srgb(0.55, 0.55, 0.58),
            );
        }
    }
    for f in &scene.furniture {
        let h = f.size.2.max(0.05);
        boxed(
            &mut commands,
            world(Vec2::new(f.pos.0, f.pos.1), h / 2.0),
            Vec3::new(f.size.0, h, f.size.1),
            Color::srgb(0.72, 0.6, 0.45),
        );
    }
    for d in &scene.devices {
        let h = d.size.2.max(0.05);
        let mat = materials.add(Color::srgb(0.6, 0.62, 0.68));
        commands.spawn((
            Mesh3d(meshes.add(Cuboid::new(d.size.0.max(0.1), h, d.size.1.max(0.1)))),
            MeshMaterial3d(mat.clone()),
            Transform::from_translation(world(Vec2::new(d.pos.0, d.pos.1), h / 2.0)),
            DeviceMesh(d.id.clone(), mat),
        ));
    }
    for a in &scene.actors {
        let colour = if a.kind == crate::scene::ActorKind::Robot {
            Color::srgb(0.95, 0.5, 0.1)
        } else {
            Color::srgb(0.2, 0.45, 0.85)
        };
        commands.spawn((
            Mesh3d(meshes.add(Capsule3d::new(0.2, 0.9))),
            MeshMaterial3d(materials.add(colour)),
            Transform::default(),
            ActorMesh(a.id.clone()),
        ));
    }
    let cube = meshes.add(Cuboid::new(0.12, 0.12, 0.12));
    for o in &scene.objects {
        let h =
            o.id.bytes()
                .fold(7u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(b)));
        let colour = Color::srgb(
            (h % 200) as f32 / 255.0 + 0.1,
            (h / 200 % 200) as f32 / 255.0 + 0.1,
            (h / 40000 % 200) as f32 / 255.0 + 0.1,
        );
        commands.spawn((
            Mesh3d(cube.clone()),
            MeshMaterial3d(materials.add(colour)),
            Transform::default(),
            ObjectMesh(o.id.clone()),
        ));
    }
}

/// System: drag to turn, scroll to zoom (3D view, pointer not on a panel).
pub fn orbit(
    view: Res<View>,
    mut orbit: ResMut<Orbit>,
    buttons: Res<ButtonInput<MouseButton>>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    mut camera: Query<&mut Transform, With<MainCamera>>,
) {
    if view.mode == Mode::ThreeD && !view.pointer_over_ui {
        if buttons.pressed(MouseButton::Left) || buttons.pressed(MouseButton::Right) {
            orbit.yaw -= motion.delta.x * 0.006;
            orbit.pitch = (orbit.pitch + motion.delta.y * 0.006).clamp(0.15, 1.5);
        }
        // Wheels step in lines, trackpads in pixels.
        let step = match scroll.unit {
            bevy::input::mouse::MouseScrollUnit::Line => 0.08,
            bevy::input::mouse::MouseScrollUnit::Pixel => 0.002,
        };
        orbit.distance = (orbit.distance * (-scroll.delta.y * step).exp()).clamp(3.0, 80.0);
    }
    for mut t in &mut camera {
        let offset = Vec3::new(
            orbit.distance * orbit.pitch.cos() * orbit.yaw.sin(),
            orbit.distance * orbit.pitch.sin(),
            orbit.distance * orbit.pitch.cos() * orbit.yaw.cos(),
        );
        *t = Transform::from_translation(orbit.target + offset).looking_at(orbit.target, Vec3::Y);
    }
}

/// System: actors, objects and device colours from the state at the cursor.
#[allow(clippy::type_complexity)]
pub fn sync(
    model: Res<Model>,
    cursor: Res<Cursor>,
    view: Res<View>,
    mut actors: Query<(&ActorMesh, &mut Transform, &mut Visibility), Without<ObjectMesh>>,
    mut objects: Query<(&ObjectMesh, &mut Transform, &mut Visibility), Without<ActorMesh>>,
    devices: Query<&DeviceMesh>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    if view.mode != Mode::ThreeD {
        return;
    }
    let scene = model.pb.lookup();
    let state = model.pb.state_at(cursor.n);
    let points = actor_points(scene, &state);
    for (a, mut t, mut vis) in &mut actors {
        match points.get(&a.0) {
            Some(p) => {
                t.translation = world(*p, 0.65);
                *vis = Visibility::Visible;
            }
            None => *vis = Visibility::Hidden,
        }
    }
    let objects_at = object_points(scene, &locations(&state), &points);
    for (o, mut t, mut vis) in &mut objects {
        let Some((p, inside)) = objects_at.get(&o.0) else {
            *vis = Visibility::Hidden;
            continue;
        };
        // On top of its receptacle, or at hand height.
        let height = match state.get(&(o.0.clone(), Id::new("location"))) {
            Some(Value::Location(
                crate::trace::Location::On(r) | crate::trace::Location::In(r),
            )) => {
                fixture(scene, r).map_or(0.8, |(_, _, h)| if *inside { h * 0.5 } else { h + 0.06 })
            }
            _ => 1.0,
        };
        t.translation = world(*p, height);
        *vis = Visibility::Visible;
    }
    for d in &devices {
        let on = matches!(
            state.get(&(d.0.clone(), Id::new("power"))),
            Some(Value::Bool(true))
        );
        if let Some(mut m) = materials.get_mut(&d.1) {
            m.base_color = if on {
                Color::srgb(1.0, 0.82, 0.25)
            } else {
                Color::srgb(0.6, 0.62, 0.68)
            };
        }
    }
}
