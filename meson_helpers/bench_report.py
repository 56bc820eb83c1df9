# SPDX-License-Identifier: GPL-3.0-or-later
"""The bench's report: one table of every figure (the median of the runs with their range), the
targets of issues 18 and 21 met, missed or not measured, and the notes under it. Part of
meson_helpers/bench.py (Bench's methods)."""
import statistics
import sys


class Report:
    def median(self, label, figure, pick=statistics.median):
        values = [v for v in self.results.get((label, figure), []) if v is not None]
        return pick(values) if values else None

    def targets(self):
        """Issue 21's targets and issue 18's for the seek bar's previews, each with what was
        measured: (met or not, description)."""
        m = self.median
        reel, x11, gpu, audio = "Reel", "mpv --vo=x11", "mpv --vo=gpu", "audio only"
        checks = []

        def check(what, ok, measured):
            checks.append((ok, f"{what}: {measured}"))

        def ratio(figure, peer, limit=1.0, what=None):
            a, b = m(reel, figure), m(peer, figure)
            if a is None or b is None or b == 0:
                return check(what or f"{figure} ≤ {limit:g}× {peer}", None, "not measured")
            check(what or f"{figure} ≤ {limit:g}× {peer}", a <= limit * b, f"{a:.2f} / {b:.2f} = {a / b:.2f}×")

        for figure in ("CPU visible 960×540", "CPU fullscreen 1920×1080", "CPU visible 720p60"):
            ratio(figure, x11)
        ratio("CPU minimized", audio, 1.05)
        for key in ("1080p30", "720p60"):
            worst = m(reel, f"frames dropped {key} (%)", max)
            check(f"no dropped frames at {key}", None if worst is None else worst == 0,
                  "not measured" if worst is None else f"{worst:.2f} % at most")
        first, first_mpv = m(reel, "first frame (ms)"), m(x11, "first frame (ms)")
        check("first frame ≤ mpv's and < 250 ms", None if first is None or first_mpv is None
              else first <= first_mpv and first < 250, f"{first:.0f} ms / mpv {first_mpv:.0f} ms" if None not in (first, first_mpv) else "not measured")
        seek, seek_mpv = m(reel, "seek → new frame (ms)"), m(x11, "seek → new frame (ms)")
        p90 = m(reel, "seek → new frame, 90th percentile (ms)")
        check("seek ≤ mpv's median, 90th percentile < 100 ms", None if None in (seek, seek_mpv, p90)
              else seek <= seek_mpv and p90 < 100, f"{seek:.0f} ms (90th: {p90:.0f}) / mpv {seek_mpv:.0f} ms" if None not in (seek, seek_mpv, p90) else "not measured")
        rss, rss_gpu = m(reel, "peak RSS (MB)"), m(gpu, "peak RSS (MB)")
        check("peak RSS ≤ mpv --vo=gpu's and < 220 MB", None if None in (rss, rss_gpu)
              else rss <= rss_gpu and rss < 220, f"{rss:.0f} MB / mpv --vo=gpu {rss_gpu:.0f} MB" if None not in (rss, rss_gpu) else "not measured")
        ratio("2160p30: peak RSS (MB)", x11, what="2160p30 peak RSS ≤ mpv --vo=x11's")
        silence, back = m(reel, "speed change: longest silence (ms)", max), m(reel, "speed change: position jump back (ms)", max)
        check("speed changes: silence ≤ 20 ms, no jump back", None if None in (silence, back)
              else silence <= 20 and back < 1, f"{silence:.0f} ms, {back:.0f} ms back at most" if None not in (silence, back) else "not measured")
        gap, gap_mpv = m(reel, "gapless album: break between tracks (ms)", max), m(x11, "gapless album: break between tracks (ms)", max)
        check("an album's tracks join: break ≤ 5 ms (mpv's beside)", None if gap is None else gap <= 5,
              "not measured" if gap is None else f"{gap:.0f} ms at most / mpv {gap_mpv if gap_mpv is None else round(gap_mpv)} ms")
        shown = m(reel, "preview: frame after the pointer rests (ms)", max)
        check("previews within 150 ms of the pointer resting", None if shown is None else shown <= 150,
              "not measured" if shown is None else f"{shown:.0f} ms at most")
        # Hovering must not make playback drop a frame: against the same time with the pointer away.
        hover = m(reel, "preview: frames dropped while hovering (%)", max)
        away = m(reel, "preview: frames dropped, pointer away as long (%)", max)
        check("hovering at 1080p30 drops no frame more than the pointer away", None if None in (hover, away)
              else hover <= away, f"{hover:.2f} % / {away:.2f} % at most" if None not in (hover, away) else "not measured")
        return checks

    def print_table(self, labels):
        for label in labels:
            seeks = sorted(v for v in self.results.get((label, "seek → new frame (ms)"), []) if v is not None)
            if seeks:
                self.results[(label, "seek → new frame, 90th percentile (ms)")] = \
                    [seeks[min(len(seeks) - 1, int(0.9 * len(seeks)))]]
        figures = []
        for (label, figure) in self.results:
            if label != "errors" and figure not in figures:
                figures.append(figure)

        def cell(label, figure):
            values = [v for v in self.results.get((label, figure), []) if v is not None]
            if not values:
                return "n/a"
            m = statistics.median(values)
            digits = 0 if "ms" in figure or "MB" in figure or "(count)" in figure else 2
            text = f"{m:.{digits}f}"
            if len(values) > 1:
                text += f" ({min(values):.{digits}f}–{max(values):.{digits}f})"
            return text

        header = ["figure (median of runs, range)"] + labels
        rows = [[f] + [cell(label, f) for label in labels] for f in figures]
        widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
        lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |" for r in [header] + rows]
        lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
        print("\n".join(lines))
        if not self.shell:
            checks = self.targets()
            fmt = lambda c: c[1].replace(".00 ", " ")
            print("targets met: " + ("; ".join(fmt(c) for c in checks if c[0]) or "none"))
            print("targets missed: " + ("; ".join(fmt(c) for c in checks if c[0] is False) or "none"))
            unmeasured = [c for c in checks if c[0] is None]
            if unmeasured:
                print("targets not measured in this run: " + "; ".join(c[1].split(":")[0] for c in unmeasured))
        if any(f.startswith("turned") for (_, f) in self.results):
            print("turned: the 1080p clip with a phone's rotation tag (rotate=90, read as image-orientation=rotate-270), "
                  "shown upright by Reel and mpv; GtkVideo (GTK 4.8) ignores the tag and shows it lying down. "
                  "colours: brightness +0.2, saturation 0.8 (Reel: four presses each over D-Bus; mpv --vo=x11: "
                  "--vf=eq=brightness=0.2:saturation=0.8, as that VO ignores --brightness/--saturation; --vo=gpu: "
                  "--brightness=20 --saturation=-20); GtkVideo has no colour controls (n/a)")
        errors = [f for (label, f) in self.results if label == "errors"]
        for e in errors:
            print(f"error: {e}")
        a = self.args
        print(f"desktop: {'GNOME Shell 43 on Wayland (headless)' if self.shell else 'X11 (Xvfb + openbox)'}; "
              f"runs: {a.runs}; CPU windows {a.window:g} s, drop window {a.drop_window:g} s; CPU = cores used by "
              f"the player's process (/proc/PID/stat); n/a = not measurable for that player")
        if errors and self.args.strict:
            sys.exit(1)
