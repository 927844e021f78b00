#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One step of a resolution in progress: a factory whose closure is running, or whose in-flight
/// creation this thread waits for.
@usableFromInline
struct ResolutionFrame {
    @usableFromInline let container: ObjectIdentifier
    @usableFromInline let containerType: Any.Type
    @usableFromInline let key: FactoryKey
    @usableFromInline let resultType: Any.Type
    /// Where the factory is defined, for a cycle's message.
    @usableFromInline let site: DefinitionSite
    /// The parameter, when the factory takes one and it is `Hashable`; recorded only where cycle
    /// detection looks at it, so shallow resolutions never pay for the conversion.
    @usableFromInline let parameter: FrameParameter?
    @usableFromInline let isParameterized: Bool

    init(
        container: ObjectIdentifier, containerType: Any.Type, key: FactoryKey, resultType: Any.Type,
        site: DefinitionSite, parameter: FrameParameter?, isParameterized: Bool
    ) {
        self.container = container
        self.containerType = containerType
        self.key = key
        self.resultType = resultType
        self.site = site
        self.parameter = parameter
        self.isParameterized = isParameterized
    }

    var description: String {
        Diagnostics.describe(container: containerType, name: key.name, result: resultType)
    }

    /// The frames' definitions, `path:line` by description, for a cycle's message.
    static func sites(of frames: some Sequence<ResolutionFrame>) -> [String: String] {
        Dictionary(frames.map { ($0.description, $0.site.location) }) { first, _ in first }
    }

    /// Whether two frames resolve the same thing: same container instance, factory and parameter.
    func isSameResolution(as other: ResolutionFrame, parametersMustBeKnown: Bool) -> Bool {
        guard container == other.container, key == other.key else { return false }
        guard isParameterized else { return true }
        guard let parameter, let otherParameter = other.parameter else { return !parametersMustBeKnown }
        return parameter.value == otherParameter.value
    }
}

/// The frames of a chain, innermost last: a buffer that a push and a pop fill and empty without
/// an array's uniqueness checks (an array cost a unique resolve about 146 instructions). Frames
/// are initialized and deinitialized in place, so their parameters are retained and released as
/// in any Swift value. Only its chain's thread touches it.
@usableFromInline
struct FrameStack {
    @usableFromInline var base: UnsafeMutablePointer<ResolutionFrame>
    @usableFromInline var count = 0
    @usableFromInline var capacity = 16

    init() {
        base = .allocate(capacity: capacity)
    }

    var isEmpty: Bool { count == 0 }

    var last: ResolutionFrame? { count == 0 ? nil : base[count - 1] }

    subscript(index: Int) -> ResolutionFrame {
        precondition(index >= 0 && index < count, "FactoryKit: frame index out of range")
        return base[index]
    }

    /// The index of the innermost frame that satisfies `predicate`.
    func lastIndex(where predicate: (ResolutionFrame) -> Bool) -> Int? {
        var index = count
        while index > 0 {
            index -= 1
            if predicate(base[index]) { return index }
        }
        return nil
    }

    /// The frames as an array, for messages and the wait graph.
    var array: [ResolutionFrame] { Array(UnsafeBufferPointer(start: base, count: count)) }

    mutating func append(_ frame: ResolutionFrame) {
        if count == capacity { grow() }
        (base + count).initialize(to: frame)
        count += 1
    }

    /// Removes the innermost frame.
    mutating func removeLast() {
        count -= 1
        (base + count).deinitialize(count: 1)
    }

    mutating func grow() {
        let larger = UnsafeMutablePointer<ResolutionFrame>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
    }

    /// Gives the buffer back; the chain's thread is exiting.
    func deallocate() {
        base.deinitialize(count: count)
        base.deallocate()
    }
}

/// A frame's parameter, boxed; see ``ResolutionFrame/parameter``.
@usableFromInline
final class FrameParameter {
    @usableFromInline let value: AnyHashable

    @usableFromInline
    init(_ value: AnyHashable) { self.value = value }

