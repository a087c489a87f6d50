//! `hearth::jobs::batch` as a library: the unit order, shards (from flags
//! and schedulers, disjoint and complete), the record, resume and the
//! errors, without the binary (tests/shards.rs runs `hearth batch`).

use std::fs;
use std::path::Path;

use hearth::jobs::batch::{self, BatchError, BatchSpec, Progress, Shard};
use hearth::jobs::{TraceOptions, generate_trace};

fn names(spec: &BatchSpec) -> Vec<String> {
    batch::units(spec)
        .unwrap()
        .into_iter()
        .map(|u| u.name)
        .collect()
}

fn quiet(_: Progress<'_>) {}

#[test]
fn units_come_scene_by_scene_seeds_within_each() {
    let spec = BatchSpec {
        scenes: "studio, family_apartment".into(),
        seeds: Some("3..5".into()),
        ..BatchSpec::new("unused")
    };
    assert_eq!(
        names(&spec),
        [
            "studio-s3",
            "studio-s4",
            "family_apartment-s3",
            "family_apartment-s4"
        ]
    );
    // Seeds default to 0..10 for named scenes and to 0 for generated ones,
    // whose kinds take turns.
    let spec = BatchSpec::new("unused");
    assert_eq!(names(&spec).len(), 10);
    let spec = BatchSpec {
        scenes: "gen:0..6".into(),
        ..BatchSpec::new("unused")
    };
    let generated = names(&spec);
    assert_eq!(generated.len(), 6);
    assert!(
        generated.iter().all(|n| n.ends_with("-s0")),
        "{generated:?}"
    );
    let kinds = hearth::catalogue::builtin().household_kinds();
    for (i, n) in generated.iter().enumerate() {
        assert!(n.contains(kinds[i % kinds.len()]), "{n} of {kinds:?}");
    }
    let one_kind = BatchSpec {
        kind: "studio".into(),
        ..spec.clone()
    };
    assert!(names(&one_kind).iter().all(|n| n.contains("studio")));
}

#[test]
fn bad_batches_say_what_is_wrong() {
    let base = BatchSpec::new("unused");
    let err = |spec: BatchSpec| batch::units(&spec).err().expect("refused");
    let e = err(BatchSpec {
        scenes: "gen:0..3".into(),
        kind: "castle".into(),
        ..base.clone()
    });
    assert!(
        matches!(&e, BatchError::Kind { kind, .. } if kind == "castle"),
        "{e}"
    );
    let e = err(BatchSpec {
        scenes: "gen:5..2".into(),
        ..base.clone()
    });
    assert!(e.to_string().contains("gen:5..2"), "{e}");
    let e = err(BatchSpec {
        seeds: Some("x".into()),
        ..base.clone()
    });
    assert!(matches!(e, BatchError::Seeds(_)), "{e}");
    let e = err(BatchSpec {
        scenes: "no/such/*.ron".into(),
        ..base.clone()
    });
    assert!(matches!(e, BatchError::List { .. }), "{e}");
    let e = err(BatchSpec {
        scenes: " , ".into(),
        ..base.clone()
    });
    assert!(matches!(e, BatchError::NoScenes), "{e}");
    let e = err(BatchSpec {
        scenes: "no_such_scene".into(),
        ..base
    });
    assert!(e.to_string().contains("no_such_scene"), "{e}");
}

#[test]
fn shards_come_from_flags_or_schedulers() {
    let none = |_: &str| None;
    let shard = |index, count| Shard { index, count };
    assert_eq!(Shard::from_args(None, None, none).unwrap(), Shard::ALL);
    assert_eq!(
        Shard::from_args(Some("3/16"), None, none).unwrap(),
        shard(3, 16)
    );
    for bad in ["16/16", "3", "a/4", "1/0", "-1/4"] {
        assert!(Shard::from_args(Some(bad), None, none).is_err(), "{bad}");
    }
    let env = |vars: &'static [(&'static str, &'static str)]| {
        move |k: &str| {
            vars.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    };
    assert_eq!(
        Shard::from_args(None, Some(8), env(&[("JOB_COMPLETION_INDEX", "5")])).unwrap(),
        shard(5, 8)
    );
    assert_eq!(
        Shard::from_args(None, Some(8), env(&[("SLURM_ARRAY_TASK_ID", "2")])).unwrap(),
        shard(2, 8)
    );
    // A Slurm array numbered from 1.
    let one_based = env(&[("SLURM_ARRAY_TASK_ID", "8"), ("SLURM_ARRAY_TASK_MIN", "1")]);
    assert_eq!(
        Shard::from_args(None, Some(8), one_based).unwrap(),
        shard(7, 8)
    );
    let below = env(&[("SLURM_ARRAY_TASK_ID", "0"), ("SLURM_ARRAY_TASK_MIN", "1")]);
    assert!(Shard::from_args(None, Some(8), below).is_err());
    let err = Shard::from_args(None, Some(8), none)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("SLURM_ARRAY_TASK_ID") && err.contains("JOB_COMPLETION_INDEX"),
        "{err}"
    );
    assert!(Shard::from_args(None, Some(8), env(&[("JOB_COMPLETION_INDEX", "8")])).is_err());
}

