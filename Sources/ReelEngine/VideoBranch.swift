// SPDX-License-Identifier: GPL-3.0-or-later
import CGstPlay
import CShims
import Foundation
import ReelCore
import ReelGLib

/// The one owner of the video branch: whether video is wanted (any of the window can be seen,
/// as the model says) and whether the branch is attached in the pipeline. Everything else asks
/// it. It detaches the branch (no decoding, conversion or upload; the sound plays on) when
/// video is not wanted and attaches it again when it is: playbin's video track switched off,
/// and the gate in front of its decoders shut (decoder_gate.c: playbin would decode on), minding
/// GStreamer 1.22's pitfalls. Workaround (GStreamer 1.22's playbin and playsink): each wait below
/// goes when BackgroundTests' minimize/restore cycles pass without it on a newer GStreamer.
///
/// - Switching the video track makes playsink relink once data has reached each of its inputs,
///   and a relink while any sink waits for preroll (paused, or just after a seek, a stop or a
///   load) deadlocks the pipeline (see reel_pipeline_is_playing_steadily). So a switch starts
///   only while the item plays steadily, with no seek under way, and the engine's commands that
///   seek or change state (`perform`) wait until its relink is done. A window restored while
///   paused gets its video back when playing resumes; until then it is shown stills from a
///   pipeline of their own (`FrameGrabber`), on restoring and after each seek.
/// - A switch while the last one is still settling stalled the pipeline, or made a re-attach
///   that closely followed a detach take seconds to show a frame. So a detach waits
///   `detachDelay` (a window minimized and restored at once keeps its video) and switches are
///   `switchSpacing` apart; the last wish wins. Frames are not drawn meanwhile
///   (`FrameSink.setAccepting`).
/// - Near the end of an item a switch can deadlock: the stream that ended first waits in
///   playsink's streamsynchronizer, holding its stream lock, while the video stream's thread,
///   relinking, waits for that lock, and playbin's flags setter waits for both. So in an item's
///   last `endMargin` seconds a switch waits for the next item or a seek away from the end, and
///   every switch runs on `switchQueue`, never on the main thread.
/// - playbin 1.22's flags setter locks its current source group and unlocks whichever is
///   current after: a group swapped meanwhile (an item loading, stopping or failing) gets an
///   unlock it never had, and GLib aborts. Waiting for the item to play (above) covers it.
/// - With the branch gone, malloc's kept frame memory goes back to the system.
@MainActor
final class VideoBranch {
    static let detachDelay: Seconds = 1
    static let switchSpacing: Seconds = 1
    nonisolated static let endMargin: Seconds = 2
    /// How long commands wait for a relink at most: one that has not happened by then waits for
    /// data that is not coming (the end of a stream), and then no sink waits for preroll either.
    static let relinkTimeout: Seconds = 2

    private let player: ObjectRef<OpaquePointer>
    private let pipeline: ObjectRef<UnsafeMutablePointer<GstElement>>
    private let frameSink: FrameSink
    private let scheduler: Scheduler
    private let switchQueue = DispatchQueue(label: "reel.video-switch")
    /// Whether video is wanted.
    private(set) var isWanted = true
    /// A seek not yet over (see `Seek`).
    var isSeeking: Bool { item.seek != nil }
    /// What the last switch asked GstPlay for.
    private var requested = true
    /// Pending: the detach delay or the spacing after a switch.
    private var timer: ScheduledAction?
    private var item = ItemState()
    /// The commands waiting for a switch's relink; nil while no switch is under way.
    private var held: [@MainActor () -> Void]?
    private let attached = Locked(true)
    /// Called (on another thread) each time the memory the video used has been given back.
    var onMemoryReleased: (@Sendable () -> Void)?

    init(player: ObjectRef<OpaquePointer>, pipeline: ObjectRef<UnsafeMutablePointer<GstElement>>,
         frameSink: FrameSink, scheduler: Scheduler) {
        self.player = player
        self.pipeline = pipeline
        self.frameSink = frameSink
        self.scheduler = scheduler
    }

    /// The item, and what GstPlay last said of it.
    private struct ItemState {
        var uri: String?
        /// Playing: not paused, buffering or stopped.
        var isPlaying = false
        var seek: Seek?
        var position: Seconds = 0
        var duration: Seconds?
        /// Stills asked for: only the last is shown.
        var stillsAsked = 0

        var isNearTheEnd: Bool { duration.map { position > $0 - VideoBranch.endMargin } ?? false }
    }

    enum Seek {
        /// GstPlay's own: over when it says "seek-done".
        case accurate
        /// A keyframe seek made on the pipeline directly, for which GstPlay says nothing: over
        /// once GstPlay next reports a settled state.
        case keyUnit
    }

