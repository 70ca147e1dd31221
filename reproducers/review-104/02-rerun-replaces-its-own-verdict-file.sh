#!/usr/bin/env bash
# Defect: in the fan-out, a job's verdict is the file its `harness audit --rerun --only SHA --json` writes to
#   stdout (docs/ci.md's table; ci/audit.sh: `harness audit … > "$out"`, uploaded as an artifact), and
#   `harness audit --aggregate` (harness/history/audit_fanout.py) takes that file as the job's word. The shell
#   opens the file before the audit starts; the re-run then executes the commit's own code (its tests) as the
#   same user, and that code can find the file (/proc/<audit pid>/fd/1, or the checkout via the worktree's
#   git-common-dir) and rename a forged verdict over it: the audit later writes its real verdict (re-run "does
#   not reproduce", exit 1) to the now unlinked inode, and the path — what CI uploads — says "reproduced".
#   Nothing notices: the re-run guard (harness/history/rerun/fingerprint.py) fingerprints interpreters,
#   PATH, HOME's config, the repository's git config, the harness's package — not the file the verdict goes
#   to. The aggregate, which docs/ci.md says to make the required status check, exits 0 for a commit whose
#   re-run did not reproduce: the fan-out, recommended as the strong form, is the one form where a commit's
#   code decides its own verdict.
# Correct: the verdict a fanned-out job hands on cannot be replaced by the code it re-runs — e.g. the audit
#   notes the (device, inode) of its output at start and, once every re-run process is gone, checks that the
#   path still names it (else "could not run", exit 2, written to that path), or writes the verdict itself to
#   a path it opens only after the re-runs ended. The aggregate of this scenario then does not pass.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
MARK="$T/tamper-on"   # the committed test tampers only while this exists (the control runs without it)
( git init -q -b main && printf '__pycache__/\nharness-verdict.json\n' > .gitignore && mkdir .harness \
  && cat > .harness/config.yaml <<'YAML'
version: 1
evidence:
  build:
    command: ["python3", "-c", "pass"]
  unit_test:
    command: ["python3", "-m", "unittest", "-q"]
YAML
cat > test_app.py <<PY
import json, os, subprocess, unittest

def fanout_job():
    """The \`harness audit --rerun --only SHA\` process above this test, if any: (pid, its argv)."""
    pid = os.getppid()
    while pid > 1:
        try:
            argv = open(f"/proc/{pid}/cmdline", "rb").read().decode().split("\0")
            stat = open(f"/proc/{pid}/stat").read()
        except OSError:
            return None
        if "audit" in argv and "--only" in argv:
            return pid, argv
        pid = int(stat.rsplit(")", 1)[1].split()[1])
    return None

class AppTest(unittest.TestCase):
    def test_app(self):
        job = fanout_job()
        if job is None:
            return                                       # on the developer's machine the test passes
        # In CI the code does not work (what a re-run exists to catch) ...
        if os.path.exists("$MARK"):                      # ... and the test swaps the job's verdict file
            pid, argv = job
            out = os.readlink(f"/proc/{pid}/fd/1")
            cwd = os.readlink(f"/proc/{pid}/cwd")
            tip = subprocess.run(["git", "-C", cwd, "rev-parse", argv[argv.index("--to") + 1]],
                                 capture_output=True, text=True).stdout.strip()
            me = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
            doc = {"range": {"tip": tip}, "checked": [me], "commits": 1, "failed": 0, "could_not_run": 0,
                   "history": [], "rerun_only": me,
                   "results": [{"commit": me, "ok": True, "problems": [], "reruns": []}]}
            with open(out + ".new", "w") as fh:
                json.dump(doc, fh)
            os.rename(out + ".new", out)
        self.fail("does not work on CI")
PY
harness init && harness install && git add -A && git commit -qm init ) >/dev/null 2>&1 || exit 2
base=$(git rev-parse HEAD)
( harness task new Work >/dev/null && harness requirement add "It works" --priority must \
  && for s in SPECIFYING PLANNED IMPLEMENTING VERIFYING; do harness transition $s; done \
  && harness evidence build && harness evidence unit_test \
  && harness requirement set REQ-001 --status verified --evidence unit_test \
  && harness transition REVIEWING && harness transition GATING && harness gate --advance \
  && harness transition DONE && git add -A && git commit -qm "done: Work" ) >/dev/null 2>&1 || exit 2
done_sha=$(git rev-parse HEAD)

# The fan-out as CI runs it (docs/ci.md): plan, one job writing its verdict to stdout, aggregate.
harness audit --from "$base" --to HEAD --plan --json > "$T/plan.json" 2>/dev/null || exit 2
job() { harness audit --from "$base" --to HEAD --rerun --only "$done_sha" --json > "$R/harness-verdict.json" 2>"$T/job.err"; }

# Control: the re-run does not reproduce, the job's verdict says so, the aggregate refuses.
rc=0; job || rc=$?
[ "$rc" -eq 1 ] || { echo "setup: control job exit $rc (want 1)"; cat "$T/job.err"; exit 2; }
rc=0; harness audit --aggregate "$T/plan.json" "$R/harness-verdict.json" 2>/dev/null || rc=$?
[ "$rc" -eq 1 ] || { echo "setup: control aggregate exit $rc (want 1)"; exit 2; }

# The same commit, its test swapping the verdict file while it runs.
touch "$MARK"
rc=0; job || rc=$?
echo "job: harness audit --rerun --only ${done_sha:0:12} exit $rc; $(grep -c 'does not reproduce' "$T/job.err") run(s) did not reproduce"
arc=0; harness audit --aggregate "$T/plan.json" "$R/harness-verdict.json" 2>"$T/agg.err" || arc=$?
if [ "$arc" -eq 0 ]; then
  echo "DEFECT: aggregate exit 0 ($(tail -1 "$T/agg.err" | sed 's/^harness: audit: //'))"
  echo "        for a commit whose re-run did not reproduce: its own test replaced the job's verdict file"
  exit 1
fi
echo "OK: aggregate exit $arc: the job's real verdict stands"
exit 0
