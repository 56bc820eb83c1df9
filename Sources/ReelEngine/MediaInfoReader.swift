// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import CGStreamer
import CGstPbutils
import CGstPlay
import CShims
import ReelCore
import ReelGLib

/// Reads GstPlay's media info into the core's `MediaInfo`.
enum MediaInfoReader {
    /// `currentAudio`/`currentSubtitle`: the stream indexes playing (nil: none, subtitles off).
    static func read(_ info: OpaquePointer, currentAudio: Int?, currentSubtitle: Int?) -> MediaInfo {
        var media = MediaInfo()
        let global = gst_play_media_info_get_tags(info)
        let streams = list(gst_play_media_info_get_stream_list(info))
        let streamTags = streams.compactMap { gst_play_stream_info_get_tags(gcast($0)) }

        // The container's (global) tags describe the work. A per-stream title names a track
        // ("Audio", "English commentary") when there are several, so it stands in only for a
        // single-stream file (an Ogg or MP3 song keeps its tags on its one stream).
        media.title = firstString(GST_TAG_TITLE, in: [global] + (streams.count == 1 ? streamTags : []))
        // A radio station names itself (souphttpsrc gives `icy-name` as the organization): the
        // station is the album the songs of its stream come from.
        media.album = firstString(GST_TAG_ALBUM, in: [global] + streamTags) ?? firstString(GST_TAG_ORGANIZATION, in: [global] + streamTags)
        media.artists = allStrings(GST_TAG_ARTIST, in: global)
        if media.artists.isEmpty, let tags = streamTags.first(where: { !allStrings(GST_TAG_ARTIST, in: $0).isEmpty }) {
            media.artists = allStrings(GST_TAG_ARTIST, in: tags)
        }
        media.hasVideo = gst_play_media_info_get_number_of_video_streams(info) > 0
        media.hasAudio = gst_play_media_info_get_number_of_audio_streams(info) > 0
        let seekable = gst_play_media_info_is_seekable(info) != 0
        // Live: a live source (GstPlay's is_live), or no end: an ICY stream cannot be sought at
        // all, a live HLS stream within the few segments it lists (a local file without a
        // length that can be sought is only a file whose header lacks it).
        let unbounded = gst_play_media_info_get_duration(info) == reel_gst_clock_time_none()
        let network = !(gst_play_media_info_get_uri(info).map { String(cString: $0).hasPrefix("file:") } ?? true)
        let live = gst_play_media_info_is_live(info) != 0 || (unbounded && (!seekable || network))
        media.seeking = live ? .live : seekable ? .seekable : .notSeekable
        if let video = list(gst_play_media_info_get_video_streams(info)).first {
            let v: OpaquePointer = gcast(video)
            let w = gst_play_video_info_get_width(v), h = gst_play_video_info_get_height(v)
            var numerator: gint = 0, denominator: gint = 0
            gst_play_video_info_get_framerate(v, &numerator, &denominator)
            let rate = numerator > 0 && denominator > 0 ? Double(numerator) / Double(denominator) : nil
            if w > 0 && h > 0 { media.videoFormat = VideoFormat(width: Int(w), height: Int(h), frameRate: rate) }
        }
        if let sample = gst_play_media_info_get_image_sample(info) {
            media.coverArt = coverArt(from: sample)
        }
        media.audioTracks = list(gst_play_media_info_get_audio_streams(info)).map { stream in
            track(stream, language: gst_play_audio_info_get_language(gcast(stream)))
        }
        media.subtitleTracks = list(gst_play_media_info_get_subtitle_streams(info)).map { stream in
            track(stream, language: gst_play_subtitle_info_get_language(gcast(stream)))
        }
        media.currentAudioTrack = currentAudio
        media.currentSubtitleTrack = currentSubtitle
        return media
    }

