//! Batches across machines: `--shard K/N` and `--shards N` with the index
//! from Slurm or Kubernetes, the union of the shards being exactly the
//! unsharded batch (also after a killed shard resumes), `batch status`, and
//! the guide's Slurm script and Job manifest (docs/scale-out.md).

mod common;

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::*;

const SCENES: &str = "gen:0..9";

fn batch(out: &Path, extra: &[&str]) -> Run {
    let mut args = vec![
        "batch",
        "--scenes",
        SCENES,
        "--days",
        "1",
        "--jobs",
        "2",
        "--out",
        s(out),
    ];
    args.extend_from_slice(extra);
    hearth(&args)
}

/// Trace directories in `dir` (not the batch record, not temporaries).
fn traces(dir: &Path) -> BTreeSet<String> {
    entries(dir)
        .into_iter()
        .filter(|n| !n.starts_with('.') && n != "batch.json")
        .collect()
}

fn with_env(out: &Path, vars: &[(&str, &str)], extra: &[&str]) -> Run {
    let mut cmd = Command::new(BIN);
    cmd.args(["batch", "--scenes", SCENES, "--days", "1", "--out", s(out)])
        .args(extra)
        .env_remove("RUST_LOG")
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("SLURM_ARRAY_TASK_MIN")
        .env_remove("JOB_COMPLETION_INDEX");
    for (k, v) in vars {
        cmd.env(k, v);
    }
    let o = cmd.output().unwrap();
    Run {
        code: o.status.code(),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

#[test]
fn the_union_of_the_shards_is_the_whole_batch() {
    let t = tmp();
    let whole = t.path().join("whole");
    batch(&whole, &[]).ok().stdout_has("9 generated");
    let sharded = t.path().join("sharded");
    let mut seen = BTreeSet::new();
    for k in 0..4usize {
        let r = batch(&sharded, &["--shard", &format!("{k}/4")]).ok();
        r.stdout_has(&format!("shard {k}/4"));
        let now = traces(&sharded);
        let mine: BTreeSet<String> = now.difference(&seen).cloned().collect();
        // Units k, k+4, ...: deterministic, and no overlap with other shards.
        assert_eq!(mine.len() + seen.len(), now.len());
        assert_eq!(mine.len(), (9 - k).div_ceil(4), "shard {k}: {mine:?}");
        seen.extend(mine);
    }
    assert_eq!(traces(&sharded), traces(&whole));
    for name in traces(&whole) {
        assert_eq!(
            snapshot(&sharded.join(&name)),
            snapshot(&whole.join(&name)),
            "{name}"
        );
    }
    // Every trace keeps its generated scene.
    let one = traces(&whole).into_iter().next().unwrap();
    let scene = hearth::store::load_scene(&whole.join(&one).join("scene.ron")).unwrap();
    assert!(one.starts_with(scene.id.as_str()));
    hearth(&["batch", "status", s(&sharded)])
        .ok()
        .stdout_has("9 of 9 traces complete");
}

#[test]
fn the_scheduler_index_picks_the_same_units_as_the_flag() {
    let t = tmp();
    for k in 0..3u32 {
        let flag = t.path().join(format!("flag{k}"));
        with_env(&flag, &[], &["--shard", &format!("{k}/3")]).ok();
        let want = traces(&flag);
        assert!(!want.is_empty());
        let runs = [
            vec![("SLURM_ARRAY_TASK_ID", k.to_string())],
            vec![
                ("SLURM_ARRAY_TASK_ID", (k + 1).to_string()),
                ("SLURM_ARRAY_TASK_MIN", "1".into()),
            ],
            vec![("JOB_COMPLETION_INDEX", k.to_string())],
        ];
        for (n, vars) in runs.iter().enumerate() {
            let dir = t.path().join(format!("env{k}-{n}"));
            let vars: Vec<(&str, &str)> = vars.iter().map(|(a, b)| (*a, b.as_str())).collect();
            with_env(&dir, &vars, &["--shards", "3"]).ok();
            assert_eq!(traces(&dir), want, "{vars:?}");
        }
    }
    // No index anywhere: a clear error, nothing generated.
    let none = t.path().join("none");
    with_env(&none, &[], &["--shards", "3"])
        .fails()
        .stderr_has("SLURM_ARRAY_TASK_ID")
        .stderr_has("JOB_COMPLETION_INDEX");
    assert!(!none.exists() || traces(&none).is_empty());
    with_env(&none, &[("JOB_COMPLETION_INDEX", "3")], &["--shards", "3"])
        .fails()
        .stderr_has("does not exist");
    with_env(&none, &[], &["--shard", "1of3"])
        .fails()
        .stderr_has("K/N");
}

#[test]
fn a_killed_shard_resumes_to_exactly_its_share() {
    let t = tmp();
    let scenes = "gen:0..30";
    let args = |out: &Path, shard: &str| {
        vec![
            "batch".to_string(),
            "--scenes".into(),
            scenes.into(),
            "--days".into(),
            "2".into(),
            "--jobs".into(),
            "1".into(),
            "--out".into(),
            s(out).into(),
            "--shard".into(),
            shard.into(),
        ]
    };
    let whole = t.path().join("whole");
    hearth(&[
        "batch",
        "--scenes",
        scenes,
        "--days",
        "2",
        "--jobs",
        "2",
        "--out",
        s(&whole),
    ])
    .ok();
    let out = t.path().join("out");
    let mut child = Command::new(BIN)
        .args(args(&out, "1/2"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    let finished = |dir: &Path| {
        traces(dir)
            .into_iter()
            .filter(|n| hearth::store::is_finished(&dir.join(n)))
            .count()
    };
    while !out.exists() || finished(&out) < 2 {
        assert!(Instant::now() < deadline, "no progress");
        assert!(
            child.try_wait().unwrap().is_none(),
            "the shard ended too soon"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(finished(&out) < 15, "killed too late to test resuming");
    // The other shard runs meanwhile and must not touch shard 1's leftovers.
    let a: Vec<String> = args(&out, "0/2");
    hearth(&a.iter().map(String::as_str).collect::<Vec<_>>()).ok();
    let status = hearth(&["batch", "status", s(&out)]).fails();
    status.stdout_has("shard 1/2").stdout_has("missing");
    let b: Vec<String> = args(&out, "1/2");
    hearth(&b.iter().map(String::as_str).collect::<Vec<_>>()).ok();
    assert_eq!(traces(&out), traces(&whole));
    for name in traces(&whole) {
        assert_eq!(
            snapshot(&out.join(&name)),
            snapshot(&whole.join(&name)),
            "{name}"
        );
    }
    assert_no_temp(&out);
    let st = hearth(&["batch", "status", "--json", s(&out)]).ok();
    let v: serde_json::Value = serde_json::from_str(st.stdout.trim()).unwrap();
    assert_eq!(v["units"], 30);
    assert_eq!(v["complete"], 30);
    assert_eq!(v["shards"].as_array().unwrap().len(), 2);
}

#[test]
fn status_and_mismatches_are_reported_clearly() {
    let t = tmp();
    let out = t.path().join("out");
    hearth(&["batch", "status", s(&out)])
        .fails()
        .stderr_has("batch.json");
    batch(&out, &["--shard", "0/3"]).ok();
    let r = hearth(&["batch", "status", s(&out)]).fails();
    r.stdout_has("3 of 9 traces complete")
        .stdout_has("shard 1/3")
        .stdout_has("shard 2/3");
    // Another batch into the same directory is refused before it writes.
    let before = snapshot(&out);
    hearth(&[
        "batch",
        "--scenes",
        "gen:0..5",
        "--days",
        "1",
        "--out",
        s(&out),
    ])
    .fails()
    .stderr_has("holds another batch");
    assert_eq!(snapshot(&out), before);
    hearth(&[
        "batch",
        "--scenes",
        "gen:0..3",
        "--kind",
        "castle",
        "--out",
        s(&out),
    ])
    .fails()
    .stderr_has("castle");
    hearth(&["batch", "--scenes", "gen:5..2", "--out", s(&out)])
        .fails()
        .stderr_has("gen:5..2");
    hearth(&["batch", "status", "--help"])
        .ok()
        .stdout_has("--json");
}

/// The guide's Slurm script and Job manifest (docs/scale-out.md):
/// well-formed, and the command in them, run per index, gives each index
/// its units.
#[test]
fn the_guide_scheduler_examples_hold() {
    let page = fs::read_to_string(repo().join("docs/scale-out.md")).unwrap();
    let block = |marker: &str| {
        let at = page
            .find(marker)
            .unwrap_or_else(|| panic!("docs/scale-out.md has {marker}"));
        let start = page[..at].rfind("```").unwrap();
        let body_start = page[start..].find('\n').unwrap() + start + 1;
        let end = page[body_start..].find("```").unwrap() + body_start;
        page[body_start..end].to_string()
    };
    let t = tmp();
    let slurm = block("#SBATCH --array=0-15");
    let path = write(t.path(), "generate.sbatch", &slurm);
    let check = Command::new("bash").arg("-n").arg(&path).output().unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    assert!(slurm.contains("--shards 16"));
    let yaml = block("completionMode: Indexed");
    let path = write(t.path(), "job.yaml", &yaml);
    let py = "import sys, yaml, json\nd = yaml.safe_load(open(sys.argv[1]))\nprint(json.dumps(d))";
    let parsed = Command::new("python3")
        .args(["-c", py])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        parsed.status.success(),
        "YAML: {}",
        String::from_utf8_lossy(&parsed.stderr)
    );
    let job: serde_json::Value = serde_json::from_slice(&parsed.stdout).unwrap();
    assert_eq!(job["kind"], "Job");
    assert_eq!(job["spec"]["completionMode"], "Indexed");
    let n = job["spec"]["completions"].as_u64().unwrap();
    let pod = &job["spec"]["template"]["spec"];
    assert_eq!(pod["restartPolicy"], "Never");
    let command: Vec<String> = pod["containers"][0]["command"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    let at = command.iter().position(|a| a == "--shards").unwrap();
    assert_eq!(
        command[at + 1],
        n.to_string(),
        "--shards matches completions"
    );
    // The same command, scaled down (fewer scenes, one day, a temp dir),
    // run as indices 0..3 of 3: together exactly the whole batch.
    let out = t.path().join("k8s");
    let mut args: Vec<String> = command[1..].to_vec();
    let set = |args: &mut Vec<String>, flag: &str, v: &str| {
        let i = args.iter().position(|a| a == flag).unwrap();
        args[i + 1] = v.to_string();
    };
    set(&mut args, "--scenes", "gen:0..7");
    set(&mut args, "--days", "1");
    set(&mut args, "--shards", "3");
    set(&mut args, "--out", s(&out));
    let whole = t.path().join("whole");
    hearth(&[
        "batch",
        "--scenes",
        "gen:0..7",
        "--days",
        "1",
        "--out",
        s(&whole),
    ])
    .ok();
    for k in 0..3 {
        let o = Command::new(BIN)
            .args(&args)
            .env("JOB_COMPLETION_INDEX", k.to_string())
            .env_remove("SLURM_ARRAY_TASK_ID")
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    assert_eq!(traces(&out), traces(&whole));
}
