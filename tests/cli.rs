//! End-to-end tests of the `hearth` binary: help and argument errors,
//! `scene check|default|list`, `run` (trace layout, counts, determinism,
//! atomicity on bad input, `--force`) and `bench`.
//!
//! Every test runs the real binary in its own temporary directory.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;
const BUILTIN_IDS: [&str; 3] = ["family_apartment", "studio", "large_house"];
const TRACE_FILES: [&str; 3] = ["events.jsonl", "manifest.json", "scene.ron"];

mod common;
use common::*;

/// A small valid household, shared with tests/scene_validation.rs.
const BASE: &str = include_str!("data/base.ron");

/// 1-based line of the first line of `text` containing `needle`.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("{needle:?} not in text"))
        + 1
}

/// `BASE` with `from` replaced by `to` (which must occur).
fn base_with(from: &str, to: &str) -> String {
    assert!(BASE.contains(from), "{from:?} not in BASE");
    BASE.replacen(from, to, 1)
}

/// Lines of stderr that look like `origin:LINE:COL: ...`.
#[track_caller]
fn assert_located(stderr: &str, origin: &str, line: usize) {
    let prefix = format!("{origin}:{line}:");
    let hit = stderr.lines().any(|l| {
        l.trim_start().strip_prefix(&prefix).is_some_and(|rest| {
            let col: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
            !col.is_empty() && rest[col.len()..].starts_with(':')
        })
    });
    assert!(
        hit,
        "stderr should locate a problem at {origin}:{line}:COL:\n{stderr}"
    );
}

/// A script of valid requests: 7 requests of which 2 are rejected by the
/// executor (closed container, unknown entity), with comments and blank lines.
const SCRIPT: &str = r#"# morning in the family apartment

{"actor":"robot","skill":"navigate_to","args":{"target":"cabinet_1"}}
{"actor":"robot","skill":"pick","args":{"object":"mug_1"}}
   # an indented comment
{"actor":"robot","skill":"open","args":{"target":"cabinet_1"}}
{"actor":"robot","skill":"pick","args":{"object":"mug_1"}}
{"actor":"alice","skill":"say","args":{"text":"hello"}}
{"actor":"robot","skill":"navigate_to","args":{"target":"nowhere_9"}}

{"actor":"robot","skill":"wait","args":{"seconds":30}}
"#;
const SCRIPT_REQUESTS: usize = 7;
const SCRIPT_REJECTED: usize = 2;

fn script_requests(text: &str) -> Vec<Value> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn read_json(p: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(p).unwrap())
        .unwrap_or_else(|e| panic!("{} is not JSON: {e}", p.display()))
}

/// Checks a finished trace directory against the requests that made it and
/// returns its event lines (without the header).
#[track_caller]
fn check_trace(dir: &Path, requests: &[Value], scene_id: &str) -> Vec<Value> {
    assert_eq!(entries(dir), TRACE_FILES, "files of {}", dir.display());

    let text = fs::read_to_string(dir.join("events.jsonl")).unwrap();
    assert!(text.ends_with('\n'), "events.jsonl ends with a newline");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines.len(),
        1 + requests.len(),
        "header + one line per request"
    );
    let header: Value = serde_json::from_str(lines[0]).expect("header is JSON");
    assert_eq!(header["schema"], "hearth.events");
    assert_eq!(header["schema_version"], 4);
    assert_eq!(header["scene"], scene_id);

    let mut events = Vec::new();
    for (i, (line, req)) in lines[1..].iter().zip(requests).enumerate() {
        let e: Value = serde_json::from_str(line)
            .unwrap_or_else(|err| panic!("event line {} is not JSON: {err}", i + 2));
        for key in [
            "id",
            "day",
            "t",
            "kind",
            "actor",
            "skill",
            "args",
            "outcome",
            "changes",
            "observers",
        ] {
            assert!(e.get(key).is_some(), "event {} lacks {key}: {line}", i + 1);
        }
        assert_eq!(e["id"], (i + 1) as u64, "ids are 1-based and dense");
        assert_eq!(e["actor"], req["actor"], "event {} actor", i + 1);
        assert_eq!(e["skill"], req["skill"], "event {} skill", i + 1);
        assert!(e["changes"].is_array() && e["observers"].is_array());
        assert!(
            e["observers"].as_array().unwrap().contains(&req["actor"]),
            "the actor observes its own event: {line}"
        );
        events.push(e);
    }

    let rejected = events.iter().filter(|e| e["outcome"] != "ok").count();
    let changes: usize = events
        .iter()
        .map(|e| e["changes"].as_array().unwrap().len())
        .sum();
    let m = read_json(&dir.join("manifest.json"));
    assert_eq!(m["schema"], "hearth.trace");
    assert_eq!(m["schema_version"], 4);
    assert_eq!(m["scene"]["id"], scene_id);
    assert_eq!(m["counts"]["events"], requests.len() as u64);
    assert_eq!(m["counts"]["rejected"], rejected as u64);
    assert_eq!(m["counts"]["changes"], changes as u64);
    let files: Vec<&str> = m["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    assert_eq!(files, TRACE_FILES, "manifest lists the trace's files");
    events
}

