#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""HTTP Live Streaming on 127.0.0.1 for the live-stream tests: a tone in 2 s segments made by
GStreamer's hlssink2, served by Python's HTTP server. On demand: 12 s, the playlist finished
(#EXT-X-ENDLIST). With --live: made as it is heard, the playlist listing the last five segments
and never finished, as a live broadcast's.

Usage: hls-server.py [--live]
Prints the playlist's URL once it can be played, then serves until stdin closes.
"""
import functools
import http.server
import os
import shutil
import signal
import sys
import tempfile
import threading

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def segments(folder):
    pipeline = Gst.parse_launch(
        f"audiotestsrc wave=sine freq=440 volume=0.3 samplesperbuffer=1024 num-buffers={12 * 44100 // 1024}"
        " ! audio/x-raw,rate=44100,channels=2 ! audioconvert ! avenc_aac ! aacparse"
        " ! hlssink2 target-duration=2 playlist-length=0 max-files=0"
        f" location={folder}/segment%05d.ts playlist-location={folder}/stream.m3u8")
    pipeline.set_state(Gst.State.PLAYING)
    message = pipeline.get_bus().timed_pop_filtered(20 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR)
    pipeline.set_state(Gst.State.NULL)
    if message is None or message.type != Gst.MessageType.EOS:
        sys.exit("hls-server: the segments were not made")


def live_segments(folder):
    """A live source, segments made on and on; returns once three are listed."""
    pipeline = Gst.parse_launch(
        "audiotestsrc is-live=true wave=sine freq=440 volume=0.3 ! audio/x-raw,rate=44100,channels=2"
        " ! audioconvert ! avenc_aac ! aacparse ! hlssink2 target-duration=2 playlist-length=5 max-files=10"
        f" location={folder}/segment%05d.ts playlist-location={folder}/stream.m3u8")
    pipeline.set_state(Gst.State.PLAYING)
    playlist = os.path.join(folder, "stream.m3u8")
    for _ in range(200):
        if os.path.exists(playlist) and open(playlist).read().count("#EXTINF") >= 3:
            return pipeline
        message = pipeline.get_bus().timed_pop_filtered(50 * Gst.MSECOND, Gst.MessageType.ERROR)
        if message is not None:
            break
    sys.exit("hls-server: the live segments were not made")


def main():
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    Gst.init(None)
    folder = tempfile.mkdtemp(prefix="reel-hls-")
    live = None
    try:
        if "--live" in sys.argv[1:]:
            live = live_segments(folder)
        else:
            segments(folder)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=folder))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        print(f"http://127.0.0.1:{server.server_address[1]}/stream.m3u8", flush=True)
        sys.stdin.read()
    finally:
        if live is not None:
            live.set_state(Gst.State.NULL)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
