# SPDX-License-Identifier: GPL-3.0-or-later
"""The sound runs, heard on the null sink's monitor: speed changes while playing (silences, the
position's jumps back and standstills), a learner's folder of short sentences at 1.8× (the
silences between them) and an album whose tracks are one recording (the breaks between them). Part of meson_helpers/bench.py (Bench's methods)."""
import os
import time

import gi
gi.require_version("Gio", "2.0")
from gi.repository import GLib  # noqa: E402

from bench_measure import longest_standstill
from bench_session import Recorder, wait_playing


class SoundRuns:
    def rate_run(self, name):
        """Speed changes while playing (MPRIS Rate 1 → 1.5 → 1 → 0.75 → 1, 2 s apart): the
        longest silence on the sink's monitor from the first sound on, and the largest step back
        of the position and its longest standstill, polled every 20 ms."""
        a = self.args
        p = self.make(name, a.clip_main)
        recorder = Recorder()
        p.start()
        try:
            bus_name = p.mpris_name()
            path, iface = "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player"
            wait_playing(self.bus, bus_name)
            time.sleep(a.settle)
            positions = []

            def poll(seconds):
                end = time.monotonic() + seconds
                while time.monotonic() < end:
                    positions.append((time.monotonic(), self.bus.get(bus_name, path, iface, "Position") / 1e6))
                    time.sleep(0.02)

            poll(1)
            for rate in (1.5, 1.0, 0.75, 1.0):
                self.bus.call(bus_name, path, "org.freedesktop.DBus.Properties", "Set",
                              GLib.Variant("(ssv)", (iface, "Rate", GLib.Variant("d", rate))))
                poll(2)
            if not p.alive():
                raise RuntimeError(f"{p.label} exited during the speed changes")
            silence = recorder.longest_silence_ms()
            back = max([0.0] + [a - b for (_, a), (_, b) in zip(positions, positions[1:])])
            self.record(p.label, "speed change: longest silence (ms)", silence)
            self.record(p.label, "speed change: position jump back (ms)", back * 1000)
            self.record(p.label, "speed change: position standing still (ms)", longest_standstill(positions) * 1000)
        finally:
            recorder.stop()
            p.stop()

    def learner_run(self, name):
        """A learner's folder at 1.8×: four 2-second sentences played one after the other; the
        silences between them on the sink's monitor (the dead time between two plays)."""
        a = self.args
        files = [os.path.join(a.media, f"sentence-{n}.opus") for n in range(1, 5)]
        p = self.make(name, files[0])
        p.clip_list = files
        p.speed = 1.8
        recorder = Recorder()
        p.start()
        try:
            # Four sentences of 2 s at 1.8× take 4.4 s; the player may take its time to start.
            recorder.wait_for_sound(20)
            time.sleep(4 * 2 / 1.8 + 1.5)
            gaps = recorder.silences_ms()[:3]
            if len(gaps) < 3:
                raise RuntimeError(f"{p.label}: {len(gaps)} transitions heard, not 3")
            for gap in gaps:
                self.record(p.label, "learner at 1.8×: silence between sentences (ms)", gap)
        finally:
            recorder.stop()
            p.stop()

    def gapless_run(self, name):
        """An album whose four 3 s tracks are one unbroken tone (FLAC, 44.1 kHz stereo), played
        one after the other at 1×: the breaks between tracks on the sink's monitor, at 1 ms."""
        a = self.args
        files = [os.path.join(a.media, f"album-part-{n}.flac") for n in range(1, 5)]
        p = self.make(name, files[0])
        p.clip_list = files
        recorder = Recorder()
        p.start()
        try:
            recorder.wait_for_sound(20)
            time.sleep(4 * 3 + 1.5)
            for gap in recorder.silences_ms(window=8)[:3]:
                self.record(p.label, "gapless album: break between tracks (ms)", gap)
        finally:
            recorder.stop()
            p.stop()
