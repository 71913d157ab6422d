import Backend
import Foundation

/// `--resume` and `--forget` (issue #12): where each item was left, kept in the Backend's
/// ``ResumeStore`` (`$XDG_STATE_HOME/gstplay/resume.json`). Problems with the state file are one
/// warning line on stderr; playback goes on without resume.
///
/// **Thread:** the ``PlaybackController`` actor (each call does a little file I/O).
extension PlaybackController {
    /// Where the item at `location` should start: `--start` when given, else its stored resume
    /// position with `--resume` (and a note saying so), else the beginning.
    func startPosition(for location: String) -> StartPosition? {
        if let start = settings.startPosition { return start }
        guard let store = settings.resumeStore, let uri = try? MediaLocation.uri(for: location) else { return nil }
        do {
            guard let position = try store.position(for: uri) else { return nil }
            output.err("gstplay: resuming \(location) at \(position.formatted(fractionDigits: 1))")
            return .time(position)
        } catch {
            output.err("gstplay: warning: \(error.description)")
            return nil
        }
    }

    /// With `--resume`: stores where the current item is (on quit, on a signal, at the end of an
    /// item; an item with less than 5 % left is forgotten instead).
    func saveResumePosition(ended: MediaTime? = nil) {
        guard let store = settings.resumeStore, let location = eventsItem?.location,
              let uri = try? MediaLocation.uri(for: location) else { return }
        let snapshot = player.snapshot
        guard let position = ended ?? player.currentPosition() ?? snapshot.position else { return }
        do {
            try store.save(uri: uri, position: position, duration: snapshot.duration)
        } catch {
            output.err("gstplay: warning: \(error.description)")
        }
    }

    /// `--forget`: clears the resume state file. Returns false (after one error line) when it cannot.
    static func forgetResumeState(output: Output) -> Bool {
        do {
            try ResumeStore().forgetAll()
            return true
        } catch {
            output.err("gstplay: error: \(error.description)")
            return false
        }
    }
}
