"""Real SSH keys for approval tests: made by ssh-keygen in a temp folder, never stubs."""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path

from harness.core import approvals
from harness.signatures import signing


def make_key(folder: Path, name: str) -> tuple[Path, str]:
    """(private key path, public key line) of a new passphrase-less ed25519 key."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", str(path)], check=True)
    return path, (folder / f"{name}.pub").read_text().strip()


def signers_line(email: str, public: str) -> str:
    """An allowed_signers entry, git's format: principal, then the key (without its comment)."""
    kind, blob = public.split()[:2]
    return f"{email} {kind} {blob}\n"


def sign_as_listed(repo: Path, key: Path, public: str, email: str = "test@example.com") -> None:
    """``public`` as the repository's only allowed signer (``email``) and ``key`` as git's signing key: a human who
    approves at this repository's terminal."""
    from support.gitrepo import git

    (repo / ".harness/allowed_signers").write_text(signers_line(email, public))
    git(repo, "config", "user.signingKey", str(key))


def approval_line(kind: str, file_bytes: bytes, key: Path | None, signer: str = "test@example.com",
                  changes: list[str] | None = None, bind: tuple[str | None, bytes | None] | None = None,
                  **over) -> str:
    """One approvals.jsonl line for ``file_bytes``, signed with ``key`` (None: unsigned). ``bind``:
    (repository id, the file's bytes it loosens from) as `harness approve` signs them now; without
    it, a legacy record (from before approvals were bound)."""
    entry = {"kind": kind, "digest": hashlib.sha256(file_bytes).hexdigest(), "changes": changes or ["a change"],
             "approved_by": f"Test <{signer}>", "signer": signer, "os_user": "test", "at": "2026-01-01T00:00:00Z"}
    if bind is not None:
        entry |= approvals.binding(*bind)
    if key is not None:
        entry["signature"] = signing.sign(approvals.payload(entry), str(key), approvals.NAMESPACE)
    entry.update(over)
    return json.dumps(entry, sort_keys=True) + "\n"


def repository_id(repo: Path) -> str:
    """What `harness approve` names ``repo`` by: the first root commit of HEAD's history."""
    out = subprocess.run(["git", "rev-list", "--max-parents=0", "HEAD"], cwd=repo, capture_output=True, text=True,
                         check=True).stdout
    return min(out.split())
