//! Evaluating agents named by spec over traces: the agents built from
//! their names, run together over each trace (`eval::evaluate_all`), the
//! LLM answerer and judge after them with the tokens they spend, each
//! agent's results and answer latencies gathered across traces, and the
//! report and its cost sidecar written.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::error::WorkflowError;
use super::mine;
use crate::eval::agents::{BUILT_IN, BuiltIn, Strategy};
use crate::eval::external::External;
use crate::eval::words::{WORDS_AGENTS, WordsOnly};
use crate::eval::{Agent, JudgeAudit, PlanResult, QaResult, evaluate_all};
use crate::llm::LlmClient;
use crate::samples::{Index, Sample};
use crate::store::{self, Trace};
use crate::study::cost::{Cost, Timed};
use crate::trace::StageCost;

pub use crate::eval::Report;
pub use crate::llm::oneshot::PassEvent;

/// The names of the built-in agents: those given the parsed query, then
/// the words-only ones.
pub fn builtin_agents() -> Vec<&'static str> {
    BUILT_IN
        .iter()
        .chain(WORDS_AGENTS.iter())
        .copied()
        .collect()
}

/// An agent as named on the command line: a built-in memory given the
/// parsed query, the words-only baseline, or an external program.
#[derive(Debug, Clone, PartialEq)]
pub enum AgentSpec {
    BuiltIn(Strategy),
    /// `bm25-words`, or a built-in memory behind the words-only reader
    /// (`obsmem-words`, ...).
    Words(String),
    /// `cmd:"program args"`: an agent over JSON lines.
    External(String),
}

impl FromStr for AgentSpec {
    type Err = WorkflowError;
    fn from_str(name: &str) -> Result<Self, WorkflowError> {
        if let Some(cmd) = name.strip_prefix("cmd:") {
            if cmd.trim().is_empty() {
                return Err(WorkflowError::EmptyCommand);
            }
            return Ok(AgentSpec::External(cmd.to_string()));
        }
        if WordsOnly::named(name).is_some() {
            return Ok(AgentSpec::Words(name.into()));
        }
        Strategy::parse(name)
            .map(AgentSpec::BuiltIn)
            .ok_or_else(|| WorkflowError::UnknownAgent {
                name: name.into(),
                known: BUILT_IN.join(", "),
                words: WORDS_AGENTS.join(", "),
            })
    }
}

impl AgentSpec {
    /// The specs of `a,b,cmd:"x, y"`, split at commas outside quotes.
    pub fn parse_list(spec: &str) -> Result<Vec<AgentSpec>, WorkflowError> {
        let (mut names, mut cur, mut quoted) = (Vec::new(), String::new(), false);
        for c in spec.chars() {
            match c {
                '"' => quoted = !quoted,
                ',' if !quoted => names.push(std::mem::take(&mut cur)),
                c => cur.push(c),
            }
        }
        names.push(cur);
        let specs = names
            .iter()
            .map(|s| s.trim())
            .filter(|s| !s.is_empty())
            .map(str::parse)
            .collect::<Result<Vec<_>, _>>()?;
        if specs.is_empty() {
            return Err(WorkflowError::NoAgent);
        }
        Ok(specs)
    }

    /// The agent, with `opts`' reply timeout and query for external ones.
    pub fn build(&self, opts: &EvalOptions) -> Box<dyn Agent> {
        match self {
            AgentSpec::BuiltIn(s) => Box::new(BuiltIn::new(*s)),
            AgentSpec::Words(name) => {
                Box::new(WordsOnly::named(name).expect("checked when parsed"))
            }
            AgentSpec::External(cmd) => {
                let agent = External::new(cmd, opts.agent_timeout);
                Box::new(if opts.give_query {
                    agent.with_query()
                } else {
                    agent
                })
            }
        }
    }
}

/// Who words the answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Answerer {
    /// The agents' own rule-based answerer.
    #[default]
    Rules,
    /// The LLM given each agent's top-five evidence (calibrated accuracy then
    /// does not apply: judge instead).
    Llm,
}

/// How agents are run and scored.
#[derive(Debug, Clone)]
pub struct EvalOptions {
    /// Send external agents each question as data too.
    pub give_query: bool,
    pub agent_timeout: Duration,
    pub answerer: Answerer,
    /// Score every answer's words with the LLM judge.
    pub judge: bool,
    /// Questions per trace whose known-verdict answers audit the judge
    /// (0: none).
    pub judge_audit: usize,
}

