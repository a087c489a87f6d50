//! `hearth eval --batch` (results across a batch's households, with
//! intervals and plots), `hearth eval --predictions` (answers for other
//! projects' scorers) and `hearth dataset card`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Subcommand;
use indicatif::{ProgressBar, ProgressStyle};

use hearth::eval::predictions::{self, Format};
use hearth::eval::{PlanResult, QaResult, Report};
use hearth::samples::{Asking, Family, Index, QaSample, Sample};
use hearth::store::{self, Trace};
use hearth::study::cost::Cost;
use hearth::study::load::{self, trace_name};
use hearth::study::{self as st, Household, Run, Summary};

use crate::eval::{EvalArgs, cost_rows, run_agents, setup};

#[derive(Subcommand)]
pub enum DatasetCommand {
    /// Write DATASET.md and dataset.json (a datasheet: households, days,
    /// events, questions per family, evidence-age and horizon
    /// distributions, generator and settings, how to score, licence) into
    /// a batch directory, mining traces that have no samples yet.
    Card {
        /// The batch's --out directory.
        dir: PathBuf,
        /// What the questions of traces mined now are drawn from: `robot`
        /// or `household` (see `hearth mine --help`).
        #[arg(long, default_value = "robot")]
        ask: Asking,
        /// Samples file inside each trace directory (mined there first if
        /// there is none).
        #[arg(long, default_value = "samples.jsonl")]
        samples: String,
    },
}

