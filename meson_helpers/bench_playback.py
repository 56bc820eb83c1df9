# SPDX-License-Identifier: GPL-3.0-or-later
"""The playback runs: start-up to the first frame, CPU visible, fullscreen and minimized, seeks
to the new frame on screen, peak memory (the main run); frames dropped at 1080p30 and 720p60; the
2160p clip; the 4-minute clip played through. Part of meson_helpers/bench.py (Bench's methods)."""
import time

import gi
gi.require_version("Gio", "2.0")
from gi.repository import GLib  # noqa: E402

from bench_measure import cpu_seconds, dropped_share, log, measure_cpu, measure_cpu_with_x, peak_rss_mb
from bench_session import Probe


class PlaybackRuns:
    def main_run(self, name):
        """Start-up, visible, fullscreen and minimized CPU, seeks and peak memory: one playback."""
        a = self.args
        p = self.make(name, a.clip_main)
        probe = Probe(a.probe) if p.has_window and not self.shell else None
        t0 = time.monotonic_ns()
        p.start()
        try:
            if probe:
                t = probe.wait("bars", t0, 20)
                probe.stop()
                if t is None:
                    raise RuntimeError(f"{p.label}: no frame on screen within 20 s")
                self.record(p.label, "first frame (ms)", (t - t0) / 1e6)
            if p.has_window:
                p.find_window(20)
            time.sleep(a.settle)
            cpu, x_cpu = measure_cpu_with_x(p.pid, self.x_pid, a.window)
            self.record(p.label, "CPU visible 960×540", cpu)
            self.record(p.label, f"{self.compositor} CPU meanwhile", x_cpu)
            if p.has_window:
                p.fullscreen(True)
                time.sleep(a.settle)
                self.record(p.label, "CPU fullscreen 1920×1080", measure_cpu(p.pid, a.window))
                p.fullscreen(False)
                p.minimize()
                # Steady state: a player may stop its video work a while after it is hidden
                # (Reel: 1 s after it sees it; on GNOME it sees it 0.75 s after the shell).
                time.sleep(a.settle + 2)
                self.record(p.label, "CPU minimized", measure_cpu(p.pid, a.window))
                p.restore()
                time.sleep(a.settle)
            else:
                # Nothing to show, so nothing changes: the one figure stands for all three.
                v = self.results[(p.label, "CPU visible 960×540")][-1]
                self.record(p.label, "CPU fullscreen 1920×1080", v)
                self.record(p.label, "CPU minimized", v)
            if p.mpris_prefix and p.alive() and not self.shell:
                self.seeks(p)
            if not p.alive():
                raise RuntimeError(f"{p.label} exited early (see {self.player_log.name})")
            self.record(p.label, "peak RSS (MB)", peak_rss_mb(p.pid))
        finally:
            p.stop()

    def seeks(self, p):
        """MPRIS SetPosition → the new frame on screen, alternating between the orange mark and
        the bars so every landing is visible."""
        a = self.args
        name = p.mpris_name()
        path, iface = "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player"
        probe = Probe(a.probe)
        try:
            for i in range(a.seeks):
                # The orange is drawn from mark to mark + 5 s; land in the middle of a GOP.
                target, kind = (a.mark + 2.5, "orange") if i % 2 == 0 else (a.bars_at, "bars")
                track = self.bus.get(name, path, iface, "Metadata").get("mpris:trackid", "/")
                t0 = time.monotonic_ns()
                self.bus.call(name, path, iface, "SetPosition",
                              GLib.Variant("(ox)", (track, int(target * 1e6))))
                t = probe.wait(kind, t0, 10)
                if t is None:
                    log(f"{p.label}: seek to {target} s never showed {kind}")
                    continue
                self.record(p.label, "seek → new frame (ms)", (t - t0) / 1e6)
                time.sleep(0.6)
        finally:
            probe.stop()

    def drop_run(self, name, clip, fps, key):
        """Frames not shown over a window of steady playback, and the CPU meanwhile."""
        a = self.args
        p = self.make(name, clip)
        probe = Probe(a.probe)
        t0 = time.monotonic_ns()
        p.start()
        try:
            if probe.wait("bars", t0, 20) is None:
                raise RuntimeError(f"{p.label}: no frame on screen within 20 s")
            probe.stop()
            probe = None
            time.sleep(a.settle)
            c0, cpu0, w0 = p.frame_counters(), cpu_seconds(p.pid), time.monotonic()
            time.sleep(a.drop_window)
            c1, cpu1, w1 = p.frame_counters(), cpu_seconds(p.pid), time.monotonic()
            self.record(p.label, f"frames dropped {key} (%)", dropped_share(c0, c1, fps))
            self.record(p.label, f"CPU visible {key}", (cpu1 - cpu0) / (w1 - w0))
        finally:
            if probe:
                probe.stop()
            p.stop()

    def uhd_run(self, name):
        """A 2160p30 clip in the 960×540 window: CPU, dropped frames and peak memory."""
        a = self.args
        p = self.make(name, a.clip_uhd)
        probe = Probe(a.probe)
        t0 = time.monotonic_ns()
        p.start()
        try:
            if probe.wait("bars", t0, 30) is None:
                raise RuntimeError(f"{p.label}: no 2160p frame on screen within 30 s")
            probe.stop()
            probe = None
            time.sleep(a.settle)
            c0, cpu0, w0 = p.frame_counters(), cpu_seconds(p.pid), time.monotonic()
            time.sleep(a.window)
            c1, cpu1, w1 = p.frame_counters(), cpu_seconds(p.pid), time.monotonic()
            self.record(p.label, "2160p30: CPU visible 960×540", (cpu1 - cpu0) / (w1 - w0))
            self.record(p.label, "2160p30: frames dropped (%)", dropped_share(c0, c1, 30))
            self.record(p.label, "2160p30: peak RSS (MB)", peak_rss_mb(p.pid))
        finally:
            if probe:
                probe.stop()
            p.stop()

    def long_run(self, name):
        """The 4-minute 480p clip played through: CPU over the whole playback, peak memory."""
        p = self.make(name, self.args.clip_long)
        p.start()
        try:
            c0, t0 = cpu_seconds(p.pid), time.monotonic()
            peak = c1 = None
            while p.alive() and time.monotonic() - t0 < 300:
                try:
                    c1, peak = cpu_seconds(p.pid), peak_rss_mb(p.pid)
                except OSError:
                    break
                time.sleep(1)
            self.record(p.label, "480p 4 min: CPU", (c1 - c0) / (time.monotonic() - t0) if c1 is not None else None)
            self.record(p.label, "480p 4 min: peak RSS (MB)", peak)
        finally:
            p.stop()
