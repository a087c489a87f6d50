//! `hearth scene generate`, `hearth scene stats` and `hearth scene apply`:
//! procedural households, the counts that describe any scene, and scripted
//! edits with the editor's commands.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Args;

use hearth::editor::{self, Document};
use hearth::procgen::{self, SceneSpec};
use hearth::scene;
use hearth::store;

#[derive(Args)]
pub struct GenerateSceneArgs {
    /// Seed; same seed and flags, same scene byte for byte.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Household kind from the catalogue (assets/catalogue.ron): studio, apartment or house.
    #[arg(long, default_value = "apartment")]
    pub kind: String,
    /// Room count: `N`, `A..B` (B excluded) or `A..=B` [default: the kind's range].
    #[arg(long)]
    pub rooms: Option<String>,
    /// Humans living there (1 to 8) [default: drawn from the kind's range].
    #[arg(long)]
    pub people: Option<u32>,
    /// Write the scene here (atomically) instead of to standard output.
    #[arg(short, long)]
    pub out: Option<PathBuf>,
}

#[derive(Args)]
pub struct StatsArgs {
    /// Scene files or built-in ids.
    #[arg(required = true)]
    pub scenes: Vec<String>,
    /// One JSON object per scene, one per line.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct ApplyArgs {
    /// Scene file, or the id of a built-in scene. It may be invalid: edits can fix it.
    pub scene: String,
    /// A RON list of edits, e.g. `[MoveRoom(id: "hall", to: (4.0, 0.0))]` (see "Editing scenes from a script" in docs/scenes.md, the guide the README links to).
    pub edits: PathBuf,
    /// Write the edited scene here (atomically) instead of to standard output.
    #[arg(short, long)]
    pub out: Option<PathBuf>,
    /// Write the result and exit 0 even if it breaks validation rules.
    #[arg(long)]
    pub allow_invalid: bool,
}

/// Applies EDITS to SCENE: an edit that fails stops everything (its index
/// named, nothing written); the problems left are printed; an invalid
/// result is not written unless `--allow-invalid`.
pub fn apply(args: ApplyArgs) -> Result<ExitCode> {
    let scene = if Path::new(&args.scene).exists() {
        store::load_scene_unvalidated(Path::new(&args.scene))?
    } else {
        store::resolve_scene(&args.scene)?
    };
    let origin = args.edits.display().to_string();
    let text = store::read_text(&args.edits)?;
    let edits = editor::parse_edits(&origin, &text)?;
    let mut doc = Document::new(scene);
    let n = edits.len();
    for (i, edit) in edits.into_iter().enumerate() {
        let name = edit.name();
        doc.apply(edit)
            .with_context(|| format!("{origin}: edit {i} ({name}) failed; nothing written"))?;
    }
    let ron = scene::to_ron(doc.scene());
    let shown = args
        .out
        .as_ref()
        .map_or("<stdout>".to_string(), |p| p.display().to_string());
    let mut problems = doc.problems().to_vec();
    for p in &mut problems {
        p.locate(&ron);
        eprintln!("{}", p.display(&shown));
    }
    let invalid = !problems.is_empty();
    if invalid && !args.allow_invalid {
        eprintln!(
            "{n} edit(s) applied; the result has {} problem(s), so nothing was written (--allow-invalid writes it anyway)",
            problems.len()
        );
        return Ok(ExitCode::FAILURE);
    }
    match &args.out {
        Some(path) => {
            store::write_atomic(path, ron.as_bytes())?;
            eprintln!(
                "wrote {}: {n} edit(s) applied, {} problem(s): {}",
                path.display(),
                problems.len(),
                summary(doc.scene())
            );
        }
        None => print!("{ron}"),
    }
    Ok(ExitCode::SUCCESS)
}

/// Parses `N`, `A..B` (half-open) or `A..=B` into an inclusive range.
pub fn parse_count_range(s: &str) -> Result<(u32, u32)> {
    let num = |x: &str| -> Result<u32> {
        x.trim()
            .parse()
            .map_err(|_| anyhow::anyhow!("bad range {s:?}: {x:?} is not a number"))
    };
    let (lo, hi) = if let Some((a, b)) = s.split_once("..=") {
        (num(a)?, num(b)?)
    } else if let Some((a, b)) = s.split_once("..") {
        let b = num(b)?;
        if b == 0 {
            bail!("empty range {s:?}: B is excluded in A..B");
        }
        (num(a)?, b - 1)
    } else {
        let n = num(s)?;
        (n, n)
    };
    if lo > hi {
        bail!("empty range {s:?}: write A..B with A < B, or A..=B");
    }
    Ok((lo, hi))
}

