//! `hearth batch`: scenes x seeds in parallel, resumable and atomic.

use std::collections::VecDeque;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use anyhow::{Result, bail};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};

use serde::{Deserialize, Serialize};

use hearth::procgen::{self, SceneSpec};
use hearth::scene::Scene;
use hearth::store;

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct BatchArgs {
    #[command(subcommand)]
    pub command: Option<BatchCommand>,
    /// Scene files: a glob (`scenes/*.ron`), comma-separated paths or
    /// built-in ids, or `gen:A..B` for households generated from seeds A to
    /// B-1 inside the batch (see `--kind`).
    #[arg(long, default_value = "family_apartment")]
    pub scenes: String,
    /// Household kind of `gen:` scenes: studio, apartment, house, or `mixed`
    /// (seed i takes the i-th kind in turn).
    #[arg(long, default_value = "mixed")]
    pub kind: String,
    /// Trace seeds per scene, as a half-open range `A..B` or a single number
    /// [default: 0..10, or 0 with `gen:` scenes].
    #[arg(long)]
    pub seeds: Option<String>,
    /// Simulated days per trace (1 to 365).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=365))]
    pub days: u32,
    /// Traces generated at once.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub jobs: u64,
    /// Directory that receives one `<scene>-s<seed>` trace per unit.
    #[arg(long, default_value = "traces")]
    pub out: PathBuf,
    /// Generation backend.
    #[arg(long, default_value = "scripted", value_parser = clap::builder::PossibleValuesParser::new(hearth::jobs::BACKENDS))]
    pub backend: String,
    /// Run only shard K of N (0-based): units K, K+N, K+2N, ... of the batch.
    #[arg(long, value_name = "K/N", conflicts_with = "shards")]
    pub shard: Option<String>,
    /// Run one of N shards, its index read from the scheduler:
    /// SLURM_ARRAY_TASK_ID (minus SLURM_ARRAY_TASK_MIN) or Kubernetes'
    /// JOB_COMPLETION_INDEX.
    #[arg(long, value_name = "N")]
    pub shards: Option<u32>,
    /// Write each trace's events zstd-compressed (`events.jsonl.zst`);
    /// `batch status` and a resumed batch count them as finished too.
    #[arg(long)]
    pub compress: bool,
    #[command(flatten)]
    pub llm: crate::llm_args::LlmArgs,
}

#[derive(Subcommand)]
pub enum BatchCommand {
    /// What is complete and what is missing in a batch directory, across shards.
    Status(StatusArgs),
}

#[derive(Args)]
pub struct StatusArgs {
    /// The batch's `--out` directory.
    pub dir: PathBuf,
    /// One JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// Parses `A..B` (half-open) or `N`.
pub fn parse_seeds(s: &str) -> Result<Vec<u64>> {
    let s = s.trim();
    if let Some((a, b)) = s.split_once("..") {
        let (a, b): (u64, u64) = (
            a.trim()
                .parse()
                .map_err(|_| anyhow::anyhow!("bad seed range {s:?}: {a:?} is not a number"))?,
            b.trim()
                .parse()
                .map_err(|_| anyhow::anyhow!("bad seed range {s:?}: {b:?} is not a number"))?,
        );
        if a >= b {
            bail!("empty seed range {s:?}: write A..B with A < B (B excluded)");
        }
        return Ok((a..b).collect());
    }
    Ok(vec![s.parse().map_err(|_| {
        anyhow::anyhow!("bad seeds {s:?}: write a number or a range A..B")
    })?])
}

fn wildcard(pattern: &str, name: &str) -> bool {
    match (pattern.chars().next(), name.chars().next()) {
        (None, None) => true,
        (Some('*'), _) => {
            wildcard(&pattern[1..], name)
                || (!name.is_empty()
                    && wildcard(pattern, &name[name.chars().next().unwrap().len_utf8()..]))
        }
        (Some('?'), Some(c)) => wildcard(&pattern[1..], &name[c.len_utf8()..]),
        (Some(p), Some(c)) if p == c => wildcard(&pattern[p.len_utf8()..], &name[c.len_utf8()..]),
        _ => false,
    }
}

/// Expands the `--scenes` argument into scene specs (paths or built-in ids).
pub fn expand_scenes(spec: &str) -> Result<Vec<String>> {
    let mut out = Vec::new();
    for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        if part.contains('*') || part.contains('?') {
            let path = Path::new(part);
            let dir = path
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            let pat = path.file_name().and_then(|n| n.to_str()).unwrap_or("*");
            let mut found: Vec<String> = fs::read_dir(dir)
                .map_err(|e| anyhow::anyhow!("cannot list {}: {e}", dir.display()))?
                .filter_map(|e| e.ok())
                .filter(|e| e.file_name().to_str().is_some_and(|n| wildcard(pat, n)))
                .map(|e| e.path().display().to_string())
                .collect();
            if found.is_empty() {
                bail!("no scene file matches {part}");
            }
            found.sort();
            out.extend(found);
        } else {
            out.push(part.to_string());
        }
    }
    if out.is_empty() {
        bail!("no scenes given");
    }
    Ok(out)
}

