#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A window to drag files from, as a file manager would: drag-source.py URI...

The drag offers text/uri-list, which GTK turns into a GdkFileList on the dropping side."""
import sys

import gi

gi.require_version("Gdk", "4.0")
gi.require_version("Gtk", "4.0")
from gi.repository import Gdk, Gio, GLib, Gtk  # noqa: E402

uris = sys.argv[1:]


def prepare(_source, _x, _y):
    data = ("\r\n".join(uris) + "\r\n").encode()
    return Gdk.ContentProvider.new_for_bytes("text/uri-list", GLib.Bytes.new(data))


def activate(app):
    window = Gtk.ApplicationWindow(application=app, title="Reel drag source")
    label = Gtk.Label(label="Drag me")
    source = Gtk.DragSource(actions=Gdk.DragAction.COPY)
    source.connect("prepare", prepare)
    label.add_controller(source)
    window.set_child(label)
    window.set_default_size(240, 240)
    window.present()


app = Gtk.Application(application_id="org.reelplayer.tests.DragSource", flags=Gio.ApplicationFlags.NON_UNIQUE)
app.connect("activate", activate)
app.run([])