    /// Whether the branch is attached, as the last switch made left it.
    nonisolated var isAttached: Bool { attached.withLock { $0 } }

    func setWanted(_ wanted: Bool) {
        guard wanted != isWanted else { return }
        isWanted = wanted
        frameSink.setAccepting(wanted)
        apply()
        showStillIfNeeded()
    }

    /// Runs a command that seeks or changes the pipeline's state now, or once the switch under
    /// way has relinked; commands keep their order.
    func perform(_ command: @escaping @MainActor () -> Void) {
        if held != nil { held?.append(command) } else { command() }
    }

    /// A new item is loading: a switch waits until it plays.
    func itemLoading(uri: String) { item = ItemState(uri: uri) }

    func stateChanged(playing: Bool) {
        item.isPlaying = playing
        // A stop ends any seek; a pause or buffering keeps switches off anyway.
        if !playing || item.seek == .keyUnit { item.seek = nil }
        apply()
    }

    /// A keyframe seek under way leaves GstPlay's own to end it.
    func seekStarted(_ seek: Seek) {
        if item.seek != .accurate { item.seek = seek }
    }

    func seekDone(at position: Seconds) {
        item.seek = nil
        item.position = position
        apply()
        showStillIfNeeded()
    }

    func positionChanged(_ position: Seconds) {
        item.position = position
        apply()  // one held back near the end, if a seek moved away from it
    }

    func durationChanged(_ duration: Seconds?) { item.duration = duration }

    private func apply(detachIsDue: Bool = false) {
        guard timer == nil, held == nil, item.isPlaying, item.seek == nil, !item.isNearTheEnd, isWanted != requested else { return }
        if !isWanted && !detachIsDue {
            timer = scheduler.schedule(after: Self.detachDelay) { [weak self] in
                self?.timer = nil
                self?.apply(detachIsDue: true)
            }
            return
        }
        held = []
        let player = player, pipeline = pipeline, wanted = isWanted, timeout = Self.relinkTimeout
        let ended: @Sendable (Bool?) -> Void = { [weak self] switched in runSoon { self?.switchEnded(switched: switched) } }
        switchQueue.async { [attached] in
            // A seek or a state change begun before this switch was asked for may still be under way.
            guard reel_pipeline_is_playing_steadily(pipeline.pointer) != 0 else { return ended(nil) }
            // The decoders stop once the branch is gone, and start before it comes back: playsink
            // relinks it when their first frame arrives.
            if wanted { reel_playbin_set_video_decoding(pipeline.pointer, 1) }
            gst_play_set_video_track_enabled(player.pointer, wanted ? 1 : 0)
            if !wanted { reel_playbin_set_video_decoding(pipeline.pointer, 0) }
            attached.withLock { $0 = wanted }
            let deadline = Date(timeIntervalSinceNow: timeout)
            while reel_playbin_is_relinking(pipeline.pointer) != 0, Date() < deadline { usleep(2000) }
            if Date() >= deadline { Log.warning("playsink had not relinked the video \(Int(timeout)) s after a switch; going on") }
            ended(wanted)
        }
    }

    /// `switched` is what the switch asked for, or nil when it did not happen (to be tried again
    /// on the next position update).
    private func switchEnded(switched wanted: Bool?) {
        let commands = held ?? []
        held = nil
        commands.forEach { $0() }
        guard let wanted else { return }
        requested = wanted
        timer = scheduler.schedule(after: Self.switchSpacing) { [weak self] in
            self?.timer = nil
            self?.spacingEnded()
        }
    }

    /// Video is wanted but the branch stays detached until playing resumes: what the window
    /// shows must come from elsewhere.
    private var needsStill: Bool { isWanted && !requested && !item.isPlaying }

    private func showStillIfNeeded() {
        guard needsStill, let uri = item.uri else { return }
        item.stillsAsked += 1
        let asked = item.stillsAsked
        FrameGrabber.grab(uri: uri, at: item.position) { [weak self] texture in
            guard let texture else { return }
            defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
            guard let self, self.needsStill, self.item.uri == uri, self.item.stillsAsked == asked else { return }
            self.frameSink.showStill(texture)
        }
    }

    private func spacingEnded() {
        // The branch is gone by now. While frames are drawn, malloc keeps their freed blocks for
        // reuse (reel_frame_sink_bin_new); with nothing to draw they are given back, so a player
        // in the background holds no video memory, and blocks kept by threads since ended do
        // not pile up over many cycles.
        if !requested {
            switchQueue.async { [onMemoryReleased] in
                reel_release_free_memory()
                onMemoryReleased?()
            }
        }
        apply()
    }
}
