// SPDX-License-Identifier: GPL-3.0-or-later
/// The vocabulary shared by the engine, the model and everything that observes the model.
/// Times are seconds as `Double`; adapters convert at their edges (GStreamer ns, MPRIS µs).
public typealias Seconds = Double

/// What the player is doing, as the user sees it.
public enum PlaybackStatus: Equatable, Sendable {
    case idle
    case loading
    case buffering(percent: Int)
    case playing
    case paused
    /// An item is loaded but stopped (MPRIS Stop); play starts it over.
    case stopped
    case ended
    case failed(PlaybackError)

    /// Whether time is meant to advance (buffering pauses it only for a moment).
    public var isPlaying: Bool {
        switch self {
        case .playing, .buffering: return true
        default: return false
        }
    }
}

/// An error in words a person understands, plus what a developer needs to look into it.
public struct PlaybackError: Error, Equatable, Sendable {
    public enum Kind: Sendable, Equatable {
        case notFound, notReadable, notMedia, missingCodec, network, other
    }
    public var kind: Kind
    /// One sentence for the window, naming the file or the missing piece.
    public var message: String
    /// The underlying library's words, for the log.
    public var detail: String?

    public init(kind: Kind, message: String, detail: String? = nil) {
        self.kind = kind
        self.message = message
        self.detail = detail
    }
}

public struct VideoFormat: Equatable, Sendable {
    public var width: Int
    public var height: Int
    /// Frames a second; nil when the stream does not say (a variable rate).
    public var frameRate: Double?
    public init(width: Int, height: Int, frameRate: Double? = nil) {
        self.width = width
        self.height = height
        self.frameRate = frameRate
    }
}

/// An embedded cover image, as encoded in the file.
public struct CoverArt: Equatable, Sendable {
    public var bytes: [UInt8]
    public var mimeType: String
    public init(bytes: [UInt8], mimeType: String) { self.bytes = bytes; self.mimeType = mimeType }

    /// The file extension matching the image type, for caches that name files.
    public var fileExtension: String {
        switch mimeType {
        case "image/png": return "png"
        case "image/gif": return "gif"
        case "image/webp": return "webp"
        default: return "jpg"
        }
    }
}

/// A sound or subtitle stream of the media, one the user can pick.
public struct MediaTrack: Equatable, Sendable {
    /// The engine's index of the stream among those of its kind.
    public var index: Int
    public var title: String?
    /// An ISO 639 code, when the media says.
    public var language: String?

    public init(index: Int, title: String? = nil, language: String? = nil) {
        self.index = index
        self.title = title
        self.language = language
    }
}

/// One subtitle line and the stretch of the media it covers.
public struct SubtitleLine: Equatable, Sendable {
    public var text: String
    /// Pango markup (italics and the like, from the subtitle parser) rather than plain text.
    public var isMarkup: Bool
    /// Media time the line covers, when known; it leaves the screen outside it.
    public var start: Seconds?
    public var end: Seconds?

    public init(text: String, isMarkup: Bool = false, start: Seconds? = nil, end: Seconds? = nil) {
        self.text = text
        self.isMarkup = isMarkup
        self.start = start
        self.end = end
    }
}

/// A chapter of the media, as its table of contents gives it (Matroska chapters).
public struct Chapter: Equatable, Sendable {
    public var title: String
    public var start: Seconds
    public var end: Seconds?

    public init(title: String, start: Seconds, end: Seconds? = nil) {
        self.title = title
        self.start = start
        self.end = end
    }
}

/// What the media says about itself once loaded.
public struct MediaInfo: Equatable, Sendable {
    public var title: String?
    public var album: String?
    public var artists: [String]
    public var coverArt: CoverArt?
    public var videoFormat: VideoFormat?
    public var hasVideo: Bool
    public var hasAudio: Bool
    public var seeking: Seeking
    public var audioTracks: [MediaTrack] = []
    public var subtitleTracks: [MediaTrack] = []
    /// The index of the sound track playing.
    public var currentAudioTrack: Int?
    /// The index of the subtitles shown; nil while subtitles are off.
    public var currentSubtitleTrack: Int?

