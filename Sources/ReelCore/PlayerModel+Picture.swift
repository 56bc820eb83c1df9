// SPDX-License-Identifier: GPL-3.0-or-later
/// The picture and the sound as the user adjusts them: the `Picture` (turn, aspect, fill,
/// colours, deinterlacing), the sound's delay against the picture, and volume past 100 %.
/// Applied through the engine; kept per file with the other `FileChoices`.
extension PlayerModel {
    /// Bluetooth headphones run 0.1-0.4 s late; a stream's own offset rarely more than a second.
    nonisolated public static let audioDelayRange: ClosedRange<Seconds> = -5...5
    /// What one press of the delay keys changes.
    public static let audioDelayStep: Seconds = 0.01
    /// Past 1 the sound is amplified, with a limiter keeping it from clipping.
    nonisolated public static let volumeRange: ClosedRange<Double> = 0...1.5

    public var picture: Picture { choices.picture }
    /// The sound is heard this much later than the picture (earlier when negative).
    public var audioDelay: Seconds { choices.audioDelay }

    public func setPicture(_ newPicture: Picture) {
        var picture = newPicture
        picture.quarterTurns = (picture.quarterTurns % 4 + 4) % 4
        picture.colour = picture.colour.clamped()
        let old = choices.picture
        guard picture != old else { return }
        choices.picture = picture
        engine.setPicture(picture)
        notify(.picture)
        // Colour and deinterlacing apply as frames are made: a paused frame is made again.
        if status == .paused, picture.colour != old.colour || picture.deinterlacing != old.deinterlacing {
            seek(to: position)
        }
    }

    /// Changes part of the picture, e.g. `adjustPicture { $0.turn(clockwise: true) }`.
    public func adjustPicture(_ change: (inout Picture) -> Void) {
        var picture = choices.picture
        change(&picture)
        setPicture(picture)
    }

    public func setAudioDelay(_ seconds: Seconds) {
        guard seconds.isFinite else { return }
        let clamped = (min(max(seconds, Self.audioDelayRange.lowerBound), Self.audioDelayRange.upperBound) * 1000).rounded() / 1000
        guard clamped != audioDelay else { return }
        choices.audioDelay = clamped
        engine.setAudioDelay(clamped)
        notify(.audioDelay)
    }
}
