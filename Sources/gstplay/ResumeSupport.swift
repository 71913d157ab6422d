import Backend
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `--resume` and `--forget` (issue #12): where each item was left, kept in the Backend's
/// ``ResumeStore`` (`$XDG_STATE_HOME/gstplay/resume.json`). Problems with the state file are one
/// warning line on stderr; playback goes on without resume.
///
/// **Thread:** the ``PlaybackController`` actor (each call does a little file I/O).
extension PlaybackController {
    /// `item` with its stored resume position as its start (`--resume` without `--start`); the
    /// note `gstplay: resuming <item> at …` is printed when it loads.
    func withResumePosition(_ item: QueueItem) -> QueueItem {
        guard settings.start == nil, let store = settings.resumeStore else { return item }
        do {
            guard let position = try store.position(for: item.uri) else { return item }
            resumeNotes[item.uri] = position
            var resumed = item
            resumed.start = position
            return resumed
        } catch {
            output.err("gstplay: warning: \(error.description)")
            return item
        }
    }

    /// With `--resume`: stores where the current item is (on quit, on a signal, at the end of the
    /// queue; an item with less than 5 % left is forgotten instead).
    func saveResumePosition(ended: MediaTime? = nil) {
        guard let store = settings.resumeStore, let uri = eventsItem?.uri else { return }
        let snapshot = player.snapshot
        guard let position = ended ?? player.currentPosition() ?? snapshot.position else { return }
        do {
            try store.save(uri: uri, position: position, duration: snapshot.duration)
        } catch {
            output.err("gstplay: warning: \(error.description)")
        }
    }

    /// With `--resume`: forgets the item at `uri`, which played to its end (the queue moved on).
    func forgetResumePosition(uri: String) {
        guard let store = settings.resumeStore else { return }
        do {
            try store.forget(uri: uri)
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
