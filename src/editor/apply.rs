//! How an edit applies: every command applied returns its inverse, and
//! undo is applying that inverse, so no scene is ever copied. Raw steps
//! and renames change the scene directly; a checked command is planned
//! into raw steps over an index of the scene as it stands, and those are
//! applied all or nothing.

use crate::catalogue::{self, Catalogue};
use crate::scene::index::SceneIndex;
use crate::scene::model::Scene;

use super::command::Edit;
use super::error::EditError;
use super::plan::plan;
use super::{raw, rename::rename};

impl Edit {
    /// Applies the edit, returning its inverse. On error the scene is
    /// unchanged. Fixtures from the catalogue use the built-in one.
    pub fn apply(self, scene: &mut Scene) -> Result<Edit, EditError> {
        self.apply_with(scene, catalogue::builtin())
    }

    pub fn apply_with(self, scene: &mut Scene, cat: &Catalogue) -> Result<Edit, EditError> {
        match self {
            Edit::Batch(edits) => {
                apply_all(scene, cat, edits).map_err(|(index, e)| EditError::InBatch {
                    index,
                    source: Box::new(e),
                })
            }
            Edit::Set { id, prop } => {
                let old = raw::set(scene, &id, prop)?;
                Ok(Edit::Set { id, prop: old })
            }
            Edit::Insert { entity, index } => raw::insert(scene, entity, index),
            Edit::Take { id } => raw::take(scene, &id),
            Edit::Rename { from, to } => rename(scene, from, to),
            Edit::SetSceneInfo {
                id,
                name,
                description,
            } => Ok(Edit::SetSceneInfo {
                id: std::mem::replace(&mut scene.id, id),
                name: std::mem::replace(&mut scene.name, name),
                description: std::mem::replace(&mut scene.description, description),
            }),
            checked => {
                let index = SceneIndex::new(scene);
                let steps = plan(index.over(scene), cat, checked)?;
                apply_all(scene, cat, steps).map_err(|(_, e)| e)
            }
        }
    }
}

/// Applies edits in order; on a failure, undoes the ones applied and says
/// which failed. The inverse undoes them in reverse order.
fn apply_all(
    scene: &mut Scene,
    cat: &Catalogue,
    edits: Vec<Edit>,
) -> Result<Edit, (usize, EditError)> {
    let mut inverses = Vec::with_capacity(edits.len());
    for (i, e) in edits.into_iter().enumerate() {
        match e.apply_with(scene, cat) {
            Ok(inv) => inverses.push(inv),
            Err(err) => {
                for inv in inverses.into_iter().rev() {
                    // Inverses are raw edits of what was just changed.
                    inv.apply_with(scene, cat)
                        .expect("the inverse of an applied edit applies");
                }
                return Err((i, err));
            }
        }
    }
    inverses.reverse();
    Ok(match inverses.len() {
        1 => inverses.pop().expect("one inverse"),
        _ => Edit::Batch(inverses),
    })
}