// ------------------------------------------------------------ 1. help etc.

#[test]
fn help_for_every_command() {
    let top = hearth(&["--help"]).ok();
    for sub in ["scene", "run", "bench"] {
        top.stdout_has(sub);
    }
    let scene = hearth(&["scene", "--help"]).ok();
    for sub in ["check", "default", "list"] {
        scene.stdout_has(sub);
    }
    hearth(&["scene", "check", "--help"])
        .ok()
        .stdout_has("Usage: hearth scene check")
        .stdout_has("PATHS");
    let run = hearth(&["run", "--help"]).ok();
    run.stdout_has("Usage: hearth run");
    for flag in ["--scene", "--script", "--out", "--force"] {
        run.stdout_has(flag);
    }
    hearth(&["bench", "--help"])
        .ok()
        .stdout_has("Usage: hearth bench")
        .stdout_has("--requests");
    // `help SUB` is the same as `SUB --help`.
    hearth(&["help", "run"]).ok().stdout_has("--script");
}

#[test]
fn version() {
    let v = hearth(&["--version"]).ok();
    assert_eq!(
        v.stdout.trim(),
        format!("hearth {}", env!("CARGO_PKG_VERSION"))
    );
    hearth(&["-V"]).ok().stdout_has(env!("CARGO_PKG_VERSION"));
}

#[test]
fn bad_arguments_are_clap_errors() {
    let cases: &[&[&str]] = &[
        &["frobnicate"],
        &["--frobnicate"],
        &["scene", "frobnicate"],
        &["scene", "check", "--frobnicate", "x.ron"],
        &["run", "--frobnicate"],
        &["bench", "--frobnicate"],
        &["bench", "--requests", "many"],
    ];
    for args in cases {
        let r = hearth(args).fails();
        assert_eq!(r.code, Some(2), "clap usage errors exit 2: {args:?}");
        // clap's error shape: `error: ...` and a pointer to --help.
        r.stderr_has("error: ").stderr_has("try '--help'");
        assert!(r.stdout.is_empty(), "{args:?} printed to stdout");
    }
    // Missing required arguments and subcommands.
    let cases: &[&[&str]] = &[
        &[],
        &["scene"],
        &["scene", "check"],
        &["run"],
        &["run", "--script", "x.jsonl"],
    ];
    for args in cases {
        hearth(args).fails().stderr_has("Usage:");
    }
}

// --------------------------------------------------------- 2. scene check

#[test]
fn scene_check_accepts_every_shipped_scene() {
    let files = scene_files();
    let mut args = vec!["scene", "check"];
    args.extend(files.iter().map(|p| s(p)));
    let r = hearth(&args).ok();
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), files.len(), "one line per file:\n{}", r.stdout);
    for (line, path) in lines.iter().zip(&files) {
        let id = scene_id_of(&fs::read_to_string(path).unwrap());
        assert!(
            line.starts_with(&format!("ok {}: {id} ", path.display())),
            "{line:?} should be `ok PATH: {id} (...)`"
        );
    }
    // The shipped files are the built-in scenes.
    let mut ids: Vec<String> = files
        .iter()
        .map(|p| scene_id_of(&fs::read_to_string(p).unwrap()))
        .collect();
    ids.sort();
    let mut want = BUILTIN_IDS.map(String::from).to_vec();
    want.sort();
    assert_eq!(ids, want);
    // Each alone, too.
    for path in &files {
        hearth(&["scene", "check", s(path)]).ok().stdout_has("ok ");
    }
}

#[test]
fn scene_check_accepts_the_test_base_scene() {
    let dir = tmp();
    let p = write(dir.path(), "base.ron", BASE);
    let r = hearth(&["scene", "check", s(&p)]).ok();
    assert_eq!(r.stdout.lines().count(), 1);
    r.stdout_has(&format!("ok {}: base (", p.display()));
}

