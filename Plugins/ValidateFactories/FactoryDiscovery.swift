import Foundation

/// A factory found in a symbol graph: a property of a container whose type is one of FactoryKit's
/// four factory types, or a method without parameters returning one.
struct DiscoveredFactory: Hashable, Comparable {
    /// The container type's name, as Swift code names it (`Container`, `Outer.FeatureContainer`).
    let container: String
    /// The property's or the method's name.
    let name: String
    /// Whether it is a method, called rather than named by a key path.
    var isMethod = false

    static func < (lhs: DiscoveredFactory, rhs: DiscoveredFactory) -> Bool {
        (lhs.container, lhs.name, lhs.isMethod ? 1 : 0) < (rhs.container, rhs.name, rhs.isMethod ? 1 : 0)
    }
}

/// Finds every factory declared on `Container` or on a type conforming to `SharedContainer`,
/// in the symbol graphs of an app's modules.
struct FactoryDiscovery {
    /// FactoryKit's `Container` class and `SharedContainer` protocol, as symbol graphs name them.
    static let containerIdentifier = "s:10FactoryKit9ContainerC"
    static let sharedContainerIdentifier = "s:10FactoryKit15SharedContainerP"
    /// The factory types a manifest lists, all declared in FactoryKit.
    static let factoryTypes: Set<String> = ["Factory", "ParameterFactory", "AsyncFactory", "AsyncParameterFactory"]

    /// The factories found, sorted and each once.
    private(set) var factories: [DiscoveredFactory] = []
    /// Declarations that look like factories but cannot be listed, each with where it is and what
    /// to do about it.
    private(set) var unsupported: [String] = []
    /// Where each factory found is declared, as an absolute `path:line`, by `Container.name` (the
    /// factory's owner and name, without its type).
    private(set) var places: [String: String] = [:]

    /// Discovers the factories in `graphs`; messages name files relative to `root`, the package's folder.
    init(graphs: [SymbolGraph], root: String) {
        let symbols = Dictionary(
            graphs.flatMap(\.symbols).map { ($0.identifier.precise, $0) }, uniquingKeysWith: { first, _ in first })
        let relationships = graphs.flatMap(\.relationships)
        // Containers declared in the app's modules: the types conforming to SharedContainer.
        var containers = [Self.containerIdentifier: "Container"]
        for relationship in relationships
        where relationship.kind == "conformsTo" && relationship.target == Self.sharedContainerIdentifier {
            if let type = symbols[relationship.source] {
                containers[relationship.source] = type.pathComponents.joined(separator: ".")
            }
        }
        let everyContainer = Set(containers.values)
        var found: Set<DiscoveredFactory> = []
        var unsupported: Set<String> = []
        var places: [String: String] = [:]
        for relationship in relationships where relationship.kind == "memberOf" {
            guard let symbol = symbols[relationship.source], let property = symbol.pathComponents.last else { continue }
            let owners: Set<String>
            if relationship.target == Self.sharedContainerIdentifier {
                owners = everyContainer
            } else if let container = containers[relationship.target] {
                owners = [container]
            } else {
                continue
            }
            switch symbol.kind.identifier {
            case "swift.property" where Self.isFactory(Self.declaredType(of: symbol)):
                for owner in owners {
                    found.insert(DiscoveredFactory(container: owner, name: property))
                    places["\(owner).\(property)"] = Self.absolutePlace(of: symbol)
                }
            case "swift.type.property" where Self.isFactory(Self.declaredType(of: symbol)):
                unsupported.insert(
                    "\(Self.place(of: symbol, root: root)): static \(symbol.pathComponents.joined(separator: ".")) is a factory "
                        + "on the container type, not on a container: a manifest cannot list it. Declare it as an "
                        + "instance property in an extension of the container, or validate what it resolves by hand.")
            case "swift.method" where Self.isFactory(symbol.functionSignature?.returns ?? []):
                let takesArguments = !(symbol.functionSignature?.parameters ?? []).isEmpty
                let isMainActor = (symbol.declarationFragments ?? []).map(\.spelling).joined().contains("@MainActor")
                guard takesArguments || isMainActor else {
                    let name = String(property.prefix { $0 != "(" })
                    for owner in owners {
                        found.insert(DiscoveredFactory(container: owner, name: name, isMethod: true))
                        places["\(owner).\(name)"] = Self.absolutePlace(of: symbol)
                    }
                    continue
                }
                unsupported.insert(
                    "\(Self.place(of: symbol, root: root)): \(symbol.pathComponents.joined(separator: ".")) is a method-style "
                        + (takesArguments
                            ? "factory that takes arguments, which validation cannot invent, so the manifest cannot list it. "
                                + "Make it a ParameterFactory, or validate a factory that calls it."
                            : "factory isolated to the main actor, which the manifest cannot call. Declare it as a computed "
                                + "property."))
            default:
                continue
            }
        }
        self.factories = found.sorted()
        self.unsupported = unsupported.sorted()
        self.places = places
    }

    /// The fragments of a property's type: what follows its name and the colon.
    static func declaredType(of symbol: SymbolGraph.Symbol) -> [SymbolGraph.Fragment] {
        let fragments = symbol.declarationFragments ?? []
        guard let name = fragments.firstIndex(where: { $0.kind == "identifier" }) else { return [] }
        return Array(
            fragments[(name + 1)...].drop {
                $0.kind == "text" && $0.spelling.trimmingCharacters(in: .whitespaces) == ":"
            })
    }

    /// Whether a type, as fragments, is one of FactoryKit's factory types itself (not an optional
    /// or an array of one).
    static func isFactory(_ type: [SymbolGraph.Fragment]) -> Bool {
        guard let first = type.first, first.kind == "typeIdentifier", factoryTypes.contains(first.spelling),
            first.preciseIdentifier?.hasPrefix("s:10FactoryKit") == true
        else { return false }
        // The type ends where the declaration does, or at the accessor block `{ get }`.
        let rest = type.dropFirst().map(\.spelling).joined()
        let tail = rest.drop { $0 != "{" }
        let generic = rest.prefix(rest.count - tail.count).trimmingCharacters(in: .whitespaces)
        return generic.hasPrefix("<") && generic.hasSuffix(">")
    }

    /// `/path/to/Package/Sources/Module/File.swift:12`, where a symbol is declared, as compilers
    /// name a place in their messages; nil if the symbol graph does not say.
    static func absolutePlace(of symbol: SymbolGraph.Symbol) -> String? {
        guard let location = symbol.location, let url = URL(string: location.uri) else { return nil }
        return "\(url.path):\(location.position.line + 1)"
    }

    /// `Sources/Module/File.swift:12`, where a symbol is declared, for messages: relative to the
    /// package, so the manifest reads the same on every machine.
    static func place(of symbol: SymbolGraph.Symbol, root: String) -> String {
        guard let location = symbol.location, let url = URL(string: location.uri) else {
            return symbol.pathComponents.joined(separator: ".")
        }
        let path = url.path.hasPrefix(root + "/") ? String(url.path.dropFirst(root.count + 1)) : url.path
        return "\(path):\(location.position.line + 1)"
    }
}
