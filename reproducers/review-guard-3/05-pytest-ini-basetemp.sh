#!/usr/bin/env bash
# #25's F-0018 fix refuses `pytest --basetemp=.harness` (pytest empties its basetemp), but the same
# option from the repository's pytest configuration (pytest.ini/pyproject.toml/tox.ini/setup.cfg
# `addopts`, or PYTEST_ADDOPTS) is not seen: writing the ini is an ordinary edit and a plain `pytest -q`
# is answered "allow" by the quick path (and by the judge). Running it deletes .harness/.
# Exit 1 while the defect exists.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
R="$T/repo"; mkdir "$R"; new_repo "$R"
[ "$(hk "$R" Bash '{"command":"pytest -q --basetemp=.harness"}')" = deny ] || { echo "setup: control" >&2; exit 2; }
w=$(hk "$R" Write '{"file_path":"pytest.ini","content":"[pytest]\naddopts = --basetemp=.harness\n"}'); echo "$w: Write pytest.ini (addopts = --basetemp=.harness)"
printf '[pytest]\naddopts = --basetemp=.harness\n' > "$R/pytest.ini"
printf 'def test_x(tmp_path):\n    assert tmp_path\n' > "$R/test_x.py"
a=$(hk "$R" Bash '{"command":"pytest -q"}'); echo "$a: pytest -q (with that pytest.ini)"
if command -v pytest >/dev/null 2>&1; then
  (cd "$R" && pytest -q -p no:cacheprovider >/dev/null 2>&1)
  [ -e "$R/.harness/config.yaml" ] && echo "effect: .harness/config.yaml still there" || echo "effect: pytest -q removed .harness/config.yaml"
fi
[ "$w" = deny ] || [ "$a" = deny ] && exit 0
exit 1