#[test]
fn the_shards_of_a_batch_are_disjoint_and_cover_it() {
    let units = 23;
    for count in 1..=7 {
        let mut owners = vec![0; units];
        for index in 0..count {
            let s = Shard { index, count };
            for (i, o) in owners.iter_mut().enumerate() {
                *o += usize::from(s.owns(i));
            }
            // Round robin: each shard owns its index, then every count-th.
            let mine: Vec<usize> = (0..units).filter(|&i| s.owns(i)).collect();
            assert_eq!(mine[0], index as usize);
            assert!(mine.windows(2).all(|w| w[1] - w[0] == count as usize));
        }
        assert!(owners.iter().all(|&n| n == 1), "{count}: {owners:?}");
    }
}

fn spec_into(out: &Path, shard: Shard) -> BatchSpec {
    BatchSpec {
        scenes: "studio".into(),
        seeds: Some("0..3".into()),
        days: 1,
        shard,
        ..BatchSpec::new(out)
    }
}

#[test]
fn shards_fill_one_batch_resume_and_match_single_traces() {
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("out");
    let first = Shard { index: 1, count: 2 };
    // What a killed run of this shard left is cleared; another shard's is not.
    fs::create_dir_all(out.join(".studio-s1.tmp-99")).unwrap();
    fs::create_dir_all(out.join(".studio-s0.tmp-99")).unwrap();
    let started = std::sync::Mutex::new(Vec::new());
    let o = batch::execute(&spec_into(&out, first), &|p| {
        if let Progress::Started(name) = p {
            started.lock().unwrap().push(name.to_string());
        }
    })
    .unwrap();
    assert_eq!(
        (o.generated, o.skipped, o.owned, o.total),
        (1, 0, 1, 3),
        "{o:?}"
    );
    assert_eq!(started.into_inner().unwrap(), ["studio-s1"]);
    assert!(!out.join(".studio-s1.tmp-99").exists());
    assert!(out.join(".studio-s0.tmp-99").exists());
    let (rec, shards) = batch::status(&out).unwrap();
    assert_eq!(rec.units, ["studio-s0", "studio-s1", "studio-s2"]);
    assert_eq!((rec.shards, rec.compress), (2, false));
    assert_eq!(
        shards.iter().map(|s| s.complete).collect::<Vec<_>>(),
        [0, 1]
    );
    assert_eq!(shards[0].missing, ["studio-s0", "studio-s2"]);

    // The other shard completes the batch; a rerun of either skips.
    let second = batch::execute(&spec_into(&out, Shard { index: 0, count: 2 }), &quiet).unwrap();
    assert_eq!((second.generated, second.skipped), (2, 0));
    let again = batch::execute(&spec_into(&out, first), &quiet).unwrap();
    assert_eq!((again.generated, again.skipped), (0, 1));
    let (_, shards) = batch::status(&out).unwrap();
    assert!(shards.iter().all(|s| s.missing.is_empty()));

    // Each unit is the trace `generate` makes of its scene and seed.
    let single = t.path().join("single");
    let studio = hearth::store::resolve_scene("studio").unwrap();
    generate_trace(&studio, &single, &TraceOptions::scripted(1, 2)).unwrap();
    assert_eq!(
        fs::read(out.join("studio-s2/events.jsonl")).unwrap(),
        fs::read(single.join("events.jsonl")).unwrap()
    );

    // Another batch into the same directory is refused before it writes.
    let record = fs::read(out.join(batch::RECORD)).unwrap();
    let other = BatchSpec {
        days: 2,
        ..spec_into(&out, Shard::ALL)
    };
    let e = batch::execute(&other, &quiet).unwrap_err();
    assert!(matches!(e, BatchError::Other { .. }), "{e}");
    assert!(e.to_string().contains("holds another batch"), "{e}");
    assert_eq!(fs::read(out.join(batch::RECORD)).unwrap(), record);
}

#[test]
fn the_record_keeps_compression_and_status_needs_a_record() {
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("out");
    let spec = BatchSpec {
        seeds: Some("0".into()),
        compress: true,
        ..spec_into(&out, Shard::ALL)
    };
    let o = batch::execute(&spec, &quiet).unwrap();
    assert_eq!(o.generated, 1);
    let (rec, _) = batch::status(&out).unwrap();
    assert!(rec.compress);
    assert!(out.join("studio-s0/events.jsonl.zst").exists());
    // A record written before `compress` was recorded still reads.
    let mut v: serde_json::Value =
        serde_json::from_slice(&fs::read(out.join(batch::RECORD)).unwrap()).unwrap();
    v.as_object_mut().unwrap().remove("compress");
    fs::write(out.join(batch::RECORD), v.to_string()).unwrap();
    assert!(!batch::read_record(&out).unwrap().compress);

    let e = batch::status(&t.path().join("nothing")).unwrap_err();
    assert!(matches!(e, BatchError::NoRecord { .. }), "{e}");
    assert!(e.to_string().contains("--out of a batch"), "{e}");
    fs::write(out.join(batch::RECORD), "{").unwrap();
    let e = batch::status(&out).unwrap_err();
    assert!(e.to_string().contains("not a batch record"), "{e}");
}
