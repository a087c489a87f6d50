//! Helpers shared by the end-to-end tests of the `hearth` binary.
#![allow(dead_code)] // each test crate uses its own subset

pub mod hand_built;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use tempfile::TempDir;

pub const BIN: &str = env!("CARGO_BIN_EXE_hearth");

/// The result of one run of the binary.
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    pub fn success(&self) -> bool {
        self.code == Some(0)
    }

    pub fn show(&self) -> String {
        format!(
            "exit {:?}\n--- stdout\n{}\n--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }

    /// Exit 0, and no panic.
    #[track_caller]
    pub fn ok(self) -> Self {
        self.no_panic();
        assert!(self.success(), "expected success:\n{}", self.show());
        self
    }

    /// A normal (non-zero, non-signal) failure exit, and no panic.
    #[track_caller]
    pub fn fails(self) -> Self {
        self.no_panic();
        assert!(
            matches!(self.code, Some(c) if c != 0),
            "expected a non-zero exit:\n{}",
            self.show()
        );
        self
    }

    #[track_caller]
    pub fn no_panic(&self) {
        assert!(
            !self.stderr.contains("panicked") && !self.stdout.contains("panicked"),
            "the binary panicked:\n{}",
            self.show()
        );
        // A panic exits 101; a crash has no exit code at all.
        assert!(self.code.is_some(), "killed by a signal:\n{}", self.show());
        assert_ne!(self.code, Some(101), "panic exit code:\n{}", self.show());
    }

    #[track_caller]
    pub fn stderr_has(&self, needle: &str) -> &Self {
        assert!(
            self.stderr.contains(needle),
            "stderr should contain {needle:?}:\n{}",
            self.show()
        );
        self
    }

    #[track_caller]
    pub fn stdout_has(&self, needle: &str) -> &Self {
        assert!(
            self.stdout.contains(needle),
            "stdout should contain {needle:?}:\n{}",
            self.show()
        );
        self
    }
}

pub fn run_in(dir: Option<&Path>, args: &[&str]) -> Run {
    let mut cmd = Command::new(BIN);
    cmd.args(args).env_remove("RUST_LOG");
    if let Some(d) = dir {
        cmd.current_dir(d);
    }
    let Output {
        status,
        stdout,
        stderr,
    } = cmd.output().expect("the hearth binary runs");
    Run {
        code: status.code(),
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
    }
}

pub fn hearth(args: &[&str]) -> Run {
    run_in(None, args)
}

pub fn s(p: &Path) -> &str {
    p.to_str().expect("temp paths are UTF-8")
}

pub fn tmp() -> TempDir {
    tempfile::tempdir().expect("a temp dir")
}

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The shipped scene files, sorted.
pub fn scene_files() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(repo().join("scenes"))
        .expect("scenes/ exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    v.sort();
    assert!(!v.is_empty(), "no scenes/*.ron");
    v
}

/// The scene id of a RON scene text: its first `id: "..."`.
pub fn scene_id_of(text: &str) -> String {
    let start = text.find("id: \"").expect("an id field") + 5;
    let len = text[start..].find('"').unwrap();
    text[start..start + len].to_string()
}

/// Names in `dir`, sorted.
pub fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// No temporary trace directory is left behind in `dir`.
#[track_caller]
pub fn assert_no_temp(dir: &Path) {
    let left: Vec<_> = entries(dir)
        .into_iter()
        .filter(|n| n.contains(".tmp-"))
        .collect();
    assert!(
        left.is_empty(),
        "temporary dirs left in {}: {left:?}",
        dir.display()
    );
}

/// Every file under `dir` (recursively) with its bytes.
pub fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    pub fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for e in fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                out.insert(p.strip_prefix(root).unwrap().join(""), vec![]);
                walk(root, &p, out);
            } else {
                out.insert(
                    p.strip_prefix(root).unwrap().to_path_buf(),
                    fs::read(&p).unwrap(),
                );
            }
        }
    }
    walk(dir, dir, &mut out);
    out
}

pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    fs::write(&p, text).unwrap();
    p
}

/// A built-in scene and `days` of its scripted household with `seed`, in memory.
pub fn generated(
    scene_id: &str,
    seed: u64,
    days: u32,
) -> (hearth::scene::Scene, Vec<hearth::trace::Event>) {
    generated_with(scene_id, seed, days, Default::default())
}

/// A generated week of `scene`, in memory, and its session kinds by id.
pub fn week(
    scene: &hearth::scene::Scene,
    seed: u64,
) -> (Vec<hearth::trace::Event>, BTreeMap<String, String>) {
    days_of(scene, seed, 7)
}

/// `days` generated days of `scene`, in memory, and their session kinds by id.
pub fn days_of(
    scene: &hearth::scene::Scene,
    seed: u64,
    days: u32,
) -> (Vec<hearth::trace::Event>, BTreeMap<String, String>) {
    let mut events = Vec::new();
    let mut backend = hearth::generation::scripted::Scripted::new(scene, seed);
    let g = hearth::generation::generate(scene, days, &mut backend, &mut |e| {
        events.push(e.clone());
        Ok(())
    })
    .unwrap();
    let kinds = g
        .plan
        .sessions
        .iter()
        .map(|s| (s.id.clone(), s.kind.to_string()))
        .collect();
    (events, kinds)
}

/// [`generated`] on the difficulty axes `d` (look-alikes added to the scene).
pub fn generated_with(
    scene_id: &str,
    seed: u64,
    days: u32,
    d: hearth::trace::Difficulty,
) -> (hearth::scene::Scene, Vec<hearth::trace::Event>) {
    let src = hearth::scene::BUILTIN
        .iter()
        .find(|(i, _)| *i == scene_id)
        .unwrap_or_else(|| panic!("no built-in scene {scene_id}"))
        .1;
    let scene = hearth::scene::parse(scene_id, src).unwrap();
    let scene =
        hearth::catalogue::add_lookalikes(&scene, hearth::catalogue::builtin(), d.lookalikes);
    let mut events = Vec::new();
    let mut backend = hearth::generation::scripted::Scripted::new(&scene, seed).with_difficulty(d);
    hearth::generation::generate(&scene, days, &mut backend, &mut |e| {
        events.push(e.clone());
        Ok(())
    })
    .unwrap();
    (scene, events)
}
