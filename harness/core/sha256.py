"""SHA-256 from Python's own implementation, without hashlib: hashlib loads the OpenSSL binding
(libcrypto), which costs `harness status` and the agent's session hooks more to load than all their
hashing. The digests are the same bytes whichever implementation makes them (SHA-256 is a standard;
tests/test_sha256_is_hashlibs.py holds them equal), and hashlib's is used where Python was built
without its own (``--without-builtin-hashlib-hashes``)."""

from __future__ import annotations

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import Any


def _constructor() -> Any:
    for module in ("_sha2", "_sha256"):  # Python 3.12+, 3.11
        try:
            return __import__(module).sha256
        except (ImportError, AttributeError):
            continue
    import hashlib

    return hashlib.sha256


sha256: Any = _constructor()  # sha256(data=b"") -> an object with update, digest, hexdigest, copy
