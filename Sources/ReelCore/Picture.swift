// SPDX-License-Identifier: GPL-3.0-or-later
/// How the picture is shown, as the user set it: turned, stretched, filling the window, its
/// colours and its deinterlacing. Kept per file with the other `FileChoices`.
public struct Picture: Codable, Equatable, Sendable {
    /// The user's turn on top of the file's own (a phone's tag): quarter turns clockwise, then
    /// mirrored left to right.
    public var quarterTurns = 0
    public var mirrored = false
    public var aspect = Aspect.automatic
    /// The window filled, the letterbox cropped away.
    public var fillsWindow = false
    public var colour = Colour()
    public var deinterlacing = Deinterlacing.automatic

    public init() {}

    /// The picture shown turned a quarter clockwise (or back): a mirrored picture turns the
    /// other way underneath, so that what is seen turns the way asked.
    public mutating func turn(clockwise: Bool) {
        quarterTurns = (quarterTurns + (clockwise != mirrored ? 1 : 3)) % 4
    }

    /// The picture shown mirrored left to right.
    public mutating func mirror() { mirrored.toggle() }

    public enum Aspect: String, Codable, CaseIterable, Sendable {
        /// The file's own, its pixels' aspect ratio included.
        case automatic, wide = "16:9", standard = "4:3", cinema = "2.39:1", square = "1:1"

        /// Width over height; nil for the file's own.
        public var ratio: Double? {
            switch self {
            case .automatic: nil
            case .wide: 16.0 / 9
            case .standard: 4.0 / 3
            case .cinema: 2.39
            case .square: 1
            }
        }
    }

    /// Interlaced streams are deinterlaced when their caps say they are (`automatic`); `forced`
    /// for files flagged progressive that are not.
    public enum Deinterlacing: String, Codable, CaseIterable, Sendable {
        case automatic, off, forced
    }

    /// GStreamer's colour balance: brightness and hue from -1 to 1 (0 unchanged), contrast and
    /// saturation from 0 to 2 (1 unchanged).
    public struct Colour: Codable, Equatable, Sendable {
        public var brightness = 0.0
        public var contrast = 1.0
        public var saturation = 1.0
        public var hue = 0.0

        public init() {}

        public static let brightnessRange: ClosedRange<Double> = -1...1
        public static let contrastRange: ClosedRange<Double> = 0...2
        public static let saturationRange = contrastRange
        public static let hueRange = brightnessRange

        /// Each value within its range, to the hundredth (the menu's step); nonsense is neutral.
        func clamped() -> Colour {
            func clamp(_ value: Double, _ range: ClosedRange<Double>, neutral: Double) -> Double {
                value.isFinite ? (min(max(value, range.lowerBound), range.upperBound) * 100).rounded() / 100 : neutral
            }
            var colour = Colour()
            colour.brightness = clamp(brightness, Self.brightnessRange, neutral: 0)
            colour.contrast = clamp(contrast, Self.contrastRange, neutral: 1)
            colour.saturation = clamp(saturation, Self.saturationRange, neutral: 1)
            colour.hue = clamp(hue, Self.hueRange, neutral: 0)
            return colour
        }
    }
}
