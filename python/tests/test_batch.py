"""Batches: households, samples, evaluation across them, data frames."""

import importlib.util

import pytest

import hearth


@pytest.fixture(scope="module")
def batch_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("batch")
    for seed in (0, 1):
        hearth.generate("studio", days=1, seed=seed, out=d / f"studio-s{seed}")
    (d / "unfinished").mkdir()
    return d


def test_households_and_samples(batch_dir):
    b = hearth.Batch(batch_dir)
    assert len(b) == 2 and b.settings is None
    rows = b.households()
    assert [r["trace"] for r in rows] == ["studio-s0", "studio-s1"]
    assert all(r["scene"] == "studio" and r["days"] == 1 and r["events"] > 0 for r in rows)
    samples = list(b.samples())
    assert {s["trace"] for s in samples} == {"studio-s0", "studio-s1"}
    assert (batch_dir / "studio-s1" / "samples.jsonl").exists()
    assert "2 traces" in repr(b)


def test_evaluation_across_households(batch_dir):
    r = hearth.Batch(batch_dir).evaluate(["oracle", "none"], resamples=50)
    assert [x["agent"] for x in r["reports"]] == ["oracle", "none"]
    assert len(r["reports"][0]["traces"]) == 2
    assert r["summary"] and "oracle" in str(r["summary"])
    again = hearth.Batch(batch_dir).evaluate(["oracle", "none"], resamples=50)
    assert again == r  # no wall clock in the results


def test_bad_batches(tmp_path):
    with pytest.raises(FileNotFoundError):
        hearth.Batch(tmp_path / "nowhere")
    with pytest.raises(hearth.HearthError, match="no finished traces"):
        hearth.Batch(tmp_path)
    (tmp_path / "batch.json").write_text("[1, 2")
    with pytest.raises(hearth.HearthError, match="not a batch record"):
        hearth.Batch(tmp_path)


HAVE_PANDAS = importlib.util.find_spec("pandas") is not None
HAVE_PYARROW = importlib.util.find_spec("pyarrow") is not None


@pytest.mark.skipif(not HAVE_PANDAS, reason="pandas is not installed")
def test_to_pandas(batch_dir):
    frame = hearth.Batch(batch_dir).to_pandas()
    assert set(frame["trace"]) == {"studio-s0", "studio-s1"}
    assert {"id", "family", "question", "answer_text", "cutoff_event"} <= set(frame.columns)
    assert len(frame) == len(list(hearth.Batch(batch_dir).samples()))


@pytest.mark.skipif(not (HAVE_PANDAS and HAVE_PYARROW), reason="pandas or pyarrow is not installed")
def test_to_parquet(batch_dir, tmp_path):
    import pandas

    path = hearth.Batch(batch_dir).to_parquet(tmp_path / "s.parquet")
    assert len(pandas.read_parquet(path)) == len(hearth.Batch(batch_dir).to_pandas())


@pytest.mark.skipif(HAVE_PANDAS, reason="pandas is installed")
def test_without_pandas_the_error_says_what_to_install(batch_dir, tmp_path):
    with pytest.raises(ImportError, match="pip install pandas"):
        hearth.Batch(batch_dir).to_pandas()
    with pytest.raises(ImportError, match="pip install pandas"):
        hearth.Batch(batch_dir).to_parquet(tmp_path / "s.parquet")
