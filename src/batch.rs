//! `hearth batch`: scenes x seeds in parallel, resumable and atomic.

use std::collections::VecDeque;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;

use anyhow::{Result, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use hearth::scene::Scene;
use hearth::store;

#[derive(Args)]
pub struct BatchArgs {
    /// Scene files: a glob (`scenes/*.ron`), or comma-separated paths or built-in ids.
    #[arg(long, default_value = "family_apartment")]
    pub scenes: String,
    /// Seeds, as a half-open range `A..B` or a single number.
    #[arg(long, default_value = "0..10")]
    pub seeds: String,
    /// Simulated days per trace (1 to 365).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=365))]
    pub days: u32,
    /// Traces generated at once.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub jobs: u64,
    /// Directory that receives one `<scene>-s<seed>` trace per job.
    #[arg(long, default_value = "traces")]
    pub out: PathBuf,
    /// Generation backend.
    #[arg(long, default_value = "scripted", value_parser = clap::builder::PossibleValuesParser::new(hearth::jobs::BACKENDS))]
    pub backend: String,
    #[command(flatten)]
    pub llm: crate::llm_args::LlmArgs,
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

struct Job {
    scene: Scene,
    seed: u64,
    dir: PathBuf,
}

/// What a batch run did.
pub struct Outcome {
    pub generated: usize,
    /// Traces already finished before the run (resumed over).
    pub skipped: usize,
    /// (trace name, why) of each trace that failed.
    pub failures: Vec<(String, String)>,
    pub events: u64,
    /// The LLM client's counters for this run, and replies the traces
    /// skipped (LLM backends).
    pub llm: Option<(hearth::llm::Stats, u64)>,
}

pub fn run(args: BatchArgs) -> Result<ExitCode> {
    let o = execute(&args, true)?;
    println!(
        "batch into {}: {} generated, {} already there (skipped), {} failed; {} events",
        args.out.display(),
        o.generated,
        o.skipped,
        o.failures.len(),
        o.events
    );
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

/// Generates every missing trace of `args`, `args.jobs` at a time.
pub fn execute(args: &BatchArgs, progress: bool) -> Result<Outcome> {
    let seeds = parse_seeds(&args.seeds)?;
    // One client for every trace: one cache, one bound on requests in flight.
    let backend = args.llm.spec(&args.backend)?;
    let mut scenes = Vec::new();
    for spec in expand_scenes(&args.scenes)? {
        scenes.push(store::resolve_scene(&spec)?);
    }
    fs::create_dir_all(&args.out)
        .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", args.out.display()))?;
    // Leftovers of a killed run are never finished traces: clear them.
    for e in fs::read_dir(&args.out)?.filter_map(|e| e.ok()) {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') && name.contains(".tmp-") {
            let _ = fs::remove_dir_all(e.path());
        }
    }
    let mut queue = VecDeque::new();
    let mut skipped = 0;
    for scene in &scenes {
        for &seed in &seeds {
            let dir = args.out.join(format!("{}-s{seed}", scene.id));
            if store::is_finished(&dir) {
                skipped += 1;
                continue;
            }
            queue.push_back(Job {
                scene: hearth::scene::detached(scene),
                seed,
                dir,
            });
        }
    }
    let total = queue.len() as u64;
    let bar = if progress {
        ProgressBar::new(total)
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
    std::thread::scope(|s| {
        for _ in 0..args.jobs.min(total.max(1)) {
            s.spawn(|| {
                loop {
                    let Some(job) = queue.lock().expect("queue lock").pop_front() else {
                        break;
                    };
                    let name = job
                        .dir
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    bar.set_message(name.clone());
                    match hearth::jobs::generate_trace(
                        &job.scene, args.days, job.seed, &backend, &job.dir, true,
                    ) {
                        Ok(summary) => {
                            *events.lock().expect("lock") += summary.counts.events;
                            *llm_skipped.lock().expect("lock") +=
                                summary.llm.map_or(0, |l| l.total().skipped);
                        }
                        Err(e) => {
                            // The whole chain: "cannot write x: Not a directory".
                            let why = format!("{:#}", anyhow::Error::new(e));
                            tracing::debug!("{name}: {why}");
                            failures.lock().expect("lock").push((name, why));
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
    Ok(Outcome {
        generated: total as usize - failures.len(),
        skipped,
        failures,
        events: events.into_inner().expect("lock"),
        llm: match &backend {
            hearth::jobs::BackendSpec::Llm(c) => {
                Some((c.stats(), llm_skipped.into_inner().expect("lock")))
            }
            hearth::jobs::BackendSpec::Scripted => None,
        },
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
}
