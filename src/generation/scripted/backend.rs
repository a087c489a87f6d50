//! The scripted backend's stages of the pipeline: projects, day beats,
//! the day's sessions from the calendar, each session directed by its
//! kind's activity (`table.rs`), actors' steps, follow-up commitment
//! sessions, and the day's notes.

use super::calendar::Planned;
use super::outside;
use super::prelude::*;
use super::presence;
use super::table;

impl Backend for Scripted {
    fn name(&self) -> &str {
        "scripted"
    }

    fn projects(&mut self, cx: &Context) -> Result<Vec<Project>, GenError> {
        let s = cx.scene;
        let r = Arc::clone(&self.roles);
        let humans = &cx.humans;
        let first = humans.first().cloned().unwrap_or_else(|| cx.robot.clone());
        let second = humans.get(1).cloned().unwrap_or_else(|| first.clone());
        let last = humans.last().cloned().unwrap_or_else(|| first.clone());
        let ids = |xs: &[Option<&Id>]| {
            xs.iter()
                .flatten()
                .map(|i| (*i).clone())
                .collect::<Vec<_>>()
        };
        use MemoryTarget::*;
        use ProjectType::*;
        let end = cx.days;
        let deadline = end.clamp(1, 3);
        let mk = |n: usize,
                  kind,
                  title: String,
                  participants: Vec<Id>,
                  entities: Vec<Id>,
                  targets: Vec<MemoryTarget>,
                  start: u32,
                  end: u32,
                  constraints: Vec<String>| Project {
            id: format!("p{n}"),
            kind,
            title,
            participants,
            entities,
            memory_targets: targets,
            start_day: start,
            end_day: end,
            constraints,
        };
        let meds: Vec<Id> = r.objects(Role::Medicine).to_vec();
        let med_owner = medication(s, &r, humans)
            .map(|(owner, _)| owner)
            .unwrap_or_else(|| first.clone());
        let p = self.person(&first).name.clone();
        let mut projects = vec![
            mk(
                1,
                HouseholdRoutine,
                "Morning coffee and breakfast".into(),
                humans.clone(),
                ids(&[
                    r.device(Role::HotDrinks),
                    r.fixture(Role::DiningSurface)
                        .or(r.fixture(Role::PrepSurface)),
                ]),
                vec![Routine, ObjectLocation],
                1,
                end,
                vec!["breakfast between 06:30 and 08:00".into()],
            ),
            mk(
                2,
                RoutineSupport,
                format!("{}'s daily medication", self.person(&med_owner).name),
                vec![med_owner.clone(), cx.robot.clone()],
                meds,
                vec![TemporalState, Routine, SocialContext],
                1,
                end,
                vec!["medicine every morning around 08:30".into()],
            ),
            mk(
                3,
                HouseholdOrganization,
                "Putting things away".into(),
                humans.clone(),
                closed_containers(s),
                vec![ObjectLocation, HiddenState],
                1,
                end,
                vec![],
            ),
            mk(
                4,
                HealthLifestyle,
                "Comfortable temperature at night".into(),
                humans.clone(),
                ids(&[r.device(Role::Climate)]),
                vec![Preference, DeviceState],
                1,
                end,
                vec![],
            ),
            mk(
                5,
                MealPreparation,
                "Cooking dinner".into(),
                humans.clone(),
                ids(&[
                    r.device(Role::Cooking),
                    r.fixture(Role::ColdStorage),
                    r.device(Role::DishWashing),
                ]),
                vec![DeviceState, PlanningDependency, ObjectLocation],
                1,
                end,
                vec!["dishwasher runs after dinner".into()],
            ),
            mk(
                6,
                WorkStudySupport,
                format!("{}'s project deadline", self.person(&last).name),
                vec![last.clone(), cx.robot.clone()],
                self.person(&last)
                    .owned
                    .values()
                    .flatten()
                    .cloned()
                    .collect(),
                vec![PlanningDependency, TemporalState, ObjectLocation],
                1,
                deadline,
                vec![format!("due on day {deadline}")],
            ),
            mk(
                7,
                DigitalDeviceCoordination,
                "TV, lights and speaker".into(),
                vec![first.clone(), second.clone()],
                ids(&[
                    r.device(Role::Entertainment),
                    r.device(Role::Light),
                    r.device(Role::Audio),
                ]),
                vec![DeviceState, HiddenState],
                1,
                end,
                vec![],
            ),
            mk(
                8,
                FamilyComfort,
                format!("Evenings in with {p}"),
                humans.clone(),
                r.objects(Role::Comfort).to_vec(),
                vec![Preference, SocialContext],
                1,
                end,
                vec![],
            ),
        ];
        if let (Some(washer), Some(basket)) =
            (r.device(Role::Laundry), r.fixture(Role::LaundryBasket))
        {
            projects.push(mk(
                9,
                HouseholdRoutine,
                "Keeping up with the laundry".into(),
                humans.clone(),
                vec![washer.clone(), basket.clone()],
                vec![ObjectLocation, HiddenState, DeviceState, PlanningDependency],
                1,
                end,
                vec!["clothes are put away once the wash is done".into()],
            ));
        }
        Ok(projects)
    }

