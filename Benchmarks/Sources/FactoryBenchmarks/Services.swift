import FactoryKit

// The object graphs the scenarios build, and their FactoryKit wiring. The hand-written side of
// each scenario (Scenarios.swift) builds exactly the same objects with direct initializer calls.

final class SmallService: @unchecked Sendable {
    let value: Int
    init(value: Int = 1) { self.value = value }
}

final class SharedService: @unchecked Sendable {
    let value = 2
}

// S3: ten services with mixed scopes.
//   Root(unique) -> A(unique) -> D(unique) -> F(graph)
//                            -> E(unique) -> F(graph, the same F)
//                -> B(cached) -> C(singleton)
//                -> H(unique) -> G(singleton)
//                             -> I(unique)
final class GraphC: @unchecked Sendable {}
final class GraphG: @unchecked Sendable {}
final class GraphF: @unchecked Sendable {}
final class GraphI: @unchecked Sendable {}
final class GraphB: @unchecked Sendable {
    let c: GraphC
    init(c: GraphC) { self.c = c }
}
final class GraphD: @unchecked Sendable {
    let f: GraphF
    init(f: GraphF) { self.f = f }
}
final class GraphE: @unchecked Sendable {
    let f: GraphF
    init(f: GraphF) { self.f = f }
}
final class GraphA: @unchecked Sendable {
    let d: GraphD
    let e: GraphE
    init(d: GraphD, e: GraphE) {
        self.d = d
        self.e = e
    }
}
final class GraphH: @unchecked Sendable {
    let g: GraphG
    let i: GraphI
    init(g: GraphG, i: GraphI) {
        self.g = g
        self.i = i
    }
}
final class GraphRoot: @unchecked Sendable {
    let a: GraphA
    let b: GraphB
    let h: GraphH
    init(a: GraphA, b: GraphB, h: GraphH) {
        self.a = a
        self.b = b
        self.h = h
    }
}

// S4
final class ParameterService: @unchecked Sendable {
    let id: Int
    init(id: Int) { self.id = id }
}

// S6
protocol Greeting: AnyObject, Sendable {}
final class LiveGreeting: Greeting, @unchecked Sendable {}
final class MockGreeting: Greeting, @unchecked Sendable {}

// S7
final class InjectedHolder: @unchecked Sendable {
    @Injected(\.smallService) var service
}

extension Container {
    var smallService: Factory<SmallService> { self { SmallService() } }
    var sharedService: Factory<SharedService> { self { SharedService() }.singleton }

    var graphRoot: Factory<GraphRoot> { self { GraphRoot(a: self.graphA(), b: self.graphB(), h: self.graphH()) } }
    var graphA: Factory<GraphA> { self { GraphA(d: self.graphD(), e: self.graphE()) } }
    var graphB: Factory<GraphB> { self { GraphB(c: self.graphC()) }.cached }
    var graphC: Factory<GraphC> { self { GraphC() }.singleton }
    var graphD: Factory<GraphD> { self { GraphD(f: self.graphF()) } }
    var graphE: Factory<GraphE> { self { GraphE(f: self.graphF()) } }
    var graphF: Factory<GraphF> { self { GraphF() }.graph }
    var graphG: Factory<GraphG> { self { GraphG() }.singleton }
    var graphH: Factory<GraphH> { self { GraphH(g: self.graphG(), i: self.graphI()) } }
    var graphI: Factory<GraphI> { self { GraphI() } }

    var asyncSharedService: AsyncFactory<SharedService> { self { SharedService() }.singleton }

    // S10: a singleton whose definition also names a launch-argument override, not active here.
    var argumentSingleton: Factory<SharedService> {
        self { SharedService() }.singleton.onArg("-benchmark-mock") { SharedService() }
    }

    var parameterService: ParameterFactory<Int, ParameterService> { self { ParameterService(id: $0) } }

    var greeting: Factory<any Greeting> {
        self { LiveGreeting() }.decorator { decorate($0) }
    }

    // S9: ten factories a test overrides.
    var override0: Factory<SmallService> { self { SmallService(value: 0) } }
    var override1: Factory<SmallService> { self { SmallService(value: 1) } }
    var override2: Factory<SmallService> { self { SmallService(value: 2) } }
    var override3: Factory<SmallService> { self { SmallService(value: 3) } }
    var override4: Factory<SmallService> { self { SmallService(value: 4) } }
    var override5: Factory<SmallService> { self { SmallService(value: 5) } }
    var override6: Factory<SmallService> { self { SmallService(value: 6) } }
    var override7: Factory<SmallService> { self { SmallService(value: 7) } }
    var override8: Factory<SmallService> { self { SmallService(value: 8) } }
    var override9: Factory<SmallService> { self { SmallService(value: 9) } }
}

/// The decorator of S6, on both sides: it looks at the value, as decorators do.
@inline(never)
func decorate(_ greeting: any Greeting) {
    decorated.value &+= 1
}

final class DecorationCount: @unchecked Sendable {
    var value = 0
}

let decorated = DecorationCount()
