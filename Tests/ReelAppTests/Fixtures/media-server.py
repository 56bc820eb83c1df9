#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A misbehaving media server on 127.0.0.1 for the bad-media tests.

Usage: media-server.py MEDIA_DIR
Prints the port it listens on, then serves until killed:
  /media/NAME  the file, at once
  /missing     404 Not Found
  /stall/NAME  the headers and the first tenth of the file, then nothing, ever
  /slow/NAME   the whole file at 2 KB/s, far below what any clip needs
  /live/NAME   the whole file at once, without byte ranges: a stream that cannot seek
"""
import http.server
import os
import sys
import threading
import time

MEDIA = sys.argv[1]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        kind, _, name = self.path.lstrip("/").partition("/")
        path = os.path.join(MEDIA, os.path.basename(name))
        if kind not in ("media", "stall", "slow", "live") or not os.path.isfile(path):
            self.send_error(404)
            return
        with open(path, "rb") as f:
            data = f.read()
        # Byte ranges, as any web server offers them: demuxers read a file's index at its end.
        start = 0
        wanted = self.headers.get("Range", "") if kind != "live" else ""
        if wanted.startswith("bytes=") and wanted[6:].split("-")[0].isdigit():
            start = min(int(wanted[6:].split("-")[0]), len(data))
        body = data[start:]
        self.send_response(206 if start else 200)
        self.send_header("Content-Type", "video/webm")
        self.send_header("Accept-Ranges", "bytes" if kind != "live" else "none")
        if start:
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            if kind in ("media", "live"):
                self.wfile.write(body)
            elif kind == "stall":
                self.wfile.write(body[: len(data) // 10])
                self.wfile.flush()
                threading.Event().wait()
            else:
                for offset in range(0, len(body), 200):
                    self.wfile.write(body[offset:offset + 200])
                    self.wfile.flush()
                    time.sleep(0.1)
        except (BrokenPipeError, ConnectionResetError):
            pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
