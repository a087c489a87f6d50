//! Export of QA samples with the robot-visible history for other memory
//! tools: LoCoMo (`snap-research/LoCoMo`, `data/locomo10.json`) and
//! LongMemEval (`xiaowu0162/LongMemEval`). Field names and formats follow
//! those projects; each record also carries `hearth_*` fields that map it
//! back to the sample and the trace events. The answer is the sample's
//! canonical short answer; questions whose answer is not known (the
//! unanswerable family, and household questions the robot missed) are LoCoMo
//! category 5 (with `adversarial_answer`) and LongMemEval abstention
//! questions (their ids end in `_abs`).
//!
//! The history is what the robot perceived before each sample's cutoff,
//! grouped by session: utterances it heard in the speaker's words, actions
//! it saw narrated, what it saw revealed. Day 1 of a trace is dated Monday
//! 1 June 2026.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json};

use crate::ids::Id;
use crate::trace::Event;

use super::families;
use super::index::Index;
use super::model::{Answer, Family, QaSample};
use super::narrate::narrate;
use super::text::Namer;

/// One LoCoMo sample: the conversation up to a cutoff and its questions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LocomoSample {
    pub qa: Vec<LocomoQa>,
    /// `speaker_a`, `speaker_b`, `session_N` (turns), `session_N_date_time`.
    pub conversation: Map<String, Json>,
    pub event_summary: Map<String, Json>,
    pub observation: Map<String, Json>,
    pub session_summary: Map<String, Json>,
    pub sample_id: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LocomoTurn {
    pub speaker: String,
    /// `D<session>:<turn>`, both from 1.
    pub dia_id: String,
    pub text: String,
    pub hearth_event: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LocomoQa {
    pub question: String,
    pub answer: String,
    pub evidence: Vec<String>,
    /// LoCoMo's scorer's numbers: 1 multi-hop, 2 temporal, 3 open-domain
    /// (unused), 4 single-hop, 5 adversarial (answer not known: the
    /// unanswerable family, and household questions the robot missed).
    pub category: u8,
    /// For category 5, the wrong answer a confused memory would give.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adversarial_answer: Option<String>,
    pub hearth_id: String,
    pub hearth_family: Family,
}

/// One LongMemEval instance: one question with its haystack.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LongMemEvalInstance {
    pub question_id: String,
    pub question_type: String,
    pub question: String,
    pub answer: String,
    /// `YYYY/MM/DD (Day) HH:MM`.
    pub question_date: String,
    pub haystack_session_ids: Vec<String>,
    pub haystack_dates: Vec<String>,
    pub haystack_sessions: Vec<Vec<LongMemEvalTurn>>,
    /// Sessions holding evidence; their ids start with `answer_`, as the
    /// LongMemEval tools expect.
    pub answer_session_ids: Vec<String>,
    pub hearth_family: Family,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LongMemEvalTurn {
    /// `assistant` for the robot's own utterances, `user` for everything
    /// else (what household members said, prefixed with their name, and
    /// what the robot saw, in brackets).
    pub role: String,
    pub content: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub has_answer: Option<bool>,
    pub hearth_event: u64,
}

/// A session of robot-perceived events.
struct Session<'a> {
    id: String,
    events: Vec<&'a Event>,
}

/// The robot's whole perceived history, grouped by session in order, each
/// event narrated once: an export cuts it at each cutoff instead of
/// grouping and narrating the past again for every question.
struct History<'a> {
    sessions: Vec<Session<'a>>,
    /// (speaker, text) of each event, by session and position.
    said: Vec<Vec<(String, String)>>,
}

impl<'a> History<'a> {
    fn new(ix: &Index<'a>, n: &Namer) -> Self {
        let mut sessions: Vec<Session> = Vec::new();
        for e in ix.events.iter().filter(|e| ix.robot_saw(e)) {
            let id = e.session.clone().unwrap_or_else(|| format!("day{}", e.day));
            match sessions.last_mut() {
                Some(s) if s.id == id => s.events.push(e),
                _ => sessions.push(Session {
                    id,
                    events: vec![e],
                }),
            }
        }
        let said = sessions
            .iter()
            .map(|s| s.events.iter().map(|e| speaker_text(ix, n, e)).collect())
            .collect();
        History { sessions, said }
    }

