import CGstPlay
import CShims
import Foundation
import ReelCore
import ReelGLib

/// The one owner of the video branch: whether video is wanted (any of the window can be seen,
/// as the model says) and whether the branch is attached in the pipeline. Everything else asks
/// it. It detaches the branch (no decoding, conversion or upload; the sound plays on) when
/// video is not wanted and attaches it again when it is, minding GStreamer 1.22's pitfalls:
///
/// - Switching the video track makes playbin relink its video branch, and a switch while the
///   last one is still settling stalled the pipeline, or made a re-attach that closely followed a
///   detach take seconds to show a frame. So a detach waits `detachDelay` (a window minimized
///   and restored at once keeps its video) and switches are `switchSpacing` apart; the last
///   wish wins. Frames are not drawn meanwhile (`FrameSink.setAccepting`).
/// - Near the end of an item a switch can deadlock: the stream that ended first waits in
///   playsink's streamsynchronizer, holding its stream lock, while the video stream's thread,
///   relinking, waits for that lock, and playbin's flags setter waits for both. So in an item's
///   last `endMargin` seconds a switch waits for the next item or a seek away from the end, and
///   every switch runs on `switchQueue`, never on the main thread.
/// - playbin 1.22's flags setter locks its current source group and unlocks whichever is
///   current after: a group swapped meanwhile (an item loading, stopping or failing) gets an
///   unlock it never had, and GLib aborts. So a switch waits while an item is not settled in
///   paused or playing.
/// - With the branch gone, malloc's kept frame memory goes back to the system.
@MainActor
final class VideoBranch {
    static let detachDelay: Seconds = 1
    static let switchSpacing: Seconds = 1
    static let endMargin: Seconds = 2

    private let player: ObjectRef<OpaquePointer>
    private let frameSink: FrameSink
    private let scheduler: Scheduler
    private let switchQueue = DispatchQueue(label: "reel.video-switch")
    /// Whether video is wanted.
    private(set) var isWanted = true
    /// What the last switch asked GstPlay for.
    private var requested = true
    /// Pending: the detach delay or the spacing after a switch.
    private var timer: ScheduledAction?
    /// Whether the item has reached paused or playing since it loaded (see above).
    private var isSettled = true
    private var position: Seconds = 0
    private var duration: Seconds?
    private let attached = Locked(true)
    /// Called (on another thread) each time the memory the video used has been given back.
    var onMemoryReleased: (@Sendable () -> Void)?

    init(player: ObjectRef<OpaquePointer>, frameSink: FrameSink, scheduler: Scheduler) {
        self.player = player
        self.frameSink = frameSink
        self.scheduler = scheduler
    }

    /// Whether the branch is attached, as the last switch made left it.
    nonisolated var isAttached: Bool { attached.withLock { $0 } }

    func setWanted(_ wanted: Bool) {
        guard wanted != isWanted else { return }
        isWanted = wanted
        frameSink.setAccepting(wanted)
        apply()
    }

    /// A new item is loading: a switch held back at the end of the last one goes ahead once it
    /// has settled.
    func itemLoading() {
        position = 0
        duration = nil
        isSettled = false
    }

    /// GstPlay's state: paused and playing are settled; stopped and buffering (a local file's
    /// preroll, or a stream refilling) may be changing source groups.
    func stateChanged(settled: Bool) {
        isSettled = settled
        apply()
    }

    func positionChanged(_ position: Seconds) {
        self.position = position
        apply()  // one held back near the end, if a seek moved away from it
    }

    func durationChanged(_ duration: Seconds?) { self.duration = duration }

    private func apply(detachIsDue: Bool = false) {
        guard timer == nil, isSettled, isWanted != requested else { return }
        if let duration, position > duration - Self.endMargin { return }
        if !isWanted && !detachIsDue {
            timer = scheduler.schedule(after: Self.detachDelay) { [weak self] in
                self?.timer = nil
                self?.apply(detachIsDue: true)
            }
            return
        }
        requested = isWanted
        let player = player, enabled: gboolean = isWanted ? 1 : 0
        switchQueue.async { [attached] in
            gst_play_set_video_track_enabled(player.pointer, enabled)
            attached.withLock { $0 = enabled != 0 }
        }
        timer = scheduler.schedule(after: Self.switchSpacing) { [weak self] in
            self?.timer = nil
            self?.spacingEnded()
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
