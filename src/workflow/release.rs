//! A release others can cite: `hearth dataset release` freezes a batch into
//! a dev split (traces and their questions with the answers) and a test
//! split (what an agent receives: the scene, the robot's observations and
//! the questions, nothing it could mine the answers from), the SHA-256 of
//! every file in the card, and the test split's traces and answers in a
//! key file kept apart. `hearth answer` runs agents over a split into
//! predictions files; `hearth score` scores them from the key alone, as
//! `hearth eval --batch` scores the same households in process.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::WorkflowError;
use super::mine::{Loaded, load_or_mine};
use super::study::{BatchResults, Step, evaluate_loaded};
use super::traces::{RECORD, batch_settings, batch_traces, trace_name};
use crate::eval::blind::{self, Answered, Asked, Replayed};
use crate::eval::{Agent, Observation, observations};
use crate::samples::{Asking, Index, Sample};
use crate::store::{self, StoreError};
use crate::study::cost::Cost;

/// The release's card, beside its splits.
pub const CARD: &str = "release.json";
/// The card in words.
pub const CARD_MD: &str = "RELEASE.md";
/// A test household's questions and tasks, as asked.
pub const QUESTIONS: &str = "questions.jsonl";
/// A test household's robot observations, in order.
pub const OBSERVATIONS: &str = "observations.jsonl";
/// The version of hearth that made a release, answered it or scores it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// A split of a release.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Split {
    Dev,
    Test,
}

impl Split {
    pub fn name(self) -> &'static str {
        match self {
            Split::Dev => "dev",
            Split::Test => "test",
        }
    }
}

impl std::str::FromStr for Split {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "dev" => Ok(Split::Dev),
            "test" => Ok(Split::Test),
            _ => Err(format!("{s:?} is not a split: dev or test")),
        }
    }
}

/// A release's card (`release.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReleaseCard {
    pub name: String,
    /// The hearth version that made it; answers and scores need the same.
    pub hearth: String,
    /// The batch it was made from, and what its questions ask.
    pub batch: String,
    pub ask: Asking,
    /// The seed of the split.
    pub seed: u64,
    /// The households of each split, in batch order.
    pub dev: Vec<String>,
    pub test: Vec<String>,
    /// Questions and planning tasks per split.
    pub questions: BTreeMap<Split, usize>,
    pub tasks: BTreeMap<Split, usize>,
    /// The SHA-256 of every other file of the release, by path from it.
    pub files: BTreeMap<String, String>,
}

impl ReleaseCard {
    fn households(&self, split: Split) -> &[String] {
        match split {
            Split::Dev => &self.dev,
            Split::Test => &self.test,
        }
    }

    /// The card in words: what is in it, how to answer and score it, and
    /// every file's hash.
    pub fn markdown(&self, card_sha256: &str) -> String {
        let mut s = format!(
            "# {}\n\nA release of hearth {} made from the batch `{}` (questions asked of the {}), split by household with seed {}.\n\n\
             | split | households | questions | tasks |\n|---|---:|---:|---:|\n",
            self.name,
            self.hearth,
            self.batch,
            self.ask.name(),
            self.seed
        );
        for split in [Split::Dev, Split::Test] {
            s += &format!(
                "| {} | {} | {} | {} |\n",
                split.name(),
                self.households(split).len(),
                self.questions.get(&split).copied().unwrap_or(0),
                self.tasks.get(&split).copied().unwrap_or(0)
            );
        }
        s += &format!(
            "\nCite it by its name and the SHA-256 of `{CARD}`: `{card_sha256}`.\n\n\
             `dev/` holds each household's trace and its questions with their answers \
             (`hearth eval --batch dev` scores agents on it). `test/` holds what an agent \
             receives: the scene, the robot's observations (`{OBSERVATIONS}`) and the \
             questions and tasks as asked (`{QUESTIONS}`); the traces and answers are in \
             the key file, kept apart.\n\n\
             ```sh\nhearth answer RELEASE --agents obsmem --out predictions\n\
             hearth score --key KEY predictions/predictions-obsmem.jsonl --out results\n```\n\n\
             ## Files\n\n| file | SHA-256 |\n|---|---|\n"
        );
        for (f, h) in &self.files {
            s += &format!("| `{f}` | `{h}` |\n");
        }
        s
    }
}

