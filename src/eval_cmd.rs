//! `hearth eval`: memory agents scored on mined samples.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::Args;

use hearth::eval::agents::{BUILT_IN, BuiltIn, Strategy};
use hearth::eval::external::External;
use hearth::eval::{Agent, PlanResult, QaResult, Report, evaluate};
use hearth::samples::{Family, Index};
use hearth::store;

#[derive(Args)]
pub struct EvalArgs {
    /// Trace directories with mined samples (repeat for several traces).
    #[arg(long, required = true)]
    pub trace: Vec<PathBuf>,
    /// Agents, comma-separated: oracle, none, recent, bm25, obsmem, kg, or
    /// cmd:"program args" for an external agent over JSON lines.
    #[arg(long, alias = "agents", default_value = "obsmem")]
    pub agent: String,
    /// Samples file inside each trace directory.
    #[arg(long, default_value = "samples.jsonl")]
    pub samples: String,
    /// Where to write the JSON report [default: eval-report.json in the first trace].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Seconds an external agent may take per reply.
    #[arg(long, default_value_t = 30)]
    pub agent_timeout: u64,
}

/// Splits `a,b,cmd:"x, y"` at commas outside quotes.
fn agent_names(spec: &str) -> Vec<String> {
    let (mut out, mut cur, mut quoted) = (Vec::new(), String::new(), false);
    for c in spec.chars() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(std::mem::take(&mut cur)),
            c => cur.push(c),
        }
    }
    out.push(cur);
    out.into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

fn make_agent(name: &str, timeout: u64) -> Result<Box<dyn Agent>> {
    if let Some(cmd) = name.strip_prefix("cmd:") {
        if cmd.trim().is_empty() {
            bail!("cmd: needs a command, e.g. cmd:\"python3 examples/agent.py\"");
        }
        return Ok(Box::new(External::new(cmd, Duration::from_secs(timeout))));
    }
    match Strategy::parse(name) {
        Some(s) => Ok(Box::new(BuiltIn::new(s))),
        None => bail!(
            "unknown agent {name:?}: use one of {} or cmd:\"program\"",
            BUILT_IN.join(", ")
        ),
    }
}

pub fn run(args: EvalArgs) -> Result<ExitCode> {
    let names = agent_names(&args.agent);
    if names.is_empty() {
        bail!("no agent given");
    }
    let mut agents: Vec<Box<dyn Agent>> = names
        .iter()
        .map(|n| make_agent(n, args.agent_timeout))
        .collect::<Result<_>>()?;
    let mut traces = Vec::new();
    for dir in &args.trace {
        let trace = store::read_trace(dir)?;
        let path = dir.join(&args.samples);
        if !path.exists() {
            bail!(
                "no samples at {}: run `hearth mine --trace {}` first",
                path.display(),
                dir.display()
            );
        }
        let (_, samples) = store::read_samples(&path)?;
        traces.push((dir.display().to_string(), trace, samples));
    }
    let bar = indicatif::ProgressBar::new((agents.len() * traces.len()) as u64);
    let mut reports = Vec::new();
    for agent in &mut agents {
        let (mut qa, mut plans): (Vec<QaResult>, Vec<PlanResult>) = (vec![], vec![]);
        for (name, trace, samples) in &traces {
            bar.set_message(format!("{} on {name}", agent.name()));
            let ix = Index::new(&trace.scene, &trace.events);
            let (q, p) = evaluate(&ix, samples, agent.as_mut());
            qa.extend(q);
            plans.extend(p);
            bar.inc(1);
        }
        reports.push(Report::new(
            agent.name(),
            traces.iter().map(|t| t.0.clone()).collect(),
            qa,
            plans,
        ));
    }
    bar.finish_and_clear();
    print_table(&reports);
    let out = args
        .out
        .unwrap_or_else(|| args.trace[0].join("eval-report.json"));
    std::fs::write(&out, serde_json::to_vec_pretty(&reports)?)
        .with_context(|| format!("writing {}", out.display()))?;
    for r in &reports {
        for e in r
            .questions
            .iter()
            .filter_map(|q| q.error.as_ref().map(|e| (&q.id, e)))
            .chain(
                r.tasks
                    .iter()
                    .filter_map(|t| t.error.as_ref().map(|e| (&t.id, e))),
            )
            .take(5)
        {
            eprintln!("{}: {}: {}", r.agent, e.0, e.1);
        }
        if r.errors > 5 {
            eprintln!(
                "{}: ... {} errors in all (see the report)",
                r.agent, r.errors
            );
        }
    }
    println!("wrote {}", out.display());
    Ok(ExitCode::SUCCESS)
}

fn print_table(reports: &[Report]) {
    let w = 10;
    print!("{:<20}", "exact accuracy");
    for r in reports {
        print!(" {:>w$}", r.agent.chars().take(w).collect::<String>());
    }
    println!();
    for f in Family::ALL {
        if reports.iter().all(|r| !r.by_family.contains_key(&f)) {
            continue;
        }
        print!("{:<20}", f.name());
        for r in reports {
            print!(
                " {:>w$}",
                r.by_family
                    .get(&f)
                    .map_or("-".into(), |s| format!("{:.3}", s.exact))
            );
        }
        println!();
    }
    let row = |label: &str, f: &dyn Fn(&Report) -> String| {
        print!("{label:<20}");
        for r in reports {
            print!(" {:>w$}", f(r));
        }
        println!();
    };
    row("all QA", &|r| format!("{:.3}", r.qa.exact));
    row("Session Any@5", &|r| format!("{:.3}", r.qa.session_any5));
    row("Event R@5", &|r| format!("{:.3}", r.qa.event_r5));
    row("QA samples", &|r| r.qa.n.to_string());
    row("plan success", &|r| format!("{:.3}", r.plan.success));
    row("plan complete", &|r| format!("{:.3}", r.plan.complete));
    row("plan validity", &|r| format!("{:.3}", r.plan.validity));
    row("plan steps", &|r| format!("{:.1}", r.plan.steps));
    row("planning tasks", &|r| r.plan.n.to_string());
    row("errors", &|r| r.errors.to_string());
}
