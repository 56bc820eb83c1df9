// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import CGStreamer
import CGstPlay
import CGstPbutils
import CShims
import Foundation
import ReelCore
import ReelGLib

/// The playback engine: GstPlay (gst-plugins-bad's player library, the AVPlayer of GStreamer)
/// with Reel's own video sink and an audio path that preserves pitch at any rate.
/// GstPlay runs its pipeline on its own thread; its signal adapter re-emits every event on the
/// main context, where this class turns them into `EngineEvent`s.
@MainActor
public final class GstPlayEngine: PlaybackEngine {
    public var onEvent: ((EngineEvent) -> Void)?
    public let frameSink: FrameSink

    private let player: ObjectRef<OpaquePointer>
    private let pipeline: ObjectRef<UnsafeMutablePointer<GstElement>>
    let adapter: ObjectRef<OpaquePointer>  // internal: tests find its main-loop source
    private let reports = PipelineReports()
    /// The rate, applied at the sinks (upstream and GstPlay always run at 1×): seamless changes,
    /// and an item that starts at another rate pays no second seek.
    nonisolated(unsafe) private let sinkRate = reel_sink_rate_new()!
    /// The item last loaded; nil before the first.
    private var item: EngineItem?
    private var videoBranch: VideoBranch!
    /// Whether video is wanted (the window can be seen).
    public var isVideoEnabled: Bool { videoBranch.isWanted }
    /// Whether the video branch is attached (see `VideoBranch`).
    public var isVideoBranchAttached: Bool { videoBranch.isAttached }
    /// Video frames let into the decoders (of every engine in the process), for the diagnostics.
    nonisolated public static var videoFramesDecoded: UInt64 { UInt64(reel_decoder_gate_frames_let_through()) }
    /// Called (on another thread) each time the memory the video used has been given back.
    public var onMemoryReleased: (@Sendable () -> Void)? {
        get { videoBranch.onMemoryReleased }
        set { videoBranch.onMemoryReleased = newValue }
    }
    private var subtitleSink: SubtitleSink!
    private var gaplessJoin: GaplessJoin!
    /// Subtitles turned off by the user: lines are dropped; the pipeline is left alone.
    private var subtitlesOff = false

    public static let positionUpdateInterval: UInt32 = 100  // ms: ten updates a second

    /// The sound server shows the stream as `applicationName`'s, with `applicationID` for its icon.
    public init(applicationID: String, applicationName: String) {
        GStreamer.initialize()
        frameSink = FrameSink()
        player = ObjectRef(taking: gst_play_new(nil))
        pipeline = ObjectRef(taking: gst_play_get_pipeline(player.pointer))

        var audioDeviceSink: UnsafeMutablePointer<GstElement>?
        let config = gst_play_get_config(player.pointer)
        gst_play_config_set_position_update_interval(config, Self.positionUpdateInterval)
        gst_play_config_set_seek_accurate(config, 1)
        gst_play_set_config(player.pointer, config)

        reel_playbin_sync_tracks_by_segment(pipeline.pointer)
        reel_playbin_tune_decoders(pipeline.pointer, sinkRate)
        reel_object_set_pointer(pipeline.raw, "video-sink", frameSink.element.raw)
        reel_playbin_leave_picture_to_frame_sink(pipeline.pointer)
        reel_sink_rate_attach(sinkRate, frameSink.element.pointer, 0)
        if let audioSink = AudioOutput.makeSink(applicationID: applicationID, applicationName: applicationName) {
            audioDeviceSink = audioSink
            let output = reel_audio_sink_new(audioSink, sinkRate)
            reel_object_set_pointer(pipeline.raw, "audio-sink", gpointer(output))
            // The sound leads the rate changes: its sink runs furthest ahead of what is heard.
            reel_sink_rate_attach(sinkRate, output, 1)
        }
        reports.watch(pipeline.pointer)

        adapter = ObjectRef(taking: gst_play_signal_adapter_new(player.pointer))
        // A frame waiting for its repaint goes first (see reel_video_paintable_set_yielding_source).
        // GstPlay (1.22) gives no access to the adapter's bus watch; the adapter is its data.
        reel_video_paintable_set_yielding_source(frameSink.paintable.pointer, g_main_context_find_source_by_user_data(nil, adapter.raw))
        videoBranch = VideoBranch(player: player, pipeline: pipeline, frameSink: frameSink, scheduler: GLibScheduler())
        subtitleSink = SubtitleSink { [weak self] line in
            runSoon {
                guard let self, !self.subtitlesOff else { return }
                self.onEvent?(.subtitle(line))
            }
        }
        reel_object_set_pointer(pipeline.raw, "text-sink", subtitleSink.element.raw)
        connectSignals()
        gaplessJoin = GaplessJoin(pipeline: pipeline.pointer) { [weak self] in self?.currentAudioFormat() }
        gaplessJoin.onJoined = { [weak self] next in self?.joined(next) }
        ChapterReader.watch(pipeline.pointer) { [weak self] chapters, uri in
            guard let self, self.item?.uri == uri else { return }
            self.onEvent?(.chapters(chapters))
        }
        if let audioDeviceSink {
            AudioOutput.watchDevice(audioDeviceSink) { [weak self] in runSoon { self?.onEvent?(.audioOutputLost) } }
        }
    }