/// The key of a release: its test households' traces and answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Key {
    pub release: String,
    pub hearth: String,
    /// The SHA-256 of the release's card.
    pub card_sha256: String,
    pub households: Vec<KeyHousehold>,
}

/// One test household as the key keeps it: its trace's files and its
/// samples file, as text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KeyHousehold {
    pub name: String,
    pub manifest: String,
    pub scene: String,
    pub events: String,
    pub samples: String,
}

/// The first line of a predictions file: whose answers to which release.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PredictionsHeader {
    pub release: String,
    pub card_sha256: String,
    pub split: Split,
    pub hearth: String,
    pub agent: String,
}

/// A line of a predictions file after the header.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PredictionLine {
    pub household: String,
    #[serde(flatten)]
    pub answered: Answered,
}

/// How a batch is released.
pub struct ReleaseOptions<'a> {
    /// The release's name (default: the output directory's).
    pub name: Option<String>,
    /// The share of households in the test split (at least one in each
    /// split where there are two or more).
    pub test_share: f64,
    pub seed: u64,
    /// Samples file inside each trace directory (mined first if absent).
    pub samples: &'a str,
    pub ask: Asking,
}

fn sha256(bytes: &[u8]) -> String {
    format!("{:x}", Sha256::digest(bytes))
}

fn read_error(path: &Path) -> impl Fn(std::io::Error) -> WorkflowError + '_ {
    move |source| {
        StoreError::Read {
            path: path.into(),
            source,
        }
        .into()
    }
}

fn jsonl<T: Serialize>(items: impl IntoIterator<Item = T>) -> String {
    let mut s = String::new();
    for i in items {
        s.push_str(&serde_json::to_string(&i).expect("release files serialize"));
        s.push('\n');
    }
    s
}

/// Which households go to the test split: a `share` of them drawn with
/// `seed`, at least one and not all where there are two or more; both
/// lists in batch order.
pub fn split(names: &[String], share: f64, seed: u64) -> (Vec<String>, Vec<String>) {
    let n = names.len();
    let k = (share * n as f64).round() as usize;
    let k = if n >= 2 { k.clamp(1, n - 1) } else { k.min(n) };
    let mut order: Vec<usize> = (0..n).collect();
    order.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
    let test: std::collections::BTreeSet<usize> = order[..k].iter().copied().collect();
    let (mut dev, mut tst) = (Vec::new(), Vec::new());
    for (i, name) in names.iter().enumerate() {
        if test.contains(&i) {
            tst.push(name.clone())
        } else {
            dev.push(name.clone())
        }
    }
    (dev, tst)
}

