import Backend
import CGStreamer
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import Synchronization

/// `--resume` and `--forget`: where each item was left, kept in the Backend's
/// ``ResumeStore`` (``ResumeStore/gstplay``: `$XDG_STATE_HOME/gstplay/resume.json`). Problems with the state file are one
/// warning line on stderr; playback goes on without resume.
///
/// **Thread:** the ``PlaybackController`` actor (each call does a little file I/O).
extension PlaybackController {
    /// `item` with its stored resume position as its start (`--resume` without `--start`); the
    /// note `gstplay: resuming <item> at …` is printed when it loads (``resumeStart(of:)``).
    func withResumePosition(_ item: QueueItem) -> QueueItem {
        guard settings.start == nil, settings.resumeRestores.contains(.start), let store = settings.resumeStore else { return item }
        repairResumeStateOnce(store)
        do {
            guard let position = try store.position(for: item.uri) else { return item }
            var resumed = item
            resumed.start = position
            return resumed
        } catch {
            warnAboutResumeState(error)
            return item
        }
    }

    /// The first time the resume state is read: repairs a damaged file (``ResumeStore/repair()``)
    /// and says what was dropped, once.
    private func repairResumeStateOnce(_ store: ResumeStore) {
        guard resumeNotes.firstUse() else { return }
        do {
            if let notice = try store.repair() { output.err("gstplay: warning: \(notice)") }
        } catch {
            warnAboutResumeState(error)
        }
    }

    /// One warning line for a problem with the resume state, unless the same line was said
    /// already (a file that cannot be read fails the read at load and the save at exit alike).
    func warnAboutResumeState(_ problem: ResumeStore.Problem) {
        guard resumeNotes.firstTime(problem.description) else { return }
        output.err("gstplay: warning: \(problem.description)")
    }

    /// The resume position a `uriLoaded` record's item starts at: the ``QueueItem/start`` of the
    /// queue's current item when the event was raised (only ``withResumePosition(_:)`` gives
    /// items a start; the Backend clears it once the item loaded, so a repeat starts at 0).
    func resumeStart(of record: PlayerEventRecord) -> MediaTime? {
        guard settings.resumeStore != nil, case .uriLoaded(let uri) = record.event,
              let queue = record.snapshot.features[QueueSnapshot.self], let index = queue.currentIndex,
              queue.items[index].uri == uri else { return nil }
        return queue.items[index].start
    }

    /// With `--resume`: stores where the item at `uri` is (at the end of the queue, the end
    /// position; an item with less than 5 % left is forgotten instead).
    func saveResumePosition(uri: String?, ended: MediaTime? = nil) async {
        guard let store = settings.resumeStore, let uri else { return }
        let snapshot = player.snapshot
        let fresh = ended == nil ? await player.currentPosition() : nil
        guard let position = ended ?? fresh ?? snapshot.position else { return }
        do {
            try store.save(uri: uri, position: position, duration: snapshot.duration,
                           settings: ResumeSettings(capturing: player, keeping: settings.resumeSaves))
        } catch {
            warnAboutResumeState(error)
        }
    }

    /// With `--resume`, when an item's load began (`record` is its `uriLoaded`): gives back the
    /// choices stored with it (``ResumeSettings``, those `--watch-later-options` restores),
    /// once per queue item (a reload for a subtitle file, a repeat do not restore again):
    /// volume, mute, speed and subtitle delay now; the tracks, the A-B loop and the subtitle
    /// file when its streams are known (``PlayerControl/restoreTracksWhenKnown(_:)``).
    func restoreResumeSettings(_ record: PlayerEventRecord) async {
        guard exitCode == nil, let store = settings.resumeStore, case .uriLoaded(let uri) = record.event,
              let queue = record.snapshot.features[QueueSnapshot.self], let index = queue.currentIndex,
              queue.items[index].uri == uri, let id = queue.items[index].id, resumeNotes.firstRestore(of: id) else { return }
        let stored: ResumeStore.Entry?
        do { stored = try store.entry(for: uri) } catch { return warnAboutResumeState(error) }
        guard let restored = stored?.settings?.keeping(settings.resumeRestores), !restored.isEmpty else { return }
        for problem in restored.applyAtLoad(to: player) { output.err("gstplay: warning: resume: \(problem)") }
        await control.restoreTracksWhenKnown(restored)
    }