/// Where a unit's scene comes from: a file or built-in scene loaded once,
/// or a household generated inside the batch (on the worker, in parallel).
#[derive(Clone)]
enum Source {
    /// Shared by all the scene's units; each job detaches its own copy.
    Loaded(Arc<Scene>),
    Generated(SceneSpec),
}

/// One trace of the batch: a scene and a seed, into `DIR/<name>`.
struct Unit {
    source: Source,
    seed: u64,
    name: String,
}

/// What a batch is, recorded in `DIR/batch.json` by its first run so that
/// `batch status` knows every unit and later runs (other shards, resumes)
/// can check they belong to it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BatchRecord {
    pub schema: String,
    pub schema_version: u32,
    pub scenes: String,
    pub kind: String,
    pub seeds: String,
    pub days: u32,
    pub backend: String,
    /// Shard count of the first sharded run (1 if none).
    pub shards: u32,
    /// Every unit's trace directory name, in batch order.
    pub units: Vec<String>,
}

const RECORD: &str = "batch.json";

/// Every unit of the batch in its fixed order: scenes in order, seeds
/// within each.
fn units(args: &BatchArgs, seeds: &[u64]) -> Result<Vec<Unit>> {
    let mut out = Vec::new();
    if let Some(range) = args.scenes.trim().strip_prefix("gen:") {
        let kinds: Vec<String> = if args.kind == "mixed" {
            hearth::catalogue::builtin()
                .household_kinds()
                .into_iter()
                .map(String::from)
                .collect()
        } else if hearth::catalogue::builtin().household(&args.kind).is_some() {
            vec![args.kind.clone()]
        } else {
            bail!(
                "no household kind {:?}: use mixed or one of {}",
                args.kind,
                hearth::catalogue::builtin().household_kinds().join(", ")
            );
        };
        for scene_seed in
            parse_seeds(range).map_err(|e| anyhow::anyhow!("--scenes gen:{range}: {e}"))?
        {
            let spec = SceneSpec::new(&kinds[scene_seed as usize % kinds.len()], scene_seed);
            for &seed in seeds {
                out.push(Unit {
                    name: format!("{}-s{seed}", spec.scene_id()),
                    source: Source::Generated(spec.clone()),
                    seed,
                });
            }
        }
        return Ok(out);
    }
    for spec in expand_scenes(&args.scenes)? {
        let scene = Arc::new(store::resolve_scene(&spec)?);
        for &seed in seeds {
            out.push(Unit {
                name: format!("{}-s{seed}", scene.id),
                source: Source::Loaded(Arc::clone(&scene)),
                seed,
            });
        }
    }
    Ok(out)
}

/// This run's shard as (index, count): `--shard K/N`, or `--shards N` with
/// the index from Slurm or Kubernetes, or (0, 1).
fn shard_of(args: &BatchArgs) -> Result<(u32, u32)> {
    shard_from(args.shard.as_deref(), args.shards, |k| {
        std::env::var(k).ok()
    })
}

