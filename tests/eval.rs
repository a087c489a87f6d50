//! Evaluation: the oracle answers everything and plans succeed (so the
//! samples are answerable), `none` stays near chance, ObsMem beats flat
//! memories where typed memory matters, agents on a hand-built trace, the
//! external protocol with the example agent and broken agents, and plans
//! scored by execution.

mod common;

use std::collections::BTreeMap;
use std::time::Duration;

use common::hand_built::*;
use common::*;
use hearth::eval::agents::{BuiltIn, Strategy};
use hearth::eval::blind;
use hearth::eval::external::External;
use hearth::eval::words::WordsOnly;
use hearth::eval::*;
use hearth::ids::Id;
use hearth::samples::{self, Answer, Family, Index, Sample};
use hearth::scene::Scene;
use hearth::trace::Event;
use hearth::trace::request::{Action, Request};

fn run(name: &str, scene: &Scene, events: &[Event], samples: &[Sample]) -> Report {
    let ix = Index::new(scene, events);
    let mut agent: Box<dyn Agent> = match WordsOnly::named(name) {
        Some(w) => Box::new(w),
        None => Box::new(BuiltIn::new(Strategy::parse(name).unwrap())),
    };
    let (qa, plans) = evaluate(&ix, samples, agent.as_mut());
    Report::new(name.into(), vec![], qa, plans)
}

#[test]
fn the_words_only_baseline_reads_some_questions_right_not_all() {
    let (mut exact, mut parsed, mut n) = (0.0, 0.0, 0.0);
    for seed in 0..3 {
        let (scene, events) = generated("family_apartment", seed, 3);
        let samples = samples::mine(&scene, &events, seed);
        let words = run("bm25-words", &scene, &events, &samples);
        let bm25 = run("bm25", &scene, &events, &samples);
        assert_eq!(words.errors, 0);
        // Same retrieval: the evidence scores match the parsed-query row.
        assert_eq!(words.qa.event_r5, bm25.qa.event_r5);
        exact += words.qa.calibrated * words.qa.n as f64;
        parsed += bm25.qa.calibrated * bm25.qa.n as f64;
        n += words.qa.n as f64;
        assert!(words.plan.n > 0);
    }
    let (exact, parsed) = (exact / n, parsed / n);
    assert!(exact > 0.3 && exact < 0.9, "bm25-words scores {exact}");
    // Reading costs: never better than being handed the query.
    assert!(exact <= parsed, "bm25-words {exact} vs bm25 {parsed}");
}

#[test]
fn every_memory_behind_the_one_reader_differs_only_in_its_memory() {
    let rows = ["oracle", "obsmem", "kg", "recent", "bm25"];
    let mut exact = std::collections::BTreeMap::<String, f64>::new();
    let mut n = 0.0;
    for seed in 0..3 {
        let (scene, events) = generated("family_apartment", seed, 3);
        let samples = samples::mine(&scene, &events, seed);
        for base in rows {
            for name in [base.to_string(), format!("{base}-words")] {
                let r = run(&name, &scene, &events, &samples);
                assert_eq!((r.agent.as_str(), r.errors), (name.as_str(), 0));
                *exact.entry(name).or_default() += r.qa.calibrated * r.qa.n as f64;
            }
        }
        n += samples
            .iter()
            .filter(|s| matches!(s, Sample::Qa(_)))
            .count() as f64;
    }
    let e = |name: &str| exact[name] / n;
    for base in rows {
        let (words, parsed) = (e(&format!("{base}-words")), e(base));
        // Reading costs: no memory does better read than handed the query.
        assert!(
            words <= parsed + 1e-9,
            "{base}-words {words} vs {base} {parsed}"
        );
    }
    // The reader's ceiling: a perfect memory behind it misreads some.
    let ceiling = e("oracle-words");
    assert!(ceiling > 0.4 && ceiling < 0.95, "oracle-words {ceiling}");
    // ObsMem is exact on any query it is given, so behind the same reader
    // it scores as the oracle does.
    assert!((e("obsmem-words") - ceiling).abs() < 0.02, "{exact:?}");
    // And the weaker memories stay below the ceiling.
    for base in ["kg", "recent", "bm25"] {
        assert!(e(&format!("{base}-words")) < ceiling, "{exact:?}");
    }
}

