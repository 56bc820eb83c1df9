import CGio
import CGStreamer
import CGstPbutils
import CShims
import ReelCore
import ReelGLib
import Synchronization

/// Collects GStreamer's missing-plugin messages so an error can name the codec and the Debian
/// package that provides it, instead of "Your GStreamer installation is missing a plug-in".
/// The messages arrive on streaming threads (sync emission), hence the lock.
final class MissingPluginLog: Sendable {
    struct Entry: Sendable {
        let description: String
        let package: String
        var message: String {
            String(format: tr("The %@ is missing; install %@."), description, package)
        }
    }

    private let entries = Mutex<[Entry]>([])

    var first: Entry? { entries.withLock { $0.first } }
    func reset() { entries.withLock { $0.removeAll() } }

    func watch(_ pipeline: UnsafeMutablePointer<GstElement>) {
        guard let bus = gst_element_get_bus(pipeline) else { return }
        defer { gst_object_unref(gpointer(bus)) }
        gst_bus_enable_sync_message_emission(bus)
        connectSignal(UnsafeMutableRawPointer(bus), "sync-message::element") { [weak self] args in
            guard let self, let message = args.pointer(1)?.assumingMemoryBound(to: GstMessage.self),
                  gst_is_missing_plugin_message(message) != 0 else { return }
            let description = takeString(gst_missing_plugin_message_get_description(message)) ?? tr("codec")
            let detail = takeString(gst_missing_plugin_message_get_installer_detail(message)) ?? ""
            let entry = Entry(description: description, package: Self.debianPackage(forInstallerDetail: detail))
            self.entries.withLock { $0.append(entry) }
        }
    }

    /// The Debian 12 package that provides a decoder for the caps named in an installer detail
    /// string ("gstreamer|1.0|app|H.265 decoder|decoder-video/x-h265, …").
    static func debianPackage(forInstallerDetail detail: String) -> String {
        let libav = ["x-h265", "x-h264", "mpeg", "x-aac", "x-ac3", "x-eac3", "x-wmv", "x-wma", "x-msmpeg",
                     "x-divx", "x-prores", "x-dts", "x-alac", "x-av1"]
        if libav.contains(where: detail.contains) { return "gstreamer1.0-libav" }
        if detail.contains("x-vp") || detail.contains("x-theora") || detail.contains("x-vorbis") ||
            detail.contains("x-opus") || detail.contains("x-flac") {
            return "gstreamer1.0-plugins-good gstreamer1.0-plugins-base"
        }
        return "gstreamer1.0-plugins-bad"
    }
}
