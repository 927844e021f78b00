import Dispatch

/// A value a scope holds, strongly or (for `shared`) weakly.
///
/// One plain reference, not an enum with a payload per case: an enum keeps its case in spare bits
/// of the payload's pointer, where LeakSanitizer sees no pointer, and it reported the box of every
/// `shared` value still cached at exit as leaked. The object tells the kind.
@usableFromInline
struct StoredValue: @unchecked Sendable {
    /// The value's `ValueBox`, or the `WeakBox` of a `shared` value; in a drained cache's list
    /// only, an object that is not a value (see `released(_:)`).
    let object: AnyObject

    static func strong(_ box: AnyObject) -> StoredValue { StoredValue(object: box) }
    static func weak(_ box: WeakBox) -> StoredValue { StoredValue(object: box) }
    /// Not a value: what a drained cache held besides its values (its table of parameter keys),
    /// handed over with them only to be released after the lock. Never cached.
    static func released(_ object: AnyObject) -> StoredValue { StoredValue(object: object) }

    /// The `WeakBox` of a `shared` value.
    var weakBox: WeakBox? {
        ObjectIdentifier(type(of: object)) == ObjectIdentifier(WeakBox.self)
            ? unsafeDowncast(object, to: WeakBox.self) : nil
    }

    /// The value if it is still held: its `ValueBox` (`boxed`), or the object a `shared` slot
    /// holds weakly while it lives.
    var held: (object: AnyObject, boxed: Bool)? {
        guard let weakBox else { return (object, true) }
        return weakBox.object.map { ($0, false) }
    }

    /// The value if it conforms to ``Shutdownable``, with its creation order.
    var shutdownable: (order: UInt64, instance: any Shutdownable)? {
        if let weakBox {
            guard let instance = weakBox.object as? any Shutdownable else { return nil }
            return (weakBox.order, instance)
        }
        guard let instance = (object as? AnyValueBox)?.anyValue as? any Shutdownable else { return nil }
        return ((object as? any OrderedBox)?.creationOrder ?? 0, instance)
    }
}

extension StoredValue {
    /// How a scope keeps a new value: strongly, weakly (`shared`, class instances only) or not at
    /// all (`nil`, which is never cached).
    @usableFromInline
    static func make<T>(_ value: T, in scope: Scope, describing factory: @autoclosure () -> String) -> StoredValue? {
        if scope.kind == .shared {
            if let object = ValueInspection.object(in: value) {
                let box = WeakBox(object)
                box.order = ScopedShutdown.nextOrder()
                return .weak(box)
            }
            if !ValueInspection.isNil(value) { Scope.Shared.warnValueType(factory()) }
            return nil
        }
        guard !ValueInspection.isNil(value) else { return nil }
        let box = ValueBox(value)
        box.order = ScopedShutdown.nextOrder()
        return .strong(box)
    }
}

/// One cache slot of a scope: a value with the time it was last used, or a creation in flight.
@usableFromInline
enum CacheSlot: @unchecked Sendable {
    // The time comes first: a word with no spare bits, so the enum keeps its case in the second
    // word's and neither case's object pointer carries it. LeakSanitizer finds a value's box or
    // a creation's flight only at an address it can read as one (`ValuesAliveAtExitTests`).
    case value(touched: UInt64, StoredValue)
    case pending(Flight)

    /// Whether the slot holds a finished value (snapshots and clones keep only those).
    var isValue: Bool {
        if case .value = self { return true }
        return false
    }
}

/// What a resolution does after looking at a slot: a synchronous one's `Reservation` is an
/// `InFlight`, an asynchronous one's an `AsyncFlightBase`.
@usableFromInline
enum SlotLookup<Reservation: Flight> {
    /// The scope had a live value: its `ValueBox`, or (for `shared`) the object itself, held
    /// strongly from here on.
    case hit(AnyObject, boxed: Bool)
    /// This resolution reserved the slot and must create the value, then publish it.
    case create(Reservation)
    /// Another resolution is creating the value; wait for it (an asynchronous one joins it).
    case wait(Reservation)

    var isHit: Bool {
        if case .hit = self { return true }
        return false
    }
}

/// The value of a hit: unboxed from its `ValueBox`, or the object a `shared` slot held.
func hitValue<T>(_ object: AnyObject, boxed: Bool, as type: T.Type) -> T {
    boxed ? unsafeDowncast(object, to: ValueBox<T>.self).value : object as! T
}

/// Monotonic nanoseconds, for time-to-live checks; immune to wall-clock changes.
func monotonicNanoseconds() -> UInt64 {
    DispatchTime.now().uptimeNanoseconds
}