#[test]
fn the_oracle_answers_everything_and_none_stays_near_chance() {
    for (scene_id, seed) in [
        ("family_apartment", 0),
        ("family_apartment", 5),
        ("large_house", 1),
        ("studio", 2),
    ] {
        let (scene, events) = generated(scene_id, seed, 3);
        let samples = samples::mine(&scene, &events, seed);
        let oracle = run("oracle", &scene, &events, &samples);
        assert_eq!(oracle.errors, 0);
        for (f, s) in &oracle.by_family {
            assert_eq!(
                s.calibrated,
                1.0,
                "{scene_id} {seed}: oracle on {}",
                f.name()
            );
            // Retrieval is scored on questions with an answer (LongMemEval
            // leaves abstentions out): a family asked only as false
            // premises has none.
            let answerable = samples.iter().any(|x| match x {
                samples::Sample::Qa(q) => q.family == *f && !q.id.ends_with("_abs"),
                _ => false,
            });
            if !answerable {
                continue;
            }
            assert_eq!(
                s.event_r5,
                1.0,
                "{scene_id} {seed}: oracle R@5 on {}",
                f.name()
            );
            assert_eq!(s.session_any5, 1.0, "{scene_id} {seed}: {}", f.name());
        }
        // World accuracy: right exactly where the robot's knowledge was the
        // truth (wrong on the possibly changed states that did change, and
        // on what it missed); no mark on questions about its own knowledge.
        let qa: BTreeMap<&str, &samples::QaSample> = samples
            .iter()
            .filter_map(|s| match s {
                Sample::Qa(q) => Some((q.id.as_str(), q)),
                Sample::Plan(_) => None,
            })
            .collect();
        for r in &oracle.questions {
            let q = qa[r.id.as_str()];
            let expected = match q.family {
                Family::SourceAware => None,
                _ => Some(q.world.is_none()),
            };
            assert_eq!(r.world, expected, "{scene_id} {seed}: {}", q.id);
        }
        assert!(
            oracle.qa.world.is_some_and(|w| w > 0.5),
            "{scene_id} {seed}"
        );
        assert!(oracle.plan.n > 0, "{scene_id}: no planning tasks");
        assert_eq!(
            oracle.plan.success,
            1.0,
            "{scene_id} {seed}: {:?}",
            oracle.tasks.iter().find(|t| !t.success)
        );
        let none = run("none", &scene, &events, &samples);
        // Without memory only abstaining is right: on every question whose
        // answer is not known (unanswerable ones, and what the robot
        // missed) and nowhere else (but for chance on two-way choices);
        // abstaining, it never hallucinates.
        // False premises are filed under the families they look like.
        assert!(!oracle.by_family.contains_key(&Family::Unanswerable));
        assert!(qa.values().any(|q| q.is_unanswerable()));
        let mut lucky = 0;
        for r in &none.questions {
            let q = qa[r.id.as_str()];
            if q.options.is_empty() {
                assert_eq!(r.calibrated, q.answer == Answer::Unknown, "{}", q.id);
            } else {
                lucky += usize::from(r.calibrated);
            }
            assert_ne!(r.hallucinated, Some(true), "{}", q.id);
        }
        assert!(lucky * 4 < none.questions.len(), "{lucky} lucky guesses");
        assert_eq!(none.qa.hallucination, Some(0.0));
        assert_eq!(oracle.qa.hallucination, Some(0.0), "{scene_id} {seed}");

        // Without memory only tasks that state what to do can succeed.
        for t in none.tasks.iter().filter(|t| t.success) {
            let role = samples.iter().find_map(|s| match s {
                Sample::Plan(p) if p.id == t.id => p.pair.as_ref().map(|x| x.role),
                _ => None,
            });
            assert_eq!(
                role,
                Some(hearth::samples::PairRole::Acquisition),
                "{}",
                t.id
            );
        }
    }
}

#[test]
fn obsmem_beats_flat_memories_on_typed_questions_over_ten_seeds() {
    let families = [
        Family::OverwrittenState,
        Family::HiddenState,
        Family::SourceAware,
    ];
    let mut totals: BTreeMap<(&str, Family), (usize, f64)> = BTreeMap::new();
    for seed in 0..10 {
        let (scene, events) = generated("family_apartment", seed, 3);
        let samples = samples::mine(&scene, &events, seed);
        for agent in ["obsmem", "bm25", "recent"] {
            let r = run(agent, &scene, &events, &samples);
            // Three days of a household need not ask every family.
            for f in families {
                let Some(s) = r.by_family.get(&f) else {
                    continue;
                };
                let t = totals.entry((agent, f)).or_default();
                t.0 += s.n;
                t.1 += s.calibrated * s.n as f64;
            }
        }
    }
    for f in families {
        let acc = |a| {
            let (n, x) = totals[&(a, f)];
            x / n as f64
        };
        assert!(
            acc("obsmem") > acc("bm25"),
            "{}: obsmem {} bm25 {}",
            f.name(),
            acc("obsmem"),
            acc("bm25")
        );
        assert!(
            acc("obsmem") > acc("recent"),
            "{}: obsmem {} recent {}",
            f.name(),
            acc("obsmem"),
            acc("recent")
        );
    }
}