    public init(title: String? = nil, album: String? = nil, artists: [String] = [],
                coverArt: CoverArt? = nil, videoFormat: VideoFormat? = nil,
                hasVideo: Bool = false, hasAudio: Bool = false, isSeekable: Bool = true) {
        self.title = title
        self.album = album
        self.artists = artists
        self.coverArt = coverArt
        self.videoFormat = videoFormat
        self.hasVideo = hasVideo
        self.hasAudio = hasAudio
        seeking = isSeekable ? .seekable : .notSeekable
    }

    /// Whether the item can be sought; a live one (internet radio, a live broadcast) has
    /// neither an end nor a way to seek.
    public enum Seeking: Sendable, Equatable { case seekable, notSeekable, live }
    public var isSeekable: Bool { seeking == .seekable }
    public var isLive: Bool { seeking == .live }
    public var isAudioOnly: Bool { hasAudio && !hasVideo }
}

/// The engine's own states (GstPlay's), before the model interprets them.
public enum EngineState: Sendable, Equatable {
    case stopped, buffering, paused, playing
}

/// Everything an engine reports, always on the main thread.
public enum EngineEvent: Sendable, Equatable {
    case state(EngineState)
    case position(Seconds)
    /// nil while the length is unknown (never 0 for "unknown").
    case duration(Seconds?)
    case mediaInfo(MediaInfo)
    case buffering(percent: Int)
    case seekDone(Seconds)
    case endOfStream
    case error(PlaybackError)
    /// Something the user should know while the item still plays (a missing video decoder
    /// with the sound playing on).
    case warning(PlaybackError)
    case volume(Double)
    case muted(Bool)
    /// The audio device in use went away (headphones unplugged) and the sound moved elsewhere.
    case audioOutputLost
    /// A subtitle line for some stretch of the media; nil: forget the lines had so far
    /// (another track, subtitles off, another item).
    case subtitle(SubtitleLine?)
    /// The item's chapters, in time order (none: it has none, or they are not known yet).
    case chapters([Chapter])
    /// The item loaded is a playlist, read: nothing plays until the model queues its entries.
    case playlist(PlaylistContents)
    /// The item offered with `offerNext` began where the last one ended, without a break (it is
    /// now the one loaded); its media info and length follow.
    case joined(uri: String)
}

/// What the model needs from a playback engine. ReelEngine's `GstPlayEngine` is the real one;
/// tests of the model use a scripted one.
@MainActor
public protocol PlaybackEngine: AnyObject {
    var onEvent: ((EngineEvent) -> Void)? { get set }
    func load(uri: String)
    /// The item to join to the loaded one when it ends, with no break between them (nil: none).
    /// The engine joins it only when it can (sound alone, in the same format), and says `.joined`.
    func offerNext(uri: String?)
    /// Plays the loaded item again from its start, at the rate set, after it ended or stopped.
    func restart()
    func play()
    func pause()
    func stop()
    /// Accurate seeks land on the exact time; others on the nearest keyframe (fast, for scrubbing).
    func seek(to position: Seconds, accurate: Bool)
    func setRate(_ rate: Double)
    func setVolume(_ volume: Double)
    func setMuted(_ muted: Bool)
    /// How the picture is shown (see `Picture`); applies to the frame shown at once.
    func setPicture(_ picture: Picture)
    /// The sound this much later than the picture (earlier when negative).
    func setAudioDelay(_ delay: Seconds)
    /// Turns the video branch off (no decoding, conversion or upload) or back on.
    func setVideoEnabled(_ enabled: Bool)
    func selectAudioTrack(_ index: Int)
    /// Shows the subtitle track `index`, or none.
    func selectSubtitleTrack(_ index: Int?)
    /// Adds subtitles from a file (SubRip, WebVTT…) to the item loaded or about to play.
    func setExternalSubtitles(uri: String)
    /// Reads the loaded item's embedded subtitle track `index` whole, ahead of playback, and
    /// hands its lines to `completion` on the main loop (none when it cannot).
    func readSubtitleTrack(_ index: Int, completion: @escaping @MainActor ([SubtitleLine]) -> Void)
}