    /// Whether two optional parameters are equal, comparing values only when both have one.
    static func same(_ lhs: FrameParameter?, _ rhs: FrameParameter?) -> Bool {
        guard let lhs else { return rhs == nil }
        guard let rhs else { return false }
        return lhs.value == rhs.value
    }

    /// The parameter, boxed, when it is `Hashable`.
    @usableFromInline
    static func box<P>(_ parameter: P) -> FrameParameter? {
        (parameter as? AnyHashable).map(FrameParameter.init)
    }
}

/// The state of the synchronous resolution running on the current thread.
///
/// A synchronous resolution never leaves its thread, so its state is thread-local: nothing here is
/// locked except the two wait-graph fields, which other threads read to detect cycles across
/// threads. It holds the stack used for cycle detection, the `graph` scope's values (which live
/// exactly as long as the outermost resolution) and the pending trace lines.
@usableFromInline
final class ResolutionChain: @unchecked Sendable {
    /// Below this depth pushes are not checked for cycles (unless the trace or a graph recording
    /// watches): a cycle repeats, so it is still caught a few levels later, and shallow
    /// resolutions skip the scan.
    @usableFromInline static let detectionDepth = 8
    /// A resolution nested deeper than this is reported as a probable cycle instead of being
    /// allowed to overflow the stack (a cycle through a non-`Hashable` parameter looks like this).
    static let maximumDepth = 200

    // Only the owning thread touches these (the wait-graph fields: under `WaitGraph.lock`), so
    // they skip dynamic exclusivity checks, which would cost more than a push and a pop.
    @usableFromInline @exclusivity(unchecked) var frames = FrameStack()
    /// The `graph` scope's values: a short list searched from the end, cheaper than hashing for
    /// the handful a resolution makes.
    @usableFromInline @exclusivity(unchecked) var graphValues: [(key: GraphKey, value: AnyObject)] = []
    @usableFromInline @exclusivity(unchecked) var traceLines: [String] = []
    /// How many of `traceLines` are begun and not completed yet. The lines are logged when the
    /// last is completed, not when the frame stack empties: a resolution can begin its line before
    /// its frame is pushed, and a `deinit` that resolves in between (of a value its creation
    /// replaces) must not log, and drop, that line.
    @exclusivity(unchecked) var openTraceLines = 0
    /// Inside an async factory's closure: where the finished lines go, and how deep they start.
    @exclusivity(unchecked) var asyncTrace: AsyncTrace?
    @exclusivity(unchecked) var traceDepthOffset = 0
    /// This thread's waits for other threads' creations, innermost last (a logger called during
    /// a long wait may resolve and wait again); see `WaitGraph`.
    @exclusivity(unchecked) var waits: [Wait] = []

    /// A wait of this thread, as the wait graph sees it.
    struct Wait {
        /// The creation waited for; `nil` once another thread released the wait.
        var flight: InFlight?
        /// Whether the wait goes on at a cycle (a wait for `autoRegister()`), and whether another
        /// thread released it to break one; see `WaitGraph.enter`.
        var goesOnAtCycle: Bool
        var released = false
        /// The thread's frames when the wait began, for a cycle's path.
        var frames: [ResolutionFrame]
    }

    /// The creation this thread waits for now.
    var waitingFor: InFlight? { waits.last?.flight }

    /// Ends the innermost wait's part in the wait graph, to break a cycle: it waits for nothing
    /// and is `released`, so its thread goes on. Returns its frames, to release after the lock.
    func releaseInnermostWait() -> [ResolutionFrame] {
        let innermost = waits.count - 1
        waits[innermost].released = true
        waits[innermost].flight = nil
        defer { waits[innermost].frames = [] }
        return waits[innermost].frames
    }
    /// The creations of kept values (singleton, cached, shared) in progress on this thread,
    /// innermost last: the index of the creating factory's frame, its scope and its definition. A
    /// task-bound value resolved inside one would be kept past its block (see `TaskBoundCapture`).
    @exclusivity(unchecked) var keptCreations: [(frameIndex: Int, scope: Scope.Kind, site: DefinitionSite)] = []

