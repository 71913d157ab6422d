import Backend
import CGStreamer
import Foundation
import Synchronization
import TestSupport
import XCTest

/// The features' extension points run in their ``ExtensionOrder``, not in the order the features
/// were given to ``Player``; notifications reach every feature either way. Real `playbin`, fake sinks.
final class ExtensionPointTests: XCTestCase {
    /// A URI resolver that replaces `from` by `to` and records every URI it was asked about.
    private final class Resolver: PlayerFeature, URIResolver {
        let order: ExtensionOrder
        let replacing: (from: String, to: String)?
        let seen = Mutex<[String]>([])

        init(order: ExtensionOrder, replacing: (from: String, to: String)? = nil) {
            self.order = order
            self.replacing = replacing
        }

        func attach(to context: FeatureContext) { context.provideURIResolver(self, order: order) }

        func resolve(_ uri: String) -> LoadDecision {
            seen.withLock { $0.append(uri) }
            guard let replacing, uri == replacing.from else { return .play(uri) }
            return .play(replacing.to)
        }
    }

    func testResolversRunInTheirOrderWhateverTheFeaturesOrder() async throws {
        let vp8 = try MediaLocation.uri(for: TestMedia.vp8)
        let theora = try MediaLocation.uri(for: TestMedia.theora)
        let late = Resolver(order: ExtensionOrder(20))
        let early = Resolver(order: ExtensionOrder(10), replacing: (vp8, theora))
        let player = Player(configuration: .fakeSinks(sync: true), features: [late, early])
        defer { player.shutdown() }
        _ = try await player.loadAsync(TestMedia.vp8)
        XCTAssertEqual(early.seen.withLock { $0 }, [vp8], "the lower rank is asked first, about the URI loaded")
        XCTAssertEqual(late.seen.withLock { $0 }, [theora], "the higher rank sees the URI the one before chose")
    }

    /// Counts `GST_MESSAGE_TAG` messages: as an interceptor at `order` (consuming them when
    /// `consumes`), or, with no order, as a plain observer.
    private final class TagCounter: PlayerFeature, MessageInterceptor {
        let order: ExtensionOrder?
        let consumes: Bool
        let count = Mutex(0)

        init(order: ExtensionOrder?, consumes: Bool = false) {
            self.order = order
            self.consumes = consumes
        }

        func attach(to context: FeatureContext) {
            if let order { context.interceptMessages(self, order: order) }
        }

        func intercept(_ message: UnsafeMutablePointer<GstMessage>) -> MessageDisposition {
            guard CGStreamer_message_type(message) == GST_MESSAGE_TAG else { return .proceed }
            count.withLock { $0 += 1 }
            return consumes ? .consumed : .proceed
        }

        func observe(message: UnsafeMutablePointer<GstMessage>) {
            if order == nil, CGStreamer_message_type(message) == GST_MESSAGE_TAG { count.withLock { $0 += 1 } }
        }
    }

    func testAnInterceptorOfLowerRankConsumesBeforeTheOthersSeeTheMessage() throws {
        let observer = TagCounter(order: nil)
        let late = TagCounter(order: ExtensionOrder(20))
        let early = TagCounter(order: ExtensionOrder(10), consumes: true)
        let recorder = EventRecorder()
        let player = Player(configuration: .fakeSinks(sync: false), features: [observer, late, early], delegate: recorder)
        defer { player.shutdown() }
        player.load(TestMedia.vp8)
        player.play()
        recorder.waitFor("the end of the stream", timeout: 30) { $0.contains(where: \.isEndOfStream) }
        XCTAssertGreaterThan(early.count.withLock { $0 }, 0, "the WebM's tags reach the first interceptor")
        XCTAssertEqual(late.count.withLock { $0 }, 0, "consumed: the interceptor of higher rank never sees them")
        XCTAssertEqual(observer.count.withLock { $0 }, 0, "consumed: observers never see them")
    }

    func testTheStandardFeaturesInReverseOrderStillMoveTheQueueOn() throws {
        let recorder = EventRecorder()
        let features = StandardFeatures().makeFeatures(for: .fakeSinks(sync: true)).reversed()
        let player = Player(configuration: .fakeSinks(sync: true), features: Array(features), delegate: recorder)
        defer { player.shutdown() }
        let items = GaplessTests.fixtures.map { QueueItem(uri: try! MediaLocation.uri(for: $0)) }
        try player.setQueue(items)
        recorder.waitFor("EOS after the last item", timeout: 30) { $0.contains(where: \.isEndOfStream) }
        let uris = recorder.events.compactMap { if case .uriLoaded(let uri) = $0 { return uri } else { return nil } }
        XCTAssertEqual(uris, items.map(\.uri), "every item played, handed over in order")
        XCTAssertEqual(recorder.events.filter(\.isEndOfStream).count, 1, "one end of stream, after the last item")
    }

    /// A resolver that keeps its context, as every real feature does.
    private final class KeepingResolver: PlayerFeature, URIResolver {
        var context: FeatureContext?   // loop thread, like the feature

        func attach(to context: FeatureContext) {
            self.context = context
            context.provideURIResolver(self, order: ExtensionOrder(10))
        }

        func resolve(_ uri: String) -> LoadDecision { .play(uri) }
    }

    func testAFeatureRegisteredAtAnExtensionPointGoesWithThePlayer() {
        weak var released: KeepingResolver?
        do {
            let feature = KeepingResolver()
            released = feature
            let player = Player(configuration: .fakeSinks(sync: true), features: [feature])
            player.shutdown()
        }
        // The context registers the feature and the feature keeps the context: the registration
        // must go at teardown, or both (and the player's loop thread) outlive the player.
        XCTAssertTrue(eventually(timeout: .seconds(10)) { released == nil }, "the feature outlived its player")
    }
}