extension Optional where Wrapped == CacheSlot {
    /// The value the slot holds if it is still live: not expired (a hit slides its time to live)
    /// and, for a weak value, not released. `boxed` tells whether the object is a `ValueBox`.
    mutating func liveValue(timeToLive: UInt64?) -> (object: AnyObject, boxed: Bool)? {
        guard case .value(let touched, let stored)? = self else { return nil }
        if let timeToLive {
            let now = monotonicNanoseconds()
            guard touched &+ timeToLive > now else { return nil }
            self = .value(touched: now, stored)
        }
        return stored.held
    }

    /// Looks the slot up, reserving it for creation when it is empty or expired. Runs under the lock
    /// of whoever owns the slot; `reserve` only allocates the in-flight record.
    mutating func lookup<Reservation>(timeToLive: UInt64?, reserve: () -> Reservation) -> SlotLookup<Reservation> {
        var expired: StoredValue?
        switch self {
        case .value(_, let stored)?:
            if let (object, boxed) = liveValue(timeToLive: timeToLive) { return .hit(object, boxed: boxed) }
            if stored.weakBox == nil { expired = stored }  // a dead weak value holds nothing
        case .pending(let flight)?:
            // A factory's key is resolved either synchronously or asynchronously, never both.
            guard let flight = flight as? Reservation else {
                preconditionFailure("FactoryKit: a synchronous and an asynchronous resolution met in one cache slot")
            }
            return .wait(flight)
        case nil:
            break
        }
        let flight = reserve()
        // Released with the flight, not under the lock this runs under.
        if let expired { flight.replaced.append(expired) }
        self = .pending(flight)
        return .create(flight)
    }

    /// Publishes a created value (or, with `nil`, drops the creation) into the slot this
    /// resolution reserved. A slot that was reset meanwhile no longer holds `flight`, and the
    /// value is handed to its waiters but not cached.
    mutating func publish(_ stored: StoredValue?, for flight: Flight, timestamp: UInt64) {
        guard case .pending(let reserved)? = self, reserved === flight else { return }
        self = stored.map { .value(touched: timestamp, $0) }
    }
}

/// The cache slots of one factory in one scope: a single slot, or one per parameter value for
/// factories scoped with `scopeOnParameters` (see `ParameterTable`, which is looked up with no
/// lock held).
@usableFromInline
struct SlotGroup {
    @usableFromInline var slot: CacheSlot?
    var parameters: ParameterTable?

    init() {}

    var isEmpty: Bool { slot == nil && parameters?.isEmpty ?? true }

    /// The strongly held value of the parameterless slot, if it has one: the whole of a hit for
    /// a factory without `scopeOnParameters` or a time to live. Reads without copying the slot.
    var strongValue: AnyObject? {
        guard case .value(_, let stored)? = slot, stored.weakBox == nil else { return nil }
        return stored.object
    }

    /// The parameterless slot's value if it holds a live one, as a hit without a time to live
    /// finds it: a `ValueBox`, or the object a `shared` slot holds weakly.
    var heldValue: (object: AnyObject, boxed: Bool)? {
        guard case .value(_, let stored)? = slot else { return nil }
        return stored.held
    }

    mutating func lookup<Reservation>(parameter: ParameterSlot?, timeToLive: UInt64?, reserve: () -> Reservation)
        -> SlotLookup<Reservation>
    {
        guard let parameter else { return slot.lookup(timeToLive: timeToLive, reserve: reserve) }
        return parameter.slot.lookup(timeToLive: timeToLive, reserve: reserve)
    }

    mutating func publish(_ stored: StoredValue?, parameter: ParameterSlot?, for flight: Flight, timestamp: UInt64) {
        if let parameter {
            parameter.slot.publish(stored, for: flight, timestamp: timestamp)
        } else {
            slot.publish(stored, for: flight, timestamp: timestamp)
        }
    }

    /// Empties the group and hands over the values it held, with its table of parameter keys,
    /// for shutting down or for releasing once no lock is held.
    @usableFromInline
    mutating func drain() -> [StoredValue] {
        var values: [StoredValue] = []
        if case .value(_, let stored)? = slot { values.append(stored) }
        slot = nil
        if let parameters {
            for case .value(_, let stored)? in parameters.slots.values.map(\.slot) { values.append(stored) }
            values.append(.released(parameters))
            self.parameters = nil
        }
        return values
    }

    /// A copy with only finished values, for snapshots and singleton clones. The copy's table has
    /// the same keys in new slots, made without hashing or comparing a key.
    var settled: SlotGroup {
        var copy = SlotGroup()
        if let slot, slot.isValue { copy.slot = slot }
        if let parameters {
            copy.parameters = ParameterTable(
                parameters.slots.mapValues { original in
                    let slot = ParameterSlot()
                    if let value = original.slot, value.isValue { slot.slot = value }
                    return slot
                })
        }
        return copy
    }
}
