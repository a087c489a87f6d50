//! `hearth trace lint`: plausibility rules over finished traces;
//! `hearth trace stats`: a day in numbers, against time-use bands.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use hearth::ids::Id;
use hearth::lint::{self, Finding, Rule};
use hearth::timeuse::{self, Activity};
use serde::Serialize;

#[derive(Subcommand)]
pub enum TraceCommand {
    /// Check traces for things no household does; exit 1 when any rule fires.
    #[command(after_help = rules_help())]
    Lint(LintArgs),
    /// A day in numbers: per person per day the hours asleep, eating,
    /// preparing food, on hygiene, out and at leisure; the robot's busy
    /// time; events per day by skill; door events as a share.
    #[command(after_help = STATS_HELP)]
    Stats(StatsArgs),
}

const STATS_HELP: &str = "How activities are read from a trace, and the American Time Use Survey \
bands --compare uses: assets/timeuse.ron and README \"A day in numbers\". Figures are hours \
per person per day (means over the trace's person-days); with --compare a figure outside its \
band is marked with `!`.";

#[derive(Args)]
pub struct StatsArgs {
    /// Trace directories, or directories of traces (a batch output).
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// One JSON object on stdout: every person-day, robot-day and figure.
    #[arg(long)]
    pub json: bool,
    /// Put each figure beside its reference band and mark what falls outside.
    #[arg(long)]
    pub compare: bool,
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
    Ok(hearth::store::read_plan(dir)?
        .map(|p| p.deliberate())
        .unwrap_or_default())
}

pub fn run(command: TraceCommand) -> Result<ExitCode> {
    let args = match command {
        TraceCommand::Lint(args) => args,
        TraceCommand::Stats(args) => return stats(args),
    };
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

#[derive(Serialize)]
struct TraceStats {
    dir: PathBuf,
    stats: timeuse::Stats,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    compare: Vec<timeuse::Comparison>,
}

#[derive(Serialize)]
struct StatsReport {
    traces: Vec<TraceStats>,
    /// Means over every person-day of every trace.
    mean_hours: BTreeMap<&'static str, f64>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    compare: Vec<timeuse::Comparison>,
}

/// Session ids to kinds from the trace's `plan.json`, if it has one.
fn session_kinds(dir: &Path) -> Result<BTreeMap<String, String>> {
    let path = dir.join("plan.json");
    if !path.exists() {
        return Ok(BTreeMap::new());
    }
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let plan: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("{} is not JSON", path.display()))?;
    Ok(plan["sessions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| {
            Some((
                s["id"].as_str()?.to_string(),
                s["kind"].as_str()?.to_string(),
            ))
        })
        .collect())
}

fn hours_row(
    label: &str,
    means: &BTreeMap<Activity, f64>,
    unscheduled: f64,
    marks: &[timeuse::Comparison],
) -> String {
    let mut row = format!("  {label:<12}");
    for a in Activity::ALL {
        let h = means.get(&a).copied().unwrap_or(0.0) / 60.0;
        let out = marks.iter().any(|c| c.activity == a && !c.inside);
        row += &format!(" {:>9}", format!("{h:.1}{}", if out { "!" } else { "" }));
    }
    row + &format!(" {:>11.1}\n", unscheduled / 60.0)
}

fn stats(args: StatsArgs) -> Result<ExitCode> {
    let t = timeuse::builtin();
    let mut traces = Vec::new();
    for d in &args.dirs {
        for dir in trace_dirs(d)? {
            let tr = hearth::store::read_trace(&dir)?;
            let sessions = session_kinds(&dir)?;
            let stats = timeuse::stats(&tr.scene, &tr.events, tr.manifest.days, &sessions, t)
                .with_context(|| format!("reading the day from {}", dir.display()))?;
            let compare = if args.compare {
                timeuse::compare(&stats.mean_minutes(), t)
            } else {
                vec![]
            };
            traces.push(TraceStats {
                dir,
                stats,
                compare,
            });
        }
    }
    let all: Vec<timeuse::PersonDay> = traces.iter().flat_map(|t| t.stats.people.clone()).collect();
    let means = timeuse::mean_minutes(&all);
    let report = StatsReport {
        mean_hours: means.iter().map(|(a, m)| (a.name(), m / 60.0)).collect(),
        compare: if args.compare {
            timeuse::compare(&means, t)
        } else {
            vec![]
        },
        traces,
    };
    let out = if args.json {
        serde_json::to_string(&report)? + "\n"
    } else {
        let mut out = String::new();
        let header = Activity::ALL
            .iter()
            .fold(format!("  {:<12}", "hours/day"), |h, a| {
                h + &format!(" {:>9}", a.name())
            })
            + " unscheduled\n";
        let band_row = |cs: &[timeuse::Comparison]| {
            Activity::ALL
                .iter()
                .fold(format!("  {:<12}", "ATUS band"), |row, a| {
                    let b = cs
                        .iter()
                        .find(|c| c.activity == *a)
                        .map(|c| format!("{}-{}", c.band.lo, c.band.hi));
                    row + &format!(" {:>9}", b.unwrap_or_else(|| "-".into()))
                })
                + "\n"
        };
        for tr in &report.traces {
            let s = &tr.stats;
            let busy: f64 =
                s.robots.iter().map(|r| r.busy).sum::<f64>() / s.robots.len().max(1) as f64;
            out += &format!(
                "{}: {}, {} days, {:.0} events/day, doors {:.1}% of events, robot busy {:.1} h/day\n",
                tr.dir.display(),
                s.scene,
                s.days,
                s.events_per_day,
                100.0 * s.door_share,
                busy / 60.0
            );
            out += &header;
            let mut people: Vec<&Id> = s.people.iter().map(|p| &p.person).collect();
            people.dedup();
            for p in people {
                let days: Vec<timeuse::PersonDay> = s
                    .people
                    .iter()
                    .filter(|d| d.person == *p)
                    .cloned()
                    .collect();
                let unscheduled =
                    days.iter().map(|d| d.unscheduled).sum::<f64>() / days.len() as f64;
                let marks = if args.compare {
                    timeuse::compare(&timeuse::mean_minutes(&days), t)
                } else {
                    vec![]
                };
                out += &hours_row(
                    p.as_str(),
                    &timeuse::mean_minutes(&days),
                    unscheduled,
                    &marks,
                );
            }
            if args.compare {
                out += &band_row(&tr.compare);
            }
            let skills = s
                .by_skill_per_day
                .iter()
                .map(|(k, n)| format!("{k} {n:.0}"))
                .collect::<Vec<_>>()
                .join(", ");
            out += &format!("  per day: {skills}\n");
        }
        if report.traces.len() > 1 {
            let unscheduled =
                all.iter().map(|d| d.unscheduled).sum::<f64>() / all.len().max(1) as f64;
            out += &format!(
                "all {} traces, {} person-days:\n",
                report.traces.len(),
                all.len()
            );
            out += &header;
            out += &hours_row("mean", &means, unscheduled, &report.compare);
            if args.compare {
                out += &band_row(&report.compare);
            }
        }
        if args.compare {
            let outside: Vec<&str> = report
                .compare
                .iter()
                .filter(|c| !c.inside)
                .map(|c| c.activity.name())
                .collect();
            out += &if outside.is_empty() {
                "every mean is inside its band\n".to_string()
            } else {
                format!("outside their band: {}\n", outside.join(", "))
            };
        }
        out
    };
    let _ = std::io::stdout().write_all(out.as_bytes());
    Ok(ExitCode::SUCCESS)
}
