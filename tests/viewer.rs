//! The windows: screenshots of the real viewer and editor under Xvfb with
//! Mesa's software renderer, checked to show the scene (rooms where the
//! scene puts them, not blank) in 2D, the robot's view and 3D, the editor's
//! selection and problems; and their errors.

#![cfg(feature = "gui")]

mod common;

use std::path::Path;
use std::process::Command;

use common::*;

const W: u32 = 800;
const H: u32 = 600;

/// Runs `hearth view` under xvfb-run and returns the PNG's RGBA pixels.
fn shot(trace: &Path, out: &Path, extra: &[&str]) -> Vec<u8> {
    window(&["view", s(trace)], out, extra)
}

/// Runs `hearth CMD... --screenshot OUT` under xvfb-run; the PNG's RGBA pixels.
fn window(cmd: &[&str], out: &Path, extra: &[&str]) -> Vec<u8> {
    let size = format!("{W}x{H}");
    let mut args = vec!["-a", "-s", "-screen 0 1280x1024x24", BIN];
    args.extend_from_slice(cmd);
    args.extend_from_slice(&["--screenshot", s(out), "--size", &size]);
    args.extend_from_slice(extra);
    let run = Command::new("xvfb-run")
        .args(&args)
        .output()
        .expect("xvfb-run is installed (.ci/run installs xvfb)");
    assert!(
        run.status.success(),
        "hearth {} failed:\n{}",
        cmd[0],
        String::from_utf8_lossy(&run.stderr)
    );
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(out).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (W, H), "window size");
    let channels = info.color_type.samples();
    buf[..info.buffer_size()]
        .chunks(channels)
        .flat_map(|c| [c[0], c[1], c[2], 255])
        .collect()
}

fn pixel(img: &[u8], x: f32, y: f32) -> [u8; 3] {
    let i = ((y as u32).min(H - 1) * W + (x as u32).min(W - 1)) as usize * 4;
    [img[i], img[i + 1], img[i + 2]]
}

fn near(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 6)
}

fn distinct_colours(img: &[u8]) -> usize {
    let mut c: Vec<[u8; 3]> = img
        .chunks(4)
        .map(|p| [p[0] / 8, p[1] / 8, p[2] / 8])
        .collect();
    c.sort();
    c.dedup();
    c.len()
}

#[test]
fn screenshots_show_the_scene() {
    let t = tmp();
    let trace = t.path().join("tr");
    hearth(&["generate", "--days", "1", "--out", s(&trace)]).ok();
    let scene = hearth::store::read_trace(&trace).unwrap().scene;
    let plain = shot(
        &trace,
        &t.path().join("plan.png"),
        &["--plain", "--at", "150"],
    );
    assert!(distinct_colours(&plain) > 20, "a blank image");
    // The plan is fitted into the window with a 20-point margin.
    let (mut lo, mut hi) = ((f32::MAX, f32::MAX), (f32::MIN, f32::MIN));
    for r in &scene.rooms {
        lo = (lo.0.min(r.rect.x), lo.1.min(r.rect.y));
        hi = (hi.0.max(r.rect.x + r.rect.w), hi.1.max(r.rect.y + r.rect.h));
    }
    let scale = ((W as f32 - 40.0) / (hi.0 - lo.0)).min((H as f32 - 40.0) / (hi.1 - lo.1));
    let origin = (
        W as f32 / 2.0 - (hi.0 - lo.0) * scale / 2.0,
        H as f32 / 2.0 - (hi.1 - lo.1) * scale / 2.0,
    );
    let to_px = |x: f32, y: f32| (origin.0 + (x - lo.0) * scale, origin.1 + (y - lo.1) * scale);
    let room_fill = [252, 250, 244];
    for r in &scene.rooms {
        // Most of a grid inside the room shows the room's floor.
        let mut floor = 0;
        for i in 1..=5 {
            for j in 1..=5 {
                let (x, y) = to_px(
                    r.rect.x + r.rect.w * i as f32 / 6.0,
                    r.rect.y + r.rect.h * j as f32 / 6.0,
                );
                floor += usize::from(near(pixel(&plain, x, y), room_fill));
            }
        }
        assert!(
            floor >= 8,
            "room {} is not where the scene puts it ({floor}/25 floor pixels)",
            r.id
        );
    }
    // Outside the rooms: the background.
    let (x, y) = to_px(lo.0, lo.1);
    assert!(near(pixel(&plain, x - 8.0, y - 8.0), [238, 238, 233]));

    // The robot's view differs from the truth somewhere, the 3D view from both.
    let robot = shot(
        &trace,
        &t.path().join("robot.png"),
        &["--plain", "--mode", "robot", "--at", "150"],
    );
    assert!(distinct_colours(&robot) > 20);
    let three = shot(
        &trace,
        &t.path().join("3d.png"),
        &["--mode", "3d", "--at", "150"],
    );
    assert!(distinct_colours(&three) > 20);
    assert_ne!(three, plain);
    // The full viewer with its panels.
    let full = shot(&trace, &t.path().join("full.png"), &["--at", "150"]);
    assert!(distinct_colours(&full) > 20);
}

