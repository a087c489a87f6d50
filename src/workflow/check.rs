//! Reports over finished traces: the lint's findings (`hearth trace lint`)
//! and a day in numbers (`hearth trace stats`), each trace read through
//! `store` with what its `plan.json` says (deliberate misplacements,
//! session kinds).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::error::WorkflowError;
use super::traces::traces_under;
use crate::ids::Id;
use crate::lint::{self, Finding};
use crate::store;
use crate::timeuse::{self, TimeUse};
use crate::trace::{Event, Source};

pub use crate::lint::Rule;
pub use crate::timeuse::{
    Activity, Comparison, PersonDay, Week, builtin as timeuse_bands, compare, mean_minutes,
    week_ratio,
};

/// The findings of one trace.
#[derive(Serialize)]
pub struct TraceFindings {
    pub dir: PathBuf,
    pub findings: Vec<Finding>,
}

/// `hearth trace lint`'s report.
#[derive(Serialize)]
pub struct LintReport {
    pub traces: Vec<TraceFindings>,
    pub counts: BTreeMap<&'static str, usize>,
    pub total: usize,
    /// Events and findings by who wrote the events (`llm`, `script`), for
    /// traces of an LLM backend; findings about no event are left out.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub by_source: BTreeMap<&'static str, SourceFindings>,
}

/// Events and findings of one source.
#[derive(Serialize, Default)]
pub struct SourceFindings {
    pub events: usize,
    pub findings: usize,
    pub counts: BTreeMap<&'static str, usize>,
}

/// Adds `events` and their `findings` to `by_source`, by each event's source.
fn by_source(
    events: &[Event],
    findings: &[Finding],
    out: &mut BTreeMap<&'static str, SourceFindings>,
) {
    let source_of = |id: u64| {
        events
            .get(id.wrapping_sub(1) as usize)
            .and_then(|e| e.source)
            .map(Source::name)
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

/// The traces under each of `dirs` (see [`traces_under`]), in order.
fn all_under(dirs: &[PathBuf]) -> Result<Vec<PathBuf>, WorkflowError> {
    let mut out = Vec::new();
    for d in dirs {
        out.extend(traces_under(d)?);
    }
    Ok(out)
}

/// Lints every trace under `dirs`, letting be the misplacements their
/// plans meant.
pub fn lint_traces(dirs: &[PathBuf]) -> Result<LintReport, WorkflowError> {
    let mut traces = Vec::new();
    let mut sources = BTreeMap::new();
    for dir in all_under(dirs)? {
        let t = store::read_trace(&dir)?;
        let deliberate: BTreeSet<(Id, Id)> = store::read_plan(&dir)?
            .map(|p| p.deliberate())
            .unwrap_or_default();
        let findings = lint::lint_planned(&t.scene, &t.events, &deliberate).map_err(|source| {
            WorkflowError::Lint {
                trace: dir.clone(),
                source,
            }
        })?;
        by_source(&t.events, &findings, &mut sources);
        traces.push(TraceFindings { dir, findings });
    }
    let all: Vec<Finding> = traces.iter().flat_map(|t| t.findings.clone()).collect();
    Ok(LintReport {
        counts: lint::counts(&all),
        total: all.len(),
        traces,
        by_source: sources,
    })
}

/// A day in numbers of one trace.
#[derive(Serialize)]
pub struct TraceStats {
    pub dir: PathBuf,
    pub stats: timeuse::Stats,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub compare: Vec<timeuse::Comparison>,
}

/// `hearth trace stats`' report.
#[derive(Serialize)]
pub struct StatsReport {
    pub traces: Vec<TraceStats>,
    /// Means over every person-day of every trace.
    pub mean_hours: BTreeMap<&'static str, f64>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub compare: Vec<timeuse::Comparison>,
    /// Out of the house, housework and screen time by person kind and
    /// weekday or weekend, beside their bands (with `compare`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<timeuse::GroupComparison>,
}

impl StatsReport {
    /// The figures outside their band (with `compare`): activities by
    /// name, groups as `kind days figure`.
    pub fn outside(&self) -> Vec<String> {
        self.compare
            .iter()
            .filter(|c| !c.inside)
            .map(|c| c.activity.name().to_string())
            .chain(
                self.groups
                    .iter()
                    .filter(|g| !g.inside)
                    .map(|g| format!("{} {} {}", g.kind, g.days, g.figure)),
            )
            .collect()
    }

    /// How many figures have a band (with `compare`).
    pub fn figures(&self) -> usize {
        self.compare.len() + self.groups.len()
    }

    /// Every person-day of every trace.
    pub fn person_days(&self) -> Vec<timeuse::PersonDay> {
        self.traces
            .iter()
            .flat_map(|t| t.stats.people.clone())
            .collect()
    }
}

/// Session ids to kinds from the trace's plan, if it has one.
fn session_kinds(dir: &Path) -> Result<BTreeMap<String, String>, WorkflowError> {
    Ok(store::read_plan(dir)?
        .map(|p| {
            p.sessions
                .into_iter()
                .map(|s| (s.id, s.kind.to_string()))
                .collect()
        })
        .unwrap_or_default())
}

/// The time use of every trace under `dirs`, beside the bands of `t` if
/// `compare`.
pub fn trace_stats(
    dirs: &[PathBuf],
    t: &TimeUse,
    compare: bool,
) -> Result<StatsReport, WorkflowError> {
    let mut traces = Vec::new();
    for dir in all_under(dirs)? {
        let tr = store::read_trace(&dir)?;
        let sessions = session_kinds(&dir)?;
        let stats = timeuse::stats(&tr.scene, &tr.events, tr.manifest.days, &sessions, t).map_err(
            |source| WorkflowError::Stats {
                trace: dir.clone(),
                source,
            },
        )?;
        let compare = if compare {
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
    let all: Vec<timeuse::PersonDay> = traces.iter().flat_map(|t| t.stats.people.clone()).collect();
    let means = timeuse::mean_minutes(&all);
    Ok(StatsReport {
        mean_hours: means.iter().map(|(a, m)| (a.name(), m / 60.0)).collect(),
        compare: if compare {
            timeuse::compare(&means, t)
        } else {
            vec![]
        },
        groups: if compare {
            timeuse::compare_groups(&all, t)
        } else {
            vec![]
        },
        traces,
    })
}

/// What `generate` says of a trace beside its counts: the time-use
/// figures outside their bands (`trace stats --compare`) and the lint's
/// findings by rule.
#[derive(Debug, Clone, Serialize)]
pub struct Verdict {
    pub figures: usize,
    pub outside: Vec<String>,
    pub lint: BTreeMap<&'static str, usize>,
}

/// The [`Verdict`] on the trace in `dir`.
pub fn verdict(dir: &Path) -> Result<Verdict, WorkflowError> {
    let dirs = [dir.to_path_buf()];
    let stats = trace_stats(&dirs, timeuse::builtin(), true)?;
    let lint = lint_traces(&dirs)?;
    Ok(Verdict {
        figures: stats.figures(),
        outside: stats.outside(),
        lint: lint.counts,
    })
}
