import FactoryKitAtomics

/// Runs a synchronous resolution for `validate` on a thread of its own, which has ended before
/// validation goes on.
///
/// A synchronous factory returns a value or nothing, so a dependency cycle in it cannot be
/// unwound with an error. On this thread a cycle is reported to the validation and the resolution
/// is abandoned instead (`fk_run_abandonable`): its frames are discarded without running, the
/// bindings made around it are undone as usual, and the thread ends. Nothing FactoryKit locks is
/// held when a cycle is reported.
///
/// The thread binds validation's own `Container.shared` and singletons, never the caller's, so
/// what an abandoned resolution left reserved or half-created belongs to them alone. What its
/// discarded frames had retained is never released: a copy of those frames is kept for the rest
/// of the process, so that it stays reachable, with the fresh containers and singletons of that
/// one factory's validation (the stack the resolution had used and those few objects: a few
/// kilobytes per cycle found). A lock the user's own code held in those frames stays locked.
enum ValidationThread {
    /// The validation whose resolution runs on this thread, which a cycle reports to.
    @TaskLocal static var current: Run?

    /// The stack of a validation thread: what the main thread of a process gets on Linux, so that
    /// a deep graph resolves here as it would there.
    static let stackSize = 8 << 20

    /// One synchronous resolution of a validation.
    final class Run: @unchecked Sendable {
        let bindings: ValidationBindings
        private let resolve: () -> Void
        /// The continuation of the waiting validation, or whether the thread has finished first.
        private let state = Locked<(continuation: CheckedContinuation<Void, Never>?, finished: Bool)>((nil, false))

        init(_ bindings: ValidationBindings, _ resolve: @escaping () -> Void) {
            self.bindings = bindings
            self.resolve = resolve
        }

        /// The thread's body: the resolution, abandoned at a cycle, with validation's bindings.
        func main() {
            ValidationThread.$current.withValue(self) {
                bindings.bind {
                    _ = fk_run_abandonable(
                        { context in Unmanaged<Run>.fromOpaque(context!).takeUnretainedValue().resolve() },
                        Unmanaged.passUnretained(self).toOpaque())
                }
            }
            let waiting = state.withLock { state in
                state.finished = true
                return state.continuation
            }
            waiting?.resume()
        }

        /// Suspends until ``main()`` has returned.
        func finished() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let done = state.withLock { state in
                    if !state.finished { state.continuation = continuation }
                    return state.finished
                }
                if done { continuation.resume() }
            }
        }

        /// Reports `finding`, which the resolution cannot get past, and abandons the resolution.
        func reportAndAbandon(_ finding: ValidationFinding) -> Never {
            bindings.sink.report(finding)
            fk_abandon_run()
        }
    }

    /// The validation to report to if the current thread is a validation thread inside its
    /// resolution, where the resolution can be abandoned; nil anywhere else (a thread or task the
    /// resolution started, for one).
    static var abandonable: Run? {
        guard fk_in_abandonable_run() else { return nil }
        return current
    }

    /// Runs `resolve` on a new thread with validation's bindings and returns once that thread has
    /// ended, the resolution returned or abandoned.
    static func run(_ bindings: ValidationBindings, _ resolve: @escaping () -> Void) async {
        let run = Run(bindings, resolve)
        let context = Unmanaged.passRetained(run)
        defer { context.release() }
        guard
            let thread = fk_thread_start(
                { context in Unmanaged<Run>.fromOpaque(context!).takeUnretainedValue().main() },
                context.toOpaque(), stackSize)
        else {
            Diagnostics.stop(
                "validate could not start a thread to resolve \(bindings.factory); "
                    + "the process is out of threads or memory.")
        }
        await run.finished()
        // The thread returned from `main()` already: this waits only for it to exit.
        fk_thread_join(thread)
    }
}

/// What a validation binds around one factory's resolution: where issues go, and the fresh
/// `Container.shared` and singletons it resolves with.
struct ValidationBindings: @unchecked Sendable {
    // Sent to a validation thread; containers and singleton caches are safe across threads.
    let sink: ValidationSink
    /// The factory being validated, for messages.
    let factory: String
    let shared: Container
    let singletons: Scope.Singleton

    /// Runs `body` with the sink, the singletons and `Container.shared` bound.
    func bind<R>(_ body: () -> R) -> R {
        ValidationSink.$current.withValue(sink) {
            Scope.$singleton.withValue(singletons) {
                Container.$shared.withValue(shared, operation: body)
            }
        }
    }

    /// `bind(_:)` for an async `body`.
    func bind<R: Sendable>(_ body: () async -> R) async -> R {
        await ValidationSink.$current.withValue(sink) {
            await Scope.$singleton.withValue(singletons) {
                await Container.$shared.withValue(shared, operation: body)
            }
        }
    }
}
