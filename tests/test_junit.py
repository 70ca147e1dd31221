"""JUnit XML parsing: real pytest output, other producers' shapes, hostile input."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from harness.errors import HarnessError
from harness.evidence import junit
from harness.evidence.junit import parse_junit


def write(tmp_path: Path, text: str, name: str = "report.xml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


def test_real_pytest_report(tmp_path: Path) -> None:
    (tmp_path / "test_sample.py").write_text(
        textwrap.dedent(
            """
            import pytest

            def test_ok(): pass
            def test_ok_too(): pass
            def test_fail(): assert 0
            @pytest.mark.skip(reason="nope")
            def test_skip(): pass
            @pytest.fixture
            def broken(): raise RuntimeError("setup")
            def test_error(broken): pass
            """
        )
    )
    report = tmp_path / "out.xml"
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         f"--junitxml={report}", "test_sample.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTEST_ADDOPTS": ""},
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr  # 1 == some tests failed
    assert parse_junit(report) == {"tests": 5, "passed": 2, "failed": 1, "skipped": 1, "errors": 1}


def test_maven_style_testsuites(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites name="surefire" tests="6" failures="1" errors="1" skipped="1">
          <testsuite name="com.example.FooTest" tests="3" failures="1">
            <properties><property name="java.version" value="21"/></properties>
            <testcase name="ok" classname="com.example.FooTest" time="0.01"/>
            <testcase name="flaky" classname="com.example.FooTest">
              <flakyFailure message="first run failed" type="java.lang.AssertionError"/>
            </testcase>
            <testcase name="bad" classname="com.example.FooTest">
              <failure message="expected 1" type="org.opentest4j.AssertionFailedError">trace</failure>
              <system-out>noise</system-out>
            </testcase>
          </testsuite>
          <testsuite name="com.example.BarTest" tests="3" errors="1" skipped="1">
            <testcase name="boom" classname="com.example.BarTest">
              <error message="NPE" type="java.lang.NullPointerException"/>
            </testcase>
            <testcase name="ignored" classname="com.example.BarTest"><skipped/></testcase>
            <testcase name="fine" classname="com.example.BarTest"/>
          </testsuite>
        </testsuites>
        """,
    )
    assert parse_junit(path) == {"tests": 6, "passed": 3, "failed": 1, "skipped": 1, "errors": 1}


def test_single_testsuite_root(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        <testsuite name="go" tests="3" failures="1">
          <testcase name="TestA" classname="pkg"/>
          <testcase name="TestB" classname="pkg"><failure message="Failed">x_test.go:12</failure></testcase>
          <testcase name="TestC" classname="pkg"><skipped message="short mode"/></testcase>
        </testsuite>
        """,
    )
    assert parse_junit(path) == {"tests": 3, "passed": 1, "failed": 1, "skipped": 1, "errors": 0}


def test_nested_suites_are_not_double_counted(tmp_path: Path) -> None:
    # Suite attributes claim more than there is: the counts come from <testcase>s.
    path = write(
        tmp_path,
        """
        <testsuites tests="99">
          <testsuite name="outer" tests="99">
            <testcase name="a"/>
            <testsuite name="inner" tests="99">
              <testcase name="b"><error message="e"/></testcase>
              <testcase name="c"><skipped/></testcase>
            </testsuite>
          </testsuite>
        </testsuites>
        """,
    )
    assert parse_junit(path) == {"tests": 3, "passed": 1, "failed": 0, "skipped": 1, "errors": 1}


def test_one_outcome_per_testcase(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        <testsuite>
          <testcase name="both"><failure/><error/></testcase>
          <testcase name="skip-then-error"><skipped/><error/></testcase>
        </testsuite>
        """,
    )
    assert parse_junit(path) == {"tests": 2, "passed": 0, "failed": 1, "skipped": 0, "errors": 1}


def test_empty_suites_and_namespaced_tags(tmp_path: Path) -> None:
    assert parse_junit(write(tmp_path, "<testsuites/>")) == dict.fromkeys(
        ("tests", "passed", "failed", "skipped", "errors"), 0
    )
    ns = write(
        tmp_path,
        '<testsuite xmlns="urn:x"><testcase name="a"/><testcase name="b"><skipped/></testcase></testsuite>',
        "ns.xml",
    )
    assert parse_junit(ns) == {"tests": 2, "passed": 1, "failed": 0, "skipped": 1, "errors": 0}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A suite that claims failures but lists no testcase: a crash mid-report.
        ('<testsuite name="s" tests="3" failures="3"></testsuite>', (3, 0, 3, 0)),
        ('<testsuites><testsuite tests="2" failures="1" errors="1"/></testsuites>', (2, 0, 1, 1)),
        ('<testsuites failures="2"/>', (2, 0, 2, 0)),
        # sloppy or negative attributes count as nothing rather than crash
        ('<testsuite failures="n/a" errors="-1"/>', (0, 0, 0, 0)),
        # suites with testcases are counted by their testcases only, attributes ignored
        ('<testsuites failures="9"><testsuite failures="9"><testcase name="a"/></testsuite>'
         '<testsuite errors="1"/></testsuites>', (2, 1, 0, 1)),
    ],
)
def test_suite_failures_without_testcases_are_counted(tmp_path: Path, text: str, expected) -> None:
    counts = parse_junit(write(tmp_path, text))
    assert (counts["tests"], counts["passed"], counts["failed"], counts["errors"]) == expected