#[test]
fn scene_check_reports_syntax_errors_with_position() {
    let dir = tmp();
    // A missing comma inside the table's size, on a known line and column.
    let text = base_with("size: (1.2, 0.8, 0.75)", "size: (1.2, 0.8 0.75)");
    let line = line_of(&text, "0.8 0.75");
    let col = text.lines().nth(line - 1).unwrap().find("0.75").unwrap() + 1;
    let p = write(dir.path(), "syntax.ron", &text);
    let r = hearth(&["scene", "check", s(&p)]).fails();
    r.stderr_has(&format!("{}:{line}:{col}:", p.display()));
    assert!(r.stdout.is_empty(), "no ok line for a bad file");

    // An unknown field names the field.
    let text = base_with("kind: \"table\"", "kinde: \"table\"");
    let p = write(dir.path(), "field.ron", &text);
    let r = hearth(&["scene", "check", s(&p)]).fails();
    r.stderr_has("kinde");
    assert_located(&r.stderr, s(&p), line_of(&text, "kinde"));

    // Truncated file.
    let p = write(dir.path(), "cut.ron", &BASE[..BASE.len() / 2]);
    let r = hearth(&["scene", "check", s(&p)]).fails();
    r.stderr_has(&format!("{}:", p.display()));
}

#[test]
fn scene_check_reports_every_semantic_problem_located() {
    let dir = tmp();
    // Two independent problems: a second `mug_1` (duplicate id) and a dock
    // in a room that does not exist.
    let text = base_with("room: \"hall\", pos: (5.0, 2.5)", "room: \"attic\", pos: (5.0, 2.5)")
        .replacen(
            "    ],\n    actors:",
            "        (id: \"mug_1\", category: \"cup\", description: \"tin cup\", at: On(\"table_1\")),\n    ],\n    actors:",
            1,
        );
    assert!(text.contains("tin cup"));
    let p = write(dir.path(), "semantic.ron", &text);
    let r = hearth(&["scene", "check", s(&p)]).fails();
    assert!(
        r.stdout.is_empty(),
        "no ok line for a bad file:\n{}",
        r.show()
    );
    for code in ["duplicate_id", "unknown_room"] {
        r.stderr_has(code);
    }
    // The unknown room is located on the dock's line; the duplicate on one of
    // the two lines that define mug_1.
    let dock = line_of(&text, "id: \"dock_1\"");
    let problem_line = |code: &str| -> String {
        r.stderr
            .lines()
            .find(|l| l.contains(&format!("[{code}]")))
            .unwrap_or_else(|| panic!("no [{code}] line:\n{}", r.stderr))
            .trim()
            .to_string()
    };
    let unknown = problem_line("unknown_room");
    assert!(
        unknown.starts_with(&format!("{}:{dock}:", p.display())),
        "unknown_room should be located on line {dock}: {unknown}"
    );
    assert!(unknown.contains("attic"), "{unknown}");
    let dup = problem_line("duplicate_id");
    let first = line_of(&text, "id: \"mug_1\"");
    let second = line_of(&text, "tin cup");
    assert!(
        dup.starts_with(&format!("{}:{first}:", p.display()))
            || dup.starts_with(&format!("{}:{second}:", p.display())),
        "duplicate_id should be located at a definition of mug_1: {dup}"
    );
    assert!(dup.contains("mug_1"), "{dup}");
}

#[test]
fn scene_check_reports_good_and_bad_files_together() {
    let dir = tmp();
    let good = write(dir.path(), "good.ron", BASE);
    let bad = write(
        dir.path(),
        "bad.ron",
        &base_with(
            "room: \"hall\", pos: (5.0, 2.5)",
            "room: \"attic\", pos: (5.0, 2.5)",
        ),
    );
    let shipped = &scene_files()[0];
    let r = hearth(&["scene", "check", s(&good), s(&bad), s(shipped)]).fails();
    r.stdout_has(&format!("ok {}: base", good.display()));
    r.stdout_has(&format!("ok {}:", shipped.display()));
    assert_eq!(r.stdout.lines().count(), 2, "{}", r.show());
    r.stderr_has(&format!("{}:", bad.display()))
        .stderr_has("unknown_room")
        .stderr_has("1 of 3");
    // Only warnings (kinds the catalogue does not know) name the good file.
    assert!(
        r.stderr
            .lines()
            .filter(|l| !l.starts_with("warning:"))
            .all(|l| !l.contains(&format!("{}:", good.display())))
    );
    // Order does not matter.
    let r = hearth(&["scene", "check", s(&bad), s(&good)]).fails();
    r.stdout_has(&format!("ok {}: base", good.display()));
    r.stderr_has("unknown_room");
}