    /// With `--resume`, on the way out (quit, a key, a signal, the end): stores where the current
    /// item is, once, through ``ResumeExitSave`` (shared with the signal path's ``ExitGuard``,
    /// so whichever comes first stores it and the other does not store it again).
    func saveResumeAtExit() async {
        guard let resumeAtExit, let uri = player.snapshot.uri else { return }
        let snapshot = player.snapshot
        guard let position = await player.currentPosition() ?? snapshot.position else { return }
        if let problem = resumeAtExit.save(uri: uri, position: position, duration: snapshot.duration,
                                           settings: ResumeSettings(capturing: player, keeping: settings.resumeSaves)) {
            warnAboutResumeState(problem)
        }
    }

    /// With `--resume`: forgets the item at `uri`, which played to its end (the queue moved on).
    func forgetResumePosition(uri: String) {
        guard let store = settings.resumeStore else { return }
        do {
            try store.forget(uri: uri)
        } catch {
            warnAboutResumeState(error)
        }
    }

    /// `--forget`: clears the resume state file. Returns false (after one error line) when it cannot.
    static func forgetResumeState(output: Output) -> Bool {
        do {
            try ResumeStore.gstplay().forgetAll()
            return true
        } catch {
            output.err("gstplay: error: \(error.description)")
            return false
        }
    }
}

extension ResumeStore {
    /// gstplay's store, in `g_get_user_state_dir()/gstplay` (`$XDG_STATE_HOME`, else
    /// `~/.local/state`). Touches nothing on disk.
    static func gstplay() -> ResumeStore {
        ResumeStore(directory: (String(validatingCString: g_get_user_state_dir()) ?? "/tmp") + "/gstplay")
    }
}

/// The resume save made on the way out, at most once: by the CLI actor (a fresh position from the
/// pipeline) or, when the clean shutdown is stuck after a signal, by the ``ExitGuard`` (the
/// player's last reported position). Each save is atomic (``ResumeStore``: temp file, fsync,
/// rename); the lock makes the guard wait for a save under way instead of leaving in its middle.
///
/// **Thread:** any; each save does blocking file I/O.
final class ResumeExitSave: Sendable {
    private let store: ResumeStore
    /// What is saved with the position (`--watch-later-options`).
    private let saving: Set<ResumeSetting>
    /// True once the position was stored (or found to be unstorable).
    private let done = Mutex<Bool>(false)

    init(store: ResumeStore, saving: Set<ResumeSetting> = Set(ResumeSetting.allCases)) {
        self.store = store
        self.saving = saving
    }

    /// Stores `position` and `settings` for `uri` unless that was already done; the problem, if any.
    func save(uri: String, position: MediaTime, duration: MediaTime?, settings: ResumeSettings = ResumeSettings()) -> ResumeStore.Problem? {
        done.withLock { done -> ResumeStore.Problem? in
            guard !done else { return nil }
            done = true
            do throws(ResumeStore.Problem) {
                try store.save(uri: uri, position: position, duration: duration, settings: settings)
                return nil
            } catch {
                return error
            }
        }
    }

    /// The signal path's save: from `player`'s snapshot (never waits for its loop thread); skipped
    /// when a save is under way for longer than `patience` (the old file then stays whole).
    func saveFromSnapshot(of player: Player, patience: Duration = .milliseconds(200)) {
        let snapshot = player.snapshot
        guard let uri = snapshot.uri, let position = snapshot.position else { return }
        let giveUp = ContinuousClock.now + patience
        while ContinuousClock.now < giveUp {
            let tried = done.withLockIfAvailable { done -> Bool in
                guard !done else { return true }
                done = true
                try? store.save(uri: uri, position: position, duration: snapshot.duration,
                                settings: ResumeSettings(capturing: player, keeping: saving))
                return true
            }
            if tried != nil { return }
            usleep(10_000)
        }
    }
}

/// What the CLI already said about the resume state this run: the repair is tried at the first
/// use only, and each warning line is said once.
///
/// **Thread:** any (a `Mutex`).
final class ResumeNotes: Sendable {
    private struct State {
        var used = false
        var said: Set<String> = []
        var restored: Set<Int> = []
    }

    private let state = Mutex(State())

    /// True the first time only.
    func firstUse() -> Bool {
        state.withLock { state in
            defer { state.used = true }
            return !state.used
        }
    }

    /// True the first time the queue item `id`'s choices are restored.
    func firstRestore(of id: Int) -> Bool {
        state.withLock { $0.restored.insert(id).inserted }
    }

    /// True the first time `line` is offered.
    func firstTime(_ line: String) -> Bool {
        state.withLock { $0.said.insert(line).inserted }
    }
}
