@testable import BackendCore
@testable import BackendQueue
import Backend
import CGStreamer
import Foundation
import GLibSupport
import TestSupport
import Synchronization
import XCTest

/// What the audio sink received, per stream (item): running times and samples.
final class AudioTap: @unchecked Sendable {
    struct Stream {
        var id: String
        var firstStart: Int64 = -1
        var lastEnd: Int64 = -1
        var samples: [Float] = []
        var rate = 48000
    }

    let streams = Mutex<[Stream]>([])

    /// fakesink `handoff` (streaming thread): the buffer's running time from the pad's sticky
    /// segment (`gst_segment_to_running_time`), its samples (F32LE mono), its stream id.
    func handoff(buffer: UnsafeMutablePointer<GstBuffer>, pad: UnsafeMutablePointer<GstPad>) {
        var streamID = "?"
        if let event = gst_pad_get_sticky_event(pad, GST_EVENT_STREAM_START, 0) {
            var id: UnsafePointer<gchar>?
            gst_event_parse_stream_start(event, &id)
            if let id { streamID = String(cString: id) }
            gst_event_unref(event)
        }
        var start: Int64 = -1, end: Int64 = -1
        if let event = gst_pad_get_sticky_event(pad, GST_EVENT_SEGMENT, 0) {
            var segment: UnsafePointer<GstSegment>?
            gst_event_parse_segment(event, &segment)
            if let segment {
                let pts = buffer.pointee.pts, duration = buffer.pointee.duration
                start = Int64(bitPattern: UInt64(gst_segment_to_running_time(segment, GST_FORMAT_TIME, pts)))
                end = Int64(bitPattern: UInt64(gst_segment_to_running_time(segment, GST_FORMAT_TIME, pts &+ duration)))
            }
            gst_event_unref(event)
        }
        var info = GstMapInfo()
        var samples: [Float] = []
        if gst_buffer_map(buffer, &info, GST_MAP_READ) != 0 {
            let count = Int(info.size) / 4
            info.data.withMemoryRebound(to: Float.self, capacity: count) { samples = Array(UnsafeBufferPointer(start: $0, count: count)) }
            gst_buffer_unmap(buffer, &info)
        }
        streams.withLock { list in
            if list.last?.id != streamID { list.append(Stream(id: streamID)) }
            if list[list.count - 1].firstStart < 0 { list[list.count - 1].firstStart = start }
            list[list.count - 1].lastEnd = end
            list[list.count - 1].samples += samples
        }
    }
}

/// Gapless hand-over (``GaplessFeeder``) on a real `playbin` with three same-format Vorbis
/// fixtures, measured at the audio sink: the running-time gap between the last sample of one
/// item and the first of the next, and any silence at the join.
final class GaplessTests: XCTestCase {
    static let fixtures = ["gapless-440.ogg", "gapless-660.ogg", "gapless-880.ogg"].map(TestMedia.path)

    /// Longest run of near-silent samples (|x| < 0.01) in `window`, in samples.
    static func longestSilence(_ window: ArraySlice<Float>) -> Int {
        var best = 0, run = 0
        for x in window { run = abs(x) < 0.01 ? run + 1 : 0; best = max(best, run) }
        return best
    }

    /// Dominant frequency from zero crossings (Hz).
    static func frequency(_ samples: [Float], rate: Int) -> Double {
        var crossings = 0
        for (a, b) in zip(samples, samples.dropFirst()) where (a < 0) != (b < 0) { crossings += 1 }
        return Double(crossings) / 2 / (Double(samples.count) / Double(rate))
    }

