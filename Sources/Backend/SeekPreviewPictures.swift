import BackendCore
import BackendOSD
import BackendThumbnails

/// The OSD's seek preview gets its pictures from the thumbnails engine: a background
/// ``ThumbnailTrack`` per file (``OSDFeature``'s ``PreviewPictureSource``).
extension ThumbnailTrack: PreviewPictureSource {
    /// The track's picture nearest to `time`, as the OSD draws it.
    public func picture(near time: MediaTime) -> BGRAPicture? { thumbnail(near: time) }
}

extension StandardFeatures {
    /// A ``ThumbnailTrack`` of the file at `uri` whose new pictures call `arrived`.
    @Sendable static func seekPreviewPictures(uri: String, arrived: @escaping @Sendable () -> Void) -> (any PreviewPictureSource)? {
        ThumbnailTrack(location: uri, onPicture: arrived)
    }
}
