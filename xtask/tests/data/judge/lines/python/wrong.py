"""Fixture: a wrong answer to the lines problem in Python (one too many)."""
import sys

print(sum(int(word) for word in sys.stdin.read().split()) + 1)
