#!/usr/bin/env python3
# Usage: python3 scripts/bar_frames.py "lightsout ARGS" 10,20,30 (docs/performance.md).
# Runs a command under a pty (script), stamps what the bar drew with the
# elapsed time, and prints the bar's text at the times asked plus the end.
import os, re, subprocess, sys, time
cmd = sys.argv[1]
marks = [float(x) for x in sys.argv[2].split(",")]
t0 = time.time()
p = subprocess.Popen(["script", "-qfc", "stty cols 220 rows 50; " + cmd, "/dev/null"], stdout=subprocess.PIPE)
buf = b""; frames = []
fd = p.stdout.fileno()
while True:
    chunk = os.read(fd, 65536)
    if not chunk:
        break
    now = time.time() - t0
    buf += chunk
    text = re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]", b"\r", buf).decode("utf8", "replace")
    parts = [s.strip() for s in re.split(r"[\r\n]", text) if s.strip()]
    if parts:
        frames.append((now, parts[-1]))
    buf = buf[-4096:]
p.wait()
end = time.time() - t0
for m in marks:
    seen = [f for f in frames if f[0] <= m]
    if seen and m < end:
        print(f"{m:6.0f} s: {seen[-1][1][-110:]}")
print(f"ended at {end:.1f} s; last line: {frames[-1][1][-150:] if frames else ''}")
