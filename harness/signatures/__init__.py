"""Signatures: whose SSH signatures make an approval count (the trust root), and how one is made and checked."""
