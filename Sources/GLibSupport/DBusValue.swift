import CGStreamer

/// A D-Bus value as Swift sees it, made into a `GVariant` (``makeVariant()``) and read back from
/// one (``init(variant:)``): the one GVariant bridge of the Backend's GDBus code
/// (``DBusObjectExport``; MPRIS). Covers the types D-Bus services commonly use: `b i u x t d s o`,
/// arrays, `a{sv}` dictionaries, tuples and variants. **Thread:** any (pure values; GVariants
/// are immutable).
package indirect enum DBusValue: Sendable, Hashable {
    /// `b`
    case bool(Bool)
    /// `i`
    case int32(Int32)
    /// `u`
    case uint32(UInt32)
    /// `x`
    case int64(Int64)
    /// `t`
    case uint64(UInt64)
    /// `d`
    case double(Double)
    /// `s`
    case string(String)
    /// `o` (must be a valid object path: `g_variant_is_object_path`)
    case objectPath(String)
    /// An array whose elements have the signature `element` (`"s"`, `"o"`, `"a{sv}"`…).
    case array(element: String, [DBusValue])
    /// `a{sv}`, encoded with its keys sorted.
    case dictionary([String: DBusValue])
    /// A tuple (a method's arguments or a signal's parameters).
    case tuple([DBusValue])
    /// `v`
    case variant(DBusValue)

    /// A new floating `GVariant` (`g_variant_new_*`; the receiver sinks it: GDBus replies,
    /// signals, property getters take floating references).
    package func makeVariant() -> OpaquePointer {
        switch self {
        case .bool(let value): return g_variant_new_boolean(value ? 1 : 0)
        case .int32(let value): return g_variant_new_int32(value)
        case .uint32(let value): return g_variant_new_uint32(value)
        case .int64(let value): return g_variant_new_int64(gint64(value))
        case .uint64(let value): return g_variant_new_uint64(guint64(value))
        case .double(let value): return g_variant_new_double(value)
        case .string(let value): return g_variant_new_string(value)
        case .objectPath(let value): return g_variant_new_object_path(value)
        case .variant(let value): return g_variant_new_variant(value.makeVariant())
        case .tuple(let values): return Self.withChildren(values.map { $0.makeVariant() }) { g_variant_new_tuple($0, $1) }
        case .array(let element, let values):
            let type = g_variant_type_new(element)
            defer { g_variant_type_free(type) }
            return Self.withChildren(values.map { $0.makeVariant() }) { g_variant_new_array(type, $0, $1) }
        case .dictionary(let entries):
            let type = g_variant_type_new("{sv}")
            defer { g_variant_type_free(type) }
            let children = entries.sorted { $0.key < $1.key }.map { key, value in
                g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(value.makeVariant()))!
            }
            return Self.withChildren(children) { g_variant_new_array(type, $0, $1) }
        }
    }

    private static func withChildren(_ children: [OpaquePointer?],
                                     _ make: (UnsafePointer<OpaquePointer?>?, gsize) -> OpaquePointer?) -> OpaquePointer {
        children.withUnsafeBufferPointer { make($0.baseAddress, gsize($0.count))! }
    }

    /// Reads `variant` (borrowed): nil for a type outside the list above.
    package init?(variant: OpaquePointer) {
        let signature = String(cString: g_variant_get_type_string(variant))
        switch signature {
        case "b": self = .bool(g_variant_get_boolean(variant) != 0)
        case "i": self = .int32(g_variant_get_int32(variant))
        case "u": self = .uint32(g_variant_get_uint32(variant))
        case "x": self = .int64(Int64(g_variant_get_int64(variant)))
        case "t": self = .uint64(UInt64(g_variant_get_uint64(variant)))
        case "d": self = .double(g_variant_get_double(variant))
        case "s": self = .string(String(cString: g_variant_get_string(variant, nil)))
        case "o": self = .objectPath(String(cString: g_variant_get_string(variant, nil)))
        case "v":
            let inner = g_variant_get_variant(variant)!
            defer { g_variant_unref(inner) }
            guard let value = DBusValue(variant: inner) else { return nil }
            self = .variant(value)
        default:
            guard let children = Self.children(of: variant) else { return nil }
            if signature.hasPrefix("(") {
                self = .tuple(children)
            } else if signature == "a{sv}" {
                var entries: [String: DBusValue] = [:]
                for case .tuple(let pair) in children {
                    if pair.count == 2, case .string(let key) = pair[0], case .variant(let value) = pair[1] { entries[key] = value }
                }
                self = .dictionary(entries)
            } else if signature.hasPrefix("a") {
                self = .array(element: String(signature.dropFirst()), children)
            } else if signature.hasPrefix("{") {
                self = .tuple(children)
            } else {
                return nil
            }
        }
    }

    /// The children of a container (`g_variant_get_child_value`), nil when one cannot be read.
    private static func children(of variant: OpaquePointer) -> [DBusValue]? {
        guard g_variant_is_container(variant) != 0 else { return nil }
        var values: [DBusValue] = []
        for index in 0..<g_variant_n_children(variant) {
            let child = g_variant_get_child_value(variant, index)!
            defer { g_variant_unref(child) }
            guard let value = DBusValue(variant: child) else { return nil }
            values.append(value)
        }
        return values
    }

    /// The string of `.string` and `.objectPath`, else nil.
    package var stringValue: String? {
        switch self {
        case .string(let value), .objectPath(let value): return value
        default: return nil
        }
    }

    /// The number of `.double` and the integer cases, as a `Double`, else nil.
    package var doubleValue: Double? {
        switch self {
        case .double(let value): return value
        case .int32(let value): return Double(value)
        case .uint32(let value): return Double(value)
        case .int64(let value): return Double(value)
        case .uint64(let value): return Double(value)
        default: return nil
        }
    }
}
