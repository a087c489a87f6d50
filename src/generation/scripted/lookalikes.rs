//! The look-alike axis in use: a look-alike takes the owner of the first of
//! its kind, so a person owns several mugs or books alike. Each morning they
//! pick which of each they use that day, as people do, so the look-alikes
//! are moved, used and talked about like the originals rather than waiting
//! in a cupboard (where they would confuse no reader).

use super::prelude::*;

impl Scripted {
    /// Today's pick of each category a person owns more than one of, and
    /// their mug for the day among their own of its kind. Draws only from
    /// the axis's own stream.
    pub(super) fn choose_kin(&mut self) {
        for p in &mut self.people {
            p.today.clear();
            for (category, kin) in &p.owned {
                if kin.len() > 1 {
                    let pick = kin.choose(&mut self.kin).expect("two or more");
                    p.today.insert(category.clone(), pick.clone());
                }
            }
            if let Some(mug) = &p.mug
                && let Some(pick) = p
                    .owned
                    .iter()
                    .find(|(_, kin)| kin.contains(mug))
                    .and_then(|(c, _)| p.today.get(c))
            {
                p.mug = Some(pick.clone());
            }
        }
    }
}
