//! One way down: every module of `src/` (and the Python package's bindings,
//! `python/src`) imports only from the layers below its own, as
//! `ARCHITECTURE.md` lists them, and no file imports, directly or through
//! others, a file that imports it: a module's `mod.rs` is a file like the
//! others, so a child that uses what its face defines and a face that uses
//! its child are a loop. Read from the source: the `use` items and the
//! paths written inline (`crate::`, `super::`, `hearth::` in the binary
//! and the bindings, a declared child module's name), with comments,
//! strings and `#[cfg(test)]` modules left out.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The layers of ARCHITECTURE.md's "Layers" list, bottom first: each item
/// names its modules in backticks before its dash.
fn layers(architecture: &str) -> Vec<Vec<String>> {
    let section = architecture
        .split("\n## ")
        .find(|s| s.starts_with("Layers"))
        .expect("ARCHITECTURE.md has a \"## Layers\" section");
    section
        .lines()
        .filter_map(|l| {
            let (num, rest) = l.split_once(". ")?;
            num.trim().parse::<usize>().ok()?;
            let names = rest.split(" — ").next()?;
            Some(
                names
                    .split('`')
                    .skip(1)
                    .step_by(2)
                    .map(str::to_string)
                    .collect(),
            )
        })
        .collect()
}

/// `src` with comments, string and char literals blanked out.
fn code_only(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if src[i..].starts_with("//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if src[i..].starts_with("/*") {
            let mut depth = 0;
            while i < b.len() {
                if src[i..].starts_with("/*") {
                    depth += 1;
                    i += 2;
                } else if src[i..].starts_with("*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c == b'r'
            && (src[i + 1..].starts_with('"') || src[i + 1..].starts_with("#"))
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
        {
            let hashes = src[i + 1..].bytes().take_while(|&h| h == b'#').count();
            if src[i + 1 + hashes..].starts_with('"') {
                let close = format!("\"{}", "#".repeat(hashes));
                let body = i + 2 + hashes;
                let end = src[body..]
                    .find(&close)
                    .map_or(b.len(), |e| body + e + close.len());
                out.push_str("\"\"");
                i = end;
            } else {
                out.push('r');
                i += 1;
            }
        } else if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == b'\'' {
            // A char literal ('x', '\n', '\''), or a lifetime ('a): left as is.
            let lit = if src[i + 1..].starts_with('\\') {
                src[i + 2..].find('\'').map(|e| i + 3 + e)
            } else {
                let ch = src[i + 1..].chars().next().map_or(1, char::len_utf8);
                src[i + 1 + ch..].starts_with('\'').then_some(i + 2 + ch)
            };
            match lit {
                Some(end) => {
                    out.push_str("' '");
                    i = end;
                }
                None => {
                    out.push('\'');
                    i += 1;
                }
            }
        } else {
            let ch = src[i..].chars().next().unwrap();
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// `code` without its `#[cfg(test)]` items (tests may reach anywhere).
fn without_tests(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        // The item ends at its `;` or at the brace closing its first `{`.
        let (semi, brace) = (after.find(';'), after.find('{'));
        let end = match (semi, brace) {
            (Some(s), Some(b)) if s < b => s + 1,
            (_, Some(b)) => {
                let mut depth = 0;
                let mut end = after.len();
                for (k, ch) in after[b..].char_indices() {
                    match ch {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = b + k + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                end
            }
            (Some(s), None) => s + 1,
            (None, None) => after.len(),
        };
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// The paths of a `use` tree such as `a::{b, c::{d as e}}`.
fn expand(prefix: &[String], tree: &str, out: &mut Vec<Vec<String>>) {
    let tree = tree.trim();
    if let Some(open) = tree.find('{') {
        let mut base = prefix.to_vec();
        base.extend(segments(&tree[..open]));
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let (mut depth, mut start) = (0, 0);
        for (k, ch) in inner.char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(&base, &inner[start..k], out);
                    start = k + 1;
                }
                _ => {}
            }
        }
        expand(&base, &inner[start..], out);
    } else if !tree.is_empty() {
        let mut p = prefix.to_vec();
        p.extend(segments(tree.split(" as ").next().unwrap_or(tree)));
        out.push(p);
    }
}

fn segments(path: &str) -> Vec<String> {
    path.split("::")
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

fn ident_at(s: &str, at: usize) -> bool {
    at == 0 || {
        let c = s.as_bytes()[at - 1];
        !(c.is_ascii_alphanumeric() || c == b'_' || c == b':')
    }
}

/// Every path of `code` that starts at one of `roots`: the `use` items'
/// and those written inline.
fn paths(code: &str, roots: &BTreeSet<String>) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut inline = String::new();
    let mut rest = 0;
    for (at, _) in code.match_indices("use ") {
        if !ident_at(code, at) || at < rest {
            continue;
        }
        let end = code[at..].find(';').map_or(code.len(), |e| at + e);
        expand(&[], &code[at + 4..end], &mut out);
        inline.push_str(&code[rest..at]);
        rest = end;
    }
    inline.push_str(&code[rest..]);
    let code = inline.as_str();
    for root in roots {
        let pat = format!("{root}::");
        for (at, _) in code.match_indices(&pat) {
            // `pub(in super::super)` names where a thing is seen, not a use.
            if !ident_at(code, at) || code[..at].ends_with("(in ") {
                continue;
            }
            let len = code[at..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(code.len() - at);
            out.push(segments(&code[at..at + len]));
        }
    }
    out.retain(|p| p.first().is_some_and(|r| roots.contains(r)));
    out
}

/// A source file: its crate (`lib`, the binary `bin`, or the bindings
/// `py`), its module path, and its code without tests.
struct File {
    rel: String,
    krate: &'static str,
    module: Vec<String>,
    code: String,
    children: BTreeSet<String>,
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The files of `src/` (`rel` from it: `samples/index.rs`), then those of
/// `python/src` (`rel` from `python/`: `python/src/agent.rs`, whose top
/// module is `python`).
fn files() -> Vec<File> {
    let mut found = Vec::new();
    for dir in ["src", "python/src"] {
        let mut these = Vec::new();
        collect(&repo().join(dir), &mut these);
        these.sort();
        found.extend(these.into_iter().map(|p| (dir, p)));
    }
    found
        .into_iter()
        .map(|(dir, p)| {
            let base = repo().join(dir);
            let inner = p
                .strip_prefix(&base)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let mut module: Vec<String> = inner
                .trim_end_matches(".rs")
                .split('/')
                .map(str::to_string)
                .collect();
            let (rel, krate) = if dir == "python/src" {
                (format!("python/src/{inner}"), "py")
            } else if module[0] == "cli" {
                module.remove(0);
                (inner, "bin")
            } else {
                (inner, "lib")
            };
            if matches!(
                module.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                module.pop();
            }
            let code = without_tests(&code_only(&fs::read_to_string(&p).unwrap()));
            let children = code
                .match_indices("mod ")
                .filter(|(at, _)| ident_at(&code, *at))
                .filter_map(|(at, _)| {
                    let rest = &code[at + 4..];
                    let name: String = rest
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    rest[name.len()..]
                        .trim_start()
                        .starts_with(';')
                        .then_some(name)
                })
                .collect();
            File {
                rel,
                krate,
                module,
                code,
                children,
            }
        })
        .collect()
}

/// Each file's imports, as the files they land in (`(crate, module)` keys
/// resolved to the longest module path that is a file).
fn imports(files: &[File]) -> BTreeMap<String, BTreeSet<String>> {
    let by_module: BTreeMap<(&str, &[String]), &str> = files
        .iter()
        .map(|f| ((f.krate, f.module.as_slice()), f.rel.as_str()))
        .collect();
    let mut out = BTreeMap::new();
    for f in files {
        let mut roots: BTreeSet<String> = ["crate", "super", "self"].map(String::from).into();
        if f.krate != "lib" {
            roots.insert("hearth".into());
        }
        roots.extend(f.children.iter().cloned());
        let mut to = BTreeSet::new();
        for p in paths(&f.code, &roots) {
            let (krate, full): (&str, Vec<String>) = match p[0].as_str() {
                "crate" => (f.krate, p[1..].to_vec()),
                "hearth" => ("lib", p[1..].to_vec()),
                "self" => (f.krate, [f.module.clone(), p[1..].to_vec()].concat()),
                "super" => {
                    let ups = p.iter().take_while(|s| *s == "super").count();
                    let base = &f.module[..f.module.len().saturating_sub(ups)];
                    (f.krate, [base.to_vec(), p[ups..].to_vec()].concat())
                }
                _ => (f.krate, [f.module.clone(), p.clone()].concat()),
            };
            let target = (0..=full.len())
                .rev()
                .find_map(|k| by_module.get(&(krate, &full[..k])).map(|t| (k, t)));
            if let Some((_, t)) = target
                && *t != f.rel
            {
                to.insert(t.to_string());
            }
        }
        out.insert(f.rel.clone(), to);
    }
    out
}

/// The top-level module a file belongs to (`cli` for the binary, `python`
/// for the bindings).
fn top(rel: &str) -> String {
    let first = rel.split('/').next().unwrap();
    first.trim_end_matches(".rs").to_string()
}

#[test]
fn every_import_goes_down_the_layers() {
    let arch = fs::read_to_string(repo().join("ARCHITECTURE.md")).unwrap();
    let layers = layers(&arch);
    let layer_of: BTreeMap<String, usize> = layers
        .iter()
        .enumerate()
        .flat_map(|(i, ms)| ms.iter().map(move |m| (m.clone(), i)))
        .collect();
    assert_eq!(
        layer_of.len(),
        layers.iter().map(Vec::len).sum::<usize>(),
        "a module listed twice in ARCHITECTURE.md's layers: {layers:?}"
    );
    let files = files();
    let mut modules: BTreeSet<String> = files.iter().map(|f| top(&f.rel)).collect();
    modules.remove("lib");
    let listed: BTreeSet<String> = layer_of.keys().cloned().collect();
    assert_eq!(
        modules, listed,
        "ARCHITECTURE.md's layers must list every module of src/, and python"
    );
    let mut wrong = Vec::new();
    for (from, tos) in imports(&files) {
        let a = top(&from);
        if a == "lib" {
            continue;
        }
        for to in tos {
            let b = top(&to);
            if b != a && b != "lib" && layer_of[&b] >= layer_of[&a] {
                wrong.push(format!("{from} imports {to}: `{b}` is not below `{a}`"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports that go up or across:\n{}",
        wrong.join("\n")
    );
}

/// The front ends (`cli`, `python`) reach the library through one door:
/// `workflow` and what it re-exports (the binary's windows through `gui`
/// too, which sits above it); never a module below.
#[test]
fn front_ends_import_only_workflow() {
    let mut wrong = Vec::new();
    for (from, tos) in imports(&files()) {
        let a = top(&from);
        if a != "cli" && a != "python" {
            continue;
        }
        for to in tos {
            let b = top(&to);
            let door = b == a || b == "workflow" || (a == "cli" && b == "gui");
            if !door {
                wrong.push(format!(
                    "{from} imports {to}: a front end goes through `workflow`"
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn no_file_imports_what_imports_it() {
    let graph = imports(&files());
    // Depth-first search for a back edge; report the cycle it closes.
    fn visit<'a>(
        n: &'a str,
        g: &'a BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<&'a str, u8>,
        stack: &mut Vec<&'a str>,
        cycles: &mut Vec<String>,
    ) {
        state.insert(n, 1);
        stack.push(n);
        for m in g.get(n).into_iter().flatten() {
            match state.get(m.as_str()) {
                None => visit(m, g, state, stack, cycles),
                Some(1) => {
                    let at = stack.iter().position(|s| s == m).unwrap();
                    cycles.push(format!("{} -> {m}", stack[at..].join(" -> ")));
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(n, 2);
    }
    let (mut state, mut stack, mut cycles) = (BTreeMap::new(), Vec::new(), Vec::new());
    for n in graph.keys() {
        if !state.contains_key(n.as_str()) {
            visit(n, &graph, &mut state, &mut stack, &mut cycles);
        }
    }
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

/// The reader itself, on code written to break it.
#[test]
fn the_reader_finds_imports_and_skips_what_is_not_code() {
    let src = r##"
use crate::a::{b::{C, d as e}, f};
// use crate::commented::Out;
/* use crate::block::Out; */
let s = "crate::string::Out";
let r = r#"crate::raw::Out"#;
let c = '"'; let l: &'static str = "x";
fn g() { crate::inline::call(); super::up::it(); }
#[cfg(test)]
mod tests { use crate::test_only::X; }
"##;
    let code = without_tests(&code_only(src));
    let roots: BTreeSet<String> = ["crate", "super"].map(String::from).into();
    let found: BTreeSet<String> = paths(&code, &roots).iter().map(|p| p.join("::")).collect();
    let want: BTreeSet<String> = [
        "crate::a::b::C",
        "crate::a::b::d",
        "crate::a::f",
        "crate::inline::call",
        "super::up::it",
    ]
    .map(String::from)
    .into();
    assert_eq!(found, want);
    assert_eq!(
        layers(
            "x\n## Layers\n\n1. `a`, `b` — base\n2. `c` — on them\n\n## Next\n3. `z` — not here"
        ),
        vec![
            vec!["a".to_string(), "b".to_string()],
            vec!["c".to_string()]
        ]
    );
}