pub fn dataset(c: DatasetCommand) -> Result<ExitCode> {
    match c {
        DatasetCommand::Card { dir, ask, samples } => {
            let card = load::write_card(&dir, &samples, ask)?;
            println!(
                "wrote {} and {}: {} households, {} days, {} events, {} questions, {} tasks",
                dir.join("DATASET.md").display(),
                dir.join("dataset.json").display(),
                card.households.len(),
                card.days,
                card.events,
                card.questions,
                card.tasks
            );
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Writes the agents' answers in `format` into `dir`; returns the files.
/// `results[agent][trace]` are the agents' results on `traces`.
pub fn write_predictions(
    format: Format,
    dir: &Path,
    dirs: &[PathBuf],
    traces: &[(String, Trace, Vec<Sample>)],
    agents: &[String],
    results: &[Vec<Vec<QaResult>>],
) -> Result<Vec<PathBuf>> {
    let names: Vec<String> = dirs
        .iter()
        .zip(traces)
        .map(|(d, t)| trace_name(d, t.1.scene.id.as_str()))
        .collect();
    let written = match format {
        Format::LongMemEval => agents
            .iter()
            .zip(results)
            .map(|(agent, per_trace)| {
                let stem = predictions::prediction_key(agent);
                let stem = stem.trim_end_matches("_prediction");
                let path = dir.join(format!("predictions-{stem}-longmemeval.jsonl"));
                let mut text = String::new();
                for (name, qa) in names.iter().zip(per_trace) {
                    for h in predictions::longmemeval(name, qa) {
                        text.push_str(&serde_json::to_string(&h)?);
                        text.push('\n');
                    }
                }
                store::write_atomic(&path, text.as_bytes())?;
                Ok(path)
            })
            .collect::<Result<Vec<_>>>()?,
        Format::Locomo => {
            let ixs: Vec<Index> = traces
                .iter()
                .map(|t| Index::new(&t.1.scene, &t.1.events))
                .collect();
            let qas: Vec<Vec<&QaSample>> = traces
                .iter()
                .map(|t| {
                    t.2.iter()
                        .filter_map(|s| match s {
                            Sample::Qa(q) => Some(q),
                            Sample::Plan(_) => None,
                        })
                        .collect()
                })
                .collect();
            let answers: Vec<Vec<(String, _)>> = (0..traces.len())
                .map(|i| {
                    agents
                        .iter()
                        .zip(results)
                        .map(|(a, r)| (a.clone(), predictions::texts(&r[i])))
                        .collect()
                })
                .collect();
            let path = dir.join("predictions-locomo.json");
            let records = (0..traces.len()).flat_map(|i| {
                predictions::locomo(
                    hearth::samples::export::locomo_records(&ixs[i], &names[i], &qas[i]),
                    &answers[i],
                )
            });
            store::write_json_array(&path, records, true)?;
            vec![path]
        }
    };
    Ok(written)
}

/// `hearth eval --batch DIR`.
pub fn run_batch(args: &EvalArgs, dir: &Path) -> Result<ExitCode> {
    let traces = load::batch_traces(dir)?;
    let (mut agents, llm) = setup(args)?;
    let out = args.out.clone().unwrap_or_else(|| dir.join("results"));
    std::fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
    let bar = ProgressBar::new(traces.len() as u64).with_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} traces {msg}",
        )
        .expect("valid template"),
    );
    let mut runs = Vec::new();
    let n = agents.len();
    let (mut qa, mut plans): (Vec<Vec<QaResult>>, Vec<Vec<PlanResult>>) =
        (vec![vec![]; n], vec![vec![]; n]);
    let mut latencies: Vec<Vec<Duration>> = vec![vec![]; n];
    let mut tokens: Vec<Option<u64>> = vec![None; n];
    let mut trace_names = Vec::new();
    for t in &traces {
        bar.set_message(t.display().to_string());
        let l = load::load(t, &args.samples, args.ask)?;
        if l.mined {
            // Not `bar.println`: it prints nothing when stderr is no terminal.
            bar.suspend(|| {
                println!(
                    "mined {} samples into {}",
                    l.samples.len(),
                    t.join(&args.samples).display()
                )
            });
        }
        let ix = Index::new(&l.trace.scene, &l.trace.events);
        let facts = st::question_facts(&ix, &l.samples);
        let mut results = Vec::new();
        for (a, r) in run_agents(&mut agents, &ix, &l.samples, llm.as_ref(), args)?
            .into_iter()
            .enumerate()
        {
            latencies[a].extend(r.latencies);
            tokens[a] = r.tokens.map(|x| x + tokens[a].unwrap_or(0));
            results.push(r.qa);
            plans[a].extend(r.plans);
        }
        let household = Household {
            trace: l.name.clone(),
            scene: l.trace.scene.id.to_string(),
            kind: st::kind_of(l.trace.scene.id.as_str()),
            days: l.trace.manifest.days,
            events: l.trace.manifest.counts.events,
            presence: st::presence(&ix),
            questions: facts.len(),
        };
        runs.push(Run::new(
            household,
            facts,
            &results.iter().map(Vec::as_slice).collect::<Vec<_>>(),
        ));
        for (a, r) in results.into_iter().enumerate() {
            qa[a].extend(r);
        }
        trace_names.push(t.display().to_string());
        bar.inc(1);
    }
    bar.finish_and_clear();
    let agent_names: Vec<String> = agents.iter().map(|a| a.name()).collect();
    let summary = st::summarize(
        &agent_names,
        &runs,
        args.resamples as usize,
        args.bootstrap_seed,
    );
    let costs: Vec<Cost> = agent_names
        .iter()
        .zip(&latencies)
        .zip(&tokens)
        .map(|((a, l), t)| Cost::new(a, l, *t))
        .collect();
    print_summary(&summary, &costs);
    let reports: Vec<Report> = agent_names
        .iter()
        .zip(qa)
        .zip(plans)
        .map(|((a, q), p)| Report::new(a.clone(), trace_names.clone(), q, p))
        .collect();
    let mut written = vec![
        write(&out.join("summary.json"), pretty(&summary).as_bytes())?,
        write(&out.join("eval-report.json"), pretty(&reports).as_bytes())?,
        write(&out.join("eval-cost.json"), pretty(&costs).as_bytes())?,
    ];
    for f in st::plot::figures(&summary)? {
        written.push(write(&out.join(format!("{}.png", f.name)), &f.png)?);
        written.push(write(
            &out.join(format!("{}.svg", f.name)),
            f.svg.as_bytes(),
        )?);
    }
    println!(
        "{} households; wrote {} files into {} (summary.json, plots *.png and *.svg; answer cost in eval-cost.json)",
        runs.len(),
        written.len(),
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Pretty JSON with a final newline.
fn pretty<T: serde::Serialize>(v: &T) -> String {
    let mut s = serde_json::to_string_pretty(v).expect("results serialize");
    s.push('\n');
    s
}

fn write(path: &Path, bytes: &[u8]) -> Result<PathBuf> {
    store::write_atomic(path, bytes)?;
    Ok(path.into())
}

/// The table: per family and agent the mean and its interval.
fn print_summary(s: &Summary, costs: &[Cost]) {
    let w = 19;
    let cell = |st: Option<&hearth::study::bootstrap::Stat>| {
        st.map_or("-".into(), |st| {
            format!("{:.3} [{:.2},{:.2}]", st.mean, st.lo, st.hi)
        })
    };
    print!("{:<20}", format!("{} households", s.households.len()));
    for a in &s.agents {
        print!(" {:>w$}", a.agent.chars().take(w).collect::<String>());
    }
    println!();
    for f in Family::ALL {
        if s.agents.iter().all(|a| !a.by_family.contains_key(&f)) {
            continue;
        }
        print!("{:<20}", f.name());
        for a in &s.agents {
            print!(" {:>w$}", cell(a.by_family.get(&f)));
        }
        println!();
    }
    print!("{:<20}", "all QA");
    for a in &s.agents {
        print!(" {:>w$}", cell(Some(&a.all)));
    }
    println!();
    print!("{:<20}", "world accuracy");
    for a in &s.agents {
        print!(" {:>w$}", cell(Some(&a.world)));
    }
    println!();
    cost_rows(s.agents.iter().map(|a| a.agent.as_str()), costs, w);
}
