//! Docs that stay true: every file and folder ARCHITECTURE.md's code map
//! names exists where the map puts it, every type it names beside a file
//! is defined in that file, every module of `src/` is on the map, and no
//! page of the README, the guide or ARCHITECTURE.md links or points
//! outside the repository. (The numbers of docs/python.md's walkthrough
//! are checked against a real run by `python/tests/test_docs.py`.)

use std::fs;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> String {
    fs::read_to_string(repo().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The code map's bullets, each as one line of text.
fn bullets(architecture: &str) -> Vec<String> {
    let section = architecture
        .split("\n## ")
        .find(|s| s.starts_with("Code map"))
        .expect("ARCHITECTURE.md has a \"## Code map\" section");
    let mut out: Vec<String> = Vec::new();
    for line in section.lines().skip(1) {
        if let Some(item) = line.strip_prefix("- ") {
            out.push(item.to_string());
        } else if line.starts_with("  ")
            && let Some(last) = out.last_mut()
        {
            last.push(' ');
            last.push_str(line.trim());
        }
    }
    out
}

/// The backticked spans of `text`, in order.
fn spans(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// A span that names a file or a folder: `world.rs`, `families/`,
/// `assets/catalogue.ron` (not a placeholder such as `<family>/x.rs`).
fn is_path(span: &str) -> bool {
    !span.contains('<')
        && !span.contains(' ')
        && (span.ends_with('/')
            || [".rs", ".ron", ".py", ".toml", ".md"]
                .iter()
                .any(|x| span.ends_with(x)))
}

/// A span that names a type or a constant (`Standby`, `IN_SCHEMA`), or an
/// item of one (`Frame::place`).
fn is_item(span: &str) -> bool {
    let head = span.split("::").next().unwrap_or("");
    head.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && span
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
}

/// Every file under `p` (or `p` itself).
fn files_under(p: &Path, out: &mut Vec<PathBuf>) {
    if p.is_dir() {
        for e in fs::read_dir(p).unwrap() {
            files_under(&e.unwrap().path(), out);
        }
    } else {
        out.push(p.to_path_buf());
    }
}

/// Whether `code` defines `item`: a type, trait, constant or static of
/// that name, or for `Type::name` a function `name`; or re-exports it (a
/// `pub use` naming it).
fn defines(code: &str, item: &str) -> bool {
    let word = |s: &str, at: usize, len: usize| {
        let ok = |c: Option<char>| !c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        ok(s[..at].chars().next_back()) && ok(s[at + len..].chars().next())
    };
    let reexported = code.match_indices("pub use ").any(|(at, _)| {
        let stmt = &code[at..code[at..].find(';').map_or(code.len(), |e| at + e)];
        stmt.match_indices(item)
            .any(|(k, _)| word(stmt, k, item.len()))
    });
    reexported
        || match item.split_once("::") {
            Some((_, f)) => {
                code.contains(&format!("fn {f}(")) || code.contains(&format!("fn {f}<"))
            }
            None => [
                "struct", "enum", "trait", "type", "const", "static", "union",
            ]
            .iter()
            .any(|k| {
                let pat = format!("{k} {item}");
                code.match_indices(&pat).any(|(at, _)| {
                    let after = code[at + pat.len()..].chars().next();
                    !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                })
            }),
        }
}

/// Where a bullet's names are looked up: its first path (in `src/`, or at
/// the root for `python/`), and the folders it names after it.
#[test]
fn the_code_map_names_what_is_there() {
    let arch = read("ARCHITECTURE.md");
    let mut missing = Vec::new();
    for bullet in bullets(&arch) {
        let spans = spans(&bullet);
        let Some(first) = spans.iter().find(|s| is_path(s)) else {
            missing.push(format!("a bullet that names no path: {bullet}"));
            continue;
        };
        let root = [repo().join("src").join(first), repo().join(first)]
            .into_iter()
            .find(|p| p.exists());
        let Some(root) = root else {
            missing.push(format!(
                "`{first}` (no such file or folder in src/ or the root)"
            ));
            continue;
        };
        let root_dir = if root.is_dir() {
            root.clone()
        } else {
            root.parent().unwrap().to_path_buf()
        };
        // Folders named so far, the latest first; and the last path found.
        let mut dirs = vec![root_dir.clone()];
        let mut last: Option<PathBuf> = Some(root.clone());
        for span in spans.iter().skip_while(|s| *s != first).skip(1) {
            if is_path(span) {
                let rel = span.trim_end_matches('/');
                let found = dirs
                    .iter()
                    .rev()
                    .map(|d| d.join(rel))
                    .chain([repo().join(rel), repo().join("src").join(rel)])
                    .find(|p| p.exists());
                match found {
                    Some(p) => {
                        if p.is_dir() {
                            dirs.push(p.clone());
                        }
                        last = Some(p);
                    }
                    None => {
                        missing.push(format!("`{span}` (in the bullet of `{first}`)"));
                        last = None;
                    }
                }
            } else if is_item(span)
                && let Some(at) = &last
                && at.starts_with(repo().join("src"))
            {
                let mut files = Vec::new();
                files_under(
                    if at.ends_with("mod.rs") {
                        at.parent().unwrap()
                    } else {
                        at
                    },
                    &mut files,
                );
                let defined = files
                    .iter()
                    .filter(|f| f.extension().is_some_and(|x| x == "rs"))
                    .any(|f| defines(&fs::read_to_string(f).unwrap(), span));
                if !defined {
                    let shown = at.strip_prefix(repo()).unwrap_or(at).display().to_string();
                    missing.push(format!("`{span}` is not defined in `{shown}`"));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md's code map names what is not there:\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_module_of_src_is_on_the_code_map() {
    let arch = read("ARCHITECTURE.md");
    let firsts: Vec<String> = bullets(&arch)
        .iter()
        .flat_map(|b| {
            spans(b)
                .into_iter()
                .filter(|s| is_path(s))
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect();
    let mut absent = Vec::new();
    for e in fs::read_dir(repo().join("src")).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().to_string();
        let named = if name.ends_with(".rs") {
            name.clone()
        } else {
            format!("{name}/")
        };
        if name != "lib.rs" && !firsts.contains(&named) {
            absent.push(named);
        }
    }
    absent.sort();
    assert!(
        absent.is_empty(),
        "modules the code map leaves out: {absent:?}"
    );
}

/// The pages a reader is sent to: the README, ARCHITECTURE.md and docs/.
fn pages() -> Vec<PathBuf> {
    let mut out = vec![repo().join("README.md"), repo().join("ARCHITECTURE.md")];
    let mut docs = Vec::new();
    files_under(&repo().join("docs"), &mut docs);
    out.extend(
        docs.into_iter()
            .filter(|p| p.extension().is_some_and(|x| x == "md")),
    );
    out
}

#[test]
fn pages_link_to_what_is_in_the_repository() {
    let root = repo().canonicalize().unwrap();
    let mut wrong = Vec::new();
    for page in pages() {
        let text = fs::read_to_string(&page).unwrap();
        let name = page
            .strip_prefix(&root)
            .unwrap_or(&page)
            .display()
            .to_string();
        // Markdown links: `](target)`, relative ones resolved from the page.
        for (at, _) in text.match_indices("](") {
            let rest = &text[at + 2..];
            let Some(end) = rest.find(')') else { continue };
            let target = rest[..end].split('#').next().unwrap_or("");
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let p = page.parent().unwrap().join(target);
            match p.canonicalize() {
                Ok(c) if c.starts_with(&root) => {}
                Ok(_) => wrong.push(format!("{name}: `{target}` is outside the repository")),
                Err(_) => wrong.push(format!("{name}: `{target}` does not exist")),
            }
        }
        // Paths written as code that leave the repository.
        for span in spans(&text) {
            if span.starts_with("../") && !span.contains(' ') {
                let p = page.parent().unwrap().join(span);
                let inside = p
                    .canonicalize()
                    .map(|c| c.starts_with(&root))
                    .unwrap_or_else(|_| {
                        // Not there: resolved by hand, `..` by `..`.
                        let mut depth = page
                            .strip_prefix(&root)
                            .map_or(0, |r| r.components().count() - 1)
                            as i64;
                        for c in Path::new(span).components() {
                            depth += match c {
                                std::path::Component::ParentDir => -1,
                                _ => 1,
                            };
                            if depth < 0 {
                                return false;
                            }
                        }
                        true
                    });
                if !inside {
                    wrong.push(format!("{name}: `{span}` is outside the repository"));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
