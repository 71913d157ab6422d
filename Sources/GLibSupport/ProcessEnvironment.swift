import CGStreamer

/// Named variables of this process's environment. Any thread.
package enum ProcessEnvironment {
    /// The values of those of `names` that are set (`g_getenv` each; the rest of the environment
    /// is not copied, as `ProcessInfo.environment` would).
    package static func values(of names: [String]) -> [String: String] {
        var result: [String: String] = [:]
        for name in names {
            if let value = g_getenv(name) { result[name] = String(cString: value) }
        }
        return result
    }
}