#[test]
fn agents_on_a_hand_built_trace() {
    let (_t, trace) = hand_built();
    let ev = &trace.events;
    let ix = Index::new(&trace.scene, ev);
    let s6 = at_session(ev, "s6");
    let q = |query| QuestionIn {
        id: "q".into(),
        question: "Where is the clear glass tumbler with a green rim?".into(),
        options: vec![],
        query: Some(query),
        cutoff: s6.clone(),
    };
    let cup = samples::Query::State {
        entity: Id::new("cup_2"),
        attr: Id::new("location"),
    };
    let opened = find(ev, "robot", "open", |_| true);
    let ask = |agent: &mut dyn Agent| {
        agent.reset(&trace.scene).unwrap();
        for o in observations(&ix, 1, s6.event) {
            agent.observe(&o).unwrap();
        }
        agent.answer(&q(cup.clone())).unwrap()
    };
    let in_cabinet = samples::Answer::Value {
        value: hearth::trace::Value::Location(hearth::trace::Location::In(Id::new("cabinet_1"))),
    };
    for name in ["oracle", "obsmem", "recent", "kg"] {
        let r = ask(&mut BuiltIn::new(Strategy::parse(name).unwrap()));
        // Scored as the reference: the value, whatever the staleness flag.
        assert!(
            r.answer
                .as_ref()
                .is_some_and(|a| same_answer(a, &in_cabinet)),
            "{name}: {r:?}"
        );
        assert_eq!(r.evidence, vec![opened], "{name}");
    }
    // A memory of the last two events has lost where the sunglasses went.
    let glasses = samples::Query::State {
        entity: Id::new("glasses_2"),
        attr: Id::new("location"),
    };
    let recall = |agent: &mut dyn Agent| {
        agent.reset(&trace.scene).unwrap();
        for o in observations(&ix, 1, s6.event) {
            agent.observe(&o).unwrap();
        }
        agent.answer(&q(glasses.clone())).unwrap().answer
    };
    // It says so, in the canonical abstention.
    assert_eq!(
        recall(&mut BuiltIn::new(Strategy::Recent(2))),
        Some(samples::Answer::Unknown)
    );
    let on_desk = samples::Answer::Value {
        value: hearth::trace::Value::Location(hearth::trace::Location::On(Id::new("desk_study"))),
    };
    assert!(recall(&mut BuiltIn::new(Strategy::Oracle)).is_some_and(|a| same_answer(&a, &on_desk)));
    // No memory, no answer: an abstention.
    let r = ask(&mut BuiltIn::new(Strategy::None));
    assert_eq!(r.answer, Some(samples::Answer::Unknown));
    assert_eq!(r.text, samples::UNKNOWN_TEXT);
    // BM25 ranks what it retrieved; the words pick the events about the glass.
    let r = ask(&mut BuiltIn::new(Strategy::Bm25));
    assert!(r.evidence.len() <= 5 && !r.evidence.is_empty());
    // A built-in without the parsed query refuses rather than guesses.
    let mut oracle = BuiltIn::new(Strategy::Oracle);
    oracle.reset(&trace.scene).unwrap();
    let words_only = QuestionIn {
        query: None,
        ..q(cup.clone())
    };
    assert!(oracle.answer(&words_only).is_err());
    // The words-only agent reads the words: the same reply whatever query
    // rides along (its reader has no place for one), and the right place.
    let mut words = WordsOnly::default();
    words.reset(&trace.scene).unwrap();
    for o in observations(&ix, 1, s6.event) {
        words.observe(&o).unwrap();
    }
    assert!(!words.parsed_query());
    let plain = words.answer(&words_only).unwrap();
    assert_eq!(words.answer(&q(glasses.clone())).unwrap(), plain);
    assert!(
        plain
            .answer
            .as_ref()
            .is_some_and(|a| same_answer(a, &in_cabinet)),
        "{plain:?}"
    );
}

/// Plans with invalid steps, missing steps, and the reference.
struct Fixed(Vec<Request>);

impl Agent for Fixed {
    fn name(&self) -> String {
        "fixed".into()
    }
    fn reset(&mut self, _: &Scene) -> Result<(), AgentError> {
        Ok(())
    }
    fn observe(&mut self, _: &Observation) -> Result<(), AgentError> {
        Ok(())
    }
    fn answer(&mut self, _: &QuestionIn) -> Result<Reply, AgentError> {
        Ok(Reply::default())
    }
    fn plan(&mut self, _: &TaskIn) -> Result<Vec<Request>, AgentError> {
        Ok(self.0.clone())
    }
}

