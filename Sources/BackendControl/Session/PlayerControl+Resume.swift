import Backend
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Resume (``Configuration/resume``; gstplay's `--resume`): where each item was left, and the
/// choices it was played with, kept in a ``ResumeStore``. Items a command queues start where they
/// were left (``resumed(_:)``); a loading item gets its stored choices back; an item that played
/// to its end is forgotten; the host saves the current item on the way out
/// (``saveResumeAtExit()``). Problems with the state file are one `warning: …` line each (to
/// ``Configuration/notes``); playback goes on without resume.
///
/// **Thread:** the ``PlayerControl`` actor (each call does a little file I/O).
extension PlayerControl {
    /// `item` with its stored resume position as its start (when ``ResumeOptions/restoring``
    /// has `ResumeSetting/start`); the note `resuming <item> at …` follows when it loads.
    /// Unchanged without resume.
    public func resumed(_ item: QueueItem) -> QueueItem {
        guard let resume = configuration.resume, resume.restoring.contains(.start) else { return item }
        let store = resume.store
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
            if let notice = try store.repair() { configuration.notes("warning: \(notice)") }
        } catch {
            warnAboutResumeState(error)
        }
    }

    /// One warning line for a problem with the resume state, unless the same line was said
    /// already (a file that cannot be read fails the read at load and the save at exit alike).
    func warnAboutResumeState(_ problem: ResumeStore.Problem) {
        guard resumeNotes.firstTime(problem.description) else { return }
        configuration.notes("warning: \(problem.description)")
    }

    /// The session's resume step for a reported event: a load's note and stored choices, the
    /// end of an item (forgotten).
    func advanceResume(_ record: PlayerEventRecord) {
        guard configuration.resume != nil else { return }
        if case .uriLoaded(let uri) = record.event, let position = resumeStart(of: record) {
            configuration.notes("resuming \(names.name(of: uri)) at \(position.formatted(fractionDigits: 1))")
        }
        restoreResumeSettings(record)
        if case .itemEnded(_, let id, _)? = record.event.payload(as: QueueEvent.self) {
            let queue = record.snapshot.features[QueueSnapshot.self]
            if let finished = queue?.items.first(where: { $0.id == id })?.uri ?? record.snapshot.uri {
                forgetResumePosition(uri: finished)
            }
        }
    }

    /// The resume position a `uriLoaded` record's item starts at: the ``QueueItem/start`` of the
    /// queue's current item when the event was raised (only ``resumed(_:)`` gives items a start;
    /// the Backend clears it once the item loaded, so a repeat starts at 0).
    private func resumeStart(of record: PlayerEventRecord) -> MediaTime? {
        guard case .uriLoaded(let uri) = record.event,
              let queue = record.snapshot.features[QueueSnapshot.self], let index = queue.currentIndex,
              queue.items[index].uri == uri else { return nil }
        return queue.items[index].start
    }

    /// Stores where the item at `uri` is (at the end of the queue, `ended`: the end position; an
    /// item with less than 5 % left is forgotten instead). Nothing without resume.
    public func saveResumePosition(uri: String?, ended: MediaTime? = nil) async {
        guard let resume = configuration.resume, let uri else { return }
        let store = resume.store, snapshot = player.snapshot
        let fresh = ended == nil ? await player.settledPosition() : nil
        guard let position = ended ?? fresh ?? snapshot.position else { return }
        do {
            try store.save(uri: uri, position: position, duration: snapshot.duration,
                           settings: ResumeSettings(capturing: player, keeping: resume.saving))
        } catch {
            warnAboutResumeState(error)
        }
    }

    /// When an item's load began (`record` is its `uriLoaded`): gives back the choices stored with
    /// it (``ResumeSettings``, those ``ResumeOptions/restoring`` names), once per queue item (a
    /// reload for a subtitle file, a repeat do not restore again): volume, mute, speed and
    /// subtitle delay now; the tracks, the A-B loop and the subtitle file when its streams are
    /// known (``restoreTracksWhenKnown(_:)``).
    private func restoreResumeSettings(_ record: PlayerEventRecord) {
        guard let resume = configuration.resume, case .uriLoaded(let uri) = record.event,
              let queue = record.snapshot.features[QueueSnapshot.self], let index = queue.currentIndex,
              queue.items[index].uri == uri, let id = queue.items[index].id, resumeNotes.firstRestore(of: id) else { return }
        let stored: ResumeStore.Entry?
        let store = resume.store
        do { stored = try store.entry(for: uri) } catch { return warnAboutResumeState(error) }
        guard let restored = stored?.settings?.keeping(resume.restoring), !restored.isEmpty else { return }
        for problem in restored.applyAtLoad(to: player) { configuration.notes("warning: resume: \(problem)") }
        restoreTracksWhenKnown(restored)
    }

    /// On the way out (quit, a key, a signal, the end): stores where the current item is, once,
    /// through ``resumeAtExit`` (shared with the host's signal path, so whichever comes first
    /// stores it and the other does not store it again). Nothing without resume.
    public func saveResumeAtExit() async {
        guard let resumeAtExit, let uri = player.snapshot.uri else { return }
        let snapshot = player.snapshot
        guard let position = await player.settledPosition() ?? snapshot.position else { return }
        let saving = configuration.resume?.saving ?? []
        if let problem = resumeAtExit.save(uri: uri, position: position, duration: snapshot.duration,
                                           settings: ResumeSettings(capturing: player, keeping: saving)) {
            warnAboutResumeState(problem)
        }
    }

    /// Forgets the item at `uri`, which played to its end (the queue moved on).
    private func forgetResumePosition(uri: String) {
        guard let store = configuration.resume?.store else { return }
        do {
            try store.forget(uri: uri)
        } catch {
            warnAboutResumeState(error)
        }
    }
}

