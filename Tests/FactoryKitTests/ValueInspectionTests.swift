import Testing

@testable import FactoryKit

/// Whether a new value is `nil` is decided from the type's metadata, without a dynamic cast for
/// types that cannot hold `nil`; the answers must be those of the cast.
@Suite
struct ValueInspectionTests {
    protocol Shape {}
    struct Square: Shape {}
    final class Circle: Shape {}

    @Test func onlyOptionalsAndAnyMayBeNil() {
        #expect(ValueInspection.mayBeNil(Int?.self))
        #expect(ValueInspection.mayBeNil(Int??.self))
        #expect(ValueInspection.mayBeNil(Circle?.self))
        #expect(ValueInspection.mayBeNil(Any.self))
        #expect(!ValueInspection.mayBeNil(Int.self))
        #expect(!ValueInspection.mayBeNil(String.self))
        #expect(!ValueInspection.mayBeNil(Circle.self))
        #expect(!ValueInspection.mayBeNil((any Shape).self))
        #expect(!ValueInspection.mayBeNil([Int?].self))
        #expect(!ValueInspection.mayBeNil(Optional<Int>.Type.self))
    }

    @Test func nilIsFoundAtAnyDepthAndInsideAny() {
        #expect(ValueInspection.isNil(Int?.none))
        #expect(ValueInspection.isNil(Int??.none))
        #expect(ValueInspection.isNil(Int?.none as Any))
        #expect(!ValueInspection.isNil(Int?.some(1)))
        #expect(!ValueInspection.isNil(1))
        #expect(!ValueInspection.isNil(Circle()))
        #expect(!ValueInspection.isNil(Square() as any Shape))
        #expect(!ValueInspection.isNil([Int?.none]))
    }

    @Test func objectsAreFoundThroughOptionalsAndExistentials() {
        let circle = Circle()
        #expect(ValueInspection.object(in: circle) === circle)
        #expect(ValueInspection.object(in: Circle?.some(circle)) === circle)
        #expect(ValueInspection.object(in: circle as any Shape) === circle)
        #expect(ValueInspection.object(in: Circle?.none) == nil)
        #expect(ValueInspection.object(in: Square() as any Shape) == nil)
        #expect(ValueInspection.object(in: 3) == nil)
    }
}
