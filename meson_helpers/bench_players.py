# SPDX-License-Identifier: GPL-3.0-or-later
"""The players the bench measures side by side, each started on the same clip: Reel, GTK's own
GtkVideo, mpv (--vo=x11, --vo=gpu) and two GStreamer baselines (decode only, audio only); what
each can report (frame counters, MPRIS, its colours). Part of meson_helpers/bench.py."""
import json
import os
import signal
import socket
import subprocess
import time

import gi
gi.require_version("Gio", "2.0")
from gi.repository import GLib  # noqa: E402

from bench_measure import run

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MPV_MPRIS = "/usr/lib/mpv-mpris/mpris.so"


class Player:
    """One process playing one clip. Subclasses say how to start it and what it can report."""
    label = ""
    has_window = True
    mpris_prefix = None   # bus name (prefix) of its MPRIS server, if it has one

    def __init__(self, bench, clip):
        self.bench, self.clip = bench, clip
        self.window = None
        self.clip_list = None   # several files, played one after the other
        self.speed = None       # a start at another speed
        self.colours = False    # the colours adjusted (brightness +0.2, saturation 0.8)

    @property
    def files(self):
        return self.clip_list or [self.clip]

    def command(self):
        raise NotImplementedError

    def environment(self):
        return {}

    def start(self):
        env = dict(os.environ, **self.environment())
        self.proc = subprocess.Popen(self.command(), env=env, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=self.bench.player_log)
        self.pid = self.proc.pid

    def alive(self):
        return self.proc.poll() is None

    def find_window(self, timeout=10):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.alive():
            if self.bench.shell:
                self.window = self.bench.shell.window(self.pid, "if (w.is_hidden()) return null")
            else:
                ids = run("xdotool", "search", "--onlyvisible", "--pid", str(self.pid)).split()
                self.window = ids[-1] if ids else None
            if self.window:
                return self.window
            time.sleep(0.05)
        raise RuntimeError(f"{self.label}: no window")

    def fullscreen(self, on):
        if self.bench.shell:
            self.bench.shell.window(self.pid, "w.make_fullscreen()" if on else "w.unmake_fullscreen()")
        else:
            run("wmctrl", "-i", "-r", self.window, "-b", ("add" if on else "remove") + ",fullscreen")

    def minimize(self):
        if self.bench.shell:
            self.bench.shell.window(self.pid, "w.minimize()")
        else:
            run("xdotool", "windowminimize", "--sync", self.window)

    def restore(self):
        if self.bench.shell:
            self.bench.shell.window(self.pid, "w.unminimize(); w.activate(global.get_current_time())")
        else:
            run("wmctrl", "-i", "-a", self.window)

    def frame_counters(self):
        """(frames shown or presented, frames dropped or None, playback position s) or None."""
        return None

    def adjust_colours(self):
        """Once it plays: the colours adjusted, as a user would (a player that takes them at its
        start, on its command line, has nothing to do here)."""

    def mpris_name(self, timeout=10):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for n in self.bench.bus.names():
                if n == self.mpris_prefix or n.startswith(self.mpris_prefix + "."):
                    return n
            time.sleep(0.05)
        raise RuntimeError(f"{self.label}: no MPRIS name")

    def stop(self):
        if self.alive():
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Reel(Player):
    label = "Reel"
    mpris_prefix = "org.mpris.MediaPlayer2.Reel"

    def __init__(self, bench, clip, binary=None, label=None):
        super().__init__(bench, clip)
        self.binary = binary or bench.args.reel
        if label:
            self.label = label

    def command(self):
        return [self.binary] + ([f"--rate={self.speed}"] if self.speed else []) + self.files

    def environment(self):
        return {"REEL_DEBUG_DBUS": "1"}

    def frame_counters(self):
        bus = self.bench.bus
        debug = ("org.reelplayer.Reel", "/org/reelplayer/Reel/Debug", "org.reelplayer.Reel.Debug")
        # A Reel already running takes the files and this process exits: the counters and the
        # CPU would then be read from two processes.
        owner = bus.owner_pid(self.mpris_prefix)
        if owner != self.pid:
            raise RuntimeError(f"{self.label}: the bus name is Reel process {owner}'s, not this run's {self.pid}")
        position = bus.get(self.mpris_prefix, "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player", "Position") / 1e6
        # Frames never drawn, exactly, from the timestamps of those drawn (builds since 3
        # December); older builds give frames shown, compared with the position (±1 frame).
        try:
            return None, bus.get(*debug, "FramesSkipped"), position
        except GLib.Error:
            return bus.get(*debug, "FramesShown"), None, position

    def action(self, name):
        """Activates app.NAME, as a key press or the menu does (GApplication exports its actions)."""
        self.bench.bus.call("org.reelplayer.Reel", "/org/reelplayer/Reel", "org.gtk.Actions", "Activate",
                            GLib.Variant("(sava{sv})", (name, [], {})))

    def adjust_colours(self):
        """Four presses of Brighter and of Less Saturation (0.05 each): brightness +0.2, saturation
        0.8. Reel keeps a file's colours with its resume position (and saves them every 5 s), so
        the bench plays a link of its own for these runs and starts from neutral colours."""
        self.action("reset-colours")
        for _ in range(4):
            self.action("more-brightness")
            self.action("less-saturation")
        # Each press shows a toast (8 s); the steady state, which is measured, has none. (The
        # short setting does not wait: its figures only show that the measurement works.)
        if self.bench.args.short:
            return
        debug = ("org.reelplayer.Reel", "/org/reelplayer/Reel/Debug", "org.reelplayer.Reel.Debug")
        deadline = time.monotonic() + 12
        try:
            while self.bench.bus.get(*debug, "ToastShown") and time.monotonic() < deadline:
                time.sleep(0.1)
        except GLib.Error:
            pass   # builds without that property: the toast may still be up

    def orientation(self):
        """The turn Reel applies to the frames (GstVideoOrientationMethod: 3 = rotate-270), or
        None for builds that do not say."""
        try:
            return self.bench.bus.get("org.reelplayer.Reel", "/org/reelplayer/Reel/Debug",
                                      "org.reelplayer.Reel.Debug", "PictureOrientation")
        except GLib.Error:
            return None


