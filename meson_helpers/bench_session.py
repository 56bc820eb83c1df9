# SPDX-License-Identifier: GPL-3.0-or-later
"""What the bench watches in the test session, beside /proc: the sound on the null sink's
monitor (Recorder), what is drawn on screen (Probe, bench-probe), the session bus (Bus, and
MPRIS's PlaybackStatus) and GNOME Shell's window manager (Shell). Part of meson_helpers/bench.py."""
import array
import json
import os
import subprocess
import tempfile
import threading
import time

import gi
gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402


class Recorder:
    """What reaches the session's null sink (its monitor), as 8 kHz mono samples, in a file
    (parec blocks on a full pipe)."""
    RATE = 8000
    WINDOW = 40        # 5 ms
    QUIET = 300        # peak level under which a window is silent (the clips' tone peaks near 10 000)

    def __init__(self):
        self.file = tempfile.NamedTemporaryFile(prefix="reel-bench-rec-", suffix=".raw")
        self.proc = subprocess.Popen(["parec", "-d", "reel_null.monitor", "--raw", "--format=s16le",
                                      f"--rate={self.RATE}", "--channels=1", "--latency-msec=10"],
                                     stdout=self.file, stderr=subprocess.DEVNULL)

    def levels(self, window=WINDOW):
        self.file.flush()
        with open(self.file.name, "rb") as f:
            data = f.read()
        samples = array.array("h", data[:len(data) // 2 * 2])
        return [max(map(abs, samples[i:i + window]), default=0)
                for i in range(0, len(samples) - window, window)]

    def wait_until_recording(self, timeout=5):
        """Returns once parec writes samples, so that a player started next is heard from its start."""
        deadline = time.monotonic() + timeout
        while os.path.getsize(self.file.name) < self.RATE // 10 and time.monotonic() < deadline:
            time.sleep(0.01)

    def heard_sound(self):
        """Whether the last 100 ms held a sound (read from the end of the file alone)."""
        self.file.flush()
        with open(self.file.name, "rb") as f:
            size = os.path.getsize(self.file.name) // 2 * 2
            f.seek(max(0, size - 2 * self.RATE // 10))
            samples = array.array("h", f.read(2 * self.RATE // 10))
        return any(abs(s) > self.QUIET for s in samples)

    def wait_for_sound(self, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(level > self.QUIET for level in self.levels()[-20:]):
                return
            time.sleep(0.05)
        raise RuntimeError("no sound on the sink's monitor")

    def _runs(self, window=WINDOW):
        """The silent runs (in windows) between the first and the last sound."""
        levels = self.levels(window)
        loud = [i for i, level in enumerate(levels) if level > self.QUIET]
        if not loud:
            raise RuntimeError("no sound on the sink's monitor")
        runs, run = [], 0
        for level in levels[loud[0]:loud[-1] + 1]:
            if level <= self.QUIET:
                run += 1
            elif run:
                runs.append(run)
                run = 0
        return runs

    def longest_silence_ms(self):
        return max(self._runs(), default=0) * 1000 * self.WINDOW / self.RATE

    def silences_ms(self, window=WINDOW):
        """Silences between sounds, longest first, padded with zeros: a gapless change has none.
        `window`: the samples a level is taken over (1 ms is 8: the gapless run's resolution)."""
        runs = sorted(self._runs(window), reverse=True)
        return [r * 1000 * window / self.RATE for r in runs] + [0.0] * 8

    def stop(self):
        self.proc.terminate()
        self.proc.wait()
        self.file.close()


def wait_playing(bus, name, timeout=20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if bus.get(name, "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player", "PlaybackStatus") == "Playing":
                return
        except GLib.Error:
            pass
        time.sleep(0.05)
    raise RuntimeError(f"{name} never played")


class Probe:
    """bench-probe: reports when the clip's colour bars or its orange mark are drawn on screen."""

    def __init__(self, path):
        self.events = []
        self.cond = threading.Condition()
        self.proc = subprocess.Popen([path], stdout=subprocess.PIPE, text=True)
        if self.proc.stdout.readline().strip() != "ready":
            raise RuntimeError("bench-probe did not start")
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            t, kind = line.split()
            with self.cond:
                self.events.append((int(t), kind))
                self.cond.notify_all()

    def wait(self, kind, after_ns, timeout):
        """Monotonic time (ns) at which `kind` was first drawn after `after_ns`, or None."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for t, k in self.events:
                    if k == kind and t >= after_ns:
                        return t
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.cond.wait(left)

    def stop(self):
        self.proc.terminate()
        self.proc.wait()


class Shell:
    """GNOME Shell's window manager, through its Eval (the test session runs it in unsafe mode)."""

    def __init__(self, bus):
        self.bus = bus

    def eval(self, js):
        ok, value = self.bus.call("org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell", "Eval", GLib.Variant("(s)", (js,)))
        if not ok:
            raise RuntimeError(f"GNOME Shell: {value}")
        return json.loads(value) if value else None

    def window(self, pid, action=None):
        """The sequence number of `pid`'s window, after running `action` (JS on `w`) on it."""
        return self.eval(f"""(() => {{ const w = global.get_window_actors().map(a => a.meta_window)
            .find(w => w.get_pid() === {pid} && !w.get_transient_for());
            if (!w) return null; {action or ''}; return String(w.get_stable_sequence()) }})()""")


class Bus:
    def __init__(self):
        self.conn = Gio.bus_get_sync(Gio.BusType.SESSION, None)

    def call(self, name, path, iface, method, args=None, timeout_ms=5000):
        return self.conn.call_sync(name, path, iface, method, args, None, Gio.DBusCallFlags.NONE, timeout_ms, None).unpack()

    def get(self, name, path, iface, prop):
        return self.call(name, path, "org.freedesktop.DBus.Properties", "Get", GLib.Variant("(ss)", (iface, prop)))[0]

    def names(self):
        return self.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ListNames")[0]

    def owner_pid(self, name):
        return self.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                         "GetConnectionUnixProcessID", GLib.Variant("(s)", (name,)))[0]
