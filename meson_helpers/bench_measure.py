# SPDX-License-Identifier: GPL-3.0-or-later
"""The bench's figures read from outside the players: CPU time and memory from /proc (the
player's and the display server's), and what a player's frame counters and position readings
say about frames dropped and standstills; log() and run() (a command's output) for every part.
Part of meson_helpers/bench.py."""
import os
import subprocess
import sys
import time

CLK_TCK = os.sysconf("SC_CLK_TCK")


def log(*args):
    print("bench:", *args, file=sys.stderr, flush=True)


def cpu_seconds(pid):
    """User + system CPU time the process has used so far (all its threads)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def memory_mb(pid, field):
    """A memory figure of /proc/PID/status (VmRSS: resident now, VmHWM: its peak), in MB."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return None


def rss_mb(pid):
    return memory_mb(pid, "VmRSS")


def peak_rss_mb(pid):
    return memory_mb(pid, "VmHWM")


def measure_cpu(pid, seconds):
    """CPU cores used over `seconds` of wall-clock time."""
    c0, t0 = cpu_seconds(pid), time.monotonic()
    time.sleep(seconds)
    c1, t1 = cpu_seconds(pid), time.monotonic()
    return (c1 - c0) / (t1 - t0)


def compositor_pid(desktop):
    """The session's display server: Xvfb, or GNOME Shell (the Wayland compositor). It does the
    final copy of every frame a player puts on screen."""
    session = os.environ.get("REEL_TEST_SESSION_DIR", "")
    program = b"gnome-shell" if desktop == "gnome" else b"Xvfb"
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if not f.read().startswith(program):
                    continue
            with open(f"/proc/{pid}/environ", "rb") as f:
                if f"REEL_TEST_SESSION_DIR={session}".encode() in f.read().split(b"\0"):
                    return int(pid)
        except OSError:
            continue
    return None


def measure_cpu_with_x(pid, x_pid, seconds):
    """(player cores, X server cores) over the same `seconds`."""
    c0, x0, t0 = cpu_seconds(pid), cpu_seconds(x_pid) if x_pid else 0, time.monotonic()
    time.sleep(seconds)
    c1, x1, t1 = cpu_seconds(pid), cpu_seconds(x_pid) if x_pid else 0, time.monotonic()
    return (c1 - c0) / (t1 - t0), ((x1 - x0) / (t1 - t0)) if x_pid else None


def run(*cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout


def dropped_share(c0, c1, fps=30):
    """Frames dropped (%) between two readings of a player's frame counters (shown, dropped, position):
    the dropped count when there is one, else whole frames missing from those shown (the position
    and the count are not read at the same instant)."""
    played = c1[2] - c0[2]
    if played <= 0:
        return None
    dropped = c1[1] - c0[1] if c0[0] is None else max(0, round(played * fps - (c1[0] - c0[0])))
    return 100 * dropped / (played * fps)


def longest_standstill(readings):
    """The longest time (s) over which (time, position) readings did not move."""
    longest, since = 0.0, readings[0]
    for reading in readings[1:]:
        if reading[1] != since[1]:
            longest = max(longest, reading[0] - since[0])
            since = reading
    return max(longest, readings[-1][0] - since[0])
