#!/usr/bin/env bash
# The CI step of the Engineering Harness: `harness audit` over what this pipeline run brings.
# Called by action.yml; any CI can call it with the HARNESS_* variables below (or call
# `harness audit` directly: the audit decides its own range, this script only maps the event).
#
#   HARNESS_EVENT            push (default), pull_request, merge_request
#   HARNESS_BEFORE           push: what the ref held before (empty or zeros: a new ref)
#   HARNESS_AFTER            push: the new tip (default HEAD; zeros: the ref was deleted, nothing to audit)
#   HARNESS_REF              push: the ref that moved (refs/heads/NAME); unset, every push is held to the
#                            protected-ref rules (no non-fast-forward, orphan or harness-less tip without approval)
#   HARNESS_BASE/HEAD        pull/merge request: the base commit and the head commit
#   HARNESS_RERUN            "true": re-run evidence, reproducers and regression tests
#   HARNESS_ALLOWED_SIGNERS  an allowed-signers file for human approvals (passed through)
#   HARNESS_REMOTE           where missing commits and stamps are fetched from (default origin)
#   HARNESS_ALLOW_UNTRUSTED_RERUN  "true": re-run even under pull_request_target (see below)
#   HARNESS_MODE             audit (default): the whole audit in this job. A fan-out over jobs (docs/ci.md):
#                            plan: `--plan --output HARNESS_OUT` (default harness-plan.json); writes
#                              `commits` (a JSON list of the DONE commits) and `json` to $GITHUB_OUTPUT if set
#                            only: `--rerun --only HARNESS_COMMIT --output HARNESS_OUT` (default harness-verdict.json):
#                              the audit writes the verdict itself once the re-run's processes are gone
#                            aggregate: `--aggregate` over HARNESS_VERDICTS/*.json (the plan and every verdict)
#   HARNESS_JOBS             aggregate: the results of the jobs it needs, as JSON (GitHub: `${{ toJSON(needs) }}`):
#                            one that is not `success` or `skipped` fails the aggregate, whatever file it uploaded
set -euo pipefail

# Everything below is one function, called on the script's last line: bash reads a script as it runs it, and the
# re-run's code runs as this job's user, so a tail rewritten in place during the audit would be what runs after it
# (read 108's F-0378). A function is read whole before any of it runs.
main() {

mode="${HARNESS_MODE:-audit}"
case "$mode" in
  audit|plan|only) ;;
  aggregate)
    # Reads the files the jobs wrote; runs nothing of the commits'. A missing verdict fails it (exit 2).
    dir="${HARNESS_VERDICTS:?HARNESS_VERDICTS: the directory holding the plan and the verdicts}"
    shopt -s nullglob
    files=("$dir"/*.json "$dir"/*/*.json)
    echo "harness: $(harness --version)" >&2
    # A job's own exit is its verdict too: a job that failed (a refusal, a re-run that could not run, a verdict it
    # could not write) fails the aggregate even when the file it uploaded says otherwise (read 104's F-0364).
    failed=""
    if [ -n "${HARNESS_JOBS:-}" ]; then
      failed=$(python -c 'import json, sys
jobs = json.loads(sys.argv[1])
print(", ".join("%s (%s)" % (name, job.get("result") if isinstance(job, dict) else job) for name, job in jobs.items()
                if not isinstance(job, dict) or job.get("result") not in ("success", "skipped")))' "$HARNESS_JOBS") \
        || failed="HARNESS_JOBS (not the JSON of the jobs' results)"
    fi
    rc=0
    harness audit --aggregate "${files[@]}" || rc=$?
    if [ -n "$failed" ]; then
      echo "harness: audit: refused: job(s) that did not succeed: $failed — a job's own exit refuses, whatever" \
           "verdict file it left" >&2
      if [ "$rc" -eq 0 ]; then rc=1; fi
    fi
    exit "$rc" ;;
  *) echo "harness: HARNESS_MODE=$mode: expected audit, plan, only or aggregate" >&2; exit 2 ;;