pub fn shard_from(
    shard: Option<&str>,
    shards: Option<u32>,
    env: impl Fn(&str) -> Option<String>,
) -> Result<(u32, u32)> {
    let num = |what: &str, v: &str| -> Result<u32> {
        v.trim()
            .parse()
            .map_err(|_| anyhow::anyhow!("{what} {v:?} is not a whole number"))
    };
    let (k, n) = match (shard, shards) {
        (Some(s), _) => {
            let (k, n) = s
                .split_once('/')
                .ok_or_else(|| anyhow::anyhow!("--shard {s:?}: write K/N, e.g. 0/16"))?;
            (num("--shard index", k)?, num("--shard count", n)?)
        }
        (None, Some(n)) => {
            let k = if let Some(i) = env("JOB_COMPLETION_INDEX") {
                num("JOB_COMPLETION_INDEX", &i)?
            } else if let Some(i) = env("SLURM_ARRAY_TASK_ID") {
                let min = env("SLURM_ARRAY_TASK_MIN")
                    .map(|m| num("SLURM_ARRAY_TASK_MIN", &m))
                    .transpose()?
                    .unwrap_or(0);
                num("SLURM_ARRAY_TASK_ID", &i)?
                    .checked_sub(min)
                    .ok_or_else(|| {
                        anyhow::anyhow!("SLURM_ARRAY_TASK_ID is below SLURM_ARRAY_TASK_MIN")
                    })?
            } else {
                bail!(
                    "--shards {n} needs the shard index: run under a Slurm array (SLURM_ARRAY_TASK_ID) or a Kubernetes Indexed Job (JOB_COMPLETION_INDEX), or say --shard K/{n}"
                );
            };
            (k, n)
        }
        (None, None) => (0, 1),
    };
    if n == 0 || k >= n {
        bail!("shard {k}/{n} does not exist: the index runs from 0 to N-1");
    }
    Ok((k, n))
}

/// What a batch run did.
pub struct Outcome {
    pub generated: usize,
    /// Traces already finished before the run (resumed over).
    pub skipped: usize,
    /// (trace name, why) of each trace that failed.
    pub failures: Vec<(String, String)>,
    pub events: u64,
    /// This run's shard and the units it owns of the whole batch.
    pub shard: (u32, u32),
    pub owned: usize,
    pub total: usize,
    /// Traces not launched because the token budget was spent.
    pub not_started: usize,
    /// The LLM client's counters for this run, and replies the traces
    /// skipped (LLM backends).
    pub llm: Option<(hearth::llm::Stats, u64)>,
}

pub fn run(args: BatchArgs) -> Result<ExitCode> {
    if let Some(BatchCommand::Status(s)) = &args.command {
        return status(s);
    }
    let o = execute(&args, true)?;
    let share = if o.shard.1 > 1 {
        format!(
            " (shard {}/{}: {} of {} units)",
            o.shard.0, o.shard.1, o.owned, o.total
        )
    } else {
        String::new()
    };
    println!(
        "batch into {}{share}: {} generated, {} already there (skipped), {} failed; {} events",
        args.out.display(),
        o.generated,
        o.skipped,
        o.failures.len(),
        o.events
    );
    if o.not_started > 0 {
        println!(
            "the token budget is spent: {} traces not started; run again with the same --llm-cache to go on",
            o.not_started
        );
    }
    if let Some((s, skipped)) = &o.llm {
        println!(
            "LLM: {} requests ({} calls from the cache), {} prompt + {} completion tokens, {} repaired, {} re-asked, {} skipped, {} fallbacks, {} times a server set aside",
            s.requests,
            s.cache_hits,
            s.prompt_tokens,
            s.completion_tokens,
            s.repairs,
            s.reasks,
            skipped,
            s.fallbacks,
            s.set_aside
        );
    }
    if o.failures.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    for (name, why) in &o.failures {
        eprintln!("failed {name}: {why}");
    }
    Ok(ExitCode::FAILURE)
}

/// Writes `DIR/batch.json`, or checks that the one there is this batch.
fn record(args: &BatchArgs, seeds: &str, shards: u32, units: &[Unit]) -> Result<()> {
    let mut rec = BatchRecord {
        schema: "hearth.batch".into(),
        schema_version: 1,
        scenes: args.scenes.clone(),
        kind: args.kind.clone(),
        seeds: seeds.into(),
        days: args.days,
        backend: args.backend.clone(),
        shards,
        units: units.iter().map(|u| u.name.clone()).collect(),
    };
    let path = args.out.join(RECORD);
    if let Ok(text) = fs::read_to_string(&path) {
        let old: BatchRecord = serde_json::from_str(&text)
            .map_err(|e| anyhow::anyhow!("{} is not a batch record: {e}", path.display()))?;
        if old.units != rec.units || old.days != rec.days || old.backend != rec.backend {
            bail!(
                "{} holds another batch ({} units of {}, {} days, {}): give this one another --out",
                args.out.display(),
                old.units.len(),
                old.scenes,
                old.days,
                old.backend
            );
        }
        if shards == 1 || old.shards != 1 {
            return Ok(());
        }
        rec.scenes = old.scenes;
    }
    let mut text = serde_json::to_string_pretty(&rec)?;
    text.push('\n');
    store::write_atomic(&path, text.as_bytes())?;
    Ok(())
}

