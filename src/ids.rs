//! Entity ids: the stable, human-readable names that scenes, requests and
//! traces use (`mug_2`, `fridge_1`, `alice`).

use std::borrow::Borrow;
use std::cell::RefCell;
use std::cmp::Ordering;
use std::collections::HashSet;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

/// A scene-wide unique id. Cheap to clone (shared string), ordered by its
/// text so that maps keyed by ids iterate deterministically.
///
/// Made once per thread for each text ([`Id::new`]): a trace names the
/// same few hundred ids tens of thousands of times, and each read as its
/// own string scattered them over the heap, so that comparing two of a
/// months-long trace went to memory. The same text is then mostly the same
/// string, compared by address first.
#[derive(Clone, Serialize)]
#[serde(transparent)]
pub struct Id(Arc<str>);

thread_local! {
    /// Every id made on this thread: a scene's names, a few hundred.
    static IDS: RefCell<HashSet<Arc<str>>> = RefCell::new(HashSet::new());
}

impl PartialEq for Id {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0 == other.0
    }
}

impl Eq for Id {}

impl Ord for Id {
    fn cmp(&self, other: &Self) -> Ordering {
        if Arc::ptr_eq(&self.0, &other.0) {
            Ordering::Equal
        } else {
            self.0.cmp(&other.0)
        }
    }
}

impl PartialOrd for Id {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// By the text, as `str` hashes: maps keyed by ids are looked up by `&str`.
impl Hash for Id {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

/// Read straight into the shared string (serde's `Arc<str>` goes through
/// a `String` first): a trace is mostly ids.
impl<'de> Deserialize<'de> for Id {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct IdVisitor;
        impl serde::de::Visitor<'_> for IdVisitor {
            type Value = Id;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an id (a string)")
            }
            fn visit_str<E>(self, s: &str) -> Result<Id, E> {
                Ok(Id::new(s))
            }
        }
        d.deserialize_str(IdVisitor)
    }
}

impl Id {
    pub fn new(s: &str) -> Self {
        IDS.with_borrow_mut(|ids| match ids.get(s) {
            Some(id) => Id(id.clone()),
            None => {
                let id: Arc<str> = Arc::from(s);
                ids.insert(id.clone());
                Id(id)
            }
        })
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Ids are lower-case ASCII letters, digits and `_`, starting with a
    /// letter: they appear in prompts, file names and Python code.
    pub fn is_well_formed(s: &str) -> bool {
        let mut chars = s.chars();
        matches!(chars.next(), Some(c) if c.is_ascii_lowercase())
            && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    }
}

impl std::ops::Deref for Id {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for Id {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", &*self.0)
    }
}

impl From<&str> for Id {
    fn from(s: &str) -> Self {
        Id::new(s)
    }
}

/// Edit distance, used to suggest the real id nearest to a mistyped or
/// invented one.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// Up to `n` candidates nearest to `wanted`, nearest first, ties by id.
pub fn nearest<'a>(
    wanted: &str,
    candidates: impl IntoIterator<Item = &'a Id>,
    n: usize,
) -> Vec<Id> {
    let mut scored: Vec<(usize, &Id)> = candidates
        .into_iter()
        .map(|c| (edit_distance(wanted, c.as_str()), c))
        .collect();
    scored.sort();
    scored.into_iter().take(n).map(|(_, c)| c.clone()).collect()
}

/// FNV-1a, 64 bits: a stable hash for seeding a stream per record or
/// keying an opaque id (the same on every platform and release, unlike
/// std's hasher).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn well_formed_ids() {
        assert!(Id::is_well_formed("mug_2"));
        assert!(!Id::is_well_formed("2mug"));
        assert!(!Id::is_well_formed("Mug"));
        assert!(!Id::is_well_formed(""));
        assert!(!Id::is_well_formed("mug-2"));
    }

    #[test]
    fn ids_read_from_strings_only() {
        let id: Id = serde_json::from_str(r#""mug_2""#).unwrap();
        assert_eq!(id, Id::new("mug_2"));
        // Escapes are read, as a string's.
        let id: Id = serde_json::from_str(r#""mug\u005f2""#).unwrap();
        assert_eq!(id.as_str(), "mug_2");
        let keyed: std::collections::BTreeMap<Id, u8> =
            serde_json::from_str(r#"{"b":2,"a":1}"#).unwrap();
        assert_eq!(keyed.keys().map(Id::as_str).collect::<Vec<_>>(), ["a", "b"]);
        let id: Id = ron::from_str(r#""fridge_1""#).unwrap();
        assert_eq!(id.as_str(), "fridge_1");
        assert!(serde_json::from_str::<Id>("3").is_err());
        assert!(serde_json::from_str::<Id>("null").is_err());
        assert_eq!(serde_json::to_string(&Id::new("a_b")).unwrap(), r#""a_b""#);
    }

    #[test]
    fn ids_of_one_text_are_one_string_and_compare_as_text() {
        let (a, b): (Id, Id) = (
            Id::new("mug_2"),
            serde_json::from_str(r#""mug_2""#).unwrap(),
        );
        assert!(Arc::ptr_eq(&a.0, &b.0));
        // Made on another thread, the same text is another string, and
        // still the same id, ordered and hashed as its text.
        let c = std::thread::spawn(|| Id::new("mug_2")).join().unwrap();
        assert!(!Arc::ptr_eq(&a.0, &c.0));
        assert_eq!(a, c);
        assert_eq!(a.cmp(&c), Ordering::Equal);
        assert!(Id::new("mug_10") < a && a < Id::new("mug_3"));
        let hash = |h: &dyn Fn(&mut std::hash::DefaultHasher)| {
            let mut s = std::hash::DefaultHasher::new();
            h(&mut s);
            s.finish()
        };
        assert_eq!(hash(&|s| c.hash(s)), hash(&|s| "mug_2".hash(s)));
        let set: HashSet<Id> = [a.clone()].into();
        assert!(set.contains("mug_2") && set.contains(&c));
    }

    #[test]
    fn nearest_prefers_small_edits() {
        let ids: Vec<Id> = ["mug_1", "mug_2", "bowl_1", "fridge_1"].map(Id::new).into();
        assert_eq!(
            nearest("mug_9", &ids, 2),
            vec![Id::new("mug_1"), Id::new("mug_2")]
        );
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
