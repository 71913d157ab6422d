@testable import BackendCast
import BackendCore
import CGStreamer
import CGUPnP
import Foundation
import TestSupport
import XCTest

/// ``RendererDiscovery/stop()`` and releasing a ``RendererControl`` leave nothing behind: every
/// GUPnP object they made is finalized (GObject weak pointers), and start/stop rounds against a
/// real gmediarender bring this process's threads and descriptors back to the baseline (`/proc`
/// through `ResourceBaseline`, the tolerances of every leak test).
final class RendererDiscoveryLeakTests: XCTestCase {
    private static let rounds = 4

    func testStartStopRoundsLeakNoObjectThreadOrDescriptor() throws {
        let lab = try RendererLab()
        defer { lab.tearDown() }
        let renderer = try lab.startGMediaRender(name: "Leak gmr")
        let loop = CastTestLoop()
        try ResourceBaseline.assertRoundsLeaveNothing(rounds: Self.rounds, settle: .seconds(10)) {
            try round(loop, lab: lab, udn: renderer.udn)
        }
    }

    /// Discovers the renderer, calls it, subscribes to its events, releases the control and stops;
    /// then every GUPnP object the discovery and the control held must be finalized.
    private func round(_ loop: CastTestLoop, lab: RendererLab, udn: String) throws {
        let lists = RendererLists()
        let interface = lab.clientInterface
        let discovery = loop.startDiscovery(on: [interface], recordingInto: lists)
        let found = try XCTUnwrap(lists.wait { $0.contains { $0.udn == udn } }?.first { $0.udn == udn })
        nonisolated(unsafe) var control: RendererControl? = loop.sync { discovery.makeControl(for: found) }
        XCTAssertNotNil(control)
        loop.sync { control?.subscribeLastChange { _ in } }   // GENA SUBSCRIBE, renewal timer, notify handler
        XCTAssertNoThrow(try loop.wait { done in control?.transportInfo(completion: done) }?.get())

        let watched = WeakPointers()
        loop.sync {
            if let manager = discovery.manager { watched.watch(manager, "GUPnPContextManager") }
            for point in discovery.points {
                watched.watch(point.point, "GUPnPControlPoint")
                watched.watch(point.context, "GUPnPContext")
            }
            for device in discovery.devices.values { watched.watch(device.proxy, "GUPnPDeviceProxy") }
            if let control {
                watched.watch(control.avTransport, "AVTransport proxy")
                if let rendering = control.renderingControl { watched.watch(rendering, "RenderingControl proxy") }
            }
        }
        XCTAssertGreaterThanOrEqual(watched.count, 6)
        loop.sync { control = nil; discovery.stop() }   // the only reference to the control
        let alive = { loop.sync { watched.alive } }
        XCTAssertTrue(eventually(timeout: .seconds(5), interval: .milliseconds(50)) { alive().isEmpty }, "not finalized: \(alive())")
        loop.sync { watched.clear() }
    }
}

/// GObject weak pointers (`g_object_add_weak_pointer`): each slot turns NULL when its object is
/// finalized. Loop thread only.
private final class WeakPointers: @unchecked Sendable {
    private var slots: [(String, UnsafeMutablePointer<gpointer?>)] = []

    func watch<T>(_ object: UnsafeMutablePointer<T>, _ name: String) {
        let slot = UnsafeMutablePointer<gpointer?>.allocate(capacity: 1)
        slot.initialize(to: UnsafeMutableRawPointer(object))
        g_object_add_weak_pointer(GLibValues.cast(object, to: GObject.self), slot)
        slots.append((name, slot))
    }

    var count: Int { slots.count }
    /// The names of the objects not finalized yet.
    var alive: [String] { slots.filter { $0.1.pointee != nil }.map(\.0) }

    func clear() {
        for (_, slot) in slots {
            if let object = slot.pointee { g_object_remove_weak_pointer(object.assumingMemoryBound(to: GObject.self), slot) }
            slot.deallocate()
        }
        slots = []
    }
}
