//! Cooking dinner, and the dishwasher asked for after dinner.

use super::*;

impl Scripted {
    pub(super) fn cooking(&mut self, x: &Stage, turns: &mut Vec<Turn>) -> Result<(), GenError> {
        let s = x.s;
        let r = x.roles;
        let robot = x.robot;
        let host = x.host.clone();
        let session = x.session;
        let Some(oven) = r.device(Role::Cooking).cloned() else {
            return Ok(());
        };
        let cook = host.clone();
        let counter = r.fixture(Role::PrepSurface).cloned();
        if let (Some(fridge), Some(counter)) = (r.fixture(Role::ColdStorage).cloned(), counter) {
            let food: Vec<Id> = s
                .objects
                .iter()
                .filter(|o| matches!(&o.at, Placement::In(f) if *f == fridge))
                .map(|o| o.id.clone())
                .collect();
            for o in food.choose_multiple(&mut self.rng, 2) {
                turns.push(turn(
                    &cook,
                    Goal::Fetch {
                        object: o.clone(),
                        to: Dest::On(counter.clone()),
                    },
                ));
            }
        }
        turns.push(turn(
            &cook,
            Goal::Operate {
                device: oven.clone(),
                field: Id::new("power"),
                value: Value::Bool(true),
            },
        ));
        let fields = s
            .devices
            .iter()
            .find(|d| d.id == oven)
            .map(|d| d.fields.clone())
            .unwrap_or_default();
        if let Some(FieldDef::Int { min, max, .. }) = fields.get("temperature") {
            let t = (self.rng.random_range(*min..=*max) / 10) * 10;
            turns.push(turn(
                &cook,
                Goal::Operate {
                    device: oven.clone(),
                    field: Id::new("temperature"),
                    value: Value::Int(t.clamp(*min, *max)),
                },
            ));
        }
        if let Some(FieldDef::Timer { max, .. }) = fields.get("timer") {
            let secs = (u64::from(*max).min(3600) / 600).max(1) * 600;
            turns.push(turn(
                &cook,
                Goal::Operate {
                    device: oven.clone(),
                    field: Id::new("timer"),
                    value: Value::Int(secs as i64),
                },
            ));
        }
        turns.push(turn(&cook, Goal::Wait { seconds: 900 }));
        turns.push(turn(
            &cook,
            Goal::Operate {
                device: oven,
                field: Id::new("power"),
                value: Value::Bool(false),
            },
        ));
        if let Some(dw) = r.device(Role::DishWashing).cloned() {
            let programs = match s
                .devices
                .iter()
                .find(|d| d.id == dw)
                .and_then(|d| d.fields.get("program"))
            {
                Some(FieldDef::Enum { options, .. }) => options.clone(),
                _ => vec![],
            };
            if let Some(program) = programs.choose(&mut self.rng).cloned() {
                let due = session.start + 2 * H + 30 * M;
                let text = format!(
                    "Robot, after dinner run the {} on {program}, please.",
                    kind_of(s, &dw)
                );
                let goal = Goal::Operate {
                    device: dw.clone(),
                    field: Id::new("program"),
                    value: Value::Text(program),
                };
                let claims = request_claim(&goal, due).into_iter().collect();
                self.commitments.push(Commitment {
                    id: format!("c{}", self.commitments.len() + 1),
                    by: cook.clone(),
                    asked_in: session.id.clone(),
                    due,
                    goal,
                    status: CommitmentStatus::Open,
                });
                turns.push(turn(&cook, say_claims(&[robot], text, claims)));
            }
        }
        Ok(())
    }
}