#[test]
fn plans_are_scored_by_execution() {
    let (scene, events) = generated("family_apartment", 0, 2);
    let ix = Index::new(&scene, &events);
    let all = samples::mine(&scene, &events, 0);
    let task = all
        .iter()
        .find_map(|s| match s {
            Sample::Plan(p) if p.reference_plan.len() >= 2 => Some(p.clone()),
            _ => None,
        })
        .expect("a planning task");
    let only = [Sample::Plan(task.clone())];
    let score = |plan: Vec<Request>| evaluate(&ix, &only, &mut Fixed(plan)).1.remove(0);
    // The reference plan: every step valid, every goal reached.
    let r = score(task.reference_plan.clone());
    assert!(r.success && r.validity == 1.0 && r.complete == 1.0, "{r:?}");
    assert_eq!(r.steps, task.reference_plan.len());
    // An impossible step in front costs validity, not success.
    let mut bad = vec![Request::new(
        "robot",
        Action::Pick {
            object: Id::new("no_such_thing"),
        },
    )];
    bad.extend(task.reference_plan.clone());
    let r = score(bad);
    assert!(r.success, "{r:?}");
    assert!((r.validity - (r.steps - 1) as f64 / r.steps as f64).abs() < 1e-9);
    // Half a plan: valid steps, goal not reached.
    let r = score(task.reference_plan[..1].to_vec());
    assert!(!r.success && r.complete < 1.0 && r.validity == 1.0, "{r:?}");
    // Someone else's steps do not count as the robot's.
    let others: Vec<Request> = task
        .reference_plan
        .iter()
        .map(|r| Request {
            actor: Id::new("alice"),
            ..r.clone()
        })
        .collect();
    assert_eq!(score(others).validity, 0.0);
    // No plan at all.
    let r = score(vec![]);
    assert!(!r.success && r.validity == 0.0 && r.steps == 0);
}

#[test]
fn the_example_external_agent_speaks_the_protocol() {
    let (scene, events) = generated("family_apartment", 1, 2);
    let ix = Index::new(&scene, &events);
    let samples = samples::mine(&scene, &events, 1);
    let script = repo().join("examples/agent.py");
    let mut agent = External::new(
        &format!("python3 {}", script.display()),
        Duration::from_secs(20),
    );
    let (qa, plans) = evaluate(&ix, &samples, &mut agent);
    let report = Report::new("example".into(), vec![], qa, plans);
    assert_eq!(
        report.errors,
        0,
        "{:?}",
        report.questions.iter().find(|q| q.error.is_some())
    );
    // From words it only retrieves: evidence, no structured answers.
    assert_eq!(report.qa.calibrated, 0.0);
    assert!(report.qa.session_any5 > 0.1, "{:?}", report.qa);
    // Given the query it remembers the last value it saw, hedged while
    // the robot has moved since: right on nearly every current and
    // hidden-state question (its rule does not know where things are:
    // a thing seen from another room it calls current), and on nothing
    // else but what it never saw.
    let (qa, plans) = evaluate(&ix, &samples, &mut agent.with_query());
    let report = Report::new("example".into(), vec![], qa, plans);
    assert_eq!(report.errors, 0);
    for f in [Family::CurrentState, Family::HiddenState] {
        let s = &report.by_family[&f];
        assert!(
            s.calibrated > 0.9 && s.calibrated <= 1.0,
            "{}: {s:?}",
            f.name()
        );
    }
    assert!(report.qa.calibrated < 0.5);
    assert!(
        report.qa.hallucination.is_some_and(|h| h < 0.5),
        "{:?}",
        report.qa
    );
}

#[test]
fn external_agents_get_words_unless_given_the_query() {
    // Four days: enough for a which-came-first question (its options).
    let (scene, events) = generated("family_apartment", 3, 4);
    let ix = Index::new(&scene, &events);
    let samples = samples::mine(&scene, &events, 3);
    let t = tmp();
    // Logs every line it is sent, answers nothing.
    let script = write(
        t.path(),
        "log.py",
        "import sys, json\nlog = open(sys.argv[1], 'a')\nfor l in sys.stdin:\n    log.write(l); log.flush()\n    m = json.loads(l)\n    if m['type'] == 'question': print(json.dumps({'answer': None}), flush=True)\n    elif m['type'] == 'plan': print(json.dumps({'plan': []}), flush=True)\n",
    );
    let sent = |agent: External, log: &str| {
        let (qa, plans) = evaluate(&ix, &samples, &mut { agent });
        assert_eq!(Report::new("log".into(), vec![], qa, plans).errors, 0);
        let text = std::fs::read_to_string(t.path().join(log)).unwrap();
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let of = |kind: &str| -> Vec<serde_json::Value> {
            lines
                .iter()
                .filter(|m| m["type"] == kind)
                .cloned()
                .collect()
        };
        (of("question"), of("plan"))
    };
    let cmd = |log: &str| {
        External::new(
            &format!(
                "python3 {} {}",
                script.display(),
                t.path().join(log).display()
            ),
            Duration::from_secs(20),
        )
    };
    let qa: Vec<&samples::QaSample> = samples
        .iter()
        .filter_map(|s| match s {
            Sample::Qa(q) => Some(q),
            _ => None,
        })
        .collect();
    let recalls = |plans: &[serde_json::Value]| {
        plans
            .iter()
            .flat_map(|p| p["goals"].as_array().unwrap().clone())
            .filter(|g| g["goal"] == "remember")
            .collect::<Vec<_>>()
    };
    // Messages come with opaque ids, a cutoff's in the order of those ids.
    let mut qa = qa;
    qa.sort_by_cached_key(|q| (q.cutoff.event, asked_id(&ix, &q.id)));
    // By default: the words and options, never the query.
    let (questions, plans) = sent(cmd("words.log"), "words.log");
    assert_eq!(questions.len(), qa.len());
    for (m, q) in questions.iter().zip(&qa) {
        assert!(m.get("query").is_none(), "{m}");
        assert_eq!(m["id"], asked_id(&ix, &q.id).as_str());
        assert_eq!(m["question"], q.question.as_str());
    }
    assert!(qa.iter().any(|q| !q.options.is_empty()));
    assert!(questions.iter().any(|m| m.get("options").is_some()));
    let goals = recalls(&plans);
    assert!(!goals.is_empty());
    assert!(goals.iter().all(|g| g.get("from").is_none()), "{goals:?}");
    // --give-query: each question's query as mined, and what to recall.
    let (questions, plans) = sent(cmd("query.log").with_query(), "query.log");
    for (m, q) in questions.iter().zip(&qa) {
        assert_eq!(m["query"], serde_json::to_value(&q.query).unwrap(), "{m}");
    }
    assert!(recalls(&plans).iter().all(|g| g.get("from").is_some()));
}