    // Not isolated: an isolated deinit is queued on the main actor, which a thread iterating
    // only the GLib loop (tests, tools) never drains; these calls are safe from any thread.
    deinit {
        g_signal_handlers_destroy(adapter.raw)
        gst_play_stop(player.pointer)
        // Messages waiting on GstPlay's bus for the adapter each hold a reference to the player
        // (their source), and the player holds the bus: left there, they kept every GstPlay,
        // its thread and its pipeline alive for good. A flushing bus drops them, and those
        // still to come.
        if let bus = gst_play_get_message_bus(player.pointer) {
            gst_bus_set_flushing(bus, 1)
            gst_object_unref(gpointer(bus))
        }
        // The pipeline is stopped and the last references dropped on a thread of their own: GStreamer
        // 1.22 was seen to deadlock stopping multi-track pipelines (input-selectors waiting on the
        // clock; now kept in step by segment instead, see reel_playbin_sync_tracks_by_segment),
        // and a stuck teardown must not take the main thread with it. Stopping before the last
        // unref keeps a streaming thread from ending up with it (see gst_workarounds.c).
        reel_release_player_in_background(adapter.raw, pipeline.pointer, player.raw)
        reel_sink_rate_unref(sinkRate)
    }

    /// Adapter signals are handled only once GstPlay has taken the current URI (see `EngineItem.awaitingLoad`).
    private func connectCurrent(_ signal: String, _ handler: @escaping @MainActor (GstPlayEngine, SignalArguments) -> Void) {
        connectMainSignal(adapter.raw, signal) { [weak self] args in
            guard let self, !(self.item?.awaitingLoad ?? false) else { return }
            handler(self, args)
        }
    }

    private func connectSignals() {
        connectMainSignal(adapter.raw, "uri-loaded") { [weak self] args in
            guard let self, let uri = args.string(1), uri == self.item?.uri else { return }
            self.item?.awaitingLoad = false
        }
        connectCurrent("state-changed") { `self`, args in
            let state: EngineState
            switch GstPlayState(UInt32(args.int(1))) {
            case GST_PLAY_STATE_PLAYING: state = .playing
            case GST_PLAY_STATE_PAUSED: state = .paused
            case GST_PLAY_STATE_BUFFERING: state = .buffering
            default: state = .stopped
            }
            // GstPlay (1.22) says "buffering" for any pipeline state short of a settled paused or
            // playing, so also while the pipeline prerolls after each seek, its own or the
            // slider's: the model's status went to buffering and back, through every observer,
            // just as the sought frame was due on screen (and ten times a second while dragging).
            // A stream's real buffering comes as `.buffering(percent:)`.
            if state == .buffering, self.videoBranch.isSeeking { return }
            self.videoBranch.stateChanged(playing: state == .playing)
            self.onEvent?(.state(state))
        }
        connectCurrent("position-updated") { `self`, args in
            guard let seconds = GStreamer.seconds(args.uint64(1)) else { return }
            self.videoBranch.positionChanged(seconds)
            self.onEvent?(.position(seconds))
        }
        connectCurrent("duration-changed") { `self`, args in
            let duration = GStreamer.seconds(args.uint64(1))
            self.videoBranch.durationChanged(duration)
            self.onEvent?(.duration(duration))
        }
        connectCurrent("seek-done") { `self`, args in
            let position = GStreamer.seconds(args.uint64(1)) ?? 0
            self.videoBranch.seekDone(at: position)
            self.onEvent?(.seekDone(position))
        }
        connectCurrent("buffering") { `self`, args in
            self.onEvent?(.buffering(percent: args.int(1)))
        }
        connectCurrent("end-of-stream") { `self`, _ in
            self.onEvent?(.endOfStream)
        }
        connectCurrent("error") { `self`, args in
            let error = args.pointer(1)?.assumingMemoryBound(to: GError.self)
            self.onEvent?(.error(self.describe(error)))
        }
        connectCurrent("warning") { `self`, _ in
            // A stream without a decoder while the rest plays: say which, once per item.
            guard let item = self.item, !item.warnedAboutMissingCodec, let missing = self.reports.firstMissingPlugin else { return }
            self.item?.warnedAboutMissingCodec = true
            self.onEvent?(.warning(PlaybackError(kind: .missingCodec, message: ErrorWording.missingPlugin(missing, name: item.name))))
        }
        connectCurrent("media-info-updated") { `self`, args in
            guard let info = args.pointer(1) else { return }
            self.report(mediaInfo: gcast(info))
        }
        // Volume and mute belong to the player, not to an item.
        connectMainSignal(adapter.raw, "volume-changed") { [weak self] _ in
            guard let self else { return }
            self.onEvent?(.volume(gst_play_get_volume(self.player.pointer)))
        }
        connectMainSignal(adapter.raw, "mute-changed") { [weak self] _ in
            guard let self else { return }
            self.onEvent?(.muted(gst_play_get_mute(self.player.pointer) != 0))
        }
    }

