import BackendCore
import CGUPnP
import GLibSupport

/// A renderer that stopped answering, taken off the list before its announcement expires.
/// **Thread:** the loop thread.
extension RendererDiscovery {
    /// Takes the renderer `udn` off the list now (``onChange`` runs; its controls fail with
    /// ``CastError/gone``) and searches its network interface again with a new
    /// `GUPnPControlPoint`: GUPnP keeps a device it knows until its `ssdp:alive` expires (up to
    /// 30 minutes for gmediarender) and never reports it anew before that, so the old control
    /// point is replaced, and a renderer that still answers the new M-SEARCH is listed again
    /// (after its `GetProtocolInfo`). Does nothing for a renderer that is not known.
    public func drop(_ udn: String) {
        guard let device = devices[udn] else { return }
        let point = device.point
        let wasListed = device.renderer != nil
        forget(udn)
        if wasListed { changed() }
        rescan(point)
    }

    /// Replaces the control point `old` by a new one on the same context (a fresh search); the
    /// devices it found are kept and adopt the new point's proxies as it finds them again. The
    /// old point stays ``retireDelay`` (its byebyes count for devices not found again yet).
    private func rescan(_ old: UnsafeMutablePointer<GUPnPControlPoint>) {
        guard let index = points.firstIndex(where: { $0.point == old }) else { return }
        let entry = points[index]
        let fresh = makeControlPoint(on: entry.context)
        points[index] = fresh
        for device in devices.values where device.point == old { device.point = fresh.point }
        let timer = TimerSource.onThreadDefaultContext(every: Self.retireDelay) { [weak self] in
            guard let self, let at = self.retiring.firstIndex(where: { $0.point.point == old }) else { return false }
            self.retiring.remove(at: at).point.release()
            return false
        }
        retiring.append((entry, timer))
    }
}
