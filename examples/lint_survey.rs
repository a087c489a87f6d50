//! The lint over many generated days: findings per rule, events per day,
//! the share of door events and back-and-forth walks per 1,000 events, for
//! generated households of each kind and the built-in scenes. The
//! before/after counts of docs/lint.md come from this.
//!
//! cargo run --release --no-default-features --example lint_survey -- [N] [DAYS] [FIRST_SEED]
//! (defaults: 30 households per kind, 7 days, seeds from 1000; the built-in
//! scenes run with seeds 1000..1010).

use std::collections::BTreeMap;

use hearth::generation::{self, scripted::Scripted};
use hearth::lint::{self, Rule};
use hearth::scene::{self, Scene};
use hearth::trace::Event;
use hearth::trace::request::Action;

#[derive(Default)]
struct Group {
    traces: usize,
    with_findings: usize,
    per_day: Vec<f64>,
    door_share: Vec<f64>,
    ping_pong: Vec<f64>,
    counts: BTreeMap<&'static str, usize>,
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

fn worst(v: &[f64]) -> f64 {
    v.iter().copied().fold(0.0, f64::max)
}

fn run(g: &mut Group, s: &Scene, seed: u64, days: u32) {
    let mut events: Vec<Event> = Vec::new();
    let mut backend = Scripted::new(s, seed);
    let out = generation::generate(s, days, &mut backend, &mut |e| {
        events.push(e.clone());
        Ok(())
    })
    .expect("scripted generation");
    let findings = lint::lint_planned(s, &events, &out.plan.deliberate()).expect("valid scene");
    // SURVEY_SHOW=rule_code prints that rule's findings (to look at them).
    if let Ok(code) = std::env::var("SURVEY_SHOW") {
        for f in findings.iter().filter(|f| f.rule == code) {
            eprintln!("{} seed {seed}: {} {}", s.id, f.time, f.message);
        }
    }
    let n = events.len().max(1) as f64;
    let doors = events
        .iter()
        .filter(|e| e.outcome.is_ok())
        .filter(|e| match &e.action {
            Action::Open { target } | Action::Close { target } => {
                s.doors.iter().any(|d| &d.id == target)
            }
            _ => false,
        })
        .count();
    let pp: usize = findings
        .iter()
        .filter(|f| f.rule == Rule::PingPongWalk.code())
        .map(|f| f.walks)
        .sum();
    g.traces += 1;
    g.with_findings += usize::from(!findings.is_empty());
    g.per_day.push(n / f64::from(days));
    g.door_share.push(100.0 * doors as f64 / n);
    g.ping_pong.push(1000.0 * pp as f64 / n);
    for (code, c) in lint::counts(&findings) {
        *g.counts.entry(code).or_default() += c;
    }
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers: N DAYS FIRST_SEED"))
        .collect();
    let n = args.first().copied().unwrap_or(30);
    let days = args.get(1).copied().unwrap_or(7) as u32;
    let first = args.get(2).copied().unwrap_or(1000);
    let cat = hearth::catalogue::builtin();
    let mut groups: BTreeMap<String, Group> = BTreeMap::new();
    for kind in ["studio", "apartment", "house"] {
        for seed in first..first + n {
            let spec = hearth::procgen::SceneSpec::new(kind, seed);
            let s = hearth::procgen::generate(&spec, cat).expect("procgen");
            run(groups.entry(kind.into()).or_default(), &s, seed, days);
        }
    }
    for (id, src) in scene::BUILTIN {
        let s = scene::parse(id, src).expect("built-in scene");
        for seed in first..first + 10 {
            run(
                groups.entry(format!("built-in {id}")).or_default(),
                &s,
                seed,
                days,
            );
        }
    }
    let codes: Vec<&str> = Rule::ALL.iter().map(|r| r.code()).collect();
    println!(
        "| households | traces | with findings | events/day (median) | door events % (median, worst) | ping-pong walks / 1,000 events (median, worst) |"
    );
    println!("|---|---|---|---|---|---|");
    for (name, g) in &mut groups {
        let worst_door = worst(&g.door_share);
        let worst_pp = worst(&g.ping_pong);
        println!(
            "| {name} | {} | {} | {:.0} | {:.1}, {:.1} | {:.1}, {:.1} |",
            g.traces,
            g.with_findings,
            median(&mut g.per_day),
            median(&mut g.door_share),
            worst_door,
            median(&mut g.ping_pong),
            worst_pp
        );
    }
    println!();
    println!(
        "| rule | {} |",
        groups.keys().cloned().collect::<Vec<_>>().join(" | ")
    );
    println!("|---|{}", "---|".repeat(groups.len()));
    for code in codes {
        let row: Vec<String> = groups
            .values()
            .map(|g| g.counts[code].to_string())
            .collect();
        println!("| `{code}` | {} |", row.join(" | "));
    }
}
