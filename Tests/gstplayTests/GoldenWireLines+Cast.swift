@testable import BackendControl
@testable import gstplay
import Backend

extension GoldenWireLines {
    /// The renderers and cast events, and the `renderers` reply.
    static var castLines: [(name: String, line: String)] {
        let tv = Renderer(udn: "uuid:11111111-2222-3333-4444-555555555555", friendlyName: "Living \"Room\" TV", model: "gmediarender",
                          protocols: ["http-get:*:video/mp4:*", "http-get:*:audio/ogg:*"], location: "http://10.231.7.2:49494/description.xml",
                          hostAddress: "10.231.7.1")
        let bare = Renderer(udn: "uuid:rygel", friendlyName: "Rygel", model: nil, protocols: [], location: "http://10.231.7.3:8200/d.xml",
                            hostAddress: "10.231.7.1")
        func line(_ event: CastEvent) -> String { WireEvents.line(for: .feature(FeatureEvent(event))) }
        return [
            ("renderers", line(.renderersChanged([tv, bare]))),
            ("renderers-none", line(.renderersChanged([]))),
            ("cast-started", line(.castStarted(tv))),
            ("cast-ended", line(.castEnded(tv, position: MediaTime(seconds: 7.191)))),
            ("cast-ended-no-position", line(.castEnded(bare, position: nil))),
            ("cast-failed", line(.castFailed(renderer: tv, message: "Living \"Room\" TV: GetTransportInfo: the renderer is gone"))),
            ("cast-failed-none-found", line(.castFailed(renderer: nil, message: "no renderer 'Garage' found within 8 s"))),
            ("reply-renderers", Reply(id: .int(12), error: nil, data: .renderers(WireCast.List([tv, bare], casting: tv))).line),
            ("reply-renderers-none", Reply(id: .int(13), error: nil, data: .renderers(WireCast.List([], casting: nil))).line),
        ]
    }
}
