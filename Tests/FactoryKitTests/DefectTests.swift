import FactoryKit
import FactoryTesting
import Foundation
import Testing

final class DefectLog: @unchecked Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

/// A parameter whose instances all hash alike, to catch caches keyed on `hashValue` alone.
struct CollidingParameter: Hashable, Sendable {
    let value: Int
    func hash(into hasher: inout Hasher) { hasher.combine(0) }
}

final class DefectLeakContainer: ManagedContainer {
    let manager = ContainerManager()
    var defectService: Factory<String> { self { "service" } }
    var defectClient: Factory<String> { self { "client of \(self.defectService())" } }
}

final class DefectLazyLoop: @unchecked Sendable {
    @LazyInjected(\.defectLoop) var loop
}

/// One wrapper whose factory reads that same wrapper.
let defectLoopHolder = DefectLazyLoop()

extension Container {
    var defectGreeter: Factory<any Greeting> { self { Greeter("old") } }
    var defectLogger: Factory<DefectLog> { self { DefectLog("definition") }.singleton }
    var defectColliding: ParameterFactory<CollidingParameter, Counted> {
        self { _ in Counted(Counter()) }.cached.scopeOnParameters
    }
    var defectLoop: Factory<Int> { self { defectLoopHolder.loop } }
}

/// One test for each defect of the reference implementation listed in API.md §17 that is not
/// covered where its feature is tested (D1, D2, D8, D9 in ConcurrencyTests; D3 in CycleTests;
/// D4 and D6 in ScopeTests; D18 in PropertyWrapperTests).
@Suite(.container)
struct DefectTests {
    @Test func d5RegisterInvalidatesAValueCachedThroughTheDefaultScope() {
        Container.shared.manager.defaultScope = .cached
        #expect(Container.shared.defectGreeter().text == "old")
        Container.shared.defectGreeter.register { MockGreeter("new") }
        #expect(Container.shared.defectGreeter().text == "new")
    }

    @Test func d5RegisterInvalidatesADefaultSingleton() {
        Container.shared.manager.defaultScope = Scope.singleton
        #expect(Container.shared.defectGreeter().text == "old")
        Container.shared.defectGreeter.register { MockGreeter("new") }
        #expect(Container.shared.defectGreeter().text == "new")
    }

    @Test func d7ContainerPassingRegistrationDoesNotLeakTheContainer() {
        weak var released: DefectLeakContainer?
        do {
            let container = DefectLeakContainer()
            container.register(\.defectClient) { container in "mock client of \(container.defectService())" }
            #expect(container.defectClient() == "mock client of service")
            released = container
        }
        #expect(released == nil)
    }

    @Test func d10ScopeOnParametersComparesParametersNotJustHashes() {
        let one = Container.shared.defectColliding(CollidingParameter(value: 1))
        let two = Container.shared.defectColliding(CollidingParameter(value: 2))
        #expect(one !== two)
        #expect(Container.shared.defectColliding(CollidingParameter(value: 1)) === one)
    }

    @Test func d11EqualNamesAtDifferentAddressesAreOneKey() throws {
        // Separately linked images can hold separate copies of the same name; a key must compare
        // and hash by the text. Build such a copy: same bytes, NUL-terminated as every literal is,
        // at another address.
        let original: StaticString = "defectSharedName"
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: original.utf8CodeUnitCount + 1)
        defer { bytes.deallocate() }
        original.withUTF8Buffer { buffer in
            for (index, byte) in buffer.enumerated() { bytes[index] = byte }
        }
        bytes[original.utf8CodeUnitCount] = 0
        // StaticString's layout: start pointer, length, flags (0x2: ASCII, pointer representation).
        let copy = unsafeBitCast(
            (UInt(bitPattern: bytes), UInt(original.utf8CodeUnitCount), UInt8(0x2)), to: StaticString.self)
        try #require(copy.description == original.description)
        try #require(copy.utf8Start != original.utf8Start)

        let container = Container()
        Factory<String>(container, key: original) { "definition" }.register { "registered" }
        #expect(Factory<String>(container, key: copy) { "definition" }() == "registered")
    }

    @Test func d11bOneCharacterKeysHeldAsAScalarAreKeysToo() throws {
        // A `StaticString` can hold one Unicode scalar instead of a pointer to its bytes; such a
        // key must name one factory like any other. Build one: StaticString's layout is the
        // scalar, a zero length and flags (0x1: scalar, 0x2: ASCII).
        let scalar = unsafeBitCast((UInt(0x78), UInt(0), UInt8(0x3)), to: StaticString.self)
        try #require(!scalar.hasPointerRepresentation)
        try #require(scalar.unicodeScalar == "x")
        let container = Container()
        Factory<String>(container, key: scalar) { "definition" }.register { "registered" }
        #expect(
            Factory<String>(container, key: StaticString(unicodeScalarLiteral: "x")) { "definition" }() == "registered")
        #expect(Factory<String>(container, key: "x") { "definition" }() == "registered")
        #expect(Factory<String>(container, key: "y") { "definition" }() == "definition")
    }

    @Test func d12ContextChangesRaceSafelyWithResolutions() {
        let container = Container()
        let factory = Factory<String>(container, key: "defectContext") { "plain" }
            .onArg("defect-race") { "arg" }
        runConcurrently(4) { index in
            for round in 0..<300 {
                if index == 0 {
                    if round.isMultiple(of: 2) {
                        FactoryContext.setArg("defect-race", forKey: "defect-race")
                    } else {
                        FactoryContext.removeArg(forKey: "defect-race")
                    }
                } else {
                    #expect(["plain", "arg"].contains(factory()))
                }
            }
        }
        FactoryContext.removeArg(forKey: "defect-race")
    }

    @Test func d14LazyInjectedReadFromItsOwnResolutionIsACycleNotADeadlock() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = defectLoopHolder.loop
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            message.contains(
                "Dependency cycle: @LazyInjected Container.defectLoop<Int> → Container.defectLoop<Int> → @LazyInjected Container.defectLoop<Int>"
            ), "\(message)")
    }

    @Test func d15RegisteringWithAnotherScopeReplacesTheOldSingleton() {
        let old = Container.shared.defectLogger()
        Container.shared.defectLogger.unique.register { DefectLog("new") }
        let next = Container.shared.defectLogger()
        #expect(next !== old)
        #expect(next.name == "new")
        #expect(Container.shared.defectLogger() === next)
    }
}
