//! [`Document`]: a scene, the edits that made it, undo and redo, and the
//! problems of the current state.

use std::collections::VecDeque;

use thiserror::Error;

use crate::ids::Id;
use crate::scene::index::{Indexed, SceneIndex};
use crate::scene::model::Scene;
use crate::scene::validate::{Problem, validate};

use super::command::{Edit, Prop};
use super::error::EditError;

/// Undo steps kept by default; the oldest are dropped beyond it.
pub const UNDO_LIMIT: usize = 1000;

/// A scene being edited.
#[derive(Debug, Clone)]
pub struct Document {
    scene: Scene,
    /// Inverses of the applied steps, oldest first.
    undo: VecDeque<Edit>,
    /// Inverses of the undone steps, most recently undone last.
    redo: Vec<Edit>,
    limit: usize,
    /// Inverses collected while a group is open: one undo step at the end.
    group: Option<Group>,
    /// Counts every change, so "modified since save" survives undo/redo:
    /// each state reached gets a number, and saving remembers it.
    state: u64,
    next_state: u64,
    states: VecDeque<u64>,
    redo_states: Vec<u64>,
    saved: Option<u64>,
    problems: Vec<Problem>,
    /// The current scene's ids, rebuilt with `problems` after every change.
    index: SceneIndex,
}

/// An open group: the inverses so far, and what the last edit moved, so
/// that the next move of the same thing merges into it.
#[derive(Debug, Clone, Default)]
struct Group {
    inverses: Vec<Edit>,
    last: Option<(&'static str, Vec<Id>)>,
}

/// Why undo or redo did nothing.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum HistoryError {
    #[error("nothing to undo")]
    NothingToUndo,
    #[error("nothing to redo")]
    NothingToRedo,
    #[error("finish the open group first")]
    GroupOpen,
}

impl Document {
    /// A document for `scene`, counted as saved.
    pub fn new(scene: Scene) -> Self {
        Self::with_limit(scene, UNDO_LIMIT)
    }

    pub fn with_limit(scene: Scene, limit: usize) -> Self {
        let problems = validate(&scene);
        let index = SceneIndex::new(&scene);
        Document {
            scene,
            undo: VecDeque::new(),
            redo: Vec::new(),
            limit: limit.max(1),
            group: None,
            state: 0,
            next_state: 1,
            states: VecDeque::new(),
            redo_states: Vec::new(),
            saved: Some(0),
            problems,
            index,
        }
    }

    pub fn scene(&self) -> &Scene {
        &self.scene
    }

