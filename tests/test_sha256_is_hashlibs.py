"""harness.core.sha256 (Python's own SHA-256, loaded without hashlib's OpenSSL binding) gives
hashlib's digests: for every input, at once or fed in pieces, and from a copy taken midway."""

from __future__ import annotations

import hashlib

from hypothesis import given
from hypothesis import strategies as st

from harness.core.sha256 import sha256


@given(st.binary(max_size=4096))
def test_a_digest_is_hashlibs(data):
    assert sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()
    assert sha256(data).digest() == hashlib.sha256(data).digest()


@given(st.lists(st.binary(max_size=300), max_size=8))
def test_a_digest_fed_in_pieces_and_copied_midway_is_hashlibs(pieces):
    ours, theirs = sha256(), hashlib.sha256()
    for piece in pieces:
        ours.update(piece)
        theirs.update(piece)
        assert ours.copy().hexdigest() == theirs.copy().hexdigest()
    assert ours.hexdigest() == theirs.hexdigest() == hashlib.sha256(b"".join(pieces)).hexdigest()


def test_the_empty_digest_is_the_standard_one():
    assert sha256().hexdigest() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


def test_a_file_digest_is_the_same_below_and_above_the_size_that_picks_the_implementation(tmp_path):
    import hashlib

    from harness.store import bounded

    for size in (0, 1, bounded._SMALL - 1, bounded._SMALL, bounded._SMALL + 4097):
        path = tmp_path / f"f{size}"
        data = bytes(range(256)) * (size // 256) + b"x" * (size % 256)
        path.write_bytes(data)
        assert bounded.sha256(path, "log") == hashlib.sha256(data).hexdigest(), size