    /// What GstDiscoverer read of an item not yet playing (see `GaplessJoin`): its description,
    /// length and the format of its first sound track; nil when it has no stream at all.
    static func read(discovered info: OpaquePointer) -> (media: MediaInfo, duration: Seconds?, format: GaplessJoin.AudioFormat?)? {
        guard let top = gst_discoverer_info_get_stream_info(info) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(top)) }
        let audio = gst_discoverer_info_get_audio_streams(info)
        let video = gst_discoverer_info_get_video_streams(info)
        defer {
            gst_discoverer_stream_info_list_free(audio)
            gst_discoverer_stream_info_list_free(video)
        }
        let audioStreams = list(audio), videoStreams = list(video)
        // The container's tags describe the work, its streams' (a FLAC's, an Ogg's) stand in.
        let tags = [gst_discoverer_stream_info_get_tags(top)] + audioStreams.map { gst_discoverer_stream_info_get_tags(gcast($0)) }
        let lists = tags.map { UnsafeMutablePointer(mutating: $0) }
        var media = MediaInfo(title: firstString(GST_TAG_TITLE, in: lists),
                              album: firstString(GST_TAG_ALBUM, in: lists),
                              artists: lists.lazy.map { allStrings(GST_TAG_ARTIST, in: $0) }.first { !$0.isEmpty } ?? [],
                              hasVideo: videoStreams.contains { gst_discoverer_video_info_is_image(gcast($0)) == 0 },
                              hasAudio: !audioStreams.isEmpty,
                              isSeekable: gst_discoverer_info_get_seekable(info) != 0)
        for case let tags? in lists {
            var sample: OpaquePointer?
            if gst_tag_list_get_sample(tags, GST_TAG_IMAGE, &sample) != 0, let sample {
                defer { gst_sample_unref(sample) }
                media.coverArt = coverArt(from: sample)
                break
            }
        }
        let format = audioStreams.first.map { stream -> GaplessJoin.AudioFormat in
            let audio: OpaquePointer = gcast(stream)
            return GaplessJoin.AudioFormat(rate: Int(gst_discoverer_audio_info_get_sample_rate(audio)),
                                           channels: Int(gst_discoverer_audio_info_get_channels(audio)))
        }
        return (media, GStreamer.seconds(UInt64(gst_discoverer_info_get_duration(info))), format)
    }

    private static func track(_ stream: UnsafeMutableRawPointer, language: UnsafePointer<gchar>?) -> MediaTrack {
        let info: OpaquePointer = gcast(stream)
        let title = firstString(GST_TAG_TITLE, in: [gst_play_stream_info_get_tags(info)])
        let code = language.map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        return MediaTrack(index: Int(gst_play_stream_info_get_index(info)), title: title, language: code)
    }

    private static func list(_ list: UnsafeMutablePointer<GList>?) -> [UnsafeMutableRawPointer] {
        var items: [UnsafeMutableRawPointer] = []
        var node = list
        while let current = node {
            if let data = current.pointee.data { items.append(data) }
            node = current.pointee.next
        }
        return items
    }

    private static func firstString(_ tag: String, in lists: [UnsafeMutablePointer<GstTagList>?]) -> String? {
        for case let tags? in lists {
            var value: UnsafeMutablePointer<gchar>?
            if gst_tag_list_get_string(tags, tag, &value) != 0, let text = takeString(value), !text.isEmpty {
                return text
            }
        }
        return nil
    }

    private static func allStrings(_ tag: String, in tags: UnsafeMutablePointer<GstTagList>?) -> [String] {
        guard let tags else { return [] }
        let count = gst_tag_list_get_tag_size(tags, tag)
        return (0..<count).compactMap { index in
            var value: UnsafePointer<gchar>?
            guard gst_tag_list_peek_string_index(tags, tag, index, &value) != 0, let value else { return nil }
            let text = String(cString: value)
            return text.isEmpty ? nil : text
        }
    }

    private static func coverArt(from sample: OpaquePointer) -> CoverArt? {
        guard let buffer = gst_sample_get_buffer(sample) else { return nil }
        var map = GstMapInfo()
        guard gst_buffer_map(buffer, &map, reel_gst_map_read()) != 0 else { return nil }
        defer { gst_buffer_unmap(buffer, &map) }
        let bytes = Array(UnsafeBufferPointer(start: map.data, count: Int(map.size)))
        var mime = "image/jpeg"
        if let caps = gst_sample_get_caps(sample), gst_caps_get_size(caps) > 0,
           let name = gst_structure_get_name(gst_caps_get_structure(caps, 0)) {
            mime = String(cString: name)
        }
        guard !bytes.isEmpty, mime.hasPrefix("image/") else { return nil }
        return CoverArt(bytes: bytes, mimeType: mime)
    }
}
