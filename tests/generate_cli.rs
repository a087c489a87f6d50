//! End-to-end tests of `hearth generate` and `hearth batch`: defaults,
//! flags, the summary, clear errors on bad flags and unreadable scenes,
//! batch resume after a killed run, and one failed trace not stopping the
//! others.

mod common;

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::*;
use serde_json::Value;

const FILES: [&str; 5] = [
    "events.jsonl",
    "manifest.json",
    "notes.jsonl",
    "plan.json",
    "scene.ron",
];

fn manifest(dir: &Path) -> Value {
    serde_json::from_slice(&fs::read(dir.join("manifest.json")).unwrap()).unwrap()
}

/// Entries of a batch directory but its record, `batch.json`.
fn traces_in(dir: &Path) -> Vec<String> {
    entries(dir)
        .into_iter()
        .filter(|n| n != "batch.json")
        .collect()
}

/// The finished traces in a batch directory: visible, with a manifest (a
/// hidden temporary directory gets its manifest just before it is renamed,
/// so a kill can leave one that the batch rightly redoes).
fn finished(dir: &Path) -> Vec<String> {
    entries(dir)
        .into_iter()
        .filter(|n| !n.starts_with('.') && dir.join(n).join("manifest.json").is_file())
        .collect()
}

#[test]
fn generate_with_no_arguments_writes_the_default_trace() {
    let t = tmp();
    let r = run_in(Some(t.path()), &["generate"]).ok();
    let dir = t.path().join("traces/family_apartment-s0");
    assert_eq!(entries(&dir), FILES);
    let m = manifest(&dir);
    assert_eq!(m["backend"], "scripted");
    assert_eq!(m["seed"], 0);
    assert_eq!(m["days"], 3);
    let events = fs::read_to_string(dir.join("events.jsonl")).unwrap();
    let n = events.lines().count() as u64 - 1; // the header line
    assert_eq!(m["counts"]["events"], n);
    // The summary: days, sessions, events by kind, rejections, unseen, time.
    r.stdout_has("wrote traces/family_apartment-s0")
        .stdout_has("3 days, ")
        .stdout_has(&format!("{n} events ("))
        .stdout_has(" rejected")
        .stdout_has("by kind: action ")
        .stdout_has("by skill: ")
        .stdout_has("navigate_to ")
        .stdout_has("the robot did not see")
        .stdout_has("took ");
    // Running it again without --force refuses and leaves the trace alone.
    let before = snapshot(&dir);
    run_in(Some(t.path()), &["generate"])
        .fails()
        .stderr_has("--force");
    assert_eq!(snapshot(&dir), before);
    run_in(Some(t.path()), &["generate", "--force"]).ok();
    assert_eq!(snapshot(&dir), before, "same seed, same bytes");
}

#[test]
fn generate_flags() {
    let t = tmp();
    let out = t.path().join("x");
    hearth(&[
        "generate",
        "--scene",
        "studio",
        "--days",
        "2",
        "--seed",
        "9",
        "--out",
        s(&out),
    ])
    .ok()
    .stdout_has("2 days, ");
    let m = manifest(&out);
    assert_eq!(m["scene"]["id"], "studio");
    assert_eq!(m["seed"], 9);
    assert_eq!(m["days"], 2);
    let notes = fs::read_to_string(out.join("notes.jsonl")).unwrap();
    assert_eq!(notes.lines().count(), 2, "one line of notes per day");
    // A scene by path works like a built-in id.
    let file = repo().join("scenes/studio.ron");
    let by_path = t.path().join("y");
    hearth(&[
        "generate",
        "--scene",
        s(&file),
        "--days",
        "2",
        "--seed",
        "9",
        "--out",
        s(&by_path),
    ])
    .ok();
    assert_eq!(
        fs::read(out.join("events.jsonl")).unwrap(),
        fs::read(by_path.join("events.jsonl")).unwrap()
    );
}

#[test]
fn generate_rejects_bad_flags_clearly() {
    let t = tmp();
    let cases: [(&[&str], &str); 12] = [
        (
            &["--robot-away", "0.95"],
            "robot-away must be a share between 0 and 0.9",
        ),
        (&["--robot-away", "-0.1"], "robot-away must be a share"),
        (&["--lookalikes", "6"], "lookalikes must be between 0 and 5"),
        (
            &["--moves", "-1"],
            "moves must be a factor between 0 and 5, not -1",
        ),
        (&["--moves", "NaN"], "moves must be a factor"),
        (&["--days", "0"], "--days"),
        (&["--days", "366"], "--days"),
        (&["--days", "three"], "invalid value 'three'"),
        (&["--seed", "-1"], "unexpected argument '-1'"),
        (&["--backend", "gpt"], "possible values: scripted"),
        (&["--scene", "nowhere.ron"], "nowhere.ron"),
        (&["--bogus"], "unexpected argument '--bogus'"),
    ];
    for (args, says) in cases {
        let mut all = vec!["generate"];
        all.extend_from_slice(args);
        run_in(Some(t.path()), &all).fails().stderr_has(says);
    }
    assert!(entries(t.path()).is_empty(), "nothing written on bad flags");
}