impl Default for EvalOptions {
    fn default() -> Self {
        EvalOptions {
            give_query: false,
            agent_timeout: Duration::from_secs(30),
            answerer: Answerer::Rules,
            judge: false,
            judge_audit: 12,
        }
    }
}

impl EvalOptions {
    /// Whether answering or judging needs an LLM client.
    pub fn needs_llm(&self) -> bool {
        self.judge || self.answerer == Answerer::Llm
    }
}

/// What evaluation reports as it goes, for a progress display.
#[derive(Debug, Clone, Copy)]
pub enum EvalStep<'a> {
    /// About to run the agents over the trace in this directory.
    Trace(&'a Path),
    /// A pass of LLM calls (answer or judge) for `agent`.
    Llm {
        agent: &'a str,
        event: PassEvent<'a>,
    },
}

/// One agent on one trace: its results, answer latencies, the LLM tokens
/// spent answering and judging, and each LLM pass's recorded cost and
/// wall-clock time.
pub struct AgentRun {
    pub qa: Vec<QaResult>,
    pub plans: Vec<PlanResult>,
    pub latencies: Vec<Duration>,
    pub tokens: Option<u64>,
    pub passes: BTreeMap<String, StageCost>,
    pub pass_time: BTreeMap<String, Duration>,
}

/// Runs `agents` over one trace's samples together (what they share is
/// made once: see [`evaluate_all`]), then the LLM answerer and judge if
/// `opts` ask for them, agent by agent (`progress` told of their calls). A
/// question whose LLM reply fails fails alone, with why; only what ends the
/// run (a spent budget, a broken cache) is an `Err`.
pub fn run_agents(
    agents: &mut [Box<dyn Agent>],
    ix: &Index,
    samples: &[Sample],
    llm: Option<&Arc<LlmClient>>,
    opts: &EvalOptions,
    progress: &mut dyn FnMut(EvalStep),
) -> Result<Vec<AgentRun>, WorkflowError> {
    if opts.needs_llm() && llm.is_none() {
        return Err(WorkflowError::NoClient {
            what: "the LLM answerer and judge",
        });
    }
    let mut timed: Vec<Timed> = agents.iter_mut().map(|a| Timed::new(a.as_mut())).collect();
    let results = {
        let mut each: Vec<&mut dyn Agent> = timed.iter_mut().map(|t| t as &mut dyn Agent).collect();
        evaluate_all(ix, samples, &mut each)
    };
    let llm_err = |what| move |source| WorkflowError::Llm { what, source };
    let mut runs = Vec::new();
    for ((mut qa, plans), timed) in results.into_iter().zip(timed) {
        let mut tokens = None;
        let (mut passes, mut pass_time) = (BTreeMap::new(), BTreeMap::new());
        if let Some(client) = llm.filter(|_| opts.needs_llm()) {
            let agent = timed.name();
            let on = &mut |event: PassEvent| {
                progress(EvalStep::Llm {
                    agent: &agent,
                    event,
                })
            };
            let spent = |s: crate::llm::Stats| s.prompt_tokens + s.completion_tokens;
            let before = spent(client.stats());
            let mut unanswered = vec![false; qa.len()];
            if opts.answerer == Answerer::Llm {
                let start = Instant::now();
                let pass = crate::eval::llm::answer(client, ix, samples, &mut qa, 0, on)
                    .map_err(llm_err("answering through the LLM"))?;
                pass_time.insert("answer".to_string(), start.elapsed());
                passes.insert("answer".to_string(), pass.cost);
                unanswered = pass.failed;
            }
            if opts.judge {
                let start = Instant::now();
                let pass = crate::eval::llm::judge(client, samples, &mut qa, &unanswered, 0, on)
                    .map_err(llm_err("judging answers"))?;
                pass_time.insert("judge".to_string(), start.elapsed());
                passes.insert("judge".to_string(), pass.cost);
            }
            tokens = Some(spent(client.stats()) - before);
        }
        runs.push(AgentRun {
            qa,
            plans,
            latencies: timed.latencies,
            tokens,
            passes,
            pass_time,
        });
    }
    Ok(runs)
}