/// Generates every missing trace of this run's shard, `args.jobs` at a time.
pub fn execute(args: &BatchArgs, progress: bool) -> Result<Outcome> {
    let generated = args.scenes.trim().starts_with("gen:");
    let seeds_spec = args
        .seeds
        .clone()
        .unwrap_or_else(|| if generated { "0" } else { "0..10" }.into());
    let seeds = parse_seeds(&seeds_spec)?;
    let (k, n) = shard_of(args)?;
    // One client for every trace: one cache, one bound on requests in flight.
    let backend = args.llm.spec(&args.backend)?;
    let all = units(args, &seeds)?;
    fs::create_dir_all(&args.out)
        .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", args.out.display()))?;
    record(args, &seeds_spec, n, &all)?;
    let total = all.len();
    let mine: Vec<Unit> = all
        .into_iter()
        .enumerate()
        .filter(|(i, _)| *i as u64 % u64::from(n) == u64::from(k))
        .map(|(_, u)| u)
        .collect();
    let owned = mine.len();
    // Leftovers of a killed run of this shard are never finished traces:
    // clear them (only this shard's: others may be writing next to us).
    for e in fs::read_dir(&args.out)?.filter_map(|e| e.ok()) {
        let name = e.file_name().to_string_lossy().into_owned();
        if let Some((unit, _)) = name.strip_prefix('.').and_then(|n| n.split_once(".tmp-"))
            && mine.iter().any(|u| u.name == unit)
        {
            let _ = fs::remove_dir_all(e.path());
        }
    }
    let mut queue = VecDeque::new();
    let mut skipped = 0;
    for unit in mine {
        if store::is_finished(&args.out.join(&unit.name)) {
            skipped += 1;
            continue;
        }
        queue.push_back(unit);
    }
    let todo = queue.len() as u64;
    let bar = if progress {
        ProgressBar::new(todo)
    } else {
        ProgressBar::hidden()
    }
    .with_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} traces {msg}",
        )
        .expect("valid template"),
    );
    let queue = Mutex::new(queue);
    let failures = Mutex::new(Vec::new());
    let events = Mutex::new(0u64);
    let llm_skipped = Mutex::new(0u64);
    let spent = || match &backend {
        hearth::jobs::BackendSpec::Llm(c) => c.budget_spent(),
        hearth::jobs::BackendSpec::Scripted => false,
    };
    std::thread::scope(|s| {
        for _ in 0..args.jobs.min(todo.max(1)) {
            s.spawn(|| {
                loop {
                    // A spent budget launches nothing more; what is left
                    // stays missing for a rerun with the same cache.
                    if spent() {
                        break;
                    }
                    let Some(unit) = queue.lock().expect("queue lock").pop_front() else {
                        break;
                    };
                    bar.set_message(unit.name.clone());
                    let result = match &unit.source {
                        // Each job has its own copy: see `scene::detached`.
                        Source::Loaded(scene) => Ok(hearth::scene::detached(scene)),
                        Source::Generated(spec) => {
                            procgen::generate(spec, hearth::catalogue::builtin())
                                .map_err(anyhow::Error::new)
                        }
                    }
                    .and_then(|scene| {
                        hearth::jobs::generate_trace_to(
                            &scene,
                            args.days,
                            unit.seed,
                            &backend,
                            &args.out.join(&unit.name),
                            true,
                            args.compress,
                        )
                        .map_err(anyhow::Error::new)
                    });
                    match result {
                        Ok(summary) => {
                            *events.lock().expect("lock") += summary.counts.events;
                            *llm_skipped.lock().expect("lock") +=
                                summary.llm.map_or(0, |l| l.total().skipped);
                        }
                        Err(e) => {
                            // The whole chain: "cannot write x: Not a directory".
                            let why = format!("{e:#}");
                            tracing::debug!("{}: {why}", unit.name);
                            failures
                                .lock()
                                .expect("lock")
                                .push((unit.name.clone(), why));
                        }
                    }
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    let mut failures = failures.into_inner().expect("lock");
    failures.sort();
    let not_started = queue.into_inner().expect("queue lock").len();
    if not_started > 0 {
        tracing::warn!(
            "the token budget is spent: {not_started} traces not started; run again with the same --llm-cache to go on"
        );
    }
    Ok(Outcome {
        generated: todo as usize - failures.len() - not_started,
        not_started,
        skipped,
        failures,
        events: events.into_inner().expect("lock"),
        shard: (k, n),
        owned,
        total,
        llm: match &backend {
            hearth::jobs::BackendSpec::Llm(c) => {
                Some((c.stats(), llm_skipped.into_inner().expect("lock")))
            }
            hearth::jobs::BackendSpec::Scripted => None,
        },
    })
}

/// Completion of one shard (or of the whole batch).
#[derive(Debug, Serialize)]
struct ShardStatus {
    shard: u32,
    units: usize,
    complete: usize,
    missing: Vec<String>,
}

fn status(args: &StatusArgs) -> Result<ExitCode> {
    let path = args.dir.join(RECORD);
    let text = fs::read_to_string(&path).map_err(|e| {
        anyhow::anyhow!(
            "cannot read {}: {e} (is {} the --out of a batch?)",
            path.display(),
            args.dir.display()
        )
    })?;
    let rec: BatchRecord = serde_json::from_str(&text)
        .map_err(|e| anyhow::anyhow!("{} is not a batch record: {e}", path.display()))?;
    let n = rec.shards.max(1);
    let mut shards: Vec<ShardStatus> = (0..n)
        .map(|k| ShardStatus {
            shard: k,
            units: 0,
            complete: 0,
            missing: vec![],
        })
        .collect();
    for (i, unit) in rec.units.iter().enumerate() {
        let s = &mut shards[i % n as usize];
        s.units += 1;
        if store::is_finished(&args.dir.join(unit)) {
            s.complete += 1;
        } else {
            s.missing.push(unit.clone());
        }
    }
    let complete: usize = shards.iter().map(|s| s.complete).sum();
    let done = complete == rec.units.len();
    if args.json {
        let v = serde_json::json!({
            "dir": args.dir, "scenes": rec.scenes, "seeds": rec.seeds, "days": rec.days,
            "units": rec.units.len(), "complete": complete, "shards": shards,
        });
        println!("{v}");
    } else {
        println!(
            "{}: {} of {} traces complete ({} x seeds {}, {} days, {}), {} shard(s)",
            args.dir.display(),
            complete,
            rec.units.len(),
            rec.scenes,
            rec.seeds,
            rec.days,
            rec.backend,
            n
        );
        for s in shards.iter().filter(|s| !s.missing.is_empty()) {
            let shown: Vec<&str> = s.missing.iter().take(5).map(String::as_str).collect();
            println!(
                "  shard {}/{n}: {} of {} complete; missing {}{}",
                s.shard,
                s.complete,
                s.units,
                shown.join(", "),
                if s.missing.len() > 5 { ", ..." } else { "" }
            );
        }
    }
    Ok(if done {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_and_globs() {
        assert_eq!(parse_seeds("0..3").unwrap(), vec![0, 1, 2]);
        assert_eq!(parse_seeds("7").unwrap(), vec![7]);
        assert!(parse_seeds("3..3").is_err());
        assert!(parse_seeds("a..b").is_err());
        assert!(wildcard("*.ron", "studio.ron"));
        assert!(!wildcard("*.ron", "studio.json"));
        assert!(wildcard("s?udio*", "studio.ron"));
    }

    #[test]
    fn shards_from_flags_and_schedulers() {
        let none = |_: &str| None;
        assert_eq!(shard_from(None, None, none).unwrap(), (0, 1));
        assert_eq!(shard_from(Some("3/16"), None, none).unwrap(), (3, 16));
        for bad in ["16/16", "3", "a/4", "1/0", "-1/4"] {
            assert!(shard_from(Some(bad), None, none).is_err(), "{bad}");
        }
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                vars.iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(
            shard_from(None, Some(8), env(&[("JOB_COMPLETION_INDEX", "5")])).unwrap(),
            (5, 8)
        );
        assert_eq!(
            shard_from(None, Some(8), env(&[("SLURM_ARRAY_TASK_ID", "2")])).unwrap(),
            (2, 8)
        );
        // A Slurm array numbered from 1.
        let one_based = env(&[("SLURM_ARRAY_TASK_ID", "8"), ("SLURM_ARRAY_TASK_MIN", "1")]);
        assert_eq!(shard_from(None, Some(8), one_based).unwrap(), (7, 8));
        let err = shard_from(None, Some(8), none).unwrap_err().to_string();
        assert!(
            err.contains("SLURM_ARRAY_TASK_ID") && err.contains("JOB_COMPLETION_INDEX"),
            "{err}"
        );
        assert!(shard_from(None, Some(8), env(&[("JOB_COMPLETION_INDEX", "8")])).is_err());
    }
}
