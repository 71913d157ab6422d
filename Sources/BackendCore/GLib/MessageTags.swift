import CGStreamer

/// Calls `body` with the tag list a `GST_MESSAGE_TAG` message carries (`gst_message_parse_tag`)
/// and releases the list afterwards (`gst_tag_list_unref`); does nothing when there is none. The
/// message stays the caller's. **Thread:** the caller's (a bus handler: the loop thread). For the
/// core's bus handler and the features' message observers and interceptors, hence package-internal.
package func withTags(of message: UnsafeMutablePointer<GstMessage>, _ body: (UnsafeMutablePointer<GstTagList>) -> Void) {
    var tags: UnsafeMutablePointer<GstTagList>?
    gst_message_parse_tag(message, &tags)
    guard let tags else { return }
    defer { gst_tag_list_unref(tags) }
    body(tags)
}
