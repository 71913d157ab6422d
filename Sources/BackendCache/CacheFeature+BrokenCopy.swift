import BackendCore
import CGStreamer

/// A cached copy that does not play (loop thread): a file that was complete when stored can be
/// damaged later (replaced, overwritten with other bytes of the same size). An error of such a
/// copy is not the media's: the copy is removed and the URI is fetched from the network, once
/// per URI and player, with one warning. A second failure, from the network, is reported as usual.
extension CacheFeature {
    /// An ERROR while a cached copy plays that another copy could cure (a stream error other than
    /// a missing decoder, or the file failing to read): consumed, and the URI loaded again from
    /// the network (``refetch(_:because:)``). Every ERROR is consumed until that load begins (one
    /// failure posts several). False for any other message.
    func consumeErrorOfBrokenCopy(_ message: UnsafeMutablePointer<GstMessage>) -> Bool {
        guard CGStreamer_message_type(message) == GST_MESSAGE_ERROR else { return false }
        if refetchPending { return true }
        guard let uri = playingCopyOf, !refetched.contains(uri), let reason = Self.copyFailure(message) else { return false }
        refetch(uri, because: reason)
        return true
    }

    /// Removes the copy of `uri`, says so, and loads `uri` again (from the network: it is no longer
    /// cached) at the position reached, keeping the play/pause intent.
    private func refetch(_ uri: String, because reason: String) {
        guard let context else { return }
        playingCopyOf = nil
        refetched.insert(uri)
        refetchPending = true
        var note = "media cache: the cached copy could not be played (\(reason)): removed, fetching \(uri) again"
        do { try cache.remove(uri) } catch { note += " (\(error.description))" }
        context.trace("cache copy broken: \(reason)")
        context.publish(.warning(PlayerError(kind: .other, message: note, uri: uri)))
        let position = context.snapshot.position.flatMap { $0 > .zero ? StartPosition.time($0) : nil }
        let start = position ?? context.media.loadingStart
        _ = context.runOnLoop { [weak self, context] in
            guard let self, self.refetchPending else { return }
            let intent = context.transport.intent
            context.transport.reloadFromScratch(uri, start: start)
            context.transport.intent = intent
        }
    }

    /// Why the ERROR `message` says the file is not playable media, nil when another copy would
    /// not help (a missing decoder, a sink's or the system's failure).
    private static func copyFailure(_ message: UnsafeMutablePointer<GstMessage>) -> String? {
        var gerror: UnsafeMutablePointer<GError>?
        gst_message_parse_error(message, &gerror, nil)
        guard let gerror else { return nil }
        defer { g_error_free(gerror) }
        let domain = gerror.pointee.domain, code = gerror.pointee.code
        let text = gerror.pointee.message.map { String(cString: $0) } ?? "unknown error"
        if domain == gst_stream_error_quark() {
            let notCurable: [GstStreamError] = [GST_STREAM_ERROR_CODEC_NOT_FOUND, GST_STREAM_ERROR_DECRYPT, GST_STREAM_ERROR_DECRYPT_NOKEY]
            return notCurable.contains(where: { Int32($0.rawValue) == code }) ? nil : text
        }
        if domain == gst_resource_error_quark() {
            let curable: [GstResourceError] = [GST_RESOURCE_ERROR_NOT_FOUND, GST_RESOURCE_ERROR_OPEN_READ, GST_RESOURCE_ERROR_READ,
                                               GST_RESOURCE_ERROR_SEEK]
            return curable.contains(where: { Int32($0.rawValue) == code }) ? text : nil
        }
        return nil
    }
}