    @usableFromInline
    var depth: Int { frames.count }

    deinit {
        frames.deallocate()
    }

    /// The current thread's chain, created on first use and released when the thread exits. The
    /// thread-local slot holds one reference, taken when the chain is made and given back by the
    /// slot's destructor; a caller takes its own.
    static var current: ResolutionChain {
        pthread_getspecific(threadKey).map { Unmanaged<ResolutionChain>.fromOpaque($0).takeUnretainedValue() }
            ?? makeCurrent()
    }

    /// The current thread's chain, if it has one.
    static var currentIfAny: ResolutionChain? {
        pthread_getspecific(threadKey).map { Unmanaged<ResolutionChain>.fromOpaque($0).takeUnretainedValue() }
    }

    @usableFromInline
    static func makeCurrent() -> ResolutionChain {
        let chain = ResolutionChain()
        pthread_setspecific(threadKey, Unmanaged.passRetained(chain).toOpaque())
        return chain
    }

    /// Pushes a frame for a factory's closure on the current thread's chain, which it returns for
    /// `leave(_:)`; reports a cycle if this resolution is already on the stack. Not generic:
    /// `parameter` boxes the factory's parameter, and runs only where cycle detection looks at it.
    @usableFromInline
    static func enter(
        container: any ManagedContainer, key: FactoryKey, result: Any.Type, site: DefinitionSite,
        isParameterized: Bool, parameter: () -> FrameParameter?
    ) -> ResolutionChain {
        let chain = current
        chain.push(
            container: container, key: key, result: result, site: site, isParameterized: isParameterized,
            parameter: parameter)
        return chain
    }

    /// Pops the frame `enter` pushed.
    @usableFromInline
    static func leave(_ chain: ResolutionChain) {
        chain.pop()
    }

    /// Enters a factory's closure (or a wait for one), reporting a cycle if this resolution is
    /// already on the stack.
    func push<P>(
        container: any ManagedContainer, key: FactoryKey, result: Any.Type, site: DefinitionSite, parameter: P
    ) {
        push(
            container: container, key: key, result: result, site: site, isParameterized: P.self != Void.self,
            parameter: { FrameParameter.box(parameter) })
    }

    /// `push`, with the parameter boxed by `parameter` only where cycle detection looks at it.
    func push(
        container: any ManagedContainer, key: FactoryKey, result: Any.Type, site: DefinitionSite,
        isParameterized: Bool, parameter: () -> FrameParameter?
    ) {
        // Under `validate` (which records a graph), from the first level: a factory that takes a
        // lock around a resolution would otherwise wait for itself before depth 8.
        let checks = frames.count >= ResolutionChain.detectionDepth || Diagnostics.isObserving
        let recordsParameter = checks && isParameterized
        let frame = ResolutionFrame(
            container: ObjectIdentifier(container),
            containerType: type(of: container),
            key: key,
            resultType: result,
            site: site,
            parameter: recordsParameter ? parameter() : nil,
            isParameterized: isParameterized
        )
        if checks {
            checkForCycle(adding: frame)
        }
        frames.append(frame)
    }

    /// Leaves the innermost factory; when the outermost one finishes, the `graph` scope's values
    /// are released.
    func pop() {
        frames.removeLast()
        if frames.isEmpty && !graphValues.isEmpty {
            // One by one: `removeAll(keepingCapacity:)` goes through a generic range replacement.
            while graphValues.popLast() != nil {}
        }
    }

