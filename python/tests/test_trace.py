"""Generating traces, reading them, mining them: good input and bad."""

import json

import pytest

import hearth


def test_events_are_the_lines_of_events_jsonl(studio):
    lines = (studio.path / "events.jsonl").read_text().splitlines()
    events = list(studio.events())
    # The first line is the header; every other line is an event, as a dict.
    assert events == [json.loads(l) for l in lines[1:]]
    assert len(events) == len(studio) == studio.manifest["counts"]["events"] > 50
    assert [e["id"] for e in events] == list(range(1, len(events) + 1))
    it = studio.events()
    next(it)
    assert len(it) == len(events) - 1


def test_manifest_scene_and_plan(studio):
    m = studio.manifest
    assert m["scene"]["id"] == "studio" and m["days"] == 1 and m["seed"] == 0
    assert studio.scene.lstrip().startswith("Scene(") and "studio" in studio.scene
    assert studio.scene_dict["id"] == "studio"
    assert {r["id"] for r in studio.scene_dict["rooms"]} <= set(studio.scene.split('"'))
    plan = studio.plan
    assert isinstance(plan, dict) and plan
    assert studio.day(1) == list(studio.events())
    assert studio.day(2) == []
    assert "studio" in repr(studio)


def test_generation_is_deterministic_and_writes_where_asked(tmp_path, studio):
    t = hearth.generate("studio", days=1, seed=0, out=tmp_path / "again")
    assert t.path == tmp_path / "again"
    assert (t.path / "events.jsonl").read_bytes() == (studio.path / "events.jsonl").read_bytes()
    other = hearth.generate("studio", days=1, seed=1, out=tmp_path / "s1")
    assert list(other.events()) != list(studio.events())
    # An existing trace is replaced only with force.
    with pytest.raises(hearth.HearthError, match="already exists"):
        hearth.generate("studio", days=1, seed=0, out=tmp_path / "again")
    hearth.generate("studio", days=1, seed=2, out=tmp_path / "again", force=True)
    assert hearth.Trace(tmp_path / "again").manifest["seed"] == 2


def test_without_out_a_trace_goes_to_a_temporary_directory():
    t = hearth.generate("studio", days=1, seed=3)
    try:
        assert t.path.name == "studio-s3" and t.path.parent.name.startswith("hearth-")
        assert len(t) > 0
    finally:
        import shutil

        shutil.rmtree(t.path.parent)


def test_compressed_traces_read_the_same(tmp_path, studio):
    t = hearth.generate("studio", days=1, seed=0, out=tmp_path / "z", compress=True)
    assert (t.path / "events.jsonl.zst").exists() and not (t.path / "events.jsonl").exists()
    assert list(t.events()) == list(studio.events())


def test_difficulty_axes_and_generated_households(tmp_path):
    t = hearth.generate("studio", days=1, seed=0, out=tmp_path / "hard", robot_away=0.3, lookalikes=1, moves=2.0)
    d = t.manifest["difficulty"]
    assert d["robot_away"] == 0.3 and d["lookalikes"] == 1 and d["moves"] == 2.0
    g = hearth.generate("gen:4", days=1, out=tmp_path / "g", kind="studio")
    assert g.manifest["scene"]["id"] == "gen_studio_s4"
    mixed = hearth.generate("gen:4", days=1, out=tmp_path / "m")
    assert mixed.manifest["scene"]["id"].startswith("gen_")
    # A scene as RON text.
    ron = hearth.scene_generate("apartment", 7)
    assert hearth.scene_generate("apartment", 7) == ron
    r = hearth.generate(ron, days=1, out=tmp_path / "r")
    assert r.manifest["scene"]["id"] == "gen_apartment_s7"
    # The scene it ran on: the one given, with the shop's stock for its
    # days waiting outside (docs/generation.md, "Over the months").
    assert r.scene.startswith(ron[: ron.index("objects: [")])
    assert all(line in r.scene for line in ron.splitlines())
    assert "best before day" in r.scene and "best before day" not in ron


