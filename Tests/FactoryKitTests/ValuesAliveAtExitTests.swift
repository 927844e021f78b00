import Foundation
import Testing

@testable import FactoryKit

/// A container that lives until the process exits, with a value in each kind of cache slot.
private final class ExitContainer: SharedContainer, @unchecked Sendable {
    static let shared = ExitContainer()
    let manager = ContainerManager()

    var sharedValue: Factory<ExitValue> { self { ExitValue() }.shared }
    var cachedValue: Factory<ExitValue> { self { ExitValue() }.cached }
}

private final class ExitValue: Sendable {}

/// Whether the memory of `value` holds the address of `object` as a plain word, where
/// LeakSanitizer's scan of reachable memory finds it.
private func holdsPlainPointer<Value>(_ value: Value, to object: AnyObject) -> Bool {
    let address = UInt(bitPattern: Int(bitPattern: ObjectIdentifier(object)))
    return withUnsafeBytes(of: value) { bytes in
        stride(from: 0, through: bytes.count - MemoryLayout<UInt>.size, by: MemoryLayout<UInt>.alignment).contains {
            bytes.loadUnaligned(fromByteOffset: $0, as: UInt.self) == address
        }
    }
}

/// Values a cache still holds when the process exits are reachable, not leaked. LeakSanitizer
/// (`.ci/check-asan`) reported the `WeakBox` of every `shared` value still cached at exit: the
/// cache kept the box's pointer with its enum case in the pointer's spare bits, where the scan
/// sees no pointer.
@Suite
struct ValuesAliveAtExitTests {
    /// Kept until exit, so the `shared` slot's value lives as long as the container.
    nonisolated(unsafe) static var kept: [AnyObject] = []

    @Test func aCacheSlotKeepsEachObjectsAddressAsAPlainWord() {
        let value = ExitValue()
        let weak = WeakBox(value)
        let strong = ValueBox(value)
        let flight = InFlight(owner: ResolutionChain.current, frameIndex: nil, label: "exit")
        let slots: [(CacheSlot?, AnyObject)] = [
            (.value(touched: 1, .weak(weak)), weak),
            (.value(touched: 1, .strong(strong)), strong),
            (.value(touched: 1, .released(strong)), strong),
            (.pending(flight), flight),
        ]
        for (slot, object) in slots {
            #expect(holdsPlainPointer(slot, to: object), "\(String(describing: slot))")
        }
        // What a `@LazyInjected` property keeps.
        #expect(holdsPlainPointer(LazyStorage<ExitValue>.State.resolved(value), to: value))
        #expect(holdsPlainPointer(LazyStorage<ExitValue>.State.resolving(flight), to: flight))
    }

    /// Ends the process with values cached, for the AddressSanitizer run's leak check.
    @Test func valuesCachedUntilExitStayCached() {
        let shared = ExitContainer.shared.sharedValue()
        let cached = ExitContainer.shared.cachedValue()
        Self.kept = [shared, cached]
        #expect(ExitContainer.shared.sharedValue() === shared)
        #expect(ExitContainer.shared.cachedValue() === cached)
    }
}
