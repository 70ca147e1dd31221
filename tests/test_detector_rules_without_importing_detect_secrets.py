"""detect-secrets' regexes come from the harness's own table when the installed package is the one
the table was made from (its files hash to the table's digest), so a writer of evidence need not
import the package and the ``requests`` stack behind it; any other install is imported as before.
Either way the rules, and so every redacted byte, are what importing the package gives."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from harness import detector_patterns
from harness import detector_patterns_data as table
from harness.core.redact import compile_patterns, detector_sources

PY = sys.executable
# One secret of a kind only a detect-secrets plugin knows (the own patterns leave each alone).
DETECTOR_ONLY = {
    "ds_sendgrid_api_key": "SG." + "a1B2c3D4e5F6g7H8i9J0kL" + "." + "Zy9Xw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa9876543",
    "ds_telegram_bot_token": "123456789:AA" + "hQ3mT8vWz2Kp5Rt9Lx4Nc7Bf1Gd6Sj0Ey",
    "ds_mailchimp_access_key": "0123456789abcdef0123456789abcdef-us12",
    "ds_slack_token": "https://hooks.slack.com/services/T0A1B2C3D/B4E5F6G7H/" + "Xy9Zw8Vu7Ts6Rq5Po4Nm3Lk2",
}


def _in_fresh_python(code: str, *path: Path) -> dict:
    """What ``code`` (which prints JSON) prints in a new interpreter with ``path`` first on sys.path."""
    prefix = f"import sys; sys.path[:0] = {[str(p) for p in path]!r}\n"
    out = subprocess.run([PY, "-c", prefix + code], capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def test_the_table_is_what_the_installed_detect_secrets_yields():
    assert detector_patterns.package_digest() == table.PACKAGE_DIGEST, (
        "detect-secrets differs from the release the table was made from: regenerate it with "
        "`python -m harness.detector_patterns > harness/detector_patterns_data.py`")
    assert detector_sources() == table.SOURCES
    assert detector_patterns.sources() == detector_sources()


def test_the_table_stands_in_without_importing_detect_secrets_or_requests():
    loaded = _in_fresh_python(
        "import json; from harness import detector_patterns as d; d.sources()\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('detect_secrets', 'requests'))))")
    assert loaded == []


@pytest.mark.parametrize("kind,secret", DETECTOR_ONLY.items(), ids=list(DETECTOR_ONLY))
def test_a_secret_only_a_plugin_knows_is_redacted_alike_from_the_table_and_from_the_import(kind, secret):
    text = f"deploy log: {secret} (done)\n"
    assert compile_patterns().redact(text) == text  # the own patterns alone leave it: the plugins matter
    from_table = compile_patterns(detector=detector_patterns.sources()).redact(text)
    assert from_table == compile_patterns(detector=True).redact(text)
    assert secret not in from_table and f"[REDACTED:{kind}]" in from_table


def test_a_changed_detect_secrets_is_imported_rather_than_read_from_the_table(tmp_path):
    """An upgrade or an edited plugin hashes differently: its own rules are used, a new one included."""
    import detect_secrets

    copy = tmp_path / "site" / "detect_secrets"
    shutil.copytree(Path(detect_secrets.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "plugins" / "acme_token.py").write_text(
        "import re\n\nfrom .base import RegexBasedDetector\n\n\n"
        "class AcmeDetector(RegexBasedDetector):\n"
        "    secret_type = 'Acme Token'\n"
        "    denylist = [re.compile(r'acme_[0-9a-f]{24}')]\n")
    found = _in_fresh_python(
        "import json; from harness import detector_patterns as d\n"
        "print(json.dumps({'digest': d.package_digest(), 'sources': d.sources(),\n"
        "                  'imported_from': sys.modules['detect_secrets'].__file__}))", copy.parent)
    assert found["digest"] != table.PACKAGE_DIGEST
    assert found["imported_from"] == str(copy / "__init__.py")
    labels = [label for label, _, _ in found["sources"]]
    assert "ds_acme_token" in labels
    assert [tuple(s) for s in found["sources"] if s[0] != "ds_acme_token"] == list(table.SOURCES)


def test_a_recorded_run_redacts_a_plugin_only_secret_in_its_command_environment_and_output(h, repo, task,
                                                                                          monkeypatch):
    secret = DETECTOR_ONLY["ds_sendgrid_api_key"]
    monkeypatch.setenv("PYTEST_ADDOPTS", f"-k {secret}")  # recorded: config.yaml names it by default
    r = h.proc("evidence", "custom", "--", PY, "-c", f"print('sent with {secret}')", secret)
    assert r.code == 0, r.text
    folder = repo / ".harness" / "tasks" / task / "evidence"
    record = json.loads((folder / "custom.json").read_text())
    written = "".join(p.read_text() for p in folder.iterdir()) + "".join(
        p.read_text() for p in (repo / ".harness").rglob("*.jsonl"))
    assert secret not in written and secret not in r.err
    assert "[REDACTED:ds_sendgrid_api_key]" in record["command"]
    assert record["env"]["PYTEST_ADDOPTS"] == "-k [REDACTED:ds_sendgrid_api_key]"
    assert "[REDACTED:ds_sendgrid_api_key]" in record["stdout_tail"]
