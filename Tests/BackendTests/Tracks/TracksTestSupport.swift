import Backend
import Foundation
import TestSupport

extension TestMedia {
    /// 4 s Matroska: VP8 + two Vorbis tracks (eng stereo 440 Hz, deu mono 880 Hz) + two subtitle tracks.
    static let tracks = path("tracks.mkv")
    /// The external .srt for it (cues at 1.0, 2.5, 3.6 s).
    static let externalSubtitles = path("tracks-external.srt")
}

extension PlayerEvent {
    var cue: SubtitleCue? { if case .subtitleCue(let cue)? = tracksEvent { return cue } else { return nil } }
    var tracksChanged: ([MediaTrack], TrackSelection)? {
        if case .tracksChanged(let tracks, let selection)? = tracksEvent { return (tracks, selection) } else { return nil }
    }
    var mediaInfo: MediaInfo? { if case .mediaInfo(let info) = self { return info } else { return nil } }
}

/// Zero crossings per second of 16-bit mono little-endian PCM: 2 × the frequency of a sine.
func crossingsPerSecond(_ samples: ArraySlice<Int16>, rate: Int) -> Double {
    guard samples.count > 1 else { return 0 }
    var crossings = 0
    var previous = samples.first!
    for sample in samples.dropFirst() {
        if (previous < 0) != (sample < 0) { crossings += 1 }
        previous = sample
    }
    return Double(crossings) * Double(rate) / Double(samples.count)
}

/// Reads a raw S16LE file.
func readPCM(_ path: String) -> [Int16] {
    guard let data = FileManager.default.contents(atPath: path) else { return [] }
    return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
}
