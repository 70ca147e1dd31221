"""sha-256 for the agent guard's caches, without hashlib.

hashlib loads OpenSSL as it is imported, which costs a guarded tool call more than the hashing
it does (bashlex's ~200 kB of source, a config file): the interpreter's own sha-256 module gives
the same digests for a fraction of that.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing costs a guarded shell command more than the hashing
if TYPE_CHECKING:
    from typing import Any


def sha256(data: bytes = b"") -> Any:
    """A sha-256 hash object from the interpreter's own module: hashlib loads OpenSSL first, which
    costs the guard more than hashing bashlex's ~200 kB of source."""
    try:
        from _sha256 import sha256 as made  # type: ignore[import-not-found]  # Python 3.11
    except ImportError:
        try:
            from _sha2 import sha256 as made  # type: ignore[import-not-found]  # 3.12 and later
        except ImportError:
            from hashlib import sha256 as made  # a build without them
    return made(data)