    /// How many sessions begin before `cutoff` (the last of them is cut at
    /// it).
    fn before(&self, cutoff: u64) -> usize {
        self.sessions.partition_point(|s| s.events[0].id < cutoff)
    }

    /// How many events of session `si` come before `cutoff`.
    fn cut(&self, si: usize, cutoff: u64) -> usize {
        self.sessions[si].events.partition_point(|e| e.id < cutoff)
    }

    /// The sessions (sorted, among the `past` before `cutoff`) holding an
    /// `evidence` event before it, found by lookup: not every past event
    /// searched for every question.
    fn holding(&self, past: usize, cutoff: u64, evidence: &BTreeSet<u64>) -> Vec<usize> {
        evidence
            .iter()
            .filter_map(|&id| {
                let si = self.sessions[..past]
                    .partition_point(|s| s.events[0].id <= id)
                    .checked_sub(1)?;
                let events = &self.sessions[si].events[..self.cut(si, cutoff)];
                events.binary_search_by_key(&id, |e| e.id).ok().map(|_| si)
            })
            .collect::<BTreeSet<usize>>()
            .into_iter()
            .collect()
    }

    /// The sessions (in order) of a record before `cutoff` of at most
    /// `budget` turns beyond the `holding` sessions, which it always keeps:
    /// then the latest session and the neighbours of the holding ones, then
    /// distractors drawn with a stream of the record's own. A bounded
    /// number of draws, so it costs what it keeps, not the past.
    fn within_turns(
        &self,
        cutoff: u64,
        holding: &[usize],
        budget: usize,
        seed: u64,
        record: &str,
    ) -> Vec<usize> {
        use rand::{Rng, SeedableRng};
        let past = self.before(cutoff);
        let turns = |si: usize| self.cut(si, cutoff);
        // Everything, if it fits: counted from the end, and no further than
        // the budget, so a long past costs no more than a short one.
        let mut all = 0;
        if (0..past).rev().all(|si| {
            all += turns(si);
            all <= budget
        }) {
            return (0..past).collect();
        }
        let mut kept: BTreeSet<usize> = holding.iter().copied().collect();
        let mut used: usize = holding.iter().map(|&si| turns(si)).sum();
        let mut offer = |si: usize| {
            if si < past && !kept.contains(&si) && used + turns(si) <= budget {
                used += turns(si);
                kept.insert(si);
            }
        };
        let near = holding
            .iter()
            .flat_map(|&i| [i.checked_sub(1), Some(i + 1)])
            .flatten();
        past.checked_sub(1)
            .into_iter()
            .chain(near)
            .for_each(&mut offer);
        if past > 0 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ fnv(record));
            for _ in 0..4 * Haystack::S_SESSIONS {
                offer(rng.random_range(0..past));
            }
        }
        kept.into_iter().collect()
    }

    /// The sessions a record before `cutoff` holds, in order: all of them,
    /// or at most `size`'s count around the evidence (see [`pick`]).
    fn chosen(
        &self,
        cutoff: u64,
        holding: &[usize],
        size: Haystack,
        seed: u64,
        record: &str,
    ) -> Vec<usize> {
        let past = self.before(cutoff);
        match size.sessions() {
            None => (0..past).collect(),
            Some(k) => pick(past, holding, k, seed, record),
        }
    }
}

/// Year, month, day and weekday (0 = Monday) of trace day `day`, with day 1
/// on Monday 1 June 2026.
fn date(day: u32) -> (u32, u32, u32, usize) {
    const MONTHS: [u32; 12] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    let (mut y, mut m, mut d) = (2026u32, 6u32, 1 + day.saturating_sub(1));
    loop {
        let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
        let len = MONTHS[m as usize - 1] + u32::from(m == 2 && leap);
        if d <= len {
            break;
        }
        d -= len;
        m += 1;
        if m > 12 {
            m = 1;
            y += 1;
        }
    }
    (y, m, d, (day.saturating_sub(1) % 7) as usize)
}