#[test]
fn scene_check_missing_file() {
    let dir = tmp();
    let missing = dir.path().join("no_such_scene.ron");
    let r = hearth(&["scene", "check", s(&missing)]).fails();
    r.stderr_has("cannot read").stderr_has(s(&missing));
    // A missing file among good ones still fails, and the good one is checked.
    let good = write(dir.path(), "good.ron", BASE);
    let r = hearth(&["scene", "check", s(&good), s(&missing)]).fails();
    r.stdout_has("ok ");
    r.stderr_has("cannot read").stderr_has(s(&missing));
}

#[test]
fn scene_check_never_panics() {
    let dir = tmp();
    let deep = "[".repeat(100_000);
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty.ron", vec![]),
        ("blank.ron", b"  \n\n\t\n".to_vec()),
        ("comment.ron", b"// nothing here\n".to_vec()),
        ("unit.ron", b"()".to_vec()),
        ("empty_struct.ron", b"Scene()".to_vec()),
        ("not_utf8.ron", vec![0xff, 0xfe, 0x00, 0x41]),
        ("deep.ron", deep.into_bytes()),
        ("json.ron", br#"{"id": "x"}"#.to_vec()),
        (
            "no_rooms.ron",
            br#"Scene(id: "x", name: "X", description: "", rooms: [], doors: [], furniture: [], devices: [], objects: [], actors: [])"#.to_vec(),
        ),
        (
            "nan.ron",
            base_with("w: 4.0, h: 3.0", "w: NaN, h: inf").into_bytes(),
        ),
        (
            "nan_door.ron",
            base_with("at: (4.0, 1.5)", "at: (NaN, -inf)").into_bytes(),
        ),
        (
            "zero_hands.ron",
            base_with("hands: 2", "hands: 0").into_bytes(),
        ),
        (
            "huge.ron",
            base_with("On(2)", "On(18446744073709551615)").into_bytes(),
        ),
        (
            "self_door.ron",
            base_with("rooms: (\"kitchen\", \"hall\")", "rooms: (\"hall\", \"hall\")").into_bytes(),
        ),
        (
            "bad_field.ron",
            base_with("min: 0, max: 250", "min: 300, max: 250").into_bytes(),
        ),
        (
            "no_id.ron",
            base_with("id: \"kitchen\"", "id: \"\"").into_bytes(),
        ),
    ];
    for (name, bytes) in &cases {
        let p = dir.path().join(name);
        fs::write(&p, bytes).unwrap();
        let r = hearth(&["scene", "check", s(&p)]).fails();
        r.stderr_has(s(&p));
        assert!(r.stdout.is_empty(), "{name}: {}", r.show());
    }
    // An empty file is a located syntax error.
    let r = hearth(&["scene", "check", s(&dir.path().join("empty.ron"))]).fails();
    assert_located(&r.stderr, s(&dir.path().join("empty.ron")), 1);

    // A directory given as a path.
    let r = hearth(&["scene", "check", s(dir.path())]).fails();
    r.stderr_has("cannot read").stderr_has(s(dir.path()));

    // All of them at once: every one reported, no panic.
    let mut args = vec!["scene", "check"];
    let paths: Vec<PathBuf> = cases.iter().map(|(n, _)| dir.path().join(n)).collect();
    args.extend(paths.iter().map(|p| s(p)));
    args.push(s(dir.path()));
    let r = hearth(&args).fails();
    for p in &paths {
        r.stderr_has(s(p));
    }
    r.stderr_has(&format!("{} of {}", cases.len() + 1, cases.len() + 1));
}

// ------------------------------------------------ 3. scene default / list

#[test]
fn scene_default_is_the_family_apartment_and_checks() {
    let r = hearth(&["scene", "default"]).ok();
    let shipped = fs::read_to_string(repo().join("scenes/family_apartment.ron")).unwrap();
    assert_eq!(
        r.stdout, shipped,
        "scene default prints scenes/family_apartment.ron"
    );
    let dir = tmp();
    let p = write(dir.path(), "default.ron", &r.stdout);
    hearth(&["scene", "check", s(&p)])
        .ok()
        .stdout_has(&format!("ok {}: family_apartment ", p.display()));
}

