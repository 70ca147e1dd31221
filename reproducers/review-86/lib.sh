# Shared by review-86's reproducers (copied from reproducers/review-rerun/lib.sh): run a pytest file (stdin) against
# the harness first on PATH, with the harness's own test fixtures loaded. Exit 0 fixed, 1 a DEFECT assertion failed,
# 2 on setup failure.
run_case() {
  local H PY ROOT TMP rc
  H=$(command -v harness) || { echo "setup: no harness on PATH"; exit 2; }
  PY=$(dirname "$(readlink -f "$H")")/python
  [ -x "$PY" ] || PY=$(head -1 "$H" | sed 's/^#!//')
  ROOT=$("$PY" -c 'import harness, os; print(os.path.dirname(os.path.dirname(os.path.abspath(harness.__file__))))') \
    || { echo "setup: harness not importable"; exit 2; }
  [ -f "$ROOT/tests/conftest.py" ] || { echo "setup: no tests/conftest.py in $ROOT"; exit 2; }
  TMP=$(mktemp -d)
  trap 'rm -rf "$TMP"' EXIT
  cat > "$TMP/test_case.py"
  (cd "$TMP" && PYTHONPATH="$ROOT/tests" "$PY" -m pytest -q -x -p no:cacheprovider -p conftest \
      --rootdir "$TMP" -o addopts="" --basetemp "$TMP/base" test_case.py > "$TMP/out" 2>&1)
  rc=$?
  tail -40 "$TMP/out"
  [ "$rc" = 0 ] && exit 0
  if [ "$rc" = 1 ] && grep -q "AssertionError: DEFECT:" "$TMP/out"; then exit 1; fi
  echo "setup: pytest exited $rc without reaching the defect's check"; exit 2
}
