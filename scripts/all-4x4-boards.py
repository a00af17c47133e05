#!/usr/bin/env python3
"""Prints all 65,536 4x4 Flip Game boards, one after another (POJ format)."""
import sys

out = []
for s in range(1 << 16):
    for r in range(4):
        out.append("".join("b" if s >> (4 * r + c) & 1 else "w" for c in range(4)))
sys.stdout.write("\n".join(out) + "\n")
