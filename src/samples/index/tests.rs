//! The index's queries against the walks they replace, at every cutoff.

use super::*;

/// Ten days of the family apartment with the shop's stock for them, as
/// `hearth generate` lives it: things come in, are used up and binned.
fn ten_days() -> (Scene, Vec<Event>) {
    let src = crate::scene::BUILTIN[0].1;
    let base = crate::scene::parse("family_apartment", src).expect("it parses");
    let scene = crate::generation::scripted::provision(&base, 10, crate::catalogue::builtin());
    let events = crate::samples::sweep::lived(&scene, 10, 5);
    (scene, events)
}

/// Cutoffs through the trace, in order, as a sweep goes.
fn cutoffs(events: &[Event]) -> impl Iterator<Item = u64> {
    (1..=events.len() as u64 + 1).step_by(61)
}

#[test]
fn a_kept_scan_finds_what_a_walk_back_finds_at_every_cutoff() {
    let (scene, events) = ten_days();
    let (swept, asked_once) = (Index::new(&scene, &events), Index::new(&scene, &events));
    let people: Vec<&Id> = (scene.actors.iter())
        .filter(|a| a.lives_here())
        .map(|a| &a.id)
        .collect();
    let mut keys: Vec<&Key> = (swept.tables.seen.keys())
        .filter(|k| k.1.as_str() == "location")
        .collect();
    keys.sort();
    let mut shared = 0;
    for c in cutoffs(&events) {
        for key in &keys {
            let seen = swept.seen_before(key, c);
            for p in &people {
                let walk = (seen.iter())
                    .rposition(|s| perceived_in(swept.event(s.event).expect("indexed"), p, key));
                assert_eq!(swept.scan_shared(seen, p, key), walk, "{key:?} {p} at {c}");
                // Kept or not, the same answer.
                assert_eq!(swept.last_shared(seen, p, key), walk);
                assert_eq!(asked_once.last_shared(seen, p, key), walk);
                shared += usize::from(walk.is_some());
            }
        }
    }
    // A sweep back to an earlier cutoff reads the kept scan.
    let (key, p) = (keys[0], people[0]);
    let early = swept.seen_before(key, 200);
    let walk =
        (early.iter()).rposition(|s| perceived_in(swept.event(s.event).expect("indexed"), p, key));
    assert_eq!(swept.scan_shared(early, p, key), walk);
    assert!(shared > 1000, "{shared} sights shared");
}

/// What the stock questions read is kept with the tables, for every
/// index over them, and worked out again once they grow: tables pushed
/// to each cutoff in turn, as a memory's are between questions, answer
/// as the whole trace's index does there.
#[test]
fn tables_kept_between_questions_work_their_stock_out_again_as_they_grow() {
    let (scene, events) = ten_days();
    let whole = Index::new(&scene, &events);
    let mut tables = Tables::new(Arc::new(initial_state(&scene)));
    let (mut binned, mut stock) = (0, 0);
    for c in cutoffs(&events) {
        let upto = events.partition_point(|e| e.id < c);
        for e in &events[tables.len()..upto] {
            tables.push(&whole.robot, e);
        }
        let ix = Index::over(&scene, &events[..upto], &tables);
        for o in &scene.objects {
            assert_eq!(
                ix.binned(&o.id, c),
                whole.binned(&o.id, c),
                "{} at {c}",
                o.id
            );
            binned += usize::from(ix.binned(&o.id, c));
        }
        for kind in whole.stockroom().kinds.keys() {
            let seen = |ix: &Index| -> Vec<(Id, Option<(u64, bool)>)> {
                (ix.stock_seen(kind, c).map(|t| (t.id.clone(), t.since(c)))).collect()
            };
            assert_eq!(seen(&ix), seen(&whole), "{kind} at {c}");
            stock += seen(&ix).len();
            // And the latest seen come in, or go in a bin.
            let went = |ix: &Index| {
                let came = ix.stock_came_in(kind, c).map(|(e, door)| (e.id, door));
                (came, ix.stock_binned(kind, c).map(|e| e.id))
            };
            assert_eq!(went(&ix), went(&whole), "{kind} at {c}");
        }
    }
    assert!(binned > 0 && stock > 0, "{binned} binned, {stock} stock");
}

