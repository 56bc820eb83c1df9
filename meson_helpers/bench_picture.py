# SPDX-License-Identifier: GPL-3.0-or-later
"""The picture runs: the seek bar's previews (Reel's), and the CPU with the picture turned by a
phone's rotation tag, its colours adjusted, or both. Part of meson_helpers/bench.py (Bench's methods)."""
import os
import time

from bench_measure import dropped_share, log, measure_cpu, measure_cpu_with_x, run
from bench_players import MPV_MPRIS, Mpv, Reel
from bench_session import Probe, wait_playing


class PictureRuns:
    def preview_run(self, name):
        """Seek-bar previews (Reel's): from the pointer coming to rest over the slider to the
        preview's frame (read from Reel's debug interface: the frame shown is the one asked for
        the time under the pointer), frames dropped by the playing video while the pointer moves
        along the slider, and the CPU with the pointer resting on the slider against away from it."""
        a = self.args
        p = self.make(name, a.clip_main)
        probe = Probe(a.probe)
        t0 = time.monotonic_ns()
        p.start()
        debug = ("org.reelplayer.Reel", "/org/reelplayer/Reel/Debug", "org.reelplayer.Reel.Debug")
        try:
            if probe.wait("bars", t0, 20) is None:
                raise RuntimeError(f"{p.label}: no frame on screen within 20 s")
            probe.stop()
            probe = None
            p.find_window(20)
            time.sleep(a.settle)
            origin = dict(line.split("=") for line in run("xdotool", "getwindowgeometry", "--shell", p.window).split())
            wx, wy = int(origin["X"]), int(origin["Y"])
            # Over the video first (the control bar shows), then onto the slider's trough.
            run("xdotool", "mousemove", str(wx + 300), str(wy + 200))
            time.sleep(0.3)
            trough = self.bus.get(*debug, "ControlBounds")["trough"]
            y = wy + int(trough[1] + trough[3] / 2)
            length = self.bus.get(p.mpris_name(), "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player",
                                  "Metadata")["mpris:length"] / 1e6
            # Each place a new keyframe (a decode each): the most a hovering pointer can cost.
            places = [0.15, 0.35, 0.55, 0.75, 0.3, 0.6, 0.45, 0.85] if a.short else \
                [0.1 + (0.37 * i) % 0.8 for i in range(30)]
            c0, hover0 = p.frame_counters(), time.monotonic()
            for frac in places:
                run("xdotool", "mousemove", str(wx + int(trough[0] + frac * trough[2])), str(y))
                rested = time.monotonic_ns()
                deadline = time.monotonic() + 3
                while time.monotonic() < deadline:
                    times = self.bus.get(*debug, "PreviewTimes")
                    shows, frame = times[:2]
                    if shows >= 0 and abs(frame - shows) < 1e-6 and abs(shows / length - frac) < 0.05:
                        # Reel notes when it showed the frame (both clocks are CLOCK_MONOTONIC):
                        # asking seldom keeps the asking from costing Reel frames. (Builds
                        # before 3 December did not: the time it is seen here, then.)
                        shown = times[2] / 1e3 if len(times) > 2 else time.monotonic_ns() / 1e6
                        self.record(p.label, "preview: frame after the pointer rests (ms)", shown - rested / 1e6)
                        break
                    time.sleep(0.05)
                else:
                    log(f"{p.label}: no preview frame at {frac:.0%} of the slider")
                time.sleep(0.4)
            c1, hovered = p.frame_counters(), time.monotonic() - hover0
            self.record(p.label, "preview: frames dropped while hovering (%)", dropped_share(c0, c1))
            # The same time with the pointer away, over the video: the clip's own drops, to compare.
            run("xdotool", "mousemove", str(wx + 300), str(wy + 200))
            c0 = p.frame_counters()
            time.sleep(hovered)
            self.record(p.label, "preview: frames dropped, pointer away as long (%)", dropped_share(c0, p.frame_counters()))
            run("xdotool", "mousemove", str(wx + int(trough[0] + 0.5 * trough[2])), str(y))
            time.sleep(a.settle)
            rest = measure_cpu(p.pid, a.window)
            run("xdotool", "mousemove", str(wx + 300), str(wy + 200))
            time.sleep(a.settle)
            away = measure_cpu(p.pid, a.window)
            self.record(p.label, "preview: CPU, pointer resting on the slider − away", rest - away)
        finally:
            if probe:
                probe.stop()
            p.stop()

    # The picture runs: the 1080p clip in the 960×540 window as it is, turned by a phone's
    # rotation tag (a copy with `rotate=90`, which GStreamer reads as image-orientation=rotate-270),
    # with its colours adjusted, and both. As it is, it is the main run's "CPU visible 960×540".
    PICTURE_CASES = {"plain": "", "turned": "turned: ", "colours": "colours: ", "turned+colours": "turned + colours: "}

    def colour_link(self, clip):
        """A link of the bench's own to `clip`, for the colour runs: Reel keeps a file's colours
        with its resume position, and the plain runs must not find them."""
        path = os.path.join(self.tmp, "colours-" + os.path.basename(clip))
        if not os.path.lexists(path):
            os.symlink(os.path.abspath(clip), path)
        return path

    def picture_run(self, name, case):
        """CPU in the 960×540 window, with the player's X server (or GNOME Shell) beside it, for
        one of PICTURE_CASES, measured as the main run's visible window: on screen, settle, window."""
        a = self.args
        turned, colours = case.startswith("turned"), case.endswith("colours")
        clip = a.clip_rotated if turned else a.clip_main
        p = self.make(name, self.colour_link(clip) if colours else clip)
        p.colours = colours
        # The probe knows the bars by their pure colours, which adjusted colours are not (mpv's
        # from its first frame, Reel's from its start when the link kept them from a run
        # before): a player with colours is seen playing over MPRIS instead, its window up.
        probe = Probe(a.probe) if not self.shell and not colours else None
        t0 = time.monotonic_ns()
        p.start()
        try:
            if probe:
                t = probe.wait("bars", t0, 20)
                probe.stop()
                probe = None
                if t is None:
                    raise RuntimeError(f"{p.label}: no frame on screen within 20 s")
            p.find_window(20)
            if colours and p.mpris_prefix and (not isinstance(p, Mpv) or os.path.exists(MPV_MPRIS)):
                wait_playing(self.bus, p.mpris_name())
            if colours:
                p.adjust_colours()
            if turned and isinstance(p, Reel):
                # On GNOME the window is seen before the stream's tags are read.
                deadline = time.monotonic() + 10
                while p.orientation() == 0 and time.monotonic() < deadline:
                    time.sleep(0.1)
                if p.orientation() == 0:
                    raise RuntimeError(f"{p.label}: {os.path.basename(clip)} is not turned")
            time.sleep(a.settle)
            cpu, x_cpu = measure_cpu_with_x(p.pid, self.x_pid, a.window)
            if not p.alive():
                raise RuntimeError(f"{p.label} exited early (see {self.player_log.name})")
            # A player that stopped on an error uses no CPU at all: that is no figure.
            if p.mpris_prefix and (not isinstance(p, Mpv) or os.path.exists(MPV_MPRIS)):
                status = self.bus.get(p.mpris_name(), "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player",
                                      "PlaybackStatus")
                if status != "Playing":
                    raise RuntimeError(f"{p.label}: {status}, not playing, after the {case} window "
                                       f"(see {self.player_log.name})")
            prefix = self.PICTURE_CASES[case]
            self.record(p.label, f"{prefix}CPU visible 960×540", cpu)
            self.record(p.label, f"{prefix}{self.compositor} CPU meanwhile", x_cpu)
        finally:
            if probe:
                probe.stop()
            p.stop()
