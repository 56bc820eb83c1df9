#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# The GtkVideo peer for meson_helpers/bench: GTK's own video widget (GtkMediaFile with GTK's
# GStreamer media backend) playing one file in a window, the way a GTK 4 app would do it in
# twenty lines. Usage: bench-gtkvideo.py FILE [WIDTH HEIGHT]
import sys

import gi
gi.require_version("Gtk", "4.0")
from gi.repository import Gio, Gtk  # noqa: E402


def activate(app):
    window = Gtk.ApplicationWindow(application=app, title="GtkVideo")
    width, height = (int(sys.argv[2]), int(sys.argv[3])) if len(sys.argv) > 3 else (960, 540)
    window.set_default_size(width, height)
    video = Gtk.Video.new_for_filename(sys.argv[1])
    video.set_autoplay(True)
    window.set_child(video)
    window.present()


app = Gtk.Application(application_id="org.reelplayer.Bench.GtkVideo", flags=Gio.ApplicationFlags.NON_UNIQUE)
app.connect("activate", activate)
sys.exit(app.run([sys.argv[0]]))
