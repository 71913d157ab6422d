@testable import BackendCast
import XCTest

/// The UPnP layer's text formats, without a network: AVTransport time strings, DIDL-Lite made
/// by GUPnP-AV's writer, LastChange documents read by its parser.
final class UPnPValueTests: XCTestCase {
    func testTimeStrings() {
        XCTAssertEqual(UPnPTime.format(5), "0:00:05")
        XCTAssertEqual(UPnPTime.format(3725.6), "1:02:06")
        XCTAssertEqual(UPnPTime.format(-3), "0:00:00")
        XCTAssertEqual(UPnPTime.format(.nan), "0:00:00")
        XCTAssertEqual(UPnPTime.parse("0:00:05"), 5)
        XCTAssertEqual(UPnPTime.parse("01:02:03.500"), 3723.5)
        XCTAssertEqual(UPnPTime.parse("0:00:05.1/4"), 5.25)
        XCTAssertNil(UPnPTime.parse("NOT_IMPLEMENTED"))
        XCTAssertNil(UPnPTime.parse(""))
        XCTAssertNil(UPnPTime.parse(nil))
    }

    func testDIDLLiteHasTitleClassDurationAndProtocolInfo() {
        let xml = CastMetadata(title: "A & B", duration: 10.02, mimeType: "video/mp4").didlLite(uri: "http://10.0.0.1:8000/x?a=1&b=2")
        XCTAssertTrue(xml.hasPrefix("<DIDL-Lite"), xml)
        XCTAssertTrue(xml.contains("<dc:title>A &amp; B</dc:title>"), xml)
        XCTAssertTrue(xml.contains("<upnp:class>object.item.videoItem</upnp:class>"), xml)
        XCTAssertTrue(xml.contains("protocolInfo=\"http-get:*:video/mp4:*\""), xml)
        XCTAssertTrue(xml.contains("duration=\"0:00:10"), xml)
        XCTAssertTrue(xml.contains(">http://10.0.0.1:8000/x?a=1&amp;b=2</res>"), xml)
        let audio = CastMetadata(title: "T", mimeType: "audio/ogg", protocolInfo: "http-get:*:audio/ogg:DLNA.ORG_OP=01").didlLite(uri: "http://h/a.ogg")
        XCTAssertTrue(audio.contains("object.item.audioItem.musicTrack"), audio)
        XCTAssertTrue(audio.contains("protocolInfo=\"http-get:*:audio/ogg:DLNA.ORG_OP=01\""), audio)
        XCTAssertFalse(audio.contains("duration="), "no duration when unknown: \(audio)")
    }

    func testLastChangeDocuments() {
        let transport = """
            <Event xmlns="urn:schemas-upnp-org:metadata-1-0/AVT/"><InstanceID val="0"><TransportState val="PAUSED_PLAYBACK"/>\
            <CurrentTrackURI val="http://h/x.mp4"/><CurrentTrackDuration val="0:00:10"/></InstanceID></Event>
            """
        XCTAssertEqual(LastChange.parse(transport),
                       LastChange(transportState: .paused, trackURI: "http://h/x.mp4", duration: 10))
        let rendering = """
            <Event xmlns="urn:schemas-upnp-org:metadata-1-0/RCS/"><InstanceID val="0"><Volume channel="Master" val="42"/>\
            <Mute channel="Master" val="1"/></InstanceID></Event>
            """
        XCTAssertEqual(LastChange.parse(rendering), LastChange(volume: 42, muted: true))
        XCTAssertNil(LastChange.parse("<not-an-event"))
    }
}
