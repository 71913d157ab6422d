@testable import BackendCache
@testable import BackendCore
import Backend
import CGStreamer
import Foundation
import XCTest

/// Pure logic and the cache's paths: `Cache-Control` parsing, when a copy needs
/// revalidation, relative cache directories, no directory created by reading, and a download
/// file's disk failure classified as local.
final class CacheFreshnessTests: XCTestCase {
    private func entry(storedAt: Double, validatedAt: Double? = nil, control: CacheControl? = nil) -> MediaCache.Entry {
        MediaCache.Entry(uri: "http://x/a", key: MediaCache.key(for: "http://x/a"), size: 1, storedAt: storedAt,
                         lastUsed: storedAt, validatedAt: validatedAt, control: control)
    }

    func testCacheControlDirectives() {
        XCTAssertNil(CacheControl(header: nil))
        let parsed = CacheControl(header: " Public, MAX-AGE=\"60\" ,no-cache, No-Store")
        XCTAssertEqual(parsed?.maxAge, 60)
        XCTAssertEqual(parsed?.noCache, true)
        XCTAssertEqual(parsed?.noStore, true)
        XCTAssertEqual(CacheControl(header: "max-age=-5")?.maxAge, nil)
        XCTAssertEqual(CacheControl(header: "private")?.noStore, false)
    }

    func testFreshness() {
        let now = 10_000.0
        XCTAssertFalse(CacheFreshness.needsValidation(entry(storedAt: now - 10), now: now, interval: 60, offline: false))
        XCTAssertTrue(CacheFreshness.needsValidation(entry(storedAt: now - 60), now: now, interval: 60, offline: false))
        XCTAssertFalse(CacheFreshness.needsValidation(entry(storedAt: now - 100, validatedAt: now - 5), now: now, interval: 60, offline: false))
        XCTAssertTrue(CacheFreshness.needsValidation(entry(storedAt: now - 10, control: CacheControl(header: "max-age=5")),
                                                     now: now, interval: 60, offline: false), "max-age shortens the interval")
        XCTAssertTrue(CacheFreshness.needsValidation(entry(storedAt: now, control: CacheControl(header: "no-cache")),
                                                     now: now, interval: 60, offline: false))
        XCTAssertFalse(CacheFreshness.needsValidation(entry(storedAt: 0, control: CacheControl(header: "no-cache")),
                                                      now: now, interval: 0, offline: true), "offline never asks")
    }

    func testAnIndexWithoutValidationFieldsStillReads() throws {
        let json = #"{"uri":"u","key":"k","size":1,"storedAt":1,"lastUsed":2}"#
        let decoded = try JSONDecoder().decode(MediaCache.Entry.self, from: Data(json.utf8))
        XCTAssertNil(decoded.validatedAt)
        XCTAssertEqual(decoded.checkedAt, 1)
    }

    /// A relative directory is resolved against the working directory.
    func testARelativeDirectoryIsResolvedAgainstTheWorkingDirectory() {
        let cwd = FileManager.default.currentDirectoryPath
        XCTAssertEqual(MediaCache(directory: "mycache").directory, cwd + "/mycache")
        XCTAssertEqual(MediaCache(directory: "a/../b/").directory, cwd + "/b")
        XCTAssertEqual(MediaCache(directory: "/abs/dir").directory, "/abs/dir")
    }

    /// List, clear and remove read a missing directory as empty and leave it missing.
    func testReadingAMissingCacheCreatesNothing() throws {
        let dir = NSTemporaryDirectory() + "gstplay-missing-\(UUID().uuidString)/cache"
        let cache = MediaCache(directory: dir)
        XCTAssertEqual(try cache.entries(), [])
        try cache.clear()
        XCTAssertNil(try cache.remove("http://x/a"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: (dir as NSString).deletingLastPathComponent))
    }

    /// A resource error of the download file is a local error on an http URI too.
    func testADownloadFileFailureIsALocalError() throws {
        gst_init(nil, nil)
        let element = try XCTUnwrap(gst_element_factory_make("downloadbuffer", "downloadbuffer0"))
        _ = gst_object_ref_sink(UnsafeMutableRawPointer(element))
        defer { gst_object_unref(UnsafeMutableRawPointer(element)) }
        let error = g_error_new_literal(gst_resource_error_quark(), gint(GST_RESOURCE_ERROR_OPEN_WRITE.rawValue),
                                        "Could not create temp file \"/x/.cache/gstplay-XXXXXX\".")
        defer { g_error_free(error) }
        let message = try XCTUnwrap(gst_message_new_error(CGStreamer_as_object(UnsafeMutableRawPointer(element)), error, nil))
        defer { gst_message_unref(message) }
        let classified = PlayerError(errorMessage: message, facts: MediaFacts(uri: "http://127.0.0.1:1/file/x.webm"))
        XCTAssertEqual(classified.kind, .resource, "\(classified)")
        XCTAssertEqual(classified.element, "downloadbuffer0")
    }
}