#[test]
fn scene_list_lists_the_builtins() {
    let r = hearth(&["scene", "list"]).ok();
    let ids: Vec<&str> = r
        .stdout
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(ids, BUILTIN_IDS, "{}", r.stdout);
    for line in r.stdout.lines() {
        assert!(line.contains("rooms"), "a summary per scene: {line}");
    }
}

// ------------------------------------------------------------------ 4. run

#[test]
fn run_writes_a_complete_trace() {
    let dir = tmp();
    let script = write(dir.path(), "script.jsonl", SCRIPT);
    let out = dir.path().join("trace");
    let r = hearth(&["run", "--script", s(&script), "--out", s(&out)]).ok();
    r.stdout_has(&format!(
        "{SCRIPT_REQUESTS} events ({SCRIPT_REJECTED} rejected)"
    ));

    let requests = script_requests(SCRIPT);
    assert_eq!(requests.len(), SCRIPT_REQUESTS);
    let events = check_trace(&out, &requests, "family_apartment");
    let rejected: Vec<u64> = events
        .iter()
        .filter(|e| e["outcome"] != "ok")
        .map(|e| e["id"].as_u64().unwrap())
        .collect();
    assert_eq!(
        rejected,
        [2, 6],
        "the closed-cabinet pick and the unknown target"
    );
    for id in &rejected {
        let e = &events[*id as usize - 1];
        assert!(
            e["outcome"]["code"].is_string(),
            "a rejection has a code: {e}"
        );
        assert_eq!(
            e["changes"],
            Value::Array(vec![]),
            "rejections change nothing"
        );
    }
    // Accepted events here all change something except say and wait.
    assert!(events[0]["changes"].as_array().unwrap().len() == 1);
    assert_eq!(events[4]["kind"], "utterance");

    assert_eq!(entries(dir.path()), ["script.jsonl", "trace"]);
    assert_no_temp(dir.path());

    // The trace's own scene.ron is a valid scene.
    hearth(&["scene", "check", s(&out.join("scene.ron"))])
        .ok()
        .stdout_has("family_apartment");
}

#[test]
fn run_is_deterministic() {
    let dir = tmp();
    let script = write(dir.path(), "script.jsonl", SCRIPT);
    let a = dir.path().join("a");
    let b = dir.path().join("b");
    hearth(&["run", "--script", s(&script), "--out", s(&a)]).ok();
    hearth(&["run", "--script", s(&script), "--out", s(&b)]).ok();
    for f in TRACE_FILES {
        assert_eq!(
            fs::read(a.join(f)).unwrap(),
            fs::read(b.join(f)).unwrap(),
            "{f} differs between two runs"
        );
    }
    assert_no_temp(dir.path());
}

#[test]
fn run_scene_by_path_or_builtin_id() {
    let dir = tmp();
    let script = write(dir.path(), "script.jsonl", SCRIPT);
    let requests = script_requests(SCRIPT);
    let by_default = dir.path().join("default");
    let by_id = dir.path().join("by_id");
    let by_path = dir.path().join("by_path");
    let fam = repo().join("scenes/family_apartment.ron");
    hearth(&["run", "--script", s(&script), "--out", s(&by_default)]).ok();
    hearth(&[
        "run",
        "--scene",
        "family_apartment",
        "--script",
        s(&script),
        "--out",
        s(&by_id),
    ])
    .ok();
    hearth(&[
        "run",
        "--scene",
        s(&fam),
        "--script",
        s(&script),
        "--out",
        s(&by_path),
    ])
    .ok();
    for d in [&by_default, &by_id, &by_path] {
        check_trace(d, &requests, "family_apartment");
    }
    for f in TRACE_FILES {
        let want = fs::read(by_id.join(f)).unwrap();
        assert_eq!(fs::read(by_path.join(f)).unwrap(), want, "{f}: path vs id");
        assert_eq!(fs::read(by_default.join(f)).unwrap(), want, "{f}: default");
    }

    // Every built-in id works, and so does its file.
    let empty = write(dir.path(), "empty.jsonl", "# nothing\n");
    for id in BUILTIN_IDS {
        let o1 = dir.path().join(format!("{id}_id"));
        let o2 = dir.path().join(format!("{id}_path"));
        let file = repo().join(format!("scenes/{id}.ron"));
        hearth(&["run", "--scene", id, "--script", s(&empty), "--out", s(&o1)]).ok();
        hearth(&[
            "run",
            "--scene",
            s(&file),
            "--script",
            s(&empty),
            "--out",
            s(&o2),
        ])
        .ok();
        check_trace(&o1, &[], id);
        assert_eq!(snapshot(&o1), snapshot(&o2), "{id}: id vs path");
    }

    // A scene file of one's own, and a trace's scene.ron, work as --scene.
    let base = write(dir.path(), "base.ron", BASE);
    let wait = write(
        dir.path(),
        "wait.jsonl",
        "{\"actor\":\"robot\",\"skill\":\"wait\",\"args\":{\"seconds\":5}}\n",
    );
    let o = dir.path().join("base_trace");
    hearth(&[
        "run",
        "--scene",
        s(&base),
        "--script",
        s(&wait),
        "--out",
        s(&o),
    ])
    .ok();
    check_trace(
        &o,
        &script_requests(&fs::read_to_string(&wait).unwrap()),
        "base",
    );
    let again = dir.path().join("again");
    hearth(&[
        "run",
        "--scene",
        s(&by_id.join("scene.ron")),
        "--script",
        s(&script),
        "--out",
        s(&again),
    ])
    .ok();
    assert_eq!(
        snapshot(&again),
        snapshot(&by_id),
        "re-running from a trace's scene.ron"
    );
    assert_no_temp(dir.path());
}

