//! The catalogue from RON: the embedded one, and every problem of one
//! located at `file:line:col` of the name it is about.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use thiserror::Error;

use crate::scene::validate::check_field;
use crate::scene::{FieldDef, Surface};

use super::model::{Catalogue, Mount};

/// The embedded catalogue's RON text.
pub const DEFAULT_SOURCE: &str = include_str!("../../assets/catalogue.ron");

/// The embedded catalogue, parsed and checked once.
pub fn builtin() -> &'static Catalogue {
    static CATALOGUE: OnceLock<Catalogue> = OnceLock::new();
    CATALOGUE.get_or_init(|| {
        parse("assets/catalogue.ron", DEFAULT_SOURCE).expect("the embedded catalogue is valid")
    })
}

/// One thing wrong with a catalogue, located at the name it is about.
#[derive(Debug, Clone, PartialEq)]
pub struct CatalogueProblem {
    pub line: usize,
    pub col: usize,
    pub message: String,
}

#[derive(Debug, Error)]
pub enum CatalogueError {
    #[error(transparent)]
    Syntax(#[from] crate::located::SyntaxError),
    #[error("{origin}: {} problem(s){}", problems.len(), problems.iter().map(|p| format!("\n  {origin}:{}:{}: {}", p.line, p.col, p.message)).collect::<String>())]
    Invalid {
        origin: String,
        problems: Vec<CatalogueProblem>,
    },
}

/// Parses and checks a catalogue. `origin` names the source in errors.
/// Every problem is reported at once, at `file:line:col` of the name it is
/// about: unknown kinds referenced, names defined twice, empty choices,
/// bad ranges, device fields outside their schema.
pub fn parse(origin: &str, src: &str) -> Result<Catalogue, CatalogueError> {
    let cat: Catalogue = crate::located::parse_ron(ron::Options::default(), origin, src)?;
    let problems = check(&cat);
    checked(origin, src, cat, problems)
}

/// `value` if there are no `problems` ((name, message) pairs), else every
/// problem located at its name in `src`.
pub(crate) fn checked<T>(
    origin: &str,
    src: &str,
    value: T,
    problems: Vec<(String, String)>,
) -> Result<T, CatalogueError> {
    let problems: Vec<CatalogueProblem> = problems
        .into_iter()
        .map(|(name, message)| {
            let (line, col) = locate(src, &name);
            CatalogueProblem { line, col, message }
        })
        .collect();
    if problems.is_empty() {
        Ok(value)
    } else {
        Err(CatalogueError::Invalid {
            origin: origin.to_string(),
            problems,
        })
    }
}

/// Where `"name"` first appears in the source (1-based), or 1:1.
fn locate(src: &str, name: &str) -> (usize, usize) {
    let quoted = format!("\"{name}\"");
    src.find(&quoted).map_or((1, 1), |offset| {
        let before = &src[..offset];
        let line = before.matches('\n').count() + 1;
        let col = before.len() - before.rfind('\n').map_or(0, |n| n + 1) + 1;
        (line, col)
    })
}

/// Problems as (the name to locate, message).
fn check(c: &Catalogue) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut bad = |name: &str, msg: String| out.push((name.to_string(), msg));
    let range = |(a, b): (u32, u32)| a <= b;
    // Every furniture and device kind by name and alias, in order.
    let fixture_names = || {
        let furniture = c.furniture.iter();
        let devices = c.devices.iter();
        furniture
            .flat_map(|f| std::iter::once(&f.kind).chain(&f.aliases))
            .chain(devices.flat_map(|d| std::iter::once(&d.kind).chain(&d.aliases)))
    };
    let fixture_kinds: BTreeSet<String> = fixture_names().map(|k| k.to_lowercase()).collect();
    let mut seen = BTreeSet::new();
    for n in fixture_names() {
        if !seen.insert(n.to_lowercase()) {
            bad(n, format!("kind or alias {n:?} is defined twice"));
        }
    }
    let mut seen = BTreeSet::new();
    for o in &c.objects {
        for n in std::iter::once(&o.category).chain(&o.aliases) {
            if !seen.insert(n.to_lowercase()) {
                bad(n, format!("category or alias {n:?} is defined twice"));
            }
        }
    }
    for d in &c.devices {
        let options = match d.fields.get("program") {
            Some(FieldDef::Enum { options, .. }) => options.as_slice(),
            _ => &[],
        };
        for p in d.cycles.keys().filter(|p| !options.contains(p)) {
            bad(
                &d.kind,
                format!(
                    "device {}: cycle {p:?} is not an option of its program",
                    d.kind
                ),
            );
        }
    }
    let room_kinds: BTreeSet<&str> = c.rooms.iter().map(|r| r.kind.as_str()).collect();
    for h in &c.households {
        if !range(h.rooms) || h.rooms.0 == 0 || !range(h.people) || !range(h.objects) {
            bad(
                &h.kind,
                format!(
                    "household {}: a range is empty or starts at 0 rooms",
                    h.kind
                ),
            );
        }
        for r in h.required.iter().chain(&h.extra).chain([&h.bedroom]) {
            if !room_kinds.contains(r.as_str()) {
                bad(
                    r,
                    format!(
                        "household {} names room type {r:?}, which is not in rooms",
                        h.kind
                    ),
                );
            }
        }
        if let Some(entry) = h.required.first().and_then(|r| c.room(r))
            && !entry.zone.is_core()
        {
            bad(
                &entry.kind,
                format!(
                    "household {}: its entry {} must be a hall or public room",
                    h.kind, entry.kind
                ),
            );
        }
        if (h.required.len() as u32) + 1 > h.rooms.1 {
            bad(
                &h.kind,
                format!(
                    "household {}: its required rooms and a bedroom need more rooms than {}",
                    h.kind, h.rooms.1
                ),
            );
        }
    }
    for r in &c.rooms {
        if r.zone.is_core() != r.opens_onto.is_empty() || r.opens_onto.iter().any(|z| !z.is_core())
        {
            bad(
                &r.kind,
                format!(
                    "room type {}: a private or service room opens onto Hall or Public rooms; a hall or public room lists no opens_onto",
                    r.kind
                ),
            );
        }
        for k in r.en_suite_of.iter().chain(&r.adjoins).chain(&r.prefers) {
            if !room_kinds.contains(k.as_str()) {
                bad(k, format!("room type {}: {k:?} is not a room type", r.kind));
            }
        }
        if !(r.area.0 > 0.0 && r.area.0 <= r.area.1) {
            bad(
                &r.kind,
                format!(
                    "room type {}: area range must be positive and ordered",
                    r.kind
                ),
            );
        }
        for k in r.fixtures.iter().chain(&r.optional) {
            if !fixture_kinds.contains(&k.to_lowercase()) {
                bad(
                    k,
                    format!(
                        "room type {} holds {k:?}, which is no furniture or device kind",
                        r.kind
                    ),
                );
            }
        }
    }
    let sizes = c
        .furniture
        .iter()
        .map(|f| (&f.kind, f.size, &f.descriptions, &f.surfaces, &f.mount))
        .chain(
            c.devices
                .iter()
                .map(|d| (&d.kind, d.size, &d.descriptions, &d.surfaces, &d.mount)),
        );
    for (kind, size, descriptions, surfaces, mount) in sizes {
        if !(size.0 > 0.0 && size.1 > 0.0 && size.2 > 0.0) {
            bad(kind, format!("{kind}: sizes must be positive"));
        }
        if descriptions.is_empty() {
            bad(kind, format!("{kind}: give at least one description"));
        }
        if surfaces
            .iter()
            .any(|s| matches!(s, Surface::On(0) | Surface::In(0)))
        {
            bad(kind, format!("{kind}: a surface with capacity 0"));
        }
        if let Mount::OnTop(under) = mount {
            for u in under {
                if !fixture_kinds.contains(&u.to_lowercase()) {
                    bad(kind, format!("{kind} stands on {u:?}, which is no kind"));
                }
            }
        }
    }
    for d in &c.devices {
        if d.fields.is_empty() {
            bad(
                &d.kind,
                format!("device {}: needs at least one field", d.kind),
            );
        }
        for (name, f) in &d.fields {
            if let Err(e) = check_field(f) {
                bad(&d.kind, format!("device {} field {name}: {e}", d.kind));
            }
        }
    }
    for o in &c.objects {
        if o.found.is_empty() {
            bad(
                &o.category,
                format!("category {}: say where it is found", o.category),
            );
        }
        for s in &o.found {
            if !fixture_kinds.contains(&s.kind().to_lowercase()) {
                bad(
                    s.kind(),
                    format!(
                        "category {} is found at {:?}, which is no kind",
                        o.category,
                        s.kind()
                    ),
                );
            }
        }
        for r in &o.rooms {
            if !room_kinds.contains(r.as_str()) {
                bad(
                    r,
                    format!(
                        "category {} belongs in room type {r:?}, which is not in rooms",
                        o.category
                    ),
                );
            }
        }
        let distinct: BTreeSet<&String> = o.variants.iter().collect();
        if o.variants.is_empty() || distinct.len() != o.variants.len() {
            bad(
                &o.category,
                format!(
                    "category {}: variants must be non-empty and distinct",
                    o.category
                ),
            );
        }
        if !range(o.count) || (!o.each && o.count.1 as usize > o.variants.len()) {
            bad(
                &o.category,
                format!(
                    "category {}: count range empty or larger than its variants",
                    o.category
                ),
            );
        }
        if o.each && !o.personal {
            bad(
                &o.category,
                format!("category {}: `each` needs `personal`", o.category),
            );
        }
    }
    if c.people.names.len() < 8 || c.people.adults.is_empty() || c.people.others.is_empty() {
        bad(
            "people",
            "people: give at least 8 names and roles for adults and others".into(),
        );
    }
    out
}
