"""The value of an environment variable named as a password by `_PWD` (MYSQL_PWD, DB_PWD) is redacted wherever it is
printed, as a TOKEN's or a PASSWORD's is (read 167's F-0570): the rule for `NAME=value` text knew `MYSQL_PWD`, but the
names whose values are redacted everywhere did not, so a test printing the value alone put it in the evidence log,
committed and pushed. Beside it, the variables a careless rule would take for one: PWD and OLDPWD, the shell's
working folders, whose values are paths printed everywhere."""

from __future__ import annotations

import pytest

from harness.core.redact import compile_patterns, is_secret_name, secret_env

from support.paths import PY

VALUE = "Zq8wQ7pL1xMysqlPw"


@pytest.mark.parametrize("name", ["MYSQL_PWD", "DB_PWD", "mysql_pwd", "REDIS_PWD_PROD"])
def test_f0570_a_pwd_named_variable_is_a_secret_name(name):
    assert is_secret_name(name)
    assert secret_env({name: VALUE}) == {name: VALUE}


@pytest.mark.parametrize("name", ["PWD", "OLDPWD", "PWDEBUG_LEVEL"])
def test_f0570_the_shell_s_working_folders_are_no_secret_names(name):
    assert not is_secret_name(name)
    assert secret_env({name: "/home/someone/project"}) == {}


def test_f0570_its_value_is_redacted_where_it_is_printed_alone():
    redactor = compile_patterns(literals=secret_env({"MYSQL_PWD": VALUE, "PWD": "/home/someone/project"}))
    out = redactor.redact(f"connecting to mysql with {VALUE} from /home/someone/project")
    assert VALUE not in out and "[REDACTED:env:MYSQL_PWD]" in out and "/home/someone/project" in out


def test_f0570_an_evidence_log_keeps_no_pwd_variable_s_value(h, repo, monkeypatch):
    monkeypatch.setenv("MYSQL_PWD", VALUE)
    h.ok("task", "new", "Connect")
    h.ok("evidence", "custom", "--", PY, "-c", "import os; print('connecting with', os.environ['MYSQL_PWD'])")
    written = "".join(p.read_text("utf-8", errors="replace") for p in (repo / ".harness").rglob("*") if p.is_file())
    assert VALUE not in written
    assert "[REDACTED:env:MYSQL_PWD]" in written