    fn day_beats(
        &mut self,
        _cx: &Context,
        projects: &[Project],
        day: u32,
    ) -> Result<Vec<DayBeat>, GenError> {
        let mut out = Vec::new();
        for p in projects {
            if day < p.start_day || day > p.end_day {
                continue;
            }
            let beat = if day == p.start_day {
                Beat::Established
            } else if day == p.end_day && p.kind == ProjectType::WorkStudySupport {
                Beat::Completed
            } else if self.rng.random_bool(0.15) {
                Beat::Interrupted
            } else if out
                .iter()
                .any(|b: &DayBeat| b.project == p.id && b.beat == Beat::Interrupted)
            {
                Beat::Recovered
            } else {
                Beat::Continued
            };
            let summary = format!("{}: {:?}", p.title, beat).to_lowercase();
            out.push(DayBeat {
                day,
                project: p.id.clone(),
                beat,
                summary,
            });
        }
        Ok(out)
    }

    fn sessions(
        &mut self,
        cx: &Context,
        projects: &[Project],
        beats: &[DayBeat],
        day: u32,
        _notes: Option<&DayNotes>,
    ) -> Result<Vec<Session>, GenError> {
        use SessionKind as K;
        let base = u64::from(day - 1) * DAY;
        // The scripted projects have fixed ids (see `projects`).
        let beat = |id: &str| {
            let p = projects.iter().find(|p| p.id == id)?;
            let b = beats.iter().find(|b| b.project == p.id).map(|b| b.beat);
            Some((p.id.clone(), b))
        };
        if self.difficulty.lookalikes > 0 {
            self.choose_kin();
        }
        let (today, mut plan) = self.plan_day(cx, day);
        // Today's parcel: brought by the courier (a delivery session), or,
        // where no courier calls, left on the doorstep.
        match today
            .delivery
            .and_then(|t| Some((t, self.doorstep.next_parcel()?)))
        {
            Some((t, parcel)) => match plan.iter_mut().find(|p| p.kind == K::Delivery) {
                Some(p) => p.params.parcel = Some(parcel),
                None => self.doorstep.leave(base + t, parcel),
            },
            None => plan.retain(|p| p.kind != K::Delivery),
        }
        self.calendar.today = today;
        // Commitments due today get a session per due time.
        let due = self.commitments.due_on(day);
        plan.extend(due.into_iter().map(|at| Planned::new(at, K::Commitment)));
        let away = self.away_blocks();
        plan.extend(away.iter().map(|b| Planned::new(b.0, K::RobotAway)));
        plan.extend(away.iter().map(|b| Planned::new(b.1, K::RobotBack)));
        self.away = away.iter().map(|b| (base + b.0, base + b.1)).collect();
        plan.sort_by_key(|p| p.at);
        let mut out = Vec::new();
        let mut last_start = base;
        for (i, p) in plan.into_iter().enumerate() {
            let kind = p.kind;
            let (pid, b) = match p.project.map(beat) {
                // A project this scene has no room for (no washing machine).
                Some(None) => continue,
                Some(Some((id, b))) => (Some(id), b),
                None => (None, None),
            };
            // A block away, a departure or an arrival starts on time: the
            // clock of the day is theirs, not the household's.
            let start = if matches!(
                kind,
                K::RobotAway
                    | K::RobotBack
                    | K::Leave
                    | K::Arrive
                    | K::Visit
                    | K::VisitEnd
                    | K::Delivery
                    | K::Repair
            ) {
                (base + p.at).max(last_start + M)
            } else {
                (base + p.at + self.jitter(20)).max(last_start + 5 * M)
            };
            last_start = start;
            let mut params = p.params;
            if kind == K::RobotAway
                && let Some(end) = self.away.iter().find(|b| b.0 == base + p.at).map(|b| b.1)
            {
                params.until = Some(Until::At(end));
            }
            if let Some(b) = b {
                params.beat = Some(b);
            }
            let participants = match kind.row().who {
                Who::Robot => vec![cx.robot.clone()],
                Who::Home => self.calendar.today.home_at(&cx.humans, p.at),
                Who::Named => params.who.iter().cloned().collect(),
            };
            if participants.is_empty() {
                continue;
            }
            out.push(Session {
                id: format!("d{day}s{:02}", i + 1),
                day,
                start,
                kind: kind.into(),
                project: pid,
                intent: kind.intent().into(),
                participants,
                params,
                turns: vec![],
                source: None,
                directed: None,
            });
        }
        for (n, s) in out.iter_mut().enumerate() {
            s.id = format!("d{day}s{:02}", n + 1);
        }
        Ok(out)
    }

