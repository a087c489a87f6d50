//! Hidden state: a current-state question whose answer is the last value
//! the robot saw, which may have changed out of its sight since, said so
//! (the current-state family asks it; its answer files it here). Asked of
//! the household, also a state the robot never saw at all.

use crate::generation::MemoryTarget;

use crate::samples::model::{Family, Query};

use super::family::QuestionFamily;

pub struct HiddenState;

impl QuestionFamily for HiddenState {
    fn family(&self) -> Family {
        Family::HiddenState
    }

    fn standing(&self) -> bool {
        true
    }

    fn memory_target(&self, _q: &Query) -> MemoryTarget {
        MemoryTarget::HiddenState
    }

    fn locomo_category(&self, _q: &Query) -> u8 {
        1
    }

    fn lme_type(&self, _q: &Query) -> &'static str {
        "knowledge-update"
    }
}
