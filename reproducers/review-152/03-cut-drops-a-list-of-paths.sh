#!/usr/bin/env bash
# Defect: where the record's stdout_tail or the evidence log is cut (tail, head), ordinary output made of lines of
#   token characters - `pytest --collect-only -q`'s test ids, `go build -v`'s / `go list`'s package paths, `tar -v`'s,
#   `git ls-files`'s or `find`'s file paths, `git log --format=%H` - is dropped almost whole: the tail keeps only the
#   line after the list (pytest's "N tests collected" summary), a cut log's tail likewise.
#   harness/evidence/outputcut.py `cut_start`/`cut_end` skip every separator `_in_a_wrap` reads as a line break inside
#   a token wrapped over lines, for up to MAX_WRAPPED (8192) bytes; `_in_a_wrap` only asks for 16 token bytes before
#   the line feed and 16 token bytes (or a line of token bytes alone) after it, which every line of such a list has.
#   With the default tail_bytes (8192) the whole tail window is such a run, and all of it but the last line is
#   dropped. The fix (read 150's F-0528) meant the cut to pass over one token's line breaks, not a list's.
# Correct: the cut drops at most a wrapped token's own lines; stdout_tail keeps the end of a list
#   of paths, and a cut log's tail keeps the list's last lines, as before 8ff0d2a5.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
mkdir ci && cat > ci/collect.py <<'PY'
# `pytest --collect-only -q`, verbatim shape: one node id a line, a blank line, the count
for n in range(400):
    print(f"tests/unit/test_module_{n // 10:03d}.py::test_behaviour_{n:04d}")
print()
print("400 tests collected in 0.31s")
PY
git init -q -b main && mkdir .harness \
  && printf '%s\n' 'version: 1' 'evidence:' '  build:' '    command: ["true"]' '  unit_test:' '    command: ["python3", "ci/collect.py"]' \
       'output:' '  log_cap_bytes: 8192' > .harness/config.yaml \
  && { harness init && harness install && harness task new t && git add -A && git commit -qm init; } >/dev/null 2>&1 \
  || { echo "setup failed"; exit 2; }
harness evidence unit_test >/dev/null 2>&1 || { echo "setup: evidence failed"; exit 2; }
rec=$(ls .harness/tasks/*/evidence/unit_test.json 2>/dev/null | head -1); log=${rec%.json}.log
[ -f "$rec" ] && [ -f "$log" ] || { echo "setup: no record"; exit 2; }
grep -q "bytes of output omitted" "$log" || { echo "setup: the log was not cut"; exit 2; }
python3 - "$rec" "$log" <<'PY'
import json, sys
rec = json.load(open(sys.argv[1]))
tail = rec.get("stdout_tail")
if tail is None:
    print("setup: no stdout_tail in the record"); sys.exit(2)
log = open(sys.argv[2]).read()
log_tail = log.split("bytes in all]", 1)[-1]
in_tail, in_log = tail.count("::test_behaviour_"), log_tail.count("::test_behaviour_")
print(f"stdout_tail: {len(tail)} bytes, {in_tail} of the test ids (79 were kept before 8ff0d2a5)")
print(f"log tail (after the omission marker): {len(log_tail)} bytes, {in_log} of the test ids (79 were kept before 8ff0d2a5)")
bad = in_tail < 50 or in_log < 20
print("DEFECT: the cut dropped nearly all of a list of test ids" if bad else "OK: the cut keeps the list")
print("--- stdout_tail:"); print(tail[:300])
print("--- the log from its omission marker:"); print(log[log.index("[harness:"):][:300])
sys.exit(1 if bad else 0)
PY
