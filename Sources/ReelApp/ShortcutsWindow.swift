// SPDX-License-Identifier: GPL-3.0-or-later
import CGtk
import CShims
import Foundation
import ReelCore
import ReelGLib

/// The keyboard shortcuts window (Ctrl+?), built from the same list of keys the actions use,
/// as GNOME apps show theirs.
@MainActor
enum ShortcutsWindow {
    private static func sections(skipInterval seconds: Int) -> [(String, [(String, String)])] { [
        (tr("Playback"), [
            ("space k", tr("Play or pause")),
            ("Left j", String(format: trn("Back %d second", "Back %d seconds", seconds), seconds)),
            ("Right l", String(format: trn("Forward %d second", "Forward %d seconds", seconds), seconds)),
            ("<Shift>Left <Shift>Right", tr("Back or forward 1 second")),
            ("comma period", tr("Previous or next frame (pauses)")),
            ("<Control><Alt>s", tr("Take a screenshot")),
            ("<Control><Shift>c", tr("Copy the frame")),
            ("Home End", tr("Go to the start or the end")),
            ("Up Down", tr("Volume up or down")),
            ("m", tr("Mute")),
            ("bracketleft bracketright", tr("Slower or faster")),
            ("BackSpace", tr("Normal speed")),
            ("<Shift>l", tr("Loop: mark the start, then the end; again to clear")),
            ("<Control>Left <Control>Right", tr("Previous or next subtitle line")),
            ("Page_Up Page_Down", tr("Previous or next chapter")),
            ("z x", tr("Subtitles 0.1 s earlier or later")),
        ]),
        (tr("Picture and Sound"), [
            ("r <Shift>r", tr("Rotate clockwise or counterclockwise")),
            ("<Shift>h", tr("Flip horizontally")),
            ("a", tr("Next aspect ratio")),
            ("w", tr("Fill the window (crop the black bars)")),
            ("1 2", tr("Less or more contrast")),
            ("3 4", tr("Darker or brighter")),
            ("5 6", tr("Hue back or forward")),
            ("7 8", tr("Less or more saturation")),
            ("0", tr("Reset the colours")),
            ("d", tr("Deinterlace: automatic, off or always")),
            ("<Control>minus <Control>plus", tr("Sound 10 ms earlier or later")),
        ]),
        (tr("Subtitles"), [
            ("t", tr("Show the transcript")),
            ("<Control>f", tr("Search the queue or the transcript")),
        ]),
        (tr("Queue"), [
            ("n", tr("Next item")),
            ("p", tr("Previous item")),
            ("F9", tr("Show the queue")),
        ]),
        (tr("Window"), [
            ("f F11", tr("Fullscreen (or double-click the video)")),
            ("Escape", tr("Leave fullscreen")),
            ("<Control>o", tr("Open files")),
            ("<Control><Shift>o", tr("Open a folder")),
            ("<Control>l", tr("Open a location")),
            ("<Control>comma", tr("Preferences")),
            ("<Control>question", tr("Keyboard shortcuts")),
            ("<Control>q", tr("Quit")),
        ]),
    ] }

    /// A GtkShortcutsWindow for `window`'s help overlay (the win.show-help-overlay action); the
    /// skip keys are named with the interval they skip by.
    static func make(skipInterval: Int) -> OpaquePointer? {
        func escape(_ text: String) -> String { UI.escapeMarkup(text) }
        var xml = "<interface><object class=\"GtkShortcutsWindow\" id=\"shortcuts\"><property name=\"modal\">1</property>"
        let title = tr("Keyboard Shortcuts")
        xml += "<property name=\"title\">\(escape(title))</property>"
        xml += "<child><object class=\"GtkShortcutsSection\"><property name=\"section-name\">main</property>"
        for (title, shortcuts) in sections(skipInterval: skipInterval) {
            xml += "<child><object class=\"GtkShortcutsGroup\"><property name=\"title\">\(escape(title))</property>"
            for (accelerator, name) in shortcuts {
                xml += "<child><object class=\"GtkShortcutsShortcut\">"
                xml += "<property name=\"accelerator\">\(escape(accelerator))</property>"
                xml += "<property name=\"title\">\(escape(name))</property></object></child>"
            }
            xml += "</object></child>"
        }
        xml += "</object></child></object></interface>"
        let builder = gtk_builder_new_from_string(xml, -1)
        defer { g_object_unref(UnsafeMutableRawPointer(builder)) }
        guard let object = gtk_builder_get_object(builder, "shortcuts") else { return nil }
        // The builder lets go of it: keep a reference for the window that shows it.
        g_object_ref(UnsafeMutableRawPointer(object))
        return OpaquePointer(object)
    }
}