#[test]
fn generate_reports_unreadable_scenes_with_their_position() {
    let t = tmp();
    let broken = write(t.path(), "broken.ron", "Scene(\n  id: \"x\",\n  rooms: [\n");
    run_in(Some(t.path()), &["generate", "--scene", "broken.ron"])
        .fails()
        .stderr_has("broken.ron:");
    let binary = t.path().join("binary.ron");
    fs::write(&binary, [0xff, 0xfe, 0x00, 0x41]).unwrap();
    run_in(Some(t.path()), &["generate", "--scene", "binary.ron"])
        .fails()
        .stderr_has("binary.ron");
    fs::create_dir(t.path().join("dir.ron")).unwrap();
    run_in(Some(t.path()), &["generate", "--scene", "dir.ron"])
        .fails()
        .stderr_has("dir.ron");
    // Semantically wrong scenes are refused before anything is written.
    let text = fs::read_to_string(repo().join("scenes/studio.ron"))
        .unwrap()
        .replacen("room: \"main_room\"", "room: \"attic\"", 1);
    assert!(
        text.contains("\"attic\""),
        "the studio has a room main_room"
    );
    write(t.path(), "bad.ron", &text);
    run_in(Some(t.path()), &["generate", "--scene", "bad.ron"])
        .fails()
        .stderr_has("bad.ron:")
        .stderr_has("attic");
    assert!(!t.path().join("traces").exists());
    drop(broken);
}

#[test]
fn batch_generates_scenes_times_seeds_and_resumes() {
    let t = tmp();
    let out = t.path().join("out");
    let r = hearth(&[
        "batch",
        "--scenes",
        "studio,family_apartment",
        "--seeds",
        "0..3",
        "--days",
        "1",
        "--jobs",
        "2",
        "--out",
        s(&out),
    ])
    .ok();
    r.stdout_has("6 generated, 0 already there");
    let mut want: Vec<String> = ["family_apartment", "studio"]
        .iter()
        .flat_map(|sc| (0..3).map(move |i| format!("{sc}-s{i}")))
        .collect();
    want.sort();
    assert_eq!(traces_in(&out), want);
    // The batch is recorded for `batch status` and for other shards.
    assert!(out.join("batch.json").is_file());
    // Each is the same trace `generate` writes for that seed.
    let single = t.path().join("single");
    hearth(&[
        "generate",
        "--scene",
        "studio",
        "--seed",
        "2",
        "--days",
        "1",
        "--out",
        s(&single),
    ])
    .ok();
    assert_eq!(
        fs::read(single.join("events.jsonl")).unwrap(),
        fs::read(out.join("studio-s2/events.jsonl")).unwrap()
    );
    // A second run finds everything done and touches nothing.
    let before = snapshot(&out);
    let again = [
        "batch",
        "--scenes",
        "studio,family_apartment",
        "--seeds",
        "0..3",
        "--days",
        "1",
        "--out",
        s(&out),
    ];
    hearth(&again)
        .ok()
        .stdout_has("0 generated, 6 already there");
    assert_eq!(snapshot(&out), before);
    // A trace cut short (a power loss before the data reached the disk)
    // disagrees with its manifest: it is refused on reading and redone.
    let events = out.join("studio-s1/events.jsonl");
    let text = fs::read_to_string(&events).unwrap();
    let cut: String = text.lines().take(10).map(|l| format!("{l}\n")).collect();
    fs::write(&events, cut).unwrap();
    let err = hearth::store::read_trace(&out.join("studio-s1")).unwrap_err();
    assert!(
        err.to_string()
            .contains("has 9 events but manifest.json says"),
        "{err}"
    );
    hearth(&again)
        .ok()
        .stdout_has("1 generated, 5 already there");
    assert_eq!(snapshot(&out), before);
}