def test_bad_generation_input_raises(tmp_path):
    with pytest.raises(ValueError, match="built-in"):
        hearth.generate("no_such_scene", days=1, out=tmp_path / "x")
    with pytest.raises(ValueError, match="missing.ron"):
        hearth.generate(str(tmp_path / "missing.ron"), days=1, out=tmp_path / "x")
    with pytest.raises(hearth.HearthError, match="scene text"):
        hearth.generate("(rooms: [oops", days=1, out=tmp_path / "x")
    with pytest.raises(ValueError, match="lookalikes"):
        hearth.generate("studio", days=1, out=tmp_path / "x", lookalikes=9)
    with pytest.raises(ValueError, match="robot-away"):
        hearth.generate("studio", days=1, out=tmp_path / "x", robot_away=-1)
    with pytest.raises(ValueError, match="days"):
        hearth.generate("studio", days=0, out=tmp_path / "x")
    with pytest.raises(ValueError, match="castle"):
        hearth.generate("gen:1", days=1, out=tmp_path / "x", kind="castle")
    with pytest.raises(ValueError, match="gen:<seed>"):
        hearth.generate("gen:seven", days=1, out=tmp_path / "x")
    with pytest.raises(TypeError):
        hearth.generate("studio", days=1, out=tmp_path / "x", robots_away=0.1)
    with pytest.raises(ValueError, match="castle"):
        hearth.scene_generate("castle", 1)
    with pytest.raises(ValueError, match="rooms"):
        hearth.scene_generate("studio", 1, rooms=(9, 2))
    assert not (tmp_path / "x").exists()


def test_a_scene_file_that_fails_its_checks_says_where(tmp_path):
    ron = hearth.scene_generate("studio", 1)
    bad = ron.replace('id: "gen_studio_s1"', 'id: ""', 1)
    path = tmp_path / "bad.ron"
    path.write_text(bad)
    with pytest.raises(hearth.HearthError) as e:
        hearth.generate(str(path), days=1, out=tmp_path / "x")
    assert "bad.ron" in str(e.value)


def test_reading_what_is_not_a_trace(tmp_path):
    with pytest.raises(FileNotFoundError, match="no trace directory"):
        hearth.Trace(tmp_path / "nowhere")
    with pytest.raises(hearth.HearthError, match="not a trace"):
        hearth.Trace(tmp_path)
    (tmp_path / "manifest.json").write_text("{")
    with pytest.raises(hearth.HearthError, match="manifest.json"):
        hearth.Trace(tmp_path)
    assert issubclass(hearth.HearthError, Exception)


def test_samples_are_mined_once_and_read_after(trace):
    path = trace.path / "samples.jsonl"
    assert not path.exists()
    samples = trace.samples()
    assert path.exists() and samples
    lines = path.read_text().splitlines()
    assert samples == [json.loads(l) for l in lines[1:]]
    assert {s["kind"] for s in samples} <= {"qa", "plan"}
    assert all(s["cutoff"]["event"] <= len(trace) + 1 for s in samples)
    mtime = path.stat().st_mtime_ns
    assert trace.samples() == samples and path.stat().st_mtime_ns == mtime
    # Asked of the robot (the default is the household), into the same
    # file: refused, with the remedy.
    with pytest.raises(ValueError, match="household"):
        trace.samples(ask="robot")
    robot = trace.samples(ask="robot", file="robot.jsonl")
    assert robot and robot != samples
    with pytest.raises(ValueError, match="ask"):
        trace.samples(ask="everyone", file="x.jsonl")


def test_observations_are_what_the_robot_perceived(mined):
    events = {e["id"]: e for e in mined.events()}
    obs = mined.observations()
    assert 0 < len(obs) <= len(events)
    ids = [o["event"]["id"] for o in obs]
    assert ids == sorted(ids)
    for o in obs:
        assert set(o) == {"event", "text"} and o["text"]
        e = events[o["event"]["id"]]
        assert "robot" in e.get("observers", []) + e.get("revealed_to", [])
    cut = ids[len(ids) // 2]
    assert mined.observations(cutoff=cut) == [o for o in obs if o["event"]["id"] < cut]
    assert mined.observations(cutoff=0) == []
