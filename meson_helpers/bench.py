#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The benchmark's driver; meson_helpers/bench builds what it needs and runs it inside
meson_helpers/test-session. It starts each player on the same clip, measures it from outside
(/proc for CPU and memory, the X server for what is on screen, D-Bus for seeks) and prints one
table. Every player is measured the same way; what a player cannot report is "n/a".
On the GNOME desktop (GNOME Shell on Wayland) the shell's window manager sizes, fullscreens and
minimizes the players; what is on screen cannot be watched there (the probe is an X client), so
that table has the CPU and memory figures only.
"""
import argparse
import os
import subprocess
import tempfile
import time

from bench_library import LibraryRuns
from bench_measure import compositor_pid, log
from bench_picture import PictureRuns
from bench_playback import PlaybackRuns
from bench_players import GstBaseline, GtkVideo, Mpv, Reel
from bench_report import Report
from bench_session import Bus, Probe, Shell
from bench_sound import SoundRuns

# What each part measures: bench_playback (start-up, CPU, seeks, dropped frames, 2160p, the long
# clip), bench_picture (seek-bar previews, the picture turned or with colours adjusted),
# bench_sound (speed changes, a learner's sentences), bench_library (large folders and the queue),
# bench_report (the table and the targets); bench_players (the players), bench_measure (/proc and
# the figures from frame counters) and bench_session (sound, screen, D-Bus, GNOME Shell).


class Bench(PlaybackRuns, PictureRuns, SoundRuns, LibraryRuns, Report):
    def __init__(self, args):
        self.args = args
        self.bus = Bus()
        self.tmp = tempfile.mkdtemp(prefix="reel-bench-")
        self.player_log = open(os.path.join(self.tmp, "players.log"), "w")
        self.results = {}   # (player label, figure) -> [values]
        self.shell = Shell(self.bus) if args.desktop == "gnome" else None
        self.compositor = "GNOME Shell" if self.shell else "X server"
        self.x_pid = compositor_pid(args.desktop)

    def record(self, player, figure, value):
        self.results.setdefault((player, figure), []).append(value)

    def make(self, name, clip):
        if name == "reel":
            return Reel(self, clip)
        if name.startswith("reel="):   # another build of Reel, e.g. the one before a change
            label, path = name[5:].split(":", 1) if ":" in name[5:] else ("Reel (other)", name[5:])
            return Reel(self, clip, binary=path, label=label)
        if name == "gtkvideo":
            return GtkVideo(self, clip)
        if name == "mpv-x11":
            return Mpv(self, clip, "x11")
        if name == "mpv-gpu":
            return Mpv(self, clip, "gpu")
        if name == "decode-only":
            return GstBaseline(self, clip, audio_only=False)
        if name == "audio-only":
            return GstBaseline(self, clip, audio_only=True)
        raise SystemExit(f"bench: unknown player {name}")

    def warm_up(self, players):
        """Each player once, untimed: the session's caches are new (GStreamer's plugin registry,
        fontconfig's cache, the clip in the page cache), and only the first player to start would
        pay for them otherwise."""
        subprocess.run(["gst-inspect-1.0"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for name in players:
            p = self.make(name, self.args.clip_main)
            if not p.has_window or self.shell:
                continue
            probe = Probe(self.args.probe)
            t0 = time.monotonic_ns()
            p.start()
            try:
                probe.wait("bars", t0, 20)
            finally:
                probe.stop()
                p.stop()
            time.sleep(0.5)

    def run(self):
        a = self.args
        players = a.players.split(",")
        log("warming up")
        self.warm_up(players)
        order = []
        if a.long:
            order += [("long", name) for name in players if name != "decode-only"]
        for r in range(a.runs):
            for name in players:
                order.append(("main", name))
            for name in players if not self.shell else []:
                if name in ("reel", "mpv-x11", "mpv-gpu") or name.startswith("reel="):
                    for clip, fps, key in a.drop_clips:
                        order.append(("drop", name, clip, fps, key))
                    order.append(("uhd", name))
                if name == "reel" or name.startswith("reel="):
                    order.append(("preview", name))
            # The picture turned and its colours adjusted, beside the same as it is (the main run's,
            # unless it is not taken): Reel and the peers that show the same on this desktop, mpv
            # --vo=x11 (on GNOME, which has no X server, --vo=gpu); GtkVideo has no colours.
            cases = list(self.PICTURE_CASES)
            if not a.only or "main" in a.only.split(","):
                cases.remove("plain")
            for case in cases:
                for name in players:
                    if name in ("reel", "gtkvideo", "mpv-x11") or name.startswith("reel=") or \
                            (name == "mpv-gpu" and "mpv-x11" not in players):
                        if not (name == "gtkvideo" and case.endswith("colours")):
                            order.append(("picture", name, case))
            # Sound only: measured on either desktop (--short, CI's: on X11 alone, as the sound
            # path is the same on both).
            for name in players:
                if name in ("reel", "mpv-x11", "mpv-gpu") or name.startswith("reel="):
                    if not (a.short and self.shell):
                        order += [("rate", name), ("learner", name), ("gapless", name)]
                    for count in a.library_sizes:
                        order.append(("library", name, count))
        if a.only:
            order = [job for job in order if job[0] in a.only.split(",")]
        for i, job in enumerate(order):
            log(f"[{i + 1}/{len(order)}] {' '.join(str(x) for x in job[:2])} {os.path.basename(str(job[2])) if len(job) > 2 else ''}")
            try:
                if job[0] == "main":
                    self.main_run(job[1])
                elif job[0] == "long":
                    self.long_run(job[1])
                elif job[0] == "rate":
                    self.rate_run(job[1])
                elif job[0] == "learner":
                    self.learner_run(job[1])
                elif job[0] == "gapless":
                    self.gapless_run(job[1])
                elif job[0] == "uhd":
                    self.uhd_run(job[1])
                elif job[0] == "preview":
                    self.preview_run(job[1])
                elif job[0] == "picture":
                    self.picture_run(job[1], job[2])
                elif job[0] == "library":
                    self.library_run(job[1], job[2])
                else:
                    self.drop_run(*job[1:])
            except Exception as e:  # one failed run is reported, the rest goes on
                log(f"run failed: {e}")
                self.record("errors", str(e), 1)
            time.sleep(1)
        self.print_table([self.make(n, a.clip_main).label for n in players])


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--media", required=True)
    ap.add_argument("--probe", required=True)
    ap.add_argument("--reel", required=True, help="the release build of reel")
    ap.add_argument("--short", action="store_true", help="the CI setting: short clip, one run, short windows")
    ap.add_argument("--runs", type=int)
    ap.add_argument("--window", type=float, help="seconds of each CPU measurement")
    ap.add_argument("--drop-window", type=float, help="seconds of the dropped-frames measurement")
    ap.add_argument("--players", help="comma-separated; reel=LABEL:PATH adds another Reel build (default: all, "
                    "without mpv --vo=x11 on GNOME, which has no X server)")
    ap.add_argument("--desktop", default=os.environ.get("REEL_TEST_DESKTOP", "x11"), choices=["x11", "gnome"])
    ap.add_argument("--seeks", type=int, help="seeks per run")
    ap.add_argument("--strict", action="store_true", help="exit 1 if any run failed")
    ap.add_argument("--long", action="store_true", help="also play the 4-minute 480p clip through once per player")
    ap.add_argument("--only", help="comma-separated kinds of run to take, of main, drop, uhd, preview, picture, rate, "
                    "learner, gapless, library, long (for an A/B of one change; the full bench takes them all; picture without main "
                    "measures the unturned, neutral case itself)")
    ap.add_argument("--library-sizes", help="comma-separated folder sizes for the library runs (default: 1000 with "
                    "--short, else 1000,10000,100000)")
    a = ap.parse_args()
    if a.library_sizes:
        a.library_sizes = [int(n) for n in a.library_sizes.split(",")]
    if a.players is None:
        a.players = "reel,gtkvideo,mpv-gpu,audio-only" if a.desktop == "gnome" else \
            "reel,gtkvideo,mpv-x11,mpv-gpu,decode-only,audio-only"

    def default(value, fallback):
        return fallback if value is None else value

    if a.short:
        a.clip_main = os.path.join(a.media, "short-1080p30.mp4")
        a.clip_uhd = os.path.join(a.media, "short-2160p30.mp4")
        a.clip_rotated = os.path.join(a.media, "short-1080p30-rotated.mp4")
        a.mark, a.bars_at = 30, 5.5
        a.drop_clips = [(a.clip_main, 30, "1080p30")]
        a.runs, a.window, a.drop_window, a.settle = default(a.runs, 1), default(a.window, 3), default(a.drop_window, 4), 1
        a.seeks = default(a.seeks, 2)
        a.strict, a.long = True, False
        a.library_sizes = a.library_sizes or [1000]
    else:
        a.clip_main = os.path.join(a.media, "h264-1080p30.mp4")
        a.clip_uhd = os.path.join(a.media, "h264-2160p30.mp4")
        a.clip_rotated = os.path.join(a.media, "h264-1080p30-rotated.mp4")
        a.clip_long = os.path.join(a.media, "h264-480p-4min.mp4")
        a.mark, a.bars_at = 90, 30.5
        a.drop_clips = [(a.clip_main, 30, "1080p30"), (os.path.join(a.media, "vp9-720p60.webm"), 60, "720p60")]
        a.runs, a.window, a.drop_window, a.settle = default(a.runs, 3), default(a.window, 20), default(a.drop_window, 60), 2
        a.seeks = default(a.seeks, 6)
        a.library_sizes = a.library_sizes or [1000, 10000, 100000]
    Bench(a).run()


if __name__ == "__main__":
    main()
