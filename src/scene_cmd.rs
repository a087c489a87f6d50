//! `hearth scene generate` and `hearth scene stats`: procedural households
//! and the counts that describe any scene.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Args;

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
            eprintln!("wrote {}: {}", path.display(), crate::summary(&s));
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
