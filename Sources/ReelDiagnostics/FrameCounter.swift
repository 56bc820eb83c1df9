// SPDX-License-Identifier: GPL-3.0-or-later
internal import CDiagnostics
import ReelEngine

/// Frames that reached a frame sink (decoded and converted) and frames given to its paintable to
/// draw, counted from the moment the counter is made, from outside the frame path.
public final class FrameCounter: @unchecked Sendable {
    private let counts: OpaquePointer

    @MainActor
    public init(_ frameSink: FrameSink) {
        counts = reel_frame_counts_attach(frameSink.element.pointer, frameSink.paintable.raw)
    }

    deinit { reel_frame_counts_release(counts) }

    public var received: UInt64 { UInt64(reel_frame_counts_received(counts)) }
    public var shown: UInt64 { UInt64(reel_frame_counts_shown(counts)) }
}
