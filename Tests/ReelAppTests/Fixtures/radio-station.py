#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""An internet radio station on 127.0.0.1 for the live-stream tests: Debian's Icecast 2 server
fed by GStreamer's shout2send with an MP3 stream of a tone, as stations send theirs.

Usage: radio-station.py STATION-NAME
Prints the stream's URL once it can be played, then reads commands, one a line, on stdin:
  title ARTIST - SONG   the song playing now (ICY metadata, as stations announce songs)
  stop         the server goes away (the connection drops, as when a station's server restarts)
  start        the server comes back, and the source with it
It prints "ok COMMAND" once a command is done. Ends when stdin closes.
"""
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

import ctypes

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402

PASSWORD = "reel-source"
MOUNT = "/radio.mp3"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def die_with_parent():
    """The server goes when this script goes, however it ends (PR_SET_PDEATHSIG, SIGKILL)."""
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)


def wait_for_port(port, deadline):
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return True
        except OSError:
            time.sleep(0.05)
    return False


class Station:
    def __init__(self, name):
        self.name = name
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="reel-icecast-")
        os.chmod(self.dir, 0o777)  # icecast drops root for nobody, who writes its logs here
        self.server = None
        self.pipeline = None
        self.title = None
        self.pending_title = None
        self.lock = threading.Lock()

    def config(self):
        owner = ("<changeowner><user>nobody</user><group>nogroup</group></changeowner>"
                 if os.getuid() == 0 else "")
        return f"""<icecast>
  <limits><clients>20</clients><sources>2</sources><source-timeout>10</source-timeout>
    <burst-size>8192</burst-size></limits>
  <authentication><source-password>{PASSWORD}</source-password>
    <admin-user>admin</admin-user><admin-password>{PASSWORD}</admin-password></authentication>
  <hostname>127.0.0.1</hostname>
  <listen-socket><port>{self.port}</port><bind-address>127.0.0.1</bind-address></listen-socket>
  <fileserve>0</fileserve>
  <paths><basedir>{self.dir}</basedir><logdir>{self.dir}</logdir>
    <webroot>/usr/share/icecast2/web</webroot><adminroot>/usr/share/icecast2/admin</adminroot></paths>
  <logging><errorlog>error.log</errorlog><accesslog>access.log</accesslog><loglevel>2</loglevel></logging>
  <security><chroot>0</chroot>{owner}</security>
</icecast>
"""

    def start_server(self):
        path = os.path.join(self.dir, "icecast.xml")
        with open(path, "w") as f:
            f.write(self.config())
        self.server = subprocess.Popen(["icecast2", "-c", path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                       preexec_fn=die_with_parent)
        if not wait_for_port(self.port, time.monotonic() + 10):
            sys.exit("radio-station: icecast2 did not start")

    def stop_server(self):
        self.server.terminate()
        try:
            self.server.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.server.kill()
            self.server.wait()

    def start_source(self):
        self.pipeline = Gst.parse_launch(
            "audiotestsrc is-live=true wave=sine freq=440 volume=0.3 ! audioconvert ! audio/x-raw,rate=44100,channels=2"
            " ! lamemp3enc target=bitrate bitrate=128 cbr=true name=enc"
            f" ! shout2send ip=127.0.0.1 port={self.port} password={PASSWORD} mount={MOUNT} name=send")
        self.pipeline.get_by_name("send").set_property("streamname", self.name)
        # Titles go out from the streaming thread, before the next buffer: serialized with them.
        self.pipeline.get_by_name("enc").get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, self.send_title)
        if self.title:
            self.pending_title = self.title
        self.pipeline.set_state(Gst.State.PLAYING)
        # Mounted once the server lists the source.
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not self.mounted():
            time.sleep(0.1)

    def stop_source(self):
        self.pipeline.set_state(Gst.State.NULL)
        self.pipeline = None

    def mounted(self):
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                s.sendall(f"GET {MOUNT} HTTP/1.0\r\n\r\n".encode())
                return s.recv(64).startswith(b"HTTP/1.0 200")
        except OSError:
            return False

    def send_title(self, pad, info):
        with self.lock:
            title, self.pending_title = self.pending_title, None
        if title is not None:
            # shout2send announces "ARTIST - TITLE", as stations do.
            artist, _, song = title.partition(" - ")
            tags = Gst.TagList.new_empty()
            tags.add_value(Gst.TagMergeMode.REPLACE, Gst.TAG_ARTIST, artist)
            tags.add_value(Gst.TagMergeMode.REPLACE, Gst.TAG_TITLE, song)
            pad.push_event(Gst.Event.new_tag(tags))
        return Gst.PadProbeReturn.OK

    def set_title(self, title):
        with self.lock:
            self.title = title
            self.pending_title = title

    def stop(self):
        self.stop_source()
        self.stop_server()

    def start(self):
        self.start_server()
        self.start_source()


def main():
    # Stopped by the test: the server and the source go with it (finally, below).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    Gst.init(None)
    station = Station(sys.argv[1] if len(sys.argv) > 1 else "Reel Radio")
    try:
        station.start_server()
        station.start_source()
        if not station.mounted():
            sys.exit("radio-station: the source did not reach the server")
        print(f"http://127.0.0.1:{station.port}{MOUNT}", flush=True)
        for line in sys.stdin:
            command, _, argument = line.strip().partition(" ")
            if command == "title":
                station.set_title(argument)
            elif command == "stop":
                station.stop()
            elif command == "start":
                station.start()
            print(f"ok {command}", flush=True)
    finally:
        # The server first: a source blocked on its socket is then released, and stops at once.
        if station.server is not None and station.server.poll() is None:
            station.stop_server()
        if station.pipeline is not None:
            station.stop_source()
        shutil.rmtree(station.dir, ignore_errors=True)


if __name__ == "__main__":
    main()
