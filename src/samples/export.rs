//! Export of QA samples with the robot-visible history for other memory
//! tools: LoCoMo (`snap-research/LoCoMo`, `data/locomo10.json`) and
//! LongMemEval (`xiaowu0162/LongMemEval`). Field names and formats follow
//! those projects; each record also carries `hearth_*` fields that map it
//! back to the sample and the trace events.
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

use super::index::Index;
use super::model::{Family, QaSample, Query};
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
    /// 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop (5, adversarial, unused).
    pub category: u8,
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

/// The robot-perceived events before `cutoff`, grouped by session in order.
fn history<'a>(ix: &Index<'a>, cutoff: u64) -> Vec<Session<'a>> {
    let mut out: Vec<Session> = Vec::new();
    for e in ix.events.iter().take_while(|e| e.id < cutoff) {
        if !ix.robot_saw(e) {
            continue;
        }
        let id = e.session.clone().unwrap_or_else(|| format!("day{}", e.day));
        match out.last_mut() {
            Some(s) if s.id == id => s.events.push(e),
            _ => out.push(Session {
                id,
                events: vec![e],
            }),
        }
    }
    out
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

fn locomo_category(q: &QaSample) -> u8 {
    match (q.family, &q.query) {
        (Family::Temporal, _) | (Family::Commitment, Query::Due { .. }) => 2,
        (
            Family::OverwrittenState | Family::Routine | Family::Counting | Family::HiddenState,
            _,
        )
        | (Family::SourceAware, Query::SeenOrTold { .. })
        | (Family::Commitment, Query::Status { .. }) => 1,
        _ => 4,
    }
}

fn lme_type(q: &QaSample) -> &'static str {
    match q.family {
        Family::CurrentState | Family::OverwrittenState | Family::HiddenState => "knowledge-update",
        Family::Temporal | Family::Commitment => "temporal-reasoning",
        Family::Preference => "single-session-preference",
        Family::Routine | Family::Counting => "multi-session",
        Family::SourceAware => "single-session-user",
    }
}

/// LoCoMo: one sample per cutoff, holding that cutoff's questions.
pub fn locomo(ix: &Index, name: &str, samples: &[&QaSample]) -> Vec<LocomoSample> {
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
    let mut out = Vec::new();
    for (cutoff, qs) in by_cutoff {
        let sessions = history(ix, cutoff);
        let mut conversation = Map::new();
        conversation.insert(
            "speaker_a".into(),
            Json::String(humans.first().map_or("household".into(), |h| n.name(h))),
        );
        conversation.insert("speaker_b".into(), Json::String(n.name(&ix.robot)));
        let (mut event_summary, mut observation, mut session_summary) =
            (Map::new(), Map::new(), Map::new());
        let mut dia: BTreeMap<u64, String> = BTreeMap::new();
        for (i, s) in sessions.iter().enumerate() {
            let k = i + 1;
            let turns: Vec<LocomoTurn> = s
                .events
                .iter()
                .enumerate()
                .map(|(j, e)| {
                    let dia_id = format!("D{k}:{}", j + 1);
                    dia.insert(e.id, dia_id.clone());
                    let (speaker, text) = speaker_text(ix, &n, e);
                    LocomoTurn {
                        speaker,
                        dia_id,
                        text,
                        hearth_event: e.id,
                    }
                })
                .collect();
            let first = s.events[0].t;
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
                    s.events[0].day,
                    s.events.len()
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
                hearth_id: q.id.clone(),
                hearth_family: q.family,
            })
            .collect();
        out.push(LocomoSample {
            qa,
            conversation,
            event_summary,
            observation,
            session_summary,
            sample_id: format!("{name}-c{cutoff}"),
        });
    }
    out
}

/// LongMemEval: one instance per question.
pub fn longmemeval(ix: &Index, name: &str, samples: &[&QaSample]) -> Vec<LongMemEvalInstance> {
    let n = Namer::new(ix.scene);
    samples
        .iter()
        .map(|q| {
            let evidence: BTreeSet<u64> = q.evidence.iter().copied().collect();
            let sessions = history(ix, q.cutoff.event);
            let mut ids = Vec::new();
            let mut answer_ids = Vec::new();
            let mut dates = Vec::new();
            let mut haystack = Vec::new();
            for s in &sessions {
                let has = s.events.iter().any(|e| evidence.contains(&e.id));
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
                    s.events
                        .iter()
                        .map(|e| {
                            let (speaker, text) = speaker_text(ix, &n, e);
                            let (role, content) = if e.actor == ix.robot && speaker != "observation"
                            {
                                ("assistant", text)
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
            LongMemEvalInstance {
                question_id: format!("{name}-{}", q.id),
                question_type: lme_type(q).into(),
                question: q.question.clone(),
                answer: q.answer_text.clone(),
                question_date: lme_date(q.cutoff.t),
                haystack_session_ids: ids,
                haystack_dates: dates,
                haystack_sessions: haystack,
                answer_session_ids: answer_ids,
                hearth_family: q.family,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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
