//! `hearth trace lint`: plausibility rules over finished traces;
//! `hearth trace stats`: a day in numbers, against time-use bands.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, Subcommand};
use hearth::workflow::check::{
    self, Activity, Comparison, PersonDay, Rule, Week, compare, mean_minutes, timeuse_bands,
    week_ratio,
};
use hearth::workflow::{DAY, Id};

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
bands --compare uses: assets/timeuse.ron and docs/time-use.md. Figures are hours \
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

pub fn run(command: TraceCommand) -> Result<ExitCode> {
    let args = match command {
        TraceCommand::Lint(args) => args,
        TraceCommand::Stats(args) => return stats(args),
    };
    let report = check::lint_traces(&args.dirs)?;
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
                    f.t / DAY + 1,
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

fn hours_row(
    label: &str,
    means: &BTreeMap<Activity, f64>,
    unscheduled: f64,
    marks: &[Comparison],
) -> String {
    let mut row = format!("  {label:<12}");
    for a in Activity::ALL {
        let h = means.get(&a).copied().unwrap_or(0.0) / 60.0;
        let out = marks.iter().any(|c| c.activity == a && !c.inside);
        row += &format!(" {:>9}", format!("{h:.1}{}", if out { "!" } else { "" }));
    }
    row + &format!(" {:>11.1}\n", unscheduled / 60.0)
}

/// Per week: new things, servings used and things used up, things
/// thrown out, things gone and the courier's calls, with week 1 beside the
/// last whole week.
fn weeks_line(weeks: &[Week]) -> String {
    let list = |f: fn(&Week) -> usize| {
        let v: Vec<String> = weeks.iter().map(|w| f(w).to_string()).collect();
        let r = week_ratio(weeks, f).map_or(String::new(), |r| {
            format!(" (week {} / week 1: {r:.2})", weeks.len())
        });
        format!("[{}]{r}", v.join(", "))
    };
    format!(
        "  per week: new things {}, servings used {}, used up {}, thrown out {}, gone {}, callers {}, courier {}\n",
        list(|w| w.new_things),
        list(|w| w.servings_used),
        list(|w| w.used_up),
        list(|w| w.thrown_out),
        list(|w| w.gone),
        list(|w| w.visits),
        list(|w| w.courier_calls)
    )
}

fn stats(args: StatsArgs) -> Result<ExitCode> {
    let t = timeuse_bands();
    let report = check::trace_stats(&args.dirs, t, args.compare)?;
    let all = report.person_days();
    let means = mean_minutes(&all);
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
        let band_row = |cs: &[Comparison]| {
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
                let days: Vec<PersonDay> = s
                    .people
                    .iter()
                    .filter(|d| d.person == *p)
                    .cloned()
                    .collect();
                let unscheduled =
                    days.iter().map(|d| d.unscheduled).sum::<f64>() / days.len() as f64;
                let marks = if args.compare {
                    compare(&mean_minutes(&days), t)
                } else {
                    vec![]
                };
                out += &hours_row(p.as_str(), &mean_minutes(&days), unscheduled, &marks);
                let n = days.len() as f64;
                let h = |f: &dyn Fn(&PersonDay) -> f64| days.iter().map(f).sum::<f64>() / n / 60.0;
                let by = |g: &str| h(&|d| d.out_by.get(g).copied().unwrap_or(0.0));
                out += &format!(
                    "  {:<12}   out: work/school {:.1}, errands {:.1}, other {:.1}; housework {:.1}; screen {:.1}{}\n",
                    "",
                    by("work_school"),
                    by("errands"),
                    by("other"),
                    h(&|d| d.housework),
                    h(&|d| d.screen),
                    days[0]
                        .kind
                        .as_deref()
                        .map(|k| format!(" ({k})"))
                        .unwrap_or_default()
                );
            }
            if let Some(v) = s.day_variety {
                out += &format!(
                    "  day variety: consecutive days share {:.0}% of their (session, hour)s\n",
                    100.0 * v
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
            if s.weeks.len() > 1 {
                out += &weeks_line(&s.weeks);
            }
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
        for g in &report.groups {
            out += &format!(
                "{} {} {}: {:.1} h over {} person-days, ATUS band {}-{}{}\n",
                g.kind,
                g.days,
                g.figure,
                g.hours,
                g.person_days,
                g.band.lo,
                g.band.hi,
                if g.inside { "" } else { " !" }
            );
        }
        if args.compare {
            let outside = report.outside();
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