    func testThreeItemsPlayBackToBackWithoutAGap() throws {
        GStreamerRuntime.ensureInitialized()
        let uris = try Self.fixtures.map { try MediaLocation.uri(for: $0) }
        let playbin = try XCTUnwrap(gst_element_factory_make("playbin", nil))
        _ = gst_object_ref_sink(UnsafeMutableRawPointer(playbin))
        defer { gst_element_set_state(playbin, GST_STATE_NULL); gst_object_unref(UnsafeMutableRawPointer(playbin)) }
        var error: UnsafeMutablePointer<GError>?
        let sinkBin = try XCTUnwrap(gst_parse_bin_from_description(
            "capsfilter caps=audio/x-raw,format=F32LE,layout=interleaved,channels=1,rate=48000 ! fakesink name=tap sync=true signal-handoffs=true", 1, &error))
        let tap = try XCTUnwrap(gst_bin_get_by_name(CGStreamer_as_bin(sinkBin), "tap"))
        defer { gst_object_unref(UnsafeMutableRawPointer(tap)) }
        let recorder = AudioTap()
        let box = CallbackBox(recorder)
        _ = CGStreamer_signal_connect_3(tap, "handoff", { _, buffer, pad, data in
            guard let buffer, let pad, let data else { return }
            CallbackBox<AudioTap>.from(data).value.handoff(buffer: buffer.assumingMemoryBound(to: GstBuffer.self),
                                                            pad: pad.assumingMemoryBound(to: GstPad.self))
        }, box.retainedPointer, callbackBoxClosureRelease)
        CGStreamer_set_object(playbin, "audio-sink", sinkBin)
        CGStreamer_set_object(playbin, "video-sink", gst_element_factory_make("fakesink", nil))
        CGStreamer_set_string(playbin, "uri", uris[0])

        let feeder = GaplessFeeder()
        _ = GaplessHandOver(messageName: GaplessFeeder.messageName) { feeder.next(videoStreams: $0) }
            .connect(to: UnsafeMutableRawPointer(playbin))
        feeder.prepare(upcoming: Array(uris.dropFirst()))

        let bus = try XCTUnwrap(gst_element_get_bus(playbin))
        defer { gst_object_unref(UnsafeMutableRawPointer(bus)) }
        gst_element_set_state(playbin, GST_STATE_PLAYING)
        var handovers: [String] = [], streamStarts = 0, eos = false
        let deadline = Date().addingTimeInterval(15)
        while !eos, Date() < deadline {
            guard let message = gst_bus_timed_pop(bus, 100_000_000) else { continue }
            defer { gst_message_unref(message) }
            switch CGStreamer_message_type(message) {
            case GST_MESSAGE_APPLICATION where GaplessFeeder.isHandover(message): handovers += feeder.takeHandedOver()
            case GST_MESSAGE_STREAM_START: streamStarts += 1
            case GST_MESSAGE_EOS: eos = true
            case GST_MESSAGE_ERROR:
                var gerror: UnsafeMutablePointer<GError>?
                gst_message_parse_error(message, &gerror, nil)
                XCTFail("error: \(gerror.map { String(cString: $0.pointee.message) } ?? "?")")
                eos = true
            default: break
            }
        }
        XCTAssertTrue(eos, "one EOS after the last item")
        XCTAssertEqual(handovers, Array(uris.dropFirst()), "each next item handed over once at about-to-finish")
        XCTAssertEqual(streamStarts, 3, "a STREAM_START on the bus per item")

        let streams = recorder.streams.withLock { $0 }
        XCTAssertEqual(streams.count, 3, "three streams reached the sink")
        guard streams.count == 3 else { return }
        for (stream, expected) in zip(streams, [440.0, 660.0, 880.0]) {
            XCTAssertEqual(Self.frequency(stream.samples, rate: 48000), expected, accuracy: 15, "items in order")
            XCTAssertEqual(Double(stream.samples.count) / 48000, 1.0, accuracy: 0.01, "each item whole")
        }
        var report: [String] = []
        for (a, b) in zip(streams, streams.dropFirst()) {
            let gapMs = Double(b.firstStart - a.lastEnd) / 1e6
            let joinWindow = a.samples.suffix(480) + b.samples.prefix(480) // 10 ms each side
            let silenceMs = Double(Self.longestSilence(joinWindow[...])) / 48
            report.append(String(format: "gap %.3f ms, silence at join %.3f ms", gapMs, silenceMs))
            XCTAssertLessThan(abs(gapMs), 5, "running-time gap between items")
            XCTAssertLessThan(silenceMs, 5, "silence at the join")
        }
        print("GaplessTests: " + report.joined(separator: "; "))
    }
}