const MONTH_NAMES: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const WEEKDAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/// LoCoMo's `1:56 pm on 8 May, 2023`.
fn locomo_date(t: u64) -> String {
    let (y, m, d, _) = date(crate::trace::day_of(t));
    let (h, min) = (t % 86_400 / 3600, t % 3600 / 60);
    let (h12, ampm) = match h {
        0 => (12, "am"),
        1..=11 => (h, "am"),
        12 => (12, "pm"),
        _ => (h - 12, "pm"),
    };
    format!(
        "{h12}:{min:02} {ampm} on {d} {}, {y}",
        MONTH_NAMES[m as usize - 1]
    )
}

/// LongMemEval's `2023/05/30 (Tue) 23:40`.
fn lme_date(t: u64) -> String {
    let (y, m, d, wd) = date(crate::trace::day_of(t));
    format!(
        "{y}/{m:02}/{d:02} ({}) {:02}:{:02}",
        WEEKDAYS[wd],
        t % 86_400 / 3600,
        t % 3600 / 60
    )
}

/// What the exported turn says, and who says it.
fn speaker_text(ix: &Index, n: &Namer, e: &Event) -> (String, String) {
    let said = matches!(e.action, crate::trace::request::Action::Say { .. }) && e.outcome.is_ok();
    if said {
        (n.name(&e.actor), narrate(n, e, &ix.robot))
    } else {
        ("observation".into(), narrate(n, e, &ix.robot))
    }
}

/// LoCoMo's category of `q`: adversarial (5) when its answer is not
/// known (unanswerable, or asked of the household about what the robot
/// missed), else its family's.
fn locomo_category(q: &QaSample) -> u8 {
    if q.answer == Answer::Unknown {
        return 5;
    }
    families::of(q.family).locomo_category_of(&q.query)
}

fn lme_type(q: &QaSample) -> &'static str {
    families::of(q.family).lme_type_of(&q.query)
}

/// LoCoMo: one sample per cutoff, holding that cutoff's questions and
/// every session before it.
pub fn locomo(ix: &Index, name: &str, samples: &[&QaSample]) -> Vec<LocomoSample> {
    locomo_records(ix, name, samples, Haystack::Full, 0).collect()
}

