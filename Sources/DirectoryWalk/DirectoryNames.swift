import CGStreamer

/// The one directory walk of gstplay (the media cache's repair, the resume store's clean-up and
/// ProcessProbe's `/proc` listings all use it), with GLib's `GDir`.
///
/// `g_dir_read_name` hands back each entry's NUL-terminated name, and the name is read only up to
/// its NUL. A `readdir(3)` loop in Swift loads the whole `struct dirent`, copying the
/// fixed 256-byte `d_name` field although glibc allocates each entry only as long as its name:
/// AddressSanitizer reports that as a heap-buffer-overflow.
public enum DirectoryNames {
    /// The names in the directory at `path`, in directory order, without `.` and `..` (GLib skips
    /// them); nil when it cannot be opened. Any thread; no state. `g_dir_open`, `g_dir_read_name`,
    /// `g_dir_close`; a name that is not UTF-8 is decoded with replacement characters.
    public static func list(_ path: String) -> [String]? {
        guard let directory = g_dir_open(path, 0, nil) else { return nil }
        defer { g_dir_close(directory) }
        var names: [String] = []
        while let name = g_dir_read_name(directory) { names.append(String(cString: name)) }
        return names
    }
}