    /// The current scene with lookups by id.
    pub fn lookup(&self) -> Indexed<'_> {
        self.index.over(&self.scene)
    }

    pub fn into_scene(self) -> Scene {
        self.scene
    }

    /// Applies an edit as one undo step (or as part of the open group).
    /// On error nothing changes.
    ///
    /// In an open group, consecutive moves or resizes of the same thing
    /// (a drag, frame by frame) merge: the group keeps one inverse that
    /// restores every property the drag changed to its value before the
    /// drag, however many frames it took.
    pub fn apply(&mut self, edit: Edit) -> Result<(), EditError> {
        let key = edit.merge_key();
        let inverse = edit.apply(&mut self.scene)?;
        self.redo.clear();
        self.redo_states.clear();
        match &mut self.group {
            Some(group) => {
                let same = key.is_some() && group.last == key;
                group.last = key;
                match group.inverses.pop() {
                    Some(earlier) if same => match merge_sets(&earlier, &inverse) {
                        Some(merged) => group.inverses.push(merged),
                        None => group.inverses.extend([earlier, inverse]),
                    },
                    earlier => group.inverses.extend(earlier.into_iter().chain([inverse])),
                }
            }
            None => self.push_undo(inverse),
        }
        self.changed();
        Ok(())
    }

    /// Starts a group: the edits applied until [`Self::end_group`] are one
    /// undo step (one drag, one step). A group already open stays open.
    pub fn begin_group(&mut self) {
        self.group.get_or_insert_with(Group::default);
    }

    /// The inverse the next undo applies (what the last step changed).
    pub fn last_step(&self) -> Option<&Edit> {
        self.undo.back()
    }

    /// Closes the group; an empty group leaves no step.
    pub fn end_group(&mut self) {
        let Some(Group { mut inverses, .. }) = self.group.take() else {
            return;
        };
        if inverses.is_empty() {
            return;
        }
        inverses.reverse();
        let step = if inverses.len() == 1 {
            inverses.pop().expect("one")
        } else {
            Edit::Batch(inverses)
        };
        self.push_undo(step);
    }

    /// Undoes the last step.
    pub fn undo(&mut self) -> Result<(), HistoryError> {
        if self.group.is_some() {
            return Err(HistoryError::GroupOpen);
        }
        let inverse = self.undo.pop_back().ok_or(HistoryError::NothingToUndo)?;
        let state = self.states.pop_back().expect("a state per step");
        let (redo, was) = self.replay(inverse, state, "an inverse applies to its state");
        self.redo.push(redo);
        self.redo_states.push(was);
        Ok(())
    }

    /// Redoes the last undone step.
    pub fn redo(&mut self) -> Result<(), HistoryError> {
        if self.group.is_some() {
            return Err(HistoryError::GroupOpen);
        }
        let edit = self.redo.pop().ok_or(HistoryError::NothingToRedo)?;
        let state = self.redo_states.pop().expect("a state per step");
        let (inverse, was) = self.replay(edit, state, "a redo applies to its state");
        self.undo.push_back(inverse);
        self.states.push_back(was);
        Ok(())
    }

    /// Applies a step of the history, moving to `state`: its inverse, and
    /// the state it left.
    fn replay(&mut self, step: Edit, state: u64, why: &str) -> (Edit, u64) {
        let inverse = step.apply(&mut self.scene).expect(why);
        self.changed();
        (inverse, std::mem::replace(&mut self.state, state))
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Steps that can be undone.
    pub fn undo_depth(&self) -> usize {
        self.undo.len()
    }

    /// Whether the scene differs from the last saved (or opened) state.
    pub fn is_modified(&self) -> bool {
        self.saved != Some(self.state)
            || self.group.as_ref().is_some_and(|g| !g.inverses.is_empty())
    }

    /// Call after writing [`Self::scene`] to disk.
    pub fn mark_saved(&mut self) {
        self.saved = Some(self.state);
    }

    /// What is wrong with the scene now: `hearth scene check`'s rules,
    /// re-run after every change. Each names its offending id.
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// The problems of one entity (to outline it on the plan).
    pub fn problems_of<'a>(&'a self, id: &'a Id) -> impl Iterator<Item = &'a Problem> + 'a {
        self.problems
            .iter()
            .filter(move |p| p.id.as_ref() == Some(id))
    }

    fn push_undo(&mut self, inverse: Edit) {
        if self.undo.len() == self.limit {
            self.undo.pop_front();
            self.states.pop_front();
        }
        self.undo.push_back(inverse);
        self.states.push_back(self.state);
        self.state = self.next_state;
        self.next_state += 1;
    }

    fn changed(&mut self) {
        self.problems = validate(&self.scene);
        self.index = SceneIndex::new(&self.scene);
    }
}

/// One inverse doing what `earlier` and then `later` undo, applied as
/// `later` then `earlier`, when both only set properties: each property
/// once, to the value `earlier` restores if it restores it. `None` when
/// either does more than set properties.
fn merge_sets(earlier: &Edit, later: &Edit) -> Option<Edit> {
    fn sets(e: &Edit, out: &mut Vec<(Id, Prop)>) -> bool {
        match e {
            Edit::Set { id, prop } => {
                out.push((id.clone(), prop.clone()));
                true
            }
            Edit::Batch(es) => es.iter().all(|e| sets(e, out)),
            _ => false,
        }
    }
    let mut all = Vec::new();
    if !(sets(later, &mut all) && sets(earlier, &mut all)) {
        return None;
    }
    // The last set of each property is the value it ends with.
    let mut kept: Vec<Edit> = Vec::new();
    for (i, (id, prop)) in all.iter().enumerate() {
        let overridden = all[i + 1..]
            .iter()
            .any(|(id2, p2)| id2 == id && p2.name() == prop.name());
        if !overridden {
            kept.push(Edit::Set {
                id: id.clone(),
                prop: prop.clone(),
            });
        }
    }
    Some(match kept.len() {
        1 => kept.pop().expect("one"),
        _ => Edit::Batch(kept),
    })
}