/// [`locomo`]'s samples one at a time, to be written as they come, each
/// conversation holding the sessions of `size` (its evidence sessions and
/// the latest kept, distractors drawn with `seed`).
pub fn locomo_records<'a>(
    ix: &'a Index<'a>,
    name: &'a str,
    samples: &[&'a QaSample],
    size: Haystack,
    seed: u64,
) -> impl Iterator<Item = LocomoSample> + 'a {
    let n = Namer::new(ix.scene);
    let mut by_cutoff: BTreeMap<u64, Vec<&QaSample>> = BTreeMap::new();
    for q in samples {
        by_cutoff.entry(q.cutoff.event).or_default().push(q);
    }
    let humans: Vec<&Id> = ix
        .scene
        .actors
        .iter()
        .filter(|a| a.kind == crate::scene::ActorKind::Human)
        .map(|a| &a.id)
        .collect();
    let history = History::new(ix, &n);
    by_cutoff.into_iter().map(move |(cutoff, qs)| {
        let mut conversation = Map::new();
        conversation.insert(
            "speaker_a".into(),
            Json::String(humans.first().map_or("household".into(), |h| n.name(h))),
        );
        conversation.insert("speaker_b".into(), Json::String(n.name(&ix.robot)));
        let (mut event_summary, mut observation, mut session_summary) =
            (Map::new(), Map::new(), Map::new());
        let mut dia: BTreeMap<u64, String> = BTreeMap::new();
        let sample_id = format!("{name}-c{cutoff}");
        let past = history.before(cutoff);
        let holding: Vec<usize> = match size {
            // Each question's latest evidence sessions: a routine's
            // evidence is every day of it, which grows with the horizon.
            Haystack::S => qs
                .iter()
                .flat_map(|q| {
                    let own = history.holding(past, cutoff, &q.evidence.iter().copied().collect());
                    let from = own.len().saturating_sub(Haystack::LOCOMO_S_EVIDENCE);
                    own[from..].to_vec()
                })
                .collect::<BTreeSet<usize>>()
                .into_iter()
                .collect(),
            _ => {
                let evidence = qs.iter().flat_map(|q| q.evidence.iter().copied()).collect();
                history.holding(past, cutoff, &evidence)
            }
        };
        let chosen = match size {
            Haystack::S => {
                history.within_turns(cutoff, &holding, Haystack::LOCOMO_S_TURNS, seed, &sample_id)
            }
            _ => history.chosen(cutoff, &holding, size, seed, &sample_id),
        };
        for (i, si) in chosen.into_iter().enumerate() {
            let (k, len) = (i + 1, history.cut(si, cutoff));
            let s = &history.sessions[si];
            let events = &s.events[..len];
            let turns: Vec<LocomoTurn> = events
                .iter()
                .zip(&history.said[si])
                .enumerate()
                .map(|(j, (e, (speaker, text)))| {
                    let dia_id = format!("D{k}:{}", j + 1);
                    dia.insert(e.id, dia_id.clone());
                    LocomoTurn {
                        speaker: speaker.clone(),
                        dia_id,
                        text: text.clone(),
                        hearth_event: e.id,
                    }
                })
                .collect();
            let first = events[0].t;
            conversation.insert(
                format!("session_{k}_date_time"),
                Json::String(locomo_date(first)),
            );
            conversation.insert(
                format!("session_{k}"),
                serde_json::to_value(&turns).expect("turns serialize"),
            );
            let (y, m, d, _) = date(crate::trace::day_of(first));
            event_summary.insert(
                format!("events_session_{k}"),
                serde_json::json!({ "date": format!("{d} {}, {y}", MONTH_NAMES[m as usize - 1]) }),
            );
            observation.insert(format!("session_{k}_observation"), Json::Object(Map::new()));
            session_summary.insert(
                format!("session_{k}_summary"),
                Json::String(format!(
                    "Session {} on day {}: {} events the robot perceived.",
                    s.id,
                    events[0].day,
                    events.len()
                )),
            );
        }
        let qa = qs
            .iter()
            .map(|q| LocomoQa {
                question: q.question.clone(),
                answer: q.answer_text.clone(),
                evidence: q
                    .evidence
                    .iter()
                    .filter_map(|e| dia.get(e).cloned())
                    .collect(),
                category: locomo_category(q),
                adversarial_answer: q.adversarial_answer.clone(),
                hearth_id: q.id.clone(),
                hearth_family: q.family,
            })
            .collect();
        LocomoSample {
            qa,
            conversation,
            event_summary,
            observation,
            session_summary,
            sample_id,
        }
    })
}

/// How much of the past a record holds (a LongMemEval instance's haystack,
/// a LoCoMo sample's conversation). `S` and `M` hold at most a fixed number
/// of sessions, so an export grows with the number of questions, linearly
/// in the days; `Full` repeats the whole past in every record, so it grows
/// with the square of the days.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Haystack {
    /// Like LongMemEval-S: the evidence sessions and distractors around
    /// them, [`Haystack::S_SESSIONS`] sessions in all (the default).
    #[default]
    S,
    /// Like LongMemEval-M: [`Haystack::M_SESSIONS`] sessions.
    M,
    /// Every session before the cutoff.
    Full,
}

