# SPDX-License-Identifier: GPL-3.0-or-later
"""The library runs: a folder of 1,000 to 100,000 small files opened on the command line: time
to the first sound, resident memory with the queue filled, the queue panel shown and scrolled,
MPRIS Next's answer. Part of meson_helpers/bench.py (Bench's methods)."""
import os
import statistics
import time

import gi
gi.require_version("Gio", "2.0")
from gi.repository import GLib  # noqa: E402

from bench_measure import rss_mb, run
from bench_players import Reel
from bench_session import Recorder


class LibraryRuns:
    def library_folder(self, count):
        """A flat folder of COUNT links to one 2-second sentence (made once per bench)."""
        folder = os.path.join(self.tmp, f"library-{count}")
        if not os.path.isdir(folder):
            os.mkdir(folder)
            target = os.path.abspath(os.path.join(self.args.media, "sentence-1.opus"))
            for n in range(1, count + 1):
                os.symlink(target, os.path.join(folder, f"clip {n}.opus"))
        return folder

    def library_run(self, name, count):
        """A folder of COUNT small files opened on the command line: the time from the start of
        the process to the first sound on the sink's monitor, the resident memory once the queue
        is filled, and how long MPRIS Next takes to answer (the median of five)."""
        a = self.args
        folder = self.library_folder(count)
        p = self.make(name, folder)
        recorder = Recorder()
        recorder.wait_until_recording()
        t0 = time.monotonic()
        p.start()
        try:
            deadline = t0 + 120
            while not recorder.heard_sound():
                if time.monotonic() > deadline or not p.alive():
                    raise RuntimeError(f"{p.label}: no sound from a folder of {count}")
                time.sleep(0.01)
            self.record(p.label, f"{count:,} files: first sound (ms)", (time.monotonic() - t0) * 1000)
            # The queue fills in behind the first file (Reel lists the folder off the main thread).
            time.sleep(a.settle + 3)
            self.record(p.label, f"{count:,} files: resident memory (MB)", rss_mb(p.pid))
            if isinstance(p, Reel):
                # The queue panel (F9's action): until its rows are there to read.
                debug = ("org.reelplayer.Reel", "/org/reelplayer/Reel/Debug", "org.reelplayer.Reel.Debug")
                t = time.monotonic()
                p.action("show-queue")
                while not self.bus.get(*debug, "QueueRowTitles"):
                    if time.monotonic() - t > 10:
                        raise RuntimeError(f"{p.label}: no queue rows")
                    time.sleep(0.005)
                self.record(p.label, f"{count:,} files: queue panel shown (ms)", (time.monotonic() - t) * 1000)
                self.scroll_queue(p, count, debug)
            bus_name = p.mpris_name()
            latencies = []
            for _ in range(5):
                t = time.monotonic()
                self.bus.call(bus_name, "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player", "Next")
                latencies.append((time.monotonic() - t) * 1000)
                time.sleep(0.3)
            self.record(p.label, f"{count:,} files: MPRIS Next answered (ms)", statistics.median(latencies))
        finally:
            recorder.stop()
            p.stop()

    def scroll_queue(self, p, count, debug):
        """60 turns of the mouse wheel over the queue panel, 20 ms apart: the frames the window
        took longer than 16.7 ms to lay out and paint meanwhile (Reel's frame clock), and the
        longest. Builds without the counter are skipped, and so is GNOME (the wheel is xdotool's,
        an X client's)."""
        if self.shell:
            return
        try:
            self.bus.call(*debug, "StartCountingFrameWork")
        except GLib.Error:
            return
        window = p.find_window()
        geometry = dict(line.strip().split(": ", 1) for line in
                        run("xdotool", "getwindowgeometry", window).splitlines()[1:] if ": " in line)
        x, y = (int(v) for v in geometry["Position"].split(" ")[0].split(","))
        width, height = (int(v) for v in geometry["Geometry"].split("x"))
        run("xdotool", "mousemove", str(x + width - 140), str(y + height // 2))
        run("xdotool", "click", "--repeat", "60", "--delay", "20", "5")
        time.sleep(0.5)
        frames, slow, longest = self.bus.get(*debug, "FrameWork")
        if frames == 0:
            raise RuntimeError(f"{p.label}: no frame drawn while the queue scrolled")
        self.record(p.label, f"{count:,} files: queue scrolled, frames drawn (count)", frames)
        self.record(p.label, f"{count:,} files: queue scrolled, frames over 16.7 ms (count)", slow)
        self.record(p.label, f"{count:,} files: queue scrolled, longest frame (ms)", longest)