    @usableFromInline
    func checkForCycle(adding frame: ResolutionFrame) {
        // Searched in place: this runs on every push below the detection depth.
        if let start = frames.lastIndex(where: { $0.isSameResolution(as: frame, parametersMustBeKnown: true) }) {
            let frames = self.frames.array
            let period = frames.count - start
            var first = start
            // Walk back to where the repetition began, so the path starts where the cycle was entered.
            while first > 0,
                frames[first - 1].isSameResolution(as: frames[first - 1 + period], parametersMustBeKnown: false)
            {
                first -= 1
            }
            let cycle = frames[first..<(first + period)]
            let path = cycle.map(\.description) + [frames[first].description]
            DependencyCycle.report(path: path, chain: self, sites: ResolutionFrame.sites(of: cycle))
        }
        if frames.count >= ResolutionChain.maximumDepth {
            let recent = frames.array.suffix(12).map(\.description) + [frame.description]
            DependencyCycle.reportTooDeep(recent: recent, limit: ResolutionChain.maximumDepth, chain: self)
        }
    }

    // MARK: Trace

    /// Reserves the trace line of a resolution at the current depth; it is completed by
    /// `completeTrace` so lines come out parent first.
    @usableFromInline
    func beginTrace(_ description: String) -> Int {
        if openTraceLines == 0 {
            // An outermost synchronous resolution may run inside an async factory's closure.
            let stack = AsyncResolution.stack
            asyncTrace = stack.last?.trace
            traceDepthOffset = stack.count
        }
        traceLines.append(Diagnostics.traceLine(depth: traceDepthOffset + frames.count, description))
        openTraceLines += 1
        return traceLines.count - 1
    }

    @usableFromInline
    func completeTrace<T>(_ index: Int, tag: ValueOrigin, value: T) {
        traceLines[index] += Diagnostics.traceSuffix(tag: tag, value: value)
        openTraceLines -= 1
        if openTraceLines == 0 { flushTrace() }
    }

    func flushTrace() {
        let lines = traceLines
        traceLines.removeAll()
        if let asyncTrace {
            self.asyncTrace = nil
            asyncTrace.append(lines)
        } else {
            for line in lines { Diagnostics.log(line) }
        }
    }
}

extension ResolutionChain {
    /// The value the `graph` scope keeps for `key` in the current resolution.
    func graphValue(for key: GraphKey) -> AnyObject? {
        var index = graphValues.count
        while index > 0 {
            index -= 1
            let entry = graphValues[index]
            if entry.key.container == key.container, entry.key.factory == key.factory,
                FrameParameter.same(entry.key.parameter, key.parameter)
            {
                return entry.value
            }
        }
        return nil
    }
}

/// The key of a value cached by the `graph` scope during one resolution.
@usableFromInline
struct GraphKey {
    @usableFromInline let container: ObjectIdentifier
    @usableFromInline let factory: FactoryKey
    /// Boxed, and only for `scopeOnParameters` factories: `AnyHashable` is resilient, and an
    /// unboxed one makes every key copy go through the runtime.
    @usableFromInline let parameter: FrameParameter?
}

/// Releases a thread's chain when the thread exits.
private func releaseChain(_ pointer: UnsafeMutableRawPointer?) {
    guard let pointer else { return }
    Unmanaged<ResolutionChain>.fromOpaque(pointer).release()
}

private func createThreadKey() -> pthread_key_t {
    var key = pthread_key_t()
    let status = pthread_key_create(&key) { releaseChain($0) }
    precondition(status == 0, "FactoryKit: could not create its thread-local key (error \(status))")
    return key
}

/// The thread-local key plus one, or zero before the first resolution creates it: a statically
/// allocated word, so reading it needs no lazy-initialization check, which every resolution would
/// otherwise make.
var threadKeyWord: AtomicWord { ProcessWords.diagnostics + 1 }

var threadKey: pthread_key_t {
    let word = threadKeyWord.loadAcquiring()
    return word != 0 ? pthread_key_t(truncatingIfNeeded: word &- 1) : publishThreadKey()
}

/// Creates the key; when threads race, the first to publish wins and the others delete theirs.
@usableFromInline
func publishThreadKey() -> pthread_key_t {
    let key = createThreadKey()
    let (exchanged, current) = threadKeyWord.compareExchange(expected: 0, desired: UInt(key) &+ 1)
    if exchanged { return key }
    pthread_key_delete(key)
    return pthread_key_t(truncatingIfNeeded: current &- 1)
}
