/// The display size of the current video stream, with the pixel aspect ratio applied
/// to the width (`width = coded width × par_n / par_d`), as the seed backend reports it.
public struct VideoSize: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Display width in square pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// The coded (storage) width before the pixel aspect ratio was applied.
    public var codedWidth: Int
    /// Pixel aspect ratio numerator.
    public var parNumerator: Int
    /// Pixel aspect ratio denominator.
    public var parDenominator: Int

    /// Builds a display size from coded caps values; a zero PAR part counts as 1.
    public init(codedWidth: Int, height: Int, parNumerator: Int, parDenominator: Int) {
        let n = parNumerator > 0 ? parNumerator : 1
        let d = parDenominator > 0 ? parDenominator : 1
        self.codedWidth = codedWidth
        self.height = height
        self.parNumerator = n
        self.parDenominator = d
        self.width = Int((Int64(codedWidth) * Int64(n)) / Int64(d))
    }

    /// `WIDTHxHEIGHT`.
    public var description: String { "\(width)x\(height)" }
}