#[test]
fn batch_resumes_after_being_killed() {
    let t = tmp();
    let out = t.path().join("out");
    let args = [
        "batch",
        "--scenes",
        "family_apartment",
        "--seeds",
        "0..24",
        "--days",
        "2",
        "--jobs",
        "1",
        "--out",
        s(&out),
    ];
    let mut child = Command::new(BIN)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once a few traces are done, mid-way through the next.
    let deadline = Instant::now() + Duration::from_secs(120);
    while !out.exists() || finished(&out).len() < 3 {
        assert!(Instant::now() < deadline, "batch made no progress");
        assert!(child.try_wait().unwrap().is_none(), "batch ended too soon");
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let done = finished(&out);
    assert!(done.len() < 24, "killed too late to test resuming");
    // Killed: no visible half-written trace, at most a hidden temporary one.
    for name in traces_in(&out) {
        assert!(
            done.contains(&name) || (name.starts_with('.') && name.contains(".tmp-")),
            "half-written {name} after a kill"
        );
    }
    let before: Vec<_> = done.iter().map(|d| snapshot(&out.join(d))).collect();
    let r = hearth(&args).ok();
    r.stdout_has(&format!(
        "{} generated, {} already there",
        24 - done.len(),
        done.len()
    ));
    let mut want: Vec<String> = (0..24).map(|i| format!("family_apartment-s{i}")).collect();
    want.sort();
    assert_eq!(traces_in(&out), want, "exactly the full set, no duplicates");
    assert_eq!(finished(&out), want);
    for (d, snap) in done.iter().zip(before) {
        assert_eq!(snapshot(&out.join(d)), snap, "{d} was redone");
    }
    assert_no_temp(&out);
}

#[test]
fn one_failed_trace_does_not_stop_the_batch() {
    let t = tmp();
    let out = t.path().join("out");
    fs::create_dir(&out).unwrap();
    // A file where one trace should go makes that trace fail.
    fs::write(out.join("studio-s1"), "in the way").unwrap();
    let r = hearth(&[
        "batch",
        "--scenes",
        "studio",
        "--seeds",
        "0..4",
        "--days",
        "1",
        "--out",
        s(&out),
    ])
    .fails();
    r.stdout_has("3 generated, 0 already there (skipped), 1 failed")
        .stderr_has("failed studio-s1: ");
    assert_eq!(
        finished(&out),
        ["studio-s0", "studio-s2", "studio-s3"].map(String::from)
    );
    assert_eq!(
        fs::read_to_string(out.join("studio-s1")).unwrap(),
        "in the way"
    );
}

#[test]
fn batch_rejects_bad_flags_clearly() {
    let t = tmp();
    let cases: [(&[&str], &str); 11] = [
        (&["--robot-away", "2"], "robot-away must be a share"),
        (&["--moves", "9"], "moves must be a factor"),
        (&["--seeds", "5..2"], "empty seed range"),
        (&["--seeds", "a..3"], "\"a\" is not a number"),
        (&["--seeds", "x"], "write a number or a range"),
        (&["--jobs", "0"], "--jobs"),
        (&["--days", "0"], "--days"),
        (&["--backend", "gpt"], "possible values: scripted"),
        (
            &["--scenes", "nomatch*.ron"],
            "no scene file matches nomatch*.ron",
        ),
        (&["--scenes", "missing.ron"], "missing.ron"),
        (&["--scenes", ","], "no scenes given"),
    ];
    for (args, says) in cases {
        let mut all = vec!["batch", "--out", "o"];
        all.extend_from_slice(args);
        run_in(Some(t.path()), &all).fails().stderr_has(says);
    }
    assert!(entries(t.path()).is_empty(), "nothing written on bad flags");
    // An unreadable scene among good ones stops the batch before it starts.
    write(t.path(), "broken.ron", "Scene(");
    run_in(
        Some(t.path()),
        &["batch", "--out", "o", "--scenes", "studio,broken.ron"],
    )
    .fails()
    .stderr_has("broken.ron:1:");
    assert!(!t.path().join("o").exists());
}

#[test]
fn difficulty_flags_are_recorded_and_defaults_change_nothing() {
    let t = tmp();
    let plain = t.path().join("plain");
    let zeros = t.path().join("zeros");
    let hard = t.path().join("hard");
    let common = ["generate", "--days", "1", "--seed", "2", "--out"];
    let with = |out: &Path, extra: &[&str]| {
        let mut all = common.to_vec();
        all.push(s(out));
        all.extend_from_slice(extra);
        hearth(&all).ok();
    };
    with(&plain, &[]);
    // The defaults spelled out are the ordinary trace, byte for byte, and
    // the manifest says nothing of them.
    with(
        &zeros,
        &["--robot-away", "0", "--lookalikes", "0", "--moves", "1"],
    );
    assert_eq!(snapshot(&plain), snapshot(&zeros));
    assert!(manifest(&plain).get("difficulty").is_none());
    with(
        &hard,
        &["--robot-away", "0.4", "--lookalikes", "2", "--moves", "2"],
    );
    let d = &manifest(&hard)["difficulty"];
    assert_eq!(d["robot_away"], 0.4);
    assert_eq!(d["lookalikes"], 2);
    assert_eq!(d["moves"], 2.0);
    assert_ne!(snapshot(&plain), snapshot(&hard));
    // A batch records them for every trace and in its record, and a resume
    // with other settings is refused.
    let b = t.path().join("b");
    let batch = |extra: &[&str]| {
        let mut all = vec!["batch", "--scenes", "studio", "--seeds", "0", "--days", "1"];
        all.extend_from_slice(extra);
        all.extend_from_slice(&["--out", s(&b)]);
        hearth(&all)
    };
    batch(&["--moves", "3"]).ok();
    assert_eq!(manifest(&b.join("studio-s0"))["difficulty"]["moves"], 3.0);
    let rec: Value = serde_json::from_slice(&fs::read(b.join("batch.json")).unwrap()).unwrap();
    assert_eq!(rec["difficulty"]["moves"], 3.0);
    // The dataset card says so too.
    hearth(&["dataset", "card", s(&b)]).ok();
    let card = fs::read_to_string(b.join("DATASET.md")).unwrap();
    assert!(card.contains("things moved 3x as often"), "{card}");
    batch(&[]).fails();
}