    fn direct(
        &mut self,
        cx: &Context,
        session: &Session,
        sim: &Simulation,
    ) -> Result<Vec<Turn>, GenError> {
        let r = Arc::clone(&self.roles);
        let robot = &cx.robot;
        let interrupted = session.params.beat == Some(Beat::Interrupted);
        let established = session.params.beat == Some(Beat::Established);
        // Those at home now, by the calendar and in fact (a departure or
        // arrival that slipped behind a session is still to happen); with
        // nobody in, the robot's sessions still name the household (whose
        // commitments, whose things).
        // With nobody home by the calendar, whoever is in (a departure
        // slipped behind) hosts; with nobody in, the household is named.
        let inside: Vec<Id> = cx
            .humans
            .iter()
            .filter(|h| !sim.is_out(h))
            .cloned()
            .collect();
        let mut home = self.calendar.today.home_at(&cx.humans, session.start % DAY);
        home.retain(|h| inside.contains(h));
        let humans = match (home.is_empty(), inside.is_empty()) {
            (false, _) => home,
            (true, false) => inside,
            (true, true) => cx.humans.clone(),
        };
        if humans.is_empty() {
            return Ok(vec![]);
        }
        let mut turns = Vec::new();
        let host = humans[self.rng.random_range(0..humans.len())].clone();
        // Cooking, the wash and the weekly clean are a grown-up's, when
        // one is home (the same draw either way).
        let chore = matches!(
            session.kind.known(),
            Some(
                SessionKind::Cooking
                    | SessionKind::Laundry
                    | SessionKind::Vacuum
                    | SessionKind::Breakdown
            )
        );
        let adult = |h: &Id| self.calendar.adult(h);
        let host = match humans.iter().find(|h| adult(h)) {
            Some(a) if chore && !adult(&host) => a.clone(),
            _ => host,
        };
        // The morning's dusting is the retired person's, who is home all day.
        let host = match humans.iter().find(|h| self.retired(h)) {
            Some(r) if session.params.dust => r.clone(),
            _ => host,
        };
        let x = Stage {
            s: sim.lookup(),
            roles: &r,
            robot,
            humans,
            host,
            sim,
            session,
            cx,
            interrupted,
            established,
        };
        use SessionKind as K;
        let kind = session.kind.known();
        if let Some(k) = kind {
            table::activity(k).direct(self, &x, &mut turns)?;
        }
        // Nothing is fetched that is beyond the front door (food not yet
        // bought, a laptop left at work), except by who brings it in.
        if !matches!(kind, Some(K::Arrive | K::Delivery)) {
            turns.retain(|t| !matches!(&t.goal, Goal::Fetch { object, .. } if outside::outside_now(x.sim, object)));
        }
        // A device out of order is left alone until it is repaired (but
        // for finding it so).
        if let Some(broken) = self.repairs.out_of_order()
            && !matches!(kind, Some(K::Repair | K::Breakdown))
        {
            turns.retain(|t| !matches!(&t.goal, Goal::Operate { device, .. } if device == broken));
        }
        if kind != Some(K::RobotAway) && self.is_away(session.start) {
            // A meal's clearing up is the host's then.
            let meal = matches!(kind, Some(K::Breakfast | K::Lunch | K::Cooking));
            presence::without_robot(&mut turns, robot, meal.then_some(&x.host));
            // Nothing asked of it now reached it (kept, for unique ids, as failed).
            self.commitments.unheard(&session.id);
        }
        Ok(turns)
    }

