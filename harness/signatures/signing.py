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


def signed_with(signature: str) -> str | None:
    """The public key an armored SSH signature carries, as an allowed_signers line spells it (`KEYTYPE BASE64`); None
    when it is not one. Read from the signature (PROTOCOL.sshsig: "SSHSIG", a version, then the public key), so naming
    the key that signed never touches the private half."""
    import base64
    import binascii

    body = "".join(line.strip() for line in signature.splitlines() if line.strip() and not line.startswith("-----"))
    try:
        blob = base64.b64decode(body, validate=True)
    except (binascii.Error, ValueError):
        return None
    public = _ssh_string(blob, 10) if blob[:6] == b"SSHSIG" else None  # after the magic and a uint32 version
    kind = _ssh_string(public, 0) if public is not None else None
    if public is None or not kind:
        return None
    try:
        return f"{kind.decode('ascii')} {base64.b64encode(public).decode('ascii')}"
    except UnicodeDecodeError:
        return None


def _ssh_string(blob: bytes, at: int) -> bytes | None:
    """The SSH wire-format string (a uint32 length, then that many bytes) at offset ``at`` of ``blob``."""
    if len(blob) < at + 4:
        return None
    size = int.from_bytes(blob[at:at + 4], "big")
    return blob[at + 4:at + 4 + size] if len(blob) >= at + 4 + size else None