def test_jest_junit_shape(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites name="jest tests" tests="2" failures="1" errors="0" time="1.2">
          <testsuite name="sum" errors="0" failures="1" skipped="0" tests="2">
            <testcase classname="sum adds" name="sum adds" time="0.002"/>
            <testcase classname="sum fails" name="sum fails" time="0.003">
              <failure>Error: expect(received).toBe(expected)</failure>
            </testcase>
          </testsuite>
        </testsuites>
        """,
    )
    assert parse_junit(path) == {"tests": 2, "passed": 1, "failed": 1, "skipped": 0, "errors": 0}


def expect_error(path: Path, *fragments: str) -> HarnessError:
    with pytest.raises(HarnessError) as info:
        parse_junit(path)
    assert str(path) in info.value.message
    for fragment in fragments:
        assert fragment in info.value.message
    return info.value


def test_missing_file(tmp_path: Path) -> None:
    err = expect_error(tmp_path / "nope.xml", "does not exist")
    assert err.hint


def test_directory_is_unreadable(tmp_path: Path) -> None:
    expect_error(tmp_path, "cannot read")


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads anything")
def test_permission_denied(tmp_path: Path) -> None:
    path = write(tmp_path, "<testsuite/>")
    path.chmod(0)
    expect_error(path, "cannot read")


@pytest.mark.parametrize(
    "text",
    ["", "not xml at all", "<testsuite><testcase></testsuite>", "\x00\x01binary", "<a/><b/>"],
)
def test_not_xml(tmp_path: Path, text: str) -> None:
    expect_error(write(tmp_path, text), "not well-formed XML")


def test_wrong_root_element(tmp_path: Path) -> None:
    expect_error(write(tmp_path, "<html><body/></html>"), "<html>", "<testsuites>")


def test_too_large_is_refused_before_parsing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(junit, "MAX_BYTES", 64)
    path = write(tmp_path, "<testsuite>" + "<testcase/>" * 20 + "</testsuite>")
    expect_error(path, "limit")


def test_default_cap_is_64_mib() -> None:
    assert junit.MAX_BYTES == 64 * 1024 * 1024


BILLION_LAUGHS = """
<?xml version="1.0"?>
<!DOCTYPE testsuite [
  <!ENTITY lol "lol">
  <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<testsuite><testcase name="&lol3;"/></testsuite>
"""


@pytest.mark.parametrize(
    "text",
    [
        BILLION_LAUGHS,
        '<!DOCTYPE testsuite SYSTEM "http://example.com/x.dtd"><testsuite/>',
        '<!DOCTYPE testsuite [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><testsuite>&xxe;</testsuite>',
    ],
)
def test_doctype_and_entities_are_refused(tmp_path: Path, text: str) -> None:
    expect_error(write(tmp_path, text), "DOCTYPE")


def test_lowercase_doctype_is_refused_too(tmp_path: Path) -> None:
    expect_error(write(tmp_path, "<!doctype testsuite><testsuite/>"), "not well-formed")


def test_doctype_text_inside_cdata_output_is_fine(tmp_path: Path) -> None:
    # Surefire wraps captured output in CDATA; a web test printing HTML must not be
    # mistaken for a DTD, which is why the check asks the parser instead of grepping.
    path = write(
        tmp_path,
        "<testsuite><testcase name='page'><system-out><![CDATA[<!DOCTYPE html><!ENTITY x>]]>"
        "</system-out></testcase></testsuite>",
    )
    assert parse_junit(path)["passed"] == 1


def test_doctype_hidden_in_utf16_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "u16.xml"
    path.write_bytes(('<?xml version="1.0" encoding="UTF-16"?>' + BILLION_LAUGHS.strip().split("\n", 1)[1])
                     .encode("utf-16"))
    expect_error(path, "DOCTYPE")


def test_accepts_str_path(tmp_path: Path) -> None:
    path = write(tmp_path, "<testsuite><testcase/></testsuite>")
    assert parse_junit(str(path))["passed"] == 1  # type: ignore[arg-type]