impl Haystack {
    pub const S_SESSIONS: usize = 45;
    /// What `S` means for a LoCoMo conversation: at most this many turns
    /// (LoCoMo's own average about 300 over up to 35 sessions: Maharana et
    /// al. 2024; hearth's narrate the robot's observations as turns too)
    /// beyond its questions' evidence sessions, which are always kept.
    /// Small enough that a week's conversations fill it too, so that a
    /// month's export is at most five times a week's.
    pub const LOCOMO_S_TURNS: usize = 400;
    /// The most evidence sessions of one question a LoCoMo conversation of
    /// size `S` keeps (its latest): a routine asked after four weeks has
    /// every day of them as evidence, and a week of it shows the habit.
    pub const LOCOMO_S_EVIDENCE: usize = 7;
    pub const M_SESSIONS: usize = 500;

    /// The most sessions a haystack holds (`None`: all of them).
    pub fn sessions(self) -> Option<usize> {
        match self {
            Haystack::S => Some(Self::S_SESSIONS),
            Haystack::M => Some(Self::M_SESSIONS),
            Haystack::Full => None,
        }
    }
}

/// The sessions (indexes among the `past` sessions before the cutoff, in
/// order) of a haystack of at most `size`: every evidence session
/// (`holding`, sorted), the sessions next to each of them and the latest
/// one before the cutoff, then distractors drawn from the rest with a
/// stream of the question's own (same question, same haystack). It costs
/// what it keeps, not the length of the past.
fn pick(past: usize, holding: &[usize], size: usize, seed: u64, question: &str) -> Vec<usize> {
    use rand::SeedableRng;
    if past <= size {
        return (0..past).collect();
    }
    let mut kept: BTreeSet<usize> = holding.iter().copied().collect();
    let near: Vec<usize> = holding
        .iter()
        .flat_map(|&i| [i.checked_sub(1), Some(i + 1)])
        .flatten()
        .chain([past - 1])
        .filter(|i| *i < past)
        .collect();
    for i in near {
        if kept.len() >= size {
            break;
        }
        kept.insert(i);
    }
    let rest = past - kept.len();
    let want = size.saturating_sub(kept.len()).min(rest);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ fnv(question));
    let skip: Vec<usize> = kept.iter().copied().collect();
    // The `i`-th session not kept, counting past the kept ones below it.
    let unkept = |i: usize| skip.iter().fold(i, |x, &k| if k <= x { x + 1 } else { x });
    kept.extend(
        rand::seq::index::sample(&mut rng, rest, want)
            .into_iter()
            .map(unkept),
    );
    kept.into_iter().collect()
}

/// A stream per record, whatever else is exported.
fn fnv(id: &str) -> u64 {
    crate::ids::fnv1a(id.as_bytes())
}

/// LongMemEval: one instance per question.
/// A trace's name as LongMemEval's ids carry it: its retrieval takes any
/// session id holding `answer` for evidence and any question id holding
/// `_abs` for an abstention, so a trace named so would be misread whole.
pub fn lme_name(name: &str) -> String {
    name.replace("answer", "ans-wer").replace("_abs", "-abs")
}

pub fn longmemeval(ix: &Index, name: &str, samples: &[&QaSample]) -> Vec<LongMemEvalInstance> {
    longmemeval_records(ix, name, samples, Haystack::Full, 0).collect()
}