esac
if [ "$mode" = only ]; then HARNESS_RERUN=true; fi

# pull_request_target runs with the base repository's write token and secrets: re-running a fork's
# code there hands both to whoever opened the pull request. Refused unless the workflow opts in.
if [ "${HARNESS_EVENT:-push}" = "pull_request_target" ] && [ "${HARNESS_RERUN:-false}" = "true" ] \
    && [ "${HARNESS_ALLOW_UNTRUSTED_RERUN:-false}" != "true" ]; then
  echo "harness: refusing to re-run a pull request's code under pull_request_target: that event runs with" \
       "this repository's write token and secrets, and --rerun executes the pull request's commands." >&2
  echo "  hint: audit pull requests on the pull_request event (no secrets; rerun there is safe), or run" \
       "this job without rerun; set HARNESS_ALLOW_UNTRUSTED_RERUN=true on the step only if every" \
       "pull request author is trusted" >&2
  exit 2
fi

remote="${HARNESS_REMOTE:-origin}"
# Stamps are a record, never the proof: fetch them when the remote has any, carry on if not.
git fetch --quiet --no-tags "$remote" '+refs/notes/harness*:refs/notes/harness*' 2>/dev/null \
  || echo "harness: no stamps fetched from $remote (not needed for the verdict)" >&2

after="${HARNESS_AFTER:-HEAD}"
if [[ "$after" =~ ^0+$ ]]; then
  # A push that deletes a ref brings no commit: there is nothing to audit (git sends zeros as the new tip).
  echo "harness: the push deleted the ref (new tip ${after:0:12}…): no commits arrive, nothing to audit" >&2
  if [ "$mode" = plan ]; then  # a plan of nothing, so that the aggregate has one to read
    printf '{"kind": "harness-audit-plan", "range": null, "checked": [], "commits": 0, "failed": 0, "history": [], '\
'"results": [], "planned": [], "matrix": []}\n' > "${HARNESS_OUT:-harness-plan.json}"
    if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "commits=[]" >> "$GITHUB_OUTPUT"; fi
  fi
  exit 0
fi

case "${HARNESS_EVENT:-push}" in
  pull_request|pull_request_target|merge_request|merge_request_event)
    args=(--base "${HARNESS_BASE:?the pull request base commit is needed}" --to "${HARNESS_HEAD:-HEAD}") ;;
  *)
    args=(--before "${HARNESS_BEFORE:-}" --to "$after")
    if [ -n "${HARNESS_REF:-}" ]; then args+=(--ref "$HARNESS_REF"); fi ;;
esac
if [ -n "${HARNESS_ALLOWED_SIGNERS:-}" ]; then args+=(--allowed-signers "$HARNESS_ALLOWED_SIGNERS"); fi

echo "harness: $(harness --version)" >&2
case "$mode" in
  audit)
    if [ "${HARNESS_RERUN:-false}" = "true" ]; then args+=(--rerun); fi
    exec harness audit "${args[@]}" --remote "$remote" ;;
  plan) out="${HARNESS_OUT:-harness-plan.json}"; args+=(--plan) ;;
  only) out="${HARNESS_OUT:-harness-verdict.json}"
        args+=(--rerun --only "${HARNESS_COMMIT:?HARNESS_COMMIT: the commit this job re-runs}") ;;
esac
rc=0
# --output, not a redirection: a file the shell opens for stdout, the re-run's own code can replace (F-0364).
harness audit "${args[@]}" --remote "$remote" --json --output "$out" || rc=$?
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  echo "json=$out" >> "$GITHUB_OUTPUT"
  if [ "$mode" = plan ] && [ -s "$out" ]; then
    python -c 'import json, sys; print("commits=" + json.dumps(json.load(open(sys.argv[1]))["matrix"]))' "$out" \
      >> "$GITHUB_OUTPUT"
  fi
fi
exit "$rc"
}

main "$@"; exit "$?"