    private func report(mediaInfo info: OpaquePointer) {
        guard item?.joined != true else { return }
        let currentSubtitle = currentTrackIndex(gst_play_get_current_subtitle_track(player.pointer))
        let media = MediaInfoReader.read(info, currentAudio: currentTrackIndex(gst_play_get_current_audio_track(player.pointer)),
                                         currentSubtitle: subtitlesOff ? nil : currentSubtitle)
        if media != item?.lastMediaInfo {
            item?.lastMediaInfo = media
            onEvent?(.mediaInfo(media))
        }
    }

    /// The index of a current-track object GstPlay hands over (and releases it).
    private func currentTrackIndex(_ info: OpaquePointer?) -> Int? {
        guard let info else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(info)) }
        return Int(gst_play_stream_info_get_index(info))
    }

    /// A track switch does not make GstPlay report its media info again: read it now.
    private func reportTrackChange() {
        guard let info = gst_play_get_media_info(player.pointer) else { return }
        defer { g_object_unref(UnsafeMutableRawPointer(info)) }
        report(mediaInfo: gcast(info))
    }

    // MARK: PlaybackEngine

    public func load(uri: String) {
        item = EngineItem(uri: uri)
        gaplessJoin.itemLoaded()
        onEvent?(.subtitle(nil))
        onEvent?(.chapters([]))
        reports.reset()
        frameSink.clear()
        if let problem = ErrorWording.localFileProblem(uri) {
            // GStreamer would say "Resource not found" or "Could not read"; the user gets words.
            keepFromGstPlay(uri)
            return runSoon { [weak self] in
                guard let self, self.item?.uri == uri else { return }
                self.onEvent?(.error(problem))
            }
        }
        guard PlaylistFile.isPlaylist(uri) else { return hand(uri) }
        // Its entries take its place in the queue; an HLS .m3u8 (a stream's segments) plays.
        keepFromGstPlay(uri)
        PlaylistFile.read(uri) { [weak self] contents in
            guard let self, self.item?.uri == uri else { return }
            if let contents { return self.onEvent?(.playlist(contents)) ?? () }
            self.item?.keptFromGstPlay = false
            self.hand(uri)
            if self.item?.playsOnceHanded == true { self.play() } else { self.pause() }
        }
    }

    public func offerNext(uri: String?) { gaplessJoin.offer(uri) }

    private func joined(_ next: GaplessJoin.Next) {
        item = EngineItem(uri: next.uri, lastMediaInfo: next.media, joined: true)
        reports.reset()
        onEvent?(.subtitle(nil))
        onEvent?(.chapters([]))
        onEvent?(.joined(uri: next.uri))
        onEvent?(.mediaInfo(next.media))
        onEvent?(.duration(next.duration))
    }

    private func currentAudioFormat() -> GaplessJoin.AudioFormat? {
        guard let track = gst_play_get_current_audio_track(player.pointer) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(track)) }
        return GaplessJoin.AudioFormat(rate: Int(gst_play_audio_info_get_sample_rate(track)),
                                       channels: Int(gst_play_audio_info_get_channels(track)))
    }

    /// Nothing for GstPlay to play, and it must not play its previous item instead.
    private func keepFromGstPlay(_ uri: String) {
        item?.keptFromGstPlay = true
        videoBranch.itemLoading(uri: uri)
        videoBranch.perform { [player] in gst_play_stop(player.pointer) }
    }

    private func hand(_ uri: String) {
        item?.awaitingLoad = true
        // A switch held back at the end of the last item goes ahead once this one plays (a
        // detach after its delay). Forcing it through at once here, spacing or not, was tried:
        // minimize/restore cycles then grew resident memory by half a megabyte each.
        videoBranch.itemLoading(uri: uri)
        videoBranch.perform { [player] in gst_play_set_uri(player.pointer, uri) }
    }

    /// Loads the item again rather than seeking back: after the end of a stream GstPlay's own
    /// play seeks to the start at rate 1 behind any seek of ours, and a seek racing it was
    /// seen to end the repeat at once. A local file loads again in a few milliseconds.
    public func restart() {
        guard let uri = item?.uri else { return }
        load(uri: uri)
        play()
    }

    public func play() {
        guard let item, !item.keptFromGstPlay else {
            self.item?.playsOnceHanded = true
            return
        }
        videoBranch.perform { [player] in gst_play_play(player.pointer) }
    }

    public func pause() {
        // Kept from GstPlay, a pause would preroll the item GstPlay had before.
        guard let item, !item.keptFromGstPlay else {
            self.item?.playsOnceHanded = false
            return
        }
        videoBranch.perform { [player] in gst_play_pause(player.pointer) }
    }
    public func stop() { videoBranch.perform { [player] in gst_play_stop(player.pointer) } }

    public func seek(to position: Seconds, accurate: Bool) {
        videoBranch.perform { [weak self] in self?.seekNow(to: position, accurate: accurate) }
    }

    private func seekNow(to position: Seconds, accurate: Bool) {
        let time = GStreamer.clockTime(position)
        videoBranch.seekStarted(accurate ? .accurate : .keyUnit)
        if accurate {
            gst_play_seek(player.pointer, time)
        } else {
            // Scrubbing: jump to the nearest keyframe. GstPlay's own seeks are accurate (its
            // configuration), so this one goes to the pipeline directly, at 1× as all upstream.
            let flags = GstSeekFlags(rawValue: GST_SEEK_FLAG_FLUSH.rawValue | GST_SEEK_FLAG_KEY_UNIT.rawValue |
                                     GST_SEEK_FLAG_SNAP_NEAREST.rawValue)
            gst_element_seek(pipeline.pointer, 1, GST_FORMAT_TIME, flags, GST_SEEK_TYPE_SET, gint64(time),
                             GST_SEEK_TYPE_NONE, -1)
        }
    }

    public func setRate(_ rate: Double) {
        reel_sink_rate_set(sinkRate, rate)
    }

    public func selectAudioTrack(_ index: Int) {
        videoBranch.perform { [weak self] in
            guard let self else { return }
            if gst_play_set_audio_track(self.player.pointer, Int32(index)) == 0 { Log.warning("could not switch to audio track \(index)") }
            self.reportTrackChange()
        }
    }

    /// Subtitles go to Reel's own text sink and are drawn by the window, so turning them off
    /// only stops passing lines on: changing playbin's text flag while playing was seen to
    /// stall the pipeline for good.
    public func selectSubtitleTrack(_ index: Int?) {
        guard let index else {
            subtitlesOff = true
            onEvent?(.subtitle(nil))
            reportTrackChange()
            return
        }
        subtitlesOff = false
        onEvent?(.subtitle(nil))
        videoBranch.perform { [weak self] in
            guard let self else { return }
            if gst_play_set_subtitle_track(self.player.pointer, Int32(index)) == 0 { Log.warning("could not switch to subtitle track \(index)") }
            self.reportTrackChange()
        }
    }

    public func setExternalSubtitles(uri: String) {
        subtitlesOff = false
        videoBranch.perform { [player] in gst_play_set_subtitle_uri(player.pointer, uri) }
    }

    public func readSubtitleTrack(_ index: Int, completion: @escaping @MainActor ([SubtitleLine]) -> Void) {
        guard let uri = item?.uri else { return completion([]) }
        SubtitleTrackReader.read(uri: uri, track: index, completion: completion)
    }

    public func setVolume(_ volume: Double) { gst_play_set_volume(player.pointer, volume) }
    public func setMuted(_ muted: Bool) { gst_play_set_mute(player.pointer, muted ? 1 : 0) }
    public func setPicture(_ picture: Picture) { frameSink.show(picture) }
    /// playsink's offset delays the picture when positive: the sound's delay is its opposite.
    public func setAudioDelay(_ delay: Seconds) { gst_play_set_audio_video_offset(player.pointer, gint64(-delay * 1e9)) }

    public func setVideoEnabled(_ enabled: Bool) { videoBranch.setWanted(enabled) }

    /// Whether night mode can be had: its compressor (lsp-plugins-ladspa) is installed.
    public var isNightModeAvailable: Bool { reel_night_compressor_factory() != nil }

    /// Night mode evens out loud and quiet passages; switching it makes no gap in the sound.
    public func setNightMode(_ on: Bool) { reel_audio_sink_set_night_mode(pipeline.pointer, on ? 1 : 0) }

    // MARK: Errors

    private func describe(_ error: UnsafeMutablePointer<GError>?) -> PlaybackError {
        ErrorWording.pipelineFailure(item?.name ?? "", isNetwork: item?.isNetwork ?? false, reports: reports,
                                            detail: error.map { String(cString: $0.pointee.message) })
    }
}
