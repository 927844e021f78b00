#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The text of a string literal in one word: a pointer to its NUL-terminated UTF-8 bytes.
///
/// `StaticString` takes three words. Keeping one instead keeps ``FactoryRegistration`` small
/// enough for the compiler to copy and destroy it inline rather than through the runtime's value
/// witnesses, which costs more than the rest of a cache hit. The rare literal `StaticString` keeps
/// as a single Unicode scalar (a one-character key) is copied once into memory that is never freed.
@usableFromInline
struct LiteralText: Hashable, @unchecked Sendable {
    @usableFromInline let start: UnsafePointer<CChar>

    @inlinable
    init(_ text: StaticString) {
        if text.hasPointerRepresentation {
            start = UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
        } else {
            start = LiteralText.intern(text.unicodeScalar)
        }
    }

    /// Text at `start`, which must stay valid and unchanged for the rest of the process.
    init(start: UnsafePointer<CChar>) {
        self.start = start
    }

    /// The text of a one-scalar literal, copied once per distinct scalar.
    @usableFromInline
    static func intern(_ scalar: Unicode.Scalar) -> UnsafePointer<CChar> {
        interned.withLock { table in
            if let existing = table[scalar] { return UnsafePointer(existing) }
            let bytes = Array(String(scalar).utf8CString)
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
            copy.initialize(from: bytes, count: bytes.count)
            table[scalar] = copy
            return UnsafePointer(copy)
        }
    }

    private static let interned = Locked<[Unicode.Scalar: UnsafeMutablePointer<CChar>]>([:])

    /// Equal text, wherever it lives: two images may hold separate copies of `"service"`.
    @usableFromInline
    static func == (lhs: LiteralText, rhs: LiteralText) -> Bool {
        lhs.start == rhs.start || strcmp(lhs.start, rhs.start) == 0
    }

    /// Reads the length and two bytes, so equal text hashes equally wherever it lives.
    @usableFromInline
    func hash(into hasher: inout Hasher) {
        hasher.combine(textHash)
    }

    /// The length and the first and last bytes, mixed: what `hash(into:)` feeds the hasher.
    var textHash: Int {
        let count = strlen(start)
        return count == 0 ? 0 : count &* 65_599 &+ Int(start[0]) &* 257 &+ Int(start[count - 1])
    }

    var string: String { String(cString: start) }
}

/// Identifies a factory inside one container: its result type, parameter type and name.
///
/// Two keys are equal when their types match and their names have the same text, wherever the
/// literals live in memory.
@usableFromInline
struct FactoryKey: Hashable, @unchecked Sendable {
    @usableFromInline let result: ObjectIdentifier
    @usableFromInline let parameter: ObjectIdentifier
    @usableFromInline let name: LiteralText

    @inlinable
    init<P, T>(_ name: LiteralText, parameter: P.Type, result: T.Type) {
        self.init(name, parameter: ObjectIdentifier(P.self), result: ObjectIdentifier(T.self))
    }

    @inlinable
    init(_ name: LiteralText, parameter: ObjectIdentifier, result: ObjectIdentifier) {
        self.result = result
        self.parameter = parameter
        self.name = name
    }

    /// The types and the name's text mixed into one word first, so the hasher runs one round
    /// instead of three: a new container hashes each key it registers.
    @usableFromInline
    func hash(into hasher: inout Hasher) {
        let result = UInt(bitPattern: Int(bitPattern: self.result))
        let parameter = UInt(bitPattern: Int(bitPattern: self.parameter))
        hasher.combine((result ^ parameter &* 31) &+ UInt(bitPattern: name.textHash))
    }
}

/// Where a factory was defined, used to keep apart singletons whose factories merely share a name
/// and type (two container types each defining `logger`), while one definition in a
/// `SharedContainer` extension still gives one singleton to every container type.
@usableFromInline
struct DefinitionSite: Hashable, @unchecked Sendable {
    @usableFromInline let file: LiteralText
    @usableFromInline let line: UInt

    @inlinable
    init(file: LiteralText, line: UInt) {
        self.file = file
        self.line = line
    }

    /// `path:line`, as messages and compilers write a location.
    var location: String { "\(file.string):\(line)" }

    // Spelled out so it inlines: the synthesized one is a call, and a call inside a locked
    // section makes the optimizer retain everything the section reads.
    @usableFromInline
    static func == (lhs: DefinitionSite, rhs: DefinitionSite) -> Bool {
        lhs.line == rhs.line && lhs.file == rhs.file
    }

    @usableFromInline
    func hash(into hasher: inout Hasher) {
        hasher.combine(line)
        hasher.combine(file)
    }
}

/// A definition's line and its `once` flag in one word, which keeps a registration small enough
/// for the compiler to copy inline (see ``FactoryRegistration``).
@usableFromInline
struct LineAndOnce {
    @usableFromInline var bits: UInt

    @inlinable
    init(line: UInt) { bits = line &<< 1 }

    @inlinable
    var line: UInt { bits &>> 1 }

    @inlinable
    var once: Bool {
        get { bits & 1 == 1 }
        set { bits = newValue ? bits | 1 : bits & ~1 }
    }
}

/// Where a registration was defined and its `once` flag, kept as two words; both kinds of
/// registration get their `site` and `once` from here.
@usableFromInline
protocol DefinitionWords {
    var file: LiteralText { get }
    var lineAndOnce: LineAndOnce { get set }
}

extension DefinitionWords {
    @inlinable
    var site: DefinitionSite { DefinitionSite(file: file, line: lineAndOnce.line) }

    /// Set on the value `.once()` returns; see ``FactoryModifying/once()``.
    @inlinable
    var once: Bool {
        get { lineAndOnce.once }
        set { lineAndOnce.once = newValue }
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
