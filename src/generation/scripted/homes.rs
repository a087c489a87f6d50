//! Where things are put away: strays back to their places, and the place
//! for a thing, alone or as one of several put away together (room
//! already claimed by the others counted).

use super::prelude::*;

impl Scripted {
    /// Things left where they do not belong (a laptop on the sofa, an
    /// apple on the coffee table) go back to their place, by the host:
    /// tidying up, and the last round before bed. A planned misplacement
    /// stays.
    pub(super) fn put_back_strays(&self, x: &Stage, turns: &mut Vec<Turn>) {
        for o in &x.s.objects {
            let Some(Location::On(at) | Location::In(at)) = x.sim.location(&o.id) else {
                continue;
            };
            let planned = self
                .misplacements
                .iter()
                .any(|m| m.object == o.id && m.at == at);
            if planned || self.belongs.fits(&o.id, &at) {
                continue;
            }
            // Its places all full now: to the first anyway, where room
            // may have been made by the time it gets there (glasses off
            // the desk at bedtime); else next to it.
            let Some(to) = self.home_of(x.sim, x.s, &o.id).or_else(|| {
                let home = self.belongs.homes(&o.id)?.first()?;
                Some(Dest::On(home.clone()))
            }) else {
                continue;
            };
            turns.push(turn(
                &x.host,
                Goal::Fetch {
                    object: o.id.clone(),
                    to,
                },
            ));
        }
    }

    /// Where `object` is put away: where it started, else the most typical
    /// place for its category, the first with room for it; when all of
    /// those are full on top, inside one of them (a nightstand's drawer).
    pub(super) fn home_of(&self, sim: &Simulation, s: Indexed<'_>, object: &Id) -> Option<Dest> {
        self.home_after(sim, s, object, &mut BTreeMap::new())
    }

    /// [`Self::home_of`] for one of several things put away together:
    /// `taken` counts the room each earlier one will take, and this one's
    /// is added.
    pub(super) fn home_after(
        &self,
        sim: &Simulation,
        s: Indexed<'_>,
        object: &Id,
        taken: &mut BTreeMap<Dest, u32>,
    ) -> Option<Dest> {
        let dest = self.home_with(sim, s, object, taken)?;
        *taken.entry(dest.clone()).or_default() += 1;
        Some(dest)
    }

    pub(super) fn home_with(
        &self,
        sim: &Simulation,
        s: Indexed<'_>,
        object: &Id,
        taken: &BTreeMap<Dest, u32>,
    ) -> Option<Dest> {
        let free = |home: &Id, inside: bool| {
            let d = if inside {
                Dest::In(home.clone())
            } else {
                Dest::On(home.clone())
            };
            sim.free_space(home, inside)
                .saturating_sub(taken.get(&d).copied().unwrap_or(0))
        };
        let start = s.object(object).map(|o| &o.at);
        let tops = surfaces(&s);
        let homes = self.belongs.homes(object)?;
        let inside_one = || {
            homes
                .iter()
                .find(|h| free(h, true) > 0)
                .map(|h| Dest::In(h.clone()))
        };
        homes.iter().find_map(|home| {
            let inside = match start {
                Some(Placement::In(at)) if at == home => true,
                Some(Placement::On(at)) if at == home => false,
                // Food that came in with the shopping goes into the fridge.
                _ if self.roles.has(object, Role::Perishable)
                    && self.roles.has(home, Role::ColdStorage) =>
                {
                    true
                }
                _ => !tops.contains(home),
            };
            let here = matches!(sim.location(object), Some(Location::On(l) | Location::In(l)) if &l == home);
            (here || free(home, inside) > 0).then(|| {
                if inside {
                    Dest::In(home.clone())
                } else {
                    Dest::On(home.clone())
                }
            })
        })
        .or_else(inside_one)
    }
}
