#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes one benchmark clip: SMPTE colour bars that scroll (every frame differs) under a clock,
with an optional solid orange stretch (the seek mark), and a 440 Hz tone.

Usage: bench-clip.py FILE WIDTH HEIGHT FPS SECONDS MARK_AT "VIDEO ENCODER" "AUDIO ENCODER" MUXER

The orange lasts 5 s from MARK_AT (none when MARK_AT is 0). One source whose pattern a probe
switches at the right frames, so timestamps run on unbroken (concat renumbers them oddly).
"""
import sys

import gi
gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402

path, w, h, fps, seconds, mark, venc, aenc, mux = sys.argv[1:10]
w, h, fps, seconds, mark = int(w), int(h), int(fps), int(seconds), int(mark)
Gst.init(None)
pipeline = Gst.parse_launch(
    f"videotestsrc name=v pattern=smpte horizontal-speed=4 foreground-color=0xffff8000 num-buffers={seconds * fps} "
    f"! video/x-raw,format=I420,width={w},height={h},framerate={fps}/1 "
    f"! timeoverlay font-desc=\"Sans 40\" ! {venc} ! queue ! mux. "
    # Audio buffers of 1/50 s make any duration exact.
    f"audiotestsrc freq=440 volume=0.3 samplesperbuffer=960 num-buffers={seconds * 50} "
    f"! audio/x-raw,rate=48000,channels=2 ! audioconvert ! {aenc} ! queue ! mux. "
    f"{mux} name=mux ! filesink location={path}")
source = pipeline.get_by_name("v")


def switch(pad, info):
    # Runs as each frame leaves the source: the next frame is made with the pattern set here.
    frame = info.get_buffer().offset + 1
    orange = mark > 0 and mark * fps <= frame < (mark + 5) * fps
    source.set_property("pattern", "solid-color" if orange else "smpte")
    return Gst.PadProbeReturn.OK


if mark > 0:
    source.get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, switch)
loop = GLib.MainLoop()
failed = []


def on_message(bus, message):
    if message.type == Gst.MessageType.ERROR:
        failed.append(message.parse_error()[0].message)
        loop.quit()
    elif message.type == Gst.MessageType.EOS:
        loop.quit()


bus = pipeline.get_bus()
bus.add_signal_watch()
bus.connect("message", on_message)
pipeline.set_state(Gst.State.PLAYING)
loop.run()
pipeline.set_state(Gst.State.NULL)
if failed:
    sys.exit(f"bench-clip: {failed[0]}")
