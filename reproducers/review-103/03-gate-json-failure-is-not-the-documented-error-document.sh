#!/usr/bin/env bash
# Defect: docs/usage.md and docs/exit-codes.md promise: "A command given --json that fails before it can print
#   its result (outside a repository, an unknown task, a refusal, a usage error) prints one JSON document instead,
#   {"ok": false, "error": …, "hint": …, "exit_code": …}, with the usual message on stderr." `harness gate --json`
#   (one of the four commands usage.md names for machine-readable output) does so for a usage error and for a
#   refusal (--advance outside GATING), but outside a repository, for an unknown --task and with no task at all
#   it prints a verdict document {"task", "verdict": "INVALID_HARNESS_STATE", "error": "...\n  hint: ...",
#   "next": []} -- no "ok", no "hint", no "exit_code" -- and nothing on stderr (harness/gate/evaluate.py run_gate
#   turns every HarnessError into GateInvalid; harness/cli/gate_report.py prints it). The text form likewise calls
#   a mistyped task id "QUALITY GATE: INVALID_HARNESS_STATE", which troubleshooting.md says means a file that does
#   not validate. `harness status --json`, `converge --json` answer the same failures in the documented shape.
# Correct: those failures print {"ok": false, "error": "no task NOPE", "hint": "known tasks: …", "exit_code": 2}
#   on stdout and the usual `harness: …` message on stderr, as status/converge do.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R" "$T/outside"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && echo a > a.txt && git add -A \
  && git commit -qm init ) >/dev/null 2>&1 || exit 2

check() {  # $1: label, $2: folder, rest: args. The documented failure document, and a message on stderr.
  local label=$1 dir=$2; shift 2
  (cd "$dir" && harness "$@" >"$T/out" 2>"$T/err"); local code=$?
  python - "$label" "$code" "$T/out" "$T/err" <<'EOF'
import json, sys
label, code, out, err = sys.argv[1], int(sys.argv[2]), open(sys.argv[3]).read(), open(sys.argv[4]).read()
try:
    doc = json.loads(out)
except ValueError:
    print(f"{label}: stdout is not one JSON document: {out[:200]!r}"); sys.exit(1)
missing = [k for k in ("ok", "error", "hint", "exit_code") if k not in doc]
bad = missing or doc.get("ok") is not False or doc.get("exit_code") != code or not err.strip()
print(f"{label}: exit {code}; keys {sorted(doc)}; stderr {'empty' if not err.strip() else 'has the message'}"
      + (f"; missing {missing}" if missing else ""))
sys.exit(1 if bad else 0)
EOF
}
# Controls: the documented shape where it is given today.
check "status --json --task NOPE (control)" "$R" status --json --task NOPE >/dev/null || exit 2
check "gate --json --bogus (control)" "$R" gate --json --bogus >/dev/null || exit 2
fail=0
check "gate --json --task NOPE" "$R" gate --json --task NOPE || fail=1
check "gate --json (no task yet)" "$R" gate --json || fail=1
check "gate --json (outside a repository)" "$T/outside" gate --json || fail=1
[ $fail = 1 ] && { echo "DEFECT: harness gate --json answers these failures outside the documented error document"; exit 1; }
echo "OK"; exit 0
