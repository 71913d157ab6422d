import Backend
import Foundation

/// The `--json` protocol (version 1, see docs/PROTOCOL.md): events as JSON objects, request
/// parsing, replies. Pure functions over values; any thread.
enum JSONProtocol {
    /// Bumped on incompatible changes; sent in `hello`.
    static let version = 1

    // MARK: Events

    /// The first line: `{"event":"hello","protocol":1,"version":"…","gstreamer":"…"}`.
    static func hello(version: String = GstplayVersion.current, gstreamer: String = GstplayVersion.gstreamer) -> JSONValue {
        .object(["event": .string("hello"), "protocol": .int(Int64(Self.version)),
                 "version": .string(version), "gstreamer": .string(gstreamer)])
    }

    /// The object for one Backend event. `item` is the playlist position (0-based) and size,
    /// used by the `uri` event.
    static func event(_ event: PlayerEvent, item: (index: Int, count: Int)? = nil) -> JSONValue {
        func make(_ name: String, _ fields: [String: JSONValue] = [:]) -> JSONValue {
            var object = fields
            object["event"] = .string(name)
            return .object(object)
        }
        switch event {
        case .initialized:
            return make("initialized")
        case .message(let text):
            return make("message", ["text": .string(text)])
        case .sinksChosen(let video, let audio, let reason):
            return make("sinks", ["video": .string(video), "audio": .string(audio), "reason": .string(reason)])
        case .uriLoaded(let uri):
            return make("uri", ["uri": .string(uri),
                                "index": item.map { .int(Int64($0.index)) } ?? .null,
                                "count": item.map { .int(Int64($0.count)) } ?? .null])
        case .stateChanged(let from, let to):
            return make("state", ["from": .string(from.rawValue), "to": .string(to.rawValue)])
        case .position(let position, let duration):
            return make("position", ["position": .seconds(position), "duration": .seconds(duration)])
        case .durationChanged(let duration):
            return make("duration", ["duration": .seconds(duration)])
        case .mediaSize(let size):
            return make("media-size", ["width": size.map { .int(Int64($0.width)) } ?? .null,
                                       "height": size.map { .int(Int64($0.height)) } ?? .null])
        case .buffering(let percent):
            return make("buffering", ["percent": .int(Int64(percent))])
        case .seekDone(let position):
            return make("seek-done", ["position": .seconds(position)])
        case .endOfStream(let position):
            return make("eos", ["position": .seconds(position)])
        case .warning(let warning):
            return make("warning", errorFields(warning))
        case .error(let error):
            return make("error", errorFields(error))
        case .volumeChanged(let volume, let muted):
            return make("volume", ["volume": .double(volumePercent(linear: volume)), "linear": .double(rounded(volume, digits: 4)),
                                   "muted": .bool(muted)])
        case .rateChanged(let rate):
            return make("rate", ["rate": .double(rate)])
        case .mediaInfo(let info):
            return make("media-info", ["uri": .string(info.uri), "live": .bool(info.isLive), "seekable": .bool(info.isSeekable),
                                       "duration": .seconds(info.duration), "has_video": .bool(info.hasVideo),
                                       "has_audio": .bool(info.hasAudio), "subtitle_streams": .int(Int64(info.subtitleStreams))])
        case .statistics(let statistics):
            guard case .object(var fields) = Self.statistics(statistics) else { return make("statistics") }
            fields["event"] = .string("statistics")
            return .object(fields)
        }
    }

    /// `kind`, `code`, `element`, `message`, `debug`, `missing_plugins`, `uri`, `http_status`.
    static func errorFields(_ error: PlayerError) -> [String: JSONValue] {
        ["kind": .string(error.kind.rawValue), "code": .int(Int64(error.code)), "element": .string(error.element),
         "message": .string(error.message), "debug": .string(error.debug),
         "missing_plugins": .array(error.missingPlugins.map { .string($0) }), "uri": .string(error.uri),
         "http_status": error.httpStatus.map { .int(Int64($0)) } ?? .null]
    }

