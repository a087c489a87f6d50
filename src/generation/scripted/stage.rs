//! What every activity's director sees: the session and who is in it.

use crate::catalogue::Roles;
use crate::generation::{Context, Session};
use crate::ids::Id;
use crate::scene::Indexed;
use crate::sim::Simulation;

pub(super) struct Stage<'a> {
    pub s: Indexed<'a>,
    pub roles: &'a Roles,
    pub robot: &'a Id,
    pub humans: Vec<Id>,
    /// The human hosting the session (drawn per session).
    pub host: Id,
    pub sim: &'a Simulation,
    pub session: &'a Session,
    pub cx: &'a Context<'a>,
    pub interrupted: bool,
    pub established: bool,
}
