import Backend
import CGStreamer
import Dispatch
import Foundation
import Synchronization

/// `child concurrency N CLIP`: N players in this one process play the clip at once (fake sinks,
/// `sync=true`). Measures, from just before the first player is made to the moment the last one
/// reached the end: wall time, this process's CPU (`getrusage(RUSAGE_SELF)` deltas), resident
/// memory before and at its peak (VmRSS sampled every 100 ms, and `ru_maxrss`), and how many
/// players reached EOS or failed. `--raw true` runs N bare `playbin`s instead (the floor), their
/// buses polled from this thread every 10 ms.
enum ConcurrencyChild {
    static func run(_ arguments: ChildArguments) throws -> Int32 {
        guard let first = arguments.positional.first, let count = Int(first), count > 0 else { throw BenchError("missing player count") }
        let clip = try arguments.clip(at: 1)
        let raw = try arguments.bool("raw", default: false)
        let timeout = try arguments.double("timeout", default: 300)
        gst_init(nil, nil)
        let baseRSS = ChildSupport.currentRSSKiB()
        let before = ChildSupport.selfUsage()
        let started = MonotonicClock.now()
        var peakRSS = baseRSS
        let sample = { peakRSS = max(peakRSS, ChildSupport.currentRSSKiB()) }

        let outcome = raw ? try runRaw(count: count, clip: clip, timeout: timeout, sample: sample)
                          : runPlayers(count: count, clip: clip, timeout: timeout, sample: sample)
        let finished = MonotonicClock.now()
        let after = ChildSupport.selfUsage()
        sample()
        let endRSS = ChildSupport.currentRSSKiB()
        outcome.teardown()
        peakRSS = max(peakRSS, ChildSupport.peakRSSKiB())
        ChildSupport.emit([
            ("players", "\(count)"),
            ("eos", "\(outcome.ended)"),
            ("errors", "\(outcome.failed)"),
            ("first_error", outcome.firstError ?? ""),
            ("wall", String(format: "%.4f", finished - started)),
            ("user", String(format: "%.4f", after.ru_utime.seconds - before.ru_utime.seconds)),
            ("sys", String(format: "%.4f", after.ru_stime.seconds - before.ru_stime.seconds)),
            ("base_rss_kib", "\(baseRSS)"),
            ("peak_rss_kib", "\(peakRSS)"),
            ("end_rss_kib", "\(endRSS)"),
        ])
        return 0
    }

    struct Outcome {
        var ended = 0
        var failed = 0
        var firstError: String?
        var teardown: () -> Void = {}
    }

    private static func runPlayers(count: Int, clip: String, timeout: Double, sample: () -> Void) -> Outcome {
        let counter = EndCounter()
        let players = (0..<count).map { _ in Player(configuration: ChildSupport.configuration(sync: true), delegate: counter) }
        for player in players { player.load(clip) }
        counter.wait(forFinished: count, seconds: timeout, tick: sample)
        let (ended, failed, firstError) = counter.counts
        return Outcome(ended: ended, failed: failed, firstError: firstError, teardown: { for player in players { player.shutdown() } })
    }

    private static func runRaw(count: Int, clip: String, timeout: Double, sample: () -> Void) throws -> Outcome {
        let uri = try ChildSupport.uri(forPath: clip)
        var pipelines: [(element: UnsafeMutablePointer<GstElement>, bus: UnsafeMutablePointer<GstBus>)] = []
        for _ in 0..<count {
            guard let element = gst_element_factory_make("playbin", nil) else { throw BenchError("no playbin") }
            _ = gst_object_ref_sink(UnsafeMutableRawPointer(element))
            let object = UnsafeMutableRawPointer(element)
            CGStreamer_set_string(object, "uri", uri)
            CGStreamer_set_object(object, "video-sink", UnsafeMutableRawPointer(try ChildSupport.makeSink(ChildSupport.sinkDescription(sync: true))))
            CGStreamer_set_object(object, "audio-sink", UnsafeMutableRawPointer(try ChildSupport.makeSink(ChildSupport.sinkDescription(sync: true))))
            pipelines.append((element, gst_element_get_bus(element)))
        }
        for pipeline in pipelines { gst_element_set_state(pipeline.element, GST_STATE_PLAYING) }
        var outcome = Outcome()
        var done = Array(repeating: false, count: count)
        let wanted = GstMessageType(rawValue: GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue)
        let deadline = MonotonicClock.now() + timeout
        var polls = 0
        while outcome.ended + outcome.failed < count && MonotonicClock.now() < deadline {
            for (index, pipeline) in pipelines.enumerated() where !done[index] {
                guard let message = gst_bus_pop_filtered(pipeline.bus, wanted) else { continue }
                done[index] = true
                if CGStreamer_message_type(message) == GST_MESSAGE_ERROR {
                    outcome.failed += 1
                    if outcome.firstError == nil { outcome.firstError = ChildSupport.errorText(message) }
                } else {
                    outcome.ended += 1
                }
                gst_message_unref(message)
            }
            polls += 1
            if polls % 10 == 0 { sample() }
            usleep(10_000)
        }
        let pipelinesToFree = pipelines
        outcome.teardown = {
            for pipeline in pipelinesToFree {
                gst_element_set_state(pipeline.element, GST_STATE_NULL)
                gst_object_unref(UnsafeMutableRawPointer(pipeline.bus))
                gst_object_unref(UnsafeMutableRawPointer(pipeline.element))
            }
        }
        return outcome
    }
}
