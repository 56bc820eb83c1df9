// SPDX-License-Identifier: GPL-3.0-or-later
import CGStreamer
import CGstApp
import ReelGLib

// The GStreamer structs Swift sees whole, so `gcast` checks casts to them in debug builds.
// Mini objects (buffers, caps, tag lists) are not GObjects and are never cast with `gcast`.

extension GstObject: GTyped { public static var gType: GType { gst_object_get_type() } }
extension GstElement: GTyped { public static var gType: GType { gst_element_get_type() } }
extension GstBin: GTyped { public static var gType: GType { gst_bin_get_type() } }
extension GstPipeline: GTyped { public static var gType: GType { gst_pipeline_get_type() } }
extension GstPad: GTyped { public static var gType: GType { gst_pad_get_type() } }
extension GstBus: GTyped { public static var gType: GType { gst_bus_get_type() } }
extension GstAppSink: GTyped { public static var gType: GType { gst_app_sink_get_type() } }
