//! `hearth dataset release`, `hearth answer` and `hearth score` end to
//! end: a batch frozen into dev and test splits with every file hashed,
//! the test split holding nothing an answer could be mined from, the
//! agents' predictions scored from the key alone byte-identical to `eval
//! --batch` on the same households, and every way the pieces can fail to
//! belong together said.

mod common;

use std::fs;
use std::path::Path;

use common::*;

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for e in fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.path().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

fn json(p: &Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(p).unwrap()).unwrap()
}

#[test]
fn a_release_scores_from_its_key_as_eval_batch_does() {
    let t = tmp();
    let d = t.path();
    let (b, r, key) = (d.join("B"), d.join("R"), d.join("R.key.json"));
    hearth(&[
        "batch",
        "--scenes",
        "gen:0..3",
        "--days",
        "2",
        "--out",
        s(&b),
    ])
    .ok();
    hearth(&[
        "dataset",
        "release",
        s(&b),
        "--out",
        s(&r),
        "--key",
        s(&key),
    ])
    .ok()
    .stdout_has("dev 1 households")
    .stdout_has("test 2 households");
    let card = json(&r.join("release.json"));
    let test: Vec<String> = card["test"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_str().unwrap().to_string())
        .collect();
    // Every file of the release is in the card with its hash; the card's
    // own hash is in the key and in RELEASE.md.
    let files = card["files"].as_object().unwrap();
    let mut on_disk = Vec::new();
    for split in ["dev", "test"] {
        for h in fs::read_dir(r.join(split)).unwrap() {
            let h = h.unwrap().path();
            if h.is_dir() {
                for f in fs::read_dir(&h).unwrap() {
                    on_disk.push(format!(
                        "{split}/{}/{}",
                        h.file_name().unwrap().to_string_lossy(),
                        f.unwrap().file_name().to_string_lossy()
                    ));
                }
            } else {
                on_disk.push(format!(
                    "{split}/{}",
                    h.file_name().unwrap().to_string_lossy()
                ));
            }
        }
    }
    on_disk.sort();
    assert_eq!(on_disk, files.keys().cloned().collect::<Vec<_>>());
    let k = json(&key);
    let sha = k["card_sha256"].as_str().unwrap();
    assert!(
        fs::read_to_string(r.join("RELEASE.md"))
            .unwrap()
            .contains(sha)
    );
    // The test split holds what an agent receives and nothing to mine the
    // answers from: no events, no manifest, no samples; no sample id.
    for h in &test {
        let mut names: Vec<String> = fs::read_dir(r.join("test").join(h))
            .unwrap()
            .map(|f| f.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(
            names,
            ["observations.jsonl", "questions.jsonl", "scene.ron"]
        );
        let q = fs::read_to_string(r.join("test").join(h).join("questions.jsonl")).unwrap();
        assert!(!q.contains("\"answer\"") && !q.contains("_abs"), "{h}");
        let samples = fs::read_to_string(b.join(h).join("samples.jsonl")).unwrap();
        // (A task is asked by its own id, t0001, which says nothing.)
        for line in samples.lines().skip(1) {
            let sample: serde_json::Value = serde_json::from_str(line).unwrap();
            if sample.get("question").is_some() {
                let id = sample["id"].as_str().unwrap();
                assert!(!q.contains(&format!("\"{id}\"")), "{id} of {h}");
            }
        }
    }
    // The same batch released again is the same release, byte for byte.
    let (r2, key2) = (d.join("R2"), d.join("R2.key.json"));
    hearth(&[
        "dataset",
        "release",
        s(&b),
        "--out",
        s(&r2),
        "--key",
        s(&key2),
        "--name",
        "R",
    ])
    .ok();
    let (a, b2) = (snapshot(&r), snapshot(&r2));
    let differ: Vec<_> = a.keys().filter(|k| a.get(*k) != b2.get(*k)).collect();
    assert!(
        differ.is_empty() && a.len() == b2.len(),
        "differ: {differ:?}"
    );
    assert_eq!(fs::read(&key).unwrap(), fs::read(&key2).unwrap());

    // Answer blind, score from the key; eval --batch on the test
    // households with their answers gives the same bytes.
    let p = d.join("P");
    hearth(&[
        "answer",
        s(&r),
        "--agents",
        "obsmem,bm25-words",
        "--out",
        s(&p),
    ])
    .ok();
    let preds = [
        p.join("predictions-obsmem.jsonl"),
        p.join("predictions-bm25-words.jsonl"),
    ];
    let scored = d.join("S");
    hearth(&[
        "score",
        "--key",
        s(&key),
        s(&preds[0]),
        s(&preds[1]),
        "--out",
        s(&scored),
        "--resamples",
        "200",
    ])
    .ok()
    .stdout_has(&format!("release R (test split, card SHA-256 {sha})"))
    .stdout_has("seconds/correct");
    let bt = d.join("BT");
    for h in &test {
        copy_dir(&b.join(h), &bt.join(h));
    }
    let mut record = json(&b.join("batch.json"));
    record["units"] = serde_json::json!(test);
    fs::write(bt.join("batch.json"), record.to_string()).unwrap();
    let evaluated = d.join("E");
    hearth(&[
        "eval",
        "--batch",
        s(&bt),
        "--agents",
        "obsmem,bm25-words",
        "--out",
        s(&evaluated),
        "--resamples",
        "200",
    ])
    .ok();
    let mut same = 0;
    for f in fs::read_dir(&evaluated).unwrap() {
        let name = f.unwrap().file_name();
        if name == "eval-cost.json" {
            continue;
        }
        assert!(
            fs::read(evaluated.join(&name)).unwrap() == fs::read(scored.join(&name)).unwrap(),
            "{name:?} differs"
        );
        same += 1;
    }
    assert!(same >= 4, "{same} files compared");
    let s_json = json(&scored.join("scored.json"));
    assert_eq!(s_json["release"], "R");
    assert_eq!(s_json["card_sha256"], sha);
    // The cost is the predictions' own: every question timed.
    let cost = json(&scored.join("eval-cost.json"));
    assert!(cost[0]["questions"].as_u64().unwrap() > 0, "{cost}");
    assert!(cost[0]["seconds_per_correct"].as_f64().is_some(), "{cost}");
    // The dev split is a batch with its answers.
    hearth(&[
        "eval",
        "--batch",
        s(&r.join("dev")),
        "--agents",
        "oracle",
        "--out",
        s(&d.join("DE")),
    ])
    .ok();
}

#[test]
fn pieces_that_do_not_belong_together_are_refused() {
    let t = tmp();
    let d = t.path();
    let (b, r, key) = (d.join("B"), d.join("R"), d.join("R.key.json"));
    hearth(&[
        "batch",
        "--scenes",
        "studio",
        "--seeds",
        "0..2",
        "--days",
        "1",
        "--out",
        s(&b),
    ])
    .ok();
    // The key is never inside the release; a release is never written over.
    hearth(&[
        "dataset",
        "release",
        s(&b),
        "--out",
        s(&r),
        "--key",
        s(&r.join("k.json")),
    ])
    .fails()
    .stderr_has("would be inside the release");
    hearth(&[
        "dataset",
        "release",
        s(&b),
        "--out",
        s(&r),
        "--key",
        s(&key),
    ])
    .ok();
    hearth(&[
        "dataset",
        "release",
        s(&b),
        "--out",
        s(&r),
        "--key",
        s(&d.join("k2.json")),
    ])
    .fails()
    .stderr_has("is not empty");
    hearth(&[
        "dataset",
        "release",
        s(&b),
        "--out",
        s(&d.join("X")),
        "--key",
        s(&d.join("k3")),
        "--test-share",
        "2",
    ])
    .fails()
    .stderr_has("not a share");
    let p = d.join("P");
    hearth(&["answer", s(&r), "--agents", "recent", "--out", s(&p)]).ok();
    let pred = p.join("predictions-recent.jsonl");
    hearth(&[
        "score",
        "--key",
        s(&key),
        s(&pred),
        "--out",
        s(&d.join("S")),
    ])
    .ok();
    // Predictions of another release, or of no release at all.
    let text = fs::read_to_string(&pred).unwrap();
    let card: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let sha = card["card_sha256"].as_str().unwrap();
    let other = write(d, "other.jsonl", &text.replacen(sha, &"0".repeat(64), 1));
    hearth(&["score", "--key", s(&key), s(&other)])
        .fails()
        .stderr_has("the key is of");
    let garbage = write(d, "garbage.jsonl", "{\"release\": 1}\n");
    hearth(&["score", "--key", s(&key), s(&garbage)])
        .fails()
        .stderr_has("garbage.jsonl:1");
    // A question left out fails alone, saying so.
    let mut lines: Vec<&str> = text.lines().collect();
    lines.remove(1);
    let short = write(d, "short.jsonl", &(lines.join("\n") + "\n"));
    hearth(&[
        "score",
        "--key",
        s(&key),
        s(&short),
        "--out",
        s(&d.join("S2")),
    ])
    .ok();
    let report = json(&d.join("S2").join("eval-report.json"));
    assert_eq!(
        report[0]["errors"].as_u64(),
        Some(1),
        "{}",
        report[0]["errors"]
    );
    // A changed file of the split is found before anything is answered.
    let test = json(&r.join("release.json"))["test"][0]
        .as_str()
        .unwrap()
        .to_string();
    let q = r.join("test").join(&test).join("questions.jsonl");
    let mut bytes = fs::read(&q).unwrap();
    bytes.push(b'\n');
    fs::write(&q, bytes).unwrap();
    hearth(&[
        "answer",
        s(&r),
        "--agents",
        "recent",
        "--out",
        s(&d.join("P2")),
    ])
    .fails()
    .stderr_has("is not the file the release's card names");
    // A key of another version of hearth is not scored by this one.
    let k = fs::read_to_string(&key).unwrap();
    let old = write(
        d,
        "old.key.json",
        &k.replacen(
            &format!("\"hearth\":\"{}\"", env!("CARGO_PKG_VERSION")),
            "\"hearth\":\"0.0.1\"",
            1,
        ),
    );
    hearth(&["score", "--key", s(&old), s(&pred)])
        .fails()
        .stderr_has("made by hearth 0.0.1");
}
