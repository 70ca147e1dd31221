"""SSH signatures through `ssh-keygen -Y` (an adapter: the one module that runs ssh-keygen).

Git signs commits the same way (gpg.format=ssh): the same keys, agents, hardware tokens and
allowed-signers files serve for harness approvals, under their own namespace.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from harness.errors import HarnessError

TIMEOUT = 120  # signing may wait for a passphrase, a confirmation (ssh-add -c) or a touch


def _keygen() -> str:
    exe = shutil.which("ssh-keygen")
    if not exe:
        raise HarnessError("ssh-keygen is not installed: approvals are SSH signatures",
                           hint="install OpenSSH 8.2 or newer (it provides `ssh-keygen -Y`)")
    return exe


def key_file(key: str, folder: str) -> str:
    """A path ssh-keygen accepts for ``key``: a file path, or git's ``key::ssh-… AAAA…`` literal
    (a public key: the private half is then used from ssh-agent)."""
    if key.startswith("key::") or key.startswith("ssh-"):
        path = os.path.join(folder, "signing-key.pub")
        Path(path).write_text(key.removeprefix("key::").strip() + "\n")
        return path
    return os.path.expanduser(key)


def sign(data: bytes, key: str, namespace: str) -> str:
    """The armored SSH signature of ``data`` with ``key`` (may prompt at the terminal)."""
    exe = _keygen()
    with tempfile.TemporaryDirectory(prefix="harness-sign.") as tmp:
        msg = os.path.join(tmp, "approval")
        Path(msg).write_bytes(data)
        proc = subprocess.run([exe, "-Y", "sign", "-f", key_file(key, tmp), "-n", namespace, msg],
                              capture_output=True, text=True, timeout=TIMEOUT)
        sig = Path(msg + ".sig")
        if proc.returncode != 0 or not sig.exists():
            raise HarnessError(f"ssh-keygen could not sign with {key}: {proc.stderr.strip() or proc.stdout.strip()}",
                               hint="check the key path (git config user.signingKey, or --key), its passphrase, "
                                    "or that ssh-agent holds it")
        return sig.read_text()


def verify(data: bytes, signature: str, principal: str, allowed_signers: bytes, namespace: str) -> str | None:
    """None when ``signature`` is ``principal``'s, by a key ``allowed_signers`` lists for that
    principal and namespace; otherwise why not, in ssh-keygen's words."""
    exe = _keygen()
    with tempfile.TemporaryDirectory(prefix="harness-verify.") as tmp:
        signers, sig = os.path.join(tmp, "allowed_signers"), os.path.join(tmp, "approval.sig")
        Path(signers).write_bytes(allowed_signers)
        Path(sig).write_text(signature)
        try:
            proc = subprocess.run([exe, "-Y", "verify", "-f", signers, "-I", principal, "-n", namespace, "-s", sig],
                                  input=data, capture_output=True, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            return "ssh-keygen timed out verifying it"
    if proc.returncode == 0:
        return None
    why = (proc.stderr or proc.stdout).decode("utf-8", "replace").strip().splitlines()
    return why[-1] if why else f"ssh-keygen exited {proc.returncode}"