    /// Statistics as an object with snake_case keys; times in seconds.
    static func statistics(_ s: PlayerStatistics) -> JSONValue {
        .object([
            "rendered_frames": .int(Int64(clamping: s.renderedFrames)),
            "dropped_frames": .int(Int64(clamping: s.droppedFrames)),
            "bitrate": s.bitrate.map { .int(Int64(clamping: $0)) } ?? .null,
            "average_bitrate": s.averageBitrate.map { .int(Int64(clamping: $0)) } ?? .null,
            "buffering_percent": .int(Int64(s.bufferingPercent)),
            "position": .seconds(s.position),
            "duration": .seconds(s.duration),
            "rate": .double(s.rate),
            "seek_count": .int(Int64(s.seekCount)),
            "last_seek_latency_ms": s.lastSeekLatencyMilliseconds.map { .double(rounded($0, digits: 3)) } ?? .null,
            "buffering_time_ms": .double(rounded(s.bufferingTimeMilliseconds, digits: 3)),
            "video_size": s.videoSize.map { .object(["width": .int(Int64($0.width)), "height": .int(Int64($0.height))]) } ?? .null,
            "video_codec": .string(s.videoCodec),
            "audio_codec": .string(s.audioCodec),
            "clock_lost_recoveries": .int(Int64(s.clockLostRecoveries)),
            "instant_rate_changes": .int(Int64(s.instantRateChanges)),
            "network_retries": .int(Int64(s.networkRetries)),
            "rejected_state_transitions": .int(Int64(s.rejectedStateTransitions)),
        ])
    }

    /// Perceptual volume in percent for a linear volume, one decimal.
    static func volumePercent(linear: Double) -> Double {
        rounded(VolumeScale.cubic(fromLinear: linear) * 100, digits: 1)
    }

    static func rounded(_ value: Double, digits: Int) -> Double {
        let scale = pow(10, Double(digits))
        return (value * scale).rounded() / scale
    }

    // MARK: Requests and replies

    /// Whether a request carried an id: text commands have none (and their replies carry no
    /// `request_id` key); JSON requests always get one back (`null` when missing or unreadable).
    enum RequestID: Equatable, Sendable {
        case absent
        case value(JSONValue)
    }

    /// A parsed request line (a plain value).
    struct Request: Equatable, Sendable {
        var id: RequestID
        var command: Result<ConsoleCommand, ConsoleError>
    }

    /// Parses one input line in `--json` mode. A line starting with `{`, `[` or `"` is JSON:
    /// `{"command": ["seek", "+10"], "request_id": 7}` or `{"command": "pause"}`; anything
    /// else is a text command.
    static func parseRequest(_ line: String) -> Request {
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let first = trimmed.first, first == "{" || first == "[" || first == "\"" else {
            return Request(id: .absent, command: ConsoleCommand.parse(trimmed))
        }
        func failure(_ message: String, id: JSONValue = .null) -> Request {
            Request(id: .value(id), command: .failure(ConsoleError(message)))
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(trimmed)
        } catch {
            return failure("invalid JSON: \(error.message)")
        }
        guard case .object(let members) = value else {
            return failure("a request must be a JSON object such as {\"command\": [\"pause\"], \"request_id\": 1}")
        }
        var id = JSONValue.null
        if let given = members["request_id"] {
            switch given {
            case .int, .double, .string, .null: id = given
            default: return failure("\"request_id\" must be a number or a string")
            }
        }
        guard let command = members["command"] else { return failure("missing \"command\"", id: id) }
        switch command {
        case .string(let text):
            return Request(id: .value(id), command: ConsoleCommand.parse(text))
        case .array(let items):
            var words: [String] = []
            for item in items {
                switch item {
                case .string(let text): words.append(text)
                case .int, .double: words.append(item.serialized)
                case .bool(let flag): words.append(flag ? "on" : "off")
                default: return failure("\"command\" items must be strings or numbers", id: id)
                }
            }
            return Request(id: .value(id), command: ConsoleCommand.parse(words: words))
        default:
            return failure("\"command\" must be a string or an array of strings", id: id)
        }
    }

    /// `{"request_id": …, "error": "success" | reason, "data": …}` (no `request_id` key for text commands).
    static func reply(id: RequestID, error: String?, data: JSONValue = .null) -> JSONValue {
        var object: [String: JSONValue] = ["error": .string(error ?? "success"), "data": data]
        if case .value(let value) = id { object["request_id"] = value }
        return .object(object)
    }
}
