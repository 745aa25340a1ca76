"""Fixture: the lines problem's answer in Python, for `cargo xtask test --command`."""
import sys

print(sum(int(word) for word in sys.stdin.read().split()))