/// Freezes the batch `batch` into the release `out` (which must not exist
/// or be empty) and its key file `key`; returns the card and its SHA-256.
pub fn release(
    batch: &Path,
    out: &Path,
    key: &Path,
    opts: &ReleaseOptions,
) -> Result<(ReleaseCard, String), WorkflowError> {
    if out.exists()
        && std::fs::read_dir(out)
            .map_err(read_error(out))?
            .next()
            .is_some()
    {
        return Err(WorkflowError::ReleaseExists { dir: out.into() });
    }
    if key.starts_with(out) {
        return Err(WorkflowError::KeyInRelease { key: key.into() });
    }
    let traces = batch_traces(batch)?;
    let loaded: Vec<(PathBuf, Loaded)> = traces
        .iter()
        .map(|t| load_or_mine(t, opts.samples, opts.ask).map(|l| (t.clone(), l)))
        .collect::<Result<_, _>>()?;
    let names: Vec<String> = loaded.iter().map(|(_, l)| l.name.clone()).collect();
    let (dev, test) = split(&names, opts.test_share, opts.seed);
    let mut files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    let (mut questions, mut tasks) = (BTreeMap::new(), BTreeMap::new());
    let mut key_households = Vec::new();
    for (dir, l) in &loaded {
        let split = if test.contains(&l.name) {
            Split::Test
        } else {
            Split::Dev
        };
        let plans = l
            .samples
            .iter()
            .filter(|s| matches!(s, Sample::Plan(_)))
            .count();
        *questions.entry(split).or_insert(0) += l.samples.len() - plans;
        *tasks.entry(split).or_insert(0) += plans;
        let at = format!("{}/{}", split.name(), l.name);
        match split {
            Split::Dev => {
                for f in [store::MANIFEST, store::SCENE, store::PLAN] {
                    let p = dir.join(f);
                    if p.exists() {
                        files.insert(
                            format!("{at}/{f}"),
                            std::fs::read(&p).map_err(read_error(&p))?,
                        );
                    }
                }
                let events = store::events_text(dir)?;
                files.insert(format!("{at}/{}", store::EVENTS), events.into_bytes());
                let s = std::fs::read(dir.join(opts.samples)).map_err(read_error(dir))?;
                files.insert(format!("{at}/samples.jsonl"), s);
            }
            Split::Test => {
                let ix = Index::new(&l.trace.scene, &l.trace.events);
                let asked = blind::asked(&ix, &l.samples);
                // The robot's observations up to the last question: nothing after it is asked.
                let last = asked.iter().map(Asked::cutoff).max().unwrap_or(0);
                let scene = store::read_text(&dir.join(store::SCENE))?;
                files.insert(format!("{at}/{}", store::SCENE), scene.clone().into_bytes());
                files.insert(
                    format!("{at}/{OBSERVATIONS}"),
                    jsonl(observations(&ix, 0, last)).into_bytes(),
                );
                files.insert(format!("{at}/{QUESTIONS}"), jsonl(&asked).into_bytes());
                key_households.push(KeyHousehold {
                    name: l.name.clone(),
                    manifest: store::read_text(&dir.join(store::MANIFEST))?,
                    scene,
                    events: store::events_text(dir)?,
                    samples: store::read_text(&dir.join(opts.samples))?,
                });
            }
        }
    }
    if let Some(mut rec) = batch_settings(batch)? {
        for (split, units) in [(Split::Dev, &dev), (Split::Test, &test)] {
            rec.units = units.clone();
            let mut json = serde_json::to_string_pretty(&rec).expect("records serialize");
            json.push('\n');
            files.insert(format!("{}/{RECORD}", split.name()), json.into_bytes());
        }
    }
    let card = ReleaseCard {
        name: opts.name.clone().unwrap_or_else(|| {
            out.file_name()
                .map_or("release".into(), |n| n.to_string_lossy().into_owned())
        }),
        hearth: VERSION.into(),
        batch: trace_name(batch, "batch"),
        ask: opts.ask,
        seed: opts.seed,
        dev,
        test,
        questions,
        tasks,
        files: files.iter().map(|(f, b)| (f.clone(), sha256(b))).collect(),
    };
    for (f, bytes) in &files {
        let path = out.join(f);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|source| StoreError::Write {
                path: parent.into(),
                source,
            })?;
        }
        store::write_atomic(&path, bytes)?;
    }
    let mut json = serde_json::to_string_pretty(&card).expect("cards serialize");
    json.push('\n');
    let card_sha256 = sha256(json.as_bytes());
    store::write_atomic(&out.join(CARD), json.as_bytes())?;
    store::write_atomic(&out.join(CARD_MD), card.markdown(&card_sha256).as_bytes())?;
    let key_file = Key {
        release: card.name.clone(),
        hearth: VERSION.into(),
        card_sha256: card_sha256.clone(),
        households: key_households,
    };
    let mut json = serde_json::to_string(&key_file).expect("keys serialize");
    json.push('\n');
    store::write_atomic(key, json.as_bytes())?;
    Ok((card, card_sha256))
}

/// Reads a release's card and checks every file of `split` against the
/// hash it gives; returns the card and its SHA-256.
pub fn read_release(dir: &Path, split: Split) -> Result<(ReleaseCard, String), WorkflowError> {
    let path = dir.join(CARD);
    let bytes = std::fs::read(&path).map_err(read_error(&path))?;
    let card: ReleaseCard = serde_json::from_slice(&bytes).map_err(|e| WorkflowError::Record {
        path: path.clone(),
        why: e.to_string(),
    })?;
    check_version("the release", &card.hearth)?;
    let prefix = format!("{}/", split.name());
    for (f, want) in card.files.iter().filter(|(f, _)| f.starts_with(&prefix)) {
        let p = dir.join(f);
        let got = sha256(&std::fs::read(&p).map_err(read_error(&p))?);
        if &got != want {
            return Err(WorkflowError::Tampered {
                path: p,
                want: want.clone(),
                got,
            });
        }
    }
    Ok((card, sha256(&bytes)))
}

