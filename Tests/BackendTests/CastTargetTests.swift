import Backend
import XCTest

/// `CastTarget`: what a user types, and which renderer it names (pure).
final class CastTargetTests: XCTestCase {
    private let renderers = [
        Renderer(udn: "uuid:aaa", friendlyName: "Living Room TV", model: "Kodi", protocols: [], location: "http://10.0.0.2/d.xml", hostAddress: "10.0.0.1"),
        Renderer(udn: "uuid:bbb", friendlyName: "Kitchen", model: nil, protocols: [], location: "http://10.0.0.3/d.xml", hostAddress: "10.0.0.1"),
        Renderer(udn: "uuid:ccc", friendlyName: "Living Room Speaker", model: nil, protocols: [], location: "http://10.0.0.4/d.xml", hostAddress: "10.0.0.1"),
    ]

    func testParsing() {
        XCTAssertEqual(CastTarget(parsing: "auto"), .auto)
        XCTAssertEqual(CastTarget(parsing: " AUTO "), .auto)
        XCTAssertEqual(CastTarget(parsing: "uuid:1234"), .udn("uuid:1234"))
        XCTAssertEqual(CastTarget(parsing: "Kitchen"), .name("Kitchen"))
        XCTAssertEqual(CastTarget.name("Kitchen").text, "Kitchen")
    }

    func testMatching() {
        XCTAssertEqual(CastTarget.auto.match(in: renderers)?.udn, "uuid:aaa", "auto: the first found")
        XCTAssertNil(CastTarget.auto.match(in: []))
        XCTAssertEqual(CastTarget.udn("UUID:bbb").match(in: renderers)?.friendlyName, "Kitchen")
        XCTAssertEqual(CastTarget.name("kitchen").match(in: renderers)?.udn, "uuid:bbb", "names ignore case")
        XCTAssertEqual(CastTarget.name("Living Room Sp").match(in: renderers)?.udn, "uuid:ccc", "a unique prefix")
        XCTAssertNil(CastTarget.name("Living Room").match(in: renderers), "an ambiguous prefix names none")
        XCTAssertNil(CastTarget.name("Garage").match(in: renderers))
    }
}