/// Each agent's results gathered trace by trace.
pub struct Tally {
    pub agents: Vec<String>,
    /// `qa[agent][trace]`.
    pub qa: Vec<Vec<Vec<QaResult>>>,
    plans: Vec<Vec<PlanResult>>,
    latencies: Vec<Vec<Duration>>,
    tokens: Vec<Option<u64>>,
    passes: Vec<BTreeMap<String, StageCost>>,
    pass_time: Vec<BTreeMap<String, Duration>>,
    /// The judge's audit over the traces so far, and what it cost.
    pub audit: Option<(JudgeAudit, StageCost)>,
}

impl Tally {
    pub fn new(agents: Vec<String>) -> Self {
        let n = agents.len();
        Tally {
            agents,
            qa: vec![Vec::new(); n],
            plans: vec![Vec::new(); n],
            latencies: vec![Vec::new(); n],
            tokens: vec![None; n],
            passes: vec![BTreeMap::new(); n],
            pass_time: vec![BTreeMap::new(); n],
            audit: None,
        }
    }

    /// Audits the judge on one trace's samples, if the run is judged.
    pub fn audit(
        &mut self,
        samples: &[Sample],
        llm: Option<&Arc<LlmClient>>,
        opts: &EvalOptions,
        progress: &mut dyn FnMut(EvalStep),
    ) -> Result<(), WorkflowError> {
        let Some(client) = llm.filter(|_| opts.judge && opts.judge_audit > 0) else {
            return Ok(());
        };
        let on = &mut |event: PassEvent| {
            progress(EvalStep::Llm {
                agent: "judge audit",
                event,
            })
        };
        let (a, cost) = crate::eval::llm::audit(client, samples, opts.judge_audit, 0, on).map_err(
            |source| WorkflowError::Llm {
                what: "auditing the judge",
                source,
            },
        )?;
        self.audit = Some(match self.audit.take() {
            Some((before, mut c)) => {
                c += cost;
                (before.merge(&a), c)
            }
            None => (a, cost),
        });
        Ok(())
    }

    /// Adds one trace's runs, one per agent in order.
    pub fn add(&mut self, runs: Vec<AgentRun>) {
        for (a, run) in runs.into_iter().enumerate() {
            self.latencies[a].extend(run.latencies);
            self.tokens[a] = run.tokens.map(|t| t + self.tokens[a].unwrap_or(0));
            for (pass, c) in run.passes {
                *self.passes[a].entry(pass).or_default() += c;
            }
            for (pass, d) in run.pass_time {
                *self.pass_time[a].entry(pass).or_default() += d;
            }
            self.qa[a].push(run.qa);
            self.plans[a].extend(run.plans);
        }
    }

    /// Each agent's QA results on the trace added last.
    pub fn last(&self) -> Vec<&[QaResult]> {
        self.qa
            .iter()
            .map(|per| per.last().map_or(&[][..], Vec::as_slice))
            .collect()
    }

    /// What answering cost each agent (wall clock: never in the report).
    pub fn costs(&self) -> Vec<Cost> {
        self.agents
            .iter()
            .zip(&self.latencies)
            .zip(&self.tokens)
            .zip(&self.pass_time)
            .zip(&self.qa)
            .map(|((((a, l), t), p), qa)| {
                let correct = qa.iter().flatten().filter(|r| r.calibrated).count();
                Cost::new(a, l, *t).with_passes(p).with_correct(correct)
            })
            .collect()
    }

    /// Each agent's report over `traces` (the names the report lists).
    pub fn reports(&self, traces: &[String]) -> Vec<Report> {
        self.agents
            .iter()
            .zip(&self.qa)
            .zip(&self.plans)
            .zip(&self.passes)
            .map(|(((a, qa), plans), passes)| {
                let mut r = Report::new(a.clone(), traces.to_vec(), qa.concat(), plans.clone());
                r.llm = passes.clone();
                r.judge_audit = self.audit.as_ref().map(|(a, _)| a.clone());
                r
            })
            .collect()
    }
}

/// A trace read for evaluation, with its samples.
pub struct TraceSamples {
    pub dir: PathBuf,
    pub trace: Trace,
    pub samples: Vec<Sample>,
}

impl TraceSamples {
    /// The trace in `dir` and its samples file `file` (which must exist).
    pub fn read(dir: &Path, file: &Path) -> Result<Self, WorkflowError> {
        let trace = store::read_trace(dir)?;
        let samples = mine::read(dir, &dir.join(file))?;
        Ok(TraceSamples {
            dir: dir.into(),
            trace,
            samples,
        })
    }
}

