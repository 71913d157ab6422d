import Backend
import CGStreamer

/// gstplay's resume state: `--resume` keeps it (through ``PlayerControl``'s resume, with
/// ``ResumeOptions``), `--forget` clears it. Any thread (a little file I/O).
extension ResumeStore {
    /// gstplay's store, in `g_get_user_state_dir()/gstplay` (`$XDG_STATE_HOME`, else
    /// `~/.local/state`). Touches nothing on disk.
    static func gstplay() -> ResumeStore {
        ResumeStore(directory: (String(validatingCString: g_get_user_state_dir()) ?? "/tmp") + "/gstplay")
    }

    /// `--forget`: clears gstplay's resume state file. Returns false (after one error line) when it cannot.
    static func forgetGstplayState(output: Output) -> Bool {
        do {
            try ResumeStore.gstplay().forgetAll()
            return true
        } catch {
            output.err("gstplay: error: \(error.description)")
            return false
        }
    }
}
