import HTTPServe
import XCTest

/// ``OriginPolicy``: which `Host` and `Origin` a request to the HTTP server may name. Comparing
/// `Origin` with `Host` alone let a DNS rebinding in (`evil.example` resolved to 127.0.0.1 sends
/// `Host: evil.example:PORT` and `Origin: http://evil.example:PORT`, which agree).
final class OriginPolicyTests: XCTestCase {
    func testOnLoopbackOnlyLoopbackNamesWithThisPortPass() {
        let policy = OriginPolicy(address: "127.0.0.1", port: 8080)
        XCTAssertTrue(policy.loopbackOnly)
        for host in ["127.0.0.1:8080", "localhost:8080", "LOCALHOST:8080", "[::1]:8080", "127.1.2.3:8080"] {
            XCTAssertNil(policy.refusal(host: host, origin: nil), host)
            XCTAssertNil(policy.refusal(host: host, origin: "http://" + host), host)
        }
        XCTAssertNil(policy.refusal(host: nil, origin: nil), "HTTP/1.0 without Host")
        for host in ["evil.example:8080", "127.0.0.1:8081", "127.0.0.1", "localhost.evil.example:8080", "128.0.0.1:8080", "0x7f.0.0.1:8080"] {
            XCTAssertNotNil(policy.refusal(host: host, origin: nil), host)
        }
        XCTAssertNotNil(policy.refusal(host: "evil.example:8080", origin: "http://evil.example:8080"), "the rebinding shape")
        for origin in ["http://evil.example", "http://127.0.0.1:1", "null", "https://127.0.0.1:8080", "http://evil.example:8080"] {
            XCTAssertNotNil(policy.refusal(host: "127.0.0.1:8080", origin: origin), origin)
        }
    }

    func testOffLoopbackTheOriginMustBeTheHostWithThisPort() {
        let policy = OriginPolicy(address: "0.0.0.0", port: 8080)
        XCTAssertFalse(policy.loopbackOnly)
        XCTAssertNil(policy.refusal(host: "192.168.1.5:8080", origin: nil), "a TV or a script: no Origin")
        XCTAssertNil(policy.refusal(host: "mypc.local:8080", origin: "http://mypc.local:8080"))
        XCTAssertNotNil(policy.refusal(host: "192.168.1.5:8080", origin: "http://evil.example"))
        XCTAssertNotNil(policy.refusal(host: "192.168.1.5:9999", origin: "http://192.168.1.5:9999"), "another port")
    }
}