/// Agents evaluated over traces.
pub struct Evaluated {
    pub tally: Tally,
    pub reports: Vec<Report>,
    pub costs: Vec<Cost>,
}

/// Evaluates the agents of `specs` over `traces`; `progress` is told the
/// trace about to be run and the LLM calls as they come back.
pub fn evaluate_traces(
    traces: &[TraceSamples],
    specs: &[AgentSpec],
    llm: Option<&Arc<LlmClient>>,
    opts: &EvalOptions,
    progress: &mut dyn FnMut(EvalStep),
) -> Result<Evaluated, WorkflowError> {
    let mut agents: Vec<Box<dyn Agent>> = specs.iter().map(|s| s.build(opts)).collect();
    evaluate_agents(traces, &mut agents, llm, opts, progress)
}

/// [`evaluate_traces`] for agents the caller built: any [`Agent`] (an
/// object of another language's front end, say) is fed and asked exactly
/// as a built-in or external one is.
pub fn evaluate_agents(
    traces: &[TraceSamples],
    agents: &mut [Box<dyn Agent>],
    llm: Option<&Arc<LlmClient>>,
    opts: &EvalOptions,
    progress: &mut dyn FnMut(EvalStep),
) -> Result<Evaluated, WorkflowError> {
    let mut tally = Tally::new(agents.iter().map(|a| a.name()).collect());
    for t in traces {
        progress(EvalStep::Trace(&t.dir));
        let ix = Index::new(&t.trace.scene, &t.trace.events);
        tally.add(run_agents(agents, &ix, &t.samples, llm, opts, progress)?);
        tally.audit(&t.samples, llm, opts, progress)?;
    }
    let names: Vec<String> = traces.iter().map(|t| t.dir.display().to_string()).collect();
    Ok(Evaluated {
        reports: tally.reports(&names),
        costs: tally.costs(),
        tally,
    })
}

/// Where the cost sidecar of the report at `out` goes:
/// `eval-report.json` → `eval-cost.json`, any other `X.json` → `X-cost.json`.
pub fn cost_path(out: &Path) -> PathBuf {
    let stem = out
        .file_stem()
        .map_or("eval".into(), |s| s.to_string_lossy());
    out.with_file_name(match stem.strip_suffix("-report") {
        Some(base) => format!("{base}-cost.json"),
        None => format!("{stem}-cost.json"),
    })
}

/// Writes the reports to `out` and the costs beside it; returns the cost
/// file's path.
pub fn write_reports(
    out: &Path,
    reports: &[Report],
    costs: &[Cost],
) -> Result<PathBuf, WorkflowError> {
    store::write_atomic(
        out,
        &serde_json::to_vec_pretty(reports).expect("reports serialize"),
    )?;
    let cost = cost_path(out);
    store::write_atomic(
        &cost,
        &serde_json::to_vec_pretty(costs).expect("costs serialize"),
    )?;
    Ok(cost)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agent_lists_split_outside_quotes_and_refuse_what_is_not_an_agent() {
        let specs = AgentSpec::parse_list(r#"oracle, bm25-words,cmd:"python3 a.py, b""#).unwrap();
        assert_eq!(
            specs,
            vec![
                AgentSpec::BuiltIn(Strategy::Oracle),
                AgentSpec::Words("bm25-words".into()),
                AgentSpec::External("python3 a.py, b".into())
            ]
        );
        assert!(matches!(
            AgentSpec::parse_list(" , "),
            Err(WorkflowError::NoAgent)
        ));
        assert!(matches!(
            AgentSpec::parse_list("cmd: "),
            Err(WorkflowError::EmptyCommand)
        ));
        let e = AgentSpec::parse_list("oracle,gpt").unwrap_err();
        assert!(e.to_string().contains("unknown agent \"gpt\""), "{e}");
        assert!(e.to_string().contains("bm25-words"), "{e}");
    }

    #[test]
    fn cost_files_sit_beside_their_report() {
        assert_eq!(
            cost_path(Path::new("d/eval-report.json")),
            Path::new("d/eval-cost.json")
        );
        assert_eq!(
            cost_path(Path::new("d/ext.json")),
            Path::new("d/ext-cost.json")
        );
    }
}
