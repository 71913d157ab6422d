// The UDP relay (Tests/UDPRelay, its own target so that the bench's `udp-relay` program links no
// XCTest) is part of the test support: tests get it with `import TestSupport`.
@_exported import UDPRelay
