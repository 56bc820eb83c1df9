// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import CGStreamer
import CGstPbutils
import CShims
import ReelCore
import ReelGLib

/// Joins the next item to the one playing with no break between them, as an album's or an
/// audiobook's tracks must. GstPlay (1.22) has no gapless playback, but its playbin does: handed
/// an address in its "about-to-finish" signal, it starts that item the moment the current one's
/// sound ends. Only sound alone in the same sample rate and channel count is joined: a picture,
/// or another format, would rebuild the sinks — a break anyway, and a risk to the video path.
/// The next item is read ahead (GstDiscoverer), since GstPlay goes on describing the first.
@MainActor
final class GaplessJoin {
    struct AudioFormat: Equatable, Sendable {
        let rate: Int
        let channels: Int
    }

    /// What was read ahead of the item offered.
    struct Next {
        let uri: String
        let media: MediaInfo
        let duration: Seconds?
        let format: AudioFormat
    }

    /// Between the main thread, playbin's "about-to-finish" (a streaming thread) and the bus's
    /// stream-start (another): the address playbin may take, and the one it took.
    private struct HandOver {
        var ready: String?
        var taken: String?
    }

    private let handOver = Locked(HandOver())
    private var discoverer: ObjectRef<UnsafeMutablePointer<GstDiscoverer>>?
    /// The address offered, and what was read of it once read.
    private var offered: String?
    private var next: Next?
    /// One reading at a time: an offer made meanwhile (Next pressed again and again) is read
    /// once the reading under way is done, and only the latest.
    private var reading: String?
    /// The format of the item playing, when known here (an item this class joined).
    private var joinedFormat: AudioFormat?
    /// The item playing: its format, read from GstPlay for an item it loaded itself.
    private let currentFormat: @MainActor () -> AudioFormat?
    var onJoined: ((Next) -> Void)?

    init(pipeline: UnsafeMutablePointer<GstElement>, currentFormat: @escaping @MainActor () -> AudioFormat?) {
        self.currentFormat = currentFormat
        connectSignal(UnsafeMutableRawPointer(pipeline), "about-to-finish") { [handOver] args in
            guard let playbin = args.pointer(0) else { return }
            let uri = handOver.withLock { state -> String? in
                defer { state.ready = nil }
                state.taken = state.ready
                return state.ready
            }
            if let uri { reel_object_set_string(playbin, "uri", uri) }
        }
        guard let bus = gst_element_get_bus(pipeline) else { return }
        defer { gst_object_unref(gpointer(bus)) }
        gst_bus_enable_sync_message_emission(bus)
        connectSignal(UnsafeMutableRawPointer(bus), "sync-message::stream-start") { [handOver, weak self] _ in
            guard let taken = handOver.withLock({ $0.taken }) else { return }
            let current = takeString(reel_object_get_string(UnsafeMutableRawPointer(pipeline), "current-uri"))
            guard current == taken else { return }
            handOver.withLock { $0.taken = nil }
            runSoon { self?.joined(taken) }
        }
    }

    /// Another item is loaded the ordinary way: nothing offered so far applies to it.
    func itemLoaded() {
        handOver.withLock { $0 = HandOver() }
        offered = nil
        next = nil
        joinedFormat = nil
    }

    /// `uri` is to follow the item playing, with no break if it can; nil: nothing is to.
    func offer(_ uri: String?) {
        guard uri != offered else { return }
        offered = uri
        next = nil
        handOver.withLock { $0.ready = nil }
        guard let uri, !PlaylistFile.isPlaylist(uri), reading == nil else { return }
        discover(uri)
    }

    private func discover(_ uri: String) {
        if discoverer == nil {
            guard let made = gst_discoverer_new(5 * 1_000_000_000, nil) else { return }
            let discoverer = ObjectRef(taking: made)
            connectMainSignal(discoverer.raw, "discovered") { [weak self] args in
                guard let self, let info = args.pointer(1) else { return }
                self.discovered(gcast(info))
            }
            // Asynchronous: its results come on the main context (the thread-default one now).
            gst_discoverer_start(made)
            self.discoverer = discoverer
        }
        if let discoverer, gst_discoverer_discover_uri_async(discoverer.pointer, uri) != 0 { reading = uri }
    }

    private func discovered(_ info: OpaquePointer) {
        reading = nil
        let uri = gst_discoverer_info_get_uri(info).map { String(cString: $0) }
        if let offered, offered != uri, !PlaylistFile.isPlaylist(offered) { return discover(offered) }
        guard let uri, uri == offered,
              gst_discoverer_info_get_result(info) == GST_DISCOVERER_OK,
              let read = MediaInfoReader.read(discovered: info),
              read.media.isAudioOnly, let format = read.format,
              format == (joinedFormat ?? currentFormat()) else { return }
        next = Next(uri: uri, media: read.media, duration: read.duration, format: format)
        handOver.withLock { $0.ready = uri }
    }

    private func joined(_ uri: String) {
        guard let next, next.uri == uri else { return }
        offered = nil
        self.next = nil
        joinedFormat = next.format
        onJoined?(next)
    }
}