#[test]
fn view_reports_bad_input_before_opening_a_window() {
    let t = tmp();
    let trace = t.path().join("tr");
    hearth(&["generate", "--days", "1", "--out", s(&trace)]).ok();
    hearth(&["view", s(&trace), "--at", "999999"])
        .fails()
        .stderr_has("event 999999 is not in the trace");
    hearth(&["view", s(&t.path().join("nowhere"))])
        .fails()
        .stderr_has("is not a trace");
    hearth(&["view", s(&trace), "--size", "10x10"])
        .fails()
        .stderr_has("not a size between 200 and 8000");
    hearth(&[
        "view",
        s(&trace),
        "--report",
        s(&t.path().join("none.json")),
    ])
    .fails()
    .stderr_has("none.json");
}

/// Pixels within 12 of `rgb` in every channel.
fn count_near(img: &[u8], rgb: [u8; 3]) -> usize {
    img.chunks(4)
        .filter(|p| p.iter().zip(rgb).all(|(a, b)| a.abs_diff(b) <= 12))
        .count()
}

#[test]
fn the_editor_shows_the_plan_the_selection_and_problems_in_red() {
    let t = tmp();
    let scene = t.path().join("home.ron");
    let bad = t.path().join("bad.ron");
    let edits = t.path().join("edits.ron");
    std::fs::write(&scene, hearth::scene::default_source()).unwrap();
    std::fs::write(&edits, r#"[Set(id: "sofa_1", prop: Pos(12.0, 1.0))]"#).unwrap();
    hearth(&[
        "scene",
        "apply",
        s(&scene),
        s(&edits),
        "-o",
        s(&bad),
        "--allow-invalid",
    ])
    .ok();

    let good = window(
        &["edit", s(&scene)],
        &t.path().join("good.png"),
        &["--select", "sofa_1"],
    );
    assert!(distinct_colours(&good) > 20, "a blank image");
    let red = [220, 30, 30];
    let blue = [30, 110, 230];
    assert!(count_near(&good, blue) > 40, "the selection is outlined");
    assert!(
        count_near(&good, red) < 40,
        "a valid scene has no red outline"
    );
    let broken = window(
        &["edit", s(&bad)],
        &t.path().join("bad.png"),
        &["--select", "sofa_1"],
    );
    assert!(
        count_near(&broken, red) > 100,
        "the offender is outlined in red"
    );
    // The panels are drawn (light), not left black.
    let light = |x: f32, y: f32| pixel(&broken, x, y).iter().all(|&c| c > 200);
    assert!(light(4.0, H as f32 - 4.0) && light(W as f32 - 4.0, H as f32 / 2.0));
}

#[test]
fn edit_reports_bad_input_before_opening_a_window() {
    let t = tmp();
    let scene = t.path().join("home.ron");
    std::fs::write(&scene, hearth::scene::default_source()).unwrap();
    hearth(&["edit", s(&scene), "--select", "no_such_thing"])
        .fails()
        .stderr_has("nothing with that id");
    let broken = t.path().join("broken.ron");
    std::fs::write(&broken, "Scene(\n    id: \"x\",\n    rooms: [,\n").unwrap();
    hearth(&["edit", s(&broken)])
        .fails()
        .stderr_has("broken.ron:3:");
    hearth(&["edit", s(&scene), "--size", "1x1"])
        .fails()
        .stderr_has("not a size between 200 and 8000");
}