#[test]
fn broken_external_agents_fail_their_samples_not_the_run() {
    let (scene, events) = generated("family_apartment", 2, 1);
    let ix = Index::new(&scene, &events);
    let samples = samples::mine(&scene, &events, 2);
    let questions = samples
        .iter()
        .filter(|s| matches!(s, Sample::Qa(_)))
        .count();
    let t = tmp();
    let agent = |body: &str| {
        let path = write(t.path(), &format!("agent{}.py", body.len()), body);
        External::new(
            &format!("python3 {}", path.display()),
            Duration::from_secs(1),
        )
    };
    let run = |mut a: External| {
        let (qa, plans) = evaluate(&ix, &samples, &mut a);
        Report::new("broken".into(), vec![], qa, plans)
    };
    // Garbage on every question: an error per sample, each named.
    let r = run(agent(
        "import sys\nfor l in sys.stdin:\n    if '\"question\"' in l or '\"plan\"' in l: print('hello', flush=True)\n",
    ));
    assert_eq!(r.questions.len(), questions);
    assert!(r.questions.iter().all(|q| {
        q.error
            .as_deref()
            .is_some_and(|e| e.contains("not valid") && e.contains("hello"))
    }));
    // Crashes on the third question it sees: that one fails, the agent is
    // restarted with its history, and answers again (with nothing, here).
    let crash = "import sys, json, os\nn = 0\nfor l in sys.stdin:\n    m = json.loads(l)\n    if m['type'] in ('question', 'plan'):\n        n += 1\n        if n == 3 and not os.path.exists(sys.argv[0] + '.crashed'):\n            open(sys.argv[0] + '.crashed', 'w').close(); sys.exit(3)\n        print(json.dumps({'answer': None, 'plan': []} if m['type'] == 'plan' else {'answer': None}), flush=True)\n";
    let r = run(agent(crash));
    let errors: Vec<&QaResult> = r.questions.iter().filter(|q| q.error.is_some()).collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].error.as_ref().unwrap().contains("exited"),
        "{errors:?}"
    );
    // Stalls on one question: that one times out; the rest are answered.
    let stall = "import sys, json, time, os\nfor l in sys.stdin:\n    m = json.loads(l)\n    if m['type'] == 'question':\n        if not os.path.exists(sys.argv[0] + '.slept'):\n            open(sys.argv[0] + '.slept', 'w').close(); time.sleep(5)\n        print(json.dumps({'answer': None}), flush=True)\n    elif m['type'] == 'plan':\n        print(json.dumps({'plan': []}), flush=True)\n";
    let r = run(agent(stall));
    let errors: Vec<&QaResult> = r.questions.iter().filter(|q| q.error.is_some()).collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0]
            .error
            .as_ref()
            .unwrap()
            .contains("no reply within 1 s")
    );
    // A command that does not exist fails every sample with the reason.
    let r = run(External::new(
        "definitely-not-a-program-4242",
        Duration::from_secs(1),
    ));
    assert_eq!(r.errors, samples.len());
}