fn check_version(what: &'static str, made: &str) -> Result<(), WorkflowError> {
    if made != VERSION {
        return Err(WorkflowError::Version {
            what,
            made: made.into(),
            running: VERSION.into(),
        });
    }
    Ok(())
}

/// One household of a split as an agent receives it.
pub struct Blind {
    pub name: String,
    pub scene: crate::scene::Scene,
    pub observations: Vec<Observation>,
    pub asked: Vec<Asked>,
}

/// The households of `split` as agents receive them (a dev household's
/// from its trace and questions, as the test split's were made).
pub fn read_split(
    dir: &Path,
    card: &ReleaseCard,
    split: Split,
) -> Result<Vec<Blind>, WorkflowError> {
    card.households(split)
        .iter()
        .map(|name| {
            let at = dir.join(split.name()).join(name);
            match split {
                Split::Dev => {
                    let trace = store::read_trace(&at)?;
                    let samples = super::mine::read(&at, &at.join("samples.jsonl"))?;
                    let ix = Index::new(&trace.scene, &trace.events);
                    let asked = blind::asked(&ix, &samples);
                    let last = asked.iter().map(Asked::cutoff).max().unwrap_or(0);
                    let observations = observations(&ix, 0, last);
                    Ok(Blind {
                        name: name.clone(),
                        observations,
                        asked,
                        scene: trace.scene,
                    })
                }
                Split::Test => {
                    let sp = at.join(store::SCENE);
                    let scene =
                        crate::scene::parse(&sp.display().to_string(), &store::read_text(&sp)?)
                            .map_err(StoreError::from)?;
                    Ok(Blind {
                        name: name.clone(),
                        scene,
                        observations: store::read_jsonl(&at.join(OBSERVATIONS))?,
                        asked: store::read_jsonl(&at.join(QUESTIONS))?,
                    })
                }
            }
        })
        .collect()
}

/// Runs `agents` over `split` of the release `dir` and writes each one's
/// predictions file into `out` (`predictions-<agent>.jsonl`); `progress`
/// is told each household as it starts. Returns the files.
pub fn answer(
    dir: &Path,
    split: Split,
    agents: &mut [Box<dyn Agent>],
    out: &Path,
    progress: &mut dyn FnMut(&str, usize, usize),
) -> Result<Vec<PathBuf>, WorkflowError> {
    let (card, card_sha256) = read_release(dir, split)?;
    let households = read_split(dir, &card, split)?;
    let mut texts: Vec<String> = agents
        .iter()
        .map(|a| {
            jsonl([PredictionsHeader {
                release: card.name.clone(),
                card_sha256: card_sha256.clone(),
                split,
                hearth: VERSION.into(),
                agent: a.name(),
            }])
        })
        .collect();
    for (i, h) in households.iter().enumerate() {
        progress(&h.name, i, households.len());
        for (agent, text) in agents.iter_mut().zip(&mut texts) {
            let answered = blind::answer_blind(&h.scene, &h.observations, &h.asked, agent.as_mut());
            text.push_str(&jsonl(answered.into_iter().map(|answered| {
                PredictionLine {
                    household: h.name.clone(),
                    answered,
                }
            })));
        }
    }
    std::fs::create_dir_all(out).map_err(|source| StoreError::Write {
        path: out.into(),
        source,
    })?;
    let mut written = Vec::new();
    for (agent, text) in agents.iter().zip(texts) {
        let stem: String = agent
            .name()
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let path = out.join(format!("predictions-{stem}.jsonl"));
        store::write_atomic(&path, text.as_bytes())?;
        written.push(path);
    }
    Ok(written)
}

/// What `hearth score` scored: the release and the files.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scored {
    pub release: String,
    pub card_sha256: String,
    pub split: Split,
    pub hearth: String,
    /// Each predictions file's agent and SHA-256.
    pub predictions: Vec<(String, String)>,
}

/// Reads a key file.
pub fn read_key(path: &Path) -> Result<Key, WorkflowError> {
    let text = store::read_text(path)?;
    let key: Key = serde_json::from_str(&text).map_err(|e| WorkflowError::Record {
        path: path.into(),
        why: format!("not a release's key: {e}"),
    })?;
    check_version("the key", &key.hearth)?;
    Ok(key)
}