class GtkVideo(Player):
    label = "GtkVideo"

    def command(self):
        return ["/usr/bin/python3", os.path.join(REPO, "meson_helpers/bench-gtkvideo.py"), self.clip, "960", "540"]


class Mpv(Player):
    mpris_prefix = "org.mpris.MediaPlayer2.mpv"

    def __init__(self, bench, clip, vo):
        super().__init__(bench, clip)
        self.vo = vo
        self.label = f"mpv --vo={vo}"
        self.socket = os.path.join(bench.tmp, f"mpv-{vo}-{time.monotonic_ns()}.sock")

    def command(self):
        cmd = ["mpv", "--no-config", f"--vo={self.vo}", "--ao=pulse", "--geometry=960x540", "--keep-open=no",
               f"--input-ipc-server={self.socket}", "--no-terminal"]
        if self.vo == "gpu":
            cmd.append("--gpu-sw")   # mpv refuses a software GL renderer unless told it may use one
        if os.path.exists(MPV_MPRIS):
            cmd.append(f"--script={MPV_MPRIS}")
        if self.speed:
            cmd.append(f"--speed={self.speed}")
        if self.colours:
            # The same as Reel's four presses each. --vo=x11 ignores --brightness and --saturation
            # (mpv 0.35; seen on screen: the bars unchanged), so there it is libavfilter's eq
            # filter on the decoded frames, the way an mpv user on that VO gets the colours
            # changed; --vo=gpu does them in its shaders.
            cmd += ["--vf=eq=brightness=0.2:saturation=0.8"] if self.vo == "x11" else \
                ["--brightness=20", "--saturation=-20"]
        return cmd + self.files

    def ipc(self, *command):
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(5)
            s.connect(self.socket)
            s.sendall((json.dumps({"command": list(command)}) + "\n").encode())
            data = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    return None
                data += chunk
                for line in data.split(b"\n"):
                    if line.strip():
                        reply = json.loads(line)
                        if "error" in reply:
                            return reply.get("data")

    def frame_counters(self):
        # frame-drop-count: frames the VO dropped; decoder-frame-drop-count: frames the decoder
        # skipped to catch up. Both are frames the viewer did not see.
        shown = None
        dropped = (self.ipc("get_property", "frame-drop-count") or 0) + \
                  (self.ipc("get_property", "decoder-frame-drop-count") or 0)
        return shown, dropped, self.ipc("get_property", "time-pos") or 0.0


class GstBaseline(Player):
    has_window = False

    def __init__(self, bench, clip, audio_only):
        super().__init__(bench, clip)
        self.audio_only = audio_only
        self.label = "audio only" if audio_only else "decode only"

    def command(self):
        uri = "file://" + os.path.abspath(self.clip)
        if self.audio_only:
            # The sound alone: playbin with flags=audio decodes the video all the same (1.22).
            return ["gst-launch-1.0", "-q", "uridecodebin", f"uri={uri}", "caps=audio/x-raw", "expose-all-streams=false",
                    "!", "audioconvert", "!", "audioresample", "!", "pulsesink"]
        # The video is decoded and synchronised to the clock, then thrown away.
        return ["gst-launch-1.0", "-q", "playbin", f"uri={uri}", "video-sink=fakesink sync=true",
                "audio-sink=pulsesink"]
