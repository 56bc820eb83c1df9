// SPDX-License-Identifier: GPL-3.0-or-later
// Test-only (meson_helpers/test-session's GNOME mode). org.gnome.Shell.Eval, and the
// Screenshot interface for callers not on the shell's allowlist, answer only in unsafe mode,
// which GNOME Shell 43 otherwise grants only through Looking Glass. This turns it on for as
// long as the extension is enabled.

/* exported init */

class Extension {
    enable() {
        global.context.unsafe_mode = true;
    }

    disable() {
        global.context.unsafe_mode = false;
    }
}

function init() {
    return new Extension();
}
