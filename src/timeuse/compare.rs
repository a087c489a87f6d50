//! The days against the reference bands: per activity, and per group of
//! people (workers, students, the retired; weekdays and weekends).

use std::collections::BTreeMap;

use serde::Serialize;

use super::day::PersonDay;
use super::reference::*;

/// Where a figure sits against its band.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    pub activity: Activity,
    /// Hours per person per day.
    pub hours: f64,
    pub band: Band,
    pub inside: bool,
}

/// Each banded activity's mean beside its band.
pub fn compare(mean_minutes: &BTreeMap<Activity, f64>, t: &TimeUse) -> Vec<Comparison> {
    t.bands
        .iter()
        .map(|(a, b)| {
            let hours = mean_minutes.get(a).copied().unwrap_or(0.0) / 60.0;
            Comparison {
                activity: *a,
                hours,
                band: *b,
                inside: (b.lo..=b.hi).contains(&hours),
            }
        })
        .collect()
}

/// A kind-and-day-type figure's mean over the person-days it covers,
/// beside its band.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupComparison {
    pub kind: String,
    /// `weekday` or `weekend`.
    pub days: String,
    pub figure: String,
    pub hours: f64,
    pub band: Band,
    pub inside: bool,
    pub person_days: usize,
}

/// Every banded figure of [`TimeUse::groups`] that has person-days.
pub fn compare_groups(days: &[PersonDay], t: &TimeUse) -> Vec<GroupComparison> {
    let mut out = Vec::new();
    for (kind, by_day) in &t.groups {
        for (daytype, figures) in by_day {
            let mine: Vec<&PersonDay> = (days.iter())
                .filter(|d| d.kind.as_deref() == Some(kind) && d.weekend == (daytype == "weekend"))
                .collect();
            if mine.is_empty() {
                continue;
            }
            for (figure, band) in figures {
                let total: f64 = mine.iter().filter_map(|d| d.figure(figure)).sum();
                let hours = total / mine.len() as f64 / 60.0;
                out.push(GroupComparison {
                    kind: kind.clone(),
                    days: daytype.clone(),
                    figure: figure.clone(),
                    hours,
                    band: *band,
                    inside: (band.lo..=band.hi).contains(&hours),
                    person_days: mine.len(),
                });
            }
        }
    }
    out
}
