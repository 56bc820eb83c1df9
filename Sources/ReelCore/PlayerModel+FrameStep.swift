// SPDX-License-Identifier: GPL-3.0-or-later
/// Frame stepping ("." and ","), as in mpv: playback pauses and the next or previous frame is
/// shown. Each step is an accurate seek to that frame's start, so a step back across a keyframe
/// still lands on the exact frame before (the decoder starts again from the keyframe before it).
extension PlayerModel {
    /// One frame's length in the video playing, when its frame rate is known.
    var frameDuration: Seconds? {
        guard let rate = media?.videoFormat?.frameRate, rate > 0 else { return nil }
        return 1 / rate
    }

    /// Shows the next frame (`forward`) or the previous one, paused.
    public func stepFrame(forward: Bool) {
        guard canSeek, let frame = frameDuration, let duration else { return }
        if status.isPlaying { pause() }
        // The frame shown is the last one starting at or before the position (a thousandth of
        // a frame's slack for the rounding of times in microseconds).
        let shown = (position / frame + 0.001).rounded(.down)
        let target = (shown + (forward ? 1 : -1)) * frame
        guard target >= 0, target < duration else { return }
        seek(to: target)
    }
}