#[test]
fn the_eval_command_compares_agents() {
    let t = tmp();
    let out = t.path().join("tr");
    hearth(&["generate", "--days", "2", "--out", s(&out)]).ok();
    hearth(&["eval", "--trace", s(&out), "--agent", "oracle"])
        .fails()
        .stderr_has("run `hearth mine");
    hearth(&["mine", "--trace", s(&out)]).ok();
    let script = repo().join("examples/agent.py");
    let agents = format!(
        "oracle,none,bm25,bm25-words,cmd:\"python3 {}\"",
        script.display()
    );
    let r = hearth(&["eval", "--trace", s(&out), "--agents", &agents]).ok();
    r.stdout_has("calibrated accuracy")
        .stdout_has("hallucination")
        .stdout_has("Event R@5")
        .stdout_has("plan success");
    let reports: Vec<Report> =
        serde_json::from_slice(&std::fs::read(out.join("eval-report.json")).unwrap()).unwrap();
    assert_eq!(reports.len(), 5);
    assert_eq!(reports[0].qa.calibrated, 1.0);
    assert_eq!(reports[3].agent, "bm25-words");
    assert!(reports[4].agent.starts_with("cmd:python3"));
    // The example agent answers state questions only when given the query.
    assert_eq!(reports[4].qa.calibrated, 0.0);
    let cmd = format!("cmd:\"python3 {}\"", script.display());
    hearth(&["eval", "--trace", s(&out), "--agent", &cmd, "--give-query"]).ok();
    let reports: Vec<Report> =
        serde_json::from_slice(&std::fs::read(out.join("eval-report.json")).unwrap()).unwrap();
    assert!(reports[0].qa.calibrated > 0.0);
    hearth(&["eval", "--trace", s(&out), "--agent", "gpt"])
        .fails()
        .stderr_has("unknown agent \"gpt\"");
}

/// The presence axis, asked of the household: a robot docked away for more
/// of the day answers fewer questions about the house rightly, however
/// good its memory. World accuracy falls for the oracle, obsmem and bm25,
/// while the oracle stays exact on what it could know.
#[test]
fn less_presence_lowers_world_accuracy_when_asked_of_the_household() {
    let agents = ["oracle", "obsmem", "bm25"];
    let mut world = [[0.0; 3]; 2];
    // At 0.9, as docs/results.md finds: a weak memory's world accuracy
    // moves little before (what it forgets it would have lost anyway).
    for (i, away) in [0.0, 0.9].into_iter().enumerate() {
        for (scene_id, seed) in [("family_apartment", 1), ("large_house", 2), ("studio", 3)] {
            let d = hearth::trace::Difficulty {
                robot_away: away,
                ..Default::default()
            };
            let (scene, events) = generated_with(scene_id, seed, 3, d);
            let samples = samples::mine_asking(&scene, &events, seed, samples::Asking::Household);
            for (j, a) in agents.iter().enumerate() {
                let r = run(a, &scene, &events, &samples);
                if *a == "oracle" {
                    assert_eq!(r.qa.calibrated, 1.0, "{scene_id} at {away}");
                }
                world[i][j] += r.qa.world.expect("world questions") / 3.0;
            }
        }
    }
    for (j, a) in agents.iter().enumerate() {
        assert!(
            world[1][j] < world[0][j],
            "{a}: world accuracy {:.3} at 0.9 away, {:.3} at 0",
            world[1][j],
            world[0][j]
        );
    }
}

/// An agent that reads nothing but the messages it is sent: ids, words,
/// options, cutoffs and the parsed query.
#[derive(Default)]
struct Probe {
    asked: Vec<QuestionIn>,
}

impl Agent for Probe {
    fn name(&self) -> String {
        "probe".into()
    }
    fn parsed_query(&self) -> bool {
        true
    }
    fn reset(&mut self, _: &Scene) -> Result<(), AgentError> {
        Ok(())
    }
    fn observe(&mut self, _: &Observation) -> Result<(), AgentError> {
        Ok(())
    }
    fn answer(&mut self, q: &QuestionIn) -> Result<Reply, AgentError> {
        self.asked.push(q.clone());
        Ok(Reply::default())
    }
    fn plan(&mut self, _: &TaskIn) -> Result<Vec<Request>, AgentError> {
        Ok(vec![])
    }
}