#[test]
fn run_relative_out_in_current_dir() {
    let dir = tmp();
    write(dir.path(), "script.jsonl", SCRIPT);
    run_in(
        Some(dir.path()),
        &["run", "--script", "script.jsonl", "--out", "trace"],
    )
    .ok()
    .stdout_has("wrote trace");
    check_trace(
        &dir.path().join("trace"),
        &script_requests(SCRIPT),
        "family_apartment",
    );
    // Nested, not yet existing parents are created.
    run_in(
        Some(dir.path()),
        &["run", "--script", "script.jsonl", "--out", "a/b/trace"],
    )
    .ok();
    check_trace(
        &dir.path().join("a/b/trace"),
        &script_requests(SCRIPT),
        "family_apartment",
    );
    assert_no_temp(dir.path());
    assert_no_temp(&dir.path().join("a/b"));
}

// ------------------------------------------------------ 5. bad input

/// A script whose line `bad_line` (1-based) is `bad`, surrounded by valid
/// requests, comments and blank lines.
fn script_with_bad_line(bad: &str) -> (String, usize) {
    let text = format!(
        "# header comment\n\
         {{\"actor\":\"robot\",\"skill\":\"wait\",\"args\":{{\"seconds\":1}}}}\n\
         \n\
         {{\"actor\":\"robot\",\"skill\":\"open\",\"args\":{{\"target\":\"cabinet_1\"}}}}\n\
         {bad}\n\
         {{\"actor\":\"robot\",\"skill\":\"wait\",\"args\":{{\"seconds\":1}}}}\n"
    );
    (text, 5)
}

