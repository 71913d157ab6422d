/// The web remote's page: `remote.html` next to this file (HTML, its CSS and its JavaScript in
/// one static file), embedded in the binary at build time (SwiftPM's `embedInCode`, no resource
/// bundle to install) and served at `/`. Constants; any thread.
enum RemotePage {
    /// The whole page.
    static let html = String(decoding: PackageResources.remote_html, as: UTF8.self)
}
