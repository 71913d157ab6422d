@testable import BackendAdaptive
import Backend
import TestSupport
import XCTest

/// MPEG-DASH on real pipelines: `playbin` (legacy `dashdemux`) against the MPD the fixture script
/// writes over the HLS ladder's segments, served by `http_test_server.py`. The same ABR policy as
/// for HLS: start lowest, switch by the estimate, obey a cap and a pin.
final class DashStreamingTests: XCTestCase {
    private var server: HTTPTestServer!

    override func setUpWithError() throws { server = try HTTPTestServer(hls: try HLSFixture.ensure()) }
    override func tearDown() { server.stop() }

    private func player(_ recorder: EventRecorder, _ policy: (inout AdaptivePolicy) -> Void = { _ in }) -> Player {
        Player.forAdaptiveTesting(recorder, policy)
    }

    func testStartsOnTheLowestRepresentationThenSwitchesUp() {
        let recorder = EventRecorder()
        let player = player(recorder)
        defer { player.shutdown() }
        player.load(server.url("/hls/vod-6/manifest.mpd"))
        let variants = recorder.waitForValue("variants") { $0.variants }
        XCTAssertEqual(variants?.map(\.height), [240, 480, 720])
        XCTAssertEqual(variants?.map(\.bandwidth), [364_071, 1_036_982, 2_503_381], "the MPD's bandwidth attributes")
        // Up to 720p, maybe through 480p (the buffer guard, on a loaded machine): each switch carries its decision's reason.
        let up = recorder.waitForValue("a switch up to 720p", timeout: 15) { $0.switched.flatMap { $0.reason == .bandwidthUp && $0.to.height == 720 ? $0 : nil } }
        XCTAssertEqual(up?.to.height, 720, "a local link sustains the top representation")
        let segments = server.segments()
        XCTAssertEqual(segments.first?.variant, "240p", "\(segments.map(\.path))")
        let first = recorder.events.lazy.compactMap(\.switched).first
        XCTAssertEqual(first?.reason, .start)
        XCTAssertEqual(first?.to.height, 240)
        XCTAssertEqual(player.adaptiveInfo.currentVariant?.height, 720)
        XCTAssertNotNil(player.adaptiveInfo.estimatedBandwidth)
        let tick = recorder.waitForValue("playback past 1 s", timeout: 10) { $0.position.flatMap { $0.seconds >= 1 ? $0 : nil } }
        XCTAssertNotNil(tick, "the DASH stream plays")
        XCTAssertNil(recorder.events.lazy.compactMap(\.error).first)
    }

    func testA480pCapIsNeverExceeded() {
        let recorder = EventRecorder()
        let player = player(recorder) { $0.maxHeight = 480 }
        defer { player.shutdown() }
        player.load(server.url("/hls/vod-4/manifest.mpd"))
        let up = recorder.waitForValue("the switch up to the cap", timeout: 15) { $0.switched.flatMap { $0.reason == .bandwidthUp ? $0 : nil } }
        XCTAssertEqual(up?.to.height, 480)
        recorder.waitFor("every segment requested", timeout: 15) { _ in self.server.segments().count >= 4 }
        XCTAssertFalse(Set(server.segments().compactMap(\.variant)).contains("720p"), "\(server.segments().map(\.path))")
        XCTAssertEqual(player.refreshStatistics().adaptive?.maxProfile, 1_036_982)
    }

    func testAPinnedRepresentationIsKept() {
        let recorder = EventRecorder()
        let player = player(recorder) { $0.pinned = 1 }
        defer { player.shutdown() }
        player.load(server.url("/hls/vod-4/manifest.mpd"))
        recorder.waitFor("every segment requested", timeout: 15) { _ in self.server.segments().count >= 4 }
        let segments = server.segments()
        // dashdemux (1.22) fetches the first segment from the lowest representation whatever
        // `connection-speed` says at the manifest (hlsdemux obeys it); the pin holds from then on.
        XCTAssertEqual(segments.first?.variant, "240p", "\(segments.map(\.path))")
        XCTAssertEqual(Set(segments.dropFirst().compactMap(\.variant)), ["480p"], "\(segments.map(\.path))")
        // The monitor reads the variant from the demuxer's statistics message, which may come
        // after the server saw the request: the getter catches up within its 250 ms tick.
        recorder.waitFor("the pinned variant is current") { _ in player.adaptiveInfo.currentVariant?.height == 480 }
    }
}

