//! `hearth scene generate`, `hearth scene stats` and `hearth scene apply`:
//! procedural households, the counts that describe any scene, and scripted
//! edits with the editor's commands.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Args;

use hearth::workflow::scenes::{self, Scene};

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
    let applied = scenes::apply_edits(&args.scene, &args.edits)?;
    let (n, problems) = (applied.edits, &applied.problems);
    let shown = args
        .out
        .as_ref()
        .map_or("<stdout>".to_string(), |p| p.display().to_string());
    for p in problems {
        eprintln!("{}", p.display(&shown));
    }
    if !problems.is_empty() && !args.allow_invalid {
        eprintln!(
            "{n} edit(s) applied; the result has {} problem(s), so nothing was written (--allow-invalid writes it anyway)",
            problems.len()
        );
        return Ok(ExitCode::FAILURE);
    }
    match &args.out {
        Some(path) => {
            scenes::write(path, &applied.ron)?;
            eprintln!(
                "wrote {}: {n} edit(s) applied, {} problem(s): {}",
                path.display(),
                problems.len(),
                scenes::summary(&applied.scene)
            );
        }
        None => print!("{}", applied.ron),
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

pub fn generate(args: GenerateSceneArgs) -> Result<ExitCode> {
    let rooms = args.rooms.as_deref().map(parse_count_range).transpose()?;
    let s = scenes::generate(&args.kind, args.seed, rooms, args.people)?;
    let ron = scenes::to_ron(&s);
    match &args.out {
        Some(path) => {
            scenes::write(path, &ron)?;
            eprintln!("wrote {}: {}", path.display(), scenes::summary(&s));
        }
        None => print!("{ron}"),
    }
    Ok(ExitCode::SUCCESS)
}

pub fn stats(args: StatsArgs) -> Result<ExitCode> {
    let mut rows = Vec::new();
    for spec in &args.scenes {
        let s = scenes::resolve(spec).with_context(|| format!("reading {spec}"))?;
        rows.push(scenes::stats(&s));
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
    for (id, s) in scenes::builtin_ids().into_iter().zip(scenes::builtin()?) {
        println!("{id:<18} {}", scenes::summary(&s));
    }
    Ok(ExitCode::SUCCESS)
}

/// Warnings on standard error, one line each, for fixture kinds that play
/// no role (not errors: the exit code does not change).
pub fn warn_unknown_kinds(origin: &str, s: &Scene) {
    for w in scenes::unknown_kinds(s) {
        eprintln!("warning: {origin}: {w}");
    }
}

pub fn check(paths: &[PathBuf]) -> Result<ExitCode> {
    let mut failed = 0;
    for path in paths {
        match scenes::check(path) {
            Ok(s) => {
                println!("ok {}: {} ({})", path.display(), s.id, scenes::summary(&s));
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