    fn act(
        &mut self,
        cx: &Context,
        sim: &Simulation,
        turn: &Turn,
        progress: &TurnProgress,
    ) -> Result<Proposal, GenError> {
        let robot = turn.actor == cx.robot;
        let sloppy = self.rng.random_bool(if robot { 0.08 } else { 0.04 });
        Ok(errand::next_in(
            sim,
            Some(&self.belongs),
            &turn.actor,
            &turn.goal,
            progress,
            sloppy,
            robot,
        ))
    }

    fn follow_ups(
        &mut self,
        cx: &Context,
        after: &Session,
        _sim: &Simulation,
    ) -> Result<Vec<Session>, GenError> {
        let day_end = u64::from(after.day) * DAY;
        Ok(self
            .commitments
            .follow_ups(after.start, day_end)
            .into_iter()
            .map(|(at, n)| Session {
                id: format!("d{}c{n:02}", after.day),
                day: after.day,
                start: at,
                kind: SessionKind::Commitment.into(),
                project: None,
                intent: SessionKind::Commitment.intent().into(),
                participants: vec![cx.robot.clone()],
                params: SessionParams {
                    asked_in: Some(after.id.clone()),
                    ..SessionParams::default()
                },
                turns: vec![],
                source: None,
                directed: None,
            })
            .collect())
    }

    fn turn_done(&mut self, session: &Session, turn: &Turn, result: &Result<(), String>) {
        let kind = session.kind.known();
        if kind == Some(SessionKind::RobotTidy)
            && result.is_ok()
            && let Goal::Fetch { object, to } = &turn.goal
        {
            self.news.put(session.start, object.clone(), to.clone());
        }
        if kind != Some(SessionKind::Commitment) {
            return;
        }
        self.commitments
            .settle(&turn.goal, session.start, result.is_ok());
    }

    fn misplacements(&mut self) -> Vec<Misplacement> {
        self.misplacements.clone()
    }

    fn notes(
        &mut self,
        _cx: &Context,
        day: u32,
        events: &[Event],
        sim: &Simulation,
    ) -> Result<DayNotes, GenError> {
        let mut preferences = self.stated.clone();
        preferences.sort();
        preferences.dedup();
        Ok(DayNotes {
            preferences,
            commitments: self.commitments.all().to_vec(),
            ..day_notes(day, events, sim)
        })
    }
}

impl Scripted {
    /// The day as the calendar frames it, for a backend that writes
    /// sessions of its own ([`super::super::frame`]): the script's
    /// sessions of the day, from the projects and beats given (the
    /// script's own), and who is out when. Callers are out but for their
    /// visits.
    pub fn frame(
        &mut self,
        cx: &Context,
        projects: &[Project],
        beats: &[DayBeat],
        day: u32,
        notes: Option<&DayNotes>,
    ) -> Result<crate::generation::frame::Frame, GenError> {
        let sessions = self.sessions(cx, projects, beats, day, notes)?;
        let base = u64::from(day - 1) * DAY;
        let d = &self.calendar.today;
        let mut out: Vec<(Id, u64, u64)> = d
            .outs
            .iter()
            .map(|o| (o.who.clone(), base + o.leave, base + o.back.min(DAY)))
            .collect();
        for v in &cx.visitors {
            let mut from = base;
            let mut calls: Vec<(u64, u64)> = d
                .visits
                .iter()
                .filter(|(w, ..)| w == v)
                .map(|(_, a, l)| (base + a, base + l))
                .collect();
            calls.sort_unstable();
            for (a, l) in calls {
                out.push((v.clone(), from, a));
                from = l;
            }
            out.push((v.clone(), from, base + DAY));
        }
        let people: Vec<Id> = cx
            .humans
            .iter()
            .chain(&cx.visitors)
            .chain([&cx.robot])
            .cloned()
            .collect();
        Ok(crate::generation::frame::Frame::new(
            day, sessions, out, &people,
        ))
    }
}
