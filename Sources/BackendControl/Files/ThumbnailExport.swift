import Backend

/// Thumbnails of one media file written as PNG files: a contact sheet (one grid, each tile's time
/// printed on it) or one PNG per time in a directory. The destination is checked before any
/// decoding; the frames are decoded on a `ThumbnailGenerator`, the sheet composed with
/// `ContactSheet`, and every file written through ``ImageFileWriter`` (a temporary name and a
/// rename), so a failure leaves no partial file. A plain value; ``run(progress:)`` from any task.
public struct ThumbnailExport: Equatable, Sendable {
    /// Where the images go.
    public enum Destination: Equatable, Sendable {
        /// One contact-sheet PNG at this path.
        case sheet(String)
        /// One PNG per time in this directory (created if missing).
        case directory(String)
    }

    /// What ``run(progress:)`` wrote.
    public struct Written: Sendable {
        /// How many frames (tiles of the sheet, or files in the directory).
        public var frames: Int
        /// The size of the sheet, or of each image.
        public var width: Int, height: Int
        /// The sheet's tiles per row and rows (nil for a directory).
        public var grid: (columns: Int, rows: Int)?
        /// Where it went.
        public var destination: Destination

        /// One line for a person: `wrote sheet.png: 16 frames in 4×4, 960x540`, or
        /// `wrote 16 images (240x135) to dir`.
        public var summary: String {
            switch destination {
            case .sheet(let path):
                let (columns, rows) = grid ?? (frames, 1)
                return "wrote \(path): \(frames) \(frames == 1 ? "frame" : "frames") in \(columns)×\(rows), \(width)x\(height)"
            case .directory(let directory):
                return "wrote \(frames) \(frames == 1 ? "image" : "images") (\(width)x\(height)) to \(directory)"
            }
        }
    }

    /// A failed export: the media location and what went wrong, as one line.
    public struct Failure: Error, CustomStringConvertible {
        /// The media file or URI.
        public var location: String
        /// What went wrong.
        public var cause: any Error
        /// Added after the cause (`(and 3 more)`).
        public var suffix = ""
        /// `LOCATION: CAUSE[SUFFIX]`.
        public var description: String { "\(location): \(cause)\(suffix)" }

        /// A failure of `location` because of `cause`.
        public init(location: String, cause: any Error, suffix: String = "") {
            self.location = location
            self.cause = cause
            self.suffix = suffix
        }
    }

    /// The media file or URI.
    public var location: String
    /// Which frames.
    public var times: ThumbnailTimes
    /// Largest width of each image in pixels.
    public var width: Int
    /// Tiles per row of the sheet.
    public var columns: Int
    /// Key frames (fast) or exact times.
    public var seekMode: SeekMode
    /// Where the images go.
    public var destination: Destination

    /// An export of `location`'s frames at `times` to `destination`.
    public init(location: String, times: ThumbnailTimes, width: Int, columns: Int, seekMode: SeekMode, destination: Destination) {
        self.location = location
        self.times = times
        self.width = width
        self.columns = columns
        self.seekMode = seekMode
        self.destination = destination
    }

    /// Checks the destination, decodes every frame (`progress` after each: done, total) and
    /// writes the files. Throws ``Failure`` or ``ImageFileWriter/Failure``; the first failed
    /// time fails the whole export.
    public func run(progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }) async throws -> Written {
        try Self.checkDestination(destination)
        let thumbnails = try await decode(progress: progress)
        return try write(thumbnails)
    }

    private func decode(progress: (Int, Int) -> Void) async throws -> [Thumbnail] {
        // On a sheet each tile shows its time, written while the frame is encoded (one
        // textoverlay for all frames instead of one per tile in the sheet).
        let isSheet = if case .sheet = destination { true } else { false }
        let generator = ThumbnailGenerator(location: location, maximumSize: ImageSize(width: width),
                                           format: .png, seekMode: seekMode, burnsInTime: isSheet)
        var steps: [ThumbnailResult] = []
        do {
            for try await step in generator.thumbnails(at: times) {
                steps.append(step)
                progress(step.index + 1, step.total)
            }
        } catch {
            throw Failure(location: location, cause: error)
        }
        let failures = steps.compactMap { step -> ImageError? in
            if case .failure(let error) = step.result { return error } else { return nil }
        }
        if let first = failures.first {
            throw Failure(location: location, cause: first, suffix: failures.count > 1 ? " (and \(failures.count - 1) more)" : "")
        }
        return steps.compactMap { try? $0.result.get() }
    }

    private func write(_ thumbnails: [Thumbnail]) throws -> Written {
        switch destination {
        case .sheet(let path):
            let tiles = thumbnails.map { ContactSheet.Tile(image: $0.image, caption: nil) }
            let sheet: Image
            do { sheet = try ContactSheet.compose(tiles, columns: columns) } catch {
                throw Failure(location: location, cause: error)
            }
            try ImageFileWriter.write(sheet.bytes, to: path)
            return Written(frames: tiles.count, width: sheet.width, height: sheet.height,
                           grid: (min(columns, tiles.count), (tiles.count + columns - 1) / columns), destination: destination)
        case .directory(let directory):
            let base = ImageFileWriter.baseName(of: location)
            let digits = String(thumbnails.count).count
            let files = thumbnails.enumerated().map { index, thumbnail in
                let number = String(repeating: "0", count: max(0, digits - String(index + 1).count)) + String(index + 1)
                return (name: "\(base)-\(number)-\(ImageFileWriter.timestamp(thumbnail.actualTime)).png", bytes: thumbnail.image.bytes)
            }
            try ImageFileWriter.writeAll(files, into: directory)
            return Written(frames: files.count, width: thumbnails.first?.image.width ?? 0, height: thumbnails.first?.image.height ?? 0,
                           grid: nil, destination: destination)
        }
    }

    /// Refuses, before any decoding, a destination that cannot work: a sheet path that is a
    /// directory or whose directory is missing or not writable; an output directory that is a
    /// file or cannot be created. Throws ``ImageFileWriter/Failure``.
    public static func checkDestination(_ destination: Destination) throws {
        switch destination {
        case .sheet(let path):
            if PathText.isDirectory(path) { throw ImageFileWriter.Failure(path: path, reason: "it is a directory") }
            try ImageFileWriter.checkWritableDirectory(ImageFileWriter.parent(of: path), for: path)
        case .directory(let path):
            if PathText.exists(path) {
                guard PathText.isDirectory(path) else { throw ImageFileWriter.Failure(path: path, reason: "it is not a directory") }
                try ImageFileWriter.checkWritableDirectory(path, for: path)
            } else {
                try ImageFileWriter.checkWritableDirectory(ImageFileWriter.parent(of: path), for: path)
            }
        }
    }
}