pub fn spec(kind: &str, seed: u64, rooms: Option<&str>, people: Option<u32>) -> Result<SceneSpec> {
    Ok(SceneSpec {
        seed,
        kind: kind.to_string(),
        rooms: rooms.map(parse_count_range).transpose()?,
        people,
    })
}

pub fn generate(args: GenerateSceneArgs) -> Result<ExitCode> {
    let spec = spec(&args.kind, args.seed, args.rooms.as_deref(), args.people)?;
    let s = procgen::generate(&spec, hearth::catalogue::builtin())?;
    let ron = scene::to_ron(&s);
    match &args.out {
        Some(path) => {
            store::write_atomic(path, ron.as_bytes())?;
            eprintln!("wrote {}: {}", path.display(), summary(&s));
        }
        None => print!("{ron}"),
    }
    Ok(ExitCode::SUCCESS)
}

pub fn stats(args: StatsArgs) -> Result<ExitCode> {
    let mut rows = Vec::new();
    for spec in &args.scenes {
        let s = store::resolve_scene(spec).with_context(|| format!("reading {spec}"))?;
        rows.push(scene::stats(&s));
    }
    if args.json {
        for r in &rows {
            println!("{}", serde_json::to_string(r)?);
        }
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{:<28} {:>5} {:>5} {:>6} {:>9} {:>7} {:>8} {:>7} {:>10} {:>6} {:>7}",
        "scene",
        "rooms",
        "doors",
        "closed",
        "furniture",
        "devices",
        "openable",
        "objects",
        "look-alike",
        "people",
        "area m2"
    );
    for r in &rows {
        println!(
            "{:<28} {:>5} {:>5} {:>6} {:>9} {:>7} {:>8} {:>7} {:>10} {:>6} {:>7.1}",
            r.id,
            r.rooms,
            r.doors,
            r.closed_doors,
            r.furniture,
            r.devices,
            r.openable,
            r.objects,
            r.look_alike_groups,
            r.people,
            r.area
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `hearth scene list`: the built-in scenes, a line each.
pub fn list() -> Result<ExitCode> {
    for (id, src) in scene::BUILTIN {
        let s = scene::parse(id, src)?;
        println!("{id:<18} {}", summary(&s));
    }
    Ok(ExitCode::SUCCESS)
}

/// The one-line description of a scene (`scene list`, `check`, `generate`).
pub fn summary(s: &scene::Scene) -> String {
    scene::stats(s).summary()
}

/// Warnings on standard error, one line each, for fixture kinds that play
/// no role (not errors: the exit code does not change).
pub fn warn_unknown_kinds(origin: &str, s: &hearth::scene::Scene) {
    for w in hearth::catalogue::unknown_kinds(s, hearth::catalogue::builtin()) {
        eprintln!("warning: {origin}: {w}");
    }
}

pub fn check(paths: &[PathBuf]) -> Result<ExitCode> {
    let mut failed = 0;
    for path in paths {
        match store::load_scene(path) {
            Ok(s) => {
                println!("ok {}: {} ({})", path.display(), s.id, summary(&s));
                warn_unknown_kinds(&path.display().to_string(), &s);
            }
            Err(e) => {
                failed += 1;
                eprintln!("{e}");
            }
        }
    }
    if failed > 0 {
        eprintln!("{failed} of {} scene(s) failed", paths.len());
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::parse_count_range;

    #[test]
    fn count_ranges() {
        assert_eq!(parse_count_range("5").unwrap(), (5, 5));
        assert_eq!(parse_count_range("5..9").unwrap(), (5, 8));
        assert_eq!(parse_count_range("5..=9").unwrap(), (5, 9));
        for bad in ["9..5", "x", "5..x", "3..3", "0..0", ""] {
            assert!(parse_count_range(bad).is_err(), "{bad}");
        }
    }
}
