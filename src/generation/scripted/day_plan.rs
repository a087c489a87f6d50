//! The day's plan of sessions from its calendar (`calendar.rs`): who
//! leaves and comes back when, the calls, the rare events, and around them
//! the household's routine for those at home, weekdays and weekends apart,
//! chores on their days.

use crate::catalogue::schedules::{Destination, Weekday};

use super::calendar::{Calendar, Chore, Day, Planned};
use super::prelude::*;

impl Calendar {
    /// The day's sessions from its calendar: departures and returns, and
    /// around them the household's routine for those at home, weekdays
    /// and weekends apart, chores on their days.
    pub(super) fn day_plan(&mut self, cx: &Context, d: &Day, roles: &Roles) -> Vec<Planned> {
        use SessionKind as K;
        let humans = &cx.humans;
        let weekend = d.weekend();
        let late_night = matches!(d.weekday, Some(Weekday::Fri | Weekday::Sat));
        let anyone = |t: u64| !d.home_at(humans, t).is_empty();
        let adult_home = |t: u64, len: u64| {
            self.members
                .iter()
                .any(|m| m.role.adult && d.home_during(&m.id, t, t + len))
        };
        let mut plan = vec![];
        for o in &d.outs {
            if o.leave > 0 {
                plan.push(Planned::new(o.leave, K::Leave).of_who(&o.who).with(|p| {
                    p.to = Some(o.to);
                    p.back = Some(if o.back < DAY {
                        Back::At(Clock::of_secs(o.back))
                    } else {
                        Back::Later
                    });
                    p.take = Some(o.take.clone());
                }));
            }
            if o.back < DAY {
                plan.push(
                    Planned::new(o.back, K::Arrive)
                        .of_who(&o.who)
                        .with(|p| p.from = Some(o.to)),
                );
            }
        }
        if let Some((at, device, booked)) = &d.breakdown {
            plan.push(Planned::new(*at, K::Breakdown).with(|p| {
                p.device = Some(device.clone());
                p.repair = Some(Weekday::of_day(*booked, self.first_weekday));
            }));
        }
        if let Some((start, end)) = d.party {
            plan.push(Planned::new(start - 15 * M, K::Party).with(|p| p.until = Some(clock(end))));
            plan.push(Planned::new(end + 5 * M, K::PartyEnd));
        }
        if let Some((who, arrive, leave, device)) = &d.repair {
            plan.push(Planned::new(*arrive, K::Repair).of_who(who).with(|p| {
                p.device = Some(device.clone());
                p.until = Some(clock(*leave));
            }));
        }
        if let (Some(t), Some(courier)) = (d.delivery, self.courier()) {
            plan.push(Planned::new(t, K::Delivery).of_who(&courier));
        }
        for (who, arrive, leave) in &d.visits {
            plan.push(
                Planned::new(*arrive, K::Visit)
                    .of_who(who)
                    .with(|p| p.until = Some(clock(*leave))),
            );
            plan.push(Planned::new(*leave, K::VisitEnd).of_who(who));
        }
        let push_home = |plan: &mut Vec<Planned>, p: Planned| {
            if anyone(p.at) {
                plan.push(p);
            }
        };
        // Morning: up before the first to leave for work or school; later
        // at weekends (an early run does not get the house up: the runner
        // goes quietly).
        let first_leave = d
            .outs
            .iter()
            .filter(|o| o.leave > 0 && o.to.is_duty())
            .map(|o| o.leave)
            .min();
        let wake = if weekend {
            7 * H + 45 * M
        } else {
            6 * H + 30 * M
        };
        let wake = first_leave
            .map_or(wake, |l| wake.min(l.saturating_sub(55 * M)))
            .max(5 * H + 20 * M);
        push_home(&mut plan, Planned::of(wake, K::WakeUp, "p1"));
        let breakfast = wake + if weekend { 60 * M } else { 45 * M };
        push_home(&mut plan, Planned::of(breakfast, K::Breakfast, "p1"));
        let owner = medication(cx.scene, roles, humans).map(|(o, _)| o);
        let usual = if weekend {
            9 * H + 15 * M
        } else {
            8 * H + 30 * M
        };
        // The morning medicine, before its owner goes out.
        if let Some(at) = owner.and_then(|o| {
            [usual, breakfast + 10 * M, wake + 20 * M]
                .into_iter()
                .find(|t| d.home_during(&o, *t, t + 15 * M))
        }) {
            plan.push(Planned::of(at, K::Medication, "p2"));
        }
        // Work at home, and homework after school.
        let mut deadline = Some("p6");
        for who in &d.at_desk {
            let at = 9 * H + 30 * M + self.cal.random_range(0..=6) * 10 * M;
            if !d.is_out(who, at) {
                let mut p = Planned::new(at, K::Work).of_who(who);
                p.project = deadline.take();
                plan.push(p);
            }
        }
        if !weekend {
            for m in self.members.iter().filter(|m| m.role.id == "school_child") {
                let at = 16 * H + 45 * M + self.cal.random_range(0..=3) * 10 * M;
                if d.outs
                    .iter()
                    .any(|o| o.who == m.id && o.to == Destination::School)
                    && d.home_during(&m.id, at, at + 45 * M)
                {
                    plan.push(Planned::new(at, K::Work).of_who(&m.id));
                }
            }
        }
        // Chores on their days: by whoever is home, the robot when nobody is.
        if d.chores.contains(&Chore::Tidy) {
            let at = if weekend {
                [10 * H + 30 * M, 16 * H]
            } else {
                [17 * H + 30 * M, 19 * H + 30 * M]
            };
            match at.into_iter().find(|t| anyone(*t)) {
                Some(t) => plan.push(Planned::of(t, K::Tidy, "p3")),
                None => plan.push(Planned::new(at[0], K::RobotTidy)),
            }
        }
        // A retired person at home does the morning's housework (ATUS:
        // over two hours of household activities a day after 65, against
        // under two for all adults).
        let retiree_home = |t: u64| {
            self.members
                .iter()
                .any(|m| m.retired() && d.home_during(&m.id, t, t + 30 * M))
        };
        if retiree_home(10 * H + 45 * M) {
            plan.push(Planned::of(10 * H + 45 * M, K::Tidy, "p3").with(|p| p.dust = true));
        }
        // The robot alone at home tidies once in the longest quiet spell.
        let quiet: Vec<u64> = (9 * 4..17 * 4)
            .map(|q| q * 15 * M)
            .filter(|t| !anyone(*t) && !anyone(t + 45 * M))
            .collect();
        if let Some(t) = quiet.get(quiet.len() / 2) {
            plan.push(Planned::new(*t, K::RobotTidy));
        }
        if d.chores.contains(&Chore::Laundry) {
            let at = if weekend {
                vec![10 * H, 15 * H + 30 * M]
            } else {
                vec![9 * H + 30 * M, 15 * H + 30 * M, 19 * H + 30 * M]
            };
            if let Some(at) = at.into_iter().find(|t| adult_home(*t, 40 * M)) {
                plan.push(Planned::of(at, K::Laundry, "p9"));
            }
        }
        if d.chores.contains(&Chore::Vacuum) {
            let at = if weekend {
                vec![11 * H + 15 * M, 16 * H]
            } else {
                vec![14 * H, 19 * H]
            };
            if let Some(at) = at.into_iter().find(|t| anyone(*t)) {
                plan.push(Planned::new(at, K::Vacuum));
            }
        }
        let n = self.cal.random_range(1..=2);
        for _ in 0..n {
            let at = 9 * H + self.cal.random_range(0..=46) * 15 * M;
            if anyone(at) {
                plan.push(Planned::new(at, K::FindRequest));
            }
        }
        // Meals, free time, the evening.
        let lunch = if weekend { 13 * H } else { 12 * H + 30 * M };
        push_home(&mut plan, Planned::of(lunch, K::Lunch, "p5"));
        let free = if weekend {
            14 * H + 30 * M
        } else {
            13 * H + 15 * M
        };
        push_home(&mut plan, Planned::new(free, K::Leisure));
        let usual = if weekend { 17 * H + 45 * M } else { 18 * H };
        let cook = std::iter::once(usual)
            .chain((0..8).map(|q| usual + (q + 1) * 15 * M))
            .find(|t| adult_home(*t, 45 * M))
            .unwrap_or(usual);
        push_home(&mut plan, Planned::of(cook, K::Cooking, "p5"));
        let evening = (20 * H).max(cook + 105 * M);
        push_home(&mut plan, Planned::of(evening, K::Evening, "p8"));
        push_home(
            &mut plan,
            Planned::of(evening + 75 * M, K::RemoteDevices, "p7"),
        );
        let last_back = d
            .outs
            .iter()
            .filter(|o| o.back < DAY && o.back > 20 * H)
            .map(|o| o.back + 10 * M)
            .max()
            .unwrap_or(0);
        let night = if late_night { 22 * H + 45 * M } else { 22 * H };
        push_home(
            &mut plan,
            Planned::of(night.max(last_back).max(evening + 90 * M), K::Bedtime, "p4"),
        );
        plan
    }
}

/// The wire name of a destination (`work`).
/// A time of the day as a session's `until` (`HH:MM`).
fn clock(t: u64) -> Until {
    Until::Clock(Clock::of_secs(t))
}