/// Nothing an agent is sent says whether a question can be answered: a
/// probe that sees only the messages (with the parsed query) picks out the
/// unanswerable questions no better than chance by their ids, their place
/// among their cutoff's questions, or the ids in their query; the report
/// maps the opaque ids back to the sample ids.
#[test]
fn no_message_says_whether_a_question_is_answerable() {
    let (scene, events) = generated("family_apartment", 2, 3);
    let mined = samples::mine(&scene, &events, 0);
    let ix = Index::new(&scene, &events);
    let mut probe = Probe::default();
    let (results, _) = evaluate(&ix, &mined, &mut probe);
    assert_eq!(results.len(), probe.asked.len());
    // The house it is reset with names none of its objects: which the
    // house holds (an absent look-alike) and where they began are learnt
    // by seeing them.
    let reset = hearth::eval::external::reset_message(&scene);
    let ron = reset["scene_ron"].as_str().unwrap();
    let known = hearth::scene::parse("reset", ron).expect("a valid scene");
    assert!(known.objects.is_empty() && !scene.objects.is_empty());
    assert_eq!(
        (known.rooms, known.actors),
        (scene.rooms.clone(), scene.actors.clone())
    );
    for o in &scene.objects {
        assert!(
            !ron.contains(&format!("\"{}\"", o.id)),
            "{} in the reset",
            o.id
        );
    }
    // Reports carry the sample ids, every one once.
    let sample_ids: std::collections::BTreeSet<&str> = mined
        .iter()
        .filter_map(|s| match s {
            Sample::Qa(q) => Some(q.id.as_str()),
            Sample::Plan(_) => None,
        })
        .collect();
    let reported: std::collections::BTreeSet<&str> =
        results.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(reported, sample_ids);
    // In the order asked: the probe's messages mapped back to the samples.
    let unknown: BTreeMap<String, bool> = mined
        .iter()
        .filter_map(|s| match s {
            Sample::Qa(q) => Some((asked_id(&ix, &q.id), q.answer == Answer::Unknown)),
            Sample::Plan(_) => None,
        })
        .collect();
    let unanswerable: Vec<bool> = probe.asked.iter().map(|q| unknown[&q.id]).collect();
    let n = unanswerable.len() as f64;
    let base = unanswerable.iter().filter(|u| **u).count() as f64 / n;
    assert!(base > 0.03, "the trace has unanswerable questions: {base}");
    // A rule's precision: the share of unanswerable questions among those
    // it flags; chance is the base rate. Allowed: chance plus three
    // standard errors of a share of that many flags.
    let check = |rule: &str, flags: Vec<bool>| {
        let flagged = flags.iter().filter(|f| **f).count() as f64;
        assert!(flagged >= 10.0, "{rule} flags too few to say: {flagged}");
        let hits = flags
            .iter()
            .zip(&unanswerable)
            .filter(|(f, u)| **f && **u)
            .count() as f64;
        let bound = base + 3.0 * (base * (1.0 - base) / flagged).sqrt();
        assert!(
            hits / flagged <= bound,
            "{rule}: precision {:.3} over {flagged} flagged, chance {base:.3}",
            hits / flagged
        );
    };
    let asked = &probe.asked;
    assert!(
        asked
            .iter()
            .all(|q| !q.id.contains("abs") && !q.id.starts_with('u'))
    );
    let mut ids: Vec<&str> = asked.iter().map(|q| q.id.as_str()).collect();
    ids.sort_unstable();
    let median = ids[ids.len() / 2];
    check(
        "low ids",
        asked.iter().map(|q| q.id.as_str() < median).collect(),
    );
    for digits in ["0123", "4567", "89ab", "cdef"] {
        check(
            "last hex digit",
            asked
                .iter()
                .map(|q| q.id.ends_with(|c| digits.contains(c)))
                .collect(),
        );
    }
    let last_of_cutoff: Vec<bool> = (0..asked.len())
        .map(|i| {
            asked
                .get(i + 1)
                .is_none_or(|next| next.cutoff.event != asked[i].cutoff.event)
        })
        .collect();
    check("last of its cutoff", last_of_cutoff);
    let first_of_cutoff: Vec<bool> = (0..asked.len())
        .map(|i| i == 0 || asked[i - 1].cutoff.event != asked[i].cutoff.event)
        .collect();
    check("first of its cutoff", first_of_cutoff);
    let json = |q: &QuestionIn| serde_json::to_string(&q.query).unwrap();
    assert!(asked.iter().all(|q| !json(q).contains("absent")));
    // Every id is opaque, unique and the same on a rerun.
    assert!(
        asked
            .iter()
            .all(|q| q.id.len() == 17 && q.id.starts_with('q'))
    );
    let unique: std::collections::BTreeSet<&str> = asked.iter().map(|q| q.id.as_str()).collect();
    assert_eq!(unique.len(), asked.len());
    let mut again = Probe::default();
    evaluate(&ix, &mined, &mut again);
    let ids = |p: &Probe| p.asked.iter().map(|q| q.id.clone()).collect::<Vec<_>>();
    assert_eq!(ids(&again), ids(&probe));
}

