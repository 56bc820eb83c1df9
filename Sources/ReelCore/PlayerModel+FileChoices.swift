// SPDX-License-Identifier: GPL-3.0-or-later
/// How the user left a file, kept beside its resume position: it opens again as it was.
/// Only what differs from a fresh start is kept.
public struct FileChoices: Codable, Equatable, Sendable {
    public var rate: Double?
    /// The sound track chosen, when the file has several.
    public var audioTrack: Int?
    /// The subtitle track chosen (-1: subtitles off), when the file has any.
    public var subtitleTrack: Int?
    /// A subtitle file the user added, and the one shown as the second track.
    public var subtitleFile: String?
    public var secondSubtitleFile: String?
    public var secondSubtitleTrack: Int?
    public var subtitleDelay: Seconds?
    /// The A-B loop, as [A, B].
    public var abLoop: [Seconds]?
    public var loopsLines: Bool?
    public var pausesAfterLines: Bool?
    public var adjustments: Adjustments?

    /// The picture and the sound's delay (`+Picture`), when not as they start.
    public struct Adjustments: Codable, Equatable, Sendable {
        public var picture: Picture?
        public var audioDelay: Seconds?
    }

    public init() {}

    public var isEmpty: Bool { self == FileChoices() }
}

/// Remembering how each file was left (`FileChoices`), with its resume position.
extension PlayerModel {
    /// What the user chose for the item playing, as kept for it.
    var currentFileChoices: FileChoices {
        var choices = FileChoices()
        if rate != 1 { choices.rate = rate }
        if let media, media.audioTracks.count > 1, let track = media.currentAudioTrack,
           track != media.audioTracks.first?.index { choices.audioTrack = track }
        if let media, !media.subtitleTracks.isEmpty, loaded.subtitleFile == nil {
            let first = media.subtitleTracks.first?.index
            if media.currentSubtitleTrack != first { choices.subtitleTrack = media.currentSubtitleTrack ?? -1 }
        }
        choices.subtitleFile = loaded.subtitleFile
        choices.secondSubtitleFile = secondSubtitlesURI
        choices.secondSubtitleTrack = secondSubtitleTrack
        if subtitleDelay != 0 { choices.subtitleDelay = subtitleDelay }
        if let loop = abLoop, let end = loop.end { choices.abLoop = [loop.start, end] }
        if loopsLines { choices.loopsLines = true }
        if pausesAfterLines { choices.pausesAfterLines = true }
        let adjustments = FileChoices.Adjustments(picture: picture == Picture() ? nil : picture, audioDelay: audioDelay == 0 ? nil : audioDelay)
        if adjustments != FileChoices.Adjustments() { choices.adjustments = adjustments }
        return choices
    }

    /// Keeps how the item playing was left.
    func saveFileChoices() {
        guard let uri = loaded.uri else { return }
        if case .failed = status { return }
        resume.save(uri: uri, choices: currentFileChoices)
    }

    /// An item starts: if it was left in a way worth keeping, it comes back so (what was not
    /// kept was at its default then). Otherwise the choices carry over from the last item.
    func restoreFileChoices(for item: QueueItem) {
        let choices = resume.choices(for: item.uri)
        loaded.restoring = choices
        guard let choices else { return }
        setRate(choices.rate ?? 1)
        setSubtitleDelay(choices.subtitleDelay ?? 0)
        setLoopsLines(choices.loopsLines ?? false)
        setPausesAfterLines(choices.pausesAfterLines ?? false)
        setPicture(choices.adjustments?.picture ?? Picture())
        setAudioDelay(choices.adjustments?.audioDelay ?? 0)
    }

    /// Once the item's tracks are known: the loop, the subtitle file and the tracks chosen last
    /// time. A track switched while a seek is under way (the loop's, or the resume position's)
    /// stalled playbin3: the tracks wait for the seek to be done. Workaround (GStreamer 1.22):
    /// goes when a track switch during a seek no longer stalls.
    func restoreLoadedChoices() {
        guard var choices = loaded.restoring, let media else { return }
        if let loop = choices.abLoop, loop.count == 2, abLoop == nil { setABLoop(start: loop[0], end: loop[1]) }
        choices.abLoop = nil
        loaded.restoring = choices
        guard loaded.pendingSeek == nil else { return }
        loaded.restoring = nil
        if let file = choices.subtitleFile { openSubtitles(uri: file) }
        if let file = choices.secondSubtitleFile { setSecondSubtitles(uri: file) }
        if let track = choices.secondSubtitleTrack { setSecondSubtitles(track: track) }
        if let track = choices.audioTrack { selectAudioTrack(track) }
        if let track = choices.subtitleTrack, choices.subtitleFile == nil, !media.subtitleTracks.isEmpty {
            selectSubtitleTrack(track < 0 ? nil : track)
        }
    }
}
