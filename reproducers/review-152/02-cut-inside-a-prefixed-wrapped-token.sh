#!/usr/bin/env bash
# Defect: where the evidence log or the record's stdout_tail is cut inside a token wrapped over lines under a prefix
#   every line repeats (`docker compose up`'s `web-1  | `, a log's timestamp and level, a quote's `> `: forms
#   docs/threat-model.md names for wrapped tokens, and redaction of the whole text handles), the token's lines after
#   the cut are kept in clear: a long JWT wrapped at 64 columns by a service's logger keeps its payload and its
#   signature, which match no rule alone.
#   harness/evidence/outputcut.py `_in_a_wrap` reads a line break as one inside a wrapped token only when the next
#   line, past its indent, is token bytes from its start; a prefixed line starts with `web-1  | `, so `cut_start`
#   cuts at the first line break of the token (read 150's F-0528 fixed this for unprefixed lines only), and the
#   kept part, redacted alone, has no `eyJ` header left.
# Correct: the cut passes over a prefixed wrapped token's line breaks too (or the kept lines are redacted), so that no
#   committed file holds the JWT's signature.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
# An HS256 JWT with a long payload (its claims as an identity provider writes them), made here: header.payload.signature
python3 - "$HOME/jwt" <<'PY' || exit 2
import base64, hashlib, hmac, json, sys
b64 = lambda b: base64.urlsafe_b64encode(b).rstrip(b"=").decode()
head = b64(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
claims = {"sub": "deploy-bot", "scope": " ".join(f"repo:org/service-{n}:write" for n in range(90)), "iat": 1765000000}
body = b64(json.dumps(claims, separators=(",", ":")).encode())
sig = b64(hmac.new(b"k3y-0f-the-issuer", f"{head}.{body}".encode(), hashlib.sha256).digest())
open(sys.argv[1], "w").write(f"{head}.{body}.{sig}")
PY
mkdir ci && cat > ci/show.py <<'PY'
import os, textwrap
jwt = open(os.path.join(os.environ["HOME"], "jwt")).read()
for n in range(120):  # the test run's progress before the failure
    print(f"tests/test_deploy.py::test_step_{n:03d} PASSED")
# the failure, logged by a compose service: wrapped by its logger's textwrap, under compose's service prefix
for line in textwrap.wrap(f"PermissionError: the registry refused the request sent with Bearer {jwt}", 64): print("web-1  | " + line)
print("1 failed, 120 passed")
PY
git init -q -b main && mkdir .harness \
  && printf '%s\n' 'version: 1' 'evidence:' '  build:' '    command: ["true"]' '  unit_test:' '    command: ["python3", "ci/show.py"]' \
       'output:' '  tail_bytes: 1024' '  log_cap_bytes: 4096' > .harness/config.yaml \
  && { harness init && harness install && harness task new t && git add -A && git commit -qm init; } >/dev/null 2>&1 \
  || { echo "setup failed"; exit 2; }
harness evidence unit_test >/dev/null 2>&1 || { echo "setup: evidence failed"; exit 2; }
grep -q "failed, 120 passed" .harness/tasks/*/evidence/unit_test.log || { echo "setup: the output was not recorded"; exit 2; }
grep -q "bytes of output omitted" .harness/tasks/*/evidence/unit_test.log || { echo "setup: the log was not cut"; exit 2; }
git add -A && git commit -qm "unit_test evidence" >/dev/null 2>&1 || { echo "OK: the commit check refused the evidence"; exit 0; }
status=0
for f in .harness/tasks/*/evidence/unit_test.log .harness/tasks/*/evidence/unit_test.json; do
  left=$(git show "HEAD:$f" | python3 -c '
import re, sys
flat = re.sub(r"\\n|\s", "", sys.stdin.read())
sig = open(sys.argv[1]).read().rsplit(".", 1)[1]
print("the whole signature" if sig in flat else "")' "$HOME/jwt")
  if [ -n "$left" ]; then echo "DEFECT: $f (committed) holds $left of the JWT, its lines after the cut in clear:"
    grep -n -B1 -A2 "omitted here" "$f" | sed -n 1,4p | cut -c 1-90; tail -n 3 "$f" | cut -c 1-90; status=1
  else echo "ok: $f"; fi
done
exit $status
