//! Batches (`hearth batch`): many scenes × seeds into directories,
//! resumable and sharded, and what of one is finished. The work is
//! [`crate::jobs::batch`]'s; a front end reaches it here.

pub use crate::jobs::batch::{
    BatchError, BatchRecord, BatchSpec, Outcome, Progress, Shard, ShardStatus, execute, status,
};
