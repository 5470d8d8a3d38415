"""Kept for the checks that move into swift test (check-invariants, check-crash, check-hanging-receivers): cilib holds these now."""
from cilib import LOGIN, PASS, SECRET, Broken, Client, create_fields, read_answers, signature  # noqa: F401
