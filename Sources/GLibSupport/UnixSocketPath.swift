import CGStreamer
import Glibc

/// Why a Unix socket could not be made to listen at a path. A plain value; any thread.
package enum UnixSocketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Something accepts connections on the path already (a running player).
    case inUse(path: String)
    /// The path exists and is not a socket (never replaced).
    case notASocket(path: String)
    /// Any other failure (a missing permission, a path too long, GIO's message).
    case failed(path: String, reason: String)

    /// One line for the user: the path and what is wrong with it.
    package var description: String {
        switch self {
        case .inUse(let path): "\(path): in use by a running player (another process accepts connections on it)"
        case .notASocket(let path): "\(path): exists and is not a socket (not replaced)"
        case .failed(let path, let reason): "\(path): \(reason)"
        }
    }
}

/// The socket file of a listening Unix socket: made with mode 0600 (its directory with 0700 when
/// it has to be made), a stale file left by a killed process replaced, a live one refused, and
/// removed at the end only while it is still ours (same device and inode).
///
/// **Thread:** any (plain system and GIO calls, no context needed); ``remove(_:ifStill:)`` is
/// also what a signal's last words call.
package enum UnixSocketPath {
    /// Which file a path named when we made it (`stat`'s device and inode).
    package struct Identity: Sendable, Equatable {
        let device: UInt64
        let inode: UInt64
    }

    /// The longest path a `sockaddr_un` holds (107 bytes and the terminating NUL).
    package static let maximumLength = 107

    /// Prepares `path` and returns a non-blocking listening socket bound to it, with its identity:
    /// a missing parent directory is made with mode 0700 (`g_mkdir_with_parents`); a socket file
    /// nobody accepts on (connection refused) is removed; one that accepts is ``UnixSocketError/inUse(path:)``;
    /// anything else at the path is refused. The socket is bound under `umask(0177)` (mode 0600
    /// from the start, no window with wider permissions), then listens (`g_socket_listen`).
    static func bindListening(_ path: String) throws(UnixSocketError) -> (UnsafeMutablePointer<GSocket>, Identity) {
        guard !path.isEmpty, path.utf8.count <= maximumLength, !path.utf8.contains(0) else {
            throw .failed(path: path, reason: "a socket path must be 1 to \(maximumLength) bytes long without NUL (this one has \(path.utf8.count))")
        }
        try makeParentDirectory(of: path)
        try replaceStale(path)
        var error: UnsafeMutablePointer<GError>?
        guard let socket = g_socket_new(G_SOCKET_FAMILY_UNIX, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_DEFAULT, &error) else {
            throw .failed(path: path, reason: take(error))
        }
        let address = g_unix_socket_address_new(path)
        let previous = umask(0o177)
        let bound = g_socket_bind(socket, address, 0, &error)
        umask(previous)
        g_object_unref(address)
        guard bound != 0 else {
            let inUse = g_error_matches(error, g_io_error_quark(), Int32(G_IO_ERROR_ADDRESS_IN_USE.rawValue)) != 0
            let reason = take(error)
            g_object_unref(socket)
            throw inUse ? .inUse(path: path) : .failed(path: path, reason: reason)
        }
        chmod(path, 0o600)
        g_socket_set_blocking(socket, 0)
        g_socket_set_listen_backlog(socket, 16)
        guard g_socket_listen(socket, &error) != 0, let identity = identity(of: path) else {
            let reason = error == nil ? "the socket file vanished" : take(error)
            unlink(path)
            g_object_unref(socket)
            throw .failed(path: path, reason: reason)
        }
        return (socket, identity)
    }

    /// Removes `path` if it still is the file `identity` names (not one another process made
    /// there since). Idempotent.
    package static func remove(_ path: String, ifStill identity: Identity) {
        guard Self.identity(of: path) == identity else { return }
        unlink(path)
    }

    /// `path`'s device and inode (`lstat`), nil when it does not exist.
    static func identity(of path: String) -> Identity? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    private static func makeParentDirectory(of path: String) throws(UnixSocketError) {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
        let directory = String(path[..<slash])
        var info = stat()
        if stat(directory, &info) == 0 { return }
        guard g_mkdir_with_parents(directory, 0o700) == 0 else {
            throw .failed(path: path, reason: "cannot make the directory \(directory): \(String(cString: strerror(errno)))")
        }
    }

    /// A socket file at `path` that refuses connections is stale (its player died) and is
    /// removed; one that accepts is in use.
    private static func replaceStale(_ path: String) throws(UnixSocketError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path: path) }
        var error: UnsafeMutablePointer<GError>?
        guard let probe = g_socket_new(G_SOCKET_FAMILY_UNIX, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_DEFAULT, &error) else {
            throw .failed(path: path, reason: take(error))
        }
        defer { g_object_unref(probe) }
        let address = g_unix_socket_address_new(path)
        let connected = g_socket_connect(probe, address, nil, &error)
        g_object_unref(address)
        if connected != 0 {
            g_socket_close(probe, nil)
            throw .inUse(path: path)
        }
        let refused = g_error_matches(error, g_io_error_quark(), Int32(G_IO_ERROR_CONNECTION_REFUSED.rawValue)) != 0
        let reason = take(error)
        guard refused else { throw .failed(path: path, reason: reason) }
        unlink(path)
    }

    /// The message of `error` (freed here), or a generic one.
    static func take(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) } ?? "unknown error"
    }
}
