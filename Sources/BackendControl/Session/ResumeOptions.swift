import Backend

/// What a ``PlayerControl`` remembers per item with resume on (mpv's watch-later; gstplay's
/// `--resume` and `--watch-later-options`): the store, what is saved with each position, what is
/// given back when an item loads. A plain value; any thread.
public struct ResumeOptions: Sendable {
    /// Where positions and choices are kept (gstplay's: `$XDG_STATE_HOME/gstplay/resume.json`).
    public var store: ResumeStore
    /// What is saved with each position.
    public var saving: Set<ResumeSetting>
    /// What is given back when an item loads (`ResumeSetting/start`: the position itself);
    /// leave out what the embedder sets itself, so its own choices win.
    public var restoring: Set<ResumeSetting>

    /// Resume with `store`, saving and restoring everything unless told otherwise.
    public init(store: ResumeStore, saving: Set<ResumeSetting> = Set(ResumeSetting.allCases),
                restoring: Set<ResumeSetting> = Set(ResumeSetting.allCases)) {
        self.store = store
        self.saving = saving
        self.restoring = restoring
    }
}
