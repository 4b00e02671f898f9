import KeyboardLinkDBus

/// `PushProgress(u done, u total)`: bindings written of those to write; `(0, 0)` while kblinkd reads the keyboard's
/// keymap on first contact before the push.
public struct PushProgress: Sendable, Equatable, KBlinkSignalBody {
    /// Bindings written so far.
    public var done: UInt32
    /// Bindings to write.
    public var total: UInt32

    /// Progress as given.
    public init(done: UInt32, total: UInt32) {
        self.done = done
        self.total = total
    }

    /// `(u done, u total)`.
    public static let arguments = [DBusArgument("done", .uint32), DBusArgument("total", .uint32)]

    /// Reads `(uu)`.
    /// - Throws: ``DBusError`` (`InvalidArgs`) for another shape.
    public init(body: [DBusValue]) throws {
        var reader = DBusValueReader(body)
        self.init(done: try reader.next(UInt32.self), total: try reader.next(UInt32.self))
        guard reader.isAtEnd else { throw DBusError.invalidArgs("PushProgress carries (uu)") }
    }

    /// `[done, total]`.
    public var body: [DBusValue] { [.uint32(done), .uint32(total)] }
}

/// One binding a re-apply on connect wrote back; on the wire `(usss)`: layer, key, what the keyboard held, what
/// was written.
public struct ReappliedChange: Sendable, Equatable, DBusWireMapped {
    /// The layer.
    public var layer: UInt32
    /// The key's name.
    public var key: String
    /// What the keyboard held.
    public var old: String
    /// What was written.
    public var new: String

    /// A change as given.
    public init(layer: UInt32, key: String, old: String, new: String) {
        self.layer = layer
        self.key = key
        self.old = old
        self.new = new
    }

    /// `(usss)`: layer, key, old, new.
    public typealias WireForm = DBusStruct<UInt32, String, String, String>
    /// A change from `(usss)`.
    public init(wireForm: WireForm) {
        (layer, key, old, new) = wireForm.fields
    }
    /// The change as `(usss)`.
    public var wireForm: WireForm { WireForm(layer, key, old, new) }
}

/// `Reapplied(a(usss) changes)`: a re-apply on connect wrote bindings back.
public struct Reapplied: Sendable, Equatable, KBlinkSignalBody {
    /// The bindings written.
    public var changes: [ReappliedChange]

    /// A signal as given.
    public init(changes: [ReappliedChange]) {
        self.changes = changes
    }

    /// `(a(usss) changes)`.
    public static let arguments = [DBusArgument("changes", [ReappliedChange].dbusType)]

    /// Reads `(a(usss))`.
    /// - Throws: ``DBusError`` (`InvalidArgs`) for another shape.
    public init(body: [DBusValue]) throws {
        var reader = DBusValueReader(body)
        self.init(changes: try reader.next([ReappliedChange].self))
        guard reader.isAtEnd else { throw DBusError.invalidArgs("Reapplied carries (a(usss))") }
    }

    /// `[changes]`.
    public var body: [DBusValue] { [changes.dbusValue] }
}