/// The latest thing of a kind seen to come in (or go in a bin), as
/// searched for among every sight of one, is the latest of each
/// thing's own, walked thing by thing (the later in scene order of two
/// in one event), at every cutoff, for every kind, for the robot and
/// for an observer of every event (who sees things carried in).
#[test]
fn a_kinds_latest_come_in_or_binned_is_the_latest_of_its_things() {
    let (scene, events) = ten_days();
    let robot = Index::new(&scene, &events);
    let everything = Index::all_seeing(&scene, &events, robot.tables.initial.clone());
    let (mut came, mut bag, mut binned) = (0, 0, 0);
    for ix in [&robot, &everything] {
        let t = &ix.tables;
        let bins = &ix.stockroom().bins;
        // Each thing's: the last it was seen carried in before `c`,
        // else its first sight in a bag; the last placing in a bin.
        let came_in = |o: &Id, c: u64| {
            let came = t.came_in.get(o).map_or(&[][..], Vec::as_slice);
            match came.iter().rfind(|e| **e < c) {
                Some(e) => Some((*e, true)),
                None => t
                    .first_in_bag
                    .get(o)
                    .filter(|e| **e < c)
                    .map(|e| (*e, false)),
            }
        };
        let thrown = |o: &Id, c: u64| {
            (bins.iter())
                .filter_map(|b| t.placed_on.get(&(o.clone(), b.clone())))
                .flat_map(|l| l.iter().filter(|e| **e < c))
                .max()
                .copied()
        };
        for c in (1..=events.len() as u64 + 1).step_by(37) {
            for kind in ix.stockroom().kinds.keys() {
                let things = || ix.stock_seen(kind, c);
                let walked_in = (things())
                    .filter_map(|s| came_in(&s.id, c).map(|(e, door)| ((e, s.pos), door)))
                    .max()
                    .map(|((e, _), door)| (e, door));
                let walked_bin = (things())
                    .filter_map(|s| Some((thrown(&s.id, c)?, s.pos)))
                    .max()
                    .map(|(e, _)| e);
                let found_in = ix.stock_came_in(kind, c).map(|(e, door)| (e.id, door));
                assert_eq!(found_in, walked_in, "{kind} at {c}");
                assert_eq!(
                    ix.stock_binned(kind, c).map(|e| e.id),
                    walked_bin,
                    "{kind} at {c}"
                );
                match walked_in {
                    Some((_, true)) => came += 1,
                    Some((_, false)) => bag += 1,
                    None => {}
                }
                binned += usize::from(walked_bin.is_some());
            }
        }
    }
    assert!(
        came > 0 && bag > 0 && binned > 0,
        "{came} came in, {bag} in a bag, {binned} binned"
    );
}

#[test]
fn thrown_out_and_come_in_are_what_the_sightings_say() {
    let (scene, events) = ten_days();
    let ix = Index::new(&scene, &events);
    let room = ix.stockroom();
    let location = Id::new("location");
    let (mut binned, mut turned) = (0, 0);
    for c in cutoffs(&events) {
        for o in &scene.objects {
            let key = (o.id.clone(), location.clone());
            let thrown = (ix.places_before(&key, c).iter()).any(|p| room.in_bin(&p.value));
            assert_eq!(ix.binned(&o.id, c), thrown, "{} at {c}", o.id);
            binned += usize::from(thrown);
        }
        for (kind, things) in &room.kinds {
            // Seen by the cutoff: where it is, or how much is left.
            let seen =
                |o: &Id, attr: &str| !ix.seen_before(&(o.clone(), Id::new(attr)), c).is_empty();
            let expected: Vec<&Id> = (things.iter())
                .filter(|o| seen(o, "location") || seen(o, LEVEL))
                .collect();
            let found: Vec<&StockThing> = ix.stock_seen(kind, c).collect();
            // In the order first seen; each at its place in the kind.
            assert!(found.is_sorted_by_key(|t| (t.first, t.pos)));
            assert!(found.iter().all(|t| things[t.pos] == t.id));
            let mut in_scene_order = found.clone();
            in_scene_order.sort_by_key(|t| t.pos);
            let ids: Vec<&Id> = in_scene_order.iter().map(|t| &t.id).collect();
            assert_eq!(ids, expected);
            // Since when in the house or gone: the first of the last
            // run of sights alike, gone for good once seen in a bin.
            for t in &found {
                let placed = ix.seen_before(&(t.id.clone(), location.clone()), c);
                let gone: Vec<bool> = (0..placed.len())
                    .map(|i| {
                        room.gone(&placed[i].value)
                            || placed[..=i].iter().any(|s| room.in_bin(&s.value))
                    })
                    .collect();
                let since = gone.last().map(|&last| {
                    let run = gone.iter().rposition(|g| *g != last);
                    (placed[run.map_or(0, |i| i + 1)].event, last)
                });
                assert_eq!(t.since(c), since, "{} at {c}", t.id);
                turned += usize::from(since.is_some_and(|(e, _)| e > placed[0].event));
            }
        }
    }
    assert!(binned > 0 && turned > 0, "{binned} binned, {turned} turned");
}

/// One person's doing of an act, read from their own list, is
/// everyone's doing of it by that person; and no one's for an act they
/// never did, as whether they did it says.
#[test]
fn doing_by_one_person_is_everyones_doing_by_them() {
    let (scene, events) = ten_days();
    let ix = Index::new(&scene, &events);
    let people: Vec<&Id> = scene.actors.iter().map(|a| &a.id).collect();
    let (mut found, mut never) = (0, 0);
    for c in cutoffs(&events) {
        for (_, act) in ix.tables.acted.iter().step_by(7) {
            for p in &people {
                let own: Vec<u64> = ix.doing(Some(p), act, c).map(|e| e.id).collect();
                let all: Vec<u64> = (ix.doing(None, act, c))
                    .filter(|e| e.actor == **p)
                    .map(|e| e.id)
                    .collect();
                assert_eq!(own, all, "{p} {act:?} before {c}");
                // Whether they did it at all: a look through its values.
                assert_eq!(ix.did(p, act, c), !own.is_empty(), "{p} {act:?} before {c}");
                if own.is_empty() {
                    never += 1;
                } else {
                    found += 1;
                }
            }
        }
    }
    assert!(found > 0 && never > 0, "{found} found, {never} never");
}
