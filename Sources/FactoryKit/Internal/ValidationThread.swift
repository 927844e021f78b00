import Foundation

/// Runs a synchronous resolution for `validate` on a thread of its own, so that a dependency
/// cycle, which a synchronous factory cannot unwind, parks that thread instead of stopping the
/// process: the cycle is reported and validation goes on.
///
/// The thread binds what validation binds for async factories (the sink, the validation's
/// singletons) and the caller's `Container.shared`. A parked thread holds no lock (cycles are
/// reported before anything is locked) and stays parked for the rest of the process; what it
/// left half-created belongs to the fresh container and singletons of that one validation.
enum ValidationThread {
    /// The validation running on this thread, which a cycle reports to before parking.
    @TaskLocal static var current: Run?

    /// One synchronous resolution: it ends once, when the resolution returns or a cycle is
    /// reported, whichever comes first.
    final class Run: @unchecked Sendable {
        private let continuation: Locked<CheckedContinuation<Void, Never>?>
        let sink: ValidationSink

        init(_ continuation: CheckedContinuation<Void, Never>, sink: ValidationSink) {
            self.continuation = Locked(continuation)
            self.sink = sink
        }

        /// Lets the waiting validation go on; later calls do nothing.
        func finish() {
            let waiting = continuation.withLock { continuation in
                defer { continuation = nil }
                return continuation
            }
            waiting?.resume()
        }

        /// Reports the cycle, lets validation go on, and parks the calling thread for good.
        func reportCycleAndPark(factory: String, message: String) -> Never {
            reportAndPark(ValidationIssue(kind: .cycle, factory: factory, message: message))
        }

        /// Reports `issue`, which the resolution cannot get past, lets validation go on, and parks
        /// the calling thread for good.
        func reportAndPark(_ issue: ValidationIssue) -> Never {
            sink.report(issue)
            finish()
            let never = DispatchSemaphore(value: 0)
            while true { never.wait() }
        }
    }

    /// Runs `resolve` on a new thread with the validation's bindings and waits until it returns
    /// or reports a cycle.
    static func run(
        reportingTo sink: ValidationSink, shared: Container, singletons: Scope.Singleton,
        _ resolve: @escaping () -> Void
    ) async {
        // The closure resolves a factory built for this validation; nothing else touches it.
        nonisolated(unsafe) let resolve = resolve
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let run = Run(continuation, sink: sink)
            let thread = Thread {
                $current.withValue(run) {
                    ValidationSink.$current.withValue(sink) {
                        Scope.$singleton.withValue(singletons) {
                            Container.$shared.withValue(shared) { resolve() }
                        }
                    }
                }
                run.finish()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }
}
