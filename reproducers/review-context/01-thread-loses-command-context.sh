#!/usr/bin/env bash
# Defect: harness.context keeps "the command's context" in a ContextVar, and a new thread starts with an
# empty contextvars context. So work done on a thread — inside a command, or by a library caller that set
# the trust root / lock reporter outside any command ("outside any, one for the process", says
# context.current()) — sees a fresh Context: no trust root (approvals fall back to the repository's own
# .harness/allowed_signers), no lock-wait reporter. Before 97d7647/f928946 these were module globals that
# every thread of the process saw.
# Exit 1 while the defect exists, 0 when fixed, 2 on setup failure.
set -u
H=$(command -v harness) || { echo "setup: no harness on PATH" >&2; exit 2; }
PY=$(dirname "$(readlink -f "$H")")/python
[ -x "$PY" ] || PY=$(head -1 "$H" | sed 's/^#!//')
[ -x "$PY" ] || { echo "setup: no python beside $H" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
printf 'human@example.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFake\n' > "$tmp/allowed_signers"
cd "$tmp" || exit 2
"$PY" - "$tmp/allowed_signers" <<'PYEOF'
import sys, threading
try:
    from harness.signatures import trust
    from harness.store import fsio
except Exception as exc:  # setup failure
    print(f"setup: {exc}", file=sys.stderr); sys.exit(2)

signers = sys.argv[1]
content = open(signers, "rb").read()
failures = []

def on_thread(fn):
    out = []
    t = threading.Thread(target=lambda: out.append(fn()))
    t.start(); t.join()
    return out[0]

# 1. A library caller (outside any command) names the trust root, then checks on a worker thread.
trust.use_file(signers)
here = [r.content for r in trust.roots([])]
there = on_thread(lambda: [r.content for r in trust.roots([])])
trust.use_file(None)
print(f"library caller: roots on the calling thread={len(here)}, on a worker thread={len(there)}")
if here != [content]:
    print("setup: the trust root is not seen even on the calling thread", file=sys.stderr); sys.exit(2)
if there != [content]:
    failures.append("a trust root named with trust.use_file() is not seen by a worker thread of the same process")

# 2. Inside one command (as cli.main opens it), a worker thread of that command.
try:
    from harness import context
except ImportError:
    context = None
if context is not None:
    heard = []
    with context.command(on_lock_wait=heard.append):
        trust.use_file(signers)
        there = on_thread(lambda: [r.content for r in trust.roots([])])
        reporter = on_thread(lambda: context.current().on_lock_wait)
    print(f"inside a command: worker thread sees roots={len(there)}, lock reporter={reporter!r}")
    if there != [content]:
        failures.append("inside a command, a worker thread does not see the command's trust root "
                        "(approvals would be checked against the tree's own allowed_signers)")
    if reporter is None:
        failures.append("inside a command, a worker thread that waits for the lock has no reporter (silent wait)")

for f in failures:
    print("DEFECT:", f)
sys.exit(1 if failures else 0)
PYEOF
