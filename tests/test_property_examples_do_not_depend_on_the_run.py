"""A derandomized property test draws the same examples whatever ran before it in its process (an
xdist worker runs what it is dealt, which depends on the machine's load): a full run and the test
alone judge the same cases. Nested runs that load this suite's conftest.py as a plugin."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from support.paths import ROOT

# The probe records the 150 strings it draws; the module run before it loads a module of distinctive
# literals (not a test file: Hypothesis counts it as the project's own code).
PROBE = '''
import os
from hypothesis import given, settings, strategies as st

@settings(max_examples=150, derandomize=True, database=None, deadline=None)
@given(st.text())
def test_probe(s):
    with open(os.environ["DRAWS"], "a", encoding="utf-8") as out:
        out.write(repr(s) + "\\n")
'''
LOADER = '''
import distinct_literals

def test_loads():
    assert distinct_literals.WORDS
'''


def _draws(tmp_path: Path, first: list[str], suite_conftest: bool) -> str:
    """What the probe drew in a nested run of ``first`` then the probe, one process."""
    (tmp_path / "test_zz_probe.py").write_text(PROBE)
    (tmp_path / "test_aa_loader.py").write_text(LOADER)
    words = ", ".join(repr(f"literal-{i}-ZQX") for i in range(400))
    (tmp_path / "distinct_literals.py").write_text(f"WORDS = [{words}]\n")
    draws = tmp_path / "draws.txt"
    draws.unlink(missing_ok=True)
    plugin = ["-p", "conftest"] if suite_conftest else []
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *plugin,
                           "-c", str(ROOT / "pyproject.toml"), "--rootdir", str(tmp_path),
                           f"--basetemp={tmp_path / 'temp'}", *[str(tmp_path / f) for f in first],
                           str(tmp_path / "test_zz_probe.py")],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          # Hypothesis's caches (its unicode tables, each module's literals) are the
                          # suite's own; a fresh folder would build them again (~3 s a run).
                          env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), str(tmp_path)]),
                               "DRAWS": str(draws), "HYPOTHESIS_STORAGE_DIRECTORY": str(ROOT / ".hypothesis")})
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return draws.read_text("utf-8")


@pytest.mark.e2e  # nested pytest runs of the suite's own plugin
def test_a_property_test_draws_the_same_cases_alone_and_after_another_module(tmp_path):
    alone = _draws(tmp_path, [], suite_conftest=True)
    assert alone.count("\n") == 150
    assert _draws(tmp_path, ["test_aa_loader.py"], suite_conftest=True) == alone


@pytest.mark.e2e
def test_without_the_suites_conftest_the_draw_depends_on_what_ran_before(tmp_path):
    # The control: the dependence the suite removes is real with this Hypothesis. Should this fail,
    # Hypothesis no longer mixes loaded modules' literals into its draws, and support/hypothesis_pool.py
    # can go.
    assert _draws(tmp_path, ["test_aa_loader.py"], suite_conftest=False) != _draws(tmp_path, [], suite_conftest=False)
