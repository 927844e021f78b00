#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Identifies a factory inside one container: its result type, parameter type and name.
///
/// Two keys are equal when their types match and their names have the same text, wherever the
/// literals live in memory (two images may hold separate copies of `"service"`). The hash reads only
/// the name's length and two of its bytes, so building and hashing a key never walks the string.
@usableFromInline
struct FactoryKey: Hashable, @unchecked Sendable {
    @usableFromInline let result: ObjectIdentifier
    @usableFromInline let parameter: ObjectIdentifier
    @usableFromInline let name: StaticString

    @inlinable
    init<P, T>(_ name: StaticString, parameter: P.Type, result: T.Type) {
        self.result = ObjectIdentifier(T.self)
        self.parameter = ObjectIdentifier(P.self)
        self.name = name
    }

    @inlinable
    static func == (lhs: FactoryKey, rhs: FactoryKey) -> Bool {
        lhs.result == rhs.result && lhs.parameter == rhs.parameter && sameText(lhs.name, rhs.name)
    }

    @inlinable
    func hash(into hasher: inout Hasher) {
        hasher.combine(result)
        hasher.combine(parameter)
        hasher.combine(FactoryKey.textHash(name))
    }

    @inlinable @inline(__always)
    static func sameText(_ lhs: StaticString, _ rhs: StaticString) -> Bool {
        // The usual case, one literal compared with itself, without a call.
        if lhs.hasPointerRepresentation && rhs.hasPointerRepresentation && lhs.utf8Start == rhs.utf8Start {
            return lhs.utf8CodeUnitCount == rhs.utf8CodeUnitCount
        }
        return sameTextSlow(lhs, rhs)
    }

    @usableFromInline
    static func sameTextSlow(_ lhs: StaticString, _ rhs: StaticString) -> Bool {
        if lhs.hasPointerRepresentation && rhs.hasPointerRepresentation {
            guard lhs.utf8CodeUnitCount == rhs.utf8CodeUnitCount else { return false }
            return memcmp(lhs.utf8Start, rhs.utf8Start, lhs.utf8CodeUnitCount) == 0
        }
        return lhs.description == rhs.description
    }

    @inlinable
    static func textHash(_ text: StaticString) -> Int {
        text.withUTF8Buffer { bytes in
            guard let first = bytes.first, let last = bytes.last else { return 0 }
            return bytes.count &* 65_599 &+ Int(first) &* 257 &+ Int(last)
        }
    }
}

/// Where a factory was defined, used to keep apart singletons whose factories merely share a name
/// and type (two container types each defining `logger`), while one definition in a
/// `SharedContainer` extension still gives one singleton to every container type.
@usableFromInline
struct DefinitionSite: Hashable, @unchecked Sendable {
    @usableFromInline let file: StaticString
    @usableFromInline let line: UInt

    @inlinable
    init(file: StaticString, line: UInt) {
        self.file = file
        self.line = line
    }

    @inlinable
    static func == (lhs: DefinitionSite, rhs: DefinitionSite) -> Bool {
        lhs.line == rhs.line && FactoryKey.sameText(lhs.file, rhs.file)
    }

    @inlinable
    func hash(into hasher: inout Hasher) {
        hasher.combine(line)
        hasher.combine(FactoryKey.textHash(file))
    }
}

/// The key of an entry in a `Scope.Singleton` cache.
@usableFromInline
struct SingletonKey: Hashable, Sendable {
    @usableFromInline let factory: FactoryKey
    @usableFromInline let site: DefinitionSite

    @inlinable
    init(factory: FactoryKey, site: DefinitionSite) {
        self.factory = factory
        self.site = site
    }
}
