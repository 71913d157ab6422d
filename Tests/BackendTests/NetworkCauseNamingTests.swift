@testable import BackendCore
import Backend
import CGStreamer
import XCTest

/// The pure classification behind ``PlayerError/cause``: souphttpsrc's GError domain/code with
/// the last HTTP status, and the GIO errors of ``ConnectionProbe``. No pipeline; fast.
final class NetworkCauseNamingTests: XCTestCase {
    private let failed = Int(GST_STREAM_ERROR_FAILED.rawValue)
    private let seek = Int(GST_RESOURCE_ERROR_SEEK.rawValue)
    private let openRead = Int(GST_RESOURCE_ERROR_OPEN_READ.rawValue)

    func testSoupFailuresAreNamedFromDomainCodeAndStatus() {
        XCTAssertEqual(PlayerError.named("Internal data stream error.", domain: gst_stream_error_quark(), code: failed, httpStatus: nil).1, .timedOut)
        XCTAssertEqual(PlayerError.named("Internal data stream error.", domain: gst_stream_error_quark(), code: failed, httpStatus: 0).1, .timedOut)
        XCTAssertEqual(PlayerError.named("Internal data stream error.", domain: gst_stream_error_quark(), code: failed, httpStatus: 200).1, .timedOut)
        XCTAssertEqual(PlayerError.named("Found", domain: gst_resource_error_quark(), code: openRead, httpStatus: 302).0, "Found",
                       "a redirect is named by the engine when it stops following (Engine+Redirect)")
        XCTAssertEqual(PlayerError.named("Server does not support seeking.", domain: gst_resource_error_quark(), code: seek, httpStatus: 200).1, .cannotResume)
        let notFound = PlayerError.named("Not Found", domain: gst_resource_error_quark(), code: Int(GST_RESOURCE_ERROR_NOT_FOUND.rawValue), httpStatus: 404)
        XCTAssertEqual(notFound.0, "Not Found", "an HTTP status keeps the server's reason")
        XCTAssertNil(notFound.1)
    }

    func testProbeVerdictsFromGIOErrors() {
        func verdict(_ domain: GQuark, _ code: Int32, _ text: String = "m") -> ConnectionProbe.Verdict {
            let error = g_error_new_literal(domain, code, text)
            defer { g_error_free(error) }
            return ConnectionProbe.verdict(for: error)
        }
        XCTAssertEqual(ConnectionProbe.verdict(for: nil), .connected)
        XCTAssertEqual(verdict(g_io_error_quark(), Int32(G_IO_ERROR_CONNECTION_REFUSED.rawValue)), .refused)
        XCTAssertEqual(verdict(g_resolver_error_quark(), Int32(G_RESOLVER_ERROR_NOT_FOUND.rawValue)), .hostNotFound)
        XCTAssertEqual(verdict(g_tls_error_quark(), Int32(G_TLS_ERROR_NOT_TLS.rawValue), "not TLS"), .tlsFailed("not TLS"))
        XCTAssertEqual(verdict(g_io_error_quark(), Int32(G_IO_ERROR_TIMED_OUT.rawValue), "timed out"), .other("timed out"))
    }
}