#[test]
fn malformed_script_lines_write_nothing() {
    let cases = [
        (
            "bad_json",
            r#"{"actor":"robot","skill":"wait","args":{"seconds":1}"#,
            "not JSON",
        ),
        (
            "unknown_skill",
            r#"{"actor":"robot","skill":"teleport","args":{"target":"kitchen"}}"#,
            "teleport",
        ),
        (
            "missing_arg",
            r#"{"actor":"robot","skill":"pick","args":{}}"#,
            "object",
        ),
        (
            "extra_arg",
            r#"{"actor":"robot","skill":"pick","args":{"object":"mug_1","force":true}}"#,
            "force",
        ),
        (
            "no_actor",
            r#"{"skill":"wait","args":{"seconds":1}}"#,
            "actor",
        ),
        (
            "negative_wait",
            r#"{"actor":"robot","skill":"wait","args":{"seconds":-1}}"#,
            "wait",
        ),
        ("not_an_object", r#"[1, 2, 3]"#, ""),
    ];
    for (name, bad, mention) in cases {
        let dir = tmp();
        let (text, line) = script_with_bad_line(bad);
        let script = write(dir.path(), &format!("{name}.jsonl"), &text);
        let out = dir.path().join("trace");
        let r = hearth(&["run", "--script", s(&script), "--out", s(&out)]).fails();
        r.stderr_has(&format!("{}:{line}:", script.display()))
            .stderr_has(mention);
        assert!(r.stdout.is_empty(), "{name}: {}", r.show());
        assert!(!out.exists(), "{name}: --out was created");
        assert_eq!(
            entries(dir.path()),
            [format!("{name}.jsonl")],
            "{name}: nothing else written"
        );
    }
}

#[test]
fn malformed_line_numbers_count_every_line() {
    let dir = tmp();
    let good = r#"{"actor":"robot","skill":"wait","args":{"seconds":1}}"#;
    // CRLF line endings, comments and blank lines all count as lines.
    let text = format!("{good}\r\n# c\r\n\r\n   \r\n{good}\r\n{good}\r\nnope\r\n{good}\r\n");
    let script = write(dir.path(), "crlf.jsonl", &text);
    let out = dir.path().join("t");
    hearth(&["run", "--script", s(&script), "--out", s(&out)])
        .fails()
        .stderr_has(&format!("{}:7:", script.display()));
    assert!(!out.exists());
    assert_no_temp(dir.path());
    // The first of two bad lines is the one reported.
    let text = format!("{good}\n{{\n{good}\n]\n");
    let script = write(dir.path(), "two.jsonl", &text);
    let r = hearth(&["run", "--script", s(&script), "--out", s(&out)]).fails();
    r.stderr_has(&format!("{}:2:", script.display()));
    assert!(!out.exists());
}

#[test]
fn existing_out_needs_force() {
    let dir = tmp();
    let script = write(dir.path(), "script.jsonl", SCRIPT);
    let out = dir.path().join("trace");
    fs::create_dir_all(out.join("sub")).unwrap();
    fs::write(out.join("keep.txt"), "precious").unwrap();
    fs::write(out.join("sub/also.txt"), "also precious").unwrap();
    let before = snapshot(&out);

    let r = hearth(&["run", "--script", s(&script), "--out", s(&out)]).fails();
    r.stderr_has("--force").stderr_has(s(&out));
    assert_eq!(snapshot(&out), before, "existing --out must be untouched");
    assert_no_temp(dir.path());

    // With --force but a bad script, still untouched.
    let (bad, _) = script_with_bad_line("{");
    let bad = write(dir.path(), "bad.jsonl", &bad);
    hearth(&["run", "--script", s(&bad), "--out", s(&out), "--force"]).fails();
    assert_eq!(snapshot(&out), before, "a failed --force run keeps --out");
    // With --force and an unknown scene, still untouched.
    hearth(&[
        "run",
        "--scene",
        "no_such_scene",
        "--script",
        s(&script),
        "--out",
        s(&out),
        "--force",
    ])
    .fails();
    assert_eq!(snapshot(&out), before);
    assert_no_temp(dir.path());

    // With --force it is replaced by a trace.
    hearth(&["run", "--script", s(&script), "--out", s(&out), "--force"]).ok();
    check_trace(&out, &script_requests(SCRIPT), "family_apartment");
    assert_no_temp(dir.path());

    // And a trace can be replaced by another trace.
    let empty = write(dir.path(), "empty.jsonl", "");
    hearth(&["run", "--script", s(&empty), "--out", s(&out), "--force"]).ok();
    check_trace(&out, &[], "family_apartment");
    assert_no_temp(dir.path());

    // --force on a fresh path is fine.
    let fresh = dir.path().join("fresh");
    hearth(&["run", "--script", s(&script), "--out", s(&fresh), "--force"]).ok();
    check_trace(&fresh, &script_requests(SCRIPT), "family_apartment");
}

#[test]
fn unknown_scene_and_missing_script() {
    let dir = tmp();
    let script = write(dir.path(), "script.jsonl", SCRIPT);
    let out = dir.path().join("trace");

    let r = hearth(&[
        "run",
        "--scene",
        "no_such_scene",
        "--script",
        s(&script),
        "--out",
        s(&out),
    ])
    .fails();
    r.stderr_has("no_such_scene").stderr_has("error");
    assert!(!out.exists());

    // A scene file that is invalid: its problems are reported.
    let bad_scene = write(
        dir.path(),
        "bad.ron",
        &base_with(
            "room: \"hall\", pos: (5.0, 2.5)",
            "room: \"attic\", pos: (5.0, 2.5)",
        ),
    );
    hearth(&[
        "run",
        "--scene",
        s(&bad_scene),
        "--script",
        s(&script),
        "--out",
        s(&out),
    ])
    .fails()
    .stderr_has("unknown_room")
    .stderr_has(s(&bad_scene));
    assert!(!out.exists());

    let missing = dir.path().join("no_such_script.jsonl");
    hearth(&["run", "--script", s(&missing), "--out", s(&out)])
        .fails()
        .stderr_has("cannot read")
        .stderr_has(s(&missing));
    assert!(!out.exists());

    // A directory as the script.
    hearth(&["run", "--script", s(dir.path()), "--out", s(&out)])
        .fails()
        .stderr_has("cannot read");
    assert!(!out.exists());

    // Not UTF-8.
    let bin = dir.path().join("bin.jsonl");
    fs::write(&bin, [0xffu8, 0xfe, b'\n']).unwrap();
    hearth(&["run", "--script", s(&bin), "--out", s(&out)])
        .fails()
        .stderr_has(s(&bin));
    assert!(!out.exists());
    assert_no_temp(dir.path());
}

#[test]
fn empty_script_gives_an_empty_trace() {
    let dir = tmp();
    for (name, text) in [
        ("empty.jsonl", ""),
        ("comments.jsonl", "# just a comment\n\n   # and another\n\n"),
    ] {
        let script = write(dir.path(), name, text);
        let out = dir.path().join(format!("{name}.trace"));
        hearth(&["run", "--script", s(&script), "--out", s(&out)])
            .ok()
            .stdout_has("0 events");
        check_trace(&out, &[], "family_apartment");
        let m = read_json(&out.join("manifest.json"));
        assert_eq!(m["counts"]["events"], 0);
        assert_eq!(m["counts"]["rejected"], 0);
        assert_eq!(m["days"], 1);
    }
    assert_no_temp(dir.path());
}

// ------------------------------------------------------------- 6. bench

#[test]
fn bench_runs() {
    // Short horizons: the default 7 to 56 days is for release builds.
    let r = hearth(&["bench", "--requests", "2000", "--horizons", "1,2"]).ok();
    r.stdout_has("requests/s")
        .stdout_has("cost against horizon");
    r.stdout_has("editor: validation per edit")
        .stdout_has("(150 objects)");
    for id in BUILTIN_IDS {
        r.stdout_has(id);
    }
    hearth(&[
        "bench",
        "--requests",
        "50",
        "--scene",
        "studio",
        "--seed",
        "7",
        "--horizons",
        "1",
    ])
    .ok()
    .stdout_has("requests/s");
    hearth(&["bench", "--requests", "10", "--scene", "no_such_scene"])
        .fails()
        .stderr_has("no_such_scene");
}

// ------------------------------------------------------------ known bugs

/// `--out .` (or `..`, or any path without a final name) with `--force`:
/// the writer names its temp dir `./.trace.tmp-PID`, which lies inside the
/// destination; `finish` then runs `remove_dir_all(dest)`, deleting the
/// user's files and the new trace alike, and fails on the rename.
#[test]
fn force_out_dot_does_not_destroy_the_current_directory() {
    let dir = tmp();
    let script = write(dir.path(), "script.jsonl", SCRIPT);
    let work = dir.path().join("work");
    fs::create_dir(&work).unwrap();
    fs::write(work.join("keep.txt"), "precious").unwrap();
    let before = snapshot(&work);
    let r = run_in(
        Some(&work),
        &["run", "--script", s(&script), "--out", ".", "--force"],
    );
    r.no_panic();
    if r.success() {
        // If it claims success, "." must now be the trace.
        check_trace(&work, &script_requests(SCRIPT), "family_apartment");
    } else {
        // A failed run never destroys the existing --out.
        assert_eq!(
            snapshot(&work),
            before,
            "a failed run deleted the contents of --out .:\n{}",
            r.show()
        );
    }
}

/// I/O errors print their cause twice: `StoreError::Read` both formats
/// `{source}` into its message and exposes it as `source()`, and `main`
/// prints the whole chain with `{:#}`, giving e.g.
/// `error: cannot read x.jsonl: No such file or directory (os error 2): No such file or directory (os error 2)`.
#[test]
fn io_errors_are_reported_once() {
    let dir = tmp();
    let missing = dir.path().join("no_such_script.jsonl");
    let out = dir.path().join("trace");
    let r = hearth(&["run", "--script", s(&missing), "--out", s(&out)]).fails();
    assert_eq!(
        r.stderr.matches("(os error").count(),
        1,
        "the cause should appear once:\n{}",
        r.stderr
    );
    let r = hearth(&[
        "run",
        "--scene",
        "no_such_scene",
        "--script",
        s(&missing),
        "--out",
        s(&out),
    ])
    .fails();
    // An unknown scene is named, with the built-in choices.
    assert!(
        r.stderr.contains("no_such_scene") && r.stderr.contains("family_apartment"),
        "{}",
        r.stderr
    );
}