/// The resume save made on the way out, at most once: by the control (a fresh position from the
/// pipeline) or, when the clean shutdown is stuck after a signal, by the host's signal path (the
/// player's last reported position). Each save is atomic (`ResumeStore`: temp file, fsync,
/// rename); the lock makes the guard wait for a save under way instead of leaving in its middle.
///
/// **Thread:** any; each save does blocking file I/O.
public final class ResumeExitSave: Sendable {
    private let store: ResumeStore
    /// What is saved with the position (``ResumeOptions/saving``).
    private let saving: Set<ResumeSetting>
    /// True once the position was stored (or found to be unstorable).
    private let done = Mutex<Bool>(false)

    /// The exit save into `store`, keeping `saving` with the position.
    public init(store: ResumeStore, saving: Set<ResumeSetting> = Set(ResumeSetting.allCases)) {
        self.store = store
        self.saving = saving
    }

    /// Stores `position` and `settings` for `uri` unless that was already done; the problem, if any.
    public func save(uri: String, position: MediaTime, duration: MediaTime?, settings: ResumeSettings = ResumeSettings()) -> ResumeStore.Problem? {
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
    public func saveFromSnapshot(of player: Player, patience: Duration = .milliseconds(200)) {
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

/// What the control already said about the resume state this run: the repair is tried at the
/// first use only, each warning line is said once, each queue item's choices restored once.
///
/// **Thread:** a value of the ``PlayerControl`` actor (only its isolated methods use it).
struct ResumeNotes {
    private var used = false
    private var said: Set<String> = []
    private var restored: Set<Int> = []

    /// True the first time only.
    mutating func firstUse() -> Bool {
        defer { used = true }
        return !used
    }

    /// True the first time the queue item `id`'s choices are restored.
    mutating func firstRestore(of id: Int) -> Bool { restored.insert(id).inserted }

    /// True the first time `line` is offered.
    mutating func firstTime(_ line: String) -> Bool { said.insert(line).inserted }
}
