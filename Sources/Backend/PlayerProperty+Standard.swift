extension PlayerProperty {
    /// Every named property of a player made with the standard features: the core's, the
    /// queue's and the chapters'.
    public static let standard: [PlayerProperty] = core + queue + chapterList

    /// The standard property called `name` (mpv's names), nil for none.
    public static func named(_ name: String) -> PlayerProperty? { standard.first { $0.name == name } }
}

extension Player {
    /// The value of the property called `name`, from ``Player/snapshot`` now. Any thread.
    /// - Throws: ``PlayerError/Kind/invalidArgument`` for a name no property has.
    public func value(named name: String) throws(PlayerError) -> PropertyValue {
        value(of: try Self.property(name))
    }

    /// The value of the property called `name` now, then each change (`Player/observe(_:)-…`).
    /// - Throws: ``PlayerError/Kind/invalidArgument`` for a name no property has.
    public func observe(named name: String) throws(PlayerError) -> AsyncStream<PropertyValue> {
        observe(try Self.property(name))
    }

    /// Sets a writable property by name: `volume` (percent, as mpv), `mute`, `speed`, `pause`.
    /// The value is read back at once (the setters record it in the snapshot). Any thread.
    /// - Throws: ``PlayerError/Kind/invalidArgument`` for an unknown or read-only name, a value
    ///   of the wrong type, or a rate ``PlaybackRate`` refuses.
    public func set(_ name: String, to value: PropertyValue) throws(PlayerError) {
        switch (name, value) {
        case ("volume", .number(let percent)): setVolume(VolumeScale.linear(fromCubic: percent / 100))
        case ("volume", .integer(let percent)): setVolume(VolumeScale.linear(fromCubic: Double(percent) / 100))
        case ("mute", .flag(let muted)): setMuted(muted)
        case ("speed", .number(let rate)): try setRate(rate)
        case ("speed", .integer(let rate)): try setRate(Double(rate))
        case ("pause", .flag(true)): pause()
        case ("pause", .flag(false)): play()
        default:
            _ = try Self.property(name)
            throw PlayerError(kind: .invalidArgument, message: "property '\(name)' cannot be set to \(value)")
        }
    }

    private static func property(_ name: String) throws(PlayerError) -> PlayerProperty {
        guard let property = PlayerProperty.named(name) else {
            throw PlayerError(kind: .invalidArgument, message: "no property '\(name)'")
        }
        return property
    }
}