/// [`longmemeval`]'s instances one at a time, to be written as they come,
/// with haystacks of the `size` chosen (distractors drawn with `seed`).
pub fn longmemeval_records<'a>(
    ix: &'a Index<'a>,
    name: &'a str,
    samples: &[&'a QaSample],
    size: Haystack,
    seed: u64,
) -> impl Iterator<Item = LongMemEvalInstance> + 'a {
    let n = Namer::new(ix.scene);
    let history = History::new(ix, &n);
    let name = lme_name(name);
    // The iterator outlives the borrow of the slice (not of the samples).
    #[allow(clippy::unnecessary_to_owned)]
    samples.to_vec().into_iter().map(move |q| {
        let evidence: BTreeSet<u64> = q.evidence.iter().copied().collect();
        // Sessions before the cutoff: whole but for the last, cut at it.
        let len = |si: usize| history.cut(si, q.cutoff.event);
        let holding = history.holding(history.before(q.cutoff.event), q.cutoff.event, &evidence);
        let chosen = history.chosen(q.cutoff.event, &holding, size, seed, &q.id);
        let mut ids = Vec::new();
        let mut answer_ids = Vec::new();
        let mut dates = Vec::new();
        let mut haystack = Vec::new();
        for si in chosen {
            let (len, has) = (len(si), holding.binary_search(&si).is_ok());
            let s = &history.sessions[si];
            let id = if has {
                format!("answer_{name}_{}", s.id)
            } else {
                format!("{name}_{}", s.id)
            };
            if has {
                answer_ids.push(id.clone());
            }
            ids.push(id);
            dates.push(lme_date(s.events[0].t));
            haystack.push(
                s.events[..len]
                    .iter()
                    .zip(&history.said[si])
                    .map(|(e, (speaker, text))| {
                        let (role, content) = if e.actor == ix.robot && speaker != "observation" {
                            ("assistant", text.clone())
                        } else if speaker == "observation" {
                            ("user", format!("[{text}]"))
                        } else {
                            ("user", format!("{speaker}: {text}"))
                        };
                        LongMemEvalTurn {
                            role: role.into(),
                            content,
                            has_answer: has.then(|| evidence.contains(&e.id)),
                            hearth_event: e.id,
                        }
                    })
                    .collect(),
            );
        }
        // LongMemEval's retrieval looks for a single-session-user target
        // among the user's turns: evidence only in the robot's own words
        // is the assistant's.
        let targets: Vec<&LongMemEvalTurn> = haystack
            .iter()
            .flat_map(|s: &Vec<LongMemEvalTurn>| s.iter())
            .filter(|t| t.has_answer == Some(true))
            .collect();
        let question_type = match lme_type(q) {
            "single-session-user"
                if !targets.is_empty() && targets.iter().all(|t| t.role == "assistant") =>
            {
                "single-session-assistant"
            }
            t => t,
        };
        LongMemEvalInstance {
            question_id: format!("{name}-{}", q.id),
            question_type: question_type.into(),
            question: q.question.clone(),
            // For an abstention question LongMemEval's judge reads the
            // answer as the explanation of why it cannot be answered.
            answer: match (&q.answer, &q.hedge) {
                (Answer::Unknown, Some(why)) => format!("{} {why}", q.answer_text),
                _ => q.answer_text.clone(),
            },
            question_date: lme_date(q.cutoff.t),
            haystack_session_ids: ids,
            haystack_dates: dates,
            haystack_sessions: haystack,
            answer_session_ids: answer_ids,
            hearth_family: q.family,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trace_name_never_reads_as_evidence_or_abstention_to_longmemeval() {
        assert_eq!(lme_name("family_apartment-s0"), "family_apartment-s0");
        let odd = lme_name("answer_probe_abs");
        assert!(!odd.contains("answer") && !odd.contains("_abs"), "{odd}");
        assert_eq!(
            crate::eval::predictions::question_id("answer_probe_abs", "q0001"),
            format!("{odd}-q0001")
        );
    }

    #[test]
    fn dates_follow_the_calendar() {
        assert_eq!(date(1), (2026, 6, 1, 0));
        assert_eq!(date(30), (2026, 6, 30, 1));
        assert_eq!(date(31), (2026, 7, 1, 2));
        assert_eq!(date(215), (2027, 1, 1, 4));
        assert_eq!(locomo_date(13 * 3600 + 56 * 60), "1:56 pm on 1 June, 2026");
        assert_eq!(locomo_date(86_400 + 5 * 60), "12:05 am on 2 June, 2026");
        assert_eq!(
            lme_date(86_400 * 2 + 23 * 3600 + 40 * 60),
            "2026/06/03 (Wed) 23:40"
        );
    }
}
