"""The previous-main column of the benchmarks (#34), on small real git repositories."""

from __future__ import annotations

import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
from benchmarks import previous, report, targets

Comparison, Figure, PreviousError = previous.Comparison, previous.Figure, previous.PreviousError

HERE = Path(__file__).resolve().parent
DAY1, DAY2 = "2026-11-25T10:00:00+00:00", "2026-11-26T18:00:00+00:00"


def _git(repo: Path, *args: str, when: str = DAY1) -> str:
    env = {
        "GIT_AUTHOR_DATE": when,
        "GIT_COMMITTER_DATE": when,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.org",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.org",
        "PATH": "/usr/bin:/bin",
    }
    out = subprocess.run(["git", *args], cwd=repo, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def _commit(repo: Path, source: str, when: str, message: str) -> str:
    lib = repo / "src" / "probe_lib"
    lib.mkdir(parents=True, exist_ok=True)
    (lib / "__init__.py").write_text(source)
    _git(repo, "add", "-A", when=when)
    _git(repo, "commit", "-q", "-m", message, when=when)
    return _git(repo, "rev-parse", "HEAD")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    path = tmp_path / "repo"
    path.mkdir()
    _git(path, "init", "-q", "-b", "main")
    return path


def _value() -> Figure:
    def read(s: dict[str, list[float]]) -> tuple[str, bool | None]:
        value = s["value"][0]
        return f"{value:.1f}", value >= 2

    return Figure("probe value", "≥ 2", read)


PROBE = Comparison("probe", "Probe", "bench_harness.probe:Probe", (_value(),), quick_rounds=4)


@pytest.fixture
def probe_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The probe measurement importable in the side processes; their log."""
    monkeypatch.setenv("PYTHONPATH", str(HERE.parent))
    log = tmp_path / "order.log"
    monkeypatch.setenv("PROBE_LOG", str(log))
    return log


def test_default_is_the_last_commit_before_the_newest_stop(repo: Path) -> None:
    _commit(repo, "VALUE = 0\n", DAY1, "first day")
    before_stop = _commit(repo, "VALUE = 1\n", "2026-11-25T11:00:00+00:00", "end of day one")
    _commit(repo, "VALUE = 2\n", DAY2, "day two")
    _commit(repo, "VALUE = 3\n", "2026-11-26T19:00:00+00:00", "more of day two")

    ref = previous.resolve("auto", repo)

    assert ref is not None
    assert ref.commit == before_stop
    assert "pause" in ref.how and "2026-11-25 11:00" in ref.how


def test_a_stop_tag_names_the_previous_main(repo: Path) -> None:
    tagged = _commit(repo, "VALUE = 0\n", DAY1, "one")
    _commit(repo, "VALUE = 1\n", "2026-11-25T11:00:00+00:00", "two")
    _git(repo, "tag", "stop-1", tagged)
    _commit(repo, "VALUE = 2\n", DAY2, "three")

    ref = previous.resolve("auto", repo)

    assert ref is not None and ref.commit == tagged and ref.how == "tag stop-1"


def test_explicit_ref_none_and_a_wrong_ref(repo: Path) -> None:
    first = _commit(repo, "VALUE = 0\n", DAY1, "one")
    _commit(repo, "VALUE = 1\n", DAY1, "two")

    assert previous.resolve("HEAD~1", repo) == previous.Ref(first, "--against HEAD~1")
    assert previous.resolve("none", repo) is None
    # No pause of six hours: no previous stop, and the table says why.
    assert previous.resolve("auto", repo) is None
    assert previous.why_no_ref("auto", repo) == "no earlier stop found"
    with pytest.raises(PreviousError, match="no-such-ref"):
        previous.resolve("no-such-ref", repo)


def test_each_side_runs_its_own_tree_interleaved(repo: Path, probe_env: Path) -> None:
    old = _commit(repo, "VALUE = 1\n", DAY1, "previous main")
    _commit(repo, "VALUE = 2\n", DAY2, "this tree")
    # Uncommitted work counts for this tree, not for the previous main.
    (repo / "src" / "probe_lib" / "__init__.py").write_text("VALUE = 3\n")

    result = previous.compare(PROBE, quick=True, ref=previous.Ref(old, "test"), root=repo)

    assert result.previous is not None and not result.previous.error
    assert result.previous.samples["value"] == [1.0] * 4
    assert result.this.samples["value"] == [3.0] * 4
    assert result.previous.samples["quick"] == [1.0]
    order = probe_env.read_text().splitlines()
    assert order[:2] == ["1 setup", "3 setup"]
    rounds = [line.split()[0] for line in order if " round " in line]
    assert rounds == ["1", "3", "3", "1", "1", "3", "3", "1"]
    assert sorted(order[-2:]) == ["1 close", "3 close"]
    table = previous.table(result)
    assert f"| previous main ({old[:7]}), quick sizes | this tree, quick sizes | met? |" in table
    assert "| probe value | ≥ 2 | 1.0 (missed) | 3.0 | met |" in table


def test_previous_main_at_quick_sizes_is_said_in_the_table(repo: Path, probe_env: Path) -> None:
    old = _commit(repo, "VALUE = 1\n", DAY1, "previous main")
    _commit(repo, "VALUE = 2\n", DAY2, "this tree")

    result = previous.compare(
        PROBE, quick=False, ref=previous.Ref(old, "test"), root=repo, previous_quick=True
    )

    assert result.previous is not None and result.previous.samples["quick"] == [1.0]
    assert result.this.samples["quick"] == [0.0]
    table = previous.table(result)
    assert f"previous main ({old[:7]}), quick sizes | this tree |" in table
    assert "at the quick sizes" in table


def test_a_previous_main_that_fails_leaves_this_tree_measured(repo: Path, probe_env: Path) -> None:
    old = _commit(repo, "NAME = 'no VALUE yet'\n", DAY1, "before the figure existed")
    _commit(repo, "VALUE = 2\n", DAY2, "this tree")

    result = previous.compare(PROBE, quick=True, ref=previous.Ref(old, "test"), root=repo)

    assert result.previous is not None and "AttributeError" in result.previous.error
    assert result.this.samples["value"] == [2.0] * 4
    assert "| probe value | ≥ 2 | failed: `AttributeError" in previous.table(result)


def test_outside_a_git_clone_the_column_says_n_a(tmp_path: Path, probe_env: Path) -> None:
    tree = tmp_path / "unpacked"
    (tree / "src" / "probe_lib").mkdir(parents=True)
    (tree / "src" / "probe_lib" / "__init__.py").write_text("VALUE = 2\n")

    ref = previous.resolve("auto", tree)
    why = previous.why_no_ref("auto", tree)
    result = previous.compare(PROBE, quick=True, ref=ref, root=tree, why_none=why)

    assert ref is None and why == "not a git clone"
    assert "| probe value | ≥ 2 | n/a (not a git clone) | 2.0 | met |" in previous.table(result)


def test_the_summary_lists_every_suites_figures(
    repo: Path, probe_env: Path, tmp_path: Path
) -> None:
    old = _commit(repo, "VALUE = 1\n", DAY1, "previous main")
    _commit(repo, "VALUE = 2\n", DAY2, "this tree")
    table = previous.table(
        previous.compare(PROBE, quick=True, ref=previous.Ref(old, "test"), root=repo)
    )
    doc = tmp_path / "benchmarks.md"
    first = report.section("alpha", "alpha's own numbers\n\n" + table, "cmd", 1)
    report.write({"alpha": first}, ["alpha", "beta"], doc=doc)
    # A later run of beta alone (--targets-only): alpha's rows stay in the summary.
    report.write({}, ["alpha", "beta"], figures={"beta": table.replace("alpha", "beta")}, doc=doc)

    text = doc.read_text()
    summary = text[text.index("## #34 targets") : text.index("<!-- /suite:targets -->")]
    assert "| alpha | probe value | ≥ 2 | 1.0 (missed) | 2.0 | met |" in summary
    assert "| beta | probe value | ≥ 2 | 1.0 (missed) | 2.0 | met |" in summary
    assert f"`{old[:7]}` (test)" in summary
    assert text.index("## #34 targets") < text.index("## alpha") < text.index("## beta")
    assert "alpha's own numbers" in text


@pytest.mark.skipif(not previous.in_clone(), reason="the benchmarks run outside a git clone")
def test_a_wrong_against_ref_stops_the_run_with_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from benchmarks.__main__ import main

    with pytest.raises(SystemExit) as stop:
        main(["--against", "no-such-ref-34", "--no-write"])

    assert stop.value.code == 2
    assert "--against no-such-ref-34: no such commit" in capsys.readouterr().err


def test_the_command_writes_a_suites_figures_and_the_summary(
    tmp_path: Path, probe_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from benchmarks.__main__ import main

    lib = tmp_path / "lib" / "probe_lib"
    lib.mkdir(parents=True)
    (lib / "__init__.py").write_text("VALUE = 2\n")
    monkeypatch.setenv("PYTHONPATH", f"{HERE.parent}:{lib.parent}")
    monkeypatch.setitem(targets.COMPARISONS, "secrets", replace(PROBE, suite="secrets"))
    doc = tmp_path / "benchmarks.md"
    monkeypatch.setattr(report, "DOC", doc)

    code = main(["--only", "secrets", "--targets-only", "--against", "none", "--write"])

    text = doc.read_text()
    assert code == 0
    assert "| secrets | probe value | ≥ 2 | n/a (--against none) | 2.0 | met |" in text
    assert "<!-- suite:secrets -->" in text and "<!-- figures:secrets -->" in text