/// Scores `predictions` (files `hearth answer` wrote, or an agent of one's
/// own in their format) against the key at `key`: the same results as
/// `hearth eval --batch` gives the agents on the test households.
pub fn score(
    key: &Path,
    predictions: &[PathBuf],
    resamples: usize,
    bootstrap_seed: u64,
    progress: &mut dyn FnMut(Step),
) -> Result<(Scored, BatchResults), WorkflowError> {
    let k = read_key(key)?;
    let mut agents: Vec<Box<dyn Agent>> = Vec::new();
    let (mut files, mut latencies) = (Vec::new(), Vec::new());
    for p in predictions {
        let text = store::read_text(p)?;
        let mut lines = text.lines().enumerate();
        let line_err = |line: usize, message: String| StoreError::Line {
            path: p.clone(),
            line,
            message,
        };
        let header: PredictionsHeader = match lines.next() {
            Some((_, l)) => {
                serde_json::from_str(l).map_err(|e| line_err(1, format!("bad header: {e}")))?
            }
            None => {
                return Err(line_err(1, "empty file; the first line is the header".into()).into());
            }
        };
        if header.card_sha256 != k.card_sha256 || header.split != Split::Test {
            return Err(WorkflowError::OtherRelease {
                path: p.clone(),
                theirs: format!(
                    "{} ({}, {})",
                    header.release,
                    header.split.name(),
                    header.card_sha256
                ),
                ours: format!("{} (test, {})", k.release, k.card_sha256),
            });
        }
        check_version("the predictions", &header.hearth)?;
        let mut by_household: BTreeMap<String, Vec<Answered>> = BTreeMap::new();
        let mut ms = Vec::new();
        for (i, l) in lines {
            let line: PredictionLine =
                serde_json::from_str(l).map_err(|e| line_err(i + 1, e.to_string()))?;
            if line.answered.plan.is_none() {
                ms.push(std::time::Duration::from_secs_f64(
                    line.answered.ms.max(0.0) / 1e3,
                ));
            }
            by_household
                .entry(line.household)
                .or_default()
                .push(line.answered);
        }
        let households = k
            .households
            .iter()
            .map(|h| {
                (
                    h.name.clone(),
                    by_household.remove(&h.name).unwrap_or_default(),
                )
            })
            .collect();
        if let Some(stray) = by_household.keys().next() {
            return Err(line_err(
                0,
                format!("household {stray:?} is not in the release's test split"),
            )
            .into());
        }
        agents.push(Box::new(Replayed::new(&header.agent, households)));
        latencies.push(ms);
        files.push((header.agent.clone(), sha256(text.as_bytes())));
    }
    let loaded = k.households.iter().map(|h| {
        let at = PathBuf::from(format!("{}#{}", key.display(), h.name));
        let trace = store::parse_trace(&at, &h.manifest, &h.scene, &h.events)?;
        let samples = store::parse_samples(&at.join("samples.jsonl"), &h.samples)?.1;
        Ok((
            PathBuf::from(&h.name),
            Loaded {
                name: h.name.clone(),
                trace,
                samples,
                mined: None,
            },
        ))
    });
    let mut results = evaluate_loaded(
        loaded,
        &mut agents,
        None,
        &Default::default(),
        resamples,
        bootstrap_seed,
        progress,
    )?;
    // What answering cost is what the predictions recorded, not the replay's.
    for (c, ms) in results.costs.iter_mut().zip(&latencies) {
        *c = Cost::new(&c.agent, ms, None).with_correct(c.correct);
    }
    Ok((
        Scored {
            release: k.release,
            card_sha256: k.card_sha256,
            split: Split::Test,
            hearth: VERSION.into(),
            predictions: files,
        },
        results,
    ))
}

/// Writes `scored.json` (which release, which predictions) into `out`.
pub fn write_scored(out: &Path, scored: &Scored) -> Result<PathBuf, WorkflowError> {
    let path = out.join("scored.json");
    let mut json = serde_json::to_string_pretty(scored).expect("scored serializes");
    json.push('\n');
    store::write_atomic(&path, json.as_bytes())?;
    Ok(path)
}