/// Calibrated scoring on a question of each certainty: the right value
/// said too surely or too timidly is wrong, and a confident answer where
/// the robot could not be sure (or the trap in words) is a hallucination.
#[test]
fn calibrated_scoring_wants_the_value_said_as_surely_as_it_is_known() {
    let (scene, events) = generated("family_apartment", 0, 3);
    let ix = Index::new(&scene, &events);
    let mined = samples::mine(&scene, &events, 0);
    let qa: Vec<&samples::QaSample> = mined
        .iter()
        .filter_map(|s| match s {
            Sample::Qa(q) => Some(q),
            Sample::Plan(_) => None,
        })
        .collect();
    let find = |f: &dyn Fn(&Answer) -> bool| *qa.iter().find(|q| f(&q.answer)).unwrap();
    let reply = |answer: Option<Answer>, text: &str| {
        Ok(Reply {
            answer,
            text: text.into(),
            evidence: vec![],
        })
    };
    let marks = |q: &samples::QaSample, answer: Option<Answer>, text: &str| {
        let r = score(&ix, q, reply(answer, text));
        (r.calibrated, r.hallucinated)
    };
    // Current: the value as current; hedging it is wrong, and no answer
    // to a current question is a hallucination.
    let q = find(&|a| matches!(a, Answer::Value { .. }));
    let Answer::Value { value } = &q.answer else {
        unreachable!()
    };
    let hedged = Answer::LastSeen {
        value: value.clone(),
        seen_at: 0,
        stale: true,
    };
    assert_eq!(marks(q, Some(q.answer.clone()), ""), (true, None));
    assert_eq!(marks(q, Some(hedged), ""), (false, None));
    assert_eq!(marks(q, Some(Answer::Unknown), ""), (false, None));
    // Possibly changed: the last value, hedged (when it was seen is not
    // scored); said as current it is a hallucination, "not known" is not.
    let q = find(&|a| matches!(a, Answer::LastSeen { stale: true, .. }));
    let Answer::LastSeen { value, .. } = &q.answer else {
        unreachable!()
    };
    let hedged = Answer::LastSeen {
        value: value.clone(),
        seen_at: 1,
        stale: true,
    };
    let sure = Answer::Value {
        value: value.clone(),
    };
    assert_eq!(marks(q, Some(hedged), ""), (true, Some(false)));
    assert_eq!(marks(q, Some(sure), ""), (false, Some(true)));
    assert_eq!(marks(q, Some(Answer::Unknown), ""), (false, Some(false)));
    // Not known: abstaining is right; any answer is a hallucination, and
    // so are the trap's words with no structured answer.
    let q = *qa
        .iter()
        .find(|q| q.answer == Answer::Unknown && q.adversarial_answer.is_some())
        .unwrap();
    let trap = q.adversarial_answer.clone().unwrap();
    assert_eq!(marks(q, Some(Answer::Unknown), ""), (true, Some(false)));
    assert_eq!(
        marks(q, Some(Answer::Count { count: 2 }), ""),
        (false, Some(true))
    );
    assert_eq!(marks(q, None, &trap), (false, Some(true)));
    assert_eq!(marks(q, None, "I could not say."), (false, None));
}

/// A household answered blind (the questions without their answers, the
/// robot's observations), the answers written as a predictions file keeps
/// them and given back: scored exactly as the agent is in process, for an
/// agent given the parsed query and one that reads words only.
#[test]
fn answers_made_blind_and_given_back_score_as_in_process() {
    let (scene, events) = generated("family_apartment", 3, 2);
    let samples = samples::mine(&scene, &events, 3);
    let ix = Index::new(&scene, &events);
    let asked = blind::asked(&ix, &samples);
    assert_eq!(asked.len(), samples.len());
    // What an agent receives names no sample id (u0003_abs says it has no answer).
    let text = serde_json::to_string(&asked).unwrap();
    for s in &samples {
        if let Sample::Qa(q) = s {
            assert!(!text.contains(&format!("\"{}\"", q.id)), "{} leaks", q.id);
        }
    }
    assert!(!text.contains("\"answer\""));
    let seen = observations(&ix, 0, u64::MAX);
    for name in ["obsmem", "bm25-words"] {
        let live = run(name, &scene, &events, &samples);
        let mut agent: Box<dyn Agent> = match WordsOnly::named(name) {
            Some(w) => Box::new(w),
            None => Box::new(BuiltIn::new(Strategy::parse(name).unwrap())),
        };
        let answered = blind::answer_blind(&scene, &seen, &asked, agent.as_mut());
        let line = serde_json::to_string(&answered).unwrap();
        let back: Vec<blind::Answered> = serde_json::from_str(&line).unwrap();
        let mut replayed = blind::Replayed::new(name, vec![("h".into(), back)]);
        let (qa, plans) = evaluate(&ix, &samples, &mut replayed);
        let given = Report::new(name.into(), vec![], qa, plans);
        assert_eq!(
            serde_json::to_string(&given).unwrap(),
            serde_json::to_string(&live).unwrap(),
            "{name}"
        );
    }
    // A question left out of the predictions fails alone, saying so.
    let mut agent = BuiltIn::new(Strategy::parse("obsmem").unwrap());
    let mut answered = blind::answer_blind(&scene, &seen, &asked, &mut agent);
    let gone = answered.remove(0);
    let mut replayed = blind::Replayed::new("obsmem", vec![("h".into(), answered)]);
    let (qa, plans) = evaluate(&ix, &samples, &mut replayed);
    let failed: Vec<&String> = qa
        .iter()
        .filter_map(|r| r.error.as_ref())
        .chain(plans.iter().filter_map(|p| p.error.as_ref()))
        .collect();
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert!(failed[0].contains(&gone.id), "{}", failed[0]);
}