/// The MPD reader on its own (pure).
final class DashManifestTests: XCTestCase {
    static let mpd = """
    <?xml version="1.0"?>
    <!-- a comment with <Representation bandwidth="1"> inside -->
    <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static">
      <Period>
        <AdaptationSet contentType="video" mimeType="video/mp4">
          <SegmentTemplate media="v/$RepresentationID$/seg-$Number$.m4s" initialization="v/$RepresentationID$/init.mp4"/>
          <Representation id="hi" bandwidth="2000000" width="1280" height="720" codecs="avc1.64001f"/>
          <Representation id="lo" bandwidth="400000" width="640" height="360" codecs="avc1.42c01e"></Representation>
        </AdaptationSet>
        <AdaptationSet mimeType="audio/mp4">
          <Representation id="a" bandwidth="128000"><SegmentTemplate media="a/$Number$.m4s"/></Representation>
        </AdaptationSet>
      </Period>
    </MPD>
    """

    func testVideoRepresentationsBecomeVariantsSortedWithTheirTemplatesResolved() {
        guard case .master(let variants) = AdaptiveManifest.parse(Self.mpd, baseURI: "http://h:1/dash/main.mpd?token=1") else {
            return XCTFail("not read as a ladder")
        }
        XCTAssertEqual(variants.map(\.bandwidth), [400_000, 2_000_000], "audio sets are not variants")
        XCTAssertEqual(variants.map(\.index), [0, 1])
        XCTAssertEqual(variants.map(\.height), [360, 720])
        XCTAssertEqual(variants.first?.codecs, "avc1.42c01e")
        XCTAssertEqual(variants.first?.uri, "http://h:1/dash/v/lo/seg-$Number$.m4s")
    }

    func testLiveEmptyAndForeignDocuments() {
        XCTAssertEqual(DashManifest.parse(#"<MPD type="dynamic"><Period/></MPD>"#, baseURI: "x"), .media(isLive: true))
        XCTAssertEqual(DashManifest.parse("<html><body>404</body></html>", baseURI: "x"), .invalid)
        XCTAssertEqual(AdaptiveManifest.parse("\u{FEFF}  ", baseURI: "x"), .invalid)
        XCTAssertEqual(AdaptiveManifest.parse("<MPD", baseURI: "x"), .invalid, "a truncated document")
        XCTAssertEqual(DashManifest.parse(#"<MPD><Period></MPD>"#, baseURI: "x"), .invalid, "not well-formed: GMarkup refuses it")
    }

    /// Attribute values as GMarkup gives them: either quote, the predefined entities and
    /// character references decoded, namespace prefixes dropped from element names.
    func testEntitiesQuotesAndPrefixesInAttributes() {
        let mpd = """
            \u{FEFF}<?xml version="1.0"?>
            <mpd:MPD xmlns:mpd="urn:mpeg:dash:schema:mpd:2011" type='static'>
              <mpd:Period><mpd:AdaptationSet mimeType="video/mp4">
                <mpd:Representation id='a&amp;b' bandwidth="500000" height='360' codecs="avc1&#x2E;42c01e &quot;x&quot; &lt;&gt;&apos;">
                  <mpd:SegmentTemplate media="$RepresentationID$/s-$Number$.m4s?k=1&amp;t=2"/>
                </mpd:Representation>
              </mpd:AdaptationSet></mpd:Period>
            </mpd:MPD>
            """
        guard case .master(let variants) = DashManifest.parse(mpd, baseURI: "http://h:1/d/m.mpd") else { return XCTFail("not read as a ladder") }
        XCTAssertEqual(variants.count, 1)
        XCTAssertEqual(variants.first?.codecs, #"avc1.42c01e "x" <>'"#)
        XCTAssertEqual(variants.first?.height, 360)
        XCTAssertEqual(variants.first?.uri, "http://h:1/d/a&b/s-$Number$.m4s?k=1&t=2")
    }
}
