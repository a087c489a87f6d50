//! `hearth trace lint`: plausibility rules over finished traces.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use hearth::generation::Plan;
use hearth::ids::Id;
use hearth::lint::{self, Finding, Rule};
use serde::Serialize;

#[derive(Subcommand)]
pub enum TraceCommand {
    /// Check traces for things no household does; exit 1 when any rule fires.
    #[command(after_help = rules_help())]
    Lint(LintArgs),
}

#[derive(Args)]
pub struct LintArgs {
    /// Trace directories, or directories of traces (a batch output).
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// One JSON object on stdout: findings per trace and counts per rule.
    #[arg(long)]
    pub json: bool,
}

fn rules_help() -> String {
    let mut s = String::from("Rules (code: what fires it):\n");
    for r in Rule::ALL {
        s.push_str(&format!("  {:<26} {}\n", r.code(), r.about()));
    }
    s
}

#[derive(Serialize)]
struct TraceFindings {
    dir: PathBuf,
    findings: Vec<Finding>,
}

#[derive(Serialize)]
struct Report {
    traces: Vec<TraceFindings>,
    counts: BTreeMap<&'static str, usize>,
    total: usize,
    /// Events and findings by who wrote the events (`llm`, `script`), for
    /// traces of an LLM backend; findings about no event are left out.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    by_source: BTreeMap<&'static str, SourceFindings>,
}

#[derive(Serialize, Default)]
struct SourceFindings {
    events: usize,
    findings: usize,
    counts: BTreeMap<&'static str, usize>,
}

/// Adds `events` and their `findings` to `by_source`, by each event's source.
fn by_source(
    events: &[hearth::trace::Event],
    findings: &[Finding],
    out: &mut BTreeMap<&'static str, SourceFindings>,
) {
    let source_of = |id: u64| {
        events
            .get(id.wrapping_sub(1) as usize)
            .and_then(|e| e.source)
            .map(hearth::trace::Source::name)
    };
    for e in events {
        if let Some(s) = e.source {
            out.entry(s.name()).or_default().events += 1;
        }
    }
    for f in findings {
        if let Some(s) = f.event.and_then(source_of) {
            let g = out.entry(s).or_default();
            g.findings += 1;
            *g.counts.entry(f.rule).or_default() += 1;
        }
    }
}

/// The trace directories under `dir`: itself if finished, else its
/// finished children in name order.
fn trace_dirs(dir: &Path) -> Result<Vec<PathBuf>> {
    if dir.join("manifest.json").exists() {
        return Ok(vec![dir.to_path_buf()]);
    }
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("manifest.json").exists())
        .collect();
    out.sort();
    anyhow::ensure!(!out.is_empty(), "{} holds no finished trace", dir.display());
    Ok(out)
}

/// The misplacements `plan.json` says were meant (none without a plan).
fn planned_misplacements(dir: &Path) -> Result<BTreeSet<(Id, Id)>> {
    let path = dir.join("plan.json");
    if !path.exists() {
        return Ok(BTreeSet::new());
    }
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let plan: Plan =
        serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
    Ok(plan.deliberate())
}

pub fn run(command: TraceCommand) -> Result<ExitCode> {
    let TraceCommand::Lint(args) = command;
    let mut traces = Vec::new();
    let mut sources = BTreeMap::new();
    for d in &args.dirs {
        for dir in trace_dirs(d)? {
            let t = hearth::store::read_trace(&dir)?;
            let deliberate = planned_misplacements(&dir)?;
            let findings = lint::lint_planned(&t.scene, &t.events, &deliberate)
                .with_context(|| format!("linting {}", dir.display()))?;
            by_source(&t.events, &findings, &mut sources);
            traces.push(TraceFindings { dir, findings });
        }
    }
    let all: Vec<Finding> = traces.iter().flat_map(|t| t.findings.clone()).collect();
    let report = Report {
        counts: lint::counts(&all),
        total: all.len(),
        traces,
        by_source: sources,
    };
    let mut out = String::new();
    if args.json {
        out = serde_json::to_string(&report)? + "\n";
    } else {
        for t in &report.traces {
            for f in &t.findings {
                let ev = f.event.map_or(String::new(), |e| format!(" event {e}"));
                out += &format!(
                    "{}:{ev} day {} {} [{}] {}\n",
                    t.dir.display(),
                    f.t / hearth::trace::DAY + 1,
                    f.time,
                    f.rule,
                    f.message
                );
            }
        }
        out += &format!(
            "{} traces, {} findings\n",
            report.traces.len(),
            report.total
        );
        for (code, n) in &report.counts {
            out += &format!("  {code:<26} {n}\n");
        }
        for (source, g) in &report.by_source {
            out += &format!(
                "events written by the {source}: {}, {} findings ({:.1} per 1,000 events)\n",
                g.events,
                g.findings,
                1000.0 * g.findings as f64 / g.events.max(1) as f64
            );
            for (code, n) in &g.counts {
                out += &format!("  {code:<26} {n}\n");
            }
        }
    }
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = std::io::stdout().write_all(out.as_bytes());
    Ok(if report.total == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
