#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A stand-in for GNOME's session manager on the test session's bus: it owns
org.gnome.SessionManager and logs each Inhibit and Uninhibit call, one line each,
so a test can see when Reel keeps the screen awake. Exits when stdin closes."""
import sys
from gi.repository import Gio, GLib

XML = """<node><interface name="org.gnome.SessionManager">
  <method name="Inhibit"><arg type="s" direction="in"/><arg type="u" direction="in"/>
    <arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="u" direction="out"/></method>
  <method name="Uninhibit"><arg type="u" direction="in"/></method>
  <method name="IsInhibited"><arg type="u" direction="in"/><arg type="b" direction="out"/></method>
</interface></node>"""

cookies = iter(range(1, 1 << 30))
active = {}

def on_call(connection, sender, path, interface, method, params, invocation):
    if method == "Inhibit":
        app_id, _xid, reason, flags = params.unpack()
        cookie = next(cookies)
        active[cookie] = flags
        print(f"inhibit {cookie} flags={flags} app={app_id} reason={reason}", flush=True)
        invocation.return_value(GLib.Variant("(u)", (cookie,)))
    elif method == "Uninhibit":
        (cookie,) = params.unpack()
        active.pop(cookie, None)
        print(f"uninhibit {cookie}", flush=True)
        invocation.return_value(None)
    else:
        (flags,) = params.unpack()
        invocation.return_value(GLib.Variant("(b)", (any(f & flags for f in active.values()),)))

loop = GLib.MainLoop()
bus = Gio.bus_get_sync(Gio.BusType.SESSION)
bus.register_object("/org/gnome/SessionManager", Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0], on_call)
Gio.bus_own_name_on_connection(bus, "org.gnome.SessionManager", Gio.BusNameOwnerFlags.NONE,
                               lambda *a: print("ready", flush=True), lambda *a: loop.quit())
GLib.io_add_watch(GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.PRIORITY_DEFAULT,
                  GLib.IOCondition.IN | GLib.IOCondition.HUP, lambda *a: (loop.quit(), False)[1])
loop.run()
